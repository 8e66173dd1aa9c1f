"""One grade per student: nbgrader's notebook points and the grader's package points, lesson by lesson.

After ``nbgrader autograde``, the notebook points are in ``COURSE_DIR/gradebook.db`` and each
student's package in ``autograded/<student>/<assignment>/bleu_scratch/``, which ``grader.grade``
marks (cached per submission). The package points of lesson NN join notebook NN's; a package
function of a lesson the assignment has no notebook for does not count.
"""

import csv
import html
import io
from dataclasses import dataclass
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from .errors import ClassroomError
from .grader import Refused, grade
from .jail import SandboxUnavailable
from .report import Mark
from .units import UNITS

NOT_GRADED = "not graded: "  # the start of every function's reason where the whole package was not graded


@dataclass
class LessonGrade:
    """A student's points for one lesson: its notebook's checks and its package functions."""

    lesson: str  # "01"
    notebook: str  # nbgrader's name of the notebook, "01_tokens_and_ngrams"
    notebook_points: float
    notebook_max: float
    functions: list[Mark]

    @property
    def package_points(self) -> int:
        return sum(mark.points for mark in self.functions)

    @property
    def package_max(self) -> int:
        return sum(mark.unit.points for mark in self.functions)

    @property
    def points(self) -> float:
        return self.notebook_points + self.package_points

    @property
    def max_points(self) -> float:
        return self.notebook_max + self.package_max

    def as_dict(self) -> dict:
        fields = ("lesson", "notebook", "notebook_points", "notebook_max", "package_points", "package_max")
        return {
            **{field: getattr(self, field) for field in (*fields, "points", "max_points")},
            "functions": [mark.as_dict() for mark in self.functions],
        }


@dataclass
class StudentGrade:
    """All lessons of one student's submission."""

    student: str
    lessons: list[LessonGrade]

    def total(self) -> LessonGrade:
        """The lessons added up, as one row."""
        notebook = [sum(getattr(lesson, f) for lesson in self.lessons) for f in ("notebook_points", "notebook_max")]
        return LessonGrade("total", "total", *notebook, [mark for lesson in self.lessons for mark in lesson.functions])

    def not_graded(self) -> str | None:
        """Why the package was not graded at all (the one reason of every function), or None."""
        reasons = {mark.reason for lesson in self.lessons for mark in lesson.functions}
        reason = reasons.pop() if len(reasons) == 1 else ""
        return reason if reason.startswith(NOT_GRADED) else None

    def as_dict(self) -> dict:
        total = self.total().as_dict()
        kept = ("notebook_points", "package_points", "points", "max_points")
        return {"student": self.student, "lessons": [lesson.as_dict() for lesson in self.lessons]} | {
            key: total[key] for key in kept
        }


def course_grades(course_dir: Path, assignment: str) -> list[StudentGrade]:
    """The grades of every student of the gradebook for ``assignment`` in ``course_dir``: autograded, or 0 with the
    reason (no submission, or an autograde that did not finish)."""
    database = course_dir.resolve() / "gradebook.db"
    if not database.is_file():
        raise ClassroomError(
            f"no gradebook at {database}: run nbgrader generate_assignment and autograde first "
            "(course-grades reads the course folder's gradebook.db, not a db_url set in nbgrader's settings)"
        )
    with Gradebook(f"sqlite:///{database}") as gradebook:
        try:
            found = gradebook.find_assignment(assignment)
        except MissingEntry:
            names = ", ".join(sorted(a.name for a in gradebook.assignments)) or "none"
            raise ClassroomError(f"the gradebook has no assignment {assignment!r} (it has: {names})") from None
        notebooks = sorted((notebook.name, notebook.max_score) for notebook in found.notebooks)
        submissions = {s.student.id: {n.name: n.score for n in s.notebooks} for s in found.submissions}
        students = sorted({student.id for student in gradebook.students} | set(submissions))
    grades = []
    for student in students:
        scores = submissions.get(student, {})
        try:
            if student not in submissions:
                handed_in = (course_dir / "submitted" / student / assignment).is_dir()
                late = f"handed in, not autograded yet: run nbgrader autograde {assignment} --student {student}"
                raise ClassroomError(late if handed_in else "no submission")
            package = grade(_submission(course_dir, student, assignment), cache=True).marks
        except SandboxUnavailable:
            raise  # for every student alike: grading stops
        except ClassroomError as error:  # this submission's problem: the others are graded
            package = [Mark(unit, 0, f"{NOT_GRADED}{error}") for unit in UNITS]
        lessons = []
        for name, max_score in notebooks:
            lesson = name.split("_", 1)[0]  # "01", "A1"
            functions = [mark for mark in package if mark.unit.exercise.split()[0] == lesson]
            lessons.append(LessonGrade(lesson, name, scores.get(name, 0.0), max_score, functions))
        grades.append(StudentGrade(student, lessons))
    return grades


def _submission(course_dir: Path, student: str, assignment: str) -> Path:
    """The student's autograded folder; ``Refused`` where a link leads it to another's."""
    folder = (course_dir / "autograded").resolve() / student / assignment
    if not folder.exists():  # nbgrader removes it when autograde fails, a notebook it cannot read for one
        raise ClassroomError(
            f"autograded/{student}/{assignment} is missing: nbgrader autograde did not finish for {student} "
            f"(its output says why; the submission is submitted/{student}/{assignment})"
        )
    if folder.resolve() != folder:
        raise Refused(f"autograded/{student}/{assignment} leads elsewhere through a symbolic link")
    return folder


def table(grades: list[StudentGrade]) -> str:
    """The grades as a text table, a student's lessons under their name, then their total.

    >>> functions = [Mark(UNITS[0], 2, ""), Mark(UNITS[1], 0, "not written yet")]
    >>> print(table([StudentGrade("ada", [LessonGrade("01", "01_tokens_and_ngrams", 1.0, 2.0, functions)])]))
    student  lesson                notebook  package  points
    ada      01_tokens_and_ngrams       1/2      2/3     3/5
             total                      1/2      2/3     3/5
    """
    rows = [("student", "lesson", "notebook", "package", "points")]
    for grade_ in grades:
        for index, lesson in enumerate([*grade_.lessons, grade_.total()]):
            pairs = [("notebook_points", "notebook_max"), ("package_points", "package_max"), ("points", "max_points")]
            shown = [f"{getattr(lesson, a):g}/{getattr(lesson, b):g}" for a, b in pairs]
            rows.append((grade_.student if index == 0 else "", lesson.notebook, *shown))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    return "\n".join(
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    )


def lms_csv(grades: list[StudentGrade]) -> str:
    """The grades as CSV for an LMS: one row per student, a column per lesson (with its points possible), the total.

    >>> lesson = LessonGrade("01", "01_tokens_and_ngrams", 1.0, 2.0, [Mark(UNITS[0], 2, "")])
    >>> print(lms_csv([StudentGrade("ada", [lesson])]), end="")
    student,lesson 01 (of 4),total (of 4)
    ada,3,3
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if grades:
        columns = [*grades[0].lessons, grades[0].total()]
        names = [c.lesson if c.lesson == "total" else f"lesson {c.lesson}" for c in columns]
        writer.writerow(["student", *(f"{name} (of {c.max_points:g})" for name, c in zip(names, columns))])
    for grade_ in grades:
        writer.writerow([grade_.student, *(f"{lesson.points:g}" for lesson in [*grade_.lessons, grade_.total()])])
    return out.getvalue()


FEEDBACK_START, FEEDBACK_END = "<!-- bleu-classroom package feedback -->", "<!-- end of package feedback -->"


def add_package_feedback(course_dir: Path, assignment: str, grades: list[StudentGrade]) -> int:
    """Put each lesson's package marks into the student's feedback page of that lesson's notebook.

    ``nbgrader generate_feedback`` writes ``feedback/<student>/<assignment>/<notebook>.html``, which
    ``release_feedback`` hands to the students. Returns the pages changed.
    """
    changed = 0
    for grade_ in grades:
        for lesson in grade_.lessons:
            page = course_dir / "feedback" / grade_.student / assignment / f"{lesson.notebook}.html"
            if not page.is_file() or not lesson.functions:
                continue
            text = page.read_text(encoding="utf-8")
            if FEEDBACK_START in text:  # made again from this grade
                text = text[: text.index(FEEDBACK_START)] + text[text.index(FEEDBACK_END) + len(FEEDBACK_END) :]
            rows = "".join(
                f"<tr><td><code>{html.escape(mark.unit.name)}</code></td><td>{mark.points}/{mark.unit.points}</td>"
                f"<td>{html.escape(mark.reason or 'ok')}</td></tr>"
                for mark in lesson.functions
            )
            section = (
                f"{FEEDBACK_START}<section><h2>Package functions of lesson {lesson.lesson}: "
                f"{lesson.package_points}/{lesson.package_max}</h2><table>"
                f"<tr><th>function</th><th>points</th><th>why</th></tr>{rows}</table></section>{FEEDBACK_END}"
            )
            at = text.rfind("</body>")
            page.write_text(text[:at] + section + text[at:] if at >= 0 else text + section, encoding="utf-8")
            changed += 1
    return changed
