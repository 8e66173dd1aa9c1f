"""Small helpers the lesson notebooks share, kept here so that no notebook keeps its own copy.

Nothing here computes BLEU: the notebooks use it to show code and tables,
catch NLTK's warnings and read the data files. Importing it changes nothing;
each lesson's setup cell calls ``start_lesson`` to set up its kernel.
"""

import ast
import inspect
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .exercises import unwritten_exercise

_previewed: set[str] = set()
_said: set[str] = set()  # the warnings a session has shown once
RECORDED_ON = (3, 11)  # the Python of the real tools' runs in data/ (their files say which release)
WHAT_TO_DO = "Write it there, save the file, then run the cells again (the lesson reloads a module you save)."


def with_warnings(function: Callable, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Call ``function``; return its value and the first line of each warning it gave.

    NLTK's warning text contains a file path and Python shows it once per
    session, so a notebook that let it through would not show the same output
    on every run. Catching every warning and printing its first line does.

    >>> from bleu_scratch import sentence_bleu
    >>> with_warnings(sentence_bleu, [["a", "b"]], ["a", "b"], weights=(0.5, 0.5))
    (1.0, [])
    >>> score, caught = with_warnings(sentence_bleu, [["a", "b"]], ["b", "a"], weights=(0.5, 0.5))
    >>> caught
    ['The hypothesis contains 0 counts of 2-gram overlaps.']
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, [str(w.message).strip().splitlines()[0] for w in caught]


def as_recorded(ours: Any, theirs: Any) -> bool:
    """Whether a value computed here is one a real tool gave when its run was recorded (in ``data/``).

    Exactly, on the Python the runs were recorded with (``RECORDED_ON``). From Python 3.12 on,
    ``sum()`` adds floats with compensation and rounds some sums differently (in the tools' own
    code too), so there floats are compared within 1e-12 of each other, and a warning says so.

    >>> as_recorded((21.609767939750313, 0.001), (21.609767939750313, 0.001))
    True
    """
    if sys.version_info[:2] == RECORDED_ON:
        return bool(ours == theirs)
    if "as_recorded" not in _said:  # once a session
        _said.add("as_recorded")
        warnings.warn(
            f"the runs were recorded with Python {RECORDED_ON[0]}.{RECORDED_ON[1]}, whose sum() rounds some float "
            f"sums differently from this Python {sys.version_info[0]}.{sys.version_info[1]}: floats are compared "
            "within 1e-12",
            stacklevel=2,
        )
    return _close(ours, theirs)


def _close(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, float) and isinstance(theirs, float):
        return math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(ours, (tuple, list)) and isinstance(theirs, (tuple, list)):
        return len(ours) == len(theirs) and all(map(_close, ours, theirs))
    return bool(ours == theirs)


def quietly(function: Callable, *args: Any, **kwargs: Any) -> Any:
    """Call ``function`` with its warnings silenced, where a lesson has already shown them.

    >>> from bleu_scratch import sentence_bleu
    >>> quietly(sentence_bleu, [["a", "b"]], ["b", "a"], weights=(0.5, 0.5)) < 1e-100
    True
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def print_table(headers: Sequence, rows: Sequence[Sequence]) -> None:
    """Print rows as an aligned text table, in one print call (one block of output).

    >>> print_table(["n", "p_n"], [[1, "17/18"], [2, "10/17"]])
    n  p_n
    -  -----
    1  17/18
    2  10/17
    """
    cells = [[str(cell) for cell in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    print("\n".join(lines))


def data_dir() -> Path:
    """The project's ``data/`` folder, found from the package, never from the working directory.

    A notebook may run anywhere: in ``notebooks/``, in nbgrader's
    ``autograded/<student>/<assignment>/``, in a copied student edition, in a
    Colab or Binder session. The folder is the environment variable
    ``BLEU_SCRATCH_DATA`` if it is set, else the ``data/`` beside this package
    (a checkout or an edition installed with ``pip install -e .``).

    >>> (data_dir() / "published_examples.json").is_file()
    True
    """
    places = [Path(os.environ["BLEU_SCRATCH_DATA"])] if os.environ.get("BLEU_SCRATCH_DATA") else []
    places.append(Path(__file__).resolve().parents[2] / "data")
    for place in places:
        if (place / "published_examples.json").is_file():
            return place
    raise FileNotFoundError(
        f"the lessons' data folder is not at {' or '.join(map(str, places))}: install bleu_scratch from the "
        f"repository (pip install -e .), or set BLEU_SCRATCH_DATA to the repository's data/ folder"
    )


def read_lines(path: str | Path) -> list[str]:
    """The lines of a UTF-8 text file, without their line ends or a byte order mark.

    Some submitted system outputs start with a byte order mark (WMT17's
    online-A does); left in, it would glue itself to the first token.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "hyp.txt").write_text("\\ufeffa b\\nc", encoding="utf-8")
    ...     read_lines(Path(folder) / "hyp.txt")
    ['a b', 'c']
    """
    return Path(path).read_text(encoding="utf-8-sig").splitlines()


def print_source(function: Callable, docstring: bool = True) -> None:
    """Print the source of a public function or class, with or without its docstring.

    >>> from bleu_scratch import no_smoothing
    >>> print_source(no_smoothing, docstring=False)  # doctest: +ELLIPSIS
    def no_smoothing(p_n: Sequence[Any], *args: Any, **kwargs: Any) -> list[Any]:
        smoothed = []
        for i, p_i in enumerate(p_n):
    ...
        return smoothed
    """
    source = inspect.getsource(function)
    lines = source.splitlines()
    if not docstring:
        definition = ast.parse(source).body[0]
        assert isinstance(definition, (ast.FunctionDef, ast.ClassDef))
        first = definition.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            del lines[first.lineno - 1 : first.end_lineno]
    print("\n".join(lines))


# Where a point's label may go, in points from the point: right, left, above right, below right, above left,
# below left, then the same two, three and four times further out. The first place that overlaps no other label
# and no point wins.
LABEL_PLACES = [
    (dx * k, dy * k) for k in (1, 2, 3, 4) for dx, dy in ((4, -3), (-4, -3), (4, 5), (4, -11), (-4, 5), (-4, -11))
]


def label_points(ax: Any, xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], fontsize: int = 7) -> None:
    """Write each point's label beside it where it overlaps no other label and no point, in the order given.

    A label goes at the first free place of ``LABEL_PLACES`` inside the axes,
    else at the first place. Text sizes come from the figure's renderer, so
    lay the figure out (``tight_layout``) before and not after: the places
    depend only on the data and the figure's size, never on chance.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.scatter([1, 1.001], [1, 1.001])
    >>> label_points(ax, [1, 1.001], [1, 1.001], ["first", "second"])
    >>> [(text.get_text(), text.xyann) for text in ax.texts]  # the second point's label goes further out
    [('first', (-4, -11)), ('second', (-8, -22))]
    >>> plt.close(fig)
    """
    from matplotlib.text import Text

    renderer = ax.figure.canvas.get_renderer()
    half = 3 * ax.figure.dpi / 72  # a marker's half width, 3 points, in pixels
    points = [ax.transData.transform((x, y)) for x, y in zip(xs, ys)]
    taken = [(px - half, py - half, px + half, py + half) for px, py in points]
    inside = ax.get_window_extent(renderer)

    def free(box: Any) -> bool:
        within = inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
        clear = all(box.x1 <= x0 or x1 <= box.x0 or box.y1 <= y0 or y1 <= box.y0 for x0, y0, x1, y1 in taken)
        return within and clear

    def write(label: str, x: float, y: float, place: tuple[int, int]) -> Any:
        ha = "left" if place[0] > 0 else "right"
        # A label away from its point gets a thin line to it, so that it cannot be read as a neighbour's.
        line = None if LABEL_PLACES.index(place) < 6 else {"arrowstyle": "-", "color": "grey", "linewidth": 0.5}
        return ax.annotate(
            label, (x, y), xytext=place, textcoords="offset points", fontsize=fontsize, ha=ha, arrowprops=line
        )

    for label, x, y in zip(labels, xs, ys):
        for place in LABEL_PLACES:
            text = write(label, x, y, place)
            text.get_window_extent(renderer)  # places the text; the box below leaves out the line to the point
            box = Text.get_window_extent(text, renderer)
            if free(box):
                break
            text.remove()
        else:
            text = write(label, x, y, LABEL_PLACES[0])
            text.get_window_extent(renderer)
            box = Text.get_window_extent(text, renderer)
        taken.append((box.x0, box.y0, box.x1, box.y1))


def until_written(ours: Callable, stand_in: Callable, lesson: str, what: str = "NLTK's answer is shown") -> Callable:
    """``ours``, a function built by lesson ``lesson``; ``stand_in``'s answer while its exercises are unwritten.

    In the student edition a lesson function raises ``NotImplementedError``
    until the student writes it. An early notebook that previews a later
    lesson's function then shows the stand-in's value (NLTK's, usually) and
    says so, once per function (tests/classroom runs the early lessons in an
    edition to check it). Any other ``NotImplementedError``, such as the
    student's own, goes through:

    >>> def ngrams(tokens, n):
    ...     raise NotImplementedError("my own")
    >>> until_written(ngrams, lambda tokens, n: [tuple(tokens)], "01")(["a"], 1)
    Traceback (most recent call last):
    ...
    NotImplementedError: my own
    """

    def preview(*args: Any, **kwargs: Any) -> Any:
        try:
            return ours(*args, **kwargs)
        except NotImplementedError as error:
            if unwritten_exercise(error) is None:  # the student's own NotImplementedError, not a stub
                raise
            if ours.__name__ not in _previewed:
                _previewed.add(ours.__name__)
                print(
                    f"(bleu_scratch.{ours.__name__} waits for the exercises up to lesson {lesson}: "
                    f"{what} until you write them)"
                )
            return stand_in(*args, **kwargs)

    return preview


def explain_stops() -> bool:
    """In IPython, end a student edition's stop at an unwritten exercise with which one, where, and what to do.

    A stub raises a bare ``NotImplementedError``; after its traceback the
    notebook then prints, e.g., "bleu_scratch.count_ngrams is lesson 01's
    exercise: not written yet (bleu_scratch/lesson01_ngrams.py). Write it there, save
    the file, then run the cells again ...". Other errors show as usual.
    Returns whether it is installed (False outside IPython).
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False

    def show(shell: Any, kind: type, error: BaseException, traceback: Any, tb_offset: int | None = None) -> None:
        shell.showtraceback((kind, error, traceback), tb_offset=tb_offset)
        waiting_for = unwritten_exercise(error)
        if waiting_for is not None:
            print(f"{waiting_for}. {WHAT_TO_DO}")

    shell.set_custom_exc((NotImplementedError,), show)
    return True


def start_lesson() -> None:
    """Set up a lesson's kernel: a package module you save is reloaded before the next cell runs (IPython's
    autoreload), and a student edition's stop at an unwritten exercise says which one and what to do.

    Outside IPython there is nothing to set up, and it does nothing.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    shell.run_line_magic("load_ext", "autoreload")
    shell.run_line_magic("autoreload", "2")
    explain_stops()
