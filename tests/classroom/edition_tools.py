"""What the course tools' tests share: the repository, the markers, and writing one function of an edition."""

import ast
import shutil
from pathlib import Path

from bleu_classroom import units

REPO = Path(__file__).resolve().parents[2]
LESSON_MODULES = sorted({unit.module for unit in units.UNITS})
STUB = "raise NotImplementedError()"
# Kept apart so that no line of this file is itself a solution marker.
BEGIN, END = "### " + "BEGIN SOLUTION", "### " + "END SOLUTION"


def function_node(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name)


def set_function(edition: Path, module: str, name: str, body: list[str] | None = None) -> None:
    """Write one function of the edition: the repository's solution, or ``body`` in place of the stub."""
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


def copy_of(edition: Path, tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(edition, target)
    return target
