"""The checks of lessons 11 and 12, which compare systems: a paired test's systems and references, two score lists.

As in ``values.py`` (whose helpers these share), each check returns its
input ready for the lesson code or raises an error that says what is wrong
and how to fix it; the door's checks (``__init__.py``) call them.
"""

from collections.abc import Collection, Sequence
from numbers import Real
from typing import Any

from .values import article, as_sequence, shortened


def check_paired_test(
    named_systems: Any,
    references: Any,
    test_type: Any,
    n_samples: Any,
    seed: Any,
    tokenize: Any,
    tokenizers: Collection[str],
) -> tuple[list, list]:
    """Return the systems and references of a paired test as lists, or raise a clear error.

    >>> systems = [("A", ["a b"]), ("B", ["a c"])]
    >>> check_paired_test(systems, [["a b"]], "bs", None, 12345, "13a", ["13a"])
    ([('A', ['a b']), ('B', ['a c'])], [['a b']])
    >>> check_paired_test(systems, ["a b"], "bs", None, 12345, "13a", ["13a"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: references[0] is a str, but references must be a list of reference streams, ...: pass [lines] ...
    """
    if test_type not in ("bs", "ar"):
        raise ValueError(
            "test_type must be 'bs' (paired bootstrap resampling) or 'ar' (approximate randomization), "
            f"got {test_type!r}"
        )
    if n_samples is not None and (type(n_samples) is bool or not isinstance(n_samples, int) or n_samples < 1):
        raise ValueError(f"n_samples must be a whole number of at least 1, or None for the default, got {n_samples!r}")
    if seed is not None and (type(seed) is bool or not isinstance(seed, int) or seed < 0):
        raise ValueError(
            f"seed must be a whole number of at least 0 (as SACREBLEU_SEED), or None for an unseeded run, got {seed!r}"
        )
    if tokenize not in tokenizers:
        raise ValueError(f"tokenize must be one of {sorted(tokenizers)}, got {tokenize!r}")
    systems = as_sequence(named_systems, "named_systems", "a list of (name, lines) pairs, the baseline first")
    if len(systems) < 2:
        raise ValueError(
            f"named_systems has {len(systems)} system(s): a paired test needs the baseline and at least one system"
        )
    checked = []
    for i, pair in enumerate(systems):
        if (
            isinstance(pair, (str, bytes))
            or not isinstance(pair, Sequence)
            or len(pair) != 2
            or not isinstance(pair[0], str)
        ):
            raise TypeError(f"named_systems[{i}] must be a (name, lines) pair with a str name, got {shortened(pair)}")
        checked.append((pair[0], _lines(pair[1], f"the lines of system {pair[0]!r}")))
    names = [name for name, _ in checked]
    if len(set(names)) < len(names):
        raise ValueError(
            f"the systems' names must differ: {sorted({name for name in names if names.count(name) > 1})} recur"
        )
    references = as_sequence(references, "references", "a list of reference streams, each a list of lines")
    if not references:
        raise ValueError("references is empty: give at least one reference stream, [lines]")
    if isinstance(references[0], str):
        raise TypeError(
            "references[0] is a str, but references must be a list of reference streams, each a list of lines: "
            "pass [lines] for one reference"
        )
    streams = [_lines(stream, f"references[{i}]") for i, stream in enumerate(references)]
    counts = {what: len(lines) for what, lines in [*checked, *((f"references[{i}]", s) for i, s in enumerate(streams))]}
    if len(set(counts.values())) > 1 or not checked[0][1]:
        raise ValueError(
            f"every system and reference stream needs one line per segment, and at least one; their lengths: {counts}"
        )
    return checked, streams


def _lines(lines: Any, what: str) -> list:
    """A stream of lines, as a list of str."""
    if isinstance(lines, (str, bytes)):
        raise TypeError(
            f"{what} is a {type(lines).__name__}, but must be a list of lines, one per segment: use text.splitlines()"
        )
    lines = list(as_sequence(lines, what, "a list of lines, one per segment"))
    bad = next((line for line in lines if not isinstance(line, str)), None)
    if bad is not None:
        raise TypeError(f"{what} must hold lines of text (str), got {type(bad).__name__} ({shortened(bad)})")
    return lines


def check_paired_scores(xs: Any, ys: Any, correlation: bool = True) -> tuple[Sequence, Sequence]:
    """Return ``xs`` and ``ys`` as lists of numbers, one per system, or raise a clear error.

    They must be equally long, at least two, with no NaN; for a correlation
    (``correlation=True``) neither may be constant, where it is undefined.

    >>> check_paired_scores([26.6, 28.3], [0.006, 0.139])
    ([26.6, 28.3], [0.006, 0.139])
    >>> check_paired_scores([26.6, 28.3], [0.006])
    Traceback (most recent call last):
    ...
    ValueError: xs has 2 scores but ys has 1: give one score per system in each, in the same order
    >>> check_paired_scores([26.6, 26.6], [0.006, 0.139])
    Traceback (most recent call last):
    ...
    ValueError: the scores in xs are all 26.6: a correlation is undefined when one list does not vary
    """
    xs = as_sequence(xs, "xs", "a list of numbers (one score per system)")
    ys = as_sequence(ys, "ys", "a list of numbers (one score per system)")
    if len(xs) != len(ys):
        raise ValueError(
            f"xs has {len(xs)} scores but ys has {len(ys)}: give one score per system in each, in the same order"
        )
    if len(xs) < 2:
        raise ValueError(f"comparing scores needs at least two systems, got {len(xs)}")
    for what, scores in (("xs", xs), ("ys", ys)):
        for i, score in enumerate(scores):
            if not isinstance(score, Real):
                raise TypeError(
                    f"{what}[{i}] is {article(score)} ({shortened(score)}), but every score must be a number"
                )
            if score != score:
                raise ValueError(f"{what}[{i}] is nan: give that system a score, or leave it out of both lists")
        if correlation and all(score == scores[0] for score in scores):
            raise ValueError(
                f"the scores in {what} are all {scores[0]!r}: a correlation is undefined when one list does not vary"
            )
    return xs, ys
