"""The release: the student edition, every solution replaced by nbgrader's stub, checked for leaks."""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import subprocess
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import ClassroomError
from .leaks import as_text, find_leaks, passages
from .markers import CODE_STUB, TEXT_STUB, Region, marked_functions, marker_in, strip_solutions
from .nbgrader_tags import cell_source, notebook_json
from .readme import student_readme

# The checkout this package was installed from in editable mode (pip install -e);
# after a normal install it is site-packages, which has no lessons to release.
REPO_ROOT = Path(__file__).resolve().parent.parent
# What a checkout has and site-packages has not: the edition is made of these.
CHECKOUT_FOLDERS = ("bleu_scratch", "notebooks")
# Never part of the edition: version control, caches, build output, the lessons' website (site/, solutions
# and all), CI and the speed benchmarks (they need the finished package).
SKIPPED_NAMES = {".git", ".ci", "benchmarks", "__pycache__", ".pytest_cache", ".ipynb_checkpoints", ".hypothesis"}
SKIPPED_NAMES |= {".venv", "venv", "build", "dist", "site", ".mypy_cache", ".ruff_cache", ".tox"}
SKIPPED_PATTERNS = ("*.egg-info", "*.pyc", ".DS_Store")
# The instructor's: the README (the student README replaces it), the course tools and their tests (a grader in
# the students' hands is one they can read, or replace), the tool that stores notebook outputs for nbval.
INSTRUCTOR_ONLY = {"README.md", "bleu_classroom/", "tools/refresh_notebooks.py", "tests/classroom/"}
# The tests of the instructor's README and guides (the edition's README is the student README), and the whole
# check, whose first step installs the grader's sandbox.
INSTRUCTOR_ONLY |= {"tests/test_docs.py", "tools/check.sh"}
# The maintainers' tool that sets the repository's name in files the edition leaves out or rewrites, and its test.
INSTRUCTOR_ONLY |= {"tools/repository.py", "tests/tools/test_repository.py"}
# The edition's pytest hooks (a test that reaches an unwritten exercise is skipped there).
RENAMED = {"bleu_classroom/edition_conftest.py": "conftest.py"}


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
    missing = [f"{name}/" for name in CHECKOUT_FOLDERS if not (source / name).is_dir()]
    if missing:
        raise ClassroomError(
            f"{source} is not a checkout of the repository (no {' or '.join(missing)}): the release reads the lessons, "
            "notebooks, data and tests of a checkout; run it from an editable install (pip install -e) "
            "or pass --source CHECKOUT"
        )
    edition = Edition({}, [], {}, {})
    tracked = _tracked_files(source, skip)
    for rel in tracked:
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
            text = as_text(raw)
            if text is not None:
                for number, line in enumerate(text.splitlines(), start=1):
                    if marker_in(line, rel, number):
                        raise ClassroomError(
                            f"{rel}:{number}: solution markers are only supported in .py and .ipynb files"
                        )
        target = RENAMED.get(rel, rel)
        if target in edition.files or (target != rel and target in tracked):
            raise ClassroomError(f"{rel} and {target} would both be the edition's {target}")
        edition.files[target] = content
        edition.regions.extend(regions)
    if not edition.regions:
        raise ClassroomError(f"no solution markers found under {source}: is it already a student edition?")
    if ".gitignore" in edition.files:
        edition.files[".gitignore"] = _gitignore_for(
            edition.files[".gitignore"].decode("utf-8"), edition.files
        ).encode()
    if "pyproject.toml" in edition.files:
        pyproject = edition.files["pyproject.toml"].decode("utf-8")
        edition.files["pyproject.toml"] = _pyproject_for(pyproject, edition.files).encode()
    edition.files["README.md"] = student_readme(edition).encode()
    leaks = find_leaks([p for rel, content in edition.files.items() for p in passages(rel, content)], edition.regions)
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
        for rel in _files_in(out_dir)
        if rel not in edition.files
        for passage in passages(rel, (out_dir / rel).read_bytes(), lessons=False)
    ]
    shipped = [p for rel, content in edition.files.items() for p in passages(rel, content)]
    leaks = find_leaks(kept + shipped, edition.regions) if kept else []
    if leaks:
        raise ClassroomError(
            f"files already in {out_dir} contain solution text (left from an earlier release?); "
            f"remove them:\n  " + "\n  ".join(leaks)
        )
    return edition


def _instructor_only(rel: str, raw: bytes) -> bool:
    """Whether a file stays out of the edition: listed, or a test or tool that uses the course tools or looks
    for solution markers (it checks the instructor's copy, and would fail in the edition)."""
    if rel in RENAMED:
        return False
    listed = rel in INSTRUCTOR_ONLY or any(rel.startswith(folder) for folder in INSTRUCTOR_ONLY if folder.endswith("/"))
    uses_course_tools = rel.startswith(("tests/", "tools/")) and b"bleu_classroom" in raw
    return listed or uses_course_tools or (rel.startswith("tests/") and b"BEGIN SOLUTION" in raw)


def _tracked_files(source: Path, skip: Path | None) -> list[str]:
    """The files git tracks in the checkout ``source``, less the skipped names: what an instructor keeps beside the
    lessons and never commits (answers, a gradebook, students' work, an earlier edition) stays out."""
    try:
        listed = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], capture_output=True, check=True).stdout
    except FileNotFoundError:
        raise ClassroomError("the release needs git: it takes the files git tracks in the checkout") from None
    except subprocess.CalledProcessError as error:
        said = [line.strip() for line in error.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        fatal = next((line for line in said if line.startswith("fatal:")), said[-1] if said else "git ls-files failed")
        raise ClassroomError(
            f"git cannot list the files of {source} ({fatal}): the release takes the files git tracks in a clone"
        ) from None
    names = sorted(set(filter(None, listed.decode("utf-8", "surrogateescape").split("\0"))))  # a conflict lists 3
    if not any(name.startswith("bleu_scratch/") for name in names):
        raise ClassroomError(
            f"git tracks no lessons in {source}: the release takes the files git tracks, so clone the repository "
            "with git (or git add the lessons there)"
        )
    kept, root = [], source.resolve()
    for rel in names:
        path = source / rel
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            raise ClassroomError(f"{rel} is a link to a file outside the checkout; the release copies no such file")
        inside_skip = skip is not None and path.resolve().is_relative_to(skip)
        skipped = inside_skip or any(part in SKIPPED_NAMES or _skipped_pattern(part) for part in rel.split("/"))
        if not skipped and path.is_file():  # a tracked file deleted from the working tree is not released
            kept.append(rel)
    return kept


def _files_in(folder: Path) -> Iterator[str]:
    """Every file under ``folder`` (an output folder, which may hold an earlier edition), less the skipped names."""
    for directory, subdirs, files in os.walk(folder):
        here = Path(directory)
        subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_NAMES and not _skipped_pattern(d))
        for name in sorted(files):
            if not _skipped_pattern(name):
                yield (here / name).relative_to(folder).as_posix()


def _skipped_pattern(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in SKIPPED_PATTERNS)


def _release_module(text: str, rel: str) -> tuple[bytes, list[Region]]:
    stripped, regions = strip_solutions(text, CODE_STUB, rel)
    try:
        ast.parse(stripped, filename=rel)
    except SyntaxError as error:
        raise ClassroomError(
            f"{rel}: the student version does not parse ({error}); check where the markers stand"
        ) from None
    return stripped.encode("utf-8"), regions


def _release_notebook(raw: bytes, rel: str) -> tuple[bytes, list[Region], int]:
    try:
        notebook = json.loads(raw)
    except ValueError as error:  # JSON's errors and bytes that are not UTF-8 alike
        raise ClassroomError(f"{rel} is not a notebook ({error}): fix it, or git rm it from the checkout") from None
    regions: list[Region] = []
    exercises = 0
    for number, cell in enumerate(notebook["cells"], start=1):
        source = cell_source(cell)
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


def _gitignore_for(text: str, files: dict[str, bytes]) -> str:
    """Drop the patterns that would keep a shipped file out of the student's repository."""
    kept = []
    for line in text.splitlines():
        pattern = line.strip().rstrip("/").lstrip("/")
        if pattern and not pattern.startswith(("#", "!")) and any(_ignores(pattern, rel) for rel in files):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def _pyproject_for(text: str, files: dict[str, bytes]) -> str:
    """Drop the console scripts (and the comment above each) whose module the edition leaves out.

    >>> scripts = '[project.scripts]\\nbleu-scratch = "bleu_cli:main"\\n# Course\\n'
    >>> text = scripts + "'bleu-classroom'  =  'bleu_classroom.command:main'"
    >>> print(_pyproject_for(text, {"bleu_cli/__init__.py": b""}), end="")
    [project.scripts]
    bleu-scratch = "bleu_cli:main"
    """
    scripts = tomllib.loads(text).get("project", {}).get("scripts", {})
    shipped = {rel.split("/")[0].removesuffix(".py") for rel in files}
    dropped = {name for name, target in scripts.items() if re.split(r"[.:]", target)[0] not in shipped}
    kept: list[str] = []
    section = ""
    for line in text.splitlines():
        if line.startswith("["):
            section = line.strip()
        key = line.split("=")[0].strip().strip("\"'")
        if section == "[project.scripts]" and "=" in line and key in dropped:
            while kept and kept[-1].startswith("#"):
                kept.pop()
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def _ignores(pattern: str, rel: str) -> bool:
    parts = rel.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    if "/" in pattern:
        return any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes)
    return any(fnmatch.fnmatch(part, pattern) for part in parts)
