"""What the course tools' tests share: the repository, the markers, writing one function of an edition, and
running its notebooks."""

import ast
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bleu_classroom import units

REPO = Path(__file__).resolve().parents[2]
LESSON_MODULES = sorted({unit.module for unit in units.UNITS})
STUB = "raise NotImplementedError()"
# Kept apart so that no line of this file is itself a solution marker.
BEGIN, END = "### " + "BEGIN SOLUTION", "### " + "END SOLUTION"


def function_node(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name)


def set_function(edition: Path, module: str, name: str, body: list[str] | None = None) -> None:
    """Write one function of the edition: the repository's solution, or ``body`` in place of the stub.

    In the main thread only: it parses Python, which threads must not do at once (see ``side_by_side``).
    """
    assert threading.current_thread() is threading.main_thread(), "write editions before side_by_side runs them"
    path = edition / "bleu_scratch" / f"{module}.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    node = function_node("".join(lines), name)
    if body is None:
        solved = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        solved_node = function_node(solved, name)
        new = solved.splitlines(keepends=True)[solved_node.lineno - 1 : solved_node.end_lineno]
    else:
        new = lines[node.lineno - 1 : node.end_lineno]
        at = next(i for i, line in enumerate(new) if line.strip() == STUB)
        indent = new[at][: len(new[at]) - len(new[at].lstrip())]
        new[at : at + 1] = [f"{indent}{line}\n" for line in body]
    lines[node.lineno - 1 : node.end_lineno] = new
    path.write_text("".join(lines), encoding="utf-8")


def tracked(root: Path) -> Path:
    """``root`` as a git checkout with every file in it tracked: what the release reads from a source."""
    for command in (["git", "init", "-q"], ["git", "add", "-A"]):
        subprocess.run(command, cwd=root, check=True, capture_output=True)
    return root


def copy_of(edition: Path, tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(edition, target)
    return target


@dataclass
class Run:
    notebook: Any  # the notebook as executed: each cell's outputs, up to the one that stopped it
    error: Exception | None  # nbclient's CellExecutionError that stopped it, None if it ran to its end
    exercises: int  # its exercise cells given the repository's solution


def run_notebook(path: Path, edition: Path, solve: bool = False) -> Run:
    """Execute the notebook at ``path`` in a fresh kernel that imports ``edition``'s package, to its first error.

    With ``solve``, its exercise cells are the repository's first. The kernel talks over Unix sockets in a
    folder of its own, not over TCP ports that two kernels started at once could both pick: notebooks can run
    side by side (``side_by_side``).
    """
    import nbclient
    import nbformat
    from traitlets.config import Config

    notebook = nbformat.read(path, as_version=4)
    exercises = 0
    if solve:
        solved = nbformat.read(REPO / "notebooks" / path.name, as_version=4)
        for ours, theirs in zip(solved.cells, notebook.cells):
            if theirs.cell_type == "code" and STUB in theirs.source:
                theirs.source = ours.source
                exercises += 1
    with tempfile.TemporaryDirectory(prefix="kernel-") as sockets:
        client = nbclient.NotebookClient(
            notebook,
            config=Config({"KernelManager": {"transport": "ipc", "ip": str(Path(sockets) / "ipc")}}),
            timeout=120,
            startup_timeout=300,  # a busy machine can take longer than the default minute to start a kernel
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        try:
            client.execute(env=dict(os.environ, PYTHONPATH=str(edition)))
        except nbclient.exceptions.CellExecutionError as error:
            return Run(notebook, error, exercises)
    return Run(notebook, None, exercises)


def side_by_side(function: Callable[[Any], Any], items: Iterable[Any]) -> dict[Any, Any]:
    """``function`` of each item, two at a time (a kernel or a sandboxed grader each), in a dict by item.

    ``function`` must not parse Python (``set_function`` does): CPython 3.11 keeps ``ast.parse``'s depth count
    per interpreter, not per thread, so two threads parsing at once, with a garbage collection switching threads
    mid-parse, can raise "SystemError: AST constructor recursion depth mismatch". Write the editions first.
    """
    items = list(items)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(items, pool.map(function, items)))
