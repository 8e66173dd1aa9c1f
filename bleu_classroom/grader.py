"""The grader: each graded function runs in a sandboxed process of its own; only the grader holds the answers.

For each function the grader copies the student's package into a fresh
scratch folder, starts ``sandbox.py`` there (``session.py`` talks to it),
sends it the cases' arguments, and reads back answers as plain data, which
it compares with NLTK's. Lesson functions the graded one may call are NLTK's
answers, computed here and sent on request (the student's process never
loads NLTK). This module plans each process's job and marks the answers.
"""

import ast
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from . import sandbox
from .cases import grading_cases
from .errors import ClassroomError
from .oracle import NltkOracle
from .plain import Smoothing, call_text, clip, show
from .report import Mark, Report
from .session import Session
from .standins import stand_ins
from .units import CLASS_MODULES, UNITS, Unit, select_units

DEFAULT_BUDGET = 20.0  # seconds a graded function may take in all: starting, importing, every case
DEFAULT_MEMORY_MB = 1024  # address space of a graded process; Python and numpy need a few hundred MB
# What the lessons import loads before the sandbox's hook, but never the
# answers' sources, the lessons themselves, or Dask (only the command needs it).
NEVER_PRELOADED = {"nltk", "sacrebleu", "bleu_classroom", "bleu_scratch", "dask", "distributed"}

_CASES: dict[str, list[tuple[tuple, Any]]] = {}
_CLASSES: dict[str, type] = {}  # the lesson classes as NLTK's answers have them
_LOCK = threading.Lock()


def grade(
    directory: Path,
    budget: float = DEFAULT_BUDGET,
    only: list[str] | None = None,
    memory_mb: int = DEFAULT_MEMORY_MB,
    workers: int | None = None,
) -> Report:
    """Grade the ``bleu_scratch`` package in ``directory`` against NLTK.

    Each graded function may take ``budget`` seconds in all and ``memory_mb``
    MB of address space (where the system can limit it; 0 for no limit);
    ``workers`` functions are graded at a time (default: one per core).
    """
    started = time.perf_counter()
    directory = directory.resolve()
    if not (directory / "bleu_scratch" / "__init__.py").is_file():
        raise ClassroomError(f"{directory} has no bleu_scratch/__init__.py: give the folder of a student edition")
    oracle = NltkOracle()
    with _LOCK:
        if not _CASES:
            with warnings.catch_warnings():
                # NLTK's warnings about zero-count orders are part of the answers, not news.
                warnings.simplefilter("ignore")
                _CASES.update(grading_cases(oracle))
                _CLASSES.update(oracle.classes())
        # Under the lock too: CPython 3.11's ast.parse can fail with a SystemError when two
        # threads parse at once (two grades in threads, as the tests run them).
        plan = _Plan.of_lessons(memory_mb, budget)
    units = select_units(only)
    scratch = Path(tempfile.mkdtemp(prefix="bleu-grade-"))
    try:
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
            results = list(
                pool.map(lambda unit: _grade_unit(unit, directory, scratch / unit.name, plan, oracle), units)
            )
    finally:
        # A student's process may leave behind a file nobody can remove (chattr +i, as root): never an error.
        shutil.rmtree(scratch, ignore_errors=True)
    package = next((file for _, file in results if file), "")
    return Report(str(directory), package, [mark for mark, _ in results], time.perf_counter() - started)


@dataclass
class _Plan:
    """What every graded process is told, from the instructor's copy of the lessons."""

    memory_mb: int
    budget: float
    lesson_of: dict[str, int]  # lesson module -> its number, from the file name (lessonNN_*.py)
    functions: list[tuple[str, str]]  # (module, function) of every lesson function
    preload: list[str]
    deny_read: list[str]
    python_folders: list[str]  # where the standard library and the installed packages live

    @classmethod
    def of_lessons(cls, memory_mb: int, budget: float) -> "_Plan":
        # Found, never imported: grading starts even when this bleu_scratch does not import.
        found = find_spec("bleu_scratch")
        if found is None or not found.origin:
            raise ClassroomError(
                "the grader reads the lessons' layout from bleu_scratch, which is not installed: pip install -e ."
            )
        lessons = Path(found.origin).resolve().parent
        lesson_of, functions, imported = {}, [], set()
        for path in sorted(lessons.glob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue  # a student's own copy that does not parse: the graded process reports it
            number = re.match(r"lesson(\d\d)_", path.stem)
            if number:
                lesson_of[path.stem] = int(number.group(1))
                functions += [(path.stem, node.name) for node in tree.body if isinstance(node, ast.FunctionDef)]
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    imported.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    imported.add(node.module)
        preload = sorted(name for name in imported if name.split(".")[0] not in NEVER_PRELOADED)
        deny_read = [str(lessons), str(Path(__file__).resolve().parent)]
        for name in ("nltk", "sacrebleu"):
            spec = find_spec(name)
            if spec and spec.submodule_search_locations:
                deny_read += [str(Path(place).resolve()) for place in spec.submodule_search_locations]
        return cls(memory_mb, budget, lesson_of, functions, preload, deny_read, _python_folders())

    def job(self, unit: Unit, scratch: Path) -> dict:
        position = UNITS.index(unit)
        lesson = int(unit.exercise.split()[0])
        earlier = [(u.module, u.name) for u in UNITS[:position]]
        later = [(u.module, u.name) for u in UNITS[position + 1 :]]
        # Later lessons are not the student's to lean on (they may ship working
        # code, like the posts' BLEU in lesson 08); smoothing (07) is an argument.
        later += [
            (m, name)
            for m, name in self.functions
            if self.lesson_of[m] > lesson and m != CLASS_MODULES["SmoothingFunction"] and (m, name) not in later
        ]
        needed = {u.module for u in UNITS} | set(CLASS_MODULES.values())
        return {
            "scratch": str(scratch),
            "preload": self.preload,
            "modules": sorted(needed),
            # The other lessons' modules, imported too so that a later lesson's functions are refused
            # wherever graded code finds them; one that does not import costs nothing (lesson 10's
            # exercises cannot break lesson 01's).
            "other_lessons": sorted(m for m in self.lesson_of if m not in needed),
            "classes": CLASS_MODULES,
            "module": unit.module,
            "call": unit.call,
            "cases": [[_argument(arg) for arg in args] for args, _ in _CASES[unit.name]],
            "stand_ins": earlier,
            "unavailable": later,
            "memory_mb": self.memory_mb,
            "budget": self.budget,
            "deny_read": self.deny_read,
            # Python's own files, and the student's copy: not the instructor's, nor other students'.
            "allow_read": [str(scratch), *self.python_folders],
        }


def _python_folders() -> list[str]:
    """Where the standard library and the installed packages live."""
    import site
    import sysconfig

    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *site.getsitepackages()}
    places.update(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib"))
    return sorted(str(Path(place).resolve()) for place in places)


def _argument(value: Any) -> list:
    return ["Smoothing", value.method] if isinstance(value, Smoothing) else sandbox.encode(value, _CLASSES)


def _grade_unit(unit: Unit, directory: Path, scratch: Path, plan: _Plan, oracle: NltkOracle) -> tuple[Mark, str]:
    """Run one graded function in its own process and mark what it answers."""
    scratch.mkdir(parents=True)
    # A copy per function: what one function writes in its folder, the next never sees.
    # Python source only: a compiled module the student ships would run outside the audit hook's sight.
    shutil.copytree(directory / "bleu_scratch", scratch / "bleu_scratch", ignore=_not_source)
    job = plan.job(unit, scratch)
    session = Session(job, plan.budget, stand_ins(oracle, {name for _, name in job["stand_ins"]}), _CLASSES)
    session.run()
    return _mark(unit, session, plan.memory_mb), session.package


def _not_source(folder: str, names: list[str]) -> set[str]:
    """What copytree leaves out of the student's package: links, and all but folders and .py files.

    A link would have the grader copy whatever it points to (the instructor's files, say) for the student.
    """

    def kept(path: Path) -> bool:
        return not path.is_symlink() and (path.suffix == ".py" and path.is_file() or path.is_dir())

    return {name for name in names if name == "__pycache__" or not kept(Path(folder, name))}


def _out_of_memory(memory_mb: int) -> str:
    return f"used more than {memory_mb} MB of memory (a loop that never ends?)" if memory_mb else "ran out of memory"


def _mark(unit: Unit, session: Session, memory_mb: int) -> Mark:
    if session.failure.startswith("bleu_scratch does not import"):  # its error says what was refused, if anything
        return Mark(unit, 0, session.failure)
    if session.refused:
        return Mark(unit, 0, f"tried to {session.refused[0]}, which graded code may not: no points for this function")
    if session.failure and session.failure != "ended":
        return Mark(unit, 0, session.failure)
    for index, (_, expected) in enumerate(_CASES[unit.name]):
        result = session.answers.get(index)
        call = call_text(unit.call, session.job["cases"][index])  # the arguments as the process was sent them
        if result is None:  # the process ended before answering
            last = [text for text in session.stderr.splitlines() if text.strip()]
            detail = f": {clip(last[-1], 160)}" if last else ""
            return Mark(unit, 0, f"stopped the grading process (exit code {session.exit_code}) on {call}{detail}")
        if result[0] == "raised":
            where = f" at {result[3]}" if result[3] else ""
            if result[1] == "NotImplementedError":
                return Mark(unit, 0, f"not written yet (NotImplementedError{where})")
            if result[1] == "MemoryError":
                return Mark(unit, 0, f"{_out_of_memory(memory_mb)} on {call}{where}")
            return Mark(unit, 0, f"{call} raised {result[1]}{where}: {clip(result[2], 160)}")
        want = sandbox.encode(expected, _CLASSES)
        if result[1] != want:
            return Mark(unit, 0, f"{call} returned {clip(show(result[1]), 60)}, NLTK gives {clip(show(want), 60)}")
    return Mark(unit, unit.points, "")
