"""One truth per exercise: a wrong lesson function fails its notebook's checks and earns no points from the grader.

Each variant is a mistake a student makes; the grader and the lesson's
notebook must both reject it (the right functions pass both: the repository's
grade and tests/classroom/test_edition.py).
"""

from pathlib import Path

import pytest

from bleu_classroom import grader
from tests.classroom.edition_tools import copy_of, run_notebook, set_function, side_by_side
from tests.classroom.test_edition import MARKED, lesson_of

# Each mistake: the function it is made in, its lesson and module, and the wrong body in place of the stub.
WRONG = {
    # The mistake the old grader let through: & drops the zero counts NLTK keeps.
    "clipped_counts with &": (
        "clipped_counts",
        "02",
        "lesson02_clipping",
        ["return hypothesis_counts & max_ref_counts"],
    ),
    # Summing the references' counts, where the clip is the largest count in one reference (issue 24).
    "max_reference_counts summed": (
        "max_reference_counts",
        "02",
        "lesson02_clipping",
        [
            "total: Counter = Counter()",
            "for reference in references:",
            "    total += count_ngrams(reference, n)",
            "return total",
        ],
    ),
    # Lists where NLTK gives tuples: the n-grams cannot be counted.
    "ngrams as lists": (
        "ngrams",
        "01",
        "lesson01_ngrams",
        ["return [list(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]"],
    ),
    # One n-gram short: L - n where a sentence of L tokens has L - n + 1 (issue 24).
    "ngrams one short": (
        "ngrams",
        "01",
        "lesson01_ngrams",
        ["return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n)]"],
    ),
    # A plain Fraction reduces 2/4 to 1/2: NLTK's numerator and denominator are lost.
    "modified_precision reduced": (
        "modified_precision",
        "03",
        "lesson03_precision",
        [
            "from fractions import Fraction",
            "counts = count_ngrams(hypothesis, n)",
            "clipped = clipped_counts(counts, max_reference_counts(references, n))",
            "return Fraction(sum(clipped.values()), max(1, sum(counts.values())))",
        ],
    ),
    # too_short left at zero: NLTK counts a sentence too short for an order as one n-gram (issue 24).
    "sentence_stats without too_short": (
        "sentence_stats",
        "05",
        "lesson05_sentence",
        [
            "matches, totals = [], []",
            "for n in range(1, max_n + 1):",
            "    counts = count_ngrams(hypothesis, n)",
            "    clipped = clipped_counts(counts, max_reference_counts(references, n))",
            "    matches.append(sum(clipped.values()))",
            "    totals.append(sum(counts.values()))",
            "hyp_len = len(hypothesis)",
            "ref_len = closest_ref_length(references, hyp_len)",
            "return BleuStats(hyp_len, ref_len, tuple(matches), tuple(totals), (0,) * max_n)",
        ],
    ),
    # The last sentence pair not passed on: smoothing methods 5 to 7 read it (issue 24).
    "corpus_bleu without the last pair": (
        "corpus_bleu",
        "06",
        "lesson06_corpus",
        [
            "stats = corpus_stats(list_of_references, hypotheses, max_n_of(weights))",
            "return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh)",
        ],
    ),
}


@pytest.fixture(scope="module")
def verdicts(edition, tmp_path_factory) -> dict[str, tuple[str, int]]:
    root = tmp_path_factory.mktemp("one-truth")

    def written_with(mistake: str) -> Path:
        name, lesson, module, body = WRONG[mistake]
        student = copy_of(edition, root, mistake.replace(" ", "-"))
        for other_module, function in MARKED:
            if lesson_of(other_module) <= lesson and function != name:
                set_function(student, other_module, function)
        set_function(student, module, name, body)
        return student

    students = {mistake: written_with(mistake) for mistake in WRONG}  # one at a time: see side_by_side

    def verdict(mistake: str) -> tuple[str, int]:
        name, lesson = WRONG[mistake][:2]
        student = students[mistake]
        points = grader.grade(student, only=[name]).marks[0].points
        # The lesson's notebook, exercises solved: the error that stopped it, or ''.
        stopped = run_notebook(next((student / "notebooks").glob(f"{lesson}_*.ipynb")), student, solve=True).error
        return (stopped.ename if stopped else ""), points

    return side_by_side(verdict, WRONG)


@pytest.mark.parametrize("mistake", list(WRONG))
def test_the_grader_and_the_notebook_reject_the_same_mistake(verdicts, mistake):
    error, points = verdicts[mistake]
    name, lesson = WRONG[mistake][:2]
    assert points == 0, f"the grader gave {name} with this mistake ({mistake}) {points} points"
    assert error, f"notebook {lesson} ran to its end with {name} wrong ({mistake})"
    assert error != "NotImplementedError", "the notebook stopped at an unwritten exercise, not at the mistake"
