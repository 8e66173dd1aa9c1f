"""What can go wrong with the command's input: each error with its facts, in the command's words.

Every one ends the command with its message on one line of stderr and exit
status 2; nothing has been printed on stdout by then.
"""


class CommandError(Exception):
    """A problem with the input, reported as one line with exit status 2."""


class Unreadable(CommandError):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot read {path}: {reason}")


class NotUtf8(CommandError):
    """``position`` is the 0-based offset of the first bad byte in the line."""

    def __init__(self, path: str, line: int, position: int, byte: bytes) -> None:
        super().__init__(
            f"{path}, line {line}: not valid UTF-8 (byte {position + 1} of the line is {byte!r}); "
            f"convert the file to UTF-8, e.g. with iconv"
        )


class EmptyHypothesis(CommandError):
    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is empty: there is no hypothesis to score")


class LineCounts(CommandError):
    """``wrong`` holds (path, lines) for each reference file whose length differs from the hypothesis file's."""

    def __init__(self, hypothesis: str, lines: int, wrong: list[tuple[str, int]]) -> None:
        files = " and ".join(f"{path} has {_lines(count)}" for path, count in wrong)
        super().__init__(
            f"{files}, but the hypothesis file {hypothesis} has {_lines(lines)}: "
            f"every reference file needs exactly one line per hypothesis line"
        )


class SegmentCounts(CommandError):
    """``bleu-scratch-compare``: ``wrong`` holds (path, lines) for each file whose length differs from the baseline's."""

    def __init__(self, baseline: str, lines: int, wrong: list[tuple[str, int]]) -> None:
        lengths = " and ".join(f"{path} has {_lines(count)}" for path, count in wrong)
        super().__init__(f"{lengths}, but the baseline {baseline} has {_lines(lines)}: every file needs one line per segment")


class GivenTwice(CommandError):
    """``bleu-scratch-compare``: a file named twice among the baseline and the systems."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is given twice: name the baseline and each system once")


class SmoothingNeeds(CommandError):
    """NLTK's smoothing method 6 cannot score this input: it lacks ``needs`` ("orders" or "trigram match")."""

    def __init__(self, needs: str, orders: int) -> None:
        if needs == "orders":
            text = (
                f"smoothing method 6 starts at trigrams, so it needs weights for at least 3 n-gram orders; "
                f"got {orders}. Use e.g. --weights 0.25,0.25,0.25,0.25"
            )
        else:
            text = (
                "smoothing method 6 needs at least one trigram match (its prior divides by the trigram "
                "precision); this hypothesis has none. Use another method, e.g. --smoothing 1"
            )
        super().__init__(text)


class Overflow(CommandError):
    """As in NLTK: a huge negative weight on a precision below 1 gives a score beyond a float."""

    def __init__(self, weights: tuple[float, ...]) -> None:
        super().__init__(f"the score overflows a float with --weights {','.join(f'{weight:g}' for weight in weights)}")


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
