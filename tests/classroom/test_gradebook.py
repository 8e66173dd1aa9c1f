"""One grade by lesson: nbgrader's notebook points and the grader's package points of the autograded course."""

import csv
import json
import shutil
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from bleu_classroom import command, gradebook, grader
from bleu_classroom.gradebook import add_package_feedback, course_grades
from bleu_classroom.report import Report
from tests.classroom.nbgrader_tools import ASSIGNMENT, nbgrader, nbgrader_scores

# Hand-counted from the lessons: the package functions of lessons 01 and 02 and their points.
PACKAGE_POINTS = {"01": {"ngrams": 2, "count_ngrams": 1}, "02": {"max_reference_counts": 2, "clipped_counts": 2}}
NOTEBOOKS = {"01": "01_tokens_and_ngrams", "02": "02_clipping"}


@pytest.fixture(scope="module")
def grades(nbgrader_course):
    return {grade.student: grade for grade in course_grades(nbgrader_course, ASSIGNMENT)}


@pytest.mark.parametrize("student", ["filled", "fresh"])
def test_each_lesson_joins_its_notebooks_points_and_its_package_functions(nbgrader_course, grades, student):
    scores = nbgrader_scores(nbgrader_course, student)
    full = student == "filled"
    lessons = grades[student].lessons
    assert [lesson.lesson for lesson in lessons] == ["01", "02"]
    for lesson in lessons:
        assert (lesson.notebook_points, lesson.notebook_max) == scores[NOTEBOOKS[lesson.lesson]]
        expected = {name: points if full else 0 for name, points in PACKAGE_POINTS[lesson.lesson].items()}
        assert {mark.unit.name: mark.points for mark in lesson.functions} == expected
        assert lesson.package_max == sum(PACKAGE_POINTS[lesson.lesson].values())
        assert [("not written yet" in mark.reason) for mark in lesson.functions] == [not full] * len(expected)


def test_the_lms_csv_has_a_row_per_student_and_a_column_per_lesson(nbgrader_course, tmp_path):
    out = tmp_path / "grades.csv"
    assert command.main(["course-grades", str(nbgrader_course), "--csv", str(out)]) == 0
    with out.open(newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    # Lesson 01: 2 checks + 3 package points; lesson 02: 2 checks + 4 package points.
    assert rows == [
        ["student", "lesson 01 (of 5)", "lesson 02 (of 6)", "total (of 11)"],
        ["filled", "5", "6", "11"],
        ["fresh", "0", "0", "0"],
        ["intruder", "5", "6", "11"],
    ]


def test_the_json_and_the_table_give_the_same_totals(nbgrader_course, capsys):
    assert command.main(["course-grades", str(nbgrader_course), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(s["student"], s["points"], s["max_points"]) for s in report["students"]] == [
        ("filled", 11, 11),
        ("fresh", 0, 11),
        ("intruder", 11, 11),
    ]
    filled_01 = report["students"][0]["lessons"][0]
    assert (filled_01["notebook_points"], filled_01["package_points"], filled_01["points"]) == (2, 3, 5)
    assert command.main(["course-grades", str(nbgrader_course)]) == 0
    totals = [line.split() for line in capsys.readouterr().out.splitlines() if line.split()[0] == "total"]
    assert totals == [
        ["total", "4/4", "7/7", "11/11"],
        ["total", "0/4", "0/7", "0/11"],
        ["total", "4/4", "7/7", "11/11"],
    ]


def test_an_unknown_assignment_or_course_is_an_error_not_a_traceback(nbgrader_course, tmp_path, capsys):
    assert command.main(["course-grades", str(nbgrader_course), "--assignment", "nope"]) == 1
    assert "has no assignment 'nope' (it has: bleu)" in capsys.readouterr().err
    assert command.main(["course-grades", str(tmp_path)]) == 1
    assert "no gradebook" in capsys.readouterr().err


def test_the_package_marks_reach_the_students_feedback_pages(nbgrader_course, tmp_path):
    course = tmp_path / "course"
    shutil.copytree(nbgrader_course, course)
    nbgrader(course, "generate_feedback", ASSIGNMENT)
    grades = course_grades(course, ASSIGNMENT)
    assert add_package_feedback(course, ASSIGNMENT, grades) == 6  # three students, two notebooks each
    assert add_package_feedback(course, ASSIGNMENT, grades) == 6  # made again, not added twice
    page = (course / "feedback" / "fresh" / ASSIGNMENT / "01_tokens_and_ngrams.html").read_text(encoding="utf-8")
    assert page.count("Package functions of lesson 01: 0/3") == 1
    assert "<code>ngrams</code></td><td>0/2</td><td>not written yet (NotImplementedError at lesson01_ngrams.py:" in page
    page = (course / "feedback" / "filled" / ASSIGNMENT / "02_clipping.html").read_text(encoding="utf-8")
    assert "Package functions of lesson 02: 4/4" in page


def test_a_package_linked_to_a_classmates_gets_zero_and_the_others_their_grades(nbgrader_course, tmp_path):
    course = tmp_path / "course"
    shutil.copytree(nbgrader_course, course)
    autograded = course / "autograded"
    # What fresh's kernel could do in its own folder: rename its package and link filled's in its place.
    fresh = autograded / "fresh" / ASSIGNMENT
    (fresh / "bleu_scratch").rename(fresh / "mine")
    (fresh / "bleu_scratch").symlink_to(Path("..", "..", "filled", ASSIGNMENT, "bleu_scratch"))
    # And a folder above the package linked to filled's.
    shutil.rmtree(autograded / "intruder" / ASSIGNMENT)
    (autograded / "intruder" / ASSIGNMENT).symlink_to(autograded / "filled" / ASSIGNMENT)
    grades = {grade.student: grade.total() for grade in course_grades(course, ASSIGNMENT)}
    assert {student: total.package_points for student, total in grades.items()} == {
        "filled": 7,
        "fresh": 0,
        "intruder": 0,
    }
    assert {mark.reason.split(":")[0] for mark in grades["fresh"].functions} == {
        f"bleu_scratch is a symbolic link (to ../../filled/{ASSIGNMENT}/bleu_scratch)"
    }
    assert {mark.reason for mark in grades["intruder"].functions} == {
        f"not graded: autograded/intruder/{ASSIGNMENT} leads elsewhere through a symbolic link"
    }


def test_a_submission_that_fails_to_grade_costs_only_its_own_points(nbgrader_course, monkeypatch):
    def grade_failing_fresh(directory: Path, **options) -> Report:
        if "fresh" in directory.parts:
            raise grader.Refused("bleu_scratch/lesson04_brevity.py is not a regular file")
        return grader.grade(directory, **options)

    monkeypatch.setattr(gradebook, "grade", grade_failing_fresh)
    grades = {grade.student: grade.total() for grade in course_grades(nbgrader_course, ASSIGNMENT)}
    assert {student: total.package_points for student, total in grades.items()} == {
        "filled": 7,
        "fresh": 0,
        "intruder": 7,
    }
    assert {mark.reason for mark in grades["fresh"].functions} == {
        "not graded: bleu_scratch/lesson04_brevity.py is not a regular file"
    }


def test_a_student_without_submission_or_autograded_folder_gets_zero_and_a_note(nbgrader_course, tmp_path, capsys):
    course = tmp_path / "course"
    shutil.copytree(nbgrader_course, course)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as book:
        book.add_student("dave")  # enrolled, handed nothing in
        book.add_student("erin")  # handed in after autograde ran
    shutil.copytree(course / "submitted" / "fresh", course / "submitted" / "erin")
    shutil.rmtree(course / "autograded" / "fresh")  # what nbgrader does when autograde fails (an unreadable notebook)
    out = tmp_path / "grades.csv"
    assert command.main(["course-grades", str(course), "--csv", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as file:
        totals = {row[0]: row[-1] for row in list(csv.reader(file))[1:]}
    assert totals == {"dave": "0", "erin": "0", "fresh": "0"} | {name: totals[name] for name in ("filled", "intruder")}
    notes = capsys.readouterr().err.splitlines()
    assert notes == [
        "note: dave not graded: no submission",
        f"note: erin not graded: handed in, not autograded yet: run nbgrader autograde {ASSIGNMENT} --student erin",
        f"note: fresh not graded: autograded/fresh/{ASSIGNMENT} is missing: nbgrader autograde did not finish for "
        f"fresh (its output says why; the submission is submitted/fresh/{ASSIGNMENT})",
    ]
