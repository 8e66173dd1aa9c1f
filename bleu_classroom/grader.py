"""The grader: each graded function runs in a bubblewrap sandbox of its own; only the grader holds the answers.

For each function the grader copies the student's package (Python source
only, no links) into a fresh folder, leaving out the lessons after the
function's own: a later lesson, working, copied or broken, neither helps nor
hurts an earlier one. It runs ``sandbox.py`` on that copy inside bubblewrap
(``jail.py``), sends the cases' arguments, and compares the answers with
NLTK's, computed here. It never imports ``bleu_scratch``: the student's
package is the submission's, the answers are NLTK's.
"""

import functools
import hashlib
import json
import os
import random
import re
import shutil
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
from .units import CLASS_MODULES, Unit, select_units

DEFAULT_BUDGET = 20.0  # seconds a graded function may take in all: starting, importing, every case
DEFAULT_MEMORY_MB = 1024  # Python and numpy need a few hundred MB
PROCESSES = 32  # processes and threads at once in one sandbox
DISK_MB = 64  # the sandbox's /tmp
MAX_OUTPUT = 16 << 20  # bytes of answers from one sandbox
SANDBOX_SOURCE = Path(sandbox.__file__).read_text(encoding="utf-8")
_LOCK = threading.Lock()


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
    the grader's kept seed). With ``cache``, a package graded before with the
    same files, seed and options is not graded again.
    """
    started = time.perf_counter()
    directory = directory.resolve()
    if not (directory / "bleu_scratch" / "__init__.py").is_file():
        raise ClassroomError(f"{directory} has no bleu_scratch/__init__.py: give the folder of a student edition")
    jail.check()
    seed = kept_seed() if seed is None else seed
    units = select_units(only)
    digest = hashlib.sha256(json.dumps([seed, budget, memory_mb, [unit.name for unit in units]]).encode())
    for path in sorted((directory / "bleu_scratch").rglob("*.py")):
        digest.update(str(path.relative_to(directory)).encode() + b"\0" + path.read_bytes() + b"\0")
    cached = cache_folder() / "results" / f"{digest.hexdigest()}.json"
    if cache and cached.is_file():
        return Report.from_dict(json.loads(cached.read_text(encoding="utf-8")))
    cases, classes = _cases(seed)
    limits = jail.Limits(budget, memory_mb, PROCESSES, DISK_MB, MAX_OUTPUT)
    scratch = Path(tempfile.mkdtemp(prefix="bleu-grade-"))
    try:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            marks = list(
                pool.map(
                    lambda unit: _grade_unit(unit, directory, scratch / unit.name, cases[unit.name], classes, limits),
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


@functools.cache
def _cases(seed: int) -> tuple[dict[str, list[tuple[tuple, Any]]], dict[str, type]]:
    oracle = NltkOracle()
    with _LOCK, warnings.catch_warnings():  # the warnings' filters are the process's: one grade at a time
        # NLTK's warnings about zero-count orders are part of the answers, not news.
        warnings.simplefilter("ignore")
        return grading_cases(oracle, seed), oracle.classes()


def _lesson(module: str) -> int:
    match = re.match(r"lesson(\d\d)_", module)
    return int(match.group(1)) if match else 0


def _grade_unit(
    unit: Unit, directory: Path, scratch: Path, cases: list[tuple[tuple, Any]], classes: dict, limits: jail.Limits
) -> Mark:
    """Run one graded function in its own sandbox and mark what it answers."""
    lesson = _lesson(unit.module)
    # Lesson 07's SmoothingFunction (complete in the edition) gives the smoothing an argument names.
    smoothing = any(isinstance(arg, Smoothing) for args, _ in cases for arg in args)
    kept = {CLASS_MODULES["SmoothingFunction"]} if smoothing else set()

    def left_out(folder: str, names: list[str]) -> set[str]:
        def copied(path: Path) -> bool:
            if path.is_symlink():  # the grader would copy whatever a link points to
                return False
            if path.is_dir():
                return path.name != "__pycache__"
            return path.suffix == ".py" and (_lesson(path.stem) <= lesson or path.stem in kept)

        return {name for name in names if not copied(Path(folder, name))}

    package = scratch / "bleu_scratch"
    shutil.copytree(directory / "bleu_scratch", package, ignore=left_out)
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
            where = f" at {where}" if where else ""
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
        except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:
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
