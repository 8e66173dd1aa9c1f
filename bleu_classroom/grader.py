"""The grader: it runs the grading process on a student's package and marks each function against NLTK."""

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from .cases import grading_cases
from .child import CHILD_BOOTSTRAP
from .errors import ClassroomError
from .oracle import NltkOracle
from .plain import clip, show, to_plain
from .report import Mark, Report
from .units import UNITS, Unit, select_units

DEFAULT_TIMEOUT = 10.0  # seconds per grading case
DEFAULT_MEMORY_MB = 1024  # address space a grading process may use; NLTK and Python need a few hundred MB

_CASES: dict[str, list[tuple[tuple, Any]]] = {}


def grade(
    directory: Path, timeout: float = DEFAULT_TIMEOUT, only: list[str] | None = None, memory_mb: int = DEFAULT_MEMORY_MB
) -> Report:
    """Grade the ``bleu_scratch`` package in ``directory`` against NLTK.

    Each case may take ``timeout`` seconds, and the grading process
    ``memory_mb`` MB of address space (where the system can limit it; 0 for no limit).
    """
    started = time.perf_counter()
    directory = directory.resolve()
    if not (directory / "bleu_scratch" / "__init__.py").is_file():
        raise ClassroomError(f"{directory} has no bleu_scratch/__init__.py: give the folder of a student edition")
    if not _CASES:
        with warnings.catch_warnings():
            # NLTK's warnings about zero-count orders are part of the answers, not news.
            warnings.simplefilter("ignore")
            _CASES.update(grading_cases(NltkOracle()))
    units = select_units(only)
    job = {
        "package_dir": str(directory),
        "memory_mb": memory_mb,
        "cases": {unit.name: [[to_plain(arg) for arg in args] for args, _ in _CASES[unit.name]] for unit in units},
    }
    outcomes: dict[str, Any] = {}
    package = ""
    pending = [unit.name for unit in units]
    with tempfile.TemporaryDirectory(prefix="bleu-grade-") as scratch:
        while pending:
            job["units"] = pending
            job_path = Path(scratch, "job.json")
            job_path.write_text(json.dumps(job), encoding="utf-8")
            package = _run_child(directory, job_path, timeout, outcomes) or package
            pending = [name for name in pending if name not in outcomes]
    marks = [_mark(unit, outcomes[unit.name], memory_mb) for unit in units]
    return Report(str(directory), package, marks, time.perf_counter() - started)


def _run_child(directory: Path, job_path: Path, timeout: float, outcomes: dict[str, Any]) -> str:
    """Run one grading process; record an outcome for each unit it finishes or fails."""
    # One BLAS thread: each would reserve address space under the memory limit.
    threads = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    env = dict(os.environ, PYTHONPATH=str(directory), PYTHONDONTWRITEBYTECODE="1", **threads)
    job = json.loads(job_path.read_text(encoding="utf-8"))
    command = [sys.executable, "-c", CHILD_BOOTSTRAP, str(Path(__file__).resolve().parent.parent), str(job_path)]
    with tempfile.TemporaryFile() as stderr:
        child = subprocess.Popen(command, cwd=directory, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
        events: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(child.stdout, events), daemon=True).start()
        # Starting the grader is not the student's time: it gets a generous limit.
        deadline, current, package = time.monotonic() + max(120.0, timeout), "loading the grader", ""
        on_case = ""  # " on <the call>" while a case runs
        try:
            while True:
                try:
                    line = events.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    child.kill()
                    child.wait()
                    _fail_current(current, job, outcomes, f"did not finish within {timeout:g}s{on_case} (an endless loop?)")
                    return package
                if line is None:
                    child.wait()
                    if current:
                        stderr.seek(0)
                        last = [text for text in stderr.read().decode("utf-8", "replace").splitlines() if text.strip()]
                        if last and "MemoryError" in last[-1]:
                            reason = _out_of_memory(job["memory_mb"]) + on_case
                        else:
                            detail = f": {clip(last[-1], 160)}" if last else ""
                            reason = f"stopped the grading process (exit code {child.returncode}){detail}"
                        _fail_current(current, job, outcomes, reason)
                    return package
                event = json.loads(line)
                kind = event["event"]
                if kind == "ready":
                    current = "importing bleu_scratch"
                elif kind == "import-failed":
                    for name in job["units"]:
                        outcomes[name] = ("failed", f"bleu_scratch does not import: {event['error']}")
                    current = ""
                elif kind == "imported":
                    package = event["file"]
                    if event["outside"]:
                        raise ClassroomError(
                            f"grading {directory} imported code from outside it: {'; '.join(event['outside'])}. "
                            f"Is a module missing from {directory / 'bleu_scratch'}?"
                        )
                    current = ""
                elif kind == "start":
                    current, on_case = event["unit"], ""
                elif kind == "case":
                    on_case = f" on {_call(event['unit'], job['cases'][event['unit']][event['index']])}"
                elif kind == "done":
                    outcomes[event["unit"]] = ("results", event["results"])
                    current, on_case = "", ""
                # Each event starts the clock again: the time limit is per case.
                # Loading NLTK for a stand-in is the grader's time, not the student's.
                deadline = time.monotonic() + (max(120.0, timeout) if kind == "oracle-start" else timeout)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()


def _pump(stream: Any, events: queue.Queue) -> None:
    for line in stream:
        events.put(line)
    events.put(None)


def _fail_current(current: str, job: dict, outcomes: dict[str, Any], reason: str) -> None:
    if current == "loading the grader":
        raise ClassroomError(f"the grading process failed before grading anything: {reason}")
    if current == "importing bleu_scratch":
        for name in job["units"]:
            outcomes[name] = ("failed", f"importing bleu_scratch {reason}")
    elif current:
        outcomes[current] = ("failed", reason)


def _out_of_memory(memory_mb: int) -> str:
    return f"used more than {memory_mb} MB of memory (a loop that never ends?)" if memory_mb else "ran out of memory"


def _call(name: str, plain_args: list) -> str:
    """A graded call as the student would write it, arguments shortened.

    >>> _call("ngrams", [to_plain(["the", "cat"]), to_plain(2)])
    "ngrams(['the', 'cat'], 2)"
    """
    unit = next(unit for unit in UNITS if unit.name == name)
    return f"{unit.call}({', '.join(clip(show(arg), 28) for arg in plain_args)})"


def _mark(unit: Unit, outcome: tuple, memory_mb: int = DEFAULT_MEMORY_MB) -> Mark:
    kind, detail = outcome
    if kind == "failed":
        return Mark(unit, 0, detail)
    misses = []
    for (args, expected), result in zip(_CASES[unit.name], detail):
        want = to_plain(expected)
        if result[0] == "ok" and result[1] == want:
            continue
        call = _call(unit.name, [to_plain(arg) for arg in args])
        if result[0] == "missing":
            return Mark(unit, 0, result[1])
        if result[0] == "raised":
            where = f" at {result[3]}" if result[3] else ""
            if result[1] == "NotImplementedError":
                return Mark(unit, 0, f"not written yet (NotImplementedError{where})")
            if result[1] == "MemoryError":
                return Mark(unit, 0, f"{_out_of_memory(memory_mb)} on {call}{where}")
            misses.append(f"{call} raised {result[1]}{where}: {result[2]}")
        else:
            misses.append(f"{call} returned {clip(show(result[1]), 60)}, NLTK gives {clip(show(want), 60)}")
    if not misses:
        return Mark(unit, unit.points, "")
    return Mark(unit, 0, f"{len(misses)} of {len(detail)} cases differ from NLTK; first: {misses[0]}")
