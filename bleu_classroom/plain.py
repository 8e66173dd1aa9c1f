"""What the grader needs besides ``sandbox.encode``: markers for arguments and answers, and a short readable form."""

from dataclasses import dataclass

from .sandbox import STATS_FIELDS


@dataclass(frozen=True)
class Smoothing:
    """An argument that stands for ``SmoothingFunction().<method>`` of the package being called."""

    method: str


@dataclass(frozen=True)
class StatsAnswer:
    """An expected ``BleuStats``, given by its fields (the class is the student's)."""

    hyp_len: int
    ref_len: int
    matches: tuple
    totals: tuple
    too_short: tuple


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


def clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_text(name: str, plain_args: list) -> str:
    """A graded call as the student would write it, arguments shortened.

    >>> call_text("ngrams", [["list", [["str", "the"], ["str", "cat"]]], ["int", 2]])
    "ngrams(['the', 'cat'], 2)"
    """
    return f"{name}({', '.join(clip(show(arg), 28) for arg in plain_args)})"
