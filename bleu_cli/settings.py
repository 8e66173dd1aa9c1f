"""The command's options, read once into plain ``Settings``.

argparse reads the command line; every option's value is checked and
converted here, and a bad one ends the command with one line on stderr and
exit status 2 before any file is read. So does ``--jobs N`` or ``--scheduler``
without dask.distributed (the extra ``[dask]``), ``--tokenize intl`` without
the regex package (``[intl]``), ``ja-mecab`` or ``ko-mecab`` without MeCab
(the extras ``[ja]``, ``[ko]``), and a tokenizer of sacrebleu's that needs a
downloaded SentencePiece model.
"""

import argparse
import importlib.util
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from bleu_scratch import ALL_TOKENIZERS, NEEDS_SENTENCEPIECE_MODEL, TOOLS, __version__, sacrebleu_tokenizer
from bleu_scratch.lesson05_sentence import DEFAULT_WEIGHTS

# Local workers per CPU at most: past the CPUs, a worker adds a process and its memory, not speed.
WORKERS_PER_CPU = 4
# A decimal number as a user writes one (nan and inf are read to be refused as not finite).
NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)", re.IGNORECASE)


@dataclass(frozen=True)
class Settings:
    """What to score and how: the command line, checked."""

    hypothesis: str
    references: tuple[str, ...]
    weights: tuple[float, ...] = DEFAULT_WEIGHTS
    smoothing: int = 0
    lowercase: bool = False
    tokenize: str = "none"
    sentence: bool = False
    json: bool = False
    jobs: int = 1
    scheduler: str | None = None
    as_tool: str | None = None

    @property
    def paths(self) -> list[str]:
        """The hypothesis file, then the reference files."""
        return [self.hypothesis, *self.references]

    @property
    def max_n(self) -> int:
        return len(self.weights)

    def options(self) -> dict:
        """The options that decide the score, for the JSON output."""
        return {
            "weights": list(self.weights),
            "smoothing": self.smoothing,
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
        }


def parse(argv: Sequence[str]) -> Settings:
    """The settings of a command line; argparse exits with status 2 on a bad option.

    >>> settings = parse(["hyp.txt", "ref.txt", "--weights", "0.5,0.5"])
    >>> settings.hypothesis, settings.references, settings.weights, settings.smoothing, settings.lowercase
    ('hyp.txt', ('ref.txt',), (0.5, 0.5), 0, False)
    >>> settings.tokenize, settings.sentence, settings.json, settings.jobs, settings.scheduler
    ('none', False, False, 1, None)
    """
    parser = _parser()
    args = parser.parse_args(_weights_attached(argv))
    stdin_read_once(parser, [args.hypothesis, *args.references])
    if args.scheduler and args.jobs > 1:
        parser.error("--jobs starts a cluster on this machine; with --scheduler the cluster's workers count")
    cpus = usable_cpus()
    if args.jobs > WORKERS_PER_CPU * cpus:
        parser.error(
            f"--jobs {args.jobs} is more than {WORKERS_PER_CPU} workers for each of this machine's {cpus} "
            f"CPUs: use --jobs {WORKERS_PER_CPU * cpus} or fewer, or --scheduler for a cluster of several machines"
        )
    tokenizer_loaded(parser, args.tokenize)
    if args.as_tool is not None:
        _alone_with_as(parser, args)
    dask_option = "--scheduler" if args.scheduler else "--jobs" if args.jobs > 1 else None
    if dask_option and importlib.util.find_spec("distributed") is None:
        # dask.distributed is the extra [dask]: one line naming it, before any file is read.
        parser.exit(
            2, f"{parser.prog}: error: {dask_option} needs dask.distributed: pip install 'bleu-scratch[dask]'\n"
        )
    return Settings(
        hypothesis=args.hypothesis,
        references=tuple(args.references),
        weights=args.weights,
        smoothing=args.smoothing,
        lowercase=args.lowercase,
        tokenize=args.tokenize,
        sentence=args.sentence,
        json=args.json,
        jobs=args.jobs,
        scheduler=args.scheduler,
        as_tool=args.as_tool,
    )


# The options --as leaves to the tool it names, with their defaults.
DECIDED_BY_THE_TOOL = {"weights": DEFAULT_WEIGHTS, "smoothing": 0, "lowercase": False, "tokenize": "none"}


def _alone_with_as(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--as TOOL`` scores as the tool does: an option that would change how is refused, and so is --sentence."""
    for option, default in DECIDED_BY_THE_TOOL.items():
        if option == "lowercase" and is_sacrebleu(args.as_tool):
            continue  # sacrebleu's own -lc
        if getattr(args, option) != default:
            parser.error(f"--as {args.as_tool} scores with the tool's own {option}: drop --{option}")
    if args.sentence or args.jobs > 1 or args.scheduler:
        parser.error(f"--as {args.as_tool} gives the tool's corpus score here: drop --sentence, --jobs and --scheduler")
    if "-tok-" in args.as_tool:  # sacrebleu's tokenizer NAME: its extra, if it needs one, must be there
        tokenizer_loaded(parser, args.as_tool.rsplit("-tok-", 1)[1])


def is_sacrebleu(tool: str) -> bool:
    """Whether ``--as tool`` is sacrebleu itself, with one of its tokenizers or smoothing methods."""
    return tool == "sacrebleu" or tool.startswith("sacrebleu-")


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr (argparse would print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} ({self.prog} --help lists the options)\n")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="bleu-scratch",
        description="Corpus BLEU of a hypothesis file against reference files, exactly as NLTK's corpus_bleu.",
        epilog=(
            "Exit status: 0 with a score; 2 for bad options or input (then no score is printed); "
            "141 when the output's reader stops early (e.g. | head); 130 after Ctrl-C, 143 after SIGTERM "
            "(every process the command started is stopped first)."
        ),
    )
    parser.add_argument(
        "hypothesis", metavar="HYP", help="the system output, one segment per line (UTF-8); - reads standard input"
    )
    parser.add_argument(
        "references",
        metavar="REF",
        nargs="+",
        help="one or more reference files, aligned with HYP (- for standard input)",
    )
    parser.add_argument(
        "--weights",
        type=_weights,
        default=DEFAULT_WEIGHTS,
        help="one weight per n-gram order, e.g. 0.5,0.5 or '0.5 0.5' for BLEU-2 (default: 0.25,0.25,0.25,0.25)",
    )
    parser.add_argument(
        "--smoothing",
        type=_method,
        default=0,
        metavar="{0..7}",
        help="NLTK's SmoothingFunction().methodN (default: 0, none)",
    )
    parser.add_argument("--lowercase", action="store_true", help="lowercase every line before tokenizing")
    parser.add_argument(
        "--tokenize",
        type=sentencepiece_refused,
        choices=list(ALL_TOKENIZERS),
        default="none",
        help=(
            "none: split on whitespace (default); 13a: mteval-v13a's, sacrebleu's default; "
            "punctuation: NLTK's wordpunct; lowercase and paper: lesson 01's; "
            "zh, intl ([intl] extra), char, ja-mecab ([ja] extra), ko-mecab ([ko] extra): sacrebleu's, with its tokens"
        ),
    )
    parser.add_argument(
        "--sentence", action="store_true", help="one score per line (NLTK's sentence_bleu) instead of the corpus score"
    )
    parser.add_argument("--json", action="store_true", help="print JSON (one object per line with --sentence)")
    parser.add_argument(
        "--jobs",
        type=positive,
        default=1,
        metavar="N",
        help="score shards of lines on a Dask cluster of N worker processes on this machine (listening on 127.0.0.1)",
    )
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help=(
            "score on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 "
            "(see docs/command-line.md: the workers need bleu-scratch installed)"
        ),
    )
    parser.add_argument(
        "--as",
        dest="as_tool",
        metavar="TOOL",
        type=_tool,
        help=(
            "the number another tool prints for these files, and what it computed: "
            f"{', '.join(TOOLS)} (docs/command-line.md says how each differs)"
        ),
    )
    parser.add_argument("--version", action="version", version=f"bleu-scratch {__version__}")
    return parser


def stdin_read_once(parser: argparse.ArgumentParser, paths: list[str]) -> None:
    """Standard input (``-``) can be read once: named for two files, the command stops in one line."""
    if paths.count("-") > 1:
        parser.error("standard input (-) can be read once: give it for one file at most")


def tokenizer_loaded(parser: argparse.ArgumentParser, name: str) -> None:
    """Call the tokenizer ``name`` once: intl's and MeCab's import their extra then, so a missing one ends the
    command in one line before any file is read."""
    try:
        ALL_TOKENIZERS[name]("")
    except ImportError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")


def sentencepiece_refused(name: str) -> str:
    """A ``--tokenize`` name; sacrebleu's SentencePiece tokenizers are refused with lesson 09's reason.

    >>> sentencepiece_refused("13a")
    '13a'
    >>> try:
    ...     sentencepiece_refused("flores101")
    ... except argparse.ArgumentTypeError as error:
    ...     print(error)
    tokenize 'flores101' needs a downloaded SentencePiece model, which bleu_scratch does not fetch
    """
    if name in NEEDS_SENTENCEPIECE_MODEL:
        try:
            sacrebleu_tokenizer(name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return name


def usable_cpus() -> int:
    """The CPUs this process may run on (a container or ``taskset`` may allow fewer than the machine has)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def scheduler_address(text: str) -> str:
    """A ``--scheduler`` address: ``tcp://HOST:PORT`` or ``HOST:PORT`` (Dask's tcp), the one transport it needs
    no settings for.

    >>> scheduler_address("10.0.0.5:8786")
    '10.0.0.5:8786'
    >>> try:
    ...     scheduler_address("tls://10.0.0.5:8786")
    ... except argparse.ArgumentTypeError as error:
    ...     print(error)
    give the scheduler as tcp://HOST:PORT, got 'tls://10.0.0.5:8786'
    """
    scheme, _, rest = text.strip().rpartition("://")
    if scheme not in ("", "tcp") or not rest:
        raise argparse.ArgumentTypeError(f"give the scheduler as tcp://HOST:PORT, got {text!r}")
    return text.strip()


def _tool(name: str) -> str:
    """A ``--as`` name, one of lesson 09's ``TOOLS``.

    >>> try:
    ...     _tool("evaluate")
    ... except argparse.ArgumentTypeError as error:
    ...     print(str(error)[:60])
    no tool 'evaluate': one of nltk, sacrebleu, multi-bleu, mtev
    """
    if name not in TOOLS:
        raise argparse.ArgumentTypeError(f"no tool {name!r}: one of {', '.join(TOOLS)}")
    return name


def _weights(text: str) -> tuple[float, ...]:
    """The ``--weights`` option: finite numbers separated by commas or spaces.

    >>> _weights("0.5, 0.5"), _weights("-1 2")
    ((0.5, 0.5), (-1.0, 2.0))
    >>> try:
    ...     _weights("0.5,,0.5")
    ... except argparse.ArgumentTypeError as error:
    ...     print(error)
    an empty weight in '0.5,,0.5': give one number per n-gram order, e.g. 0.25,0.25,0.25,0.25
    """
    items = re.split(r"\s*,\s*|\s+", text.strip())
    if "" in items:  # "0.5,,0.5" or "0.5," is a typo, not two weights
        raise argparse.ArgumentTypeError(
            f"an empty weight in {text!r}: give one number per n-gram order, e.g. 0.25,0.25,0.25,0.25"
        )
    # float() also reads "1_0" (as 10) and digits of other scripts: a typo, not a weight.
    if not all(NUMBER.fullmatch(item) for item in items):
        raise argparse.ArgumentTypeError(f"weights must be numbers separated by commas or spaces, got {text!r}")
    weights = tuple(float(item) for item in items)
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


def positive(text: str) -> int:
    """A count such as ``--jobs``: ASCII digits, at least 1.

    >>> positive(" 2 ")
    2
    >>> positive("²")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number of at least 1, got '²'
    """
    if not re.fullmatch(r"[0-9]+", text.strip()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return int(text)


def _method(text: str) -> int:
    """A smoothing method number, 0 to 7 in ASCII digits."""
    if not re.fullmatch(r"[0-7]", text.strip()):
        raise argparse.ArgumentTypeError(f"must be a smoothing method from 0 to 7, got {text!r}")
    return int(text)
