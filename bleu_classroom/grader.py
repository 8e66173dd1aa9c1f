"""The grader: each graded function runs in a sandboxed process of its own; only the grader holds the answers.

For each function the grader copies the student's package into a fresh
scratch folder, starts ``sandbox.py`` there, sends it the cases' arguments,
and reads back answers as plain data. Everything it reads is checked: a
malformed, missing, duplicated or late answer costs that function's points.
The clock is the grader's: one budget per function, from start to last
answer, which nothing the student's process sends can extend. Lesson
functions the graded one may call are NLTK's answers, computed here and
sent on request (the student's process never loads NLTK).
"""

import ast
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from . import sandbox
from .cases import grading_cases
from .errors import ClassroomError
from .oracle import NltkOracle
from .plain import Smoothing, clip, show
from .report import Mark, Report
from .standins import stand_ins
from .units import UNITS, Unit, select_units

DEFAULT_BUDGET = 20.0  # seconds a graded function may take in all: starting, importing, every case
DEFAULT_MEMORY_MB = 1024  # address space of a graded process; Python and numpy need a few hundred MB
MAX_LINE = 1 << 20  # bytes in one message from the student's process
MAX_MESSAGES = 10_000  # messages from one graded process
MAX_BYTES = 16 << 20  # bytes from one graded process, all messages together
# The largest arguments the grader computes NLTK's answers for, on a graded function's request:
# more than any lesson needs, and little enough that no request can stall the grader.
MAX_ITEMS, MAX_INT = 20_000, 1_000

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
    units = select_units(only)
    plan = _Plan.of_lessons(memory_mb, budget)
    scratch = Path(tempfile.mkdtemp(prefix="bleu-grade-"))
    try:
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda unit: _grade_unit(unit, directory, scratch / unit.name, plan, oracle), units))
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
    lesson_of: dict[str, int]  # module -> lesson number
    functions: list[tuple[str, str]]  # (module, function) of every lesson function
    preload: list[str]
    deny_read: list[str] = field(default_factory=list)

    @classmethod
    def of_lessons(cls, memory_mb: int, budget: float) -> "_Plan":
        # Found, never imported: grading starts even when this bleu_scratch does not import.
        found = find_spec("bleu_scratch")
        if found is None or not found.origin:
            raise ClassroomError("the grader reads the lessons' layout from bleu_scratch, which is not installed: pip install -e .")
        lessons = Path(found.origin).resolve().parent
        lesson_of, functions, imported = {}, [], set()
        for path in sorted(lessons.glob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue  # a student's own copy that does not parse: the graded process reports it
            number = re.match(r"Lesson (\d+)", ast.get_docstring(tree) or "")
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
        return cls(memory_mb, budget, lesson_of, functions, preload, deny_read)

    def job(self, unit: Unit, scratch: Path) -> dict:
        position = UNITS.index(unit)
        lesson = int(unit.exercise.split()[0])
        earlier = [(u.module, u.name) for u in UNITS[:position]]
        later = [(u.module, u.name) for u in UNITS[position + 1 :]]
        # Later lessons are not the student's to lean on (they may ship working
        # code, like the posts' BLEU in lesson 08); smoothing (07) is an argument.
        later += [
            (m, name) for m, name in self.functions
            if self.lesson_of.get(m, 0) > lesson and m != "smoothing" and (m, name) not in later
        ]
        return {
            "scratch": str(scratch),
            "preload": self.preload,
            "modules": sorted({u.module for u in UNITS} | {"smoothing"}),
            "module": unit.module,
            "call": unit.call,
            "cases": [[_argument(arg) for arg in args] for args, _ in _CASES[unit.name]],
            "stand_ins": earlier,
            "unavailable": later,
            "memory_mb": self.memory_mb,
            "budget": self.budget,
            "deny_read": self.deny_read,
            # Python's own files, and the student's copy: not the instructor's, nor other students'.
            "allow_read": [str(scratch), *_python_folders()],
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
    session = _Session(job, plan.budget, stand_ins(oracle, {name for _, name in job["stand_ins"]}))
    session.run()
    return _mark(unit, session, plan.memory_mb), session.package


def _not_source(folder: str, names: list[str]) -> set[str]:
    """What copytree leaves out of the student's package: links, and all but folders and .py files.

    A link would have the grader copy whatever it points to (the instructor's files, say) for the student.
    """
    def kept(path: Path) -> bool:
        return not path.is_symlink() and (path.suffix == ".py" and path.is_file() or path.is_dir())

    return {name for name in names if name == "__pycache__" or not kept(Path(folder, name))}


class _Session:
    """One graded process: start it, answer its requests, collect its answers until the budget is spent."""

    def __init__(self, job: dict, budget: float, helpers: dict[str, Callable]) -> None:
        self.job, self.budget, self.helpers = job, budget, helpers
        self.answers: dict[int, list] = {}
        self.failure = ""  # why the function earns nothing, whatever it answered
        self.refused: list[str] = []
        self.package = ""
        self.stderr = ""
        self.exit_code: int | None = None

    def run(self) -> None:
        # One BLAS thread: each would reserve address space under the memory limit.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": self.job["scratch"]}
        env.update(dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1"))
        deadline = time.monotonic() + self.budget
        # The graded process ends when this end of the pipe closes, however the grader ends.
        alive, self.job["alive_fd"] = _lifeline()
        with tempfile.TemporaryFile() as stderr:
            process = subprocess.Popen(
                [sys.executable, "-I", "-B", "-c", sandbox.BOOTSTRAP], cwd=self.job["scratch"], env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, start_new_session=True,
                pass_fds=(self.job["alive_fd"],),
            )
            os.close(self.job["alive_fd"])
            replies: queue.Queue = queue.Queue()
            messages: queue.Queue = queue.Queue()
            threading.Thread(target=_write, args=(process.stdin, replies), daemon=True).start()
            threading.Thread(target=_read, args=(process.stdout, messages), daemon=True).start()
            replies.put(json.dumps(Path(sandbox.__file__).read_text(encoding="utf-8")))
            replies.put(json.dumps(self.job))
            try:
                self._talk(messages, replies, deadline)
            finally:
                replies.put(None)
                _stop(process)
                os.close(alive)
                stderr.seek(0)
                self.stderr = stderr.read(1 << 16).decode("utf-8", "replace")
                self.exit_code = process.returncode

    def _talk(self, messages: queue.Queue, replies: queue.Queue, deadline: float) -> None:
        cases, received = len(self.job["cases"]), 0
        for _ in range(MAX_MESSAGES):
            try:
                line = messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.failure = f"did not finish within {self.budget:g}s{self._on_case()} (an endless loop?)"
                return
            if line is None:  # the process ended
                if len(self.answers) < cases and not self.failure:
                    self.failure = "ended"
                return
            received += len(line)
            if line is _TOO_LONG or received > MAX_BYTES:
                self.failure = f"sent the grader a message longer than {MAX_LINE} bytes, or more than {MAX_BYTES >> 20} MB in all"
                return
            try:
                message = json.loads(line)
                self._handle(message, replies)
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:
                self.failure = f"sent the grader a malformed message ({clip(str(error), 80)}): {clip(line.decode('utf-8', 'replace').strip(), 80)}"
                return
            if self.failure or len(self.answers) == cases:
                return
        self.failure = f"sent the grader more than {MAX_MESSAGES} messages"

    def _handle(self, message: dict, replies: queue.Queue) -> None:
        kind = message["kind"]
        if kind == "imported":
            self.package = str(message["file"])
        elif kind == "import-failed":
            self.failure = f"bleu_scratch does not import: {clip(str(message['error']), 200)}"
        elif kind == "missing":
            self.failure = str(message["error"])
        elif kind == "refused":
            if not self.refused:  # the first says enough
                self.refused.append(clip(str(message["what"]), 200))
        elif kind == "call":
            replies.put(json.dumps(self._call(message)))
        elif kind in ("answer", "raised"):
            index = message["index"]
            if type(index) is not int or not 0 <= index < len(self.job["cases"]) or index in self.answers:
                raise ValueError(f"no case {index} is waiting for an answer")
            if kind == "answer":
                value = message["value"]
                # An answer of a type no lesson returns is a wrong answer, not a malformed one.
                if not (isinstance(value, list) and len(value) == 2 and value[0] == "object" and isinstance(value[1], str)):
                    sandbox.decode(value, {"Precision": lambda n, d: None, "BleuStats": lambda **f: None})
                self.answers[index] = ["ok", message["value"]]
            else:
                self.answers[index] = ["raised", str(message["error"]), str(message["message"]), str(message["where"])]
        else:
            raise ValueError(f"no message is called {kind!r}")

    def _call(self, message: dict) -> dict:
        """NLTK's answer for a lesson function the graded one called."""
        helper = self.helpers.get(message["name"])
        if helper is None:
            return {"error": f"{message['name']} is not available while this function is graded"}
        try:
            args = [sandbox.decode(a, _CLASSES) for a in message["args"]]
            kwargs = {str(k): sandbox.decode(v, _CLASSES) for k, v in message["kwargs"].items()}
            if not _small([args, kwargs]):
                return {"error": f"{message['name']} is answered for at most {MAX_ITEMS} items and numbers up to {MAX_INT}"}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return {"value": sandbox.encode(helper(*args, **kwargs), _CLASSES)}
        except Exception as error:  # noqa: BLE001 (the student's arguments may be anything)
            return {"error": f"{message['name']} could not use those arguments: {type(error).__name__}: {clip(str(error), 120)}"}

    def _on_case(self) -> str:
        waiting = len(self.answers)
        if waiting >= len(self.job["cases"]):
            return ""
        return f" on {_call(self.job['call'], self.job['cases'][waiting])}"


_TOO_LONG = b"\0"


def _small(value: Any) -> bool:
    """Whether ``value`` has at most MAX_ITEMS items in all and no number above MAX_INT.

    >>> _small([["a", "b"], 3]), _small([10 ** 6]), _small([["a"] * (MAX_ITEMS + 1)])
    (True, False, False)
    """
    items, stack = 0, [value]
    while stack:
        item = stack.pop()
        items += 1
        if items > MAX_ITEMS:
            return False
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and abs(item) > MAX_INT:
            return False
    return True


def _lifeline() -> tuple[int, int]:
    """A pipe: the grader keeps the write end, the graded process waits on the read end."""
    read_end, write_end = os.pipe()
    return write_end, read_end


def _read(stream: Any, messages: queue.Queue) -> None:
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            break
        if len(line) > MAX_LINE:
            messages.put(_TOO_LONG)
            break
        messages.put(line)
    messages.put(None)


def _write(stream: Any, replies: queue.Queue) -> None:
    """Write the grader's lines; a process that stops reading blocks only this thread."""
    try:
        while (reply := replies.get()) is not None:
            stream.write(reply.encode("utf-8") + b"\n")
            stream.flush()
    except OSError:
        pass


def _stop(process: subprocess.Popen) -> None:
    """End the graded process and anything it started."""
    try:
        os.killpg(process.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _call(name: str, plain_args: list) -> str:
    """A graded call as the student would write it, arguments shortened.

    >>> _call("ngrams", [["list", [["str", "the"], ["str", "cat"]]], ["int", 2]])
    "ngrams(['the', 'cat'], 2)"
    """
    return f"{name}({', '.join(clip(show(arg), 28) for arg in plain_args)})"


def _out_of_memory(memory_mb: int) -> str:
    return f"used more than {memory_mb} MB of memory (a loop that never ends?)" if memory_mb else "ran out of memory"


def _mark(unit: Unit, session: _Session, memory_mb: int) -> Mark:
    if session.failure.startswith("bleu_scratch does not import"):  # its error says what was refused, if anything
        return Mark(unit, 0, session.failure)
    if session.refused:
        return Mark(unit, 0, f"tried to {session.refused[0]}, which graded code may not: no points for this function")
    if session.failure and session.failure != "ended":
        return Mark(unit, 0, session.failure)
    results = [session.answers.get(i) for i in range(len(_CASES[unit.name]))]
    for (args, expected), result in zip(_CASES[unit.name], results):
        call = _call(unit.call, [_argument(arg) for arg in args])
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
