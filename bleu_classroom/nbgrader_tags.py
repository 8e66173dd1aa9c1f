"""nbgrader's cell metadata: each exercise cell a solution cell (nbgrader stubs only those), its check a graded test."""

import json
import re
from pathlib import Path

from .errors import ClassroomError
from .markers import BEGIN, CODE_STUB, END, strip_solutions


def notebook_json(notebook: dict) -> str:
    """The notebook as nbformat writes it, so that a later save by Jupyter changes little."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False, separators=(",", ": ")) + "\n"


# nbgrader 0.9 reads and writes version 3 of its cell metadata (nbgraderformat/v3.json).
NBGRADER_SCHEMA = 3
CHECK_POINTS = 1
# The grade_ids this tool gives; a cell that carries one but is no longer an
# exercise or its check lost its exercise, and its metadata goes with it.
OUR_GRADE_ID = re.compile(r"exercise_\d+(_check)?$")


def nbgrader_cell(kind: str, grade_id: str, points: float = CHECK_POINTS) -> dict:
    """nbgrader's metadata for an exercise cell ("solution"), its check ("check") or a written answer ("answer").

    A check cell is a read-only test worth ``points``; a Markdown answer (graded by hand) is a solution and a grade.

    >>> nbgrader_cell("check", "exercise_1_check")
    {'grade': True, 'grade_id': 'exercise_1_check', 'locked': True, 'points': 1, 'schema_version': 3, 'solution': False}
    """
    grade, solution, locked = {
        "solution": (False, True, False),
        "check": (True, False, True),
        "answer": (True, True, False),
    }[kind]
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": NBGRADER_SCHEMA,
        "solution": solution,
    }
    if grade:
        meta["points"] = points
    return dict(sorted(meta.items()))


def tag_nbgrader(notebook: dict, where: str = "<notebook>") -> int:
    """Tag each marked cell of ``notebook`` and its check cell for nbgrader, in place; return the number of exercises.

    The check cell is the next code cell, which must assert something. An instructor's points are kept;
    grade_ids follow the exercises (``exercise_1``, ``exercise_1_check``, ...); tagging twice changes nothing.

    >>> notebook = {"cells": [
    ...     {
    ...         "cell_type": "code",
    ...         "metadata": {},
    ...         "source": ["x = 1\\n", "### BEGIN SOLUTION\\n", "y = 2\\n", "### END SOLUTION"],
    ...     },
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
        if check is None or check in marked or "assert" not in cell_source(cells[check]):
            raise ClassroomError(
                f"{where} cell {index + 1}: the next code cell must be the exercise's check (an assert)"
            )
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
                raise ClassroomError(
                    f"{where} cell {index}: grade_id {meta.get('grade_id')!r} is used twice; nbgrader needs unique ids"
                )
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


def cell_source(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _points(cell: dict) -> float:
    return cell.get("metadata", {}).get("nbgrader", {}).get("points", CHECK_POINTS)


def _nbgrader_marked(cell: dict, where: str) -> bool:
    """Whether nbgrader sees a solution region in ``cell``; an error where nbgrader and ``release`` would disagree."""
    source = cell_source(cell)
    _, regions = strip_solutions(source, CODE_STUB, where)
    for number, line in enumerate(source.splitlines(), start=1):
        # nbgrader takes any line that names a marker for one, even a line of a string.
        if ("BEGIN SOLUTION" in line or "END SOLUTION" in line) and line.strip() not in (BEGIN, END):
            raise ClassroomError(f"{where}:{number}: nbgrader would read {line.strip()!r} as a solution marker")
    return bool(regions)
