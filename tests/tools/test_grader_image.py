"""tools/grader.Dockerfile and tools/grader_image.py: the grader's image holds no lesson and no solution, and grades.

No Docker engine runs on this machine, so the image itself is never built here. The test makes the
build context as an instructor would, checks that it holds nothing of the lessons, installs into an
empty virtual environment exactly what the Dockerfile installs, and grades from that environment
(sandboxed, as always): a fresh edition 0, the repository's package full marks.
"""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_classroom import leaks, release

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("grader_image", ROOT / "tools" / "grader_image.py")
grader_image = importlib.util.module_from_spec(spec)
spec.loader.exec_module(grader_image)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def context(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("context")
    grader_image.make_context(folder)
    return folder


def test_the_dockerfile_copies_only_the_context_and_installs_its_requirements(context):
    lines = (context / "Dockerfile").read_text(encoding="utf-8").splitlines()
    copied = [line.split()[1] for line in lines if line.startswith("COPY ")]
    assert copied == ["requirements.txt", "bleu_classroom"]
    installs = [line for line in lines if "pip install" in line]
    assert len(installs) == 1 and installs[0].endswith("pip install --no-cache-dir -r /opt/grader/requirements.txt")
    assert (context / "requirements.txt").read_text().split() == [
        "numpy==2.4.6",
        "nltk==3.10.4",
        "nbgrader==0.9.6",
        "jsonschema==4.24.1",
    ]


def test_the_context_holds_no_lesson_notebook_or_solution(context):
    files = sorted(path.relative_to(context).as_posix() for path in context.rglob("*") if path.is_file())
    assert {name.split("/")[0] for name in files} == {"Dockerfile", "requirements.txt", "bleu_classroom"}
    assert not [name for name in files if name.endswith(".ipynb") or re.search(r"lesson\d\d_", name)]
    for name in files:
        assert "### BEGIN SOLUTION" not in [line.strip() for line in (context / name).read_text().splitlines()], name
    # Not one solution line of 20 characters or more, anywhere (the release's own leak search).
    regions = release.build_edition().regions
    passages = [p for name in files for p in leaks.passages(name, (context / name).read_bytes(), lessons=False)]
    assert leaks.find_leaks(passages, regions) == []


@pytest.fixture(scope="module")
def image_python(context, tmp_path_factory) -> Path:
    """Python with what the image installs (RUN python -m venv ... && pip install -r requirements.txt), nothing else.

    This pip installs into the empty venv (``--python``) rather than a copy of pip set up in it, and leaves the
    bytecode to be compiled as the grader imports: the same packages, in half the time.
    """
    venv = tmp_path_factory.mktemp("image") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile"]
    subprocess.run([*pip, "-r", str(context / "requirements.txt")], check=True, timeout=900, capture_output=True)
    return python


def in_image(python: Path, context: Path, tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """``argv`` run as the image's ENTRYPOINT runs it: PYTHONPATH=/opt/grader, python -P -m bleu_classroom."""
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(context), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [str(python), "-P", "-m", *argv]
    return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_the_image_has_no_bleu_scratch_and_grades_a_fresh_edition_0_and_the_solutions_24(
    image_python, context, tmp_path
):
    assert in_image(image_python, context, tmp_path, "bleu_scratch").stderr.endswith("No module named bleu_scratch\n")
    edition = tmp_path / "edition"
    release.release(edition)
    solved = tmp_path / "solved"
    shutil.copytree(ROOT / "bleu_scratch", solved / "bleu_scratch", ignore=shutil.ignore_patterns("__pycache__"))
    for folder, score in ((edition, 0), (solved, 24)):
        graded = in_image(image_python, context, tmp_path, "bleu_classroom", "grade", str(folder), "--json")
        assert graded.returncode == 0, graded.stderr
        assert (json.loads(graded.stdout)["score"], json.loads(graded.stdout)["max_score"]) == (score, 24)
    # What needs the lessons says so in one line.
    released = in_image(image_python, context, tmp_path, "bleu_classroom", "release", str(tmp_path / "out"))
    assert (released.returncode, released.stderr.count("\n")) == (2, 1), released.stderr
    assert "release needs bleu_scratch" in released.stderr
