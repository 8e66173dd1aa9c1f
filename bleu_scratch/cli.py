"""The ``bleu-scratch`` command: NLTK's corpus BLEU of text files, in sacrebleu's format.

    bleu-scratch HYP REF [REF ...]        (or: python -m bleu_scratch HYP REF ...)

One segment per line; line i of every reference file is a reference for line
i of the hypothesis file. The score is exactly NLTK's ``corpus_bleu`` of the
same tokens with the same options, printed as sacrebleu prints its scores:

    BLEU = 23.17 53.8/29.6/17.6/10.3 (BP = 1.000 ratio = 1.074 hyp_len = 1989 ref_len = 1852)

The figures after the score are the pooled modified precisions in percent,
one per order, with NLTK's denominators (a segment shorter than n counts as
one n-gram of order n).

The files are streamed, shard by shard: memory stays flat however long they
are, and with ``--jobs N`` the shards are scored on N processes
(``parallel.sum_shard_stats``). Because of that, a difference in line counts
shows only at the end; nothing is printed before every line has been read, so
bad input never leaves a partial score behind, only a message and exit
status 2. When the reader of the output stops early (``| head``), the command
stops quietly with status 141, as ``cat`` or ``seq`` do when SIGPIPE ends them.
"""

import argparse
import dataclasses
import json
import math
import os
import re
import shutil
import stat
import sys
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import partial
from itertools import zip_longest

from .brevity import brevity_penalty
from .fast import fast_sentence_stats
from .parallel import segment_tokens, shards, stats_of_lines, sum_shard_stats
from .sentence import DEFAULT_WEIGHTS, BleuStats, bleu_from_stats
from .smoothing import SmoothingFunction
from .tokenize import tokenize_13a, tokenize_punctuation, tokenize_whitespace

# sacrebleu's names: 'none' splits on whitespace only.
TOKENIZERS = {"none": tokenize_whitespace, "13a": tokenize_13a, "punctuation": tokenize_punctuation}
# A shard of 1,000 lines is some 30 ms of work: enough to hide Dask's cost per
# task, while the 2 x jobs shards in flight (and each worker's copy) take only
# a few MB. With 4,000, --jobs 4 took 35 MB more and was at most 5% faster.
SHARD_LINES = 1_000
# A bar appears only once scoring has taken this long (seconds): short runs stay quiet.
PROGRESS_DELAY = 1.0
# What a shell reports for a command ended by SIGPIPE (128 + 13), as `cat` is by `| head`.
BROKEN_PIPE_STATUS = 141


class InputError(Exception):
    """A problem with the input files, reported as one message with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status: 0, 2 for bad input files, 141 if the output's reader stopped.

    Bad options stop in argparse, with a usage message and status 2 too:

    >>> main(["hypothesis.txt"])  # no reference file
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    parser = _parser()
    args = parser.parse_args(_weights_attached(sys.argv[1:] if argv is None else argv))
    if args.sentence and args.jobs > 1:
        parser.error("--jobs applies to the corpus score; --sentence scores in one process")
    # Small results stay in memory; a million sentence scores go to disk.
    with tempfile.SpooledTemporaryFile(max_size=1 << 22, mode="w+", encoding="utf-8") as output:
        try:
            with _distinct_warnings() as warning_texts:
                (_score_sentences if args.sentence else _score_corpus)(args, output)
        except InputError as error:
            print(f"bleu-scratch: error: {error}", file=sys.stderr)
            return 2
        except NotImplementedError as error:
            # Only in the student edition: a lesson function the score needs is still a stub.
            from .classroom import unwritten_exercise

            reason = unwritten_exercise(error)
            if reason is None:
                raise
            print(f"bleu-scratch: error: {reason}; the command scores once lessons 01-06 are written", file=sys.stderr)
            return 2
        output.seek(0)
        try:
            shutil.copyfileobj(output, sys.stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader has all it wanted. Point stdout at /dev/null so that
            # Python's own flush at exit does not fail again with a traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return BROKEN_PIPE_STATUS
    for text in warning_texts:
        print(f"bleu-scratch: warning: {text}", file=sys.stderr)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleu-scratch",
        description="Corpus BLEU of a hypothesis file against reference files, exactly as NLTK's corpus_bleu.",
        epilog=(
            "Exit status: 0 with a score; 2 for bad options or input (then no score is printed); "
            "141 when the output's reader stops early (e.g. | head)."
        ),
    )
    parser.add_argument("hypothesis", metavar="HYP", help="the system output, one segment per line (UTF-8)")
    parser.add_argument("references", metavar="REF", nargs="+", help="one or more reference files, aligned with HYP")
    parser.add_argument(
        "--weights",
        type=_weights,
        default=DEFAULT_WEIGHTS,
        help="one weight per n-gram order, e.g. 0.5,0.5 or '0.5 0.5' for BLEU-2 (default: 0.25,0.25,0.25,0.25)",
    )
    parser.add_argument(
        "--smoothing", type=int, choices=range(8), default=0, metavar="{0..7}",
        help="NLTK's SmoothingFunction().methodN (default: 0, none)",
    )
    parser.add_argument("--lowercase", action="store_true", help="lowercase every line before tokenizing")
    parser.add_argument(
        "--tokenize", choices=sorted(TOKENIZERS), default="none",
        help="none: split on whitespace (default); 13a: mteval-v13a's, sacrebleu's default; punctuation: NLTK's wordpunct",
    )
    parser.add_argument("--sentence", action="store_true", help="one score per line (NLTK's sentence_bleu) instead of the corpus score")
    parser.add_argument("--json", action="store_true", help="print JSON (one object per line with --sentence)")
    parser.add_argument(
        "--jobs", type=_positive, default=1, metavar="N",
        help="score shards of lines on N local processes (Dask); the corpus score only",
    )
    return parser


def _weights(text: str) -> tuple[float, ...]:
    """The ``--weights`` option: finite numbers separated by commas or spaces.

    >>> _weights("0.5, 0.5"), _weights("-1 2")
    ((0.5, 0.5), (-1.0, 2.0))
    >>> _weights("0.5,,0.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an empty weight in '0.5,,0.5': give one number per n-gram order, e.g. 0.25,0.25,0.25,0.25
    """
    items = re.split(r"\s*,\s*|\s+", text.strip())
    if "" in items:  # "0.5,,0.5" or "0.5," is a typo, not two weights
        raise argparse.ArgumentTypeError(
            f"an empty weight in {text!r}: give one number per n-gram order, e.g. 0.25,0.25,0.25,0.25"
        )
    try:
        weights = tuple(float(item) for item in items)
    except ValueError:
        raise argparse.ArgumentTypeError(f"weights must be numbers separated by commas or spaces, got {text!r}") from None
    # NLTK scores negative weights too, so they are accepted; a nan or inf
    # weight gives nan, 0 or an error whatever the files hold.
    if not all(map(math.isfinite, weights)):
        raise argparse.ArgumentTypeError(f"weights must be finite numbers, got {text!r}")
    return weights


def _weights_attached(argv: Sequence[str]) -> list[str]:
    """``--weights -1,2`` as ``--weights=-1,2``, which argparse reads as the option's value.

    argparse takes a word that starts with '-' for an option unless it is a
    single number. NLTK accepts negative weights; -inf is attached too, for
    ``_weights`` to refuse it with its own message.

    >>> _weights_attached(["h", "r", "--weights", "-1,2", "--json"])
    ['h', 'r', '--weights=-1,2', '--json']
    """
    argv, i = list(argv), 0
    while i + 1 < len(argv) and argv[i] != "--":
        word, value = argv[i], argv[i + 1]
        # argparse accepts any unambiguous prefix of an option, such as --weig.
        if len(word) > 2 and "--weights".startswith(word) and re.match(r"-([\d.]|inf|nan)", value, re.I):
            argv[i : i + 2] = [f"{word}={value}"]
        i += 1
    return argv


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return int(text)


def _score_corpus(args: argparse.Namespace, output) -> None:
    """Write the corpus score to ``output``."""
    max_n = len(args.weights)
    paths = [args.hypothesis, *args.references]
    count_shard = partial(stats_of_lines, max_n=max_n, tokenize=TOKENIZERS[args.tokenize], lowercase=args.lowercase)
    with AlignedFiles(paths) as files, _progress_bar(args.hypothesis) as bar:

        def shards_read() -> Iterator[list[tuple[str, ...]]]:
            for shard in shards(files, SHARD_LINES):
                yield shard
                if bar is not None:
                    bar.update(files.bytes_read - bar.n)

        stats = sum_shard_stats(count_shard, shards_read(), max_n, args.jobs)
        # Smoothing methods 5-7 read the last segment, as NLTK's corpus_bleu does.
        last_references, last_hypothesis = _tokens(files.last, args)
    score = _bleu(stats, args, last_references, last_hypothesis)
    output.write(_format(score, stats, args, options=True) + "\n")


def _score_sentences(args: argparse.Namespace, output) -> None:
    """Write one score per segment to ``output``."""
    with AlignedFiles([args.hypothesis, *args.references]) as files, _progress_bar(args.hypothesis) as bar:
        for number, lines in enumerate(files, 1):
            references, hypothesis = _tokens(lines, args)
            stats = fast_sentence_stats(references, hypothesis, len(args.weights))
            output.write(_format(_bleu(stats, args, references, hypothesis), stats, args) + "\n")
            if bar is not None and number % SHARD_LINES == 0:
                bar.update(files.bytes_read - bar.n)


def _tokens(lines: Sequence[str], args: argparse.Namespace) -> tuple[list[list[str]], list[str]]:
    return segment_tokens(lines, TOKENIZERS[args.tokenize], args.lowercase)


def _bleu(stats: BleuStats, args: argparse.Namespace, references, hypothesis):
    smoothing = getattr(SmoothingFunction(), f"method{args.smoothing}")
    try:
        return bleu_from_stats(stats, args.weights, smoothing, False, references, hypothesis)
    except ValueError as error:  # smoothing method 6 explains what it needs
        raise InputError(_in_cli_terms(str(error))) from None
    except OverflowError:  # as in NLTK: a huge negative weight on a precision below 1
        weights = ",".join(f"{weight:g}" for weight in args.weights)
        raise InputError(f"the score overflows a float with --weights {weights}") from None


def _in_cli_terms(text: str) -> str:
    """A message of the package with its Python spellings replaced by the command's options.

    >>> _in_cli_terms("needs 3 orders. Use e.g. weights=(0.25, 0.25, 0.25, 0.25)")
    'needs 3 orders. Use e.g. --weights 0.25,0.25,0.25,0.25'
    >>> _in_cli_terms("Use another method, e.g. SmoothingFunction().method1")
    'Use another method, e.g. --smoothing 1'
    >>> _in_cli_terms("Consider using lower n-gram order or use SmoothingFunction()")
    'Consider using lower n-gram order or use --smoothing 1 to 7'
    """
    text = re.sub(r"weights=\(([^)]*)\)", lambda match: "--weights " + match.group(1).replace(" ", ""), text)
    text = re.sub(r"SmoothingFunction\(\)\.method(\d)", r"--smoothing \1", text)
    return text.replace("SmoothingFunction()", "--smoothing 1 to 7")


def _format(score, stats: BleuStats, args: argparse.Namespace, options: bool = False) -> str:
    """sacrebleu's line, or a JSON object with the exact score and the statistics."""
    precisions = [100 * m / t for m, t in zip(stats.matches, stats.nltk_totals)]
    bp = brevity_penalty(stats.ref_len, stats.hyp_len)
    ratio = stats.hyp_len / stats.ref_len if stats.ref_len else 0
    if args.json:
        result = {"name": "BLEU", "score": 100 * score, "bleu": score, "precisions": precisions, "bp": bp, "ratio": ratio}
        result["stats"] = dataclasses.asdict(stats)
        if options:
            result["options"] = {k: getattr(args, k) for k in ("weights", "smoothing", "tokenize", "lowercase")}
        return json.dumps(result)
    return (
        f"BLEU = {100 * score:.2f} {'/'.join(f'{p:.1f}' for p in precisions)} "
        f"(BP = {bp:.3f} ratio = {ratio:.3f} hyp_len = {stats.hyp_len:d} ref_len = {stats.ref_len:d})"
    )


class AlignedFiles:
    """A hypothesis file and its reference files read in step, one tuple of lines at a time.

    Lines are decoded as UTF-8 and lose their line ending. Bad input raises
    ``InputError`` naming the file (and line): a file that cannot be opened,
    invalid UTF-8, an empty hypothesis file, or files of different lengths,
    which is known only once the shortest file ends.
    """

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.last: tuple[str, ...] = ()
        self._stack = ExitStack()
        try:
            self._files = [self._stack.enter_context(_open(path)) for path in self.paths]
        except InputError:
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
            raise InputError(f"{self.paths[0]} is empty: there is no hypothesis to score")

    def _mismatch(self, number: int, raw_lines: tuple) -> None:
        # Every file has been read up to line number - 1; count what is left of each.
        counts = [number - 1 + (raw is not None) + sum(1 for _ in file) for raw, file in zip(raw_lines, self._files)]
        hypothesis, lines = self.paths[0], counts[0]
        if lines == 0:
            raise InputError(f"{hypothesis} is empty: there is no hypothesis to score")
        wrong = [f"{path} has {_lines(count)}" for path, count in zip(self.paths[1:], counts[1:]) if count != lines]
        raise InputError(
            f"{' and '.join(wrong)}, but the hypothesis file {hypothesis} has {_lines(lines)}: "
            f"every reference file needs exactly one line per hypothesis line"
        )


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _open(path: str):
    try:
        return open(path, "rb")
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None


def _decode(raw: bytes, path: str, number: int) -> str:
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}, line {number}: not valid UTF-8 (byte {error.start + 1} of the line is "
            f"{raw[error.start:error.start + 1]!r}); convert the file to UTF-8, e.g. with iconv"
        ) from None


@contextmanager
def _progress_bar(path: str):
    """A tqdm bar over the hypothesis file's bytes when stderr is a terminal; otherwise None."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    mode = os.stat(path).st_mode
    total = os.path.getsize(path) if stat.S_ISREG(mode) else None
    with tqdm(
        total=total, unit="B", unit_scale=True, desc=os.path.basename(path), file=sys.stderr,
        delay=PROGRESS_DELAY, leave=False,
    ) as bar:
        yield bar


@contextmanager
def _distinct_warnings():
    """Collect the text of each distinct warning (NLTK's zero-overlap ones), on one line, once.

    The command prints them after the score: with ``--sentence`` NLTK would
    warn on most lines, and a failed run should say only what went wrong.
    """
    texts: list[str] = []

    def keep(message, category, filename, lineno, file=None, line=None):
        text = _in_cli_terms(" ".join(str(message).split()))
        if text not in texts:
            texts.append(text)

    with warnings.catch_warnings():
        warnings.simplefilter("always", UserWarning)
        warnings.showwarning = keep
        yield texts
