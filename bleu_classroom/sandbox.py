"""What runs inside the sandbox: a student's function on the cases' arguments, its answers as typed JSON.

The grader starts ``python -I -S -B -c BOOTSTRAP`` in bubblewrap (``jail.py``) and writes this file's
source and the job on its standard input: the function and its cases' arguments, never an answer. It
imports the copy of the student's package at ``/submission``, calls the function on each case and writes
one line of JSON per answer. Whatever the student's code does here, it does where only that copy, Python
and numpy exist: the operating system, not this file, is the boundary. ``encode`` and ``decode`` (the
grader's too) keep each value's exact type; this module needs only the standard library.
"""

import json
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

STATS_FIELDS = ("hyp_len", "ref_len", "matches", "totals", "too_short")  # a BleuStats's, in order
MAX_DEPTH = 40  # nesting of a value; deeper is refused, not a RecursionError in the grader


def encode(value: Any, classes: dict[str, type], depth: int = 0) -> list:
    """A JSON form of ``value`` that keeps its exact type: 1, 1.0, True and a Fraction subclass differ.

    ``classes`` names the lesson classes that may appear ("Precision",
    "BleuStats"); any other type is an "object" and equals no answer.

    >>> encode(Counter({("the",): 2, ("cat",): 0}), {})
    ['Counter', [[['tuple', [['str', 'cat']]], ['int', 0]], [['tuple', [['str', 'the']]], ['int', 2]]]]
    >>> encode(0.1, {}), encode(True, {}), encode(Fraction(2, 4), {})
    (['float', '0x1.999999999999ap-4'], ['bool', True], ['Fraction', 1, 2])
    """
    if depth > MAX_DEPTH:
        raise ValueError(f"a value nested more than {MAX_DEPTH} deep")
    kind = type(value)
    if value is None:
        return ["None"]
    if kind in (bool, int, str):
        return [kind.__name__, value]
    if kind is float:
        return ["float", value.hex()]
    if kind is classes.get("Precision"):
        return ["Precision", value.numerator, value.denominator]
    if kind is Fraction:
        return ["Fraction", value.numerator, value.denominator]
    if kind is tuple or kind is list:
        return [kind.__name__, [encode(item, classes, depth + 1) for item in value]]
    if kind is Counter or kind is dict:
        # Zero counts are part of the value: {"the": 0} is not {}.
        items = [[encode(k, classes, depth + 1), encode(v, classes, depth + 1)] for k, v in value.items()]
        return [kind.__name__, sorted(items, key=json.dumps)]
    if kind is classes.get("BleuStats"):
        return ["BleuStats", *(encode(getattr(value, f), classes, depth + 1) for f in STATS_FIELDS)]
    return ["object", f"{kind.__module__}.{kind.__qualname__}"]


def decode(plain: Any, classes: dict[str, Callable], smoothing: Any = None, depth: int = 0) -> Any:
    """The value ``encode`` describes, built with ``classes`` ("Precision", "BleuStats"); checks the form.

    >>> decode(["tuple", [["str", "a"], ["int", 2]]], {})
    ('a', 2)
    >>> decode(["int", "2"], {})
    Traceback (most recent call last):
    ValueError: not a value: ['int', '2']
    """
    if depth > MAX_DEPTH or not isinstance(plain, list) or not plain or not isinstance(plain[0], str):
        raise ValueError(f"not a value: {str(plain)[:80]}")
    kind, rest = plain[0], plain[1:]
    simple = {"bool": bool, "int": int, "str": str}
    if kind == "None" and not rest:
        return None
    if kind in simple and len(rest) == 1 and type(rest[0]) is simple[kind]:
        return rest[0]
    if kind == "float" and len(rest) == 1 and isinstance(rest[0], str):
        return float.fromhex(rest[0])
    if kind in ("Fraction", "Precision") and len(rest) == 2 and all(type(x) is int for x in rest) and rest[1] > 0:
        return Fraction(*rest) if kind == "Fraction" else classes["Precision"](*rest)
    if kind in ("tuple", "list") and len(rest) == 1 and isinstance(rest[0], list):
        items = [decode(item, classes, smoothing, depth + 1) for item in rest[0]]
        return tuple(items) if kind == "tuple" else items
    if kind in ("Counter", "dict") and len(rest) == 1 and isinstance(rest[0], list):
        pairs = [item for item in rest[0] if isinstance(item, list) and len(item) == 2]
        if len(pairs) != len(rest[0]):
            raise ValueError(f"not a value: {str(plain)[:80]}")
        mapping = {decode(k, classes, smoothing, depth + 1): decode(v, classes, smoothing, depth + 1) for k, v in pairs}
        return Counter(mapping) if kind == "Counter" else mapping
    if kind == "BleuStats" and len(rest) == 5:
        return classes["BleuStats"](**{f: decode(v, classes, smoothing, depth + 1) for f, v in zip(STATS_FIELDS, rest)})
    if kind == "Smoothing" and len(rest) == 1 and isinstance(rest[0], str) and rest[0].startswith("method"):
        return getattr(smoothing, rest[0])
    raise ValueError(f"not a value: {str(plain)[:80]}")


def main(job: dict, answers: Any) -> None:
    """Run ``job``'s cases, writing each answer to ``answers``."""

    def send(**message: Any) -> None:
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    sys.path[:0] = job["path"]
    try:
        modules = {name: __import__(f"bleu_scratch.{name}", fromlist=["_"]) for name in job["modules"]}
    except BaseException as error:  # noqa: BLE001 (a student's package may fail in any way)
        send(kind="import-failed", error=describe(error))
        return
    found = {name: getattr(modules.get(module), name, None) for name, module in job["classes"].items()}
    classes = {"Precision": found["Precision"], "BleuStats": found["BleuStats"]}
    smoothing_class = found["SmoothingFunction"]
    function = getattr(modules.get(job["module"]), job["call"], None)
    if function is None:
        module = job["module"]
        missing = f"bleu_scratch/{module}.py is missing" if module not in modules else None
        send(kind="missing", error=missing or f"bleu_scratch.{module} has no function {job['call']}")
        return
    for index, plain_args in enumerate(job["cases"]):
        # Code that fills the memory leaves none to report it with: this much is set aside.
        reserve = bytearray(16 << 20)
        try:
            args = [decode(arg, classes, smoothing_class() if smoothing_class else None) for arg in plain_args]
            send(kind="answer", index=index, value=encode(function(*args), classes))
        except Exception as error:  # noqa: BLE001
            if isinstance(error, MemoryError):
                del reserve
                traceback.clear_frames(error.__traceback__)
            send(kind="raised", index=index, error=type(error).__name__, message=str(error)[:300], where=where(error))
            if isinstance(error, MemoryError):
                return  # its other cases would fill the memory again


def where(error: BaseException) -> str:
    """The innermost line of the student's package in the traceback, e.g. 'lesson01_ngrams.py:25 in ngrams'."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{os.path.basename(error.filename)}:{error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "bleu_scratch" in f.filename.split(os.sep)]
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""


def describe(error: BaseException) -> str:
    place = where(error)
    return f"{type(error).__name__}: {str(error)[:160]}" + (f" ({place})" if place else "")


# The grader runs this file as ``python -I -S -B -c BOOTSTRAP`` in the sandbox and writes the
# file's source and the job on the process's standard input. What the student's code prints goes
# to standard error; the answers keep a descriptor of their own (a forged line is only an answer).
BOOTSTRAP = (
    "import json, os, sys\n"
    "answers = os.fdopen(os.dup(1), 'w')\n"
    "os.dup2(2, 1)\n"
    "source = json.loads(sys.stdin.readline())\n"
    "job = json.loads(sys.stdin.readline())\n"
    "namespace = {'__name__': 'bleu_grading_sandbox'}\n"
    "exec(compile(source, 'bleu_grading_sandbox', 'exec'), namespace)\n"
    "namespace['main'](job, answers)\n"
    "answers.flush()\n"
    "os._exit(0)\n"
)
