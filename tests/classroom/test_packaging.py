"""The wheel: built without a deprecation warning, SPDX license metadata, the course tools' data, and a release
that needs a checkout."""

import email
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.classroom.edition_tools import REPO


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The wheel of a copy of the repository (a build writes build/ and *.egg-info into the folder it builds),
    and pip's output."""
    root = tmp_path_factory.mktemp("packaging")
    source = root / "repo"
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(".git", ".venv", "build", "site", "*.egg-info", "__pycache__", ".hypothesis"),
    )
    # -v: pip shows the build backend's own output (its warnings) only when asked.
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-v", "-w", str(root / "dist")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    (wheel,) = (root / "dist").glob("*.whl")
    return wheel, output


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """The wheel installed as pip installs it from an index: into a folder of its own, not linked to the checkout."""
    target = tmp_path_factory.mktemp("site-packages")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(built[0])],
        check=True,
        capture_output=True,
    )
    return target


def run_installed(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m bleu_classroom ARGS`` with the installed wheel first on the path, from a folder outside the
    repository."""
    env = dict(os.environ, PYTHONPATH=str(installed))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_build_prints_no_deprecation_warning(built):
    _, output = built
    assert "setuptools" in output.lower()  # the backend's output was captured
    assert "deprecat" not in output.lower(), output


def test_the_wheel_has_spdx_license_metadata_and_the_student_readme(built):
    wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        metadata = email.message_from_string(archive.read(metadata_name).decode("utf-8"))
        (license_name,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
        license_text = archive.read(license_name)
        assert (
            archive.read("bleu_classroom/student_README.md")
            == (REPO / "bleu_classroom" / "student_README.md").read_bytes()
        )
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["License"] is None  # the deprecated free-text field
    assert license_text == (REPO / "LICENSE").read_bytes()
    assert b"MIT License" in license_text and b"bleu-from-scratch contributors" in license_text


def test_release_from_a_normal_install_asks_for_a_checkout_in_one_line(installed, tmp_path):
    located = run_installed(installed, tmp_path, "-c", "import bleu_classroom; print(bleu_classroom.__file__)")
    assert Path(located.stdout.strip()).is_relative_to(installed)  # not the checkout's editable install
    result = run_installed(installed, tmp_path, "-m", "bleu_classroom", "release", "edition")
    assert (result.returncode, result.stdout) == (1, "")
    assert re.fullmatch(
        rf"bleu-classroom release: error: {re.escape(str(installed))} is not a checkout of the repository "
        r"\(no notebooks/\): "
        r"[^\n]*--source CHECKOUT\n",
        result.stderr,
    ), result.stderr
    assert not (tmp_path / "edition").exists()


def test_release_from_a_normal_install_of_a_named_checkout(installed, tmp_path):
    result = run_installed(installed, tmp_path, "-m", "bleu_classroom", "release", "edition", "--source", str(REPO))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote the student edition to edition: ")
    readme = (tmp_path / "edition" / "README.md").read_text(encoding="utf-8")
    template = (REPO / "bleu_classroom" / "student_README.md").read_text(encoding="utf-8")
    assert readme.splitlines()[0] == template.splitlines()[0] and readme != (REPO / "README.md").read_text(
        encoding="utf-8"
    )
    assert (tmp_path / "edition" / "notebooks").is_dir()


# nbgrader hidden from the import system, as in an environment without the [course] extra.
WITHOUT_NBGRADER = (
    "import runpy, sys; sys.modules['nbgrader'] = None; sys.argv[0] = 'bleu_classroom'; "
    "runpy.run_module('bleu_classroom', run_name='__main__')"
)


def test_course_grades_without_nbgrader_names_the_extra_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_NBGRADER, "course-grades", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "bleu-classroom: error: course-grades needs nbgrader: pip install 'bleu-scratch[course]'\n"
    # The commands that do not need it still run.
    listed = subprocess.run(
        [sys.executable, "-c", WITHOUT_NBGRADER, "grade", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0 and listed.stdout.startswith("usage:"), listed.stderr
