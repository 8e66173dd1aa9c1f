"""Lesson 10: corpus BLEU at scale, on a Dask cluster.

A corpus's statistics are the sum of its sentences' statistics, and a sum can
be cut anywhere: split the corpus into shards, count each shard's
``BleuStats`` on another core or machine, add them up. The statistics are
integers, which add exactly in any order, so the score is the single-process
score bit for bit, whatever the shard size or the number of workers.

dask.distributed runs the map. A ``Client`` talks to a scheduler, which hands
each shard's task to a worker: the scheduler and workers you started on your
machines (``dask scheduler``, ``dask worker ADDRESS``), or a ``LocalCluster``
of worker processes on this machine (``local_cluster``, which hosts it in a
process of its own so that Ctrl-C and the end of this process stop it cleanly). ``map_in_order``
keeps a few shards in flight per worker, so a stream of any length is scored
in bounded memory, and yields the results in the order of the shards.
"""

import os
import select
import signal
import subprocess
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from itertools import islice
from typing import Any, TypeVar

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson05_sentence import DEFAULT_WEIGHTS, BleuStats, Score, Smoothing, Weights, bleu_from_stats, max_n_of
from .lesson10_batch import batch_corpus_stats

Item = TypeVar("Item")
Shard = TypeVar("Shard")
Result = TypeVar("Result")


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


# The program of the process that hosts a local cluster: it prints the
# scheduler's address once the workers are up, then keeps the cluster until
# its standard input closes, which happens when the process that started it
# ends, however it ends. No dashboard; the scheduler's HTTP server (health
# checks) takes a free port on 127.0.0.1, not Dask's 8787, so that clusters
# started at once do not compete for it.
CLUSTER_HOST = """
import logging, sys
import dask
from distributed import LocalCluster
# The scheduler and workers keep no copy of the last 1,000 messages (shards): memory stays that of a few shards.
dask.config.set({"distributed.admin.low-level-log-length": 0})
with LocalCluster(
    n_workers=int(sys.argv[1]), threads_per_worker=1, processes=True, host="127.0.0.1",
    dashboard_address=None, worker_dashboard_address=None, silence_logs=logging.CRITICAL,
    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
) as cluster:
    print(cluster.scheduler_address, flush=True)
    sys.stdin.read()
"""


# Seconds a local cluster may take to stop before its processes are killed.
CLOSE_TIMEOUT = 30


@contextmanager
def local_cluster(workers: int, timeout: float = 120) -> Iterator[Any]:
    """A ``Client`` of a Dask ``LocalCluster`` of ``workers`` processes on this machine, listening on 127.0.0.1 only.

    The cluster lives in a process of its own, in a session of its own: Ctrl-C
    at a terminal reaches only this process, which stops the cluster by
    leaving the block, however it leaves it.
    """
    from distributed import Client

    with tempfile.TemporaryFile() as errors:
        host = subprocess.Popen(
            [sys.executable, "-c", CLUSTER_HOST, str(workers)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            start_new_session=True,
        )
        assert host.stdin is not None and host.stdout is not None  # both are pipes
        try:
            ready, _, _ = select.select([host.stdout], [], [], timeout)
            address = host.stdout.readline().decode().strip() if ready else ""
            if not address:
                errors.seek(0)
                last = errors.read().decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
                raise RuntimeError(f"the local Dask cluster did not start: {last[0]}")
            with Client(address, timeout=f"{timeout}s") as client:
                yield client
        finally:
            host.stdin.close()
            with suppress(subprocess.TimeoutExpired):
                host.wait(CLOSE_TIMEOUT)
            # Whatever is left of the cluster's process group goes too.
            with suppress(ProcessLookupError):
                os.killpg(host.pid, signal.SIGKILL)
            host.wait()


def map_in_order(
    client: Any, function: Callable[..., Result], stream: Iterable[Shard], *args: Any, window: int | None = None
) -> Iterator[Result]:
    """``function(shard, *args)`` for every shard of ``stream``, computed by the client's workers, in shard order.

    At most ``window`` shards (by default two per worker thread) are in flight:
    the next shard is read from ``stream`` only when the oldest result has been
    taken, so memory holds a few shards whatever the length of the stream. An
    error of ``function`` is raised here, and the shards in flight are dropped.
    """
    window = window or 2 * sum(client.nthreads().values())
    pending: deque = deque()
    stream = iter(stream)
    try:
        for shard in islice(stream, window):
            pending.append(client.submit(function, shard, *args, pure=False))
        while pending:
            result = pending.popleft().result()
            for shard in islice(stream, 1):
                pending.append(client.submit(function, shard, *args, pure=False))
            yield result
    finally:
        client.cancel(list(pending))


def sum_shard_stats(
    shard_stats: Callable[[Shard], BleuStats], stream: Iterable[Shard], max_n: int, client: Any = None
) -> BleuStats:
    """Map every shard to its statistics and add them up: on the client's workers, or in this process without one.

    ``shard_stats`` must be picklable for a client (a module-level function
    or a ``functools.partial`` of one).

    >>> stream = shards([([["a", "b"]], ["a", "b"]), ([["c"]], ["d"])], size=1)
    >>> sum_shard_stats(partial(pairs_stats, max_n=2), stream, max_n=2)
    BleuStats(hyp_len=3, ref_len=3, matches=(2, 1), totals=(3, 1), too_short=(0, 1))
    """
    results = map(shard_stats, stream) if client is None else map_in_order(client, shard_stats, stream)
    return sum(results, BleuStats.zero(max_n))


def pairs_stats(shard: Sequence[tuple[Sequence[Sequence[Token]], Sequence[Token]]], max_n: int = 4) -> BleuStats:
    """The statistics of a shard of ``(references, hypothesis)`` pairs, counted as one batch (``batch_corpus_stats``).

    >>> pairs_stats([([["a", "b"]], ["a", "b"]), ([["c"]], ["d"])], max_n=2)
    BleuStats(hyp_len=3, ref_len=3, matches=(2, 1), totals=(3, 1), too_short=(0, 1))
    """
    list_of_references, hypotheses = zip(*shard)
    return batch_corpus_stats(list_of_references, hypotheses, max_n)


@contextmanager
def cluster(client: Any = None, jobs: int = 1) -> Iterator[Any]:
    """The client to count on: ``client`` if given, else a local cluster of ``jobs`` workers, else None (here)."""
    if client is not None or jobs <= 1:
        yield client
        return
    with local_cluster(jobs) as started:
        yield started


@door(checks.corpus, checks.highest_order)
def parallel_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    max_n: int = 4,
    client: Any = None,
    jobs: int = 2,
    shard_size: int = 10_000,
) -> BleuStats:
    """``corpus_stats`` counted in shards of ``shard_size`` pairs on a Dask cluster.

    The cluster is ``client``'s, or else a local one of ``jobs`` processes for
    this call (``jobs=1``: this process, no cluster).

    >>> refs = [[["a", "b", "c"]], [["d", "e"]]]
    >>> hyps = [["a", "b", "c"], ["d"]]
    >>> parallel_corpus_stats(refs, hyps, max_n=2, jobs=1, shard_size=1)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    ### BEGIN SOLUTION
    stream = shards(zip(list_of_references, hypotheses), shard_size)
    with cluster(client, jobs) as counting_on:
        # The corpus was checked at this door: each shard is counted as from inside it.
        shard_stats = partial(checks.as_checked, pairs_stats, max_n=max_n)
        return sum_shard_stats(shard_stats, stream, max_n, counting_on)
    ### END SOLUTION


@door(checks.corpus, checks.weights)
def parallel_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
    client: Any = None,
    jobs: int = 2,
    shard_size: int = 10_000,
) -> Score:
    """``corpus_bleu`` with the statistics counted on a Dask cluster (see ``parallel_corpus_stats``): the same value.

    >>> hyp1, hyp2 = "the cat sat on the mat".split(), "a dog".split()
    >>> refs1, refs2 = ["the cat sat on the mat".split()], ["a dog barked".split()]
    >>> round(parallel_corpus_bleu([refs1, refs2], [hyp1, hyp2], weights=(0.5, 0.5), jobs=1), 4)
    0.8825
    """
    # The same steps as lesson 06's corpus_bleu, so the edition hides them too.
    ### BEGIN SOLUTION
    stats = parallel_corpus_stats(list_of_references, hypotheses, max_n_of(weights), client, jobs, shard_size)
    # Smoothing methods 5-7 read the last sentence pair, as NLTK's do.
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, list_of_references[-1], hypotheses[-1])
    ### END SOLUTION
