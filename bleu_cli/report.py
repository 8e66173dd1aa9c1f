"""Printing: the score as sacrebleu's line or as JSON, NLTK's warnings in the command's words, the progress bar.

Both commands print through here (``bleu-scratch`` and ``bleu-scratch-compare``).

Output goes to a spooled file first and reaches stdout only when everything
has been scored, so bad input never leaves a partial score behind. When the
reader of the output stops early (``| head``), the command stops quietly with
status 141, as ``cat`` does when SIGPIPE ends it.
"""

import dataclasses
import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from bleu_scratch import BleuStats, brevity_penalty, tool_signature
from bleu_scratch.lesson05_sentence import ZERO_ORDER_WARNING
from bleu_scratch.lesson09_tokenizers import tokenizer_signature

from .errors import Unwritable, stop
from .settings import Settings, is_sacrebleu

# A bar appears only once scoring has taken this long (seconds): short runs stay quiet.
PROGRESS_DELAY = 1.0
# What a shell reports for a command ended by SIGPIPE (128 + 13), as `cat` is by `| head`.
BROKEN_PIPE_STATUS = 141


def score_line(score: float, stats: BleuStats, settings: Settings, corpus: bool = True) -> str:
    """sacrebleu's line, or a JSON object with the exact score and the statistics (and, for a corpus, the options).

    The figures after the score are the pooled modified precisions in percent,
    with NLTK's denominators (a segment shorter than n counts one n-gram of order n).

    >>> stats = BleuStats(hyp_len=4, ref_len=5, matches=(3, 1), totals=(4, 3), too_short=(0, 0))
    >>> score_line(0.25, stats, Settings("hyp", ("ref",), weights=(0.5, 0.5)))
    'BLEU = 25.00 75.0/33.3 (BP = 0.779 ratio = 0.800 hyp_len = 4 ref_len = 5)'
    """
    precisions = [100 * m / t for m, t in zip(stats.matches, stats.nltk_totals)]
    bp = brevity_penalty(stats.ref_len, stats.hyp_len)
    ratio = stats.hyp_len / stats.ref_len if stats.ref_len else 0
    if settings.json:
        result = {
            "name": "BLEU",
            "score": 100 * score,
            "bleu": score,
            "precisions": precisions,
            "bp": bp,
            "ratio": ratio,
        }
        result["stats"] = dataclasses.asdict(stats)
        if corpus:
            result["options"] = settings.options()
        return json.dumps(result)
    return (
        f"BLEU = {100 * score:.2f} {'/'.join(f'{p:.1f}' for p in precisions)} "
        f"(BP = {bp:.3f} ratio = {ratio:.3f} hyp_len = {stats.hyp_len:d} ref_len = {stats.ref_len:d})"
    )


def tool_line(tool: str, value: Any, as_json: bool = False, references: int = 1, lowercase: bool = False) -> str:
    """The number ``tool`` returns, as Python prints it, then the signature of what was computed (or JSON):
    sacrebleu's own signature for sacrebleu, the one to report with its number.

    >>> tool_line("nmt", 0.25)
    'nmt = 0.25 (tensorflow/nmt compute_bleu|tok:whitespace|ref:shortest|smooth:no|scale:0-1)'
    >>> tool_line("sacrebleu-smooth-floor", 25.0, references=2)
    'sacrebleu-smooth-floor = 25.0 (nrefs:2|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0)'
    """
    if is_sacrebleu(tool):
        kind, _, name = tool.removeprefix("sacrebleu").removeprefix("-").partition("-")
        settings = {"tokenize": name} if kind == "tok" else {"smooth": name} if kind == "smooth" else {}
        signature = sacrebleu_signature(references, lowercase=lowercase, **settings)
    else:
        signature = tool_signature(tool)
    if as_json:
        return json.dumps({"tool": tool, "score": float(value), "signature": signature})
    return f"{tool} = {value!s} ({signature})"


def sacrebleu_signature(
    references: int, tokenize: str = "13a", smooth: str = "exp", lowercase: bool = False, tests: str = ""
) -> str:
    """sacrebleu 2.6.0's signature of its BLEU: ``tests`` are its paired tests' fields (``bs:1000|seed:12345|``).

    A smoothing method with a value shows sacrebleu's default value, as sacrebleu prints it.

    >>> sacrebleu_signature(1, lowercase=True)
    'nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0'
    """
    value = {"floor": "[0.10]", "add-k": "[1.00]"}.get(smooth, "")
    return (
        f"nrefs:{references}|{tests}case:{'lc' if lowercase else 'mixed'}|eff:no|"
        f"tok:{tokenizer_signature(tokenize)}|smooth:{smooth}{value}|version:2.6.0"
    )


def detokenize_warning(path: str, hypotheses: list[str]) -> str | None:
    """sacrebleu's warning for a hypothesis file that looks tokenized: 100 lines or more end in " ." (trailing
    whitespace aside, as sacrebleu's command line reads them).

    >>> print(detokenize_warning("hyp.txt", ["It works ."] * 100).split(": it")[0])
    hyp.txt: 100 lines end in a tokenized period ('.')
    >>> print(detokenize_warning("hyp.txt", ["It works ."] * 99 + ["It works."]))
    None
    """
    periods = sum(line.rstrip().endswith(" .") for line in hypotheses)
    if periods < 100:
        return None
    name = "standard input" if path == "-" else path
    return (
        f"{name}: {periods} lines end in a tokenized period ('.'): it looks like the test data is not detokenized, "
        "which may hurt the score; sacrebleu warns so too. Score detokenized output (detokenize it with the "
        "tokenizer's own detokenizer, e.g. sacremoses'), or ignore this if it is"
    )


def warning_text(message: str, max_n: int) -> str:
    """A warning of the lessons on one line, NLTK's zero-overlap warning in the command's words.

    >>> warning_text(ZERO_ORDER_WARNING.format(4), 4)[-59:]
    'Consider using lower n-gram order or use --smoothing 1 to 7'
    """
    for n in range(1, max_n + 1):
        if message == ZERO_ORDER_WARNING.format(n):
            return (
                f"The hypothesis contains 0 counts of {n}-gram overlaps. Therefore the BLEU score evaluates "
                f"to 0, independently of how many N-gram overlaps of lower order it contains. Consider "
                f"using lower n-gram order or use --smoothing 1 to 7"
            )
    return " ".join(message.split())


@contextmanager
def progress_bar(
    name: str, total: int | None, unit: str = " segments", unit_scale: bool = True, prog: str = "bleu-scratch"
) -> Iterator[Any]:
    """A tqdm bar over ``total`` units (the segments scored, "1.2M") when stderr is a terminal; otherwise None.

    tqdm is the extra ``[cli]``: without it the command ``prog`` says so on
    one line of stderr and goes on without a bar.
    """
    if not sys.stderr.isatty():
        yield None
        return
    try:
        from tqdm import tqdm
    except ImportError:
        print(f"{prog}: no progress bar: pip install 'bleu-scratch[cli]' for one", file=sys.stderr)
        yield None
        return
    with tqdm(
        total=total,
        unit=unit,
        unit_scale=unit_scale,
        desc=os.path.basename(name),
        file=sys.stderr,
        delay=PROGRESS_DELAY,
        leave=False,
    ) as bar:
        yield bar


def copy_out(spool: IO[str], prog: str) -> int:
    """Write what was spooled to stdout; 0, ``BROKEN_PIPE_STATUS`` if the reader has gone, or 2 (and one line
    on stderr) if stdout is closed or cannot take it, a full disk say."""
    if sys.stdout is None:  # the command was started with its stdout closed
        return stop(prog, "writes", Unwritable("standard output is closed"))
    spool.seek(0)
    try:
        shutil.copyfileobj(spool, sys.stdout)
        sys.stdout.flush()
    except OSError as error:
        # Point stdout at /dev/null, so that Python's own flush at exit does not fail again with a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if isinstance(error, BrokenPipeError):  # the reader has all it wanted
            return BROKEN_PIPE_STATUS
        return stop(prog, "writes", Unwritable(error.strerror or type(error).__name__))
    return 0
