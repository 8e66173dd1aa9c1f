"""Shards counted on a real Dask cluster add up to exactly the single-process statistics and NLTK's score.

The cluster is dask.distributed's, on 127.0.0.1: one shared by the session
(tests/conftest.py's ``dask_client``), and one started and stopped by a test
through ``jobs``. Small data keeps these quick; speed is measured in
benchmarks/, never asserted here.
"""

import os
import random

import psutil
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
from bleu_scratch.lesson10_parallel import local_cluster, map_in_order, shards, sum_shard_stats


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


def test_wmt15_on_the_cluster_equals_single_process_and_nltk(wmt15, dask_client):
    references, hypotheses = wmt15
    expected = nltk_corpus_bleu(references, hypotheses)
    assert (
        parallel_corpus_bleu(references, hypotheses, client=dask_client, shard_size=7)
        == corpus_bleu(references, hypotheses)
        == expected
    )
    assert parallel_corpus_stats(references, hypotheses, client=dask_client, shard_size=30) == corpus_stats(
        references, hypotheses
    )


@pytest.mark.parametrize("shard_size", [1, 13, 1000])
def test_synthetic_statistics_do_not_depend_on_the_shard_size(synthetic, dask_client, shard_size):
    references, hypotheses = synthetic
    assert parallel_corpus_stats(references, hypotheses, 4, client=dask_client, shard_size=shard_size) == corpus_stats(
        references, hypotheses
    )


def test_synthetic_score_with_last_pair_smoothing_equals_nltk(synthetic, dask_client):
    references, hypotheses = synthetic
    # Method 7 reads the last sentence pair, which must still be the corpus's last one.
    ours = parallel_corpus_bleu(
        references, hypotheses, (0.4, 0.3, 0.2, 0.1), SmoothingFunction().method7, client=dask_client, shard_size=50
    )
    theirs = nltk_corpus_bleu(references, hypotheses, (0.4, 0.3, 0.2, 0.1), NltkSmoothingFunction().method7)
    assert ours == theirs


def worker_pid(shard: list) -> int:
    return os.getpid()


def test_shards_are_counted_by_the_workers_in_shard_order(dask_client):
    workers = set(dask_client.run(os.getpid).values())
    pids = list(map_in_order(dask_client, worker_pid, ([number] for number in range(20))))
    assert len(pids) == 20 and set(pids) <= workers and os.getpid() not in pids
    assert list(map_in_order(dask_client, sorted, ([3, number, 1] for number in range(10)), window=3)) == [
        sorted([3, number, 1]) for number in range(10)
    ]


def test_a_bounded_window_reads_the_stream_lazily(dask_client):
    read = []

    def stream():
        for number in range(10):
            read.append(number)
            yield [number]

    results = map_in_order(dask_client, sum, stream(), window=2)
    assert next(results) == 0 and read == [0, 1, 2]  # the first result, and two shards in flight
    assert list(results) == list(range(1, 10))


def test_jobs_start_a_local_cluster_on_127_0_0_1_and_stop_it(wmt15):
    with local_cluster(2) as client:
        addresses = [client.scheduler.address, *client.scheduler_info()["workers"]]
        processes = [psutil.Process(pid) for pid in client.run(os.getpid).values()]
        references, hypotheses = wmt15
        assert parallel_corpus_bleu(references, hypotheses, client=client, shard_size=10) == nltk_corpus_bleu(
            references, hypotheses
        )
    assert all(address.startswith("tcp://127.0.0.1:") for address in addresses), addresses
    assert len(processes) == 2
    gone, alive = psutil.wait_procs(processes, timeout=60)
    assert not alive, "the cluster's workers outlived it"


def test_jobs_count_on_a_cluster_of_their_own_and_one_job_in_this_process(wmt15):
    references, hypotheses = wmt15
    assert parallel_corpus_stats(references, hypotheses, jobs=2, shard_size=25) == corpus_stats(references, hypotheses)
    assert parallel_corpus_stats(references, hypotheses, jobs=1, shard_size=25) == corpus_stats(references, hypotheses)


def test_shards_cut_a_stream_lazily():
    stream = iter(range(7))
    cut = shards(stream, 3)
    assert next(cut) == [0, 1, 2]
    assert next(stream) == 3, "only the first shard was read"
    assert list(cut) == [[4, 5, 6]]
    assert list(shards([], 3)) == []


def test_a_shard_size_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        list(shards([1], 0))


def test_a_sum_in_this_process_needs_no_cluster():
    stream = shards([([["a", "b"]], ["a", "b"]), ([["c"]], ["d"])], 1)
    stats = sum_shard_stats(lambda shard: corpus_stats(*zip(*shard)), stream, 4)
    assert stats == corpus_stats([[["a", "b"]], [["c"]]], [["a", "b"], ["d"]]) and isinstance(stats, BleuStats)


def test_corpus_checks_apply(wmt15):
    references, hypotheses = wmt15
    with pytest.raises(ValueError, match="99 hypotheses but 100 reference lists"):
        parallel_corpus_stats(references, hypotheses[:-1], jobs=1)


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
