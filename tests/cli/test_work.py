"""What a shard becomes: tokens, statistics, and each segment's score, wherever it is scored."""

import json

import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_cli.pipeline import score_shard
from bleu_cli.settings import Settings
from bleu_scratch import corpus_stats
from bleu_scratch.lesson10_parallel import shards
from bleu_scratch.notebook import read_lines
from tests.cli.run_command import run_main


def test_13a_statistics_equal_sacrebleu_on_raw_text(capsys, wmt15):
    hypotheses, references = read_lines(wmt15["raw hypothesis"]), read_lines(wmt15["raw reference"])
    theirs = sacrebleu.corpus_bleu(hypotheses, [references], tokenize="13a")
    status, out, _ = run_main(capsys, wmt15["raw hypothesis"], wmt15["raw reference"], "--tokenize", "13a", "--json")
    stats = json.loads(out)["stats"]
    assert status == 0
    assert (stats["matches"], stats["totals"]) == (theirs.counts, theirs.totals)
    assert (stats["hyp_len"], stats["ref_len"]) == (theirs.sys_len, theirs.ref_len)


def test_shards_of_lines_add_up_to_the_corpus_statistics(data_dir):
    folder = data_dir / "wmt15-enru-100"
    lines = list(zip(*[read_lines(folder / name) for name in ["google.ru", "ref.ru"]]))
    hypotheses = [hyp.split() for hyp, _ in lines]
    references = [[ref.split()] for _, ref in lines]
    results = [score_shard(shard, Settings("hyp", ("ref",))) for shard in shards(lines, 16)]
    assert sum((result.stats for result in results), results[0].stats.zero(4)) == corpus_stats(references, hypotheses)
    # The last segment's tokens, for smoothing methods 5 to 7: tokenized once, where its shard was.
    assert results[-1].last == (references[-1], hypotheses[-1]) and sum(result.count for result in results) == 100


def test_sentence_scores_of_a_shard_are_nltks_with_its_warnings_once(data_dir):
    folder = data_dir / "wmt15-enru-100"
    lines = list(zip(*[read_lines(folder / name) for name in ["google.ru", "ref.ru"]]))[:40]
    result = score_shard(lines, Settings("hyp", ("ref",), sentence=True, smoothing=2))
    method2 = NltkSmoothingFunction().method2
    assert [score for score, _ in result.scores] == [
        nltk_sentence_bleu([r.split()], h.split(), smoothing_function=method2) for h, r in lines
    ]
    plain = score_shard(lines, Settings("hyp", ("ref",), sentence=True))
    assert len(plain.warnings) == len(set(plain.warnings)) >= 1
