"""pytest in the student edition (``bleu-classroom release`` writes it as its conftest.py; the repository has none).

A test that reaches an exercise not written yet is skipped, not failed, and names the exercise; the
summary counts the tests waiting for each one (``pytest -rs`` lists them). A wrong answer fails as usual.
A notebook stops at its first cell that reaches an unwritten exercise, as Jupyter's "Run All" does. A
command catches a stub's error and exits naming it, so a failed test of tests/cli/ is skipped while the
command it tests stops at an unwritten exercise (``bleu-scratch-compare`` needs more lessons than ``bleu-scratch``).
"""

import contextlib
import doctest
import functools
import io
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest

import bleu_cli
from bleu_cli import compare
from bleu_scratch.notebook.exercises import exercise_not_written, unwritten_exercise

# IPython colours the tracebacks that nbval passes on.
ANSI = re.compile(r"\x1b\[[0-9;]*m")
stopped_notebooks: dict[Path, str] = {}  # notebook -> the exercise its first stopped cell waits for
waiting: Counter = Counter()  # exercise -> number of tests skipped for it
# The command the tests of a file in tests/cli/ run: bleu-scratch unless named here.
COMMAND_TESTS = {"test_compare.py": "bleu-scratch-compare", "test_guides_examples.py": "bleu-scratch-compare"}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport:
    report = yield
    if report.failed and call.excinfo is not None:
        reason = not_written_yet(item, call.excinfo.value)
        if reason is None and item.path.parent.name == "cli":
            # The command catches the stub's error and exits 2 naming it (in a
            # process of its own, or in this one): its tests wait for its answer.
            reason = command_not_written(COMMAND_TESTS.get(item.path.name, "bleu-scratch"))
        if reason:
            path, line = item.reportinfo()[:2]
            report.outcome = "skipped"
            report.longrepr = (str(path), (line or 0) + 1, f"Skipped: {reason}")
            waiting[reason] += 1
            if item.path.suffix == ".ipynb":
                stopped_notebooks[item.path] = reason
    return report


@pytest.hookimpl(tryfirst=True)  # before the skipping plugin reads the marks
def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = stopped_notebooks.get(item.path)
    if reason:
        waiting[reason] += 1
        item.add_marker(pytest.mark.skip(reason=f"an earlier cell stopped: {reason}"))


def pytest_terminal_summary(terminalreporter) -> None:
    if waiting:
        terminalreporter.write_sep("-", "tests skipped until you write these exercises")
        by_lesson = sorted(waiting.items(), key=lambda item: (re.findall(r"lesson (\d+)", item[0]), item[0]))
        for reason, count in by_lesson:
            terminalreporter.write_line(f"{count:5d}  {reason}")


@functools.cache
def command_not_written(command: str) -> str | None:
    """The exercise ``command`` stops at, or None once it answers (tried once, in this process)."""
    with tempfile.TemporaryDirectory() as folder:
        baseline, system = Path(folder) / "baseline.txt", Path(folder) / "system.txt"
        baseline.write_text("a b\n", encoding="utf-8")
        system.write_text("a c\n", encoding="utf-8")
        main, argv = {
            "bleu-scratch": (bleu_cli.main, [baseline, baseline]),
            "bleu-scratch-compare": (compare.main, [baseline, system, "--references", baseline, "--samples", "2"]),
        }[command]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as errors:
            try:
                status = main([str(arg) for arg in argv])
            except Exception:  # a bug of the student's, not a stub: the tests themselves will show it
                return None
    # "bleu-scratch: error: <the exercise>; the command scores once ...": the command's own message.
    stopped = re.match(
        rf"{re.escape(command)}: error: (.+?); the command \w+ once those lessons are written", errors.getvalue()
    )
    return stopped[1] if status == 2 and stopped else None


def not_written_yet(item: pytest.Item, error: BaseException) -> str | None:
    """The exercise not written yet that ``error`` stopped ``item`` at, or None."""
    if isinstance(error, doctest.UnexpectedException):  # a docstring example raised it
        error = error.exc_info[1]
    if item.path.suffix == ".ipynb":
        notebook = item.nodeid.split("::")[0]  # relative to the edition's folder
        return notebook_cell_stopped(notebook, getattr(error, "inner_traceback", None) or "")
    return unwritten_exercise(error)


def notebook_cell_stopped(notebook: str, traceback: str) -> str | None:
    """The exercise a cell of ``notebook`` stopped at, read from the kernel's ``traceback``, or None.

    >>> traceback = "\\n".join([
    ...     "NotImplementedError                       Traceback (most recent call last)",
    ...     "Cell In[1], line 3",
    ...     "----> 3     print(ngrams(tokens, 2))",
    ...     "File ~/bleu/bleu_scratch/lesson01_ngrams.py:26, in ngrams(tokens, n)",
    ...     "     25 # YOUR CODE HERE",
    ...     "---> 26 raise NotImplementedError()",
    ...     "",
    ...     "NotImplementedError: ",
    ... ])
    >>> notebook_cell_stopped("notebooks/01_tokens_and_ngrams.ipynb", traceback)
    "bleu_scratch.ngrams is lesson 01's exercise: not written yet (bleu_scratch/lesson01_ngrams.py)"

    The notebook's own exercise cell (or a function it defines) raises it in a cell:

    >>> notebook_cell_stopped(
    ...     "notebooks/02_clipping.ipynb",
    ...     traceback.replace("File ~/bleu/bleu_scratch/lesson01_ngrams.py:26, in ngrams(tokens, n)", ""),
    ... )
    'an exercise cell of notebooks/02_clipping.ipynb (lesson 02) is not written yet'
    >>> notebook_cell_stopped("notebooks/02_clipping.ipynb", "NameError: name 'p_1' is not defined") is None
    True
    """
    lines = [line.strip() for line in ANSI.sub("", traceback).splitlines() if line.strip()]
    # "---> 26 raise NotImplementedError()": the line each frame stopped at.
    arrows = [re.sub(r"^-+>\s*\d+\s*", "", line) for line in lines if re.match(r"-+>", line)]
    if not lines or not lines[-1].startswith("NotImplementedError") or arrows[-1:] != ["raise NotImplementedError()"]:
        return None
    frames = [line for line in lines if line.startswith(("File ", "Cell In["))]
    package_file = re.match(r"File (.+):\d+, in (\w+)", frames[-1]) if frames else None
    if package_file:
        parts = re.split(r"[\\/]", package_file.group(1))
        if parts[-2:-1] == ["bleu_scratch"]:
            return exercise_not_written(f"bleu_scratch.{Path(parts[-1]).stem}", package_file.group(2))
        return None
    lesson = re.match(r"(\d+)_", Path(notebook).name)
    return f"an exercise cell of {notebook}{f' (lesson {lesson.group(1)})' if lesson else ''} is not written yet"
