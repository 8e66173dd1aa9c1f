"""The student edition's README, from the template ``student_README.md``."""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

from .grader import DEFAULT_BUDGET, DEFAULT_MEMORY_MB
from .leaks import lesson_of
from .units import UNITS

if TYPE_CHECKING:
    from .release import Edition

STUDENT_README = Path(__file__).resolve().parent / "student_README.md"


def student_readme(edition: Edition) -> str:
    """The edition's README.md, from the template ``student_README.md``."""
    graded = {unit.name: unit for unit in UNITS}
    rows = []
    for module, functions in edition.stubbed.items():
        # A lesson module is named lessonNN_*.py; the table follows the lessons.
        lesson = lesson_of(module)
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
        budget=f"{DEFAULT_BUDGET:g}",
        memory_mb=DEFAULT_MEMORY_MB,
    )
