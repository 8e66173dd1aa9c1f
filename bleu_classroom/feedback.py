"""What a student reads when an answer is wrong: where it first differs from NLTK's, and what kind of miss it is.

Values are as ``sandbox.encode`` gives them; ``show`` writes one as Python would."""

import math
from fractions import Fraction

from .sandbox import STATS_FIELDS

NUMBERS = ("int", "float", "bool", "Fraction", "Precision")


def difference(got: list, want: list) -> str:
    """Where ``got`` first differs from ``want`` (both as ``sandbox.encode`` gives them), said so it can be acted on.

    >>> difference(["float", (1.0).hex()], ["int", 1])
    'returned 1.0, NLTK gives 1: same value, different type (float, expected int)'
    >>> difference(["float", math.nextafter(0.5, 1).hex()], ["float", (0.5).hex()])
    'returned 0.5000000000000001, NLTK gives 0.5: one unit in the last place away: add with math.fsum'
    >>> difference(["list", [["int", 1], ["int", 2]]], ["list", [["int", 1], ["int", 3]]])
    'returned [1, 2], NLTK gives [1, 3]: item [1] is 2, expected 3'
    >>> a_twice = [[["tuple", [["str", "a"]]], ["int", 2]]]
    >>> difference(["dict", a_twice], ["Counter", a_twice])
    "returned {('a',): 2}, NLTK gives Counter({('a',): 2}): same items, different type (dict, expected Counter)"
    """
    shown = f"returned {clip(show(got), 60)}, NLTK gives {clip(show(want), 60)}"
    where = _first_difference(got, want, "")
    return f"{shown}: {where}" if where else shown


def _miss(path: str, got: list, want: list) -> str:
    what = _kind(got, want)
    if not path:
        return what
    said = f"item {path} is {clip(show(got), 60)}, expected {clip(show(want), 60)}"
    return f"{said} ({what})" if what else said


def _kind(got: list, want: list) -> str:
    if got[0] != want[0] and got[0] in NUMBERS and want[0] in NUMBERS and _number(got) == _number(want):
        return f"same value, different type ({got[0]}, expected {want[0]})"
    if {got[0], want[0]} == {"Counter", "dict"} and sorted(map(str, got[1])) == sorted(map(str, want[1])):
        return f"same items, different type ({got[0]}, expected {want[0]})"
    if got[0] == want[0] == "float":
        a, b = float.fromhex(got[1]), float.fromhex(want[1])
        if a != b and math.isfinite(a) and math.isfinite(b) and math.nextafter(b, a) == a:
            return "one unit in the last place away: add with math.fsum"
    return ""


def _number(plain: list) -> float | Fraction:
    if plain[0] in ("Fraction", "Precision"):
        exact = Fraction(plain[1], plain[2])
        try:
            return float(exact)
        except OverflowError:  # larger than any float: kept exact, and equal to no float
            return exact
    return float.fromhex(plain[1]) if plain[0] == "float" else plain[1]


def _first_difference(got: list, want: list, path: str) -> str:
    """Where the first part that differs is, and how it differs ("" when nothing more can be said)."""
    if got == want:
        return ""
    kind = got[0]
    if kind != want[0]:
        return _miss(path, got, want)
    parts = [(f".{field}", a, b) for field, a, b in zip(STATS_FIELDS, got[1:], want[1:])] if kind == "BleuStats" else []
    if kind in ("list", "tuple"):
        parts = [(f"[{index}]", a, b) for index, (a, b) in enumerate(zip(got[1], want[1]))]
    for part, a, b in parts:
        if found := _first_difference(a, b, f"{path}{part}"):
            return found
    if kind in ("list", "tuple") and len(got[1]) != len(want[1]):
        return f"{path or 'it'} has {len(got[1])} items, expected {len(want[1])}"
    if kind in ("Counter", "dict"):
        mine, theirs = {show(k): v for k, v in got[1]}, {show(k): v for k, v in want[1]}
        for key in sorted(set(mine) | set(theirs)):
            if key not in mine:
                return f"key {key} is missing (NLTK has it, with {clip(show(theirs[key]), 40)})"
            if key not in theirs:
                return f"key {key} should not be there"
            if found := _first_difference(mine[key], theirs[key], f"{path}[{key}]"):
                return found
    return _miss(path, got, want)


def show(plain: list) -> str:
    """A short readable form of a value given by ``sandbox.encode``.

    >>> show(["list", [["tuple", [["str", "the"], ["str", "cat"]]], ["Precision", 2, 4]]])
    "[('the', 'cat'), Precision(2, 4)]"
    """
    kind = plain[0]
    if kind in ("bool", "int"):
        return repr(plain[1])
    if kind == "None":
        return "None"
    if kind == "float":
        return repr(float.fromhex(plain[1]))
    if kind == "str":
        return repr(plain[1])
    if kind in ("Fraction", "Precision"):
        return f"{kind}({plain[1]}, {plain[2]})"
    if kind == "Smoothing":
        return f"SmoothingFunction().{plain[1]}"
    if kind == "BleuStats":
        return "BleuStats(" + ", ".join(f"{f}={show(v)}" for f, v in zip(STATS_FIELDS, plain[1:])) + ")"
    if kind in ("Counter", "dict"):
        body = ", ".join(f"{show(k)}: {show(v)}" for k, v in plain[1])
        return f"Counter({{{body}}})" if kind == "Counter" else f"{{{body}}}"
    if kind == "tuple":
        items = [show(item) for item in plain[1]]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if kind == "list":
        return "[" + ", ".join(show(item) for item in plain[1]) + "]"
    return f"<a {plain[1]}>"


def printable(text: str) -> str:
    r"""``text`` with each character a terminal acts on written as its escape: a reason cannot redraw a report.

    >>> printable("oops\r\x1b[2Kscore: 24/24\n")
    'oops\\r\\x1b[2Kscore: 24/24\\n'
    """
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_text(name: str, plain_args: list) -> str:
    """A graded call as the student would write it, arguments shortened.

    >>> call_text("ngrams", [["list", [["str", "the"], ["str", "cat"]]], ["int", 2]])
    "ngrams(['the', 'cat'], 2)"
    """
    return f"{name}({', '.join(clip(show(arg), 28) for arg in plain_args)})"
