"""bleu-classroom's own checks of what it is given: said in one line before any work, under the command's name."""

import pytest

from bleu_classroom import command, gradebook


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--budget", "0", "0: give a finite number of seconds, at least 1 (starting the sandbox takes some)"),
        ("--budget", "-1", "-1: give a finite number of seconds, at least 1"),
        ("--budget", "inf", "inf: give a finite number of seconds, at least 1"),
        ("--memory-mb", "5", "5 MB is too little for Python and numpy to start: give at least 128, or 0 for no limit"),
    ],
)
def test_limits_that_would_fail_the_solutions_too_are_refused(tmp_path, capsys, option, value, said):
    with pytest.raises(SystemExit) as stopped:
        command.main(["grade", str(tmp_path), option, value])
    assert stopped.value.code == 2
    assert f"bleu-classroom grade: error: argument {option}: {said}" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["folder", "missing/grades.csv"])
def test_a_csv_that_cannot_be_written_is_said_before_any_grading(tmp_path, capsys, monkeypatch, where):
    monkeypatch.setattr(gradebook, "course_grades", lambda *args: pytest.fail("graded before the check"))
    (tmp_path / "folder").mkdir()
    assert command.main(["course-grades", str(tmp_path), "--csv", str(tmp_path / where)]) == 1
    assert capsys.readouterr() == (
        "",
        f"bleu-classroom course-grades: error: cannot write {tmp_path / where}: give a file name in a folder that "
        "exists\n",
    )


def test_an_assignment_of_later_lessons_says_the_earlier_ones_are_handed_in_too(tmp_path, capsys):
    assert command.main(["nbgrader-course", str(tmp_path), "--assignment", "week2", "--notebooks", "03"]) == 0
    assert capsys.readouterr().err == (
        "note: students hand in the whole package: lessons 01, 02 must be written in this assignment's bleu_scratch "
        "too (copied from their earlier assignments), or what calls them scores 0\n"
    )
    assert command.main(["nbgrader-course", str(tmp_path), "--assignment", "week3", "--notebooks", "00", "02"]) == 0
    assert "note: students hand in the whole package: lesson 01 must be written" in capsys.readouterr().err
    assert command.main(["nbgrader-course", str(tmp_path), "--assignment", "week1", "--notebooks", "01", "02"]) == 0
    assert capsys.readouterr().err == ""


def test_feedback_with_no_page_to_add_to_says_which_nbgrader_step_writes_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(gradebook, "course_grades", lambda *args: [])
    assert command.main(["course-grades", str(tmp_path), "--feedback", "--assignment", "week1"]) == 0
    assert capsys.readouterr().err == (
        "added the package's marks to 0 feedback pages: run nbgrader generate_feedback week1 first, which writes them\n"
    )
