"""An edition with lessons 01-06 written: every public function of those lessons works, whatever lesson 10 holds.

The student has written the exercises of lessons 01 to 06 in the package
(the repository's solutions, copied in) and nothing else: lesson 10's are
still stubs. Each public function of lessons 01-06 gives NLTK's value (the
reference implementation's, where NLTK has none), called from a process of
its own in the edition; and notebooks 01-06 each run until their own
exercise cell, not earlier.
"""

import base64
import json
import os
import pickle
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import bleu_scratch
from bleu_classroom import cases, sandbox
from bleu_classroom.edition_conftest import notebook_cell_stopped
from bleu_classroom.oracle import NltkOracle, StatsAnswer
from tests.classroom.edition_tools import REPO, STUB, Run, copy_of, run_notebook, set_function, side_by_side
from tests.classroom.test_edition import MARKED, lesson_of

WRITTEN = "06"  # the last lesson the student has written
LINE = "It's $3.50, a 1990-2000 well-known &quot;deal&quot; of the Party."
REFERENCES, HYPOTHESIS = cases.REFERENCES_1, cases.CANDIDATE_1
CORPUS = ([cases.REFERENCES_1, cases.REFERENCES_CAT], [cases.CANDIDATE_2, cases.CAT])
# Each public function of lessons 01-06, called as Python code in the edition (names from bleu_scratch).
CALLS = {
    "tokenize_whitespace": "tokenize_whitespace(LINE)",
    "tokenize_lowercase": "tokenize_lowercase(LINE)",
    "tokenize_punctuation": "tokenize_punctuation(LINE)",
    "tokenize_paper": "tokenize_paper(LINE)",
    "tokenize_13a": "tokenize_13a(LINE)",
    "ngrams": "ngrams(HYPOTHESIS, 2)",
    "count_ngrams": "count_ngrams(HYPOTHESIS, 2)",
    "max_reference_counts": "max_reference_counts(REFERENCES, 2)",
    "clipped_counts": "clipped_counts(count_ngrams(HYPOTHESIS, 2), max_reference_counts(REFERENCES, 2))",
    "modified_precision": "modified_precision(REFERENCES, HYPOTHESIS, 2)",
    "explain": (
        "[(order.precision.numerator, order.precision.denominator) for order in explain(REFERENCES, HYPOTHESIS).orders]"
    ),
    "closest_ref_length": "closest_ref_length(REFERENCES, len(HYPOTHESIS))",
    "brevity_penalty": "brevity_penalty(18, 17)",
    "sentence_stats": "sentence_stats(REFERENCES, HYPOTHESIS)",
    "no_smoothing": "no_smoothing([Precision(3, 4), Precision(0, 3)])",
    "geometric_mean_score": "geometric_mean_score([Precision(3, 4), Precision(1, 3)], (0.5, 0.5), 0.75)",
    "bleu_from_stats": "bleu_from_stats(corpus_stats(*CORPUS), (0.5, 0.5))",
    "sentence_bleu": "sentence_bleu(REFERENCES, HYPOTHESIS)",
    "corpus_stats": "corpus_stats(*CORPUS)",
    "corpus_bleu": "corpus_bleu(*CORPUS)",
}
# Run in the edition: each call's value, or the error it raised and where.
CALLER = """
import base64, json, pickle, re, sys, traceback, warnings
import bleu_scratch
# The names of lessons 01-09 (a star import would load lessons 10-12 too).
names = {name: getattr(bleu_scratch, name) for name in bleu_scratch.__all__ if name not in bleu_scratch.LATER_LESSONS}
data = json.loads(sys.argv[1])
LINE, REFERENCES, HYPOTHESIS, CORPUS = data["line"], data["references"], data["hypothesis"], data["corpus"]
results = {}
for name, call in data["calls"].items():
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            namespace = dict(names, LINE=LINE, REFERENCES=REFERENCES, HYPOTHESIS=HYPOTHESIS, CORPUS=CORPUS)
            results[name] = ("value", eval(call, namespace))
    except Exception as error:
        place = traceback.extract_tb(error.__traceback__)[-1]
        results[name] = ("raised", f"{type(error).__name__}: {error} ({place.filename}:{place.lineno})")
later = sorted(name for name in sys.modules if re.match(r"bleu_scratch\\.lesson1\\d_", name))
print(base64.b64encode(pickle.dumps((results, later))).decode())
"""


def public_functions(last: str) -> set[str]:
    """The names bleu_scratch exports that are functions of lessons 01 to ``last``."""
    found = set()
    for name in bleu_scratch.__all__:
        if name in bleu_scratch.LATER_LESSONS:
            continue  # lessons 10-12, imported when first used
        value = getattr(bleu_scratch, name)
        lesson = re.match(r"bleu_scratch\.lesson(\d\d)_", getattr(value, "__module__", "") or "")
        if callable(value) and not isinstance(value, type) and lesson and lesson[1] <= last:
            found.add(name)
    return found


def nltk_answers() -> dict:
    """What each call gives in NLTK 3.10.4 (sacrebleu's 13a, and the BLEU paper's own counting, where NLTK has none)."""
    from nltk.tokenize import WhitespaceTokenizer, wordpunct_tokenize
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    oracle = NltkOracle()
    bleu = oracle.bleu
    nltk_smoothing = bleu.SmoothingFunction()

    def geometric_mean_score(p_n: list, weights: tuple, bp: float) -> float:
        # NLTK's corpus_bleu ends with this mean: on a hypothesis longer than its reference (brevity penalty
        # the int 1) with a unigram match, and a "smoothing" that hands it p_n, it returns 1 * the mean.
        return bp * bleu.corpus_bleu([[["a"]]], [["a", "a"]], weights, lambda *args, **kwargs: p_n)

    words = WhitespaceTokenizer().tokenize
    hyp_len = len(HYPOTHESIS)
    return {
        "tokenize_whitespace": words(LINE),
        "tokenize_lowercase": words(LINE.lower()),
        "tokenize_punctuation": wordpunct_tokenize(LINE),
        # The paper counts lowercased letters and digits of each word (no library has it).
        "tokenize_paper": [kept for word in words(LINE.lower()) if (kept := re.sub(r"[^0-9a-z]", "", word))],
        "tokenize_13a": Tokenizer13a()(LINE).split(),
        "ngrams": oracle.ngrams(HYPOTHESIS, 2),
        "count_ngrams": oracle.count_ngrams(HYPOTHESIS, 2),
        "max_reference_counts": oracle.max_reference_counts(REFERENCES, 2),
        "clipped_counts": oracle.clipped_counts(REFERENCES, HYPOTHESIS, 2),
        "modified_precision": bleu.modified_precision(REFERENCES, HYPOTHESIS, 2),
        "explain": [
            (p.numerator, p.denominator)
            for p in (bleu.modified_precision(REFERENCES, HYPOTHESIS, n) for n in range(1, 5))
        ],
        "closest_ref_length": bleu.closest_ref_length(REFERENCES, hyp_len),
        "brevity_penalty": bleu.brevity_penalty(18, 17),
        "sentence_stats": oracle.stats(oracle.sentence_stats(REFERENCES, HYPOTHESIS, 4)),
        "no_smoothing": nltk_smoothing.method0(
            [bleu.Fraction(3, 4, _normalize=False), bleu.Fraction(0, 3, _normalize=False)]
        ),
        "geometric_mean_score": geometric_mean_score(
            [bleu.Fraction(3, 4, _normalize=False), bleu.Fraction(1, 3, _normalize=False)], (0.5, 0.5), 0.75
        ),
        "bleu_from_stats": bleu.corpus_bleu(*CORPUS, weights=(0.5, 0.5)),
        "sentence_bleu": bleu.sentence_bleu(REFERENCES, HYPOTHESIS),
        "corpus_stats": oracle.stats(oracle.corpus_stats(*CORPUS, 4)),
        "corpus_bleu": bleu.corpus_bleu(*CORPUS),
    }


@pytest.fixture(scope="module")
def written(edition, tmp_path_factory) -> Path:
    """The edition with the package exercises of lessons 01-06 written, and nothing else."""
    student = copy_of(edition, tmp_path_factory.mktemp("written"), "student")
    for module, function in MARKED:
        if lesson_of(module) <= WRITTEN:
            set_function(student, module, function)
    # Lesson 10's exercises are still there to write.
    assert STUB in (student / "bleu_scratch" / "lesson10_batch.py").read_text(encoding="utf-8")
    return student


def test_the_calls_cover_every_public_function_of_lessons_01_to_06():
    assert set(CALLS) == public_functions(WRITTEN)


def test_every_public_function_of_the_written_lessons_gives_nltks_value(written):
    with pytest.warns(UserWarning):  # NLTK's own zero-order warning, from method0
        expected = nltk_answers()
    data = {"line": LINE, "references": REFERENCES, "hypothesis": HYPOTHESIS, "corpus": CORPUS, "calls": CALLS}
    done = subprocess.run(
        [sys.executable, "-c", CALLER, json.dumps(data)],
        cwd=written,
        env=dict(os.environ, PYTHONPATH=str(written)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results, later = pickle.loads(base64.b64decode(done.stdout))
    # The edition's classes unpickle as the repository's (the same module and name).
    ours = {"Precision": bleu_scratch.Precision, "BleuStats": bleu_scratch.BleuStats}
    theirs = NltkOracle().classes()
    wrong = {}
    for name, (kind, value) in results.items():
        if kind == "raised":
            wrong[name] = value
        elif sandbox.encode(value, ours) != sandbox.encode(expected[name], theirs):
            wrong[name] = f"{value!r}, NLTK gives {expected[name]!r}"
    assert not wrong, "\n".join(f"{name}: {why}" for name, why in wrong.items())
    assert later == [], "a function of lessons 01-06 imported lesson 10, 11 or 12"


def test_the_answers_are_typed_as_nltks():
    """The comparison above tells types apart: NLTK's Fraction is the lessons' Precision, its statistics their
    BleuStats."""
    theirs = NltkOracle().classes()
    ours = {"Precision": bleu_scratch.Precision, "BleuStats": bleu_scratch.BleuStats}
    assert sandbox.encode(bleu_scratch.Precision(2, 4), ours) == sandbox.encode(
        theirs["Precision"](2, 4, _normalize=False), theirs
    )
    assert sandbox.encode(1, ours) != sandbox.encode(1.0, theirs)
    stats = bleu_scratch.BleuStats(3, 4, (1,), (3,), (0,))
    assert sandbox.encode(stats, ours) == sandbox.encode(StatsAnswer(3, 4, (1,), (3,), (0,)), theirs)
    assert sandbox.encode(Counter({("a",): 0}), ours) != sandbox.encode(Counter(), theirs)


def first_exercise(notebook) -> tuple[int, int]:
    """The index of the notebook's first exercise cell, and of its check (the next code cell)."""
    exercise = next(i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code" and STUB in cell.source)
    check = next(i for i in range(exercise + 1, len(notebook.cells)) if notebook.cells[i].cell_type == "code")
    return exercise, check


WRITTEN_NOTEBOOKS = sorted(path.name for path in (REPO / "notebooks").glob("0[1-6]_*.ipynb"))


@pytest.fixture(scope="module")
def stops(written) -> dict[str, Run]:
    """Notebooks 01-06 run in the edition, exercise cells unwritten (two at a time)."""
    return side_by_side(lambda name: run_notebook(written / "notebooks" / name, written), WRITTEN_NOTEBOOKS)


@pytest.mark.parametrize("name", WRITTEN_NOTEBOOKS)
def test_each_notebook_runs_to_its_own_exercise(stops, name):
    notebook, error = stops[name].notebook, stops[name].error
    assert error is not None, f"{name} ran to its end with its exercise cells unwritten"
    (stopped,) = [
        (index, "\n".join(output.traceback))
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    index, traceback = stopped
    assert notebook_cell_stopped(f"notebooks/{name}", traceback) == (
        f"an exercise cell of notebooks/{name} (lesson {name[:2]}) is not written yet"
    ), f"cell {index + 1} of {name} stopped:\n{traceback}"
    assert index in first_exercise(notebook), (
        f"{name} stopped at cell {index + 1}, not at its first exercise {first_exercise(notebook)}"
    )
