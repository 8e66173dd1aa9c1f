"""The command's one pipeline: settings -> read -> tokens -> statistics -> score -> report, each stage once.

``run`` reads the settings, then ``score_files`` takes the files shard by
shard (``inputs``). Each shard goes through ``score_shard`` where it is
scored, in this process or on a worker of a Dask cluster (``--jobs N`` starts
a local one, ``--scheduler ADDRESS`` uses yours): its lines become tokens by
lesson 01's and lesson 09's public tokenizers (with ``--tokenize none``, word
numbers in arrays, by ``words``), its statistics are counted by lesson 10's
public batch counting (``bleu_scratch.batch_corpus_stats``, or
``batch_sentence_stats`` for ``--sentence``, whose segments are scored there
too). Here the results are taken in shard order and summed, the corpus score
comes from lesson 05's ``bleu_from_stats``, and ``report`` words the lines.

Exit status: 0 with a score; 2 for bad options or input, or a Dask cluster
lost or without workers (one line on stderr, no score printed); 141 when the
reader of the output stops early; 130 after Ctrl-C and 143 after SIGTERM, with
every process the command started stopped and nothing printed (``signals``).
"""

import io
import logging
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from typing import IO, Any

from bleu_scratch import (
    ALL_TOKENIZERS,
    BleuStats,
    SmoothingError,
    SmoothingFunction,
    batch_corpus_stats,
    batch_sentence_stats,
    bleu_from_stats,
    tool_bleu,
)
from bleu_scratch.checks import as_checked
from bleu_scratch.lesson10_parallel import cluster, map_in_order

from .errors import (
    CommandError,
    LostCluster,
    NoScheduler,
    NoWorkers,
    Overflow,
    SmoothingNeeds,
    ToolFails,
    stop,
)
from .inputs import FileSlice, Segment, file_slices, read_slice, streamed_shards, with_digests
from .report import copy_out, detokenize_warning, progress_bar, score_line, tool_line, warning_text
from .settings import Settings, is_sacrebleu, parse
from .watch import Check, watched
from .workers import workers_read, workers_run_this_command

Tokens = list[str]
# Seconds the scheduler of --scheduler may take to answer: the connection, then each question while the command runs.
SCHEDULER_WAIT = 10
# Seconds the scheduler of --scheduler may be without a worker, from the connection to the end of the run.
WORKER_WAIT = 30


def run(argv: Sequence[str], check_signals: Callable[[], None]) -> int:
    """The command on ``argv``; its exit status. Bad options end in argparse (SystemExit 2).

    ``check_signals`` raises again a signal a library caught (``bleu_cli.signals``): it is called before the next
    shard and before anything is printed.
    """
    return score_files(parse(argv), check_signals)


def score_files(settings: Settings, check_signals: Callable[[], None]) -> int:
    """Score the files and print the result, then the distinct warnings; the exit status (0, 2 or 141)."""
    if settings.as_tool is not None:
        return score_as_tool(settings, check_signals)
    # Small results stay in memory; a million sentence scores go to disk.
    with tempfile.SpooledTemporaryFile(max_size=1 << 22, mode="w+", encoding="utf-8") as output:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UserWarning)
                met = _write_scores(settings, output, check_signals)
        except (CommandError, NotImplementedError) as error:
            return stop("bleu-scratch", "scores", error)
        check_signals()
        status = copy_out(output, "bleu-scratch")
    if status == 0:
        # After the score: with --sentence NLTK would warn on most lines, and a failed run says only what went wrong.
        messages = [*met, *(str(caught_warning.message) for caught_warning in caught)]
        for text in dict.fromkeys(warning_text(message, settings.max_n) for message in messages):
            print(f"bleu-scratch: warning: {text}", file=sys.stderr)
    return status


def score_as_tool(settings: Settings, check_signals: Callable[[], None]) -> int:
    """``--as TOOL``: lesson 09's ``tool_bleu`` on every line of the files, printed with the tool's signature."""
    try:
        segments = [segment for shard in streamed_shards(settings.paths) for segment in shard]
        if settings.lowercase:  # sacrebleu's -lc: each line lowercased before it is tokenized
            segments = [tuple(line.lower() for line in segment) for segment in segments]
        hypotheses = [hyp for hyp, *_ in segments]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tool's number is what was asked for; NLTK's warning says it is 0
            try:
                value = tool_bleu(settings.as_tool, hypotheses, [refs for _, *refs in segments])
            # nmt's and multi-bleu.perl's division by 0, mteval's log of 0.
            except (ArithmeticError, ValueError) as error:
                raise ToolFails(settings.as_tool, type(error).__name__) from None
    except CommandError as error:
        return stop("bleu-scratch", "scores", error)
    line = tool_line(settings.as_tool, value, settings.json, len(settings.references), settings.lowercase)
    check_signals()
    status = copy_out(io.StringIO(line + "\n"), "bleu-scratch")
    warning = detokenize_warning(settings.hypothesis, hypotheses) if is_sacrebleu(settings.as_tool) else None
    if status == 0 and warning:
        print(f"bleu-scratch: warning: {warning}", file=sys.stderr)
    return status


def _write_scores(settings: Settings, output: IO[str], check_signals: Callable[[], None]) -> list[str]:
    """Write the corpus score, or each segment's score in line order; the warnings the shards met."""
    # The files are checked (readable; for regular files, their line counts) before any worker starts.
    slices = file_slices(settings.paths)
    total, last, met = BleuStats.zero(settings.max_n), ((), ()), []
    with _client(settings) as client:
        for result in _shard_results(settings, client, slices):
            check_signals()
            total += result.stats
            last = result.last
            met += result.warnings
            for sentence_score, stats in result.scores:
                output.write(score_line(sentence_score, stats, settings, corpus=False) + "\n")
    if not settings.sentence:
        output.write(score_line(score(total, settings, *last), total, settings) + "\n")
    return met


def _shard_results(settings: Settings, client: Any, slices: list[FileSlice] | None) -> Iterator["ShardResult"]:
    """Each shard's result, in line order: slices where the scorer can read the files itself, else lines read here."""
    if client is not None:
        workers_run_this_command(client)
    if slices is not None and (client is None or workers_read(client, settings.paths)):
        stream, total = slices if client is None else with_digests(slices), sum(piece.count for piece in slices)
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


@dataclass(frozen=True)
class ShardResult:
    """What the command needs back from a shard."""

    count: int  # segments in the shard
    stats: BleuStats  # summed over them
    last: tuple[list[Tokens], Tokens]  # the last segment's tokens: smoothing methods 5 to 7 read the corpus's last one
    scores: tuple[tuple[float, BleuStats], ...]  # with --sentence, each segment's score and statistics
    warnings: tuple[str, ...]  # the distinct warnings the lessons gave, in order


def score_shard(shard: FileSlice | list[Segment], settings: Settings) -> ShardResult:
    """Read a shard, tokenize it, count its statistics and, with ``--sentence``, score each segment.

    Runs in this process or on a Dask worker. Lines travel to a worker, never
    tokens: a line pickles as one string, its tokens as dozens.

    >>> settings = Settings("hyp", ("ref",), weights=(0.5, 0.5), lowercase=True)
    >>> result = score_shard([("a b c", "a b c"), ("D", "d e")], settings)
    >>> result.stats, result.last
    (BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1)), ([['d', 'e']], ['d']))
    """
    # numba loads only in a process that counts: the command's --help and its messages on bad input do without.
    from .words import word_arrays

    segments = read_slice(shard) if isinstance(shard, FileSlice) else shard
    arrays = word_arrays(segments) if words_as_arrays(settings) else None
    # Every line is a str the command has read and decoded: the tokenizer's door need not check each again.
    if arrays is None:
        list_of_references, hypotheses = as_checked(tokenized, segments, settings)
        batch = {"list_of_references": list_of_references, "hypotheses": hypotheses}
        tokens: Iterable[tuple[Any, Any]] = zip(list_of_references, hypotheses)
        last = list_of_references[-1], hypotheses[-1]
    else:
        references, hypotheses, hyp_lens, ref_lens = arrays
        batch = {
            "list_of_references": references,
            "hypotheses": hypotheses,
            "hypothesis_lengths": hyp_lens,
            "reference_lengths": ref_lens,
        }
        tokens = repeat(((), ()))  # the sentence scores' smoothing, methods 1 to 4, reads none
        (last_references,), (last_hypothesis,) = as_checked(tokenized, segments[-1:], settings)
        last = last_references, last_hypothesis
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if settings.sentence:
            counted = batch_sentence_stats(**batch, max_n=settings.max_n)
            scores = tuple(
                (score(pair_stats, settings, references, hypothesis), pair_stats)
                for pair_stats, (references, hypothesis) in zip(counted, tokens)
            )
            stats = sum(counted, BleuStats.zero(settings.max_n))
        else:
            scores, stats = (), batch_corpus_stats(**batch, max_n=settings.max_n)
    met = tuple(dict.fromkeys(str(caught_warning.message) for caught_warning in caught))
    return ShardResult(len(segments), stats, last, scores, met)


def words_as_arrays(settings: Settings) -> bool:
    """Whether a shard's words can be numbered as arrays (``words``): split on whitespace as they are, and no
    sentence score's smoothing reads them (methods 5 to 7 do; the corpus score's reads only the last segment).

    >>> words_as_arrays(Settings("hyp", ("ref",))), words_as_arrays(Settings("hyp", ("ref",), lowercase=True))
    (True, False)
    """
    return settings.tokenize == "none" and not settings.lowercase and not (settings.sentence and settings.smoothing > 4)


def tokenized(segments: Sequence[Segment], settings: Settings) -> tuple[list[list[Tokens]], list[Tokens]]:
    """Each segment's references and hypothesis as tokens, by the command's tokenizer.

    As sacrebleu: lowercase if asked, drop trailing whitespace, tokenize. Only 'intl' has a token that
    trailing whitespace changes (it splits the period off '1990. ', not off '1990.').

    >>> tokenized([("A b ", "a b c")], Settings("hyp", ("ref",), lowercase=True))
    ([[['a', 'b', 'c']]], [['a', 'b']])
    """
    tokenizer = ALL_TOKENIZERS[settings.tokenize]
    list_of_references, hypotheses = [], []
    for lines in segments:
        hypothesis, *references = [tokenizer((line.lower() if settings.lowercase else line).rstrip()) for line in lines]
        list_of_references.append(references)
        hypotheses.append(hypothesis)
    return list_of_references, hypotheses


def score(stats: BleuStats, settings: Settings, last_references: Sequence, last_hypothesis: Sequence) -> float:
    """Lesson 05's ``bleu_from_stats`` with the command's weights and smoothing; its errors in the command's words.

    Smoothing methods 5-7 read the last segment's tokens, as NLTK's corpus_bleu does.

    >>> stats = BleuStats(hyp_len=2, ref_len=2, matches=(2, 1), totals=(2, 1), too_short=(0, 0))
    >>> score(stats, Settings("hyp", ("ref",), weights=(0.5, 0.5)), [["a", "b"]], ["a", "b"])
    1.0
    """
    smoothing = getattr(SmoothingFunction(), f"method{settings.smoothing}") if settings.smoothing else None
    try:
        return bleu_from_stats(stats, settings.weights, smoothing, False, last_references, last_hypothesis)
    except SmoothingError as error:
        raise SmoothingNeeds(error.needs, settings.max_n) from None
    except OverflowError:
        raise Overflow(settings.weights) from None


@contextmanager
def _client(settings: Settings) -> Iterator[Any]:
    """The Dask client whose workers score the shards, or None to score them in this process."""
    if settings.scheduler is None and settings.jobs <= 1:
        yield None
        return
    # Dask logs each failed reconnection to a lost scheduler with its traceback, from its own thread and until the
    # client is closed; the command says what happened in one line (LostCluster) and logs nothing itself.
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with _connected(settings) as client:
            yield client
    finally:
        logging.disable(previous)


@contextmanager
def _connected(settings: Settings) -> Iterator[Any]:
    """A client of the local cluster of ``--jobs`` or of ``--scheduler``'s; the loss of its scheduler mid-run is
    ``LostCluster``.

    ``--scheduler``'s is watched: silent for ``SCHEDULER_WAIT`` s, it is ``NoScheduler`` as the client connects
    and ``LostCluster`` after; without a worker for ``WORKER_WAIT`` s, ``NoWorkers``.
    """
    if settings.scheduler is None:
        started = False
        try:
            with quiet_connection(), cluster(jobs=settings.jobs) as client, _lost_cluster(client, settings):
                started = True
                yield client
        except (RuntimeError, OSError, TimeoutError):
            # The cluster's process ended before its client connected (the lesson's RuntimeError) or as it did.
            if started:
                raise
            raise LostCluster(None, settings.jobs) from None
        return
    from distributed import Client

    address = settings.scheduler
    # Dask bounds the TCP connection, not the handshake after it, which a frozen scheduler never answers.
    deadline = time.monotonic() + SCHEDULER_WAIT
    unanswered = NoScheduler(address, f"no answer within {SCHEDULER_WAIT} s")
    with watched(lambda: unanswered if time.monotonic() > deadline else None):
        try:
            with quiet_connection():
                client = Client(address, timeout=f"{SCHEDULER_WAIT}s")
        except (OSError, TimeoutError, ValueError) as error:
            raise NoScheduler(address, str(error) or type(error).__name__) from None
        except TypeError as error:  # the server's reply to the client's first question (identity) did not fit
            worker = any(f"{kind}.identity()" in str(error) for kind in ("Worker", "Nanny"))
            reason = "a worker's address, not the scheduler's" if worker else f"another version of Dask? ({error})"
            raise NoScheduler(address, f"it answers, but not as this Dask's scheduler: {reason}") from None
    # The watch stops before the client closes: a closing client answers no question.
    with client, _lost_cluster(client, settings), watched(_scheduler_check(client, address)):
        try:
            # Shards go out as workers take them; with none, nothing would be scored.
            client.wait_for_workers(1, timeout=WORKER_WAIT)
        except TimeoutError:
            raise NoWorkers(address, WORKER_WAIT) from None
        yield client


def quiet_connection() -> Any:
    """Dask's settings, as a context, under which a client keeps no copy of the messages it sent (by default the
    last 1,000, of up to 1 MB each: hundreds of shards of lines, in memory for the whole run)."""
    import dask
    import distributed  # noqa: F401  (its settings must be there first: leaving the context puts back what it found)

    return dask.config.set({"distributed.admin.low-level-log-length": 0})


def _scheduler_check(client: Any, address: str) -> Check:
    """The check of a run on ``--scheduler``: the scheduler answers within ``SCHEDULER_WAIT`` s, and has had a
    worker within ``WORKER_WAIT`` s (else its tasks would wait for one for ever)."""
    last_worker = time.monotonic()

    def check() -> CommandError | None:
        nonlocal last_worker
        try:
            # Client.scheduler_info's question, with a timeout: Dask waits for its answer for ever.
            workers = client.sync(client.scheduler.identity, callback_timeout=SCHEDULER_WAIT)["workers"]
        except Exception:  # no answer in time (TimeoutError), the connection lost, the client's loop closed
            return LostCluster(address, jobs=1)  # --scheduler goes without --jobs
        if workers:
            last_worker = time.monotonic()
        elif time.monotonic() - last_worker >= WORKER_WAIT:
            return NoWorkers(address, WORKER_WAIT)
        return None

    return check


@contextmanager
def _lost_cluster(client: Any, settings: Settings) -> Iterator[None]:
    """The loss of the cluster's scheduler while the command scores, as ``LostCluster``."""
    try:
        yield
    except CommandError:
        raise
    except Exception as error:
        # When the scheduler does not answer again, the client cancels every future and closes; the command itself
        # cancels futures only after it has stopped waiting on them. A result being fetched as the cluster dies
        # fails with CommClosedError before the client has noticed.
        from distributed.comm.core import CommClosedError

        if isinstance(error, (CancelledError, CommClosedError)) or client.status != "running":
            raise LostCluster(settings.scheduler, settings.jobs) from None
        raise
