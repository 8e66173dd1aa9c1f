"""The grades: one ``Mark`` per graded function, a ``Report`` as a table or JSON."""

from dataclasses import dataclass

from .feedback import printable
from .units import UNITS, Unit


@dataclass
class Mark:
    """The grade of one unit."""

    unit: Unit
    points: int
    reason: str  # empty when full marks

    def __post_init__(self) -> None:
        # A reason quotes the submission (its exception's message, a link's target): shown as it is, a carriage
        # return or a terminal escape could forge rows and a score on the instructor's terminal.
        self.reason = printable(self.reason)

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
            "exercises": [mark.as_dict() for mark in self.marks],
            "score": self.score,
            "max_score": self.max_score,
            "seconds": round(self.seconds, 2),
        }

    @classmethod
    def from_dict(cls, saved: dict) -> "Report":
        """The report ``as_dict`` gave."""
        unit_of = {unit.name: unit for unit in UNITS}
        marks = [Mark(unit_of[row["function"]], row["points"], row["reason"]) for row in saved["exercises"]]
        return cls(saved["directory"], marks, saved["seconds"])

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
