"""The pinned nbgrader on the course ``nbgrader-course`` lays out: the release, and autograde of three students."""

import json
import os
import re
from pathlib import Path

import pytest

from bleu_classroom import leaks, release
from tests.classroom.conftest import intruder_targets, planted_links
from tests.classroom.edition_tools import REPO
from tests.classroom.nbgrader_tools import ASSIGNMENT, nbgrader_scores

# Hand-counted: lessons 01 and 02 each have two exercise cells, each check worth 1 point.
NOTEBOOK_MAX = {"01_tokens_and_ngrams": 2.0, "02_clipping": 2.0}


def release_leaks(folder: Path) -> list[str]:
    """Where the assignment in ``folder`` shows a line of a solution (notebooks named as in the repository)."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        found += leaks.passages(f"notebooks/{rel}" if rel.endswith(".ipynb") else rel, path.read_bytes())
    return leaks.find_leaks(found, release.build_edition().regions)


def errors(notebook: Path) -> list[tuple[str | None, str, str]]:
    """(nbgrader grade_id or None, exception name, traceback without colours) of each cell that raised, in an
    autograded notebook."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [
        (
            cell["metadata"].get("nbgrader", {}).get("grade_id"),
            output["ename"],
            re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(output["traceback"])),
        )
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
        if output["output_type"] == "error"
    ]


def test_the_release_has_the_notebooks_on_top_the_stubbed_package_and_no_solution(nbgrader_course):
    released = nbgrader_course / "release" / ASSIGNMENT
    assert sorted(p.name for p in released.glob("*.ipynb")) == [f"{name}.ipynb" for name in NOTEBOOK_MAX]
    assert (released / "data" / "published_examples.json").is_file()
    assert "raise NotImplementedError()" in (released / "bleu_scratch" / "lesson01_ngrams.py").read_text(
        encoding="utf-8"
    )
    assert release_leaks(released) == []
    # The same search finds the solutions a filled submission holds.
    assert release_leaks(nbgrader_course / "submitted" / "filled" / ASSIGNMENT)


def test_the_filled_course_scores_full_marks_with_no_error_in_any_cell(nbgrader_course):
    assert nbgrader_scores(nbgrader_course, "filled") == {
        name: (points, points) for name, points in NOTEBOOK_MAX.items()
    }
    autograded = nbgrader_course / "autograded" / "filled" / ASSIGNMENT
    for name in NOTEBOOK_MAX:
        assert errors(autograded / f"{name}.ipynb") == []
    # autograde kept the student's package rather than the source's stubs.
    assert (autograded / "bleu_scratch" / "lesson01_ngrams.py").read_bytes() == (
        REPO / "bleu_scratch" / "lesson01_ngrams.py"
    ).read_bytes()


@pytest.mark.parametrize("name", NOTEBOOK_MAX)
def test_a_fresh_edition_scores_0_and_each_check_fails_only_at_the_students_missing_work(nbgrader_course, name):
    assert nbgrader_scores(nbgrader_course, "fresh")[name] == (0.0, NOTEBOOK_MAX[name])
    raised = errors(nbgrader_course / "autograded" / "fresh" / ASSIGNMENT / f"{name}.ipynb")
    checks = [
        (grade_id, ename, traceback)
        for grade_id, ename, traceback in raised
        if grade_id and grade_id.endswith("_check")
    ]
    assert len(checks) == NOTEBOOK_MAX[name]  # every check failed ...
    for grade_id, ename, traceback in checks:  # ... at a stub: an exercise cell's or a package function's
        assert ename == "NotImplementedError" and "raise NotImplementedError()" in traceback, (grade_id, traceback)
    # The data and the package were found wherever nbgrader ran the notebook.
    assert not {ename for _, ename, _ in raised} & {"FileNotFoundError", "ModuleNotFoundError", "ImportError"}


def test_autograde_runs_a_submission_where_it_cannot_reach_the_gradebook_or_other_students(nbgrader_course):
    # The intruder's package (conftest.py) appended b"OWNED" wherever it could: in its own folders only.
    owned = [p for p in nbgrader_course.rglob("*") if p.is_file() and b"OWNED" in p.read_bytes()]
    assert owned and all("intruder" in p.parts for p in owned)
    assert all(path.is_file() for path in intruder_targets(nbgrader_course))
    # Its links never replaced its notebooks, so nbgrader wrote over no file of the instructor's and read no solution.
    autograded = nbgrader_course / "autograded" / "intruder" / ASSIGNMENT
    assert not [name for name in planted_links(nbgrader_course) if (autograded / name).is_symlink()]
    instructors = nbgrader_course / "instructors.txt"
    assert instructors.read_text(encoding="utf-8") == "the instructor's own file\n"
    assert os.stat(instructors).st_mode & 0o200  # nbgrader makes what it writes read-only
    # nbgrader wrote the gradebook: every student's grades are there, the others' as they should be.
    full = {name: (points, points) for name, points in NOTEBOOK_MAX.items()}
    assert nbgrader_scores(nbgrader_course, "filled") == nbgrader_scores(nbgrader_course, "intruder") == full
