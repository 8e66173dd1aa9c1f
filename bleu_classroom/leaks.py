"""The leak search: no line of a solution may be readable in the student edition.

Each distinctive line of a solution is searched for in every file of the
edition, cell by cell in a notebook, spacing ignored. A line the lessons run
before the exercise is no secret; anything else found is a leak.
"""

import bisect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .markers import Region

# Solution lines this long or longer are searched for in the edition; shorter
# ones ("return 0", "return p_n") are too common to give anything away.
MIN_LEAK_CHARS = 20


def as_text(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


@dataclass(frozen=True)
class Passage:
    """Text a student can read in the edition: a file, or one cell of a notebook."""

    path: str
    text: str
    lesson: int | None = None  # the lesson the file belongs to (see lesson_of)
    cell: int | None = None  # 1-based, for a notebook cell
    code: bool = False  # a Python file or a notebook code cell


def passages(rel: str, raw: bytes, lessons: bool = True) -> list[Passage]:
    """The text of a file, cell by cell for a notebook (its strings unescaped)."""
    text = as_text(raw)
    if text is None:
        return []
    lesson = lesson_of(rel) if lessons else None
    if rel.endswith(".ipynb"):
        try:
            notebook = json.loads(text)
            cells = notebook.pop("cells")
            return [
                Passage(rel, "\n".join(_strings(cell)), lesson, number, cell.get("cell_type") == "code")
                for number, cell in enumerate(cells, start=1)
            ] + [Passage(rel, "\n".join(_strings(notebook)), lesson)]
        except (json.JSONDecodeError, AttributeError, KeyError, TypeError):
            pass  # not a notebook after all: searched as plain text
    return [Passage(rel, text, lesson, code=rel.endswith(".py"))]


def lesson_of(rel: str) -> int | None:
    """The lesson of a notebook (``NN_name.ipynb``) or of a lesson module (``lessonNN_name.py``), from its name.

    >>> lesson_of("notebooks/03_modified_precision.ipynb"), lesson_of("bleu_scratch/lesson05_sentence.py")
    (3, 5)
    >>> lesson_of("bleu_scratch/checks/values.py") is None
    True
    """
    name = rel.rsplit("/", 1)[-1]
    if rel.endswith(".ipynb"):
        match = re.match(r"(\d+)_", name)
    elif rel.endswith(".py"):
        match = re.match(r"lesson(\d\d)_", name)
    else:
        return None
    return int(match.group(1)) if match else None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        # A notebook stores a cell's source as a list of lines.
        if all(isinstance(item, str) for item in value):
            yield "".join(value)
        else:
            for item in value:
                yield from _strings(item)


def _normalize(line: str) -> str:
    return " ".join(line.split())


def _searched(line: str) -> str:
    """A solution line as the leak check looks for it: spacing normalized, a trailing comment cut.

    >>> _searched("    total  = 0  # start")
    'total = 0'
    """
    return _normalize(line).split(" # ")[0]


def _distinctive(line: str) -> bool:
    """Whether a solution line gives something away alone: not short, not only opening a block or a bracket.

    >>> lines = ["return p_n", "for n in range(1, max_n + 1):", "return sum(x * x for x in values)"]
    >>> [_distinctive(line) for line in lines]
    [False, False, True]
    """
    return len(line) >= MIN_LEAK_CHARS and not line.startswith("#") and not line.endswith((":", "(", "[", "{"))


def find_leaks(passages: list[Passage], regions: list[Region]) -> list[str]:
    """Where ``passages`` show a line of a solution in ``regions``; one line is enough.

    Each distinctive line (``_distinctive``) is searched for, spacing ignored:
    ``ngrams``'s whole answer is one line. A line the lessons run before the
    exercise is no secret, though: one in the code of an earlier lesson (its
    module or a notebook code cell), or in an earlier code cell of the
    exercise's own notebook. Text (Markdown, data files) never counts as taught.

    >>> region = Region("lesson.py", 3, ["    total = sum(x * x for x in values)  # squares", "    return total"])
    >>> find_leaks([Passage("notes.md", "Hint:\\n`total = sum(x * x  for x in values)`")], [region])
    ['lesson.py:4: `total = sum(x * x for x in values)` can be read at notes.md:2']
    >>> intro = Passage("00_intro.ipynb", "total = sum(x * x for x in values)", lesson=0, cell=3, code=True)
    >>> find_leaks([intro], [region])  # lesson.py is no lesson: nothing comes before it
    ['lesson.py:4: `total = sum(x * x for x in values)` can be read at 00_intro.ipynb cell 3']
    >>> find_leaks([Passage("lesson.py", "", lesson=2), intro], [region])
    []
    """
    # One text for all passages, so that each solution line is searched once.
    starts, chunks, at = [], [], 0
    for passage in passages:
        chunk = "\n".join(_normalize(line) for line in passage.text.splitlines()) + "\n\x00\n"
        starts.append(at)
        chunks.append(chunk)
        at += len(chunk)
    everything = "".join(chunks)
    starts.append(at)
    lessons = {passage.path: passage.lesson for passage in passages}
    leaks = []
    for region in regions:
        path, cell = region.place
        lesson = lessons.get(path)
        for offset, raw_line in enumerate(region.lines, start=1):
            line = _searched(raw_line)
            if not _distinctive(line):
                continue
            hits = []  # (passage index, offset of the hit): the first hit in each passage
            hit = everything.find(line)
            while hit >= 0:
                index = bisect.bisect_right(starts, hit) - 1
                hits.append((index, hit))
                hit = everything.find(line, starts[index + 1])
            if hits and not any(_taught_before(passages[i], path, cell, lesson) for i, _ in hits):
                index, hit = hits[0]
                shown = passages[index]
                at_line = everything.count("\n", starts[index], hit) + 1
                place = f"{shown.path} cell {shown.cell}" if shown.cell else f"{shown.path}:{at_line}"
                leaks.append(f"{region.where}:{region.line + offset}: `{line}` can be read at {place}")
    return leaks


def _taught_before(shown: Passage, path: str, cell: int | None, lesson: int | None) -> bool:
    """Whether the code ``shown`` runs before the exercise in ``path`` (at ``cell``, in a notebook) of ``lesson``."""
    if not shown.code:
        return False
    if lesson is not None and shown.lesson is not None and shown.lesson < lesson:
        return True
    return shown.path == path and cell is not None and shown.cell is not None and shown.cell < cell
