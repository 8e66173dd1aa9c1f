"""The command's pipeline: settings, then read, tokens, statistics, score, print; signals and the exit status.

Reading, tokenizing and counting happen shard by shard where the shard is
scored (``work.score_shard``): in this process, or on the workers of a Dask
cluster, a local one (``--jobs N``) or yours (``--scheduler ADDRESS``). Here
the results are taken in shard order, summed or printed, and scored.

Exit status: 0 with a score; 2 for bad options or input (no score printed);
141 when the reader of the output stops early; 130 after Ctrl-C and 143 after
SIGTERM, with every process the command started stopped and nothing printed.
"""

import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from bleu_scratch import BleuStats
from bleu_scratch.parallel import cluster, map_in_order

from .errors import CommandError, NoScheduler, stop
from .inputs import FileSlice, all_regular, check_readable, file_slices, streamed_shards
from .report import WarningLog, copy_out, progress_bar, score_line
from .scoring import score
from .settings import Settings, parse
from .work import ShardResult, score_shard, segment_tokens


class Terminated(BaseException):
    """SIGTERM arrived: unwind as Ctrl-C does, stopping what was started."""


# The signal that stopped the command, once one has.
_received: list[int] = []


def run(argv: list[str]) -> int:
    """The command on ``argv``; its exit status. Bad options end in argparse (SystemExit 2)."""
    settings = parse(argv)
    previous = {number: signal.signal(number, _stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _scored(settings)
    except BaseException:
        # A library the signal interrupted (importing, or waiting on the cluster) may have turned
        # KeyboardInterrupt or Terminated into an error of its own; the command was stopped all the same.
        if _received:
            return 128 + _received[0]
        raise
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _stop(signum: int, frame: Any) -> None:
    # Once is enough: a second signal must not cut the clean-up short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _received.append(signum)
    raise KeyboardInterrupt if signum == signal.SIGINT else Terminated


def _scored(settings: Settings) -> int:
    log = WarningLog(settings.max_n)
    # Small results stay in memory; a million sentence scores go to disk.
    with tempfile.SpooledTemporaryFile(max_size=1 << 22, mode="w+", encoding="utf-8") as output:
        try:
            with log.catching():
                _write_scores(settings, output, log)
        except (CommandError, NotImplementedError) as error:
            return stop("bleu-scratch", "scores", error)
        status = copy_out(output)
    if status == 0:
        for text in log.texts:
            print(f"bleu-scratch: warning: {text}", file=sys.stderr)
    return status


def _write_scores(settings: Settings, output: IO[str], log: WarningLog) -> None:
    """Score every shard; write the corpus score, or each segment's score in line order."""
    # The files are checked (readable; for regular files, their line counts) before any worker starts.
    check_readable(settings.paths)
    slices = file_slices(settings.paths) if all_regular(settings.paths) else None
    total, last = BleuStats.zero(settings.max_n), ()
    with _counting(settings) as client:
        for result in _shard_results(settings, client, slices):
            total += result.stats
            last = result.last
            for message in result.warnings:
                log.add(message)
            for sentence_score, stats in result.scores:
                output.write(score_line(sentence_score, stats, settings, corpus=False) + "\n")
    if not settings.sentence:
        references, hypothesis = segment_tokens(last, settings.tokenize, settings.lowercase)
        output.write(score_line(score(total, settings, references, hypothesis), total, settings) + "\n")


def _shard_results(settings: Settings, client: Any, slices: list[FileSlice] | None) -> Iterator[ShardResult]:
    """Each shard's result, in line order: slices where the scorer can read the files itself, else lines read here."""
    if slices is not None and (client is None or _workers_read(client, settings.paths)):
        stream, total = slices, sum(piece.count for piece in slices)
    else:
        stream, total = streamed_shards(settings.paths), None
    if client is None:
        results = (score_shard(shard, settings) for shard in stream)
    else:
        results = map_in_order(client, score_shard, stream, settings)
    with progress_bar(settings.hypothesis, total) as bar:
        for result in results:
            if bar is not None:
                bar.update(result.count)
            yield result


@contextmanager
def _counting(settings: Settings) -> Iterator[Any]:
    """The Dask client whose workers score the shards, or None to score them in this process."""
    if settings.scheduler is None:
        with cluster(jobs=settings.jobs) as client:
            yield client
        return
    from distributed import Client

    try:
        client = Client(settings.scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        raise NoScheduler(settings.scheduler, str(error) or type(error).__name__) from None
    with client:
        yield client


def _workers_read(client: Any, paths: list[str]) -> bool:
    """Whether every worker sees the files as this process does (same paths, same sizes)."""
    sizes = {os.path.abspath(path): os.path.getsize(path) for path in paths}
    answers = client.run(_sizes, list(sizes))
    return all(answer == sizes for answer in answers.values())


def _sizes(paths: list[str]) -> dict[str, int | None]:
    return {path: os.path.getsize(path) if os.path.isfile(path) else None for path in paths}
