"""The release: the student edition has a stub for every solution, runs on its own, and is written safely."""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bleu_classroom import (
    errors,
    markers,
    release,
)
from tests.classroom.edition_tools import (
    BEGIN,
    END,
    LESSON_MODULES,
    REPO,
    STUB,
    function_node,
    tracked,
)


def test_edition_has_stubs_in_place_of_every_solution(edition):
    for path in edition.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".ipynb", ".md", ".toml", ".txt"):
            lines = path.read_text(encoding="utf-8").splitlines()
            assert not [line for line in lines if line.strip() in (BEGIN, END)], path
    for module in LESSON_MODULES:
        solved = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        student = (edition / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        for name in markers.marked_functions(solved):
            ours, theirs = function_node(solved, name), function_node(student, name)
            assert ast.unparse(theirs.args) == ast.unparse(ours.args)
            assert ast.get_docstring(theirs) == ast.get_docstring(ours)
            assert ast.unparse(theirs.body[-1]) == STUB
            # What stands before the stub (the input checks) is the instructor's code, unchanged.
            before = [ast.unparse(s) for s in theirs.body[1:-1]]
            assert before == [ast.unparse(s) for s in ours.body[1 : 1 + len(before)]]


def test_notebooks_have_stubs_and_no_outputs(edition):
    for solved_path in sorted((REPO / "notebooks").glob("*.ipynb")):
        solved = json.loads(solved_path.read_text(encoding="utf-8"))
        student = json.loads((edition / "notebooks" / solved_path.name).read_text(encoding="utf-8"))
        assert len(student["cells"]) == len(solved["cells"])
        for ours, theirs in zip(solved["cells"], student["cells"]):
            source = "".join(theirs["source"])
            if BEGIN in [line.strip() for line in "".join(ours["source"]).splitlines()]:
                assert STUB in source and "# YOUR CODE HERE" in source
            else:
                assert source == "".join(ours["source"])
            if theirs["cell_type"] == "code":
                assert theirs["outputs"] == [] and theirs["execution_count"] is None
            # nbgrader's own student version keeps the cell metadata too: the grade_ids tie a submission to its tests.
            assert theirs["metadata"].get("nbgrader") == ours["metadata"].get("nbgrader")
        assert any("nbgrader" in cell["metadata"] for cell in student["cells"])


def test_edition_can_be_installed_and_tested_on_its_own(edition):
    for name in ("requirements.txt", "environment.yml"):
        assert (edition / name).read_bytes() == (REPO / name).read_bytes()
    # pyproject.toml, less the console script of the course tools the edition leaves out.
    ours, theirs = (tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8")) for root in (REPO, edition))
    assert ours["project"]["scripts"].pop("bleu-classroom") == "bleu_classroom.command:main"
    assert ours == theirs
    for data in (REPO / "data").rglob("*"):
        if data.is_file():
            assert (edition / data.relative_to(REPO)).read_bytes() == data.read_bytes()
    assert (edition / "tests" / "conftest.py").is_file()
    assert not (edition / "tests" / "classroom").exists()
    # The course tools are the instructor's, and so are the tests and tools that use them.
    assert not (edition / "bleu_classroom").exists()
    uses = re.compile(r"^\s*(from|import) bleu_classroom", re.M)
    assert not [p for p in edition.rglob("*.py") if uses.search(p.read_text(encoding="utf-8"))]
    assert not (edition / "tools" / "refresh_notebooks.py").exists()
    # The student edition's pytest hooks; the instructor's repository has none.
    assert (edition / "conftest.py").read_bytes() == (REPO / "bleu_classroom" / "edition_conftest.py").read_bytes()
    assert not (REPO / "conftest.py").exists()
    readme = (edition / "README.md").read_text(encoding="utf-8")
    assert "bleu_classroom" not in readme
    assert "cases drawn when grading" in readme and "for at most 20 seconds and\n1024 MB of memory" in readme
    # The repository ignores data/published_examples.json although it ships it;
    # a student repository made from the edition must not lose it.
    ignored = (edition / ".gitignore").read_text(encoding="utf-8").split()
    shipped = [p.relative_to(edition).as_posix() for p in edition.rglob("*") if p.is_file()]
    assert not [(p, rel) for p in ignored for rel in shipped if release._ignores(p.strip("/"), rel)]


def test_pytest_collects_every_test_of_a_fresh_edition(edition):
    """Nothing in the edition imports what it leaves out: pytest there starts, then skips what is not written."""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=edition,
        env=dict(os.environ, PYTHONPATH=str(edition)),
        capture_output=True,
        text=True,
    )
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr
    assert re.search(r"^\d+ tests collected in ", collected.stdout, re.M), collected.stdout[-500:]


def test_release_refuses_a_non_empty_directory_unless_forced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine\n")
    command = [sys.executable, "-m", "bleu_classroom", "release", str(tmp_path)]
    refused = subprocess.run(command, capture_output=True, text=True)
    assert refused.returncode != 0 and "--force" in refused.stderr
    assert not (tmp_path / "README.md").exists()
    forced = subprocess.run(command + ["--force"], capture_output=True, text=True)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine\n"
    assert (tmp_path / "bleu_scratch" / "lesson01_ngrams.py").is_file()


def test_release_with_force_fails_on_an_old_file_that_holds_a_solution(tmp_path):
    shutil.copy(REPO / "bleu_scratch" / "lesson01_ngrams.py", tmp_path / "my_ngrams_backup.py")
    with pytest.raises(errors.ClassroomError, match="my_ngrams_backup.py"):
        release.release(tmp_path, force=True)


def test_release_to_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "edition").write_text("not a folder\n")
    command = [sys.executable, "-m", "bleu_classroom", "release", str(tmp_path / "edition")]
    for args in ([], ["--force"]):
        refused = subprocess.run(command + args, capture_output=True, text=True)
        assert (refused.returncode, refused.stderr) == (
            1,
            f"bleu-classroom release: error: {tmp_path / 'edition'} is a file; "
            "give the name of a new or empty directory\n",
        )


def test_the_edition_hides_parallel_corpus_bleu_but_not_what_the_command_uses():
    """parallel_corpus_bleu's body is lesson 06's corpus_bleu; bleu-scratch --jobs needs the rest."""
    source = (REPO / "bleu_scratch" / "lesson10_parallel.py").read_text(encoding="utf-8")
    assert markers.marked_functions(source) == ["parallel_corpus_stats", "parallel_corpus_bleu"]
    stubbed, _ = markers.strip_solutions(source, markers.CODE_STUB)
    assert "bleu_from_stats(" not in stubbed and "def sum_shard_stats(" in stubbed


def test_the_lessons_website_stays_out_of_the_edition(tmp_path):
    # tools/build_site.py writes site/ into the repository by default, solutions folded in its pages.
    source = tmp_path / "repo"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "site", "__pycache__", ".hypothesis"))
    (source / "site").mkdir()
    (source / "site" / "02_clipping.html").write_text("<pre>### BEGIN SOLUTION\nx = 1\n### END SOLUTION</pre>\n")
    edition = release.build_edition(tracked(source))  # committed by mistake, site/ still stays out
    assert not [rel for rel in edition.files if rel.startswith("site/")]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A git checkout of the repository's tracked files, as an instructor's clone."""
    source = tmp_path_factory.mktemp("checkout") / "repo"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "site", "__pycache__", ".hypothesis"))
    return tracked(source)


def test_only_what_git_tracks_is_released(checkout, tmp_path):
    """An instructor's answer key, gradebook, students' work and an earlier edition sit untracked in the checkout."""
    (checkout / "private").mkdir()
    (checkout / "private" / "exam.md").write_text("the answers\n")
    (checkout / "gradebook.db").write_bytes(b"SQLite format 3\0")
    (checkout / "notebooks" / "answers.ipynb").write_text("{}")
    (checkout / "tests" / "lessons" / "test_my_quiz.py").write_text("def test_quiz():\n    pass\n")
    release.release(checkout / "student", source=checkout)
    edition = release.build_edition(checkout)  # the edition of before, left in the checkout, stays out too
    left_out = ("private/", "student/", "gradebook", "tests/lessons/test_my")
    assert not [rel for rel in edition.files if rel.startswith(left_out)]
    assert "notebooks/answers.ipynb" not in edition.files
    subprocess.run(["git", "add", "tests/lessons/test_my_quiz.py"], cwd=checkout, check=True)
    assert "tests/lessons/test_my_quiz.py" in release.build_edition(checkout).files


def test_a_source_git_does_not_track_or_a_broken_notebook_is_one_line(checkout, tmp_path):
    untracked = tmp_path / "copy"
    shutil.copytree(checkout, untracked, ignore=shutil.ignore_patterns(".git", "student"))
    place = re.escape(str(untracked))  # git's answer: no repository, or (inside someone's) nothing tracked here
    said = rf"^(git cannot list the files of {place} \(fatal: .*\)|git tracks no lessons in {place}): "
    with pytest.raises(errors.ClassroomError, match=said):
        release.build_edition(untracked)
    notebook = checkout / "notebooks" / "01_tokens_and_ngrams.ipynb"
    saved = notebook.read_bytes()
    notebook.write_bytes(saved[: len(saved) // 2])
    try:
        with pytest.raises(errors.ClassroomError, match=r"^notebooks/01_tokens_and_ngrams.ipynb is not a notebook \("):
            release.build_edition(checkout)
    finally:
        notebook.write_bytes(saved)


def test_the_editions_texts_describe_the_edition(edition):
    """A file of the repository the edition leaves out, the instructor's README or the solution markers are named
    as the full repository's."""
    texts = {"README.md": (edition / "README.md").read_text(encoding="utf-8")}
    for path in sorted((edition / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate(cells, start=1):
            if cell["cell_type"] == "markdown":
                texts[f"{path.name} cell {number}"] = "".join(cell["source"])
    top_level = {path.name for path in REPO.iterdir()}
    elsewhere = []
    for where, text in texts.items():
        for sentence in re.split(r"(?<=[.!?:])\s+", text):
            missing = [
                path
                for path in re.findall(r"`([\w.-]+/[\w./-]*)`", sentence)
                if path.split("/")[0] in top_level and not (edition / path).exists()
            ]
            instructors = re.findall(r"\bthe\s+README\b|marker\s+comment", sentence, re.I)
            if (missing or instructors) and "full repository" not in sentence:
                elsewhere.append(f"{where}: {sentence}")
    assert not elsewhere, "\n".join(elsewhere)
