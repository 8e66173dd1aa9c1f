"""Reading: a hypothesis file and its reference files, in step, one tuple of lines at a time.

Lines are decoded as UTF-8 and lose their line ending. Bad input raises one
of ``errors``: a file that cannot be opened, invalid UTF-8 (with the file and
line), an empty hypothesis file, or files of different lengths, which is known
only once the shortest file ends. So nothing is printed before every line has
been read.
"""

from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from itertools import zip_longest
from typing import BinaryIO

from .errors import EmptyHypothesis, LineCounts, NotUtf8, Unreadable


class AlignedFiles:
    """The files of ``paths`` read in step; ``last`` is the last tuple of lines read."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.last: tuple[str, ...] = ()
        self._stack = ExitStack()
        try:
            self._files = [self._stack.enter_context(_open(path)) for path in self.paths]
        except Unreadable:
            self._stack.close()
            raise

    def __enter__(self) -> "AlignedFiles":
        return self

    def __exit__(self, *exc_info) -> None:
        self._stack.close()

    @property
    def bytes_read(self) -> int:
        """How far into the hypothesis file reading has got, for a progress bar."""
        return self._files[0].tell()

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        number = 0
        for number, raw_lines in enumerate(zip_longest(*self._files), 1):
            if None in raw_lines:
                self._mismatch(number, raw_lines)
            self.last = tuple(_decode(raw, path, number) for raw, path in zip(raw_lines, self.paths))
            yield self.last
        if number == 0:
            raise EmptyHypothesis(self.paths[0])

    def _mismatch(self, number: int, raw_lines: tuple) -> None:
        # Every file has been read up to line number - 1; count what is left of each.
        counts = [number - 1 + (raw is not None) + sum(1 for _ in file) for raw, file in zip(raw_lines, self._files)]
        if counts[0] == 0:
            raise EmptyHypothesis(self.paths[0])
        wrong = [(path, count) for path, count in zip(self.paths[1:], counts[1:]) if count != counts[0]]
        raise LineCounts(self.paths[0], counts[0], wrong)


def _open(path: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except OSError as error:
        raise Unreadable(path, error.strerror) from None


def _decode(raw: bytes, path: str, number: int) -> str:
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as error:
        raise NotUtf8(path, number, error.start, raw[error.start : error.start + 1]) from None
