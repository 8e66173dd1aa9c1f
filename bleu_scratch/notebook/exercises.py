"""How an exercise not yet written shows itself, in a student edition.

The course tools write a student edition in which every marked lesson
function raises ``NotImplementedError`` from nbgrader's stub until the student
writes it. The notebooks (``notebook.until_written``), the command line and
the tests use ``unwritten_exercise`` to tell that stub apart from any other
error, and name the exercise it waits for.
"""

import linecache
import re
from pathlib import Path

# nbgrader's stub for a solution in Python code, line by line.
STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")


def unwritten_exercise(error: BaseException) -> str | None:
    """Why a test that raised ``error`` has not failed: it reached an exercise not written yet; else None.

    That is, the ``raise NotImplementedError()`` that the release puts in a
    lesson function raised it. In a group (Hypothesis reports the distinct
    errors it found as one) every error must be a stub's: a wrong answer
    beside a stub still fails.

    >>> unwritten_exercise(NotImplementedError()) is None  # never raised, so not by a stub
    True
    """
    if isinstance(error, BaseExceptionGroup):
        reasons = [unwritten_exercise(inner) for inner in error.exceptions]
        return reasons[0] if all(reasons) else None
    if type(error) is not NotImplementedError or error.__traceback__ is None:
        return None
    innermost = error.__traceback__
    while innermost.tb_next is not None:
        innermost = innermost.tb_next
    frame = innermost.tb_frame
    # Code numba compiled (lesson 10's count_row) raises through a frame that names the file and line but holds no
    # globals: its module is then the one its file is.
    module, path = frame.f_globals.get("__name__", ""), Path(frame.f_code.co_filename)
    if not module and path.parent.name == "bleu_scratch":
        module = f"bleu_scratch.{path.stem}"
    line = linecache.getline(frame.f_code.co_filename, innermost.tb_lineno).strip()
    if not module.startswith("bleu_scratch.") or line != STUB[-1]:
        return None
    return exercise_not_written(module, frame.f_code.co_name)


def exercise_not_written(module: str, function: str) -> str:
    """What a skipped test says about ``function`` of ``module``, an exercise not written yet.

    >>> exercise_not_written("bleu_scratch.lesson02_clipping", "clipped_counts")
    "bleu_scratch.clipped_counts is lesson 02's exercise: not written yet (bleu_scratch/lesson02_clipping.py)"
    """
    lesson = re.fullmatch(r"bleu_scratch\.lesson(\d\d)_\w+", module)
    which = f"lesson {lesson.group(1)}'s exercise" if lesson else "an exercise"
    return f"bleu_scratch.{function} is {which}: not written yet ({module.replace('.', '/')}.py)"
