"""What can go wrong with the command's input: each error with its facts, in the command's words.

Every one ends the command with its message on one line of stderr and exit
status 2; nothing has been printed on stdout by then. An error keeps its facts
as its arguments, so that it pickles: a Dask worker that meets bad input raises
it, and the command receives it whole.
"""

import sys

from bleu_scratch.notebook.exercises import unwritten_exercise


class CommandError(Exception):
    """A problem with the input, reported as one line with exit status 2."""

    def __str__(self) -> str:
        return self.message()

    def message(self) -> str:
        return str(self.args[0])


class Unreadable(CommandError):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)

    def message(self) -> str:
        path, reason = self.args
        return f"cannot read {path}: {reason}"


class Changed(CommandError):
    """A file whose lines are not where the first reading found them: it was written to while it was scored."""

    def __init__(self, path: str) -> None:
        super().__init__(path)

    def message(self) -> str:
        return f"{self.args[0]} changed while it was scored, so there is no score; score it once it is written"


class NotTheSame(CommandError):
    """A worker read other bytes of a file than the command did: another copy, or the file was written to."""

    def __init__(self, path: str, first: int, last: int) -> None:
        super().__init__(path, first, last)

    def message(self) -> str:
        path, first, last = self.args
        return (
            f"a worker read other bytes in {path}, lines {first} to {last}, than this command did: another copy of "
            f"the file, or it changed while it was scored, so there is no score; give every worker the same files"
        )


class WorkerCannotRead(CommandError):
    """A worker cannot read a file this command read, at the same path (one that joined late, say)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)

    def message(self) -> str:
        path, reason = self.args
        return (
            f"a worker cannot read {path} ({reason}), which this command read at the same path: give every worker "
            f"the files, or none (then the command sends the lines)"
        )


class Unwritable(CommandError):
    """Standard output cannot take the result (closed, or a full disk)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)

    def message(self) -> str:
        return f"cannot write the output: {self.args[0]}"


class TooManySamples(CommandError):
    """``bleu-scratch-compare``: the resamples of ``--samples`` (8 bytes a segment each) exceed the machine's memory."""

    def __init__(self, samples: int, segments: int) -> None:
        super().__init__(samples, segments)

    def message(self) -> str:
        samples, segments = self.args
        return (
            f"--samples {samples:,} needs {samples:,} x {segments:,} segment numbers of 8 bytes, more than this "
            f"machine's memory; use fewer (sacrebleu's defaults: 1,000 for bs, 10,000 for ar)"
        )


class NotUtf8(CommandError):
    """``position`` is the 0-based offset of the first bad byte in the line."""

    def __init__(self, path: str, line: int, position: int, byte: bytes) -> None:
        super().__init__(path, line, position, byte)

    def message(self) -> str:
        path, line, position, byte = self.args
        return (
            f"{path}, line {line}: not valid UTF-8 (byte {position + 1} of the line is {byte!r}); "
            f"convert the file to UTF-8, e.g. with iconv"
        )


class LineTooLong(CommandError):
    def __init__(self, path: str, line: int, limit: int) -> None:
        super().__init__(path, line, limit)

    def message(self) -> str:
        path, line, limit = self.args
        return (
            f"{path}, line {line}: longer than {limit:,} bytes, the longest line the command reads; "
            "put one segment per line"
        )


class EmptyHypothesis(CommandError):
    def __init__(self, path: str) -> None:
        super().__init__(path)

    def message(self) -> str:
        return f"{self.args[0]} is empty: there is no hypothesis to score"


class LineCounts(CommandError):
    """``wrong`` holds (path, lines) for each reference file whose length differs from the hypothesis file's."""

    def __init__(self, hypothesis: str, lines: int, wrong: list[tuple[str, int]]) -> None:
        super().__init__(hypothesis, lines, wrong)

    def message(self) -> str:
        hypothesis, lines, wrong = self.args
        files = " and ".join(f"{path} has {_lines(count)}" for path, count in wrong)
        return (
            f"{files}, but the hypothesis file {hypothesis} has {_lines(lines)}: "
            f"every reference file needs exactly one line per hypothesis line"
        )


class SegmentCounts(CommandError):
    """``bleu-scratch-compare``: ``wrong`` holds (path, lines) for each file whose length differs from the
    baseline's."""

    def __init__(self, baseline: str, lines: int, wrong: list[tuple[str, int]]) -> None:
        super().__init__(baseline, lines, wrong)

    def message(self) -> str:
        baseline, lines, wrong = self.args
        lengths = " and ".join(f"{path} has {_lines(count)}" for path, count in wrong)
        return f"{lengths}, but the baseline {baseline} has {_lines(lines)}: every file needs one line per segment"


class GivenTwice(CommandError):
    """``bleu-scratch-compare``: a file named twice among the baseline and the systems."""

    def __init__(self, path: str, earlier: str) -> None:
        super().__init__(path, earlier)

    def message(self) -> str:
        path, earlier = self.args
        named = "is given twice" if path == earlier else f"is {earlier}, given again"
        return f"{path} {named}: name the baseline and each system once"


class SmoothingNeeds(CommandError):
    """NLTK's smoothing method 6 cannot score this input: it lacks ``needs`` ("orders" or "trigram match")."""

    def __init__(self, needs: str, orders: int) -> None:
        super().__init__(needs, orders)

    def message(self) -> str:
        needs, orders = self.args
        if needs == "orders":
            return (
                f"smoothing method 6 starts at trigrams, so it needs weights for at least 3 n-gram orders; "
                f"got {orders}. Use e.g. --weights 0.25,0.25,0.25,0.25"
            )
        return (
            "smoothing method 6 needs at least one trigram match, as NLTK asserts; this hypothesis has none. "
            "Use another method, e.g. --smoothing 1"
        )


class Overflow(CommandError):
    """As in NLTK: a huge negative weight on a precision below 1 gives a score beyond a float."""

    def __init__(self, weights: tuple[float, ...]) -> None:
        super().__init__(weights)

    def message(self) -> str:
        return f"the score overflows a float with --weights {','.join(f'{weight:g}' for weight in self.args[0])}"


class NoScheduler(CommandError):
    """The Dask scheduler of ``--scheduler`` did not answer."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(address, reason)

    def message(self) -> str:
        address, reason = self.args
        return (
            f"cannot reach the Dask scheduler at {address}: {reason}; "
            "start one with `dask scheduler` and `dask worker ADDRESS`"
        )


class NoWorkers(CommandError):
    """The Dask scheduler of ``--scheduler`` answered, but no worker joined it in time."""

    def __init__(self, address: str, seconds: int) -> None:
        super().__init__(address, seconds)

    def message(self) -> str:
        address, seconds = self.args
        return (
            f"the Dask scheduler at {address} has no worker after {seconds} s; start one with `dask worker {address}`"
        )


class WorkerLacksTheCommand(CommandError):
    """A Dask worker cannot import the command's code: bleu-scratch is not installed where it runs."""

    def __init__(self, address: str, reason: str) -> None:
        super().__init__(address, reason)

    def message(self) -> str:
        address, reason = self.args
        return (
            f"a worker of the Dask scheduler at {address} cannot run the command's code ({reason}): install "
            f"bleu-scratch, the same version, where every worker runs"
        )


class WorkerRunsAnother(CommandError):
    """A Dask worker has another version of bleu-scratch installed than the command."""

    def __init__(self, address: str, theirs: str, ours: str) -> None:
        super().__init__(address, theirs, ours)

    def message(self) -> str:
        address, theirs, ours = self.args
        return (
            f"a worker of the Dask scheduler at {address} has bleu-scratch {theirs}, this command {ours}: install "
            f"this version where every worker runs (the workers run the command's code)"
        )


class LostCluster(CommandError):
    """The Dask cluster stopped answering while the command scored: ``--scheduler``'s scheduler, or the local
    cluster of ``--jobs`` (its process ended)."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        super().__init__(scheduler, jobs)

    def message(self) -> str:
        scheduler, jobs = self.args
        if scheduler is None:
            return (
                f"the local Dask cluster of --jobs {jobs} stopped before the end of the run, so there is no score; "
                "run the command again, or without --jobs"
            )
        return (
            f"lost the Dask scheduler at {scheduler} mid-run, so there is no score; "
            "check that the scheduler and its workers are running (`dask scheduler`, `dask worker ADDRESS`) "
            "and run the command again"
        )


class ToolFails(CommandError):
    """The tool named by ``--as`` itself stops on these files (nmt and the Perl scripts on an empty hypothesis file)."""

    def __init__(self, tool: str, reason: str) -> None:
        super().__init__(tool, reason)

    def message(self) -> str:
        tool, reason = self.args
        return (
            f"{tool} itself stops on these files ({reason}: no hypothesis or no reference token), so there is no score"
        )


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def stop(prog: str, doing: str, error: CommandError | NotImplementedError) -> int:
    """Print why the command ``prog`` stops, on one line of stderr, and return its exit status, 2.

    A line break in a file's name is printed as ``\\n``, so that the message stays one line.

    Besides bad input, only a student edition stops the command: a lesson function it
    needs is still a stub, and the line says which one and that the command ``doing``
    ("scores", "compares") once it is written. Any other NotImplementedError is raised again.
    """
    if isinstance(error, NotImplementedError):
        reason = unwritten_exercise(error)
        if reason is None:
            raise error
        print(f"{prog}: error: {reason}; the command {doing} once those lessons are written", file=sys.stderr)
    else:
        text = str(error).replace("\r", "\\r").replace("\n", "\\n")
        print(f"{prog}: error: {text}", file=sys.stderr)
    return 2
