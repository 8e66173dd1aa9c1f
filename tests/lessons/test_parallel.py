"""Shards scored on other processes add up to exactly the single-process statistics and NLTK's score.

Small data and at most 2 processes keep these quick; the speed-up is measured
in notebook 10 and benchmarks/, never asserted here.
"""

import os
import random
import sys

import pytest
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

from bleu_scratch import (
    BleuStats,
    SmoothingFunction,
    corpus_bleu,
    corpus_stats,
    parallel_corpus_bleu,
    parallel_corpus_stats,
)
from bleu_scratch.parallel import shards, sum_shard_stats


@pytest.fixture(scope="module")
def wmt15(data_dir):
    folder = data_dir / "wmt15-enru-100"
    hypotheses = [line.split() for line in (folder / "google.ru").read_text(encoding="utf-8").splitlines()]
    references = [[line.split()] for line in (folder / "ref.ru").read_text(encoding="utf-8").splitlines()]
    return references, hypotheses


@pytest.fixture(scope="module")
def synthetic():
    """300 segments over 8 words (many repeated n-grams), 0 to 12 tokens, 1 to 4 references."""
    rng = random.Random(10)
    words = "a b c d e f g h".split()

    def sentence():
        return rng.choices(words, k=rng.randint(0, 12))

    hypotheses = [sentence() for _ in range(300)]
    references = [[sentence() for _ in range(rng.randint(1, 4))] for _ in hypotheses]
    return references, hypotheses


def test_wmt15_parallel_equals_single_process_and_nltk(wmt15):
    references, hypotheses = wmt15
    expected = nltk_corpus_bleu(references, hypotheses)
    assert parallel_corpus_bleu(references, hypotheses, jobs=2, shard_size=7) == corpus_bleu(references, hypotheses) == expected
    assert parallel_corpus_stats(references, hypotheses, jobs=2, shard_size=30) == corpus_stats(references, hypotheses)


@pytest.mark.parametrize("shard_size", [1, 13, 1000])
def test_synthetic_statistics_do_not_depend_on_the_shard_size(synthetic, shard_size):
    references, hypotheses = synthetic
    assert parallel_corpus_stats(references, hypotheses, 4, jobs=2, shard_size=shard_size) == corpus_stats(references, hypotheses)


def test_synthetic_score_with_last_pair_smoothing_equals_nltk(synthetic):
    references, hypotheses = synthetic
    # Method 7 reads the last sentence pair, which must still be the corpus's last one.
    ours = parallel_corpus_bleu(references, hypotheses, (0.4, 0.3, 0.2, 0.1), SmoothingFunction().method7, jobs=2, shard_size=50)
    theirs = nltk_corpus_bleu(references, hypotheses, (0.4, 0.3, 0.2, 0.1), NltkSmoothingFunction().method7)
    assert ours == theirs


def other_process(shard: list[int]) -> BleuStats:
    """1 for a shard counted in a process other than the one that made it (its pid is the shard)."""
    return BleuStats(int(os.getpid() != shard[0]), 0, (0,), (0,), (0,))


def test_jobs_run_in_other_processes_and_one_job_in_this_one():
    stream = ([os.getpid()] for _ in range(5))
    assert sum_shard_stats(other_process, stream, 1, jobs=2).hyp_len == 5
    assert sum_shard_stats(other_process, ([os.getpid()] for _ in range(5)), 1, jobs=1).hyp_len == 0


def dask_imported(shard: list) -> BleuStats:
    """1 for a shard counted in a process that has imported Dask."""
    return BleuStats(int("dask" in sys.modules), 0, (0,), (0,), (0,))


def test_workers_do_not_import_dask():
    # Dask's process scheduler sends its own task objects, and each worker
    # would import Dask to read them.
    assert sum_shard_stats(dask_imported, ([0] for _ in range(6)), 1, jobs=2).hyp_len == 0


def test_shards_cut_a_stream_lazily():
    stream = iter(range(7))
    cut = shards(stream, 3)
    assert next(cut) == [0, 1, 2]
    assert next(stream) == 3, "only the first shard was read"
    assert list(cut) == [[4, 5, 6]]
    assert list(shards([], 3)) == []


@pytest.mark.parametrize("call", [lambda: list(shards([1], 0)), lambda: sum_shard_stats(len, [], 4, jobs=0)])
def test_sizes_below_one_are_refused(call):
    with pytest.raises(ValueError, match="at least 1"):
        call()


def test_corpus_checks_apply(wmt15):
    references, hypotheses = wmt15
    with pytest.raises(ValueError, match="99 hypotheses but 100 reference lists"):
        parallel_corpus_stats(references, hypotheses[:-1], jobs=2)


def test_any_collection_nltk_scores_is_scored_the_same(same_as_nltk):
    # A dict's values view, as NLTK's corpus_bleu and ours take it, with smoothing
    # that reads the last pair.
    hypotheses = {0: "the cat sat on the mat".split(), 1: "a dog".split()}.values()
    references = {0: ["the cat sat on a mat".split()], 1: ["a dog barked".split()]}.values()
    method5 = SmoothingFunction().method5
    same_as_nltk(
        lambda: parallel_corpus_bleu(references, hypotheses, smoothing_function=method5, jobs=1),
        lambda: nltk_corpus_bleu(references, hypotheses, smoothing_function=NltkSmoothingFunction().method5),
    )
