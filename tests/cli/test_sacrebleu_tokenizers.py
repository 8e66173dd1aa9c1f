"""``--tokenize`` with each of sacrebleu's offline tokenizers: sacrebleu's statistics, so sacrebleu's score."""

import json

import pytest
import sacrebleu

from bleu_scratch import SACREBLEU_TOKENIZERS, BleuStats, sacrebleu_from_stats
from tests.cli.run_command import run_main, write

# A small file pair of several scripts, with what each tokenizer treats apart: trailing whitespace after a
# number's period (intl), CJK text (zh, char, MeCab), full-width forms, escapes (13a).
HYPOTHESES = [
    "The cat sat on the mat in 1990. ",
    "Премьер-министр прибыл в 14:30, 5.5 км от «Кремля».",
    "我们在2024年用BLEU评分，得分是3.5。",
    "猫がマットの上に座った。",
    "고양이가 매트 위에 앉았다.",
    "It&apos;s 100€ — ＡＢＣ！",
]
REFERENCES = [
    "The cat sat on the mat in 1990.",
    "Премьер-министр прибыл в 14:30 , в 5 км от «Кремля».",
    "我们在2024年用BLEU打分，分数是3.5。",
    "猫はマットの上に座っていた。",
    "고양이는 매트 위에 앉아 있었다.",
    "It's 100 € - ＡＢＣ!",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scripts")
    return [
        write(folder / name, "\n".join(lines).encode("utf-8") + b"\n")
        for name, lines in [("hyp.txt", HYPOTHESES), ("ref.txt", REFERENCES)]
    ]


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", list(SACREBLEU_TOKENIZERS))
def test_statistics_and_score_are_sacrebleus(capsys, files, name, lowercase):
    theirs = sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES], tokenize=name, lowercase=lowercase)
    case = ["--lowercase"] if lowercase else []
    status, out, _ = run_main(capsys, *files, "--tokenize", name, *case, "--json")
    assert status == 0
    stats = json.loads(out)["stats"]
    assert (stats["matches"], stats["totals"]) == (theirs.counts, theirs.totals)
    assert (stats["hyp_len"], stats["ref_len"]) == (theirs.sys_len, theirs.ref_len)
    ours = BleuStats(stats["hyp_len"], stats["ref_len"], tuple(stats["matches"]), tuple(stats["totals"]), (0,) * 4)
    assert sacrebleu_from_stats(ours) == theirs.score


def test_the_pair_tells_the_tokenizers_apart():
    scores = {
        name: sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES], tokenize=name).score for name in SACREBLEU_TOKENIZERS
    }
    assert len(set(scores.values())) == len(scores), scores
