"""The edition as a student uses it: notebooks, the command and pytest stop only at unwritten exercises, and say
which."""

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

import bleu_scratch.notebook as notebook_helpers
from bleu_classroom import markers
from bleu_scratch.notebook import exercises
from tests.classroom.edition_tools import REPO, STUB, Run, copy_of, run_notebook, set_function, side_by_side


def test_student_notebook_stops_at_its_own_lesson_and_says_what_to_do(edition):
    path = sorted((edition / "notebooks").glob("01_*.ipynb"))[0]
    run = run_notebook(path, edition)
    notebook, stopped = run.notebook, run.error
    assert stopped is not None, "notebook 01 of a fresh edition ran to its end"
    assert stopped.ename == "NotImplementedError"
    # Lesson 01's own function, not a later lesson's that the notebook previews.
    assert str(Path("bleu_scratch", "lesson01_ngrams.py")) in str(stopped)
    stop = next(cell for cell in notebook.cells if any(out.output_type == "error" for out in cell.get("outputs", [])))
    printed = "".join(out.get("text", "") for out in stop.outputs)
    assert "is lesson 01's exercise: not written yet (bleu_scratch/lesson01_ngrams.py). Write it there" in printed, (
        printed
    )
    assert notebook_helpers.WHAT_TO_DO in printed  # save the file and run the cells again


def test_the_command_in_a_fresh_edition_names_the_exercise_it_needs(edition):
    wmt15 = edition / "data" / "wmt15-enru-100"
    result = subprocess.run(
        [sys.executable, "-m", "bleu_cli", str(wmt15 / "google.ru"), str(wmt15 / "ref.ru")],
        cwd=edition,
        env=dict(os.environ, PYTHONPATH=str(edition)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert re.fullmatch(
        r"bleu-scratch: error: bleu_scratch\.\w+ is lesson \d\d's exercise: not written yet \(bleu_scratch/\w+\.py\); "
        r"the command scores once those lessons are written\n",
        result.stderr,
    ), result.stderr


def lesson_of(module: str) -> str:
    """The lesson number in a bleu_scratch module's name ("lesson03_precision" -> "03")."""
    return re.match(r"lesson(\d\d)_", module)[1]


MARKED = [
    (path.stem, name)
    for path in sorted((REPO / "bleu_scratch").glob("*.py"))
    for name in markers.marked_functions(path.read_text(encoding="utf-8"))
]
LESSON_NOTEBOOKS = sorted(path.name for path in (REPO / "notebooks").glob("0[0-9]_*.ipynb"))
PREVIEWS = {"00": ["01", "03", "05"], "01": ["03"]}


@pytest.fixture(scope="module")
def lesson_runs(edition, tmp_path_factory) -> dict[str, Run]:
    """Each lesson notebook, exercises solved, run in an edition with the exercises of lessons up to its own
    written (two notebooks at a time)."""
    root = tmp_path_factory.mktemp("lesson-runs")

    def written_up_to(name: str) -> Path:
        student = copy_of(edition, root, name[:2])
        for module, function in MARKED:
            if lesson_of(module) <= name[:2]:
                set_function(student, module, function)
        return student

    students = {name: written_up_to(name) for name in LESSON_NOTEBOOKS}  # one at a time: see side_by_side
    return side_by_side(
        lambda name: run_notebook(students[name] / "notebooks" / name, students[name], solve=True), LESSON_NOTEBOOKS
    )


@pytest.mark.parametrize("name", LESSON_NOTEBOOKS)
def test_each_notebook_needs_only_its_own_and_earlier_lessons(lesson_runs, name):
    """With the exercises of lessons up to NN written, notebook NN runs to its end, its checks pass, and later
    lessons are previewed."""
    lesson = name[:2]
    executed, error, exercises = lesson_runs[name].notebook, lesson_runs[name].error, lesson_runs[name].exercises
    assert error is None, f"{name} stopped with the lessons up to {lesson} written:\n{error}"
    printed = "".join(out.get("text", "") for cell in executed.cells for out in cell.get("outputs", []))
    announced = re.findall(r"waits for the exercises up to lesson (\d\d): NLTK's answer is shown", printed)
    assert sorted(announced) == PREVIEWS.get(lesson, [])
    assert all(previewed <= "09" and previewed > lesson for previewed in announced)
    assert exercises >= 1 and printed.count("Correct!") == exercises
    if announced:
        # A preview shows NLTK's answer in place of a later lesson's: every printed line is the repository's
        # (but a printed function, which is the student's own).
        stored = nbformat.read(REPO / "notebooks" / name, as_version=4)
        for ran, kept in zip(executed.cells, stored.cells):
            if ran.cell_type == "code" and "### BEGIN" not in str(kept.outputs) and "waits for" not in str(ran.outputs):
                texts = ["".join(out.get("text", "") for out in cell.outputs) for cell in (ran, kept)]
                assert texts[0] == texts[1], f"{name}, cell {kept.get('id')}: the preview printed another answer"


@pytest.fixture
def lesson_module(tmp_path, monkeypatch) -> types.ModuleType:
    """bleu_scratch.lesson07_shouting: ``shout`` is a stub, ``whisper`` raises NotImplementedError of its own."""
    path = tmp_path / "lesson07_shouting.py"
    path.write_text(
        f"def shout(text):\n    # YOUR CODE HERE\n    {STUB}\n\n\n"
        "def whisper(text):\n    raise NotImplementedError('no sound')\n",
        encoding="utf-8",
    )
    module = types.ModuleType("bleu_scratch.lesson07_shouting", "Lesson 07: shouting.")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module


def raised(function, *args) -> BaseException:
    with pytest.raises(BaseException) as info:
        function(*args)
    return info.value


def test_only_a_stub_is_an_unwritten_exercise(lesson_module):
    reason = "bleu_scratch.shout is lesson 07's exercise: not written yet (bleu_scratch/lesson07_shouting.py)"
    stub = raised(lesson_module.shout, "hi")
    assert exercises.unwritten_exercise(stub) == reason
    assert exercises.unwritten_exercise(raised(lesson_module.whisper, "hi")) is None
    # Hypothesis groups the distinct errors it finds: all must be stubs'.
    assert exercises.unwritten_exercise(ExceptionGroup("two", [stub, raised(lesson_module.shout, "ho")])) == reason
    assert exercises.unwritten_exercise(ExceptionGroup("two", [stub, AssertionError("wrong")])) is None


def test_record_lets_only_a_stub_through(record, lesson_module):
    """tests/conftest.py's ``run`` records errors to compare with NLTK's; a stub's would hide the skip."""
    with pytest.raises(NotImplementedError):
        record(lesson_module.shout, "hi")
    assert record(lesson_module.whisper, "hi").error is NotImplementedError


def edition_pytest(student: Path, *paths: str) -> tuple[subprocess.CompletedProcess, list[str], list[tuple[str, str]]]:
    """pytest run in the edition as a student runs it; its output, the failed tests, and (file, reason) of each skip."""
    command = [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:randomly", *paths]
    result = subprocess.run(
        command, cwd=student, env=dict(os.environ, PYTHONPATH=str(student)), capture_output=True, text=True
    )
    failed = re.findall(r"^FAILED (\S+)", result.stdout, re.M)
    skipped = re.findall(r"^SKIPPED \[\d+\] ([^:\s]+)(?::\d+)?: (.*)$", result.stdout, re.M)
    return result, failed, skipped


def test_pytest_in_the_edition_skips_what_is_not_written_and_fails_what_is_wrong(edition, tmp_path):
    pytest.importorskip("nbval")
    student = copy_of(edition, tmp_path, "student")
    set_function(
        student, "lesson04_brevity", "closest_ref_length", ["return max(len(reference) for reference in references)"]
    )
    set_function(student, "lesson01_ngrams", "ngrams")
    paths = [
        "bleu_scratch/lesson04_brevity.py",  # doctests
        "tests/lessons/test_brevity.py",  # plain tests, and some through same_as_nltk, which records errors
        # a property test whose own recorder lets a stub through (lesson 10's count_row is one here)
        "tests/lessons/test_batch_smoothing.py::test_each_score_is_nltks_with_its_warnings",
        # the command in a process of its own
        "tests/cli/test_scoring_and_report.py::test_head_closing_the_pipe_stops_the_command_quietly",
        "notebooks/01_tokens_and_ngrams.ipynb",  # count_ngrams is not written
    ]
    result, failed, skipped = edition_pytest(student, *paths)
    out = result.stdout
    # The wrong closest_ref_length fails, in tests and in its docstring; nothing else does.
    assert "tests/lessons/test_brevity.py::test_tie_goes_to_the_shorter_reference_whatever_the_order" in failed, out
    assert "bleu_scratch/lesson04_brevity.py::bleu_scratch.lesson04_brevity.closest_ref_length" in failed
    assert not [name for name in failed if "brevity_penalty" in name or "ipynb" in name or "cli" in name]
    assert "NotImplementedError" not in out.split("short test summary info")[0]
    reasons = {reason for _, reason in skipped}
    assert {
        "bleu_scratch.brevity_penalty is lesson 04's exercise: not written yet (bleu_scratch/lesson04_brevity.py)",
        "bleu_scratch.count_ngrams is lesson 01's exercise: not written yet (bleu_scratch/lesson01_ngrams.py)",
        "an earlier cell stopped: bleu_scratch.count_ngrams is lesson 01's exercise: not written yet "
        "(bleu_scratch/lesson01_ngrams.py)",
    } <= reasons
    assert re.fullmatch(
        r"bleu_scratch\.\w+ is lesson \d\d's exercise: not written yet \(.*\)",
        dict(skipped)["tests/cli/test_scoring_and_report.py"],
    )
    assert dict(skipped)["notebooks/01_tokens_and_ngrams.ipynb"].startswith("an earlier cell stopped")
    assert dict(skipped)["tests/lessons/test_batch_smoothing.py"].startswith("bleu_scratch.count_row is lesson 10's")
    # The summary counts the tests waiting for each exercise, in lesson order.
    summary = re.findall(
        r"^ +\d+  bleu_scratch\.(\w+) is lesson", out.split("until you write these exercises")[1], re.M
    )
    assert summary == ["count_ngrams", "brevity_penalty", "count_row"]
    assert result.returncode == 1


SACRE = (
    "bleu_scratch.sacrebleu_from_stats is lesson 09's exercise: not written yet (bleu_scratch/lesson09_sacrebleu.py)"
)


def test_the_compare_tests_wait_for_the_lesson_bleu_scratch_compare_needs(edition, tmp_path):
    # bleu-scratch scores; bleu-scratch-compare (lesson 11) still needs lesson 09's sacrebleu_from_stats.
    # (In a fresh edition both commands stop at lesson 10 first, which the test above covers.)
    pytest.importorskip("nbval")
    student = copy_of(edition, tmp_path, "student")
    for module, function in MARKED:
        if function != "sacrebleu_from_stats":
            set_function(student, module, function)
    result, failed, skipped = edition_pytest(student, "tests/cli/test_compare.py")
    assert result.returncode == 0 and not failed, result.stdout
    assert {reason for path, reason in skipped if path == "tests/cli/test_compare.py"} == {SACRE}
    # The tests that stop at bad input, before any lesson runs, pass.
    assert re.search(r"^\d+ passed, \d+ skipped in ", result.stdout.splitlines()[-1]), result.stdout
