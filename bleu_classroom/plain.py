"""Values as plain JSON that keeps their types, for the answers passed between the grading processes."""

import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Smoothing:
    """An argument that stands for ``SmoothingFunction().<method>`` of the package being called."""

    method: str


@dataclass(frozen=True)
class StatsAnswer:
    """An expected ``BleuStats``, given by its fields (the class is the student's)."""

    fields: dict


STATS_FIELDS = ("hyp_len", "ref_len", "matches", "totals", "too_short")


def to_plain(value: Any) -> list:
    """A JSON form of ``value`` that keeps its type: 1, 1.0 and True differ, floats bit for bit.

    >>> to_plain(Counter({("the",): 2, ("cat",): 0}))
    ['Counter', [[['tuple', [['str', 'the']]], ['int', 2]]]]
    >>> to_plain(0.1)
    ['float', '0x1.999999999999ap-4']
    """
    if value is None:
        return ["None"]
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, int):
        return ["int", value]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, str):
        return ["str", value]
    if isinstance(value, Fraction):
        # numerator and denominator as given: NLTK keeps 2/4 unreduced.
        return ["Fraction", value.numerator, value.denominator]
    if isinstance(value, Smoothing):
        return ["Smoothing", value.method]
    if isinstance(value, StatsAnswer):
        return ["BleuStats", *(to_plain(value.fields[f]) for f in STATS_FIELDS)]
    if type(value).__name__ == "BleuStats" and all(hasattr(value, f) for f in STATS_FIELDS):
        return ["BleuStats", *(to_plain(getattr(value, f)) for f in STATS_FIELDS)]
    if isinstance(value, Counter):
        # Counter equality ignores zero counts; so does this form.
        items = [[to_plain(k), to_plain(v)] for k, v in value.items() if v != 0]
        return ["Counter", sorted(items, key=json.dumps)]
    if isinstance(value, dict):
        return ["dict", sorted(([to_plain(k), to_plain(v)] for k, v in value.items()), key=json.dumps)]
    if isinstance(value, (tuple, list)):
        return ["tuple" if isinstance(value, tuple) else "list", [to_plain(item) for item in value]]
    return ["object", type(value).__name__, clip(repr(value))]


def from_plain(plain: list, smoothing: Any = None) -> Any:
    """The value ``to_plain`` describes (for the arguments the grader sends)."""
    kind = plain[0]
    if kind == "None":
        return None
    if kind in ("bool", "int", "str"):
        return plain[1]
    if kind == "float":
        return float.fromhex(plain[1])
    if kind == "Smoothing":
        return getattr(smoothing, plain[1])
    if kind == "Counter":
        return Counter({from_plain(k): from_plain(v) for k, v in plain[1]})
    if kind in ("tuple", "list"):
        items = [from_plain(item, smoothing) for item in plain[1]]
        return tuple(items) if kind == "tuple" else items
    raise ValueError(f"cannot rebuild {kind}")


def show(plain: list) -> str:
    """A short readable form of a value given by ``to_plain``.

    >>> show(to_plain([("the", "cat"), ("cat",)]))
    "[('the', 'cat'), ('cat',)]"
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
    if kind == "Fraction":
        return f"Fraction({plain[1]}, {plain[2]})"
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
    return f"<{plain[1]} object>"


def clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
