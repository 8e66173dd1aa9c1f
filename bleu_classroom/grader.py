"""The grader: each graded function runs in a bubblewrap sandbox of its own; only the grader holds the answers.

For each function the grader copies the student's package (Python source
only) into a fresh folder, puts the edition's stubs in place of every later
lesson's module (a later lesson's code, working or copied, is no help on an
earlier one), and runs ``sandbox.py`` on that copy inside bubblewrap
(``jail.py``). It sends the cases' arguments and reads back answers as plain
data, which it compares with NLTK's, computed here. The graded function may
call the student's own earlier functions: a mistake there costs here too.
"""

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
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from . import jail, sandbox
from .cases import grading_cases
from .errors import ClassroomError
from .feedback import difference
from .markers import CODE_STUB, strip_solutions
from .oracle import NltkOracle
from .plain import Smoothing, call_text, clip
from .report import Mark, Report
from .units import CLASS_MODULES, Unit, select_units

DEFAULT_BUDGET = 20.0  # seconds a graded function may take in all: starting, importing, every case
DEFAULT_MEMORY_MB = 1024  # Python and numpy need a few hundred MB
PROCESSES = 32  # processes and threads at once in one sandbox
DISK_MB = 64  # the sandbox's /tmp
MAX_OUTPUT = 16 << 20  # bytes of answers from one sandbox
SANDBOX_SOURCE = Path(sandbox.__file__).read_text(encoding="utf-8")
SEED_FILE = "seed"  # in the grader's cache folder: the seed of the random cases, kept by the grader

_LOCK = threading.Lock()


def cache_folder() -> Path:
    """Where the grader keeps its seed and its results (never in a submission)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bleu-classroom"


def kept_seed() -> int:
    """The seed of the random cases: drawn once, then kept in the grader's cache folder."""
    path = cache_folder() / SEED_FILE
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
    workers: int | None = None,
    seed: int | None = None,
    cache: bool = False,
) -> Report:
    """Grade the ``bleu_scratch`` package in ``directory`` against NLTK.

    Each graded function may take ``budget`` seconds in all and ``memory_mb``
    MB of memory (0 for no limit); ``workers`` functions are graded at a time
    (default: one per core). The random cases come from ``seed`` (default: the
    grader's kept seed). With ``cache``, a package graded before with the same
    files, seed and options is not graded again.
    """
    started = time.perf_counter()
    directory = directory.resolve()
    if not (directory / "bleu_scratch" / "__init__.py").is_file():
        raise ClassroomError(f"{directory} has no bleu_scratch/__init__.py: give the folder of a student edition")
    jail.check()
    seed = kept_seed() if seed is None else seed
    units = select_units(only)
    key = _fingerprint(directory, [seed, budget, memory_mb, [unit.name for unit in units]])
    cached = cache_folder() / "results" / f"{key}.json"
    if cache and cached.is_file():
        return Report.from_dict(json.loads(cached.read_text(encoding="utf-8")))
    cases, classes = _cases(seed)
    later = _later_lessons()
    limits = jail.Limits(budget, memory_mb, PROCESSES, DISK_MB, MAX_OUTPUT)
    scratch = Path(tempfile.mkdtemp(prefix="bleu-grade-"))
    try:
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
            results = list(
                pool.map(
                    lambda unit: _grade_unit(
                        unit, directory, scratch / unit.name, later, cases[unit.name], classes, limits
                    ),
                    units,
                )
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    package = next((file for _, file in results if file), "")
    report = Report(str(directory), package, [mark for mark, _ in results], time.perf_counter() - started)
    if cache:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(report.as_dict()), encoding="utf-8")
    return report


def _fingerprint(directory: Path, options: list) -> str:
    """A hash of the package's Python files (names and bytes) and the grading's options."""
    digest = hashlib.sha256(json.dumps(options).encode())
    for path in sorted((directory / "bleu_scratch").rglob("*.py")):
        digest.update(str(path.relative_to(directory)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


_CASES: dict[int, tuple[dict, dict]] = {}


def _cases(seed: int) -> tuple[dict[str, list[tuple[tuple, Any]]], dict[str, type]]:
    with _LOCK:
        if seed not in _CASES:
            oracle = NltkOracle()
            with warnings.catch_warnings():
                # NLTK's warnings about zero-count orders are part of the answers, not news.
                warnings.simplefilter("ignore")
                _CASES[seed] = (grading_cases(oracle, seed), oracle.classes())
        return _CASES[seed]


def _later_lessons() -> dict[str, str]:
    """Each lesson module of the instructor's copy as the edition has it (solutions stubbed), by name."""
    found = find_spec("bleu_scratch")
    if found is None or not found.origin:
        raise ClassroomError("the grader reads the lessons from bleu_scratch, which is not installed: pip install -e .")
    lessons = Path(found.origin).resolve().parent
    return {
        path.stem: strip_solutions(path.read_text(encoding="utf-8"), CODE_STUB, path.name)[0]
        for path in sorted(lessons.glob("lesson*.py"))
    }


def _lesson(module: str) -> int:
    return int(re.match(r"lesson(\d\d)_", module).group(1))  # type: ignore[union-attr]


def _argument(value: Any, classes: dict[str, type]) -> list:
    return ["Smoothing", value.method] if isinstance(value, Smoothing) else sandbox.encode(value, classes)


def _grade_unit(
    unit: Unit,
    directory: Path,
    scratch: Path,
    later: dict[str, str],
    cases: list[tuple[tuple, Any]],
    classes: dict[str, type],
    limits: jail.Limits,
) -> tuple[Mark, str]:
    """Run one graded function in its own sandbox and mark what it answers."""
    # A copy per function: what one function's run leaves, the next never sees.
    # Python source only, no links: a link would have the grader copy whatever it points to.
    shutil.copytree(directory / "bleu_scratch", scratch / "bleu_scratch", ignore=_not_source)
    lesson = _lesson(unit.module)
    for module, text in later.items():
        if _lesson(module) > lesson:
            (scratch / "bleu_scratch" / f"{module}.py").write_text(text, encoding="utf-8")
    job = {
        "path": ["/submission", jail.PACKAGES],
        "modules": sorted({unit.module, *CLASS_MODULES.values()}),
        "classes": CLASS_MODULES,
        "module": unit.module,
        "call": unit.call,
        "cases": [[_argument(arg, classes) for arg in args] for args, _ in cases],
    }
    stdin = (json.dumps(SANDBOX_SOURCE) + "\n" + json.dumps(job) + "\n").encode()
    command = [*jail.python_command(), "-c", sandbox.BOOTSTRAP]
    outcome = jail.run(command, {"/submission": scratch}, stdin, limits)
    run = _Run(job["cases"])
    run.read(outcome)
    return _mark(unit, run, outcome, cases, classes, limits), run.package


def _not_source(folder: str, names: list[str]) -> set[str]:
    """What copytree leaves out of the student's package: links, and all but folders and .py files."""

    def kept(path: Path) -> bool:
        return not path.is_symlink() and (path.suffix == ".py" and path.is_file() or path.is_dir())

    return {name for name in names if name == "__pycache__" or not kept(Path(folder, name))}


@dataclass
class _Run:
    """What one sandbox said, every line checked: it is untrusted."""

    cases: list
    package: str = ""
    failure: str = ""
    answers: dict[int, list] = field(default_factory=dict)

    def read(self, outcome: jail.Outcome) -> None:
        for line in outcome.stdout.splitlines():
            try:
                self._handle(json.loads(line))
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:
                self.failure = (
                    f"sent the grader a malformed message ({clip(str(error), 80)}): "
                    f"{clip(line.decode('utf-8', 'replace').strip(), 80)}"
                )
            if self.failure:
                return

    def _handle(self, message: dict) -> None:
        kind = message["kind"]
        if kind == "imported":
            self.package = str(message["file"])
        elif kind == "import-failed":
            self.failure = f"bleu_scratch does not import: {clip(str(message['error']), 200)}"
        elif kind == "missing":
            self.failure = str(message["error"])
        elif kind in ("answer", "raised"):
            index = message["index"]
            if type(index) is not int or not 0 <= index < len(self.cases) or index in self.answers:
                raise ValueError(f"no case {index} is waiting for an answer")
            if kind == "answer":
                value = message["value"]
                # An answer of a type no lesson returns is a wrong answer, not a malformed one.
                if not (
                    isinstance(value, list) and len(value) == 2 and value[0] == "object" and isinstance(value[1], str)
                ):
                    sandbox.decode(value, {"Precision": lambda n, d: None, "BleuStats": lambda **f: None})
                self.answers[index] = ["ok", value]
            else:
                self.answers[index] = ["raised", str(message["error"]), str(message["message"]), str(message["where"])]
        else:
            raise ValueError(f"no message is called {kind!r}")


def _out_of_memory(memory_mb: int) -> str:
    return f"used more than {memory_mb} MB of memory (a loop that never ends?)" if memory_mb else "ran out of memory"


def _mark(
    unit: Unit, run: _Run, outcome: jail.Outcome, cases: list, classes: dict[str, type], limits: jail.Limits
) -> Mark:
    if run.failure:
        return Mark(unit, 0, run.failure)
    answers = run.answers
    if outcome.too_much_output:
        return Mark(unit, 0, f"sent the grader more than {limits.max_output >> 20} MB")
    for index, (_, expected) in enumerate(cases):
        result = answers.get(index)
        call = call_text(unit.call, run.cases[index])  # the arguments as the sandbox was sent them
        if result is None:  # the sandbox ended, or was ended, before answering
            if outcome.timed_out:
                return Mark(unit, 0, f"did not finish within {limits.seconds:g}s on {call} (an endless loop?)")
            if outcome.exit_code in (-9, 128 + 9) and limits.memory_mb:  # bubblewrap says 128 + the signal
                return Mark(unit, 0, f"was killed on {call}: {_out_of_memory(limits.memory_mb)}, or it killed itself")
            last = [text for text in outcome.stderr.splitlines() if text.strip()]
            detail = f": {clip(last[-1], 160)}" if last else ""
            return Mark(unit, 0, f"stopped the grading process (exit code {outcome.exit_code}) on {call}{detail}")
        if result[0] == "raised":
            where = f" at {result[3]}" if result[3] else ""
            if result[1] == "NotImplementedError":
                return Mark(unit, 0, f"not written yet (NotImplementedError{where})")
            if result[1] == "MemoryError":
                return Mark(unit, 0, f"{_out_of_memory(limits.memory_mb)} on {call}{where}")
            return Mark(unit, 0, f"{call} raised {result[1]}{where}: {clip(result[2], 160)}")
        want = sandbox.encode(expected, classes)
        if result[1] != want:
            return Mark(unit, 0, f"{call}: {difference(result[1], want)}")
    return Mark(unit, unit.points, "")
