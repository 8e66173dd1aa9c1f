"""Reading: the hypothesis file and its reference files, in step, as shards of segments.

A segment is the tuple of lines that belong together: the hypothesis line,
then the line of each reference file. Lines are decoded as UTF-8 and lose
their line ending; a UTF-8 byte order mark at the start of a file is dropped
(some tools write one, and it would otherwise stick to the first token).

Regular files are scanned once, in this process, for their line counts, so a
difference is an error before anything is scored; then they are cut into
slices of ``SHARD_LINES`` lines, given as byte ranges: whoever scores a slice
(this process, or a Dask worker that can reach the files) reads it from the
files itself, and the lines never pass through here. Standard input (``-``)
and other streams cannot be read twice: they are read here, in step, and their
lines handed out in shards.
"""

import errno
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import zip_longest
from typing import BinaryIO

from bleu_scratch.lesson10_parallel import shards

from .errors import EmptyHypothesis, LineCounts, NotUtf8, Unreadable

BOM = b"\xef\xbb\xbf"
# Lines a worker gets at a time: enough to hide each task's cost in Dask, few
# enough that the shards in flight hold little memory (benchmarks/cli_memory.py).
SHARD_LINES = 1_000
Segment = tuple[str, ...]


@dataclass(frozen=True)
class FileSlice:
    """Lines ``first`` to ``first + count - 1`` (1-based) of every file, as byte ranges ``[start, end)``."""

    names: tuple[str, ...]  # as the user wrote them, for messages
    paths: tuple[str, ...]  # absolute, for a worker in another folder
    ranges: tuple[tuple[int, int], ...]
    first: int
    count: int


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
    scans = [_scan(name) for name in names]
    counts = [lines for _, _, lines in scans]
    if counts[0] == 0:
        raise EmptyHypothesis(names[0])
    wrong = [(name, count) for name, count in zip(names[1:], counts[1:]) if count != counts[0]]
    if wrong:
        raise LineCounts(names[0], counts[0], wrong)
    paths = tuple(os.path.abspath(name) for name in names)
    slices = []
    for number, first in enumerate(range(1, counts[0] + 1, SHARD_LINES)):
        ranges = tuple(
            (starts[number], starts[number + 1] if number + 1 < len(starts) else end) for starts, end, _ in scans
        )
        slices.append(FileSlice(tuple(names), paths, ranges, first, min(SHARD_LINES, counts[0] - first + 1)))
    return slices


def read_slice(piece: FileSlice) -> list[Segment]:
    """The segments of a slice, read from the files."""
    columns = []
    for name, path, (start, end) in zip(piece.names, piece.paths, piece.ranges):
        with _open(path, name) as file:
            file.seek(start)
            data = file.read(end - start)
        raw_lines = data.split(b"\n")
        if raw_lines[-1] == b"":
            raw_lines.pop()
        columns.append([_decode(raw, name, piece.first + offset) for offset, raw in enumerate(raw_lines)])
    return list(zip(*columns))


def streamed_shards(names: Sequence[str]) -> Iterator[list[Segment]]:
    """Shards of ``SHARD_LINES`` segments, read here from files that cannot be sliced (``-`` is standard input)."""
    return shards(_aligned(names), SHARD_LINES)


def _aligned(names: Sequence[str]) -> Iterator[Segment]:
    with ExitStack() as stack:
        files = [stack.enter_context(_open(name, name)) for name in names]
        number = 0
        for number, raw_lines in enumerate(zip_longest(*files), 1):
            if None in raw_lines:
                # Every file has been read up to line number - 1; count what is left of each.
                counts = [number - 1 + (raw is not None) + sum(1 for _ in file) for raw, file in zip(raw_lines, files)]
                if counts[0] == 0:
                    raise EmptyHypothesis(names[0])
                raise LineCounts(names[0], counts[0], [(n, c) for n, c in zip(names[1:], counts[1:]) if c != counts[0]])
            if number == 1:
                raw_lines = tuple(raw.removeprefix(BOM) for raw in raw_lines)
            yield tuple(_decode(raw.rstrip(b"\n"), name, number) for raw, name in zip(raw_lines, names))
        if number == 0:
            raise EmptyHypothesis(names[0])


def _scan(name: str) -> tuple[list[int], int, int]:
    """Where every ``SHARD_LINES``-th line of a file starts, where the file ends, and how many lines it has."""
    starts, lines = [], 0
    with _open(name, name) as file:
        position = len(BOM) if file.read(len(BOM)) == BOM else 0
        file.seek(position)
        for line in file:
            if lines % SHARD_LINES == 0:
                starts.append(position)
            position += len(line)
            lines += 1
    return starts, position, lines


def _open(path: str, name: str) -> BinaryIO:
    if path == "-":
        # Standard input, read once; closing it here would close the process's own.
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        return open(path, "rb")
    except OSError as error:
        raise Unreadable(name, error.strerror) from None


def _decode(raw: bytes, name: str, number: int) -> str:
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as error:
        raise NotUtf8(name, number, error.start, raw[error.start : error.start + 1]) from None
