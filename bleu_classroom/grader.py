"""The grader: each graded function runs in a bubblewrap sandbox of its own; only the grader holds the answers.

The grader reads the submitted package's files it knows by name (``units.LESSON_FILES`` and
``SUPPORT_FILES``), each a regular file of the submission's own, never a link, and nothing else. For
each function it writes those up to the function's own lesson into a fresh folder: a later lesson,
working, copied or broken, neither helps nor hurts an earlier one, and a module of the student's own is
not there. It runs ``sandbox.py`` on that copy inside bubblewrap (``jail.py``), sends the cases'
arguments, and compares the answers with NLTK's, computed here. It never imports ``bleu_scratch``: the
student's package is the submission's, the answers are NLTK's.
"""

import hashlib
import json
import os
import random
import re
import shutil
import stat
import tempfile
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from . import jail, sandbox
from .cases import grading_cases
from .errors import ClassroomError
from .feedback import call_text, clip, difference
from .oracle import NltkOracle, Smoothing
from .report import Mark, Report
from .units import CLASS_MODULES, LESSON_FILES, SUPPORT_FILES, Unit, select_units

DEFAULT_BUDGET = 20.0  # seconds a graded function may take in all: starting, importing, every case
DEFAULT_MEMORY_MB = 1024  # Python and numpy need a few hundred MB
PROCESSES = 32  # processes and threads at once in one sandbox
DISK_MB = 64  # the sandbox's /tmp
MAX_OUTPUT = 16 << 20  # bytes of answers from one sandbox
MAX_FILE = 1 << 20  # bytes of one file of the package (the lessons' largest is under 20 kB)
SANDBOX_SOURCE = Path(sandbox.__file__).read_text(encoding="utf-8")
SMOOTHING_FILE = f"{CLASS_MODULES['SmoothingFunction']}.py"  # in the sandboxes of earlier lessons' smoothing cases
_LOCK = threading.Lock()


class Refused(ClassroomError):
    """A submission the grader does not grade: each of its functions gets 0, this the reason."""


def cache_folder() -> Path:
    """Where the grader keeps its seed and its results (never in a submission)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bleu-classroom"


def kept_seed() -> int:
    """The seed of the random cases: drawn once, then kept in the grader's cache folder."""
    path = cache_folder() / "seed"
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        seed = random.SystemRandom().getrandbits(63)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(seed))
        return seed


def grade(
    directory: Path,
    budget: float = DEFAULT_BUDGET,
    only: list[str] | None = None,
    memory_mb: int = DEFAULT_MEMORY_MB,
    seed: int | None = None,
    cache: bool = False,
) -> Report:
    """Grade the ``bleu_scratch`` package in ``directory`` against NLTK.

    Each graded function may take ``budget`` seconds in all and ``memory_mb``
    MB of memory (0 for no limit). The random cases come from ``seed`` (default:
    the grader's kept seed) and the package's files. With ``cache``, a package
    graded before with the same files, seed and options is not graded again.
    """
    started = time.perf_counter()
    directory = directory.resolve()
    units = select_units(only)
    try:
        files = submitted_files(directory)
    except Refused as refusal:
        return Report(str(directory), [Mark(unit, 0, str(refusal)) for unit in units], time.perf_counter() - started)
    jail.check()
    seed = kept_seed() if seed is None else seed
    options = json.dumps([seed, budget, memory_mb, [unit.name for unit in units]]).encode()
    cached = cache_folder() / "results" / f"{hashlib.sha256(options + _fingerprint(files)).hexdigest()}.json"
    if cache and cached.is_file():
        return Report.from_dict(json.loads(cached.read_text(encoding="utf-8")))
    cases, classes = cases_for(files, seed, units)
    limits = jail.Limits(budget, memory_mb, PROCESSES, DISK_MB, MAX_OUTPUT)
    scratch = Path(tempfile.mkdtemp(prefix="bleu-grade-"))
    try:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            marks = list(
                pool.map(
                    lambda unit: _grade_unit(unit, files, scratch / unit.name, cases[unit.name], classes, limits),
                    units,
                )
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report = Report(str(directory), marks, time.perf_counter() - started)
    if cache:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(report.as_dict()), encoding="utf-8")
    return report


def submitted_files(directory: Path) -> dict[str, bytes]:
    """The files of ``directory``'s package the grader knows by name, by their path in the package.

    Raises ``Refused`` where the package, one of those files or a folder on their way is a link (to a
    classmate's package, say), is not a regular file (a FIFO never ends a read), or where a file is larger
    than ``MAX_FILE``. Any other file of the submission, whatever it is, is never looked at.
    """
    package = directory / "bleu_scratch"
    try:
        linked, has_init = package.is_symlink(), (package / "__init__.py").is_file()
    except OSError as error:  # a folder the grader may not search
        raise Refused(f"cannot read bleu_scratch: {error.strerror}") from None
    if linked:
        raise Refused(_linked("bleu_scratch", package))
    if not has_init:
        inits = [*directory.glob("*/bleu_scratch/__init__.py"), *directory.glob("*/*/bleu_scratch/__init__.py")]
        below = sorted(str(path.parent.parent) for path in inits)
        hint = f" (such as {', '.join(below[:3])})" if below else ""
        raise ClassroomError(f"{directory} has no bleu_scratch/__init__.py: give the folder of a student edition{hint}")
    files = {}
    for name in (*LESSON_FILES, *SUPPORT_FILES):
        content = _plain_file(package, name)
        if content is not None:
            files[name] = content
    return files


def _plain_file(package: Path, name: str) -> bytes | None:
    """The bytes of ``package/name``, None where it is missing; ``Refused`` where it is no plain file of its own."""
    path, shown = package, "bleu_scratch"
    for part in name.split("/"):
        path, shown = path / part, f"{shown}/{part}"
        try:
            found = path.lstat()  # the link itself, never where it leads
        except (FileNotFoundError, NotADirectoryError):
            return None  # the sandbox says what is missing, if anything needs it
        except OSError as error:  # a folder on the way the grader may not search
            raise Refused(f"cannot read {shown}: {error.strerror}") from None
        if stat.S_ISLNK(found.st_mode):
            raise Refused(_linked(shown, path))
    if not stat.S_ISREG(found.st_mode):
        raise Refused(f"{shown} is not a regular file")
    if found.st_size > MAX_FILE:
        raise Refused(f"{shown} is larger than {MAX_FILE >> 20} MB")
    try:
        return path.read_bytes()
    except OSError as error:  # unreadable, or gone since the look above
        raise Refused(f"cannot read {shown}: {error.strerror}") from None


def _linked(shown: str, path: Path) -> str:
    return f"{shown} is a symbolic link (to {os.readlink(path)}): the package must be the submission's own files"


def _fingerprint(files: dict[str, bytes]) -> bytes:
    """A hash of the package's files, names and contents."""
    digest = hashlib.sha256()
    for name, content in sorted(files.items()):
        digest.update(name.encode() + b"\0" + content + b"\0")
    return digest.digest()


def cases_for(
    files: dict[str, bytes], seed: int, units: list[Unit]
) -> tuple[dict[str, list[tuple[tuple, Any]]], dict[str, type]]:
    """The cases each of ``units`` meets in a package of ``files``, with NLTK's answers, and NLTK's classes of them.

    A function's drawn cases come from ``seed`` and the files its sandbox may hold: its lesson's, the lessons'
    before, and lesson 07's, whose SmoothingFunction a smoothing case loads. Graded again unchanged, they are
    the same; changed (to hold a table of answers it was shown, say), they are new; any other lesson's files
    change nothing.
    """
    oracle, by_lesson, cases = NltkOracle(), {}, {}
    with _LOCK, warnings.catch_warnings():  # the warnings' filters are the process's: one grade at a time
        # NLTK's warnings about zero-count orders are part of the answers, not news.
        warnings.simplefilter("ignore")
        for unit in units:
            lesson = _lesson(unit.module)
            if lesson not in by_lesson:
                held = {name: content for name, content in files.items() if _lesson(name) <= lesson}
                if SMOOTHING_FILE in files:
                    held[SMOOTHING_FILE] = files[SMOOTHING_FILE]
                digest = hashlib.sha256(str(seed).encode() + b"\0" + _fingerprint(held)).digest()
                by_lesson[lesson] = grading_cases(oracle, int.from_bytes(digest[:8], "big"))
            cases[unit.name] = by_lesson[lesson][unit.name]
        return cases, oracle.classes()


def _lesson(module: str) -> int:
    match = re.match(r"lesson(\d\d)_", module)
    return int(match.group(1)) if match else 0


def _grade_unit(
    unit: Unit,
    files: dict[str, bytes],
    scratch: Path,
    cases: list[tuple[tuple, Any]],
    classes: dict,
    limits: jail.Limits,
) -> Mark:
    """Run one graded function in its own sandbox and mark what it answers."""
    lesson = _lesson(unit.module)
    # Lesson 07's SmoothingFunction (complete in the edition) gives the smoothing an argument names.
    smoothing = any(isinstance(arg, Smoothing) for args, _ in cases for arg in args)
    kept = {SMOOTHING_FILE} if smoothing else set()
    package = scratch / "bleu_scratch"
    package.mkdir(parents=True)
    for name, content in files.items():
        if _lesson(name) <= lesson or name in kept:  # the support's files are of no lesson: 0
            (package / name).parent.mkdir(exist_ok=True)
            (package / name).write_bytes(content)
    # The package's own __init__ imports every lesson: the copy's imports none.
    (package / "__init__.py").write_text("", encoding="utf-8")
    job = {
        "path": ["/submission", jail.PACKAGES],
        "modules": sorted(m for m in {unit.module, *CLASS_MODULES.values()} if (package / f"{m}.py").is_file()),
        "classes": CLASS_MODULES,
        "module": unit.module,
        "call": unit.call,
        "cases": [
            [["Smoothing", arg.method] if isinstance(arg, Smoothing) else sandbox.encode(arg, classes) for arg in args]
            for args, _ in cases
        ],
    }
    stdin = (json.dumps(SANDBOX_SOURCE) + "\n" + json.dumps(job) + "\n").encode()
    outcome = jail.run([*jail.python_command(), "-c", sandbox.BOOTSTRAP], {"/submission": scratch}, stdin, limits)
    answers, failure = _answers(outcome.stdout, len(cases))
    if failure:
        return Mark(unit, 0, failure)
    if outcome.too_much_output:
        return Mark(unit, 0, f"sent the grader more than {limits.max_output >> 20} MB")
    for index, (_, expected) in enumerate(cases):
        call = call_text(unit.call, job["cases"][index])
        if index not in answers:  # the sandbox ended, or was ended, before answering
            return Mark(unit, 0, _stopped(call, outcome, limits))
        kind, *said = answers[index]
        if kind == "raised":
            error, message, where = said
            stub = re.match(r"lesson(\d\d)_\w+\.py:\d+ in (\w+)$", where or "")
            where = f" at {where}" if where else ""
            if error == "NotImplementedError" and not message and stub and int(stub[1]) < lesson:
                earlier = (
                    f"waits for {stub[2]} of lesson{stub[1]}, not written in this package (NotImplementedError{where})"
                )
                return Mark(unit, 0, f"{earlier}: write it in this package too")
            if error == "NotImplementedError":
                return Mark(unit, 0, f"not written yet (NotImplementedError{where})")
            if error == "MemoryError":
                return Mark(unit, 0, f"{_out_of_memory(limits.memory_mb)} on {call}{where}")
            return Mark(unit, 0, f"{call} raised {error}{where}: {clip(message, 160)}")
        want = sandbox.encode(expected, classes)
        if said[0] != want:
            return Mark(unit, 0, f"{call}: {difference(said[0], want)}")
    return Mark(unit, unit.points, "")


def _answers(stdout: bytes, count: int) -> tuple[dict[int, list], str]:
    """The answers the sandbox sent, by case, or why it failed; every line checked: it is untrusted."""
    answers: dict[int, list] = {}
    for line in stdout.splitlines():
        try:
            message = json.loads(line)
            kind = message["kind"]
            if kind == "import-failed":
                return answers, f"bleu_scratch does not import: {clip(str(message['error']), 200)}"
            if kind == "missing":
                return answers, str(message["error"])
            index = message["index"]
            if kind not in ("answer", "raised") or type(index) is not int or not 0 <= index < count or index in answers:
                raise ValueError(f"no case {index} is waiting for an answer of kind {kind!r}")
            if kind == "raised":
                answers[index] = ["raised", *(str(message[key]) for key in ("error", "message", "where"))]
                continue
            value = message["value"]
            # An answer of a type no lesson returns is a wrong answer, not a malformed one.
            if not (isinstance(value, list) and len(value) == 2 and value[0] == "object" and isinstance(value[1], str)):
                sandbox.decode(value, {"Precision": lambda n, d: None, "BleuStats": lambda **f: None})
            answers[index] = ["answer", value]
        except (ValueError, TypeError, KeyError, IndexError, RecursionError, OverflowError) as error:
            said = clip(line.decode("utf-8", "replace").strip(), 80)
            return answers, f"sent the grader a malformed message ({clip(str(error), 80)}): {said}"
    return answers, ""


def _stopped(call: str, outcome: jail.Outcome, limits: jail.Limits) -> str:
    if outcome.timed_out:
        return f"did not finish within {limits.seconds:g}s on {call} (an endless loop?)"
    if outcome.exit_code in (-9, 128 + 9) and limits.memory_mb:  # bubblewrap says 128 + the signal
        return f"was killed on {call}: {_out_of_memory(limits.memory_mb)}, or it killed itself"
    last = [text for text in outcome.stderr.splitlines() if text.strip()]
    detail = f": {clip(last[-1], 160)}" if last else ""
    return f"stopped the grading process (exit code {outcome.exit_code}) on {call}{detail}"


def _out_of_memory(memory_mb: int) -> str:
    return f"used more than {memory_mb} MB of memory (a loop that never ends?)" if memory_mb else "ran out of memory"
