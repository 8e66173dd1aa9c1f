"""The course edition: a student release without solutions, and its autograder.

::

    python -m bleu_scratch.classroom release OUT_DIR [--force]
    python -m bleu_scratch.classroom grade DIR [--json] [--only NAME] [--timeout SECONDS] [--memory-mb MB]
    python -m bleu_scratch.classroom tag-nbgrader [NOTEBOOK_DIR]

Solutions are marked the way nbgrader marks them: the lines between a
``### BEGIN SOLUTION`` comment line and a ``### END SOLUTION`` comment line,
in the package's lesson functions and in the notebooks' exercise cells.
``release`` copies the repository with every marked region replaced by
nbgrader's stub (``# YOUR CODE HERE`` / ``raise NotImplementedError()``),
notebook outputs cleared, and a README for students; it fails if a marker is
unbalanced or misspelt, or if a solution can still be read anywhere in the
edition (see ``find_leaks``).

``grade`` runs the grader's own cases against the ``bleu_scratch`` in DIR, in a
separate process, and compares every answer with NLTK 3.10.4's, bit for bit
and type for type. Each graded function is tested on its own: the other lesson
functions it may call are replaced by stand-ins built on NLTK, so a function
earns its points whether or not the earlier exercises are done. A function
that raises, loops (each case has ``--timeout`` seconds), runs out of memory
(``--memory-mb``, where the system can limit it) or kills the process loses
its own points and no others: grading goes on in a new process.

``tag-nbgrader`` gives the notebooks the cell metadata nbgrader needs to
take them as they are: each exercise cell becomes a solution cell and the
check cell after it an autograder test (see ``tag_nbgrader``).

This module uses only the standard library (so it ships unchanged and runs
in a student edition whose lessons do not work yet); ``grade`` imports NLTK,
the oracle, when it runs.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import fnmatch
import importlib
import json
import linecache
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from string import Template
from typing import Any

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
CODE_STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")  # nbgrader's Python stub
TEXT_STUB = ("YOUR ANSWER HERE",)  # nbgrader's stub for a Markdown answer
# Solution lines this long or longer are searched for in the edition; shorter
# ones ("return 0", "return p_n") are too common to give anything away.
MIN_LEAK_CHARS = 20
NLTK_VERSION = "3.10.4"
DEFAULT_TIMEOUT = 10.0  # seconds per grading case
DEFAULT_MEMORY_MB = 1024  # a grading process uses about 200 MB of address space

REPO_ROOT = Path(__file__).resolve().parent.parent
STUDENT_README = Path(__file__).resolve().parent / "student_README.md"
# Never part of the edition: version control, caches, build output, CI and
# speed benchmarks (they need the finished package), the instructor README,
# which the student README replaces, and that README's template, and the tool
# that stores notebook outputs for nbval (a student saves a notebook in Jupyter).
# Nor are the tests that look for solution markers (see _instructor_only): they
# check the instructor's copy.
SKIPPED_NAMES = {
    ".git", ".ci", "benchmarks", "__pycache__", ".pytest_cache", ".ipynb_checkpoints",
    ".hypothesis", ".venv", "venv", "build", "dist", ".mypy_cache", ".ruff_cache", ".tox",
}
SKIPPED_PATTERNS = ("*.egg-info", "*.pyc", ".DS_Store")
INSTRUCTOR_ONLY = {"README.md", "bleu_scratch/student_README.md", "tools/refresh_notebooks.py"}
# Files the edition has under another name: the pytest hooks of the student
# edition only (a test that reaches an unwritten exercise is skipped there).
RENAMED = {"tests/student_conftest.py": "conftest.py"}


class ClassroomError(Exception):
    """A release or grading problem to report to the user (not a bug in this tool)."""


# ---------------------------------------------------------------------------
# Solution markers
# ---------------------------------------------------------------------------


@dataclass
class Region:
    """One marked solution: where it starts and the lines it hides."""

    where: str  # "path" or "path cell N", for messages
    line: int  # 1-based line of the BEGIN marker
    lines: list[str]

    @property
    def place(self) -> tuple[str, int | None]:
        """The file, and the notebook cell (1-based) or None."""
        path, _, cell = self.where.partition(" cell ")
        return path, int(cell) if cell else None


def strip_solutions(text: str, stub: tuple[str, ...], where: str = "<text>") -> tuple[str, list[Region]]:
    """Replace each marked region of ``text`` by ``stub``, indented like its BEGIN marker.

    >>> source = "def f(x):\\n    check(x)\\n    ### BEGIN SOLUTION\\n    return 2 * x\\n    ### END SOLUTION\\n"
    >>> stripped, regions = strip_solutions(source, CODE_STUB)
    >>> print(stripped, end="")
    def f(x):
        check(x)
        # YOUR CODE HERE
        raise NotImplementedError()
    >>> regions[0].line, regions[0].lines
    (3, ['    return 2 * x'])
    """
    out: list[str] = []
    regions: list[Region] = []
    current: Region | None = None
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        marker = _marker(line, where, number)
        if marker == BEGIN:
            if current is not None:
                raise ClassroomError(f"{where}:{number}: BEGIN SOLUTION inside the region opened at line {current.line}")
            current = Region(where, number, [])
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(f"{indent}{stub_line}\n" for stub_line in stub)
        elif marker == END:
            if current is None:
                raise ClassroomError(f"{where}:{number}: END SOLUTION without a BEGIN SOLUTION before it")
            regions.append(current)
            current = None
            if not line.endswith("\n"):
                # The END marker was the last line: keep the text's missing final newline.
                out[-1] = out[-1].rstrip("\n")
        elif current is not None:
            current.lines.append(line.rstrip("\r\n"))
        else:
            out.append(line)
    if current is not None:
        raise ClassroomError(f"{where}:{current.line}: BEGIN SOLUTION is never closed by END SOLUTION")
    return "".join(out), regions


def _marker(line: str, where: str, number: int) -> str | None:
    stripped = line.strip()
    if stripped in (BEGIN, END):
        return stripped
    # nbgrader takes any line that names a marker; a near miss of ours would
    # ship its solution silently, so it is an error, not plain text.
    if stripped.startswith("#") and ("BEGIN SOLUTION" in stripped or "END SOLUTION" in stripped):
        raise ClassroomError(f"{where}:{number}: malformed marker {stripped!r}; write exactly {BEGIN!r} or {END!r}")
    return None


def marked_functions(source: str) -> list[str]:
    """The names of the functions whose bodies contain a solution region.

    >>> marked_functions("def f():\\n    ### BEGIN SOLUTION\\n    pass\\n    ### END SOLUTION\\n")
    ['f']
    """
    _, regions = strip_solutions(source, CODE_STUB)
    functions = [node for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = []
    for region in regions:
        enclosing = [f for f in functions if f.lineno < region.line <= f.end_lineno]
        # The innermost function is the one that starts last.
        name = max(enclosing, key=lambda f: f.lineno).name if enclosing else "<module>"
        if name not in names:
            names.append(name)
    return names


# ---------------------------------------------------------------------------
# Release
# ---------------------------------------------------------------------------


@dataclass
class Edition:
    """The student edition, built in memory before anything is written."""

    files: dict[str, bytes]  # relative path -> content
    regions: list[Region]
    stubbed: dict[str, list[str]]  # package module -> functions to write
    notebook_exercises: dict[str, int]  # notebook -> exercise cells


def build_edition(source: Path = REPO_ROOT, skip: Path | None = None) -> Edition:
    """The student edition of the repository at ``source``, checked for leaks.

    ``skip`` is a directory under ``source`` to leave out (the output directory
    when it lies inside the repository).
    """
    edition = Edition({}, [], {}, {})
    for rel in _source_files(source, skip):
        raw = (source / rel).read_bytes()
        if _instructor_only(rel, raw):
            continue
        if rel.endswith(".ipynb"):
            content, regions, exercises = _release_notebook(raw, rel)
            if exercises:
                edition.notebook_exercises[rel] = exercises
        elif rel.endswith(".py"):
            content, regions = _release_module(raw.decode("utf-8"), rel)
            if regions:
                edition.stubbed[rel] = marked_functions(raw.decode("utf-8"))
        else:
            content, regions = raw, []
            text = _as_text(raw)
            if text is not None:
                for number, line in enumerate(text.splitlines(), start=1):
                    if _marker(line, rel, number):
                        raise ClassroomError(f"{rel}:{number}: solution markers are only supported in .py and .ipynb files")
        target = RENAMED.get(rel, rel)
        if target in edition.files or (target != rel and (source / target).exists()):
            raise ClassroomError(f"{rel} and {target} would both be the edition's {target}")
        edition.files[target] = content
        edition.regions.extend(regions)
    if not edition.regions:
        raise ClassroomError(f"no solution markers found under {source}: is it already a student edition?")
    if ".gitignore" in edition.files:
        edition.files[".gitignore"] = _gitignore_for(edition.files[".gitignore"].decode("utf-8"), edition.files).encode()
    edition.files["README.md"] = student_readme(edition).encode()
    leaks = find_leaks([p for rel, content in edition.files.items() for p in _passages(rel, content)], edition.regions)
    if leaks:
        raise ClassroomError("solution text would leak into the edition:\n  " + "\n  ".join(leaks))
    return edition


def release(out_dir: Path, force: bool = False, source: Path = REPO_ROOT) -> Edition:
    """Write the student edition of ``source`` to ``out_dir``."""
    source, out_dir = source.resolve(), out_dir.resolve()
    if source == out_dir or source.is_relative_to(out_dir):
        raise ClassroomError(f"{out_dir} contains the repository itself; choose an output directory outside it")
    if out_dir.exists() and not out_dir.is_dir():
        raise ClassroomError(f"{out_dir} is a file; give the name of a new or empty directory")
    if out_dir.exists() and any(out_dir.iterdir()) and not force:
        raise ClassroomError(
            f"{out_dir} is not empty; pass --force to write into it anyway "
            f"(files of the same name are overwritten, other files are kept)"
        )
    edition = build_edition(source, skip=out_dir)
    try:
        for rel, content in edition.files.items():
            target = out_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    except OSError as error:  # e.g. a file where the edition needs a directory
        raise ClassroomError(f"cannot write the edition to {out_dir}: {error}") from None
    # With --force, files from an earlier release stay: they must be clean too.
    # (They teach nothing, so only the edition's own files count as lessons.)
    kept = [
        passage
        for rel in _source_files(out_dir, None)
        if rel not in edition.files
        for passage in _passages(rel, (out_dir / rel).read_bytes(), lessons=False)
    ]
    shipped = [p for rel, content in edition.files.items() for p in _passages(rel, content)]
    leaks = find_leaks(kept + shipped, edition.regions) if kept else []
    if leaks:
        raise ClassroomError(
            f"files already in {out_dir} contain solution text (left from an earlier release?); "
            f"remove them:\n  " + "\n  ".join(leaks)
        )
    return edition


def _instructor_only(rel: str, raw: bytes) -> bool:
    """Whether a file stays out of the edition.

    A test that mentions the solution markers checks the instructor's copy
    (markers present, stored outputs, this tool itself): in the edition it
    would fail even when every exercise is done.
    """
    return rel in INSTRUCTOR_ONLY or (rel.startswith("tests/") and b"BEGIN SOLUTION" in raw)


def _source_files(root: Path, skip: Path | None, skip_names: set[str] = SKIPPED_NAMES) -> Iterator[str]:
    for directory, subdirs, files in os.walk(root):
        here = Path(directory)
        subdirs[:] = sorted(
            d for d in subdirs
            if d not in skip_names and not _skipped_pattern(d) and (skip is None or (here / d).resolve() != skip)
        )
        for name in sorted(files):
            if not _skipped_pattern(name):
                yield (here / name).relative_to(root).as_posix()


def _skipped_pattern(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in SKIPPED_PATTERNS)


def _release_module(text: str, rel: str) -> tuple[bytes, list[Region]]:
    stripped, regions = strip_solutions(text, CODE_STUB, rel)
    for region in regions:
        for offset, line in enumerate(region.lines, start=1):
            # The input checks give the student clear errors; the stub must keep them.
            if re.search(r"\bcheck_\w+\(", line):
                raise ClassroomError(
                    f"{rel}:{region.line + offset}: an input check inside a solution region would be "
                    f"removed from the edition; move it above {BEGIN!r}"
                )
    try:
        ast.parse(stripped, filename=rel)
    except SyntaxError as error:
        raise ClassroomError(f"{rel}: the student version does not parse ({error}); check where the markers stand") from None
    return stripped.encode("utf-8"), regions


def _release_notebook(raw: bytes, rel: str) -> tuple[bytes, list[Region], int]:
    notebook = json.loads(raw)
    regions: list[Region] = []
    exercises = 0
    for number, cell in enumerate(notebook["cells"], start=1):
        source = _cell_source(cell)
        stub = CODE_STUB if cell["cell_type"] == "code" else TEXT_STUB
        stripped, cell_regions = strip_solutions(source, stub, f"{rel} cell {number}")
        if cell_regions:
            exercises += 1
            regions.extend(cell_regions)
            cell["source"] = stripped.splitlines(keepends=True)
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        # nbclient's timestamps would say when the instructor ran the notebook.
        cell.get("metadata", {}).pop("execution", None)
    return notebook_json(notebook).encode("utf-8"), regions, exercises


def notebook_json(notebook: dict) -> str:
    """The notebook as nbformat writes it, so that a later save by Jupyter changes little."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False, separators=(",", ": ")) + "\n"


def _gitignore_for(text: str, files: dict[str, bytes]) -> str:
    """Drop the patterns that would keep a shipped file out of the student's repository."""
    kept = []
    for line in text.splitlines():
        pattern = line.strip().rstrip("/").lstrip("/")
        if pattern and not pattern.startswith(("#", "!")) and any(_ignores(pattern, rel) for rel in files):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def _ignores(pattern: str, rel: str) -> bool:
    parts = rel.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    if "/" in pattern:
        return any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
    return any(fnmatch.fnmatch(part, pattern) for part in parts)


def _as_text(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


@dataclass(frozen=True)
class Passage:
    """Text a student can read in the edition: a file, or one cell of a notebook."""

    path: str
    text: str
    lesson: int | None = None  # the lesson the file belongs to (see _lesson_of)
    cell: int | None = None  # 1-based, for a notebook cell
    code: bool = False  # a Python file or a notebook code cell


def _passages(rel: str, raw: bytes, lessons: bool = True) -> list[Passage]:
    """The text of a file, cell by cell for a notebook (its strings unescaped)."""
    text = _as_text(raw)
    if text is None:
        return []
    lesson = _lesson_of(rel, text) if lessons else None
    if rel.endswith(".ipynb"):
        try:
            notebook = json.loads(text)
            cells = notebook.pop("cells")
            return [
                Passage(rel, "\n".join(_strings(cell)), lesson, number, cell.get("cell_type") == "code")
                for number, cell in enumerate(cells, start=1)
            ] + [Passage(rel, "\n".join(_strings(notebook)), lesson)]
        except (json.JSONDecodeError, AttributeError, KeyError, TypeError):
            pass  # not a notebook after all: searched as plain text
    return [Passage(rel, text, lesson, code=rel.endswith(".py"))]


def _lesson_of(rel: str, text: str) -> int | None:
    """The lesson of a notebook (``NN_name.ipynb``) or of a module whose docstring starts "Lesson NN".

    >>> _lesson_of("notebooks/03_modified_precision.ipynb", "{}"), _lesson_of("bleu_scratch/x.py", "'''Lesson 05: ...'''")
    (3, 5)
    """
    if rel.endswith(".ipynb"):
        match = re.match(r"(\d+)_", rel.rsplit("/", 1)[-1])
    elif rel.endswith(".py"):
        match = re.match(r'\s*(?:"""|\'\'\')\s*Lesson (\d+)', text)
    else:
        return None
    return int(match.group(1)) if match else None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        # A notebook stores a cell's source as a list of lines.
        if all(isinstance(item, str) for item in value):
            yield "".join(value)
        else:
            for item in value:
                yield from _strings(item)


def _normalize(line: str) -> str:
    return " ".join(line.split())


def _searched(line: str) -> str:
    """A solution line as the leak check looks for it: spacing normalized, a trailing comment cut.

    >>> _searched("    total  = 0  # start")
    'total = 0'
    """
    return _normalize(line).split(" # ")[0]


def _distinctive(line: str) -> bool:
    """Whether a solution line (as ``_searched``) gives something away alone.

    Short lines are everywhere (``return p_n``, ``)``); so are lines that only
    open a block or a bracket (``for n in range(1, max_n + 1):``,
    ``return bleu_from_stats(``), whose content is in the lines after them.

    >>> [_distinctive(line) for line in ["return p_n", "for n in range(1, max_n + 1):", "return sum(x * x for x in values)"]]
    [False, False, True]
    """
    return len(line) >= MIN_LEAK_CHARS and not line.startswith("#") and not line.endswith((":", "(", "[", "{"))


def find_leaks(passages: list[Passage], regions: list[Region]) -> list[str]:
    """Where ``passages`` show a line of a solution in ``regions``; one line is enough.

    Each distinctive line (``_distinctive``) is searched for, spacing ignored:
    ``ngrams``'s whole answer is one line. A line the lessons run before the
    exercise is no secret, though: one in the code of an earlier lesson (its
    module or a notebook code cell), or in an earlier code cell of the
    exercise's own notebook. Text (Markdown, data files) never counts as taught.

    >>> region = Region("lesson.py", 3, ["    total = sum(x * x for x in values)  # squares", "    return total"])
    >>> find_leaks([Passage("notes.md", "Hint:\\n`total = sum(x * x  for x in values)`")], [region])
    ['lesson.py:4: `total = sum(x * x for x in values)` can be read at notes.md:2']
    >>> intro = Passage("00_intro.ipynb", "total = sum(x * x for x in values)", lesson=0, cell=3, code=True)
    >>> find_leaks([intro], [region])  # lesson.py is no lesson: nothing comes before it
    ['lesson.py:4: `total = sum(x * x for x in values)` can be read at 00_intro.ipynb cell 3']
    >>> find_leaks([Passage("lesson.py", "", lesson=2), intro], [region])
    []
    """
    # One text for all passages, so that each solution line is searched once.
    starts, chunks, at = [], [], 0
    for passage in passages:
        chunk = "\n".join(_normalize(line) for line in passage.text.splitlines()) + "\n\x00\n"
        starts.append(at)
        chunks.append(chunk)
        at += len(chunk)
    everything = "".join(chunks)
    starts.append(at)
    lessons = {passage.path: passage.lesson for passage in passages}
    leaks = []
    for region in regions:
        path, cell = region.place
        lesson = lessons.get(path)
        for offset, raw_line in enumerate(region.lines, start=1):
            line = _searched(raw_line)
            if not _distinctive(line):
                continue
            hits = []  # (passage index, offset of the hit): the first hit in each passage
            hit = everything.find(line)
            while hit >= 0:
                index = bisect.bisect_right(starts, hit) - 1
                hits.append((index, hit))
                hit = everything.find(line, starts[index + 1])
            if hits and not any(_taught_before(passages[i], path, cell, lesson) for i, _ in hits):
                index, hit = hits[0]
                shown = passages[index]
                at_line = everything.count("\n", starts[index], hit) + 1
                place = f"{shown.path} cell {shown.cell}" if shown.cell else f"{shown.path}:{at_line}"
                leaks.append(f"{region.where}:{region.line + offset}: `{line}` can be read at {place}")
    return leaks


def _taught_before(shown: Passage, path: str, cell: int | None, lesson: int | None) -> bool:
    """Whether the code ``shown`` runs before the exercise in ``path`` (at ``cell``, in a notebook) of ``lesson``."""
    if not shown.code:
        return False
    if lesson is not None and shown.lesson is not None and shown.lesson < lesson:
        return True
    return shown.path == path and cell is not None and shown.cell is not None and shown.cell < cell


def student_readme(edition: Edition) -> str:
    """The edition's README.md, from the template ``student_README.md``."""
    graded = {unit.name: unit for unit in UNITS}
    rows = []
    for module, functions in edition.stubbed.items():
        # A lesson module's docstring starts "Lesson NN: ..."; the table follows the lessons.
        lesson = _lesson_of(module, edition.files[module].decode("utf-8"))
        number = f"{lesson:02d}" if lesson is not None else ""
        for position, name in enumerate(functions):
            unit = graded.get(name)
            exercise = unit.exercise if unit else f"{number} (not graded)".strip()
            points = str(unit.points) if unit else "-"
            rows.append(((number or "99", module, position), f"| {exercise} | `{module}` | `{name}` | {points} |"))
    notebooks = [
        f"- `{rel}`: {count} exercise cell{'s' if count > 1 else ''}"
        for rel, count in sorted(edition.notebook_exercises.items())
    ]
    return Template(STUDENT_README.read_text(encoding="utf-8")).substitute(
        exercise_table="\n".join(row for _, row in sorted(rows)),
        notebook_list="\n".join(notebooks) or "- (no notebook has an exercise cell yet)",
        example_notebook=min(edition.notebook_exercises, default="notebooks/01_name.ipynb"),
        max_score=sum(unit.points for unit in UNITS),
        timeout=f"{DEFAULT_TIMEOUT:g}",
        memory_mb=DEFAULT_MEMORY_MB,
    )


# ---------------------------------------------------------------------------
# nbgrader metadata
# ---------------------------------------------------------------------------

# nbgrader 0.9 reads and writes version 3 of its cell metadata (nbgraderformat/v3.json).
NBGRADER_SCHEMA = 3
CHECK_POINTS = 1
# The grade_ids this tool gives; a cell that carries one but is no longer an
# exercise or its check lost its exercise, and its metadata goes with it.
OUR_GRADE_ID = re.compile(r"exercise_\d+(_check)?$")


def nbgrader_cell(kind: str, grade_id: str, points: float = CHECK_POINTS) -> dict:
    """nbgrader's metadata for an exercise cell ("solution"), its check ("check") or a written answer ("answer").

    A solution cell is what the student edits; nbgrader stubs its marked
    region. A check cell is a read-only autograder test worth ``points``. A
    Markdown answer is graded by hand, so nbgrader wants it to be a solution
    and a grade cell at once.

    >>> nbgrader_cell("check", "exercise_1_check")
    {'grade': True, 'grade_id': 'exercise_1_check', 'locked': True, 'points': 1, 'schema_version': 3, 'solution': False}
    """
    grade, solution, locked = {"solution": (False, True, False), "check": (True, False, True), "answer": (True, True, False)}[kind]
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": NBGRADER_SCHEMA, "solution": solution}
    if grade:
        meta["points"] = points
    return dict(sorted(meta.items()))


def tag_nbgrader(notebook: dict, where: str = "<notebook>") -> int:
    """Tag each marked cell of ``notebook`` and its check cell for nbgrader, in place; return the number of exercises.

    nbgrader stubs a solution region only in a cell whose metadata says it is a
    solution cell, and stops otherwise (``ClearSolutions.enforce_metadata``).
    The check cell is the next code cell, which must assert something. Points
    an instructor has set on a cell are kept; grade_ids follow the exercises'
    order (``exercise_1``, ``exercise_1_check``, ...). Sources and outputs are
    not touched, so tagging twice changes nothing.

    >>> notebook = {"cells": [
    ...     {"cell_type": "code", "metadata": {}, "source": ["x = 1\\n", "### BEGIN SOLUTION\\n", "y = 2\\n", "### END SOLUTION"]},
    ...     {"cell_type": "markdown", "metadata": {}, "source": ["Check:"]},
    ...     {"cell_type": "code", "metadata": {}, "source": ["assert y == 2"]},
    ... ]}
    >>> tag_nbgrader(notebook)
    1
    >>> [cell["metadata"].get("nbgrader", {}).get("grade_id") for cell in notebook["cells"]]
    ['exercise_1', None, 'exercise_1_check']
    """
    cells = notebook["cells"]
    marked = [index for index, cell in enumerate(cells) if _nbgrader_marked(cell, f"{where} cell {index + 1}")]
    tags: dict[int, dict] = {}
    for number, index in enumerate(marked, start=1):
        name = f"exercise_{number}"
        if cells[index]["cell_type"] != "code":
            tags[index] = nbgrader_cell("answer", name, _points(cells[index]))
            continue
        tags[index] = nbgrader_cell("solution", name)
        check = next((i for i in range(index + 1, len(cells)) if cells[i]["cell_type"] == "code"), None)
        if check is None or check in marked or "assert" not in _cell_source(cells[check]):
            raise ClassroomError(f"{where} cell {index + 1}: the next code cell must be the exercise's check (an assert)")
        tags[check] = nbgrader_cell("check", f"{name}_check", _points(cells[check]))
    for index, cell in enumerate(cells):
        if index in tags:
            cell.setdefault("metadata", {})["nbgrader"] = tags[index]
        elif OUR_GRADE_ID.match(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")):
            del cell["metadata"]["nbgrader"]
    seen: set[str] = set()
    for index, cell in enumerate(cells, start=1):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade") or meta.get("solution") or meta.get("locked"):
            if meta.get("grade_id") in seen:
                raise ClassroomError(f"{where} cell {index}: grade_id {meta.get('grade_id')!r} is used twice; nbgrader needs unique ids")
            seen.add(meta.get("grade_id"))
    return len(marked)


def tag_nbgrader_dir(directory: Path) -> list[tuple[str, int, bool]]:
    """Tag every notebook in ``directory``; return (name, exercises, changed) for each."""
    paths = sorted(directory.glob("*.ipynb"))
    if not paths:
        raise ClassroomError(f"no notebooks (*.ipynb) in {directory}")
    results = []
    for path in paths:
        raw = path.read_text(encoding="utf-8")
        notebook = json.loads(raw)
        exercises = tag_nbgrader(notebook, path.name)
        text = notebook_json(notebook)
        if text != raw:
            path.write_text(text, encoding="utf-8")
        results.append((path.name, exercises, text != raw))
    return results


def _cell_source(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _points(cell: dict) -> float:
    return cell.get("metadata", {}).get("nbgrader", {}).get("points", CHECK_POINTS)


def _nbgrader_marked(cell: dict, where: str) -> bool:
    """Whether nbgrader sees a solution region in ``cell``; an error where nbgrader and ``release`` would disagree."""
    source = _cell_source(cell)
    _, regions = strip_solutions(source, CODE_STUB, where)
    for number, line in enumerate(source.splitlines(), start=1):
        # nbgrader takes any line that names a marker for one, even a line of a string.
        if ("BEGIN SOLUTION" in line or "END SOLUTION" in line) and line.strip() not in (BEGIN, END):
            raise ClassroomError(f"{where}:{number}: nbgrader would read {line.strip()!r} as a solution marker")
    return bool(regions)


# ---------------------------------------------------------------------------
# Grading: the graded functions and their cases
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One function a student writes, worth ``points`` when every case agrees with NLTK."""

    exercise: str
    module: str  # bleu_scratch.<module> defines the function
    name: str
    points: int
    entry: str = ""  # the function the cases call, when it is not the unit itself

    @property
    def call(self) -> str:
        return self.entry or self.name


UNITS = (
    Unit("01 n-grams", "ngrams", "ngrams", 2),
    Unit("01 n-grams", "ngrams", "count_ngrams", 1),
    Unit("02 clipping", "clipping", "max_reference_counts", 2),
    Unit("02 clipping", "clipping", "clipped_counts", 2),
    Unit("03 modified precision", "precision", "modified_precision", 3),
    Unit("04 brevity penalty", "brevity", "closest_ref_length", 2),
    Unit("04 brevity penalty", "brevity", "brevity_penalty", 2),
    Unit("05 sentence score", "sentence", "sentence_stats", 3),
    # The weighted geometric mean is what turns statistics into the score;
    # it is checked through sentence_bleu, which NLTK has and can answer.
    Unit("05 sentence score", "sentence", "geometric_mean_score", 2, entry="sentence_bleu"),
    Unit("06 corpus score", "corpus", "corpus_stats", 2),
    Unit("06 corpus score", "corpus", "corpus_bleu", 3),
)

# Papineni et al. (2002), Example 1: two candidates and three references.
CANDIDATE_1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
REFERENCES_1 = [
    "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    "It is the guiding principle which guarantees the military forces always being under the command of the Party".split(),
    "It is the practical guide for the army always to heed the directions of the party".split(),
]
# Example 2: modified precision clips the seven "the"s to two.
CANDIDATE_THE = "the the the the the the the".split()
REFERENCES_CAT = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
CAT = "the cat sat on the mat".split()


@dataclass(frozen=True)
class Smoothing:
    """An argument that stands for ``SmoothingFunction().<method>`` of the package being called."""

    method: str


def grading_cases(oracle: NltkOracle) -> dict[str, list[tuple[tuple, Any]]]:
    """Each graded function's cases: (arguments, NLTK's answer)."""
    bleu = oracle.bleu
    cases: dict[str, list[tuple[tuple, Any]]] = {}
    cases["ngrams"] = [
        ((tokens, n), oracle.ngrams(tokens, n))
        for tokens, n in [
            (CANDIDATE_1, 1), (CANDIDATE_1, 4), (["the", "cat", "sat"], 3), (["the"], 2), ([], 1), (CANDIDATE_THE, 2),
        ]
    ]
    cases["count_ngrams"] = [
        ((tokens, n), oracle.count_ngrams(tokens, n))
        for tokens, n in [(REFERENCES_1[0], 1), (CANDIDATE_THE, 1), (CANDIDATE_THE, 3), (CANDIDATE_1, 2), (["a"], 2), ([], 1)]
    ]
    cases["max_reference_counts"] = [
        ((references, n), oracle.max_reference_counts(references, n))
        for references, n in [
            (REFERENCES_CAT, 1), (REFERENCES_CAT, 2), (REFERENCES_1, 1), (REFERENCES_1, 3),
            ([["the", "cat"], []], 1), ([["a", "b"]], 3),
        ]
    ]
    cases["clipped_counts"] = [
        ((oracle.count_ngrams(hypothesis, n), oracle.max_reference_counts(references, n)),
         oracle.clipped_counts(references, hypothesis, n))
        for references, hypothesis, n in [
            (REFERENCES_CAT, CANDIDATE_THE, 1), (REFERENCES_CAT, CANDIDATE_THE, 2), (REFERENCES_1, CANDIDATE_1, 1),
            (REFERENCES_1, CANDIDATE_2, 2), ([[]], ["a", "b"], 1),
        ]
    ]
    cases["modified_precision"] = [
        ((references, hypothesis, n), bleu.modified_precision(references, hypothesis, n))
        for references, hypothesis, n in [
            (REFERENCES_CAT, CANDIDATE_THE, 1), (REFERENCES_CAT, CANDIDATE_THE, 2), (REFERENCES_1, CANDIDATE_1, 1),
            (REFERENCES_1, CANDIDATE_1, 2), (REFERENCES_1, CANDIDATE_1, 4), (REFERENCES_1, CANDIDATE_2, 1),
            (REFERENCES_CAT, ["the"], 2), ([[]], [], 1),
            ([["a", "a", "b"], ["a", "b", "b"]], ["a", "b", "b", "a", "a"], 1),
        ]
    ]
    cases["closest_ref_length"] = [
        ((references, hyp_len), bleu.closest_ref_length(references, hyp_len))
        for references, hyp_len in [
            ([["a"] * 10, ["a"] * 14], 12), ([["a"] * 10, ["a"] * 14], 13), ([["a"] * 14, ["a"] * 10], 12),
            (REFERENCES_1, len(CANDIDATE_1)), (REFERENCES_1, 2), ([[]], 3), ([["a"] * 5], 0),
        ]
    ]
    cases["brevity_penalty"] = [
        ((closest_ref_len, hyp_len), bleu.brevity_penalty(closest_ref_len, hyp_len))
        for closest_ref_len, hyp_len in [(10, 12), (10, 10), (10, 5), (10, 0), (0, 0), (18, 17), (16, 2), (3, 1)]
    ]
    sentence_pairs = [
        (REFERENCES_1, CANDIDATE_1, 4), (REFERENCES_1, CANDIDATE_2, 4), (REFERENCES_CAT, CANDIDATE_THE, 4),
        (REFERENCES_CAT, ["the", "cat"], 4), ([["a", "b", "c"]], [], 2), (REFERENCES_CAT, CAT, 2),
    ]
    cases["sentence_stats"] = [
        ((references, hypothesis, max_n), oracle.stats(oracle.sentence_stats(references, hypothesis, max_n)))
        for references, hypothesis, max_n in sentence_pairs
    ]
    nltk_smoothing = oracle.bleu.SmoothingFunction()
    sentence_bleu_args = [
        (REFERENCES_1, CANDIDATE_1),
        (REFERENCES_1, CANDIDATE_2, (0.5, 0.5)),
        (REFERENCES_1, CANDIDATE_2),  # no trigram match: NLTK's tiny score
        (REFERENCES_CAT, CAT, (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
        (REFERENCES_1, CANDIDATE_1, [(1.0,), (0.5, 0.5), (0.25, 0.25, 0.25, 0.25)]),
        (REFERENCES_CAT, ["the", "cat", "is"], (0.25, 0.25, 0.25, 0.25), None, True),
        (REFERENCES_CAT, CANDIDATE_THE, (0.7, 0.3), Smoothing("method3")),
        # Method 4 leaves the zero precisions of a one-token hypothesis: the mean must skip them.
        (REFERENCES_CAT, ["the"], (0.25, 0.25, 0.25, 0.25), Smoothing("method4")),
        # Here sum() and NLTK's math.fsum() of the weighted logs differ in the last bit.
        (REFERENCES_1, "which ensures that the military".split()),
    ]
    cases["geometric_mean_score"] = [
        (args, bleu.sentence_bleu(*oracle.resolve(args, nltk_smoothing))) for args in sentence_bleu_args
    ]
    corpora = [
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_THE], 4),
        ([[["a", "b", "c"]], REFERENCES_CAT], [["a"], CAT], 4),
        ([REFERENCES_1, REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_2, CAT], 2),
    ]
    cases["corpus_stats"] = [
        ((list_of_references, hypotheses, max_n), oracle.stats(oracle.corpus_stats(list_of_references, hypotheses, max_n)))
        for list_of_references, hypotheses, max_n in corpora
    ]
    corpus_bleu_args = [
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_THE]),
        ([REFERENCES_1, REFERENCES_1], [CANDIDATE_1, CANDIDATE_2], (0.5, 0.5)),
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CAT], [(1.0,), (0.5, 0.5)]),
        # Methods 4 and 5 read the corpus's last sentence pair, as NLTK's do.
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_2, ["the", "cat"]], (0.25, 0.25, 0.25, 0.25), Smoothing("method4")),
        ([REFERENCES_CAT, REFERENCES_1], [["the", "cat"], CANDIDATE_2], (0.25, 0.25, 0.25, 0.25), Smoothing("method5")),
        # Only the last hypothesis has a 5-gram match, which method 5 reads.
        ([REFERENCES_CAT, REFERENCES_1], [CAT, CANDIDATE_1], (0.25, 0.25, 0.25, 0.25), Smoothing("method5")),
        ([[["a", "b", "c"]], REFERENCES_CAT], [["a"], CAT], (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
    ]
    cases["corpus_bleu"] = [
        (args, bleu.corpus_bleu(*oracle.resolve(args, nltk_smoothing))) for args in corpus_bleu_args
    ]
    return cases


class NltkOracle:
    """NLTK 3.10.4's answers, and the quantities the grader derives from them.

    NLTK is imported on first use (a third of a second or more): a function
    that only raises NotImplementedError is graded without it. ``on_load`` is
    told "start" and "end" around the import, so that the grader does not count
    that time against the student's function.
    """

    def __init__(self, on_load: Callable[[str], None] | None = None) -> None:
        self._on_load = on_load
        self._nltk: tuple | None = None

    def _load(self) -> tuple:
        if self._nltk is None:
            if self._on_load:
                self._on_load("start")
            try:
                import nltk
                from nltk.translate import bleu_score
                from nltk.util import ngrams
            except ImportError:
                raise ClassroomError("grading compares with NLTK, which is not installed: pip install -r requirements.txt") from None
            if nltk.__version__ != NLTK_VERSION:
                raise ClassroomError(
                    f"the grader's answers are NLTK {NLTK_VERSION}'s, but NLTK {nltk.__version__} is installed: "
                    f"pip install nltk=={NLTK_VERSION}"
                )
            self._nltk = (bleu_score, ngrams)
            if self._on_load:
                self._on_load("end")
        return self._nltk

    @property
    def bleu(self) -> Any:
        """The module nltk.translate.bleu_score."""
        return self._load()[0]

    def _ngrams(self, tokens: list, n: int) -> Iterator[tuple]:
        return self._load()[1](tokens, n)

    def ngrams(self, tokens: list, n: int) -> list:
        return list(self._ngrams(tokens, n))

    def count_ngrams(self, tokens: list, n: int) -> Counter:
        return Counter(self._ngrams(tokens, n))

    def clipped_count(self, references: list, ngram: tuple, copies: int) -> int:
        """NLTK's clipped count of ``ngram`` in a hypothesis that says it ``copies`` times.

        The copies are separated by a token that no reference contains, so no
        other n-gram of that hypothesis can match: NLTK's numerator is then
        min(copies, the most times one reference says ``ngram``).
        """
        separator = "\x00" + "\x00".join(str(len(r)) for r in references)  # in no reference: no NUL in tokens
        hypothesis = [token for _ in range(copies) for token in (*ngram, separator)]
        return self.bleu.modified_precision(references, hypothesis, len(ngram)).numerator

    def max_reference_counts(self, references: list, n: int) -> Counter:
        # No reference says an n-gram more often than it has tokens.
        copies = 1 + max(len(reference) for reference in references)
        every_ngram = {ngram for reference in references for ngram in self._ngrams(reference, n)}
        return Counter({ngram: self.clipped_count(references, ngram, copies) for ngram in every_ngram})

    def clipped_counts(self, references: list, hypothesis: list, n: int) -> Counter:
        return Counter({
            ngram: self.clipped_count(references, ngram, count) for ngram, count in self.count_ngrams(hypothesis, n).items()
        })

    def sentence_stats(self, references: list, hypothesis: list, max_n: int) -> dict:
        """BleuStats's fields for one pair, from NLTK's modified precisions and closest length."""
        totals = [len(self.ngrams(hypothesis, n)) for n in range(1, max_n + 1)]
        return {
            "hyp_len": len(hypothesis),
            "ref_len": self.bleu.closest_ref_length(references, len(hypothesis)),
            "matches": tuple(self.bleu.modified_precision(references, hypothesis, n).numerator for n in range(1, max_n + 1)),
            "totals": tuple(totals),
            "too_short": tuple(int(len(hypothesis) < n) for n in range(1, max_n + 1)),
        }

    def corpus_stats(self, list_of_references: list, hypotheses: list, max_n: int) -> dict:
        pairs = [self.sentence_stats(refs, hyp, max_n) for refs, hyp in zip(list_of_references, hypotheses)]
        return {
            field: (sum(p[field] for p in pairs) if field in ("hyp_len", "ref_len") else tuple(map(sum, zip(*(p[field] for p in pairs)))))
            for field in pairs[0]
        }

    @staticmethod
    def stats(fields: dict) -> StatsAnswer:
        return StatsAnswer(fields)

    @staticmethod
    def resolve(args: tuple, smoothing: Any) -> tuple:
        return tuple(getattr(smoothing, arg.method) if isinstance(arg, Smoothing) else arg for arg in args)


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
    return ["object", type(value).__name__, _clip(repr(value))]


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


def _clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------
# Grading: the process that runs the student's code
# ---------------------------------------------------------------------------

# Loads this file under its own name, so that the grader's code comes from here
# while `import bleu_scratch` finds the student's package through PYTHONPATH.
CHILD_BOOTSTRAP = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('_bleu_scratch_grader', sys.argv[1])\n"
    "grader = importlib.util.module_from_spec(spec)\n"
    "sys.modules[spec.name] = grader\n"
    "spec.loader.exec_module(grader)\n"
    "grader.child_main(sys.argv[2])\n"
)


def child_main(job_path: str) -> None:
    """Run the graded functions listed in the job file; report on a private copy of stdout."""
    report_stream = os.fdopen(os.dup(1), "w", buffering=1)
    # The student's prints go to stderr, so they cannot garble the report.
    os.dup2(2, 1)

    def report(**event: Any) -> None:
        report_stream.write(json.dumps(event) + "\n")

    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    _limit_memory(job["memory_mb"])
    oracle = NltkOracle(on_load=lambda stage: report(event=f"oracle-{stage}"))
    report(event="ready")
    try:
        package = {"": importlib.import_module("bleu_scratch")}
        # smoothing is not an exercise, but the score functions take its methods.
        for module in [unit.module for unit in UNITS] + ["smoothing"]:
            package[module] = importlib.import_module(f"bleu_scratch.{module}")
    except BaseException as error:  # noqa: BLE001 (a student's package may fail in any way)
        report(event="import-failed", error=_describe(error))
        return
    outside = [
        f"{name}: {module.__file__}" for name, module in sys.modules.items()
        if name.split(".")[0] == "bleu_scratch" and not Path(module.__file__ or "").resolve().is_relative_to(Path(job["package_dir"]).resolve())
    ]
    report(event="imported", file=package[""].__file__, outside=outside)
    standins = _standins(oracle, package)
    units = {unit.name: unit for unit in UNITS}
    for name in job["units"]:
        unit = units[name]
        report(event="start", unit=name)
        results = _run_unit(unit, job["cases"][name], package, standins, lambda index: report(event="case", unit=name, index=index))
        report(event="done", unit=name, results=results)


def _limit_memory(memory_mb: int) -> None:
    """Make an allocation past ``memory_mb`` MB raise MemoryError, so that a runaway list costs points, not the machine.

    Where the system cannot limit address space (Windows has no ``resource``
    module, and macOS may not enforce the limit), grading goes on without it.
    """
    try:
        import resource
    except ImportError:
        return
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        except (ValueError, OSError):
            pass  # above the hard limit already set, or not supported


def _run_unit(
    unit: Unit, cases: list, package: dict, standins: dict[str, Callable], on_case: Callable[[int], None] = lambda index: None
) -> list:
    """Call the unit on each case with every other graded function replaced by its stand-in; ``on_case`` is told each case's index."""
    replaced = []
    for other in UNITS:
        original = getattr(package[other.module], other.name, None)
        if other.name == unit.name or other.name not in standins or original is None:
            continue
        # Each `from .x import f` made its own global name for f: replace them all.
        for module_name, module in list(sys.modules.items()):
            if module_name.split(".")[0] == "bleu_scratch":
                for attribute, value in list(vars(module).items()):
                    if value is original:
                        replaced.append((module, attribute, value))
                        setattr(module, attribute, standins[other.name])
    smoothing_class = getattr(package["smoothing"], "SmoothingFunction", None)
    results = []
    try:
        function = getattr(package[unit.module], unit.call, None)
        for index, args in enumerate(cases):
            on_case(index)
            if function is None:
                results.append(["missing", f"bleu_scratch.{unit.module} has no function {unit.call}"])
                continue
            # Code that fills the memory leaves none to report it with: this much is set aside.
            reserve = bytearray(16 << 20)
            try:
                arguments = [from_plain(arg, smoothing_class() if smoothing_class else None) for arg in args]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    results.append(["ok", to_plain(function(*arguments))])
            except Exception as error:  # noqa: BLE001
                if isinstance(error, MemoryError):
                    del reserve
                    # The student's local variables hold what filled the memory.
                    traceback.clear_frames(error.__traceback__)
                results.append(["raised", type(error).__name__, _clip(str(error), 160), _where(error)])
                if isinstance(error, MemoryError):
                    break  # the unit has failed; its other cases would fill the memory again
    finally:
        for module, attribute, value in reversed(replaced):
            setattr(module, attribute, value)
    return results


def _standins(oracle: NltkOracle, package: dict) -> dict[str, Callable]:
    """Functions that answer as the lessons should, built on NLTK and the package's own classes."""
    precision_class = getattr(package["precision"], "Precision", None)
    stats_class = getattr(package["sentence"], "BleuStats", None)

    def clipped_counts(hypothesis_counts: Counter, max_ref_counts: Counter) -> Counter:
        # NLTK clips against references: one that says each n-gram its maximum
        # number of times, the copies kept apart by a token no hypothesis has.
        apart = object()
        reference = [token for ngram, count in max_ref_counts.items() for _ in range(count) for token in (*ngram, apart)]
        return Counter({
            ngram: oracle.clipped_count([reference], ngram, count) for ngram, count in hypothesis_counts.items()
        })

    def modified_precision(references: list, hypothesis: list, n: int) -> Any:
        p = oracle.bleu.modified_precision(references, hypothesis, n)
        return precision_class(p.numerator, p.denominator)

    def sentence_stats(references: list, hypothesis: list, max_n: int = 4) -> Any:
        return stats_class(**oracle.sentence_stats(references, hypothesis, max_n))

    def geometric_mean_score(p_n: list, weights: tuple, bp: float) -> float:
        # NLTK's corpus_bleu ends with this mean. On a hypothesis longer than
        # its reference (NLTK's brevity penalty is the int 1) with a unigram
        # match, and a "smoothing" that hands it p_n, it returns 1 * the mean.
        mean = oracle.bleu.corpus_bleu([[["a"]]], [["a", "a"]], weights, lambda *args, **kwargs: p_n)
        return bp * mean

    def corpus_stats(list_of_references: list, hypotheses: list, max_n: int = 4) -> Any:
        return stats_class(**oracle.corpus_stats(list_of_references, hypotheses, max_n))

    def closest_ref_length(references: list, hyp_len: int) -> int:
        return oracle.bleu.closest_ref_length(references, hyp_len)

    def brevity_penalty(closest_ref_len: int, hyp_len: int) -> Any:
        return oracle.bleu.brevity_penalty(closest_ref_len, hyp_len)

    return {
        "ngrams": oracle.ngrams,
        "count_ngrams": oracle.count_ngrams,
        "max_reference_counts": oracle.max_reference_counts,
        "clipped_counts": clipped_counts,
        "modified_precision": modified_precision,
        "closest_ref_length": closest_ref_length,
        "brevity_penalty": brevity_penalty,
        "sentence_stats": sentence_stats,
        "geometric_mean_score": geometric_mean_score,
        "corpus_stats": corpus_stats,
    }


def _describe(error: BaseException) -> str:
    where = _where(error)
    return f"{type(error).__name__}: {_clip(str(error), 160)}" + (f" ({where})" if where else "")


def _where(error: BaseException) -> str:
    """The innermost line of the student's package in the traceback, e.g. 'ngrams.py:25 in ngrams'."""
    frames = [
        frame for frame in traceback.extract_tb(error.__traceback__)
        if "bleu_scratch" in Path(frame.filename).parts and not frame.filename.endswith("classroom.py")
    ]
    if isinstance(error, SyntaxError) and error.filename:
        return f"{Path(error.filename).name}:{error.lineno}"
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""


# ---------------------------------------------------------------------------
# Grading: the grader's side
# ---------------------------------------------------------------------------


@dataclass
class Mark:
    """The grade of one unit."""

    unit: Unit
    points: int
    reason: str  # empty when full marks

    def as_dict(self) -> dict:
        return {
            "exercise": self.unit.exercise,
            "function": self.unit.name,
            "module": f"bleu_scratch/{self.unit.module}.py",
            "points": self.points,
            "max_points": self.unit.points,
            "reason": self.reason,
        }


@dataclass
class Report:
    directory: str
    package: str
    marks: list[Mark]
    seconds: float

    @property
    def score(self) -> int:
        return sum(mark.points for mark in self.marks)

    @property
    def max_score(self) -> int:
        return sum(mark.unit.points for mark in self.marks)

    def as_dict(self) -> dict:
        return {
            "directory": self.directory,
            "package": self.package,
            "exercises": [mark.as_dict() for mark in self.marks],
            "score": self.score,
            "max_score": self.max_score,
            "seconds": round(self.seconds, 2),
        }

    def table(self) -> str:
        rows = [("exercise", "function", "points", "")]
        previous = None
        for mark in self.marks:
            exercise = mark.unit.exercise if mark.unit.exercise != previous else ""
            previous = mark.unit.exercise
            rows.append((exercise, mark.unit.name, f"{mark.points}/{mark.unit.points}", mark.reason or "ok"))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = [f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:>{widths[2]}}  {d}".rstrip() for a, b, c, d in rows]
        lines.append(f"score: {self.score}/{self.max_score}")
        return "\n".join(lines)


def select_units(only: list[str] | None) -> list[Unit]:
    """The units named by ``--only``: a function name, or an exercise by number or name.

    >>> [unit.name for unit in select_units(["04"])]
    ['closest_ref_length', 'brevity_penalty']
    """
    if not only:
        return list(UNITS)
    chosen = [
        unit for unit in UNITS
        if any(key in (unit.name, unit.exercise, unit.exercise.split()[0], unit.exercise.split(" ", 1)[1]) for key in only)
    ]
    if not chosen:
        names = ", ".join(unit.name for unit in UNITS)
        raise ClassroomError(f"--only {' '.join(only)} names no exercise; use an exercise number (01-06) or one of: {names}")
    return chosen


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
    command = [sys.executable, "-c", CHILD_BOOTSTRAP, str(Path(__file__).resolve()), str(job_path)]
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
                            detail = f": {_clip(last[-1], 160)}" if last else ""
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
    return f"{unit.call}({', '.join(_clip(show(arg), 28) for arg in plain_args)})"


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
            misses.append(f"{call} returned {_clip(show(result[1]), 60)}, NLTK gives {_clip(show(want), 60)}")
    if not misses:
        return Mark(unit, unit.points, "")
    return Mark(unit, 0, f"{len(misses)} of {len(detail)} cases differ from NLTK; first: {misses[0]}")


# ---------------------------------------------------------------------------
# Tests in the student edition
# ---------------------------------------------------------------------------


def unwritten_exercise(error: BaseException) -> str | None:
    """Why a test that raised ``error`` has not failed: it reached an exercise not written yet; else None.

    That is, the ``raise NotImplementedError()`` that ``release`` puts in a
    lesson function raised it. The edition's conftest.py (written from
    tests/student_conftest.py) reports such a test as skipped, and
    tests/conftest.py's ``run`` lets such an error through instead of recording
    it. In a group (Hypothesis reports the distinct errors it found as one)
    every error must be a stub's: a wrong answer beside a stub still fails.

    >>> unwritten_exercise(NotImplementedError()) is None  # never raised, so not by a stub
    True
    """
    if isinstance(error, BaseExceptionGroup):
        reasons = [unwritten_exercise(inner) for inner in error.exceptions]
        return reasons[0] if all(reasons) else None
    if type(error) is not NotImplementedError or error.__traceback__ is None:
        return None
    innermost = error.__traceback__
    while innermost.tb_next is not None:
        innermost = innermost.tb_next
    frame = innermost.tb_frame
    module = frame.f_globals.get("__name__", "")
    line = linecache.getline(frame.f_code.co_filename, innermost.tb_lineno).strip()
    if not module.startswith("bleu_scratch.") or line != CODE_STUB[-1]:
        return None
    return exercise_not_written(module, frame.f_code.co_name)


def exercise_not_written(module: str, function: str) -> str:
    """What a skipped test says about ``function`` of ``module``, an exercise not written yet.

    >>> exercise_not_written("bleu_scratch.clipping", "clipped_counts")
    "bleu_scratch.clipped_counts is lesson 02's exercise: not written yet (bleu_scratch/clipping.py)"
    """
    lesson = re.match(r"\s*Lesson (\d+)", importlib.import_module(module).__doc__ or "")
    which = f"lesson {lesson.group(1)}'s exercise" if lesson else "an exercise"
    return f"bleu_scratch.{function} is {which}: not written yet ({module.replace('.', '/')}.py)"


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bleu_scratch.classroom", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    release_parser = commands.add_parser("release", help="write the student edition (solutions replaced by stubs)")
    release_parser.add_argument("out_dir", type=Path)
    release_parser.add_argument("--force", action="store_true", help="write into a non-empty directory")
    grade_parser = commands.add_parser("grade", help="grade the bleu_scratch package of a student edition")
    grade_parser.add_argument("directory", type=Path, nargs="?", default=Path("."))
    grade_parser.add_argument("--json", action="store_true", help="print the grades as JSON instead of a table")
    grade_parser.add_argument("--only", nargs="+", metavar="NAME", help="grade only these exercises (01-06) or functions")
    grade_parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help=f"seconds each test case may run (default {DEFAULT_TIMEOUT:g})"
    )
    grade_parser.add_argument(
        "--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
        help=f"memory the grading process may use, on Linux (default {DEFAULT_MEMORY_MB}; 0: no limit)",
    )
    tag_parser = commands.add_parser("tag-nbgrader", help="give the exercise and check cells nbgrader's cell metadata")
    tag_parser.add_argument("notebook_dir", type=Path, nargs="?", default=Path("notebooks"))
    args = parser.parse_args(argv)
    try:
        if args.command == "tag-nbgrader":
            results = tag_nbgrader_dir(args.notebook_dir)
            for name, exercises, changed in results:
                print(f"{name}: {exercises} exercise{'s' if exercises != 1 else ''}, {'tagged' if changed else 'unchanged'}")
            print(f"{sum(changed for *_, changed in results)} of {len(results)} notebooks changed")
        elif args.command == "release":
            started = time.perf_counter()
            edition = release(args.out_dir, force=args.force)
            functions = sum(len(names) for names in edition.stubbed.values())
            print(
                f"wrote the student edition to {args.out_dir}: {len(edition.files)} files, "
                f"{functions} functions to write in {len(edition.stubbed)} modules, "
                f"{sum(edition.notebook_exercises.values())} exercise cells in {len(edition.notebook_exercises)} notebooks "
                f"({time.perf_counter() - started:.1f}s)"
            )
            graded = {unit.name for unit in UNITS}
            ungraded = [f"{name} ({Path(module).name})" for module, names in sorted(edition.stubbed.items()) for name in names if name not in graded]
            if ungraded:
                print(f"note: the grader does not grade these exercises: {', '.join(ungraded)}", file=sys.stderr)
        else:
            report = grade(args.directory, timeout=args.timeout, only=args.only, memory_mb=args.memory_mb)
            print(json.dumps(report.as_dict(), indent=2) if args.json else report.table())
    except ClassroomError as error:
        print(f"classroom {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
