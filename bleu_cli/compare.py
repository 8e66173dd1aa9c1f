"""The ``bleu-scratch-compare`` command: is each system's BLEU really different from the baseline's?

    bleu-scratch-compare BASELINE SYSTEM [SYSTEM ...] --references REF [REF ...]
                         [--test bs|ar] [--samples N] [--seed S|none] [--tokenize 13a] [--json]

    (or: python -m bleu_cli.compare ...)

Each file holds one segment per line; line i of every file translates the
same source sentence. Lesson 11's ``paired_test`` compares each system with
the baseline by paired bootstrap resampling (``--test bs``, the default) or
approximate randomization (``--test ar``), with sacrebleu 2.6.0's
definitions, seed and numbers, and prints a table like ``sacrebleu
--paired-bs``'s (or JSON): each system's BLEU, the mean of its bootstrap
resamples with half the width of their 95% interval, and its p-value.

Bad input ends the command with one line on stderr and exit status 2 before
anything is printed; a progress bar shows on a terminal only (with the extra
``[cli]``, tqdm; without it one line says how to install it).
"""

import argparse
import io
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bleu_scratch import ALL_TOKENIZERS, SACREBLEU_TOKENIZERS, PairedResult, __version__, paired_test
from bleu_scratch.lesson11_significance import DEFAULT_SAMPLES, INTERVAL_SAMPLES, no_progress

from . import compare_main
from .errors import CommandError, EmptyHypothesis, GivenTwice, SegmentCounts, TooManySamples, stop
from .inputs import check_readable, streamed_shards
from .report import copy_out, detokenize_warning, progress_bar, sacrebleu_signature
from .settings import OneLineParser, positive, sentencepiece_refused, stdin_read_once, tokenizer_loaded

PROG = "bleu-scratch-compare"
SIGNIFICANCE_LEVEL = 0.05


@dataclass(frozen=True)
class CompareSettings:
    """What to compare and how: the command line, checked."""

    baseline: str
    systems: tuple[str, ...]
    references: tuple[str, ...]
    test: str = "bs"
    samples: int | None = None
    seed: int | None = 12345
    tokenize: str = "13a"
    json: bool = False
    lowercase: bool = False

    @property
    def n_samples(self) -> int:
        return self.samples or DEFAULT_SAMPLES[self.test]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status: 0, 2 for bad input, 141 if the output's reader stopped, 130 after
    Ctrl-C and 143 after SIGTERM (``bleu_cli.signals``).

    >>> main(["baseline.txt", "system.txt"])  # no --references
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    return compare_main(argv)


def run(argv: Sequence[str], check_signals: Callable[[], None]) -> int:
    """The command on ``argv``; its exit status. ``check_signals`` is called before anything is printed."""
    return _compare(parse(argv), check_signals)


def _compare(settings: CompareSettings, check_signals: Callable[[], None]) -> int:
    """The comparison of ``main``, its exit status."""
    try:
        named_systems, references = read(settings)
        if settings.lowercase:  # sacrebleu's -lc: each line lowercased before it is tokenized
            named_systems = [(name, [line.lower() for line in lines]) for name, lines in named_systems]
            references = [[line.lower() for line in lines] for lines in references]
        segments = len(references[0])
        # The resamples are a (samples, segments) array of 8-byte numbers: refused before numpy tries.
        if settings.n_samples * segments * 8 > os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"):
            raise TooManySamples(settings.n_samples, segments)
        with progress_bar("compare", 2 * len(named_systems), unit=" steps", unit_scale=False, prog=PROG) as bar:
            results = paired_test(
                named_systems,
                references,
                settings.test,
                settings.samples,
                settings.seed,
                settings.tokenize,
                bar.update if bar else no_progress,
            )
    except (CommandError, NotImplementedError) as error:
        return stop(PROG, "compares", error)
    report = json_report(results, settings) if settings.json else table(results, settings)
    check_signals()
    status = copy_out(io.StringIO(report), PROG)
    if status == 0 and settings.tokenize in SACREBLEU_TOKENIZERS:
        for name, lines in named_systems:
            tokenized = detokenize_warning(name, lines)
            if tokenized:
                print(f"{PROG}: warning: {tokenized}", file=sys.stderr)
    return status


def parse(argv: Sequence[str]) -> CompareSettings:
    """The settings of a command line; argparse exits with status 2 on a bad option.

    >>> settings = parse(["base.txt", "sys.txt", "--references", "ref.txt", "--test", "ar"])
    >>> settings.baseline, settings.systems, settings.references, settings.test
    ('base.txt', ('sys.txt',), ('ref.txt',), 'ar')
    >>> settings.samples, settings.seed, settings.tokenize, settings.json
    (None, 12345, '13a', False)
    """
    parser = OneLineParser(
        prog=PROG,
        description=(
            "Paired significance tests of BLEU differences: each SYSTEM against BASELINE, with sacrebleu 2.6.0's "
            "paired bootstrap resampling or approximate randomization, and each system's 95% interval."
        ),
        epilog="Exit status: 0 with a table; 2 for bad options or input (then nothing is printed on stdout).",
    )
    parser.add_argument(
        "baseline", metavar="BASELINE", help="the baseline system's output, one segment per line (UTF-8)"
    )
    parser.add_argument("systems", metavar="SYSTEM", nargs="+", help="the systems to compare with the baseline")
    parser.add_argument(
        "--references", "-r", metavar="REF", nargs="+", required=True, help="one or more reference files"
    )
    parser.add_argument(
        "--test",
        choices=["bs", "ar"],
        default="bs",
        help="bs: paired bootstrap resampling (default); ar: approximate randomization",
    )
    parser.add_argument(
        "--samples",
        type=positive,
        metavar="N",
        help=f"resamples for bs (default {DEFAULT_SAMPLES['bs']}) or trials for ar (default {DEFAULT_SAMPLES['ar']})",
    )
    parser.add_argument(
        "--seed",
        type=_seed,
        default=12345,
        metavar="S",
        help="the random seed, as sacrebleu's SACREBLEU_SEED (default 12345); 'none' for a different draw each run",
    )
    parser.add_argument(
        "--tokenize",
        type=sentencepiece_refused,
        choices=list(ALL_TOKENIZERS),
        default="13a",
        help=(
            "13a: sacrebleu's default (default); none: split on whitespace; zh, intl ([intl] extra), char, "
            "ja-mecab ([ja] extra), ko-mecab ([ko] extra): sacrebleu's; lowercase, punctuation, paper: lesson 01's"
        ),
    )
    parser.add_argument(
        "--lowercase", action="store_true", help="lowercase every line before tokenizing, as sacrebleu's -lc"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    args = parser.parse_args(argv)
    stdin_read_once(parser, [args.baseline, *args.systems, *args.references])
    tokenizer_loaded(parser, args.tokenize)
    return CompareSettings(
        args.baseline,
        tuple(args.systems),
        tuple(args.references),
        args.test,
        args.samples,
        args.seed,
        args.tokenize,
        args.json,
        args.lowercase,
    )


def read(settings: CompareSettings) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    """The systems as ``(path, lines)`` pairs, the baseline first, and the reference streams; bad input raises."""
    names = [settings.baseline, *settings.systems]
    check_readable([*names, *settings.references])
    seen: dict[tuple[int, int] | str, str] = {}  # each file, by its device and inode, to the first name given
    for name in names:
        file = _file_of(name)
        if file in seen:
            raise GivenTwice(name, seen[file])
        seen[file] = name
    streams = {path: file_lines(path) for path in [*names, *settings.references]}
    if not streams[settings.baseline]:
        raise EmptyHypothesis(settings.baseline)
    expected = len(streams[settings.baseline])
    wrong = [(path, len(lines)) for path, lines in streams.items() if len(lines) != expected]
    if wrong:
        raise SegmentCounts(settings.baseline, expected, wrong)
    return [(name, streams[name]) for name in names], [streams[path] for path in settings.references]


def _file_of(name: str) -> tuple[int, int] | str:
    """The file a readable name (``-`` is standard input) stands for: its device and inode, so that a link or
    ``./`` is no other; the name itself where standard input is closed (reading it says so)."""
    try:
        found = os.fstat(0) if name == "-" else os.stat(name)
    except OSError:
        return name
    return found.st_dev, found.st_ino


def file_lines(path: str) -> list[str]:
    """The lines of one file (``-`` is standard input), read and decoded as ``bleu-scratch`` reads them; an
    empty file has none.

    A byte order mark at the start stays on the first line, as sacrebleu's command line reads it (WMT17's
    online-A starts with one).
    """
    try:
        return [line for shard in streamed_shards([path]) for (line,) in shard]
    except EmptyHypothesis:
        return []


def signature(settings: CompareSettings) -> str | None:
    """sacrebleu's signature of the same numbers, or None for a tokenizer sacrebleu does not have.

    >>> signature(CompareSettings("b", ("s",), ("r",), test="ar"))
    'nrefs:1|bs:1000|ar:10000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'

    With ``ar`` the intervals come from 1,000 bootstrap resamples, and so does the ``bs`` field: sacrebleu's
    ``PairedTest(..., n_ar_confidence=1000)`` signs them so (``sacrebleu --paired-ar`` prints no intervals).
    """
    if settings.tokenize not in SACREBLEU_TOKENIZERS:
        return None
    seed = "none" if settings.seed is None else settings.seed
    tests = f"bs:{settings.n_samples}" if settings.test == "bs" else f"bs:{INTERVAL_SAMPLES}|ar:{settings.n_samples}"
    tests += f"|seed:{seed}|"
    return sacrebleu_signature(len(settings.references), settings.tokenize, lowercase=settings.lowercase, tests=tests)


def table(results: list[PairedResult], settings: CompareSettings) -> str:
    """The results as sacrebleu prints them with ``--paired-bs``: a table, then what it means; a system that
    differs from the baseline in no trial gets no "*" (``no_difference``).

    >>> results = [
    ...     PairedResult("a.txt", 26.6, None, 26.6, (25.9, 27.2)),
    ...     PairedResult("b.txt", 28.3, 0.001, 28.31, (27.6, 29.0)),
    ... ]
    >>> print(table(results, CompareSettings("a.txt", ("b.txt",), ("r.txt",))).split("\\n\\n")[0])
    System           BLEU (μ ± 95% CI)     p-value
    ---------------  --------------------  -------------
    Baseline: a.txt  26.60 (26.60 ± 0.65)
    b.txt            28.30 (28.31 ± 0.70)  (p = 0.0010)*
    """
    rows = [["System", "BLEU (μ ± 95% CI)", "p-value"]]
    same = no_difference(results, settings.n_samples)
    for result in results:
        name = result.name if result.p_value is not None else f"Baseline: {result.name}"
        significant = result.p_value is not None and result.p_value < SIGNIFICANCE_LEVEL and result.name not in same
        marked = "" if result.p_value is None else f"(p = {result.p_value:.4f}){'*' if significant else ''}"
        rows.append([name, f"{result.score:.2f} ({result.mean:.2f} ± {result.half_width:.2f})", marked])
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    rows.insert(1, ["-" * width for width in widths])
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    test = (
        f"Paired bootstrap resampling test with {settings.n_samples} resamples"
        if settings.test == "bs"
        else f"Paired approximate randomization test with {settings.n_samples} trials "
        f"(95% intervals from {INTERVAL_SAMPLES} bootstrap resamples)"
    )
    sacrebleu = signature(settings)
    lines += [
        "",
        test,
        f" - Each system is compared with the baseline, {results[0].name}. After each BLEU: the mean of its",
        "   bootstrap resamples ± half the width of their 95% interval.",
        " - Null hypothesis: the system and the baseline translate alike. The p-value is about the chance of a",
        "   difference in BLEU at least as large as the one seen, if the null hypothesis is true.",
        f' - p-values below {SIGNIFICANCE_LEVEL} are marked "*": a difference this large would be rare between',
        "   equally good systems. Significance says neither that a system is better nor by how much.",
        f" - {_comparisons(len(results) - 1)}",
        *_no_difference_note(same),
        "",
        f"sacrebleu's signature of these numbers: {sacrebleu}"
        if sacrebleu
        else f"tokenizer {settings.tokenize!r} is lesson 01's; sacrebleu has none of that name"
        + (" (the lines lowercased first)" if settings.lowercase else ""),
    ]
    return "\n".join(lines) + "\n"


def json_report(results: list[PairedResult], settings: CompareSettings) -> str:
    """The results as JSON: the settings, then one object per system, the baseline first (its p-value null);
    ``no_difference``: whether it differs from the baseline in no trial (its p-value says nothing).

    >>> results = [PairedResult("a.txt", 26.6, None, 26.6, (25.9, 27.2))]
    >>> report = json.loads(json_report(results, CompareSettings("a.txt", (), ("r.txt",))))
    >>> list(report["systems"][0].items())[:4]
    [('system', 'a.txt'), ('baseline', True), ('score', 26.6), ('p_value', None)]
    >>> list(report["systems"][0].items())[4:]
    [('mean', 26.6), ('low', 25.9), ('high', 27.2), ('ci', 0.6500000000000004), ('no_difference', False)]
    """
    same = no_difference(results, settings.n_samples)
    systems = [
        {
            "system": result.name,
            "baseline": i == 0,
            "score": result.score,
            "p_value": result.p_value,
            "mean": result.mean,
            "low": result.interval[0],
            "high": result.interval[1],
            "ci": result.half_width,
            "no_difference": result.name in same,
        }
        for i, result in enumerate(results)
    ]
    head = {
        "test": settings.test,
        "samples": settings.n_samples,
        "seed": settings.seed,
        "tokenize": settings.tokenize,
        "lowercase": settings.lowercase,
        "references": list(settings.references),
        "signature": signature(settings),
    }
    return json.dumps(head | {"systems": systems}, ensure_ascii=False, indent=2) + "\n"


def no_difference(results: list[PairedResult], trials: int) -> list[str]:
    """The systems that score the baseline's BLEU and differ from it in no trial: each trial's difference is 0.

    Both tests count the trials whose difference exceeds the one seen, so these get the smallest p-value a
    test gives, 1 / (trials + 1), as in sacrebleu, which marks them "*". It happens when a system's text is
    the baseline's, or differs only where the tokens do not (spaces, say).

    >>> results = [PairedResult("a", 26.6, None, 26.6, (26, 27)), PairedResult("b", 26.6, 1 / 1001, 26.6, (26, 27))]
    >>> no_difference(results, 1000)
    ['b']
    """
    baseline = results[0].score
    return [result.name for result in results[1:] if result.score == baseline and result.p_value == 1 / (trials + 1)]


def _no_difference_note(names: Sequence[str]) -> list[str]:
    """The note for the systems of ``no_difference``.

    >>> print("\\n".join(_no_difference_note(["b.txt"])))
     - b.txt: the baseline's BLEU, and no trial differs from it by more than the 0 seen, so the p-value is the
       smallest the test gives; a difference of 0 is no evidence of a difference: no "*" (sacrebleu prints one).
    """
    if not names:
        return []
    return [
        f" - {', '.join(names)}: the baseline's BLEU, and no trial differs from it by more than the 0 seen, "
        "so the p-value is the",
        '   smallest the test gives; a difference of 0 is no evidence of a difference: no "*" (sacrebleu prints one).',
    ]


def _comparisons(n_systems: int) -> str:
    """What testing several systems does to the chance of a false "*" (lesson 11).

    >>> _comparisons(15)
    'With 15 systems that all translate like the baseline, the chance of at least one "*" is up to 54%.'
    >>> _comparisons(1)
    'With 1 system that translates like the baseline, the chance of a "*" is up to 5%.'
    """
    chance = 1 - (1 - SIGNIFICANCE_LEVEL) ** n_systems
    if n_systems == 1:
        return f'With 1 system that translates like the baseline, the chance of a "*" is up to {chance:.0%}.'
    return (
        f"With {n_systems} systems that all translate like the baseline, "
        f'the chance of at least one "*" is up to {chance:.0%}.'
    )


def _seed(text: str) -> int | None:
    """``--seed``: ASCII digits, or none.

    >>> _seed("12345"), _seed("None")
    (12345, None)
    """
    if text.strip().lower() == "none":
        return None
    if not re.fullmatch(r"[0-9]+", text.strip()):
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 0, or none, got {text!r}")
    return int(text)


if __name__ == "__main__":
    raise SystemExit(main())
