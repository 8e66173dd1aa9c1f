"""nbgrader's cell metadata: exercise cells are solution cells, the checks after them graded tests."""

import json
import subprocess
import sys

import pytest

from bleu_classroom import errors, nbgrader_tags
from tests.classroom.edition_tools import BEGIN, END, REPO


def code_cell(*lines: str, nbgrader: dict | None = None) -> dict:
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": [f"{line}\n" for line in lines],
    }
    if nbgrader:
        cell["metadata"]["nbgrader"] = nbgrader
    return cell


def markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": [text]}


def exercise_notebook() -> dict:
    """Setup, then two exercises each followed (after some prose) by a check cell, then a plain cell."""
    return {
        "cells": [
            code_cell("import math"),
            markdown_cell("Exercise 1"),
            code_cell("def double(x):", f"    {BEGIN}", "    return 2 * x", f"    {END}"),
            markdown_cell("Check:"),
            code_cell("assert double(2) == 4", "print('Correct!')"),
            code_cell("x = 0", BEGIN, "x = 1", END),
            code_cell("assert x == 1"),
            code_cell("print(math.pi)"),
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


# What nbgrader's "Create Assignment" toolbar writes for an autograded answer
# and for its autograder tests (schema version 3; tests are read-only and score).
def solution_meta(grade_id: str) -> dict:
    return {"grade": False, "grade_id": grade_id, "locked": False, "schema_version": 3, "solution": True}


def check_meta(grade_id: str, points: float = 1) -> dict:
    return {
        "grade": True,
        "grade_id": grade_id,
        "locked": True,
        "points": points,
        "schema_version": 3,
        "solution": False,
    }


def test_tag_nbgrader_marks_each_exercise_and_the_check_after_it():
    notebook = exercise_notebook()
    sources = [cell["source"] for cell in notebook["cells"]]
    assert nbgrader_tags.tag_nbgrader(notebook) == 2
    assert [cell["metadata"].get("nbgrader") for cell in notebook["cells"]] == [
        None,
        None,
        solution_meta("exercise_1"),
        None,
        check_meta("exercise_1_check"),
        solution_meta("exercise_2"),
        check_meta("exercise_2_check"),
        None,
    ]
    assert [cell["source"] for cell in notebook["cells"]] == sources
    text = nbgrader_tags.notebook_json(notebook)
    nbgrader_tags.tag_nbgrader(notebook)
    assert nbgrader_tags.notebook_json(notebook) == text


def test_tag_nbgrader_keeps_points_and_hand_tags_and_drops_tags_of_a_removed_exercise():
    notebook = exercise_notebook()
    nbgrader_tags.tag_nbgrader(notebook)
    cells = notebook["cells"]
    cells[4]["metadata"]["nbgrader"]["points"] = 3  # set in nbgrader's toolbar
    read_only = {"grade": False, "grade_id": "intro", "locked": True, "schema_version": 3, "solution": False}
    cells[0]["metadata"]["nbgrader"] = read_only
    del cells[2:5]  # exercise 1 goes; the old exercise 2 is now the first
    cells.append(code_cell("print('the end')", nbgrader=check_meta("exercise_2_check", 3)))
    nbgrader_tags.tag_nbgrader(notebook)
    assert [cell["metadata"].get("nbgrader") for cell in cells] == [
        read_only,
        None,
        solution_meta("exercise_1"),
        check_meta("exercise_1_check"),
        None,
        None,
    ]


def test_tag_nbgrader_keeps_the_points_of_a_check_cell():
    notebook = exercise_notebook()
    notebook["cells"][6]["metadata"]["nbgrader"] = check_meta("old_name", 5)
    nbgrader_tags.tag_nbgrader(notebook)
    assert notebook["cells"][6]["metadata"]["nbgrader"] == check_meta("exercise_2_check", 5)


def test_tag_nbgrader_makes_a_written_answer_a_graded_solution():
    notebook = {"cells": [markdown_cell(f"Why?\n{BEGIN}\nBecause.\n{END}\n")]}
    nbgrader_tags.tag_nbgrader(notebook)
    # nbgrader refuses a Markdown solution cell that is not also a grade cell.
    assert notebook["cells"][0]["metadata"]["nbgrader"] == {
        "grade": True,
        "grade_id": "exercise_1",
        "locked": False,
        "points": 1,
        "schema_version": 3,
        "solution": True,
    }


@pytest.mark.parametrize(
    "cells, message",
    [
        (
            [code_cell(BEGIN, "x = 1", END), markdown_cell("The end.")],
            "cell 1: the next code cell must be the exercise's check",
        ),
        (
            [code_cell(BEGIN, "x = 1", END), code_cell("print(x)")],
            "cell 1: the next code cell must be the exercise's check",
        ),
        (
            [code_cell(BEGIN, "x = 1", END), code_cell(BEGIN, "y = 1", END), code_cell("assert x == y")],
            "cell 1: the next code cell",
        ),
        ([code_cell("note = 'see " + "BEGIN SOLUTION" + " below'")], "cell 1:1: nbgrader would read"),
        (
            [code_cell("x = 1", nbgrader=check_meta("same")), code_cell("y = 1", nbgrader=check_meta("same"))],
            "cell 2: grade_id 'same' is used twice",
        ),
    ],
)
def test_tag_nbgrader_stops_where_nbgrader_would_fail(cells, message):
    with pytest.raises(errors.ClassroomError, match=message):
        nbgrader_tags.tag_nbgrader({"cells": cells}, "lesson.ipynb")


def test_the_repository_notebooks_are_tagged():
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        raw = path.read_text(encoding="utf-8")
        notebook = json.loads(raw)
        assert nbgrader_tags.tag_nbgrader(notebook, path.name) >= 1
        assert nbgrader_tags.notebook_json(notebook) == raw, f"run: python -m bleu_classroom tag-nbgrader ({path.name})"


def test_tag_nbgrader_command_writes_only_what_changes(tmp_path):
    (tmp_path / "01_lesson.ipynb").write_text(json.dumps(exercise_notebook()), encoding="utf-8")
    command = [sys.executable, "-m", "bleu_classroom", "tag-nbgrader", str(tmp_path)]
    first = subprocess.run(command, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == ["01_lesson.ipynb: 2 exercises, tagged", "1 of 1 notebooks changed"]
    tagged = (tmp_path / "01_lesson.ipynb").read_text(encoding="utf-8")
    assert json.loads(tagged)["cells"][2]["metadata"]["nbgrader"] == solution_meta("exercise_1")
    second = subprocess.run(command, capture_output=True, text=True)
    assert second.stdout.splitlines()[-1] == "0 of 1 notebooks changed"
    assert (tmp_path / "01_lesson.ipynb").read_text(encoding="utf-8") == tagged
    empty = subprocess.run(command[:-1] + [str(tmp_path / "nothing")], capture_output=True, text=True)
    assert empty.returncode == 1 and "no notebooks" in empty.stderr
