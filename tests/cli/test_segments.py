"""Text segments to tokens to statistics: the tokenizers and the counting of lines, in shards or not."""

import json

import sacrebleu

from bleu_cli import segments
from bleu_scratch import corpus_stats
from bleu_scratch.notebook import read_lines
from bleu_scratch.parallel import shards, sum_shard_stats
from tests.cli.run_command import run_main


def test_13a_statistics_equal_sacrebleu_on_raw_text(capsys, wmt15):
    hypotheses, references = read_lines(wmt15["raw hypothesis"]), read_lines(wmt15["raw reference"])
    theirs = sacrebleu.corpus_bleu(hypotheses, [references], tokenize="13a")
    status, out, _ = run_main(capsys, wmt15["raw hypothesis"], wmt15["raw reference"], "--tokenize", "13a", "--json")
    stats = json.loads(out)["stats"]
    assert status == 0
    assert (stats["matches"], stats["totals"]) == (theirs.counts, theirs.totals)
    assert (stats["hyp_len"], stats["ref_len"]) == (theirs.sys_len, theirs.ref_len)


def test_line_shards_equal_token_shards(data_dir):
    folder = data_dir / "wmt15-enru-100"
    lines = list(zip(*[read_lines(folder / name) for name in ["google.ru", "ref.ru"]]))
    hypotheses = [hyp.split() for hyp, _ in lines]
    references = [[ref.split()] for _, ref in lines]
    stream = shards(lines, 16)
    assert sum_shard_stats(segments.stats_of_segments, stream, 4, jobs=2) == corpus_stats(references, hypotheses)
