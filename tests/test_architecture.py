"""The layout the README promises: lessons in order, checks at the door, tools built on the lessons.

- bleu_scratch/: the lessons. A lesson module (its docstring starts "Lesson NN")
  imports only lesson modules of its own or an earlier lesson; the modules
  around them (the public door, the checks, the notebook helpers) import lessons.
- bleu_cli/: the command; bleu_classroom/: the course tools. Neither the
  lessons nor the command import the course tools, at import or at run time.
- Every public lesson function shows only its docstring and the lesson's code,
  and checks its input once per call, before the lesson's code runs.
"""

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bleu_scratch
from bleu_scratch import api

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["bleu_scratch", "bleu_cli", "bleu_classroom"]
MODULES = sorted(path for package in PACKAGES for path in (ROOT / package).glob("*.py"))
MAX_LINES = 400


def lesson_number(path: Path) -> int | None:
    match = re.match(r'\s*"""Lesson (\d+)', path.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else None


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, as a dotted name (relative imports resolved)."""
    package = path.parent.name
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            names.add(module)
            # `from . import corpus` names a module too.
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


LESSONS = {path.stem: lesson_number(path) for path in (ROOT / "bleu_scratch").glob("*.py") if lesson_number(path) is not None}


def test_the_lesson_modules_follow_the_notebooks_without_gaps():
    # Lesson 00 is a notebook only; every later lesson has at least one module.
    numbers = sorted(set(LESSONS.values()))
    assert numbers == list(range(1, numbers[-1] + 1)), LESSONS


@pytest.mark.parametrize("module", sorted(LESSONS), ids=str)
def test_a_lesson_imports_only_its_own_or_earlier_lessons(module):
    path = ROOT / "bleu_scratch" / f"{module}.py"
    package_modules = {name.split(".")[1] for name in imported_modules(path) if name.startswith("bleu_scratch.")}
    not_lessons = sorted(package_modules - LESSONS.keys())
    assert not not_lessons, f"lesson {LESSONS[module]:02d} ({module}.py) imports {not_lessons}, which are no lessons"
    later = sorted(name for name in package_modules if LESSONS[name] > LESSONS[module])
    assert not later, f"lesson {LESSONS[module]:02d} ({module}.py) imports later lessons: {later}"
    assert not {name for name in imported_modules(path) if name.split(".")[0] in ("bleu_cli", "bleu_classroom")}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_each_module_names_its_job_and_reads_in_one_sitting(path):
    source = path.read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(source)), "a module docstring names the module's one job"
    assert len(source.splitlines()) <= MAX_LINES


@pytest.mark.parametrize("path", MODULES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_only_the_course_tools_import_the_course_tools(path):
    if path.parent.name == "bleu_classroom":
        return
    uses = {name for name in imported_modules(path) if name.split(".")[0] == "bleu_classroom"}
    assert not uses
    if path.parent.name == "bleu_scratch":
        assert not {name for name in imported_modules(path) if name.split(".")[0] == "bleu_cli"}


def test_neither_the_lessons_nor_the_command_load_the_course_tools_when_they_run(data_dir):
    folder = data_dir / "wmt15-enru-100"
    # In a student edition the command may stop at an unwritten exercise: it must get there alone too.
    code = (
        "import sys, bleu_scratch, bleu_cli\n"
        f"bleu_cli.main([{str(folder / 'google.ru')!r}, {str(folder / 'ref.ru')!r}, '--sentence', '--smoothing', '7'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('bleu_classroom')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.splitlines()[-1] == "[]", result.stderr


PUBLIC_FUNCTIONS = [name for name in bleu_scratch.__all__ if inspect.isfunction(getattr(bleu_scratch, name))]
CHECKED = [name for name in PUBLIC_FUNCTIONS if getattr(bleu_scratch, name).__module__ == "bleu_scratch.api"]


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_a_public_function_shows_only_its_lesson(name):
    source = inspect.getsource(getattr(bleu_scratch, name))
    assert re.match(r"def \w+\(", source), "the lesson's function, not the door in front of it"
    assert not re.search(r"\bcheck_\w+\(", source)
    assert inspect.getdoc(getattr(bleu_scratch, name))


@pytest.mark.parametrize("name", CHECKED)
def test_the_door_takes_the_arguments_of_its_lesson_function(name):
    door = getattr(bleu_scratch, name)
    assert inspect.signature(door, follow_wrapped=False).parameters.keys() == inspect.signature(door.__wrapped__).parameters.keys()
    defaults = [parameter.default for parameter in inspect.signature(door, follow_wrapped=False).parameters.values()]
    assert defaults == [parameter.default for parameter in inspect.signature(door.__wrapped__).parameters.values()]


def test_every_lesson_function_with_a_check_has_a_door():
    # What the README lists as checked input, and nothing else.
    assert sorted(CHECKED) == sorted([
        "tokenize_whitespace", "tokenize_lowercase", "tokenize_punctuation", "tokenize_paper", "tokenize_13a",
        "modified_precision", "closest_ref_length", "sentence_stats", "bleu_from_stats", "sentence_bleu",
        "corpus_stats", "corpus_bleu", "shortest_ref_length", "first_closest_ref_length", "variant_sentence_bleu",
        "sacrebleu_from_stats", "fast_bleu_from_stats", "parallel_corpus_stats", "parallel_corpus_bleu",
        "batch_sentence_stats", "batch_sentence_bleu", "batch_corpus_stats", "explain",
        "introduction_bleu", "study_notes_bleu", "kirchhoff_tokenize", "kirchhoff_bleu",
        "paired_test",
        "pearson", "kendall_tau", "discordant_pairs", "bigram_mismatch_chunks", "permutations_keeping_matches",
        "word_edit_distance", "word_error_rate",
    ])


def counting(monkeypatch, names: list[str]) -> dict[str, int]:
    """Count the calls of each of the door's checks while a test runs."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        check = getattr(api, name)

        def counted(*args, _check=check, _name=name, **kwargs):
            calls[_name] += 1
            return _check(*args, **kwargs)

        monkeypatch.setattr(api, name, counted)
    return calls


REFERENCES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "sat"]]
HYPOTHESIS = ["the", "cat", "sat", "on", "the", "mat"]


@pytest.mark.parametrize(
    "call, checks",
    [
        (lambda: bleu_scratch.sentence_bleu(REFERENCES, HYPOTHESIS), {"check_tokens": 1, "check_references": 1, "check_weights": 1}),
        (lambda: bleu_scratch.corpus_bleu([REFERENCES] * 3, [HYPOTHESIS] * 3), {"check_corpus": 1, "check_weights": 1}),
        (lambda: bleu_scratch.modified_precision(REFERENCES, HYPOTHESIS, 2), {"check_order": 1, "check_tokens": 1, "check_references": 1}),
        (lambda: bleu_scratch.variant_sentence_bleu(REFERENCES, HYPOTHESIS), {"check_tokens": 1, "check_references": 1}),
        (lambda: bleu_scratch.parallel_corpus_bleu([REFERENCES] * 3, [HYPOTHESIS] * 3, jobs=1), {"check_corpus": 1, "check_weights": 1}),
        (lambda: bleu_scratch.word_error_rate(REFERENCES, HYPOTHESIS), {"check_tokens": 1, "check_references": 1}),
        (lambda: bleu_scratch.permutations_keeping_matches(REFERENCES, HYPOTHESIS), {"check_tokens": 1, "check_references": 1}),
    ],
    ids=[
        "sentence_bleu", "corpus_bleu", "modified_precision", "variant_sentence_bleu", "parallel_corpus_bleu",
        "word_error_rate", "permutations_keeping_matches",
    ],
)
def test_each_public_call_checks_its_input_once(monkeypatch, call, checks):
    calls = counting(monkeypatch, ["check_tokens", "check_references", "check_corpus", "check_order", "check_weights"])
    call()
    assert {name: count for name, count in calls.items() if count} == checks
