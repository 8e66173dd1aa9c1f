"""One student edition, the repository's own grade and an autograded nbgrader course, made once for all the
course tools' tests."""

import os
import shutil
from pathlib import Path

import pytest

from bleu_classroom import command, grader, release, report
from tests.classroom.edition_tools import REPO
from tests.classroom.nbgrader_tools import ASSIGNMENT, NBGRADER_NOTEBOOKS, nbgrader


@pytest.fixture(scope="session", autouse=True)
def grader_cache(tmp_path_factory) -> None:
    """The grader's kept seed and cached results, in a folder of the tests' own."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("grader-cache"))


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


@pytest.fixture(scope="session")
def nbgrader_course(tmp_path_factory) -> Path:
    """The course after ``generate_assignment`` and ``autograde`` of three submissions.

    "filled" hands in what a student who wrote everything would: the
    instructor's notebooks and package. "fresh" hands in the release unchanged. "intruder" attacks.
    """
    course = tmp_path_factory.mktemp("course")
    assert (
        command.main(["nbgrader-course", str(course), "--assignment", ASSIGNMENT, "--notebooks", *NBGRADER_NOTEBOOKS])
        == 0
    )
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    release_dir, submitted = course / "release" / ASSIGNMENT, course / "submitted"
    shutil.copytree(release_dir, submitted / "fresh" / ASSIGNMENT)
    filled = submitted / "filled" / ASSIGNMENT
    shutil.copytree(release_dir, filled)
    for notebook in release_dir.glob("*.ipynb"):
        shutil.copy(REPO / "notebooks" / notebook.name, filled / notebook.name)
    shutil.rmtree(filled / "bleu_scratch")
    shutil.copytree(REPO / "bleu_scratch", filled / "bleu_scratch", ignore=shutil.ignore_patterns("__pycache__"))
    # "intruder" hands in what "filled" does, with a package that, imported by the notebooks, appends to
    # the gradebook, the course's settings and the other students' work.
    intruder = submitted / "intruder" / ASSIGNMENT
    shutil.copytree(filled, intruder)
    with (intruder / "bleu_scratch" / "lesson01_ngrams.py").open("a", encoding="utf-8") as module:
        module.write(
            f"\nfor _path in {[str(path) for path in intruder_targets(course)]!r}:\n"
            "    try:\n"
            "        open(_path, 'ab').write(b'OWNED')\n"
            "    except OSError:\n"
            "        pass\n"
            # And puts links in place of its notebooks, to a file of the instructor's and to the solutions, for
            # nbgrader (outside the sandbox) to write the executed notebook over, or show as feedback.
            "import os as _os\n"
            f"for _name, _target in {planted_links(course)!r}.items():\n"
            "    try:\n"
            "        _os.symlink(_target, _name + '.planted')\n"
            "        _os.replace(_name + '.planted', _name)\n"
            "    except OSError:\n"
            "        pass\n"
        )
    (course / "instructors.txt").write_text("the instructor's own file\n", encoding="utf-8")
    nbgrader(course, "autograde", ASSIGNMENT)
    return course


def planted_links(course: Path) -> dict[str, str]:
    """The links the intruder's package puts in place of its notebooks, by name: to where each leads."""
    source = course / "source" / ASSIGNMENT
    return {
        "01_tokens_and_ngrams.ipynb": str(course / "instructors.txt"),
        "02_clipping.ipynb": str(source / "01_tokens_and_ngrams.ipynb"),
    }


def intruder_targets(course: Path) -> list[Path]:
    """What the intruder's package tries to append to."""
    return [
        course / "gradebook.db",
        course / "nbgrader_config.py",
        course / "source" / ASSIGNMENT / "bleu_scratch" / "lesson01_ngrams.py",
        course / "submitted" / "filled" / ASSIGNMENT / "01_tokens_and_ngrams.ipynb",
        course / "autograded" / "filled" / ASSIGNMENT / "bleu_scratch" / "lesson01_ngrams.py",
        course / "submitted" / "fresh" / ASSIGNMENT / "bleu_scratch" / "lesson01_ngrams.py",
    ]
