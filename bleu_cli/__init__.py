"""The ``bleu-scratch`` command: NLTK's corpus BLEU of text files, in sacrebleu's format.

    bleu-scratch HYP REF [REF ...]        (or: python -m bleu_cli HYP REF ...)

One segment per line; line i of every reference file is a reference for line
i of the hypothesis file. The score is exactly NLTK's ``corpus_bleu`` of the
same tokens with the same options, printed as sacrebleu prints its scores:

    BLEU = 23.17 53.8/29.6/17.6/10.3 (BP = 1.000 ratio = 1.074 hyp_len = 1989 ref_len = 1852)

The command is one straight pipeline, settings -> read -> tokens ->
statistics -> score -> report, each stage once, built on the lessons' public
names (lessons 01 and 09's tokenizers, lesson 10's batch counting, lesson 05's
``bleu_from_stats``):

- ``settings``: the options, read once into plain settings;
- ``inputs``: the files, read in step and cut into shards (bad input stops here);
- ``pipeline``: the stages in order: each shard tokenized, counted and, for
  ``--sentence``, scored where it is scored (in this process or on a Dask
  worker), the corpus score and the exit status;
- ``words``: with ``--tokenize none`` and no ``--lowercase``, a shard's words
  split and numbered by compiled code, as arrays (``pipeline`` says when);
- ``report``: the score as sacrebleu's line or JSON, NLTK's warnings in the
  command's words, the progress bar.

``errors`` holds what can go wrong with the input, each error with its facts,
worded in the command's terms; ``signals``, Ctrl-C and SIGTERM (status 130
and 143, nothing more printed, nothing left running); ``watch``, the check
that stops a run whose scheduler (``--scheduler``) falls silent or loses
every worker, which Dask would wait on for ever. ``compare`` is the second
command, ``bleu-scratch-compare``. Both print ``--version``; tqdm (the
progress bar) is the extra ``[cli]`` and dask.distributed (``--jobs``,
``--scheduler``) the extra ``[dask]``.
"""

import os
import sys
from collections.abc import Callable, Sequence

from .signals import stoppable


def main(argv: list[str] | None = None) -> int:
    """Run the command; return the exit status (see ``bleu_cli.pipeline``).

    Bad options stop in argparse, with a usage message and status 2:

    >>> main(["hypothesis.txt"])  # no reference file
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    errors_off_stdout()
    return stoppable(_scored, sys.argv[1:] if argv is None else argv)


def compare_main(argv: list[str] | None = None) -> int:
    """Run ``bleu-scratch-compare``; return its exit status (see ``bleu_cli.compare``)."""
    errors_off_stdout()
    return stoppable(_compared, sys.argv[1:] if argv is None else argv)


def _scored(argv: Sequence[str], check_signals: Callable[[], None]) -> int:
    # Imported with the signals handled: Ctrl-C while the lessons load ends quietly too.
    from .pipeline import run

    return run(argv, check_signals)


def _compared(argv: Sequence[str], check_signals: Callable[[], None]) -> int:
    from .compare import run

    return run(argv, check_signals)


def errors_off_stdout() -> None:
    """Started with stderr closed, ``print(..., file=sys.stderr)`` would print on stdout: send it to /dev/null."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
