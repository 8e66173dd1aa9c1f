"""The layout docs/package.md promises: the tree shows the lessons, checks at the door, tools built on the lessons.

- bleu_scratch/lessonNN_*.py: the lessons, numbered as the notebooks. A lesson
  module imports only lessons of its own number or earlier, and the machinery
  (``checks``, ``notebook``); the machinery imports no lesson when it loads.
- bleu_cli/: the command; bleu_classroom/: the course tools. Neither the
  lessons nor the command import the course tools, at import or at run time.
- Every public name is its lesson's own code: the source shows the door's one
  line (``@door(...)``), then the lesson's function. Each public call checks
  its input once, before the lesson's code runs.
- Importing changes nothing; lessons 01 to 09 import with the standard library alone.
"""

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bleu_scratch
import bleu_scratch.checks

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["bleu_scratch", "bleu_cli", "bleu_classroom"]
MODULES = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))
MAX_LINES = 400
LESSON_FILE = re.compile(r"lesson(\d\d)_\w+\.py")
LESSONS = {
    path.stem: int(match.group(1))
    for path in sorted((ROOT / "bleu_scratch").glob("lesson*.py"))
    if (match := LESSON_FILE.fullmatch(path.name))
}
MACHINERY = ["checks", "notebook"]


def imported_modules(path: Path, top_level_only: bool = False) -> set[str]:
    """Every module ``path`` imports, as a dotted name (relative imports resolved); at load time only if asked."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else ast.walk(tree)
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            names.add(module)
            # `from . import checks` names a module too.
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_every_lesson_has_its_numbered_module_and_notebook():
    numbers = sorted(set(LESSONS.values()))
    assert numbers == list(range(1, 14)), LESSONS
    notebooks = {int(path.name[:2]) for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert set(numbers) <= notebooks
    # Nothing else sits beside the lessons: the machinery has folders named for what it does.
    others = {path.name for path in (ROOT / "bleu_scratch").iterdir() if path.name not in {f"{m}.py" for m in LESSONS}}
    assert others - {"__pycache__"} == {"__init__.py", *MACHINERY}


@pytest.mark.parametrize("module", sorted(LESSONS), ids=str)
def test_a_lessons_docstring_names_the_lesson_its_file_does(module):
    docstring = ast.get_docstring(ast.parse((ROOT / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")))
    assert docstring.startswith(f"Lesson {LESSONS[module]:02d}: ")


@pytest.mark.parametrize("module", sorted(LESSONS), ids=str)
def test_a_lesson_imports_only_its_own_or_earlier_lessons(module):
    path = ROOT / "bleu_scratch" / f"{module}.py"
    ours = {name.split(".")[1] for name in imported_modules(path) if name.startswith("bleu_scratch.")}
    not_lessons = sorted(ours - LESSONS.keys() - set(MACHINERY))
    assert not not_lessons, f"lesson {LESSONS[module]:02d} ({module}.py) imports {not_lessons}"
    later = sorted(name for name in ours & LESSONS.keys() if LESSONS[name] > LESSONS[module])
    assert not later, f"lesson {LESSONS[module]:02d} ({module}.py) imports later lessons: {later}"
    assert not {name for name in imported_modules(path) if name.split(".")[0] in ("bleu_cli", "bleu_classroom")}


@pytest.mark.parametrize(
    "path", sorted(p for m in MACHINERY for p in (ROOT / "bleu_scratch" / m).glob("*.py")), ids=lambda p: p.name
)
def test_the_machinery_loads_no_lesson(path):
    # The lessons import the machinery (their doors), so it may import a lesson only inside a function.
    loaded = {
        name.split(".")[1] for name in imported_modules(path, top_level_only=True) if name.startswith("bleu_scratch.")
    }
    assert not loaded & LESSONS.keys()


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_each_module_names_its_job_and_reads_in_one_sitting(path):
    source = path.read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(source)), "a module docstring names the module's one job"
    assert len(source.splitlines()) <= MAX_LINES


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_only_the_course_tools_import_the_course_tools(path):
    if path.relative_to(ROOT).parts[0] == "bleu_classroom":
        return
    assert not {name for name in imported_modules(path) if name.split(".")[0] == "bleu_classroom"}
    if path.relative_to(ROOT).parts[0] == "bleu_scratch":
        assert not {name for name in imported_modules(path) if name.split(".")[0] == "bleu_cli"}


def test_neither_the_lessons_nor_the_command_load_the_course_tools_when_they_run(data_dir):
    folder = data_dir / "wmt15-enru-100"
    # In a student edition the command may stop at an unwritten exercise: it must get there alone too.
    code = (
        "import sys, bleu_scratch, bleu_cli\n"
        f"bleu_cli.main([{str(folder / 'google.ru')!r}, {str(folder / 'ref.ru')!r}, "
        "'--sentence', '--smoothing', '7'])\n"
        "print(sorted(name for name in sys.modules if name.startswith('bleu_classroom')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.splitlines()[-1] == "[]", result.stderr


PUBLIC_FUNCTIONS = [name for name in bleu_scratch.__all__ if inspect.isfunction(getattr(bleu_scratch, name))]
CHECKED = [name for name in PUBLIC_FUNCTIONS if hasattr(getattr(bleu_scratch, name), "__wrapped__")]


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_a_public_name_is_its_lessons_own_code(name):
    function = getattr(bleu_scratch, name)
    assert LESSON_FILE.fullmatch(function.__module__.split(".")[-1] + ".py"), function.__module__
    source = inspect.getsource(function)
    assert re.match(r"(@door\([\w., ]+\)\n)?def \w+\(", source), "the door's line at most, then the lesson's function"
    assert ("@door(" in source) == (name in CHECKED)
    assert not re.search(r"\bcheck_\w+\(", source)
    assert inspect.getdoc(function)


def test_the_drop_ins_for_nltk_are_lessons_05_and_06():
    assert bleu_scratch.sentence_bleu.__module__ == "bleu_scratch.lesson05_sentence"
    assert bleu_scratch.corpus_bleu.__module__ == "bleu_scratch.lesson06_corpus"
    for fast in ("fast_sentence_bleu", "fast_corpus_bleu", "batch_sentence_bleu", "parallel_corpus_bleu"):
        assert getattr(bleu_scratch, fast).__module__.startswith("bleu_scratch.lesson10_")


def test_every_lesson_function_with_a_check_has_a_door():
    # What docs/package.md lists as checked input, and nothing else.
    assert sorted(CHECKED) == sorted(
        [
            "tokenize_whitespace",
            "tokenize_lowercase",
            "tokenize_punctuation",
            "tokenize_paper",
            "tokenize_13a",
            "modified_precision",
            "closest_ref_length",
            "sentence_stats",
            "bleu_from_stats",
            "sentence_bleu",
            "corpus_stats",
            "corpus_bleu",
            "shortest_ref_length",
            "first_closest_ref_length",
            "variant_sentence_bleu",
            "tokenize_intl",
            "tokenize_char",
            "tokenize_zh",
            "tokenize_ja_mecab",
            "tokenize_ko_mecab",
            "sacrebleu_from_stats",
            "tool_bleu",
            "fast_sentence_stats",
            "fast_corpus_stats",
            "fast_stats_of_pairs",
            "fast_sentence_bleu",
            "fast_corpus_bleu",
            "parallel_corpus_stats",
            "parallel_corpus_bleu",
            "batch_sentence_stats",
            "batch_sentence_bleu",
            "batch_corpus_stats",
            "explain",
            "introduction_bleu",
            "study_notes_bleu",
            "kirchhoff_tokenize",
            "kirchhoff_bleu",
            "paired_test",
            "pearson",
            "kendall_tau",
            "discordant_pairs",
            "bigram_mismatch_chunks",
            "permutations_keeping_matches",
            "word_edit_distance",
            "word_error_rate",
        ]
    )


def counting(monkeypatch, names: list[str]) -> dict[str, int]:
    """Count the calls of each of the door's checks while a test runs."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        check = getattr(bleu_scratch.checks, name)

        def counted(*args, _check=check, _name=name, **kwargs):
            calls[_name] += 1
            return _check(*args, **kwargs)

        monkeypatch.setattr(bleu_scratch.checks, name, counted)
    return calls


REFERENCES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "sat"]]
HYPOTHESIS = ["the", "cat", "sat", "on", "the", "mat"]


@pytest.mark.parametrize(
    "call, checks",
    [
        (
            lambda: bleu_scratch.sentence_bleu(REFERENCES, HYPOTHESIS),
            {"check_tokens": 1, "check_references": 1, "check_weights": 1},
        ),
        (lambda: bleu_scratch.corpus_bleu([REFERENCES] * 3, [HYPOTHESIS] * 3), {"check_corpus": 1, "check_weights": 1}),
        (
            lambda: bleu_scratch.fast_sentence_bleu(REFERENCES, HYPOTHESIS),
            {"check_tokens": 1, "check_references": 1, "check_weights": 1},
        ),
        (
            lambda: bleu_scratch.fast_corpus_bleu([REFERENCES] * 3, [HYPOTHESIS] * 3),
            {"check_corpus": 1, "check_weights": 1},
        ),
        (
            lambda: bleu_scratch.modified_precision(REFERENCES, HYPOTHESIS, 2),
            {"check_order": 1, "check_tokens": 1, "check_references": 1},
        ),
        (
            lambda: bleu_scratch.variant_sentence_bleu(REFERENCES, HYPOTHESIS),
            {"check_tokens": 1, "check_references": 1},
        ),
        (
            lambda: bleu_scratch.parallel_corpus_bleu([REFERENCES] * 3, [HYPOTHESIS] * 3, jobs=1),
            {"check_corpus": 1, "check_weights": 1},
        ),
        (
            lambda: bleu_scratch.fast_corpus_stats([REFERENCES] * 3, [HYPOTHESIS] * 3),
            {"check_corpus": 1, "check_order": 1},
        ),
        # A stream is checked pair by pair as it is read (tests/lessons/test_fast.py).
        (
            lambda: bleu_scratch.fast_stats_of_pairs(iter([(REFERENCES, HYPOTHESIS)] * 3)),
            {"check_pairs": 1, "check_order": 1},
        ),
        # What a Dask worker runs for parallel_corpus_stats, whose door checked the corpus: no check again.
        (lambda: bleu_scratch.checks.as_checked(bleu_scratch.fast_stats_of_pairs, [(REFERENCES, HYPOTHESIS)] * 3), {}),
        (lambda: bleu_scratch.word_error_rate(REFERENCES, HYPOTHESIS), {"check_tokens": 1, "check_references": 1}),
        (
            lambda: bleu_scratch.permutations_keeping_matches(REFERENCES, HYPOTHESIS),
            {"check_tokens": 1, "check_references": 1},
        ),
    ],
    ids=[
        "sentence_bleu",
        "corpus_bleu",
        "fast_sentence_bleu",
        "fast_corpus_bleu",
        "modified_precision",
        "variant_sentence_bleu",
        "parallel_corpus_bleu",
        "fast_corpus_stats",
        "fast_stats_of_pairs",
        "a_dask_workers_shard",
        "word_error_rate",
        "permutations_keeping_matches",
    ],
)
def test_each_public_call_checks_its_input_once(monkeypatch, call, checks):
    names = ["check_tokens", "check_references", "check_corpus", "check_pairs", "check_order", "check_weights"]
    calls = counting(monkeypatch, names)
    call()
    assert {name: count for name, count in calls.items() if count} == checks


def test_a_call_that_does_not_fit_gets_pythons_own_message():
    with pytest.raises(TypeError, match=r"sentence_bleu\(\) missing 1 required positional argument: 'hypothesis'"):
        bleu_scratch.sentence_bleu(REFERENCES)
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'smoothing'"):
        bleu_scratch.sentence_bleu(REFERENCES, HYPOTHESIS, smoothing=None)
    # A misspelt keyword in place of a required argument: Python's message too, not a KeyError.
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'hypotheses'"):
        bleu_scratch.sentence_bleu(REFERENCES, hypotheses=HYPOTHESIS)


def test_importing_changes_nothing_and_lessons_01_to_09_need_only_the_standard_library():
    lessons = [f"bleu_scratch.{module}" for module, number in LESSONS.items() if number <= 9]
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "hooks = (sys.excepthook, sys.displayhook, list(sys.meta_path), list(sys.path_hooks))\n"
        f"import bleu_scratch, bleu_scratch.notebook, {', '.join(lessons)}\n"
        "bleu_scratch.sentence_bleu([['a', 'b']], ['a', 'b'], weights=(0.5, 0.5))\n"
        "bleu_scratch.corpus_bleu([[['a', 'b']]], [['a', 'b']], weights=(0.5, 0.5))\n"
        "outside = {name.split('.')[0] for name in set(sys.modules) - before} - set(sys.stdlib_module_names)\n"
        "print(sorted(outside - {'bleu_scratch'}))\n"
        "print(hooks == (sys.excepthook, sys.displayhook, list(sys.meta_path), list(sys.path_hooks)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.splitlines() == ["[]", "True"], result.stderr
