"""Reading: the hypothesis file and its reference files, in step, as shards of segments.

A segment is the tuple of lines that belong together: the hypothesis line,
then the line of each reference file. Lines are decoded as UTF-8 and lose
their line ending. A UTF-8 byte order mark at the start of a file stays, a
character U+FEFF glued to the first token: sacrebleu's command line,
multi-bleu.perl and Python's ``open(path, encoding="utf-8")`` all read it
so, and a number here must be the number those tools print for the same
files (docs/command-line.md).

Regular files are scanned once, in this process, for their line counts, so a
difference is an error before anything is scored; then they are cut into
slices of ``SHARD_LINES`` lines (fewer where lines are long: ``SHARD_BYTES``),
given as byte ranges: whoever scores a slice (this process, or a Dask worker
that can reach the files) reads it from the files itself, and the lines never
pass through here. Standard input (``-``)
and other streams cannot be read twice: they are read here, in step, and their
lines handed out in shards. A line longer than ``MAX_LINE_BYTES`` is an
error, and a FIFO is opened when a program opens it for writing, as ``cat``
opens one.
"""

import dataclasses
import errno
import hashlib
import os
import stat
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import count, zip_longest
from typing import BinaryIO, TypeVar

from .errors import (
    Changed,
    EmptyHypothesis,
    LineCounts,
    LineTooLong,
    NotTheSame,
    NotUtf8,
    Unreadable,
    WorkerCannotRead,
)

# Lines a worker gets at a time: enough to hide each task's cost in Dask, few
# enough that the shards in flight hold little memory (benchmarks/cli_memory.py).
SHARD_LINES = 1_000
# A shard also ends once its lines, all files together, hold this many bytes,
# so that a shard of long lines holds no more text than a shard of sentences.
SHARD_BYTES = 2_000_000
# The longest line read, in bytes of UTF-8 without its line ending. A segment
# is a sentence or a paragraph, a few hundred bytes; a longer line is a file
# without line breaks or not text, and its tokens would take memory in
# proportion to its length.
MAX_LINE_BYTES = 1_000_000
# Seconds a FIFO may wait for its writer before the command says that it waits.
FIFO_NOTICE_DELAY = 1.0
Segment = tuple[str, ...]
Item = TypeVar("Item")


@dataclass(frozen=True)
class FileSlice:
    """Lines ``first`` to ``first + count - 1`` (1-based) of every file, as byte ranges ``[start, end)``."""

    names: tuple[str, ...]  # as the user wrote them, for messages
    paths: tuple[str, ...]  # absolute, for a worker in another folder
    ranges: tuple[tuple[int, int], ...]
    first: int
    count: int
    digests: tuple[str, ...] | None = None  # of each range, for a worker to check what it reads (``with_digests``)


def check_readable(names: Sequence[str]) -> None:
    """Raise ``Unreadable`` for the first file that cannot be read, before anything starts; ``-`` is standard input."""
    for name in names:
        if name == "-":
            continue
        try:
            mode = os.stat(name).st_mode
        except OSError as error:
            raise Unreadable(name, error.strerror) from None
        if stat.S_ISDIR(mode):
            raise Unreadable(name, os.strerror(errno.EISDIR))
        if not os.access(name, os.R_OK):
            raise Unreadable(name, os.strerror(errno.EACCES))


def _all_regular(names: Sequence[str]) -> bool:
    """Whether every file can be sliced by byte ranges (no ``-``, pipe or device)."""
    try:
        return all(name != "-" and stat.S_ISREG(os.stat(name).st_mode) for name in names)
    except OSError:
        return False


def file_slices(names: Sequence[str]) -> list[FileSlice] | None:
    """The files cut into slices of ``SHARD_LINES`` lines, after checking that they can be read and their
    line counts agree.

    None if a file cannot be sliced (``-``, a pipe or a device): then the
    files are read here in step, by ``streamed_shards``.
    """
    check_readable(names)
    if not _all_regular(names):
        return None
    paths = tuple(os.path.abspath(name) for name in names)
    starts, ends, lines = _scan(names)
    cuts = [*starts, (lines + 1, ends)]
    return [
        FileSlice(tuple(names), paths, tuple(zip(begin, end)), first, after - first)
        for (first, begin), (after, end) in zip(cuts, cuts[1:])
    ]


def with_digests(slices: list[FileSlice]) -> Iterator[FileSlice]:
    """Each slice with a digest of each of its byte ranges, read again here as the slice is sent (from the page
    cache, as a rule): a worker that reads the files itself checks that it reads the same bytes."""
    with ExitStack() as stack:
        files = [stack.enter_context(_open(path, name)) for name, path in zip(slices[0].names, slices[0].paths)]
        for piece in slices:
            digests = []
            for file, (start, end) in zip(files, piece.ranges):
                file.seek(start)
                digests.append(_digest(file.read(end - start)))
            yield dataclasses.replace(piece, digests=tuple(digests))


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def read_slice(piece: FileSlice) -> list[Segment]:
    """The segments of a slice, read from the files (by a worker when the slice has digests)."""
    columns = []
    for k, (name, path, (start, end)) in enumerate(zip(piece.names, piece.paths, piece.ranges)):
        try:
            with _open(path, name) as file:
                file.seek(start)
                data = file.read(end - start)
        except Unreadable as error:
            raise error if piece.digests is None else WorkerCannotRead(name, error.args[1]) from None
        raw_lines = data.split(b"\n")
        if raw_lines[-1] == b"":
            raw_lines.pop()
        if len(data) != end - start or len(raw_lines) != piece.count:
            raise Changed(name)  # the scan found other lines here: the file was written to since
        if piece.digests is not None and _digest(data) != piece.digests[k]:
            raise NotTheSame(name, piece.first, piece.first + piece.count - 1)
        columns.append([_decode(raw, name, piece.first + offset) for offset, raw in enumerate(raw_lines)])
    return list(zip(*columns))


def streamed_shards(names: Sequence[str]) -> Iterator[list[Segment]]:
    """Shards of ``SHARD_LINES`` segments (fewer if long), read here from files that cannot be sliced (``-`` is
    standard input)."""
    return _cut(_aligned(names))


def _cut(sized: Iterable[tuple[Item, int]]) -> Iterator[list[Item]]:
    """The items in shards of ``SHARD_LINES``, or fewer once a shard's items hold ``SHARD_BYTES``.

    >>> list(_cut([("a", 1), ("b", SHARD_BYTES), ("c", 1)]))
    [['a', 'b'], ['c']]
    """
    shard: list[Item] = []
    size = 0
    for item, item_size in sized:
        shard.append(item)
        size += item_size
        if len(shard) == SHARD_LINES or size >= SHARD_BYTES:
            yield shard
            shard, size = [], 0
    if shard:
        yield shard


def _aligned(names: Sequence[str]) -> Iterator[tuple[Segment, int]]:
    """Each segment of the files and its size in bytes."""
    with ExitStack() as stack:
        files = [stack.enter_context(_open(name, name)) for name in names]
        for number, raw_lines in enumerate(_in_step(files, names), 1):
            segment = tuple(_decode(raw.rstrip(b"\n"), name, number) for raw, name in zip(raw_lines, names))
            yield segment, sum(map(len, raw_lines))


def _in_step(files: Sequence[BinaryIO], names: Sequence[str]) -> Iterator[tuple[bytes, ...]]:
    """The files' lines, line ending included, in step; files of different lengths are an error."""
    readers = [_lines(file, name) for file, name in zip(files, names)]
    number = 0
    for number, raw_lines in enumerate(zip_longest(*readers), 1):
        if None in raw_lines:
            # Every file has been read up to line number - 1; count what is left of each.
            counts = [number - 1 + (raw is not None) + sum(1 for _ in lines) for raw, lines in zip(raw_lines, readers)]
            if counts[0] == 0:
                raise EmptyHypothesis(names[0])
            raise LineCounts(names[0], counts[0], [(n, c) for n, c in zip(names[1:], counts[1:]) if c != counts[0]])
        yield raw_lines
    if number == 0:
        raise EmptyHypothesis(names[0])


def _lines(file: BinaryIO, name: str) -> Iterator[bytes]:
    """The lines of a file, line ending included; reading stops at a line longer than ``MAX_LINE_BYTES``."""
    for number in count(1):
        # Two bytes more than the limit: room for a line ending of "\r\n".
        raw = file.readline(MAX_LINE_BYTES + 2)
        if not raw:
            return
        if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
            raise LineTooLong(name, number, MAX_LINE_BYTES)
        yield raw


def _scan(names: Sequence[str]) -> tuple[list[tuple[int, tuple[int, ...]]], tuple[int, ...], int]:
    """Each shard's first line and where it starts in every file, where the files end, and how many lines they
    have (the same number, else an error)."""
    with ExitStack() as stack:
        files = [stack.enter_context(_open(name, name)) for name in names]
        positions = [0] * len(files)
        lines = 0

        def sized() -> Iterator[tuple[tuple[int, tuple[int, ...]], int]]:
            nonlocal positions, lines
            for lines, raw_lines in enumerate(_in_step(files, names), 1):
                start = tuple(positions)
                positions = [position + len(raw) for position, raw in zip(positions, raw_lines)]
                yield (lines, start), sum(map(len, raw_lines))

        starts = [shard[0] for shard in _cut(sized())]
    return starts, tuple(positions), lines


def _open(path: str, name: str) -> BinaryIO:
    if path == "-":
        if sys.stdin is None:  # the command was started with its stdin closed
            raise Unreadable(name, "standard input is closed")
        # Standard input, read once; closing it here would close the process's own.
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            return _open_fifo(path, name)
        return open(path, "rb")
    except OSError as error:
        raise Unreadable(name, error.strerror) from None


def _open_fifo(path: str, name: str) -> BinaryIO:
    """Open a FIFO as ``cat`` does, waiting for a program to open it for writing; if that takes a while, say so.

    Said on stderr whether or not it is a terminal: a log that shows a command
    stuck waiting tells why. A writer that is already there, or comes at once,
    leaves stderr quiet.
    """
    notice = threading.Timer(
        FIFO_NOTICE_DELAY,
        print,
        [f"{name} is a FIFO with no writer yet: waiting for a program to open it for writing (Ctrl-C stops)"],
        {"file": sys.stderr, "flush": True},
    )
    notice.start()
    try:
        # Ctrl-C and SIGTERM interrupt the wait: the command's handlers run in this thread.
        return open(path, "rb")
    finally:
        notice.cancel()


def _decode(raw: bytes, name: str, number: int) -> str:
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as error:
        raise NotUtf8(name, number, error.start, raw[error.start : error.start + 1]) from None
