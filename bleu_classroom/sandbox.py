"""The process that runs a student's function: it hands back answers as plain data and holds nothing to fool.

The grader starts one such process per graded function and sends it this
file's source text (never its path) with the job: the function, its cases'
arguments, and which other lesson functions it may call. The process never
sees an expected answer. Before the student's package is imported it

- limits its memory, CPU time and file size, hard limits equal to soft ones;
- installs an audit hook (PEP 578), which cannot be removed, that refuses
  NLTK, sacrebleu and the course tools, foreign functions (``ctypes``), new
  processes, signals, sockets, raising limits, and any file write or file
  removal outside its own scratch folder, and reading any file but Python's
  own and its copy of the student's package (never the grader's, NLTK's,
  sacrebleu's, the instructor's lessons or other students' work).

Audit hooks are not a security boundary (PEP 578 says so): code that gets
around them can do what the grader's user can. The README says which
guarantees need a container.

What it sends is untrusted: the grader checks every message. Values travel
as JSON that keeps their exact types (``encode`` and ``decode``, which the
grader uses too); this module needs only the standard library.
"""

import json
import math
import os
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

# Modules graded code may not import: the answers come from the first two,
# the grader is the third, and the rest start processes or reach C code.
# fmt: off
DENIED_IMPORTS = frozenset({
    "nltk", "sacrebleu", "bleu_classroom", "ctypes", "_ctypes", "cffi", "_cffi_backend", "_posixsubprocess",
    "subprocess", "multiprocessing", "_multiprocessing", "socket", "_socket", "pty", "dask", "distributed",
    # A second interpreter runs without this one's audit hook.
    "_xxsubinterpreters", "_xxinterpchannels", "_interpreters", "_interpchannels", "_interpqueues",
    "_testcapi", "_testinternalcapi", "_testmultiphase", "_testsinglephase", "_ctypes_test",
})
# fmt: on
ANSWERS = frozenset({"nltk", "sacrebleu"})
# Audit events refused outright (prefix match), with what the report calls them.
DENIED_EVENTS = {
    "ctypes.": "call C code",
    "subprocess.": "start a process",
    "os.system": "start a process",
    "os.exec": "start a process",
    "os.posix_spawn": "start a process",
    "os.spawn": "start a process",
    "os.fork": "start a process",
    "os.forkpty": "start a process",
    "pty.": "start a process",
    "os.kill": "send a signal",
    "os.killpg": "send a signal",
    "signal.pthread_kill": "send a signal",
    "resource.setrlimit": "raise its limits",
    "resource.prlimit": "raise its limits",
    "socket.": "use the network",
    "os.chown": "change a file's owner",
    "os.setuid": "change its user",
    "os.setgid": "change its user",
    "webbrowser.": "open a browser",
    "os.symlink": "make a link",
    "os.link": "make a link",
}
# Audit events allowed only on paths inside the scratch folder.
# fmt: off
PATH_EVENTS = frozenset({
    "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.truncate", "os.utime",
    "shutil.rmtree", "shutil.copyfile", "shutil.move", "shutil.copytree",
})
# fmt: on
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
STATS_FIELDS = ("hyp_len", "ref_len", "matches", "totals", "too_short")  # a BleuStats's, in order
MAX_DEPTH = 40  # nesting of a value; deeper is refused, not a RecursionError in the grader


class Refused(PermissionError):
    """What graded code gets for an operation the sandbox refuses."""


# ---------------------------------------------------------------- values as typed JSON


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
    if kind is Counter or kind is dict or kind is tuple or kind is list:
        if kind in (tuple, list):
            return [kind.__name__, [encode(item, classes, depth + 1) for item in value]]
        # Zero counts are part of the value: {"the": 0} is not {}.
        items = [[encode(k, classes, depth + 1), encode(v, classes, depth + 1)] for k, v in value.items()]
        return [kind.__name__, sorted(items, key=json.dumps)]
    if kind is classes.get("BleuStats"):
        return ["BleuStats", *(encode(getattr(value, f), classes, depth + 1) for f in STATS_FIELDS)]
    name = f"{kind.__module__}.{kind.__qualname__}"
    return ["object", name]


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


# ---------------------------------------------------------------- the process


def main(job: dict, answers: Any, requests: Any) -> None:
    """Run ``job``'s cases; ``answers`` is the grader's pipe, ``requests`` brings its replies."""
    scratch = os.path.realpath(job["scratch"])

    def send(**message: Any) -> None:
        answers.write(json.dumps(message) + "\n")
        answers.flush()

    _limit(job)
    # If the grader ends, so does this process, whatever the student's code is doing.
    threading.Thread(target=_exit_with_grader, args=(job["alive_fd"],), daemon=True).start()
    # What the lessons import (numpy, subprocess for the command's tests...)
    # loads before the hook, which would refuse some of it.
    for name in job["preload"]:
        try:
            __import__(name)
        except ImportError:
            pass
    # A refusal is reported at once, through a write the student's code cannot patch
    # (a builtin held here, the text escaped here), never through json or the buffer.
    write, answers_fd = os.write, answers.fileno()

    def refuse(what: str) -> None:
        shown = "".join(c if c.isprintable() and c not in '"\\' else "?" for c in what[:200])
        write(answers_fd, ('{"kind": "refused", "what": "' + shown + '"}\n').encode("utf-8", "replace"))
        raise Refused(f"graded code may not {what}")

    sys.addaudithook(
        _hook(
            scratch,
            [os.path.realpath(p) for p in job["allow_read"]],
            [os.path.realpath(p) for p in job["deny_read"]],
            refuse,
        )
    )
    # What the hook cannot see: file descriptors for processes, and forking in C.
    for module_name, attribute in (("os", "pidfd_open"), ("posix", "pidfd_open"), ("signal", "pidfd_send_signal")):
        if hasattr(sys.modules.get(module_name), attribute):
            delattr(sys.modules[module_name], attribute)
    fork_exec = getattr(sys.modules.get("_posixsubprocess"), "fork_exec", None)
    for module in list(sys.modules.values()):
        for attribute, value in list(getattr(module, "__dict__", {}).items()):
            if fork_exec is not None and value is fork_exec:
                delattr(module, attribute)  # subprocess keeps its own reference, _fork_exec
    sys.path.insert(0, scratch)
    try:
        package = __import__("bleu_scratch")
        modules = {name: __import__(f"bleu_scratch.{name}", fromlist=["_"]) for name in job["modules"]}
    except BaseException as error:  # noqa: BLE001 (a student's package may fail in any way)
        send(kind="import-failed", error=describe(error))
        return
    for name in job["other_lessons"]:
        try:
            __import__(f"bleu_scratch.{name}")
        except BaseException:  # noqa: BLE001 (not the graded lesson's: what it cannot give, it cannot leak)
            pass
    send(kind="imported", file=getattr(package, "__file__", "") or "")
    found = {name: getattr(modules.get(module), name, None) for name, module in job["classes"].items()}
    classes = {"Precision": found["Precision"], "BleuStats": found["BleuStats"]}
    smoothing_class = found["SmoothingFunction"]

    def stand_in(name: str) -> Callable:
        def call(*args: Any, **kwargs: Any) -> Any:
            send(
                kind="call",
                name=name,
                args=[encode(a, classes) for a in args],
                kwargs={k: encode(v, classes) for k, v in kwargs.items()},
            )
            reply = json.loads(requests.readline())
            if "error" in reply:
                raise TypeError(reply["error"])
            return decode(reply["value"], classes)

        call.__name__ = call.__qualname__ = name
        return call

    _replace(package, {(m, n): stand_in(n) for m, n in job["stand_ins"]})
    for module_name, name in job["unavailable"]:
        _disable(getattr(sys.modules.get(f"bleu_scratch.{module_name}"), name, None), job["call"])
    function = getattr(modules.get(job["module"]), job["call"], None)
    if function is None:
        send(kind="missing", error=f"bleu_scratch.{job['module']} has no function {job['call']}")
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


def _exit_with_grader(alive_fd: int) -> None:
    try:
        os.read(alive_fd, 1)
    finally:
        os._exit(70)


def _limit(job: dict) -> None:
    """Limits the process cannot raise: the hard limit equals the soft one."""
    try:
        import resource
    except ImportError:  # no such limits on this system; the grader's clock still holds
        return
    limits = [
        (resource.RLIMIT_CPU, math.ceil(job["budget"]) + 1),
        (resource.RLIMIT_FSIZE, 1 << 20),
        (resource.RLIMIT_CORE, 0),
    ]
    if job["memory_mb"] > 0:
        limits.append((resource.RLIMIT_AS, job["memory_mb"] << 20))
    for which, value in limits:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass  # above a hard limit set before: that one stays


def _hook(scratch: str, allow_read: list[str], deny_read: list[str], refuse: Callable[[str], None]) -> Callable:
    def inside(path: Any, places: list[str]) -> bool:
        if isinstance(path, int):
            return False
        real = os.path.realpath(os.fsdecode(path))
        return any(real == place or real.startswith(place + os.sep) for place in places)

    def hook(event: str, args: tuple) -> None:
        if event == "import":
            root = str(args[0]).split(".")[0]
            if root in ANSWERS:
                refuse(f"import {root} (the grader's answers come from it: write the function yourself)")
            elif root in DENIED_IMPORTS:
                refuse(f"import {root}")
        elif event == "open":
            path, mode, flags = (*args, None, None)[:3]
            writes = any(c in (mode or "") for c in "wax+") or bool((flags or 0) & WRITE_FLAGS)
            if not isinstance(path, int):
                if not os.path.isabs(os.fsdecode(path)):
                    # Relative to what? With dir_fd, to a folder this hook cannot see.
                    refuse(f"open a relative path ({os.fsdecode(path)})")
                if writes and not inside(path, [scratch]):
                    refuse(f"write {os.fsdecode(path)}")
                if inside(path, deny_read) or not (
                    writes or inside(path, allow_read) or os.fsdecode(path) == os.devnull
                ):
                    refuse(f"read {os.fsdecode(path)}")
        elif event.startswith(tuple(DENIED_EVENTS)):
            refuse(f"{next(w for e, w in DENIED_EVENTS.items() if event.startswith(e))} ({event})")
        elif event in PATH_EVENTS and not all(inside(a, [scratch]) for a in args if isinstance(a, (str, bytes))):
            refuse(f"{event} outside its folder")

    return hook


def _replace(package: Any, replacements: dict[tuple[str, str], Callable]) -> None:
    """Put each replacement wherever the package holds the function it replaces (every ``from .x import f``)."""
    modules = [m for name, m in list(sys.modules.items()) if name == "bleu_scratch" or name.startswith("bleu_scratch.")]
    originals = {}
    for (module_name, name), replacement in replacements.items():
        original = getattr(sys.modules.get(f"bleu_scratch.{module_name}"), name, None)
        if original is not None:
            originals[id(original)] = replacement
    for module in modules:
        for attribute, value in list(vars(module).items()):
            if id(value) in originals:
                setattr(module, attribute, originals[id(value)])


def _disable(function: Any, graded: str) -> None:
    """Make ``function`` refuse to run, wherever a reference to it is kept: its own code is replaced."""
    # A public lesson function is its door's wrapper (functools.wraps); the lesson's code is the wrapped one.
    function = getattr(function, "__wrapped__", function)
    code = getattr(function, "__code__", None)
    if code is None or code.co_freevars:
        return  # not a plain function of the lessons: nothing the lessons ship
    message = (
        f"{function.__name__} is not yours to call while {graded} is graded: use only what earlier exercises give you"
    )
    space: dict = {}
    exec(f"def refused(*args, **kwargs):\n    raise PermissionError({message!r})\n", space)
    function.__code__ = space["refused"].__code__.replace(co_name=function.__name__)
    function.__defaults__ = function.__kwdefaults__ = None


def where(error: BaseException) -> str:
    """The innermost line of the student's package in the traceback, e.g. 'lesson01_ngrams.py:25 in ngrams'."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{os.path.basename(error.filename)}:{error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "bleu_scratch" in f.filename.split(os.sep)]
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""


def describe(error: BaseException) -> str:
    place = where(error)
    return f"{type(error).__name__}: {str(error)[:160]}" + (f" ({place})" if place else "")


# The grader runs this file as ``python -I -B -c BOOTSTRAP`` and writes the
# file's source and the job on the process's standard input.
BOOTSTRAP = (
    "import json, os, sys\n"
    "requests = os.fdopen(os.dup(0), 'r')\n"
    "answers = os.fdopen(os.dup(1), 'w')\n"
    "null = os.open(os.devnull, os.O_RDWR)\n"
    "os.dup2(null, 0); os.dup2(null, 1)\n"
    "source = json.loads(requests.readline())\n"
    "namespace = {'__name__': 'bleu_grading_sandbox'}\n"
    "exec(compile(source, 'bleu_grading_sandbox', 'exec'), namespace)\n"
    "namespace['main'](json.loads(requests.readline()), answers, requests)\n"
    "answers.flush()\n"
    "os._exit(0)\n"
)
