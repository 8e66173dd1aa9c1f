"""The leak search: no line of a solution can be read anywhere in the edition, unless a lesson taught it before."""

import json
import re
import shutil
from pathlib import Path

import pytest

from bleu_classroom import errors, leaks, markers, release
from tests.classroom.edition_tools import BEGIN, END, REPO, tracked


def copy_of_repository(root: Path) -> Path:
    """The files ``release`` reads (no .venv or caches), tracked by git of their own."""
    for rel in release._tracked_files(REPO, None):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, root / rel)
    return tracked(root)


def distinctive_lines(region: markers.Region) -> list[str]:
    return [line for line in map(leaks._searched, region.lines) if leaks._distinctive(line)]


def test_release_fails_on_one_solution_line_anywhere(tmp_path):
    """The reviewer's case: one line of closest_ref_length's answer appended to data/README.md."""
    source = copy_of_repository(tmp_path / "repo")
    _, (region,) = markers.strip_solutions(
        (REPO / "bleu_scratch" / "lesson04_brevity.py").read_text(encoding="utf-8").split("def brevity_penalty")[0],
        markers.CODE_STUB,
    )
    line = max(distinctive_lines(region), key=len)
    with (source / "data" / "README.md").open("a", encoding="utf-8") as readme:
        readme.write(f"\n    {line}\n")
    with pytest.raises(
        errors.ClassroomError,
        match=rf"bleu_scratch/lesson04_brevity.py:\d+: `{re.escape(line)}` can be read at data/README.md:\d+",
    ):
        release.release(tmp_path / "out", source=source)
    assert not (tmp_path / "out").exists()


def secret_lines(region: markers.Region, passages: list[leaks.Passage]) -> list[str]:
    """The distinctive lines of ``region`` that no code run before the exercise shows (lesson 10 reuses lesson
    05's, say)."""
    path, cell = region.place
    lesson = leaks.lesson_of(path)
    taught = [
        "\n".join(" ".join(text.split()) for text in passage.text.splitlines())
        for passage in passages
        if leaks._taught_before(passage, path, cell, lesson)
    ]
    return [line for line in distinctive_lines(region) if not any(line in text for text in taught)]


def test_every_solution_shows_in_a_markdown_cell_or_a_data_file():
    """Each solution's longest line not taught before, put in a Markdown cell or data/README.md, is a leak; the
    real edition has none."""
    edition = release.build_edition()
    passages = [passage for rel, content in edition.files.items() for passage in leaks.passages(rel, content)]
    assert leaks.find_leaks(passages, edition.regions) == []
    markdown = leaks.Passage("notebooks/01_tokens_and_ngrams.ipynb", "", lesson=1, cell=2, code=False)
    # A passage that holds none of a region's lines cannot change what the search finds for it: each region is
    # searched among those that hold one, and its own file's (the whole edition was searched above).
    flat = [" ".join(passage.text.split()) for passage in passages]
    checked = 0
    for region in edition.regions:
        secrets = secret_lines(region, passages)
        if secrets:
            line = max(secrets, key=len)
            nearby = [
                passage
                for passage, text in zip(passages, flat)
                if passage.path == region.place[0] or any(own in text for own in distinctive_lines(region))
            ]
            for shown in (markdown, leaks.Passage("data/README.md", "")):
                found = leaks.find_leaks(nearby + [leaks.Passage(**{**vars(shown), "text": f"See:\n{line}"})], [region])
                assert [leak.rsplit(" can be read at ", 1)[1] for leak in found] == [
                    f"{shown.path} cell 2" if shown.cell else f"{shown.path}:2"
                ], region.where
            checked += 1
    assert checked >= 30


# A line of lesson 03's answer, and the passages that may or may not show it.
ANSWER = markers.Region("bleu_scratch/lesson.py", 10, ["    precision = Fraction(matches, max(1, total))"])
LESSON_03 = leaks.Passage("bleu_scratch/lesson.py", "", lesson=3)


@pytest.mark.parametrize(
    "region, shown, leaked",
    [
        (
            ANSWER,
            leaks.Passage("notebooks/02_x.ipynb", "", lesson=2, cell=5, code=True),
            False,
        ),  # an earlier lesson teaches it
        (
            ANSWER,
            leaks.Passage("notebooks/03_x.ipynb", "", lesson=3, cell=5, code=True),
            True,
        ),  # its own lesson's notebook gives it away
        (ANSWER, leaks.Passage("tests/test_x.py", ""), True),  # a test is no lesson
        # An exercise cell: an earlier code cell of its notebook may run the line, not a Markdown hint or a later cell.
        (
            markers.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines),
            leaks.Passage("notebooks/03_x.ipynb", "", 3, cell=4, code=True),
            False,
        ),
        (
            markers.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines),
            leaks.Passage("notebooks/03_x.ipynb", "", 3, cell=4),
            True,
        ),
        (
            markers.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines),
            leaks.Passage("notebooks/03_x.ipynb", "", 3, cell=10, code=True),
            True,
        ),
    ],
)
def test_a_line_taught_before_the_exercise_is_no_leak(region, shown, leaked):
    shown = leaks.Passage(**{**vars(shown), "text": ANSWER.lines[0]})
    found = leaks.find_leaks([LESSON_03, shown], [region])
    assert len(found) == leaked


def make_source(root: Path, lesson_lines: list[str], notebook_markdown: str = "") -> Path:
    """A tiny repository: one marked lesson module and one notebook."""
    (root / "bleu_scratch").mkdir(parents=True)
    (root / "bleu_scratch" / "lesson.py").write_text("\n".join(lesson_lines) + "\n", encoding="utf-8")
    (root / "notebooks").mkdir()
    notebook = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": [notebook_markdown]}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "notebooks" / "01_lesson.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    return tracked(root)


SQUARES = [
    "def total(values):",
    "    check_values(values)",
    f"    {BEGIN}",
    "    squares = [value * value for value in values]",
    "    return sum(squares, start=0)",
    f"    {END}",
]


def test_release_fails_when_markdown_shows_the_solution(tmp_path):
    source = make_source(tmp_path / "src", SQUARES, "Hint: `squares = [value * value for value in values]`")
    with pytest.raises(
        errors.ClassroomError, match=r"lesson.py:4: `squares = .*` can be read at notebooks/01_lesson.ipynb cell 1"
    ):
        release.release(tmp_path / "out", source=source)
    assert not (tmp_path / "out").exists()


def test_release_fails_on_an_unbalanced_marker_in_a_module(tmp_path):
    with pytest.raises(errors.ClassroomError, match="lesson.py:3: BEGIN SOLUTION is never closed"):
        release.release(tmp_path / "out", source=make_source(tmp_path / "src", SQUARES[:-1]))
