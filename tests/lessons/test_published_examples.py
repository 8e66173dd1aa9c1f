"""Every entry of data/published_examples.json, reproduced (the table of lesson 08).

For each entry: our recomputation under the published procedure equals the
published figure, and NLTK 3.10.4's answer equals bleu_scratch's standard
function. Every figure in the file is exact (a count, or a float printed by
Python with all its digits), so every comparison is ``==``. The notes carry
no figure; each has its own test of what it claims.
"""

import json
import math
import warnings
from pathlib import Path

import nltk
import nltk.translate.bleu_score as nltk_bleu
import pytest

from bleu_scratch import (
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    first_closest_ref_length,
    geometric_mean_score,
    modified_precision,
    sentence_bleu,
    variant_sentence_bleu,
)
from bleu_scratch.lesson08_published import (
    PROCEDURES,
    load_examples,
    published_figure,
    recompute,
    standard,
    table,
    tokenized,
)

EXAMPLES = load_examples(Path(__file__).resolve().parents[2] / "data" / "published_examples.json")
FIGURES = [e for e in EXAMPLES if e["quantity"] != "note"]
NOTES = [e for e in EXAMPLES if e["quantity"] == "note"]
OLD_NLTK_SCORES = [e for e in FIGURES if e["quantity"] == "sentence_bleu" and isinstance(e["reported"], float)]
SHIP_REFERENCES = [s.split() for s in ["this is a ship", "it is ship", "ship it is", "a ship, it is"]]


def entry_id(entry: dict) -> str:
    return f"{EXAMPLES.index(entry) + 1:02d}-{entry['quantity']}"


def test_the_file_is_what_the_lesson_explains():
    assert len(EXAMPLES) == 25
    assert len(NOTES) == 4
    assert all(e["quantity"] in PROCEDURES for e in FIGURES)


@pytest.mark.parametrize("entry", FIGURES, ids=entry_id)
def test_recomputation_equals_the_published_figure(entry):
    figure = published_figure(entry)
    ours = recompute(entry)
    if figure is None:
        # "is some", no number printed; the post asserted equality with NLTK 3.2.x
        # (NLTK 3.2.2 and 3.2.5 print 0.30934850332660563). By hand: p_1 = 1/2,
        # p_2 = 0 drops orders 2-4; c = 2, r = 4, BP = exp(1 - 4/2).
        assert entry["hypothesis"] == "is some"
        assert ours == math.exp(1 - 4 / 2) * math.exp(0.25 * math.log(1 / 2))
    else:
        assert ours == figure
        assert type(ours) in (type(figure), int)


@pytest.mark.parametrize("entry", FIGURES, ids=entry_id)
def test_nltk_column_equals_our_standard_function(entry, same_as_nltk):
    outcome = same_as_nltk(standard, lambda e: standard(e, nltk_bleu), entry)
    if entry["quantity"] != "clipped_counts":
        assert outcome.value is not None


def test_clipped_counts_add_up_to_nltks_numerator():
    # NLTK has no per-n-gram clipping function; its modified precision's numerator is the sum.
    (entry,) = [e for e in FIGURES if e["quantity"] == "clipped_counts"]
    references, hypothesis = tokenized(entry)
    p = nltk_bleu.modified_precision(references, hypothesis, entry["n"])
    assert sum(recompute(entry).values()) == p.numerator == 1


def test_the_seven_old_scores_and_what_nltk_3_10_4_gives():
    assert [e["reported"] for e in OLD_NLTK_SCORES] == [
        1.0,
        0.8408964152537145,
        0.1353352832366127,
        0.6147881529512643,
        0.6042750794713536,
        0.7598356856515925,
        0.6065306597126334,
    ]
    for entry in OLD_NLTK_SCORES:
        references, hypothesis = tokenized(entry)
        old_rule = SmoothingFunction(epsilon=0).method1
        assert sentence_bleu(references, hypothesis, smoothing_function=old_rule) == entry["reported"]
        assert (
            nltk_bleu.sentence_bleu(
                references, hypothesis, smoothing_function=nltk_bleu.SmoothingFunction(epsilon=0).method1
            )
            == entry["reported"]
        )
        # Today's default: one factor exp(0.25 * log(2.2e-308)) ~ 1e-77 per zero order.
        with pytest.warns(UserWarning):
            today = nltk_bleu.sentence_bleu(references, hypothesis)
        zero_orders = sum(modified_precision(references, hypothesis, n).numerator == 0 for n in (1, 2, 3, 4))
        assert zero_orders in (1, 3)
        assert 1e-78**zero_orders < today < 1e-76**zero_orders


def test_the_table_has_one_row_per_entry_and_no_difference():
    rows = table(EXAMPLES, nltk_bleu)
    assert [r.number for r in rows] == list(range(1, 26))
    assert not [r for r in rows if r.status.startswith("differs")]
    assert sum(r.status.startswith("reproduced exactly") for r in rows) == 20


NOTE_SOURCES = {
    "BLEU (BiLingual Evaluation Understudy) study notes",
    "Introduction to BLEU in Python",
    "Bleu Score Notes",
    "Machine Translation Evaluation Metrics",
}


def test_every_note_has_a_check():
    assert {next(s for s in NOTE_SOURCES if e["source"].startswith(s)) for e in NOTES} == NOTE_SOURCES


def test_note_study_notes():
    # tot/len(cand) - n + 1 is (tot/len(cand)) - n + 1: with 3 bigram matches in a
    # 7-token candidate it gives 3/7 - 1, a negative "precision"; 7 tokens have 6 bigrams.
    tot, cand_len, n = 3, 7, 2
    assert tot / cand_len - n + 1 < 0
    assert tot / (cand_len - n + 1) == 0.5
    assert modified_precision([list("abcdefg")], list("abcxefg"), 2).denominator == 6
    # Best-match length: ties to the shorter; BP of an empty candidate: 0.
    assert closest_ref_length([["w"] * 14, ["w"] * 10], 12) == 10
    assert brevity_penalty(5, 0) == 0


def test_note_first_of_equally_close_references():
    references = [["w"] * 6, ["w"] * 4]
    assert first_closest_ref_length(references, 5) == 6
    assert closest_ref_length(references, 5) == 4
    # The post's seven inputs have no tie, so its rule gives NLTK 3.2.x's numbers.
    for entry in OLD_NLTK_SCORES:
        references, hypothesis = tokenized(entry)
        assert variant_sentence_bleu(references, hypothesis, ref_length=first_closest_ref_length) == entry["reported"]


def test_note_andrew_ng_slide():
    # MT output of 5 words, reference of 10.
    mt, ref = 5, 10
    assert math.exp(1 - mt / ref) > 1  # the slide's formula would reward the short output
    assert brevity_penalty(ref, mt) == math.exp(1 - ref / mt) < 1
    # The score is a geometric mean (mean of log p_n), not the arithmetic mean of p_n.
    p_n = [1, 0.5, 0.25, 0.125]
    geometric = geometric_mean_score(p_n, (0.25,) * 4, 1)
    assert math.isclose(geometric, 2**-1.5, rel_tol=1e-15)
    assert sum(p_n) / 4 == 0.46875 != geometric


def test_note_plain_precision_of_seven_thes():
    hypothesis = "the the the the the the the".split()
    references = [r.lower().removesuffix(".").split() for r in ["The cat is on the mat.", "There is a cat on the mat."]]
    assert len(hypothesis) == 7
    plain_matches = sum(any(token in r for r in references) for token in hypothesis)
    assert (plain_matches, len(hypothesis)) == (7, 7)
    p = modified_precision(references, hypothesis, 1)
    assert (p.numerator, p.denominator) == (2, 7)


def test_the_nltk_history_record_agrees_with_the_post_and_with_nltk_today():
    """The recorded runs of old NLTK releases (data/nltk_history, lesson 08's folded history), checked.

    3.2.2 to 3.2.5 printed the post's seven numbers and our old rule's for every input; from 3.3 on every
    release printed what the NLTK installed here prints now; epsilon=0 method 1 gives the old numbers today.
    """
    history_dir = Path(__file__).resolve().parents[2] / "data" / "nltk_history"
    history = json.loads((history_dir / "sentence_bleu_by_release.json").read_text(encoding="utf-8"))
    entries = [EXAMPLES[item["entry"] - 1] for item in history["inputs"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        today = [repr(nltk_bleu.sentence_bleu(*tokenized(entry))) for entry in entries]
    old_rule = [repr(recompute(entry)) for entry in entries]
    assert [e["hypothesis"] for e in entries[:7]] == [e["hypothesis"] for e in OLD_NLTK_SCORES]
    for release, results in history["sentence_bleu"].items():
        version = tuple(int(part) for part in release.split("."))
        if (3, 2, 2) <= version <= (3, 2, 5):
            assert results == old_rule, f"NLTK {release}: {results}, our old rule {old_rule}"
            assert results[:7] == [repr(e["reported"]) for e in OLD_NLTK_SCORES], f"NLTK {release}: {results[:7]}"
        if version >= (3, 3):
            assert results == today, f"NLTK {release}: {results}, NLTK {nltk.__version__} today {today}"
    works = [release for release, d in history["details"].items() if d["epsilon0_method1"] == old_rule]
    assert works == ["3.6.6", "3.7", "3.8.1", "3.9.1", "3.10.4"]
    fails = [
        release
        for release, d in history["details"].items()
        if d["epsilon0_method1"] == ["ValueError: math domain error"] * len(entries)
    ]
    assert fails == ["3.2.2", "3.2.3", "3.2.4", "3.2.5", "3.3", "3.4", "3.4.5", "3.5", "3.6.5"]
