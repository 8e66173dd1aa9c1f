"""Lesson 03: modified n-gram precision, against the BLEU paper and NLTK."""

import copy
import json
import pickle
import re
from fractions import Fraction

import pytest
from nltk.translate.bleu_score import Fraction as NltkFraction
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision

from bleu_scratch import Precision, modified_precision

# Papineni et al. (2002), Example 1: the modified precisions the paper reports.
PAPER_EXAMPLE_1 = [
    # (candidate, n, clipped matches, candidate n-grams)
    ("candidate_1", 1, 17, 18),
    ("candidate_2", 1, 8, 14),
    ("candidate_1", 2, 10, 17),
    ("candidate_2", 2, 1, 13),
]


@pytest.mark.parametrize("candidate, n, matches, total", PAPER_EXAMPLE_1)
def test_paper_example_1(paper, candidate, n, matches, total):
    p = modified_precision(paper.references, getattr(paper, candidate), n)
    assert (p.numerator, p.denominator) == (matches, total)


@pytest.mark.parametrize("candidate, n, matches, total", PAPER_EXAMPLE_1)
def test_paper_example_1_does_not_depend_on_case(paper_cased, candidate, n, matches, total):
    # With case kept the figures are the same: the only case clash is "Party" in
    # references 1-2, and reference 3 supplies the lowercase "party" (and "the party").
    p = modified_precision(paper_cased.references, getattr(paper_cased, candidate), n)
    assert (p.numerator, p.denominator) == (matches, total)


def test_paper_example_1_candidate_1_unigrams_by_hand(paper):
    # 18 tokens; every one but "obeys" occurs in some reference, and "the" (3 times)
    # is allowed 4 times by reference 2: 18 - 1 = 17 matches.
    assert len(paper.candidate_1) == 18
    assert "obeys" not in {t for r in paper.references for t in r}
    assert modified_precision(paper.references, paper.candidate_1, 1) == Fraction(18 - 1, 18)


def test_paper_example_2_needs_lowercasing(paper, paper_cased):
    # The paper's 2/7 counts "The" and "the" as the same word: reference 1
    # "the cat is on the mat" then has two "the"s.
    lowered = modified_precision(paper.the_references, paper.the_candidate, 1)
    assert (lowered.numerator, lowered.denominator) == (2, 7)
    # Case kept, each reference has a single lowercase "the": 1/7, not the paper's figure.
    cased = modified_precision(paper_cased.the_references, paper_cased.the_candidate, 1)
    assert (cased.numerator, cased.denominator) == (1, 7)


def test_raw_counts_are_kept_unreduced():
    # "a a b b" against "a b": each of the 2 distinct words matches once -> 2/4, not 1/2.
    p = modified_precision([["a", "b"]], ["a", "a", "b", "b"], 1)
    assert (p.numerator, p.denominator) == (2, 4)
    assert p == Fraction(1, 2)
    assert float(p) == 0.5


def test_raw_counts_equal_nltk_fraction():
    references = [["a", "b", "a"], ["b", "b"]]
    hypothesis = ["a", "b", "b", "b", "c", "a"]
    for n in range(1, 5):
        ours = modified_precision(references, hypothesis, n)
        theirs = nltk_modified_precision(references, hypothesis, n)
        assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
        assert float(ours) == float(theirs)


def test_hypothesis_shorter_than_n_gets_zero_over_one():
    # No bigram in a one-token hypothesis: NLTK's convention is 0/1 (denominator at least 1).
    p = modified_precision([["a", "b"]], ["a"], 2)
    assert (p.numerator, p.denominator) == (0, 1)
    theirs = nltk_modified_precision([["a", "b"]], ["a"], 2)
    assert (p.numerator, p.denominator) == (theirs.numerator, theirs.denominator)


def test_empty_reference_gives_zero_matches():
    p = modified_precision([[]], ["a", "b"], 1)
    assert (p.numerator, p.denominator) == (0, 2)


class TestPrecisionType:
    def test_compares_by_value(self):
        assert Precision(2, 4) == Precision(1, 2)
        assert Precision(2, 4) == Fraction(1, 2)
        assert Precision(2, 4) == 0.5
        assert Precision(1, 3) != Precision(1, 2)
        assert Precision(1, 3) < Precision(1, 2)

    def test_hash_agrees_with_equality(self):
        assert hash(Precision(2, 4)) == hash(Fraction(1, 2)) == hash(0.5)

    def test_arithmetic_matches_nltk_fraction(self):
        # Smoothing methods 2, 5 and 6 compute with precisions. On Python 3.11,
        # Fraction arithmetic reads the raw counts, so 2/4 + 1/3 comes out as the
        # unreduced 10/12 (= 5/6) for NLTK's Fraction and for ours alike.
        assert isinstance(Precision(2, 4), Fraction)
        ours = Precision(2, 4) + Precision(1, 3)
        theirs = NltkFraction(2, 4) + NltkFraction(1, 3)
        assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
        assert float(ours) == float(theirs) == 5 / 6
        for ours, theirs in [
            (Precision(2, 4) ** 2 / Precision(3, 9), NltkFraction(2, 4) ** 2 / NltkFraction(3, 9)),
            ((Precision(2, 4) + 1 + Precision(0, 3)) / 3, (NltkFraction(2, 4) + 1 + NltkFraction(0, 3)) / 3),
        ]:
            assert float(ours) == float(theirs)

    def test_zero_is_falsy(self):
        # Smoothing method 6 relies on bool(p_n[2]).
        assert not Precision(0, 5)
        assert Precision(1, 5)

    def test_repr_shows_raw_counts(self):
        assert repr(Precision(2, 4)) == "Precision(2, 4)"

    @pytest.mark.parametrize("raw", [(2, 4), (0, 1), (3, 1), (0, 5)])
    def test_str_and_ratio_like_nltk_fraction(self, raw):
        # Fraction prints a denominator of 1 as a whole number: 3/1 is "3", 0/1 is "0".
        assert str(Precision(*raw)) == str(NltkFraction(*raw, _normalize=False))
        assert Precision(*raw).as_integer_ratio() == NltkFraction(*raw, _normalize=False).as_integer_ratio() == raw

    def test_copies_and_pickles_keep_raw_counts(self):
        # Fraction rebuilds copies from reduced parts; a precision sent to another
        # process (pickled) must still add up as 2/4, not 1/2.
        for copied in (
            copy.copy(Precision(2, 4)),
            copy.deepcopy(Precision(2, 4)),
            pickle.loads(pickle.dumps(Precision(2, 4))),
        ):
            assert type(copied) is Precision
            assert (copied.numerator, copied.denominator) == (2, 4)


def _published_tokenize(text: str, rule: str) -> list[str]:
    """The tokenization data/published_examples.json names for each example."""
    if rule.startswith("lowercase, drop non-alphanumeric"):
        tokens = [re.sub(r"[^0-9a-z]", "", t) for t in text.lower().split()]
        return [t for t in tokens if t]
    if rule.startswith("lowercase, whitespace split, final period dropped"):
        return text.lower().rstrip(".").split()
    raise AssertionError(f"unknown tokenization {rule!r}")


def _published_precisions(data_dir):
    examples = json.loads((data_dir / "published_examples.json").read_text(encoding="utf-8"))["examples"]
    return [e for e in examples if e["quantity"] == "modified_precision"]


def test_published_examples_file_has_the_paper_figures(data_dir):
    reported = {(e["hypothesis"].split()[3], e["n"], tuple(e["reported"])) for e in _published_precisions(data_dir)}
    # Candidate 1's 4th word is "guide", candidate 2's is "insure", Example 2's is "the".
    paper = {("guide", 1, (17, 18)), ("insure", 1, (8, 14)), ("guide", 2, (10, 17)), ("insure", 2, (1, 13))}
    assert paper | {("the", 1, (2, 7))} <= reported


def test_published_modified_precisions(data_dir):
    examples = _published_precisions(data_dir)
    assert len(examples) == 8
    for example in examples:
        rule = example["tokenization"]
        references = [_published_tokenize(r, rule) for r in example["references"]]
        hypothesis = _published_tokenize(example["hypothesis"], rule)
        p = modified_precision(references, hypothesis, example["n"])
        assert [p.numerator, p.denominator] == example["reported"], example["source"]
