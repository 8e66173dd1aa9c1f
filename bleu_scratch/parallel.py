"""Lesson 10: corpus BLEU at scale.

A corpus's statistics are the sum of its sentences' statistics, and a sum can
be cut anywhere: split the corpus into shards, compute each shard's
``BleuStats`` in another process, add them up. The statistics are integers,
which add exactly in any order, so the score is the single-process score bit
for bit, whatever the shard size or the number of processes.

Dask runs the map: each shard is a ``dask.delayed`` task, and each task hands
its shard to a pool of local processes. Shards are handed out a few at a time
(``2 * jobs``), so a stream of any length is scored in bounded memory; the
command line (``bleu-scratch --jobs N``) uses the same ``sum_shard_stats`` on
shards of text. Only this process imports Dask, and only when processes are
asked for: the workers receive a plain function and its shard, so each one
holds Python and this package, not another copy of Dask.

On one machine Dask's part here is small: its threads wait while the
processes count. What carries over to a cluster is the shape, shards mapped
to statistics and summed; notebook 10 writes it as a ``dask.bag``
reduction, which a ``dask.distributed`` client would run as it is (not
tested here: the project does not install ``distributed``).
"""

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from itertools import islice
from typing import TypeVar

from .fast import fast_stats_of_pairs
from .ngrams import Token
from .sentence import DEFAULT_WEIGHTS, BleuStats, bleu_from_stats, max_n_of

Item = TypeVar("Item")
Shard = TypeVar("Shard")


def shards(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Cut a stream into lists of ``size`` items; the last one may be shorter.

    >>> list(shards(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    if size < 1:
        raise ValueError(f"shard size must be at least 1, got {size}")
    iterator = iter(items)
    while shard := list(islice(iterator, size)):
        yield shard


def sum_shard_stats(
    shard_stats: Callable[[Shard], BleuStats], stream: Iterable[Shard], max_n: int, jobs: int = 1
) -> BleuStats:
    """Map every shard to its statistics and add them up.

    With ``jobs > 1`` the shards go to that many local processes through
    Dask, ``2 * jobs`` at a time, so memory holds only those whatever the
    length of ``stream``. ``shard_stats`` must be picklable (a module-level
    function or a ``functools.partial`` of one).

    >>> stream = shards([([["a", "b"]], ["a", "b"]), ([["c"]], ["d"])], size=1)
    >>> sum_shard_stats(partial(fast_stats_of_pairs, max_n=2), stream, max_n=2)
    BleuStats(hyp_len=3, ref_len=3, matches=(2, 1), totals=(3, 1), too_short=(0, 1))
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    total = BleuStats.zero(max_n)
    if jobs == 1:
        for shard in stream:
            total += shard_stats(shard)
        return total
    # forkserver starts workers in a fraction of spawn's time and, unlike fork,
    # never copies the parent's threads (a Jupyter kernel runs several).
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    # Dask runs each task on a thread that sends the shard to a process and
    # waits. One thread per shard of a window: the processes get every shard
    # at once, and none waits for a thread to come back with the next.
    processes = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method))
    with processes, ThreadPoolExecutor(2 * jobs) as threads:
        for window in shards(enumerate(stream), 2 * jobs):
            total = sum(_window_stats(shard_stats, window, processes, threads), total)
            del window  # free it before the next one is read
    return total


def _window_stats(
    shard_stats: Callable[[Shard], BleuStats], window: list[tuple[int, Shard]], processes: Executor, threads: Executor
) -> tuple:
    """The statistics of each numbered shard: Dask's tasks, run on ``threads``, each computed on ``processes``.

    Dask's own process scheduler would send its task objects to the workers,
    and each worker would import Dask to unpickle them.
    """
    import dask
    import dask.threaded

    # A named leaf with traverse=False: otherwise Dask walks every token of the
    # shard looking for Dask objects and hashes them all to name the task,
    # which takes longer than counting the statistics.
    tasks = [
        dask.delayed(_stats_on, pure=False)(processes, shard_stats, dask.delayed(shard, name=f"shard-{number}", traverse=False))
        for number, shard in window
    ]
    # The threaded scheduler itself: asked for by its name, "threads", Dask
    # would first import dask.distributed to look for a cluster.
    return dask.compute(*tasks, scheduler=dask.threaded.get, pool=threads)


def _stats_on(processes: Executor, shard_stats: Callable[[Shard], BleuStats], shard: Shard) -> BleuStats:
    """``shard_stats(shard)`` computed on one of ``processes`` while this thread waits.

    Only ``shard_stats`` and ``shard`` are pickled: a worker imports the
    module of ``shard_stats`` and nothing of Dask.
    """
    return processes.submit(shard_stats, shard).result()


def parallel_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    max_n: int = 4,
    jobs: int = 2,
    shard_size: int = 10_000,
) -> BleuStats:
    """``corpus_stats`` computed on ``jobs`` processes, shards of ``shard_size`` sentence pairs.

    >>> refs = [[["a", "b", "c"]], [["d", "e"]]]
    >>> hyps = [["a", "b", "c"], ["d"]]
    >>> parallel_corpus_stats(refs, hyps, max_n=2, jobs=1, shard_size=1)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    ### BEGIN SOLUTION
    stream = shards(zip(list_of_references, hypotheses), shard_size)
    return sum_shard_stats(partial(fast_stats_of_pairs, max_n=max_n), stream, max_n, jobs)
    ### END SOLUTION


def parallel_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights=DEFAULT_WEIGHTS,
    smoothing_function=None,
    auto_reweigh: bool = False,
    jobs: int = 2,
    shard_size: int = 10_000,
):
    """``corpus_bleu`` with the statistics counted on ``jobs`` processes: the same value.

    >>> hyp1, hyp2 = "the cat sat on the mat".split(), "a dog".split()
    >>> refs1, refs2 = ["the cat sat on the mat".split()], ["a dog barked".split()]
    >>> round(parallel_corpus_bleu([refs1, refs2], [hyp1, hyp2], weights=(0.5, 0.5), jobs=1), 4)
    0.8825
    """
    # The same steps as lesson 06's corpus_bleu, so the edition hides them too.
    ### BEGIN SOLUTION
    stats = parallel_corpus_stats(list_of_references, hypotheses, max_n_of(weights), jobs, shard_size)
    # Smoothing methods 5-7 read the last sentence pair, as NLTK's do.
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, list_of_references[-1], hypotheses[-1])
    ### END SOLUTION
