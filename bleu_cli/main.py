"""The command's pipeline: settings, then read, tokens, statistics, score, print; and the exit status."""

import sys
import tempfile
from collections.abc import Iterator, Sequence
from typing import IO

from bleu_scratch import fast_sentence_stats
from bleu_scratch.exercises import unwritten_exercise

from .errors import CommandError
from .files import AlignedFiles
from .report import copy_out, distinct_warnings, progress_bar, score_line
from .scoring import score
from .segments import SHARD_LINES, segment_tokens, stats_of_stream
from .settings import Settings, parse


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status: 0, 2 for bad input, 141 if the output's reader stopped.

    Bad options stop in argparse, with a usage message and status 2 too:

    >>> main(["hypothesis.txt"])  # no reference file
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    settings = parse(sys.argv[1:] if argv is None else argv)
    # Small results stay in memory; a million sentence scores go to disk.
    with tempfile.SpooledTemporaryFile(max_size=1 << 22, mode="w+", encoding="utf-8") as output:
        try:
            with distinct_warnings(settings.max_n) as warning_texts:
                (score_sentences if settings.sentence else score_corpus)(settings, output)
        except CommandError as error:
            print(f"bleu-scratch: error: {error}", file=sys.stderr)
            return 2
        except NotImplementedError as error:
            # Only in a student edition: a lesson function the score needs is still a stub.
            reason = unwritten_exercise(error)
            if reason is None:
                raise
            print(f"bleu-scratch: error: {reason}; the command scores once lessons 01-06 are written", file=sys.stderr)
            return 2
        status = copy_out(output)
    if status == 0:
        for text in warning_texts:
            print(f"bleu-scratch: warning: {text}", file=sys.stderr)
    return status


def score_corpus(settings: Settings, output: IO[str]) -> None:
    """Read, count on ``settings.jobs`` processes, score and print the corpus."""
    with AlignedFiles(settings.paths) as files, progress_bar(settings.hypothesis) as bar:

        def segments() -> Iterator[tuple[str, ...]]:
            for number, lines in enumerate(files, 1):
                yield lines
                if bar is not None and number % SHARD_LINES == 0:
                    bar.update(files.bytes_read - bar.n)

        stats = stats_of_stream(segments(), settings)
        last_references, last_hypothesis = segment_tokens(files.last, settings.tokenize, settings.lowercase)
    output.write(score_line(score(stats, settings, last_references, last_hypothesis), stats, settings) + "\n")


def score_sentences(settings: Settings, output: IO[str]) -> None:
    """Read, count, score and print one segment at a time."""
    with AlignedFiles(settings.paths) as files, progress_bar(settings.hypothesis) as bar:
        for number, lines in enumerate(files, 1):
            references, hypothesis = segment_tokens(lines, settings.tokenize, settings.lowercase)
            stats = fast_sentence_stats(references, hypothesis, settings.max_n)
            output.write(score_line(score(stats, settings, references, hypothesis), stats, settings, corpus=False) + "\n")
            if bar is not None and number % SHARD_LINES == 0:
                bar.update(files.bytes_read - bar.n)
