"""One grade per student: notebook points and package points together, lesson by lesson.

::

    bleu-classroom course-grades COURSE_DIR [--assignment NAME] [--feedback] [--json | --csv FILE]

After ``nbgrader autograde`` in ``COURSE_DIR`` (see ``nbgrader_course``), the
notebook points of each submission are in nbgrader's gradebook
(``COURSE_DIR/gradebook.db``), and the student's package is in
``autograded/<student>/<assignment>/bleu_scratch/``, where ``grader.grade``
marks its functions. The package points of lesson NN join the notebook points
of notebook NN; the lessons are those of the assignment's notebooks, so a
package function of a lesson the assignment has no notebook for does not count.
"""

import csv
import html
import io
from dataclasses import dataclass
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from .errors import ClassroomError
from .grader import grade
from .jail import SandboxUnavailable
from .report import Mark
from .units import UNITS


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
        return {
            "lesson": self.lesson,
            "notebook": self.notebook,
            "notebook_points": self.notebook_points,
            "notebook_max": self.notebook_max,
            "package_points": self.package_points,
            "package_max": self.package_max,
            "points": self.points,
            "max_points": self.max_points,
            "functions": [mark.as_dict() for mark in self.functions],
        }


@dataclass
class StudentGrade:
    """All lessons of one student's submission."""

    student: str
    lessons: list[LessonGrade]

    def total(self) -> LessonGrade:
        """The lessons added up, as one row."""
        return LessonGrade(
            "total",
            "total",
            sum(lesson.notebook_points for lesson in self.lessons),
            sum(lesson.notebook_max for lesson in self.lessons),
            [mark for lesson in self.lessons for mark in lesson.functions],
        )

    def as_dict(self) -> dict:
        total = self.total()
        return {
            "student": self.student,
            "lessons": [lesson.as_dict() for lesson in self.lessons],
            "notebook_points": total.notebook_points,
            "package_points": total.package_points,
            "points": total.points,
            "max_points": total.max_points,
        }


def course_grades(course_dir: Path, assignment: str) -> list[StudentGrade]:
    """The grades of every student nbgrader autograded for ``assignment`` in ``course_dir``."""
    database = course_dir.resolve() / "gradebook.db"
    if not database.is_file():
        raise ClassroomError(
            f"no gradebook at {database}: run nbgrader generate_assignment and autograde in {course_dir} first"
        )
    with Gradebook(f"sqlite:///{database}") as gradebook:
        try:
            found = gradebook.find_assignment(assignment)
        except MissingEntry:
            names = ", ".join(sorted(a.name for a in gradebook.assignments)) or "none"
            raise ClassroomError(f"the gradebook has no assignment {assignment!r} (it has: {names})") from None
        notebooks = sorted((notebook.name, notebook.max_score) for notebook in found.notebooks)
        submissions = sorted(
            (submission.student.id, {notebook.name: notebook.score for notebook in submission.notebooks})
            for submission in found.submissions
        )
    grades = []
    for student, scores in submissions:
        package = _package_marks(course_dir / "autograded" / student / assignment)
        lessons = [
            LessonGrade(
                _lesson(name),
                name,
                scores.get(name, 0.0),
                max_score,
                [mark for mark in package if mark.unit.exercise.split()[0] == _lesson(name)],
            )
            for name, max_score in notebooks
        ]
        grades.append(StudentGrade(student, lessons))
    return grades


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
            rows.append(
                (
                    grade_.student if index == 0 else "",
                    lesson.notebook,
                    _fraction(lesson.notebook_points, lesson.notebook_max),
                    _fraction(lesson.package_points, lesson.package_max),
                    _fraction(lesson.points, lesson.max_points),
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    return "\n".join(
        f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:>{widths[2]}}  {d:>{widths[3]}}  {e:>{widths[4]}}"
        for a, b, c, d, e in rows
    )


def lms_csv(grades: list[StudentGrade]) -> str:
    """The grades as CSV for an LMS: one row per student, a column per lesson, then the total.

    Each heading says the points possible, which an LMS asks for on import.

    >>> lesson = LessonGrade("01", "01_tokens_and_ngrams", 1.0, 2.0, [Mark(UNITS[0], 2, "")])
    >>> print(lms_csv([StudentGrade("ada", [lesson])]), end="")
    student,lesson 01 (of 4),total (of 4)
    ada,3,3
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if grades:
        columns = [*grades[0].lessons, grades[0].total()]
        writer.writerow(["student"] + [_heading(lesson) for lesson in columns])
    for grade_ in grades:
        writer.writerow([grade_.student] + [_number(lesson.points) for lesson in [*grade_.lessons, grade_.total()]])
    return out.getvalue()


def _package_marks(folder: Path) -> list[Mark]:
    """The grader's marks for the package in ``folder``; every function 0 where it cannot grade it."""
    try:
        return grade(folder, cache=True).marks
    except SandboxUnavailable:
        raise  # for every student alike: grading stops
    except ClassroomError as error:
        return [Mark(unit, 0, f"not graded: {error}") for unit in UNITS]


def _lesson(notebook: str) -> str:
    """The lesson of a notebook: its name up to the first "_" ("01", "A1")."""
    return notebook.split("_", 1)[0]


def _number(value: float) -> str:
    """A number of points, without ".0" when it is whole.

    >>> _number(2.0), _number(1.5)
    ('2', '1.5')
    """
    return f"{value:g}"


def _heading(lesson: LessonGrade) -> str:
    """A CSV column's heading: the lesson (or total) and its points possible."""
    name = "total" if lesson.lesson == "total" else f"lesson {lesson.lesson}"
    return f"{name} (of {_number(lesson.max_points)})"


def _fraction(points: float, max_points: float) -> str:
    return f"{_number(points)}/{_number(max_points)}"


FEEDBACK_START, FEEDBACK_END = "<!-- bleu-classroom package feedback -->", "<!-- end of package feedback -->"


def add_package_feedback(course_dir: Path, assignment: str, grades: list[StudentGrade]) -> int:
    """Put each lesson's package marks into the student's feedback page of that lesson's notebook.

    ``nbgrader generate_feedback`` writes ``feedback/<student>/<assignment>/<notebook>.html``;
    ``release_feedback`` hands those pages to the students, so the package's
    points and reasons reach them beside the notebook's. Returns the pages changed.
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
