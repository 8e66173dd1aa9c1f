"""One student edition, the repository's own grade and an autograded nbgrader course, made once for all the course tools' tests."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_classroom import command, grader, release, report
from tests.classroom.edition_tools import REPO


@pytest.fixture(scope="session")
def edition(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edition")
    release.release(out)
    return out


@pytest.fixture(scope="session")
def repo_report() -> report.Report:
    return grader.grade(REPO)


@pytest.fixture(scope="session")
def fresh_report(edition, repo_report) -> report.Report:
    return grader.grade(edition)


# nbgrader's course for the tests: lessons 01 and 02 (quick to run), released,
# then handed in by two students and autograded.
NBGRADER_NOTEBOOKS = ["01", "02"]
ASSIGNMENT = "bleu"


def nbgrader(course: Path, *args: str) -> None:
    """Run the pinned nbgrader in ``course``, as an instructor would (it finds ``alembic`` on PATH)."""
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", JUPYTER_CONFIG_DIR=str(course / ".jupyter"))
    env.pop("BLEU_SCRATCH_DATA", None)  # the notebooks must find data/ beside the package
    done = subprocess.run([str(bin_dir / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="session")
def nbgrader_course(tmp_path_factory) -> Path:
    """The course after ``generate_assignment`` and ``autograde`` of two submissions.

    "filled" hands in what a student who wrote everything would: the
    instructor's notebooks and package. "fresh" hands in the release unchanged.
    """
    course = tmp_path_factory.mktemp("course")
    assert command.main(["nbgrader-course", str(course), "--assignment", ASSIGNMENT, "--notebooks", *NBGRADER_NOTEBOOKS]) == 0
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    release_dir, submitted = course / "release" / ASSIGNMENT, course / "submitted"
    shutil.copytree(release_dir, submitted / "fresh" / ASSIGNMENT)
    filled = submitted / "filled" / ASSIGNMENT
    shutil.copytree(release_dir, filled)
    for notebook in release_dir.glob("*.ipynb"):
        shutil.copy(REPO / "notebooks" / notebook.name, filled / notebook.name)
    shutil.rmtree(filled / "bleu_scratch")
    shutil.copytree(REPO / "bleu_scratch", filled / "bleu_scratch", ignore=shutil.ignore_patterns("__pycache__"))
    nbgrader(course, "autograde", ASSIGNMENT)
    return course
