"""One truth per exercise: a wrong lesson function fails its notebook's checks and earns no points from the grader.

Each variant is a mistake a student makes; the grader and the lesson's
notebook must both reject it (the right functions pass both: the repository's
grade and tests/classroom/test_edition.py).
"""

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from bleu_classroom import grader
from tests.classroom.edition_tools import REPO, STUB, copy_of, set_function
from tests.classroom.test_edition import MARKED, lesson_of

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

WRONG = {
    # The mistake the old grader let through: & drops the zero counts NLTK keeps.
    "clipped_counts": ("02", "lesson02_clipping", ["return hypothesis_counts & max_ref_counts"]),
    # Lists where NLTK gives tuples: the n-grams cannot be counted.
    "ngrams": ("01", "lesson01_ngrams", ["return [list(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]"]),
    # A plain Fraction reduces 2/4 to 1/2: NLTK's numerator and denominator are lost.
    "modified_precision": (
        "03",
        "lesson03_precision",
        [
            "from fractions import Fraction",
            "counts = count_ngrams(hypothesis, n)",
            "clipped = clipped_counts(counts, max_reference_counts(references, n))",
            "return Fraction(sum(clipped.values()), max(1, sum(counts.values())))",
        ],
    ),
    # The last sentence pair not passed on: smoothing methods 5 to 7 read it (issue 24).
    "corpus_bleu": (
        "06",
        "lesson06_corpus",
        [
            "stats = corpus_stats(list_of_references, hypotheses, max_n_of(weights))",
            "return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh)",
        ],
    ),
}


def notebook_fails(edition, lesson: str, environment: dict) -> str:
    """Run lesson ``lesson``'s notebook, exercises solved, in the edition; the error that stopped it, or ''."""
    path = next((edition / "notebooks").glob(f"{lesson}_*.ipynb"))
    notebook = nbformat.read(path, as_version=4)
    solved = nbformat.read(REPO / "notebooks" / path.name, as_version=4)
    for ours, theirs in zip(solved.cells, notebook.cells):
        if theirs.cell_type == "code" and STUB in theirs.source:
            theirs.source = ours.source
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute(env=environment)
    except nbclient.exceptions.CellExecutionError as error:
        return error.ename
    return ""


@pytest.fixture(scope="module")
def verdicts(edition, tmp_path_factory) -> dict[str, tuple[str, int]]:
    root = tmp_path_factory.mktemp("one-truth")

    def verdict(name: str) -> tuple[str, int]:
        lesson, module, body = WRONG[name]
        student = copy_of(edition, root, name)
        for other_module, function in MARKED:
            if lesson_of(other_module) <= lesson and function != name:
                set_function(student, other_module, function)
        set_function(student, module, name, body)
        environment = dict(os.environ, PYTHONPATH=str(student))
        points = grader.grade(student, only=[name]).marks[0].points
        return notebook_fails(student, lesson, environment), points

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(WRONG, pool.map(verdict, WRONG)))


@pytest.mark.parametrize("name", list(WRONG))
def test_the_grader_and_the_notebook_reject_the_same_mistake(verdicts, name):
    error, points = verdicts[name]
    assert points == 0, f"the grader gave a wrong {name} {points} points"
    assert error, f"notebook {WRONG[name][0]} ran to its end with a wrong {name}"
    assert error != "NotImplementedError", "the notebook stopped at an unwritten exercise, not at the mistake"
