"""tools/repository.py: one repository path everywhere, and a Colab cell that installs what a notebook needs.

A notebook opened alone in Colab must find the package and the data; where the
package is installed, or outside Colab, its first cell must do nothing (nbval
re-runs it and compares: no output). Colab itself cannot run here, so the cell's install
branch runs with subprocess and find_spec stubbed, and the commands it would
run are checked.
"""

import importlib.util
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("repository", ROOT / "tools" / "repository.py")
repository = importlib.util.module_from_spec(spec)
spec.loader.exec_module(repository)


def first_code_cell(path: Path) -> nbformat.NotebookNode:
    return next(cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")


@pytest.mark.parametrize("path", repository.notebooks(), ids=lambda p: p.name)
def test_every_notebook_starts_with_the_colab_cell(path):
    cell = first_code_cell(path)
    assert cell.source == repository.colab_cell(), "run python tools/repository.py, then refresh the notebook"
    assert repository.COLAB_TAG in cell.metadata.get("tags", []), "the website leaves the cell out by this tag"
    assert cell.outputs == [], "where bleu_scratch is installed the cell prints nothing"


def test_every_file_names_the_same_repository():
    for name in repository.NAMING_FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert repository.REPOSITORY in text, name
        assert set(re.findall(r"github(?:\.com)?/([\w.-]+/bleu-from-scratch)", text)) <= {repository.REPOSITORY}, name


def test_set_rewrites_every_place(tmp_path):
    for name in repository.NAMING_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    repository.set_repository("alice/bleu-course", tmp_path)
    for name in repository.NAMING_FILES:
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert repository.REPOSITORY not in text and "alice/bleu-course" in text, name
    for path in repository.notebooks(tmp_path):
        assert "https://github.com/alice/bleu-course" in first_code_cell(path).source, path.name
    with pytest.raises(SystemExit, match="OWNER/NAME"):
        repository.set_repository("https://github.com/alice/bleu-course", tmp_path)


def ran(monkeypatch, status: int = 0) -> list[tuple[list[str], dict]]:
    """Each command the cell runs, with its options; each ends with ``status``."""
    commands: list[tuple[list[str], dict]] = []

    def run(command, **options):
        commands.append((command, options))
        return subprocess.CompletedProcess(command, status)

    monkeypatch.setattr(subprocess, "run", run)
    return commands


def test_outside_colab_the_cell_does_nothing_even_without_the_package(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    commands = ran(monkeypatch)
    exec(repository.colab_cell("alice/bleu-course"), {})
    assert commands == [] and list(tmp_path.iterdir()) == []


def test_in_colab_without_the_package_the_cell_clones_installs_and_finds_it(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    commands = ran(monkeypatch)
    monkeypatch.setattr(sys, "path", list(sys.path))
    exec(repository.colab_cell("alice/bleu-course"), {})
    clone = tmp_path.resolve() / "bleu-from-scratch"
    assert commands[0][0][:2] == ["git", "clone"] and commands[0][0][-2:] == [
        "https://github.com/alice/bleu-course",
        str(clone),
    ]
    assert commands[0][1]["env"]["GIT_TERMINAL_PROMPT"] == "0"
    assert commands[1][0][1:] == ["-m", "pip", "install", "--quiet", "-r", "colab/requirements.txt"]
    assert commands[1][1]["cwd"] == clone
    assert sys.path[0] == str(clone)


def test_in_colab_a_clone_that_fails_stops_the_cell_in_one_line(monkeypatch, tmp_path):
    """git has printed why (no such repository, no network); the cell adds one line, not a traceback of its own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    commands = ran(monkeypatch, status=128)
    with pytest.raises(SystemExit) as stopped:
        exec(repository.colab_cell("alice/bleu-course"), {})
    assert str(stopped.value) == "could not clone https://github.com/alice/bleu-course (git says why just above)"
    assert len(commands) == 1  # nothing installed


def pins(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([\w.-]+)==(\S+)", path.read_text(encoding="utf-8"), re.M))


def test_colab_installs_the_pinned_versions():
    colab, everything = pins(ROOT / "colab" / "requirements.txt"), pins(ROOT / "requirements.txt")
    assert colab and {name: everything.get(name) for name in colab} == colab
    assert {"nltk", "sacrebleu", "numba", "llvmlite"} <= set(colab)  # the oracles, and lesson 10's compiler
    assert "-e ." in (ROOT / "colab" / "requirements.txt").read_text(encoding="utf-8").splitlines()
