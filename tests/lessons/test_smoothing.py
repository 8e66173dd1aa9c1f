"""Lesson 07: smoothing methods 0-7, against hand calculations and NLTK (quirks included)."""

import math
import sys

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import Precision, SmoothingFunction, corpus_bleu, sentence_bleu

METHODS = [f"method{i}" for i in range(8)]


def test_method0_by_hand(record):
    outcome = record(SmoothingFunction().method0, [Precision(1, 2), Precision(0, 3), Precision(0, 1)])
    # Zero precisions become the smallest positive float, one warning each.
    assert outcome.value == [Precision(1, 2), sys.float_info.min, sys.float_info.min]
    assert len(outcome.warnings) == 2 and "0 counts of 2-gram" in outcome.warnings[0]


def test_method1_by_hand():
    # (0 + 0.1) / 2 = 0.05; non-zero precisions are kept.
    assert SmoothingFunction().method1([Precision(3, 4), Precision(0, 2)]) == [Precision(3, 4), (0 + 0.1) / 2]
    assert SmoothingFunction(epsilon=0.5).method1([Precision(0, 4)]) == [0.5 / 4]


def test_method2_by_hand():
    # Orders above 1 get (m + 1) / (l + 1): 0/2 -> 1/3, 2/5 -> 3/6 (kept unreduced).
    p_n = SmoothingFunction().method2([Precision(0, 4), Precision(0, 2), Precision(2, 5)])
    assert [(p.numerator, p.denominator) for p in p_n] == [(0, 4), (1, 3), (3, 6)]


@pytest.mark.parametrize(
    "method, expected",
    [("method0", 0.6434588841607617), ("method1", 0.6434588841607617), ("method2", 0.7034711503007025)],
)
def test_method1_changes_no_score_without_a_zero_order_and_method2_does(same_as_nltk, smoothers, method, expected):
    # Lesson 07's folded aside: every order of "the cat is sitting on a mat" matches (6/7, 4/6, 3/5, 2/4).
    references, hypothesis = ["the cat is sitting on the mat".split()], "the cat is sitting on a mat".split()
    ours, theirs = smoothers(method)
    outcome = same_as_nltk(
        lambda: sentence_bleu(references, hypothesis, smoothing_function=ours),
        lambda: nltk_sentence_bleu(references, hypothesis, smoothing_function=theirs),
    )
    assert outcome.value == expected


def test_method3_by_hand():
    # k-th zero precision becomes 1 / (2^k * l): 1/(2 * 2), 1/(4 * 1).
    assert SmoothingFunction().method3([Precision(3, 4), Precision(0, 2), Precision(0, 1)]) == [
        Precision(3, 4),
        1 / (2 * 2),
        1 / (4 * 1),
    ]


def test_method4_by_hand():
    # k-th zero precision: 1 / (2^k * K / ln(len)) / l, with K = 5 and len = 10.
    p_n = SmoothingFunction().method4([Precision(3, 4), Precision(0, 3), Precision(0, 2)], [], [], hyp_len=10)
    assert p_n[1] == 1 / (2 * 5 / math.log(10)) / 3
    assert p_n[2] == 1 / (4 * 5 / math.log(10)) / 2


def test_method4_leaves_a_one_token_hypothesis_alone():
    # ln(1) = 0 would divide by zero; NLTK skips smoothing when len <= 1.
    assert SmoothingFunction().method4([Precision(0, 1)], [], ["a"], hyp_len=1) == [Precision(0, 1)]


def test_method5_by_hand_can_exceed_one(same_as_nltk):
    # "a b c d" against itself: p1..p4 = 1 and the 5-gram precision is 0/1.
    # m_0 = p1 + 1 = 2; p1' = (2 + 1 + 1)/3 = 4/3; p2' = (4/3 + 1 + 1)/3 = 10/9;
    # p3' = (10/9 + 1 + 1)/3 = 28/27; p4' = (28/27 + 1 + 0)/3 = 55/81.
    expected = (4 / 3 * 10 / 9 * 28 / 27 * 55 / 81) ** 0.25
    sentence = ["a", "b", "c", "d"]
    outcome = same_as_nltk(
        sentence_bleu, nltk_sentence_bleu, [sentence], sentence, smoothing_function=SmoothingFunction().method5
    )
    assert outcome.value == pytest.approx(expected, rel=1e-15)
    assert outcome.value > 1


def test_method6_by_hand():
    # Trigram and 4-gram precisions are interpolated with the prior p_{n-1}^2 / p_{n-2}:
    # p3' = (m3 + 5 * p2^2/p1) / (l3 + 5), p4' = (m4 + 5 * p3'^2/p2) / (l4 + 5).
    hypothesis = ["a", "b", "c", "d", "e"]  # l3 = 3, l4 = 2
    p1, p2, p3, p4 = Precision(4, 5), Precision(2, 4), Precision(1, 3), Precision(0, 2)
    p_n = SmoothingFunction().method6([p1, p2, p3, p4], [], hypothesis)
    p3_new = (1 + 5 * (1 / 2) ** 2 / (4 / 5)) / (3 + 5)
    p4_new = (0 + 5 * p3_new**2 / (1 / 2)) / (2 + 5)
    assert float(p_n[2]) == pytest.approx(p3_new, rel=1e-15)
    assert float(p_n[3]) == pytest.approx(p4_new, rel=1e-15)


@pytest.mark.parametrize(
    "method, printed",
    [
        ("method0", "0.4118"),
        ("method1", "0.4118"),
        ("method2", "0.4452"),
        ("method3", "0.4118"),
        ("method4", "0.4118"),
        ("method5", "0.4905"),
        ("method6", "0.4135"),
        ("method7", "0.4905"),
    ],
)
def test_nltk_docstring_figures(paper_cased, same_as_nltk, smoothers, method, printed):
    # SmoothingFunction's doctest in NLTK: candidate 1 against reference 1 only.
    ours, theirs = smoothers(method)
    references, hypothesis = [paper_cased.references[0]], paper_cased.candidate_1
    outcome = same_as_nltk(
        lambda: sentence_bleu(references, hypothesis, smoothing_function=ours),
        lambda: nltk_sentence_bleu(references, hypothesis, smoothing_function=theirs),
    )
    assert str(outcome.value).startswith(printed)


SENTENCE_CASES = {
    "paper candidate 1": ("references", "candidate_1"),
    "paper candidate 2 (no trigram match)": ("references", "candidate_2"),
    "the the the": ("the_references", "the_candidate"),
}
WEIGHT_SHAPES = {
    "BLEU-4 tuple": (0.25, 0.25, 0.25, 0.25),
    "BLEU-2 tuple": (0.5, 0.5),
    "unigram": (1.0,),
    "BLEU-6 list": [1 / 6] * 6,
    "several": [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25), (0.2,) * 5],
    "numpy": np.array([0.1, 0.2, 0.3, 0.4]),
}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", SENTENCE_CASES)
@pytest.mark.parametrize("weights", WEIGHT_SHAPES)
def test_sentence_bleu_with_each_method_equals_nltk(paper, same_as_nltk, record, smoothers, method, case, weights):
    references_name, hypothesis_name = SENTENCE_CASES[case]
    references, hypothesis = getattr(paper, references_name), getattr(paper, hypothesis_name)
    ours, theirs = smoothers(method)
    args = (references, hypothesis, WEIGHT_SHAPES[weights])
    nltk_outcome = record(nltk_sentence_bleu, *args, smoothing_function=theirs)
    if method == "method6" and nltk_outcome.error is not None:
        # NLTK's IndexError/AssertionError becomes our ValueError (test_method6_* below).
        assert nltk_outcome.error in (IndexError, AssertionError)
        with pytest.raises(ValueError):
            sentence_bleu(*args, smoothing_function=ours)
    else:
        assert nltk_outcome.error is None
        same_as_nltk(
            lambda *a: sentence_bleu(*a, smoothing_function=ours),
            lambda *a: nltk_sentence_bleu(*a, smoothing_function=theirs),
            *args,
        )


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "parameters", [{"epsilon": 0.5}, {"alpha": 0.5}, {"k": 1}, {"epsilon": 1, "alpha": 2, "k": 0.3}]
)
def test_parameters_equal_nltk(paper, same_as_nltk, smoothers, method, parameters):
    ours, theirs = smoothers(method, **parameters)
    hypothesis = paper.candidate_1[:9]  # "it is a guide to action which ensures that": has trigram matches
    same_as_nltk(
        lambda: sentence_bleu(paper.references, hypothesis, smoothing_function=ours),
        lambda: nltk_sentence_bleu(paper.references, hypothesis, smoothing_function=theirs),
    )


def _two_pair_corpus(paper):
    """A corpus whose two sentences differ in length and n-gram matches."""
    return [paper.references, [["a", "b", "c", "d"]]], [paper.candidate_1, ["a", "b", "x"]]


@pytest.mark.parametrize("method", ["method5", "method6", "method7"])
def test_methods_reading_the_last_pair_change_with_order_like_nltk(paper, same_as_nltk, smoothers, method):
    # Methods 5 and 7 take the 5-gram precision of the LAST pair, method 6 its n-gram
    # counts (NLTK passes the loop variables): reversing the corpus changes the score.
    list_of_references, hypotheses = _two_pair_corpus(paper)
    ours, theirs = smoothers(method)
    forward = same_as_nltk(
        lambda: corpus_bleu(list_of_references, hypotheses, smoothing_function=ours),
        lambda: nltk_corpus_bleu(list_of_references, hypotheses, smoothing_function=theirs),
    )
    backward = same_as_nltk(
        lambda: corpus_bleu(list_of_references[::-1], hypotheses[::-1], smoothing_function=ours),
        lambda: nltk_corpus_bleu(list_of_references[::-1], hypotheses[::-1], smoothing_function=theirs),
    )
    assert forward.value != backward.value


@pytest.mark.parametrize("method", ["method1", "method2", "method3", "method4"])
def test_other_methods_do_not_depend_on_order(paper, smoothers, method):
    list_of_references, hypotheses = _two_pair_corpus(paper)
    ours, _ = smoothers(method)
    forward = corpus_bleu(list_of_references, hypotheses, smoothing_function=ours)
    backward = corpus_bleu(list_of_references[::-1], hypotheses[::-1], smoothing_function=ours)
    assert forward == backward


def test_method6_with_fewer_than_three_orders(paper, record):
    # NLTK: IndexError (p_n[2] of a 2-element list). Ours: ValueError that says why.
    smoothing = NltkSmoothingFunction().method6
    assert record(nltk_sentence_bleu, paper.references, paper.candidate_1, (0.5, 0.5), smoothing).error is IndexError
    with pytest.raises(ValueError, match=r"at least 3 n-gram orders; got 2\. Use e\.g\. weights="):
        sentence_bleu(paper.references, paper.candidate_1, (0.5, 0.5), SmoothingFunction().method6)


def test_method6_without_a_trigram_match(paper, record):
    # Candidate 2 has no trigram match. NLTK: a bare AssertionError about "bigrams".
    smoothing = NltkSmoothingFunction().method6
    nltk_outcome = record(nltk_sentence_bleu, paper.references, paper.candidate_2, smoothing_function=smoothing)
    assert nltk_outcome.error is AssertionError
    with pytest.raises(ValueError, match=r"needs at least one trigram match.*Use another method"):
        sentence_bleu(paper.references, paper.candidate_2, smoothing_function=SmoothingFunction().method6)
    with pytest.raises(ValueError, match="trigram match"):
        corpus_bleu([paper.references], [paper.candidate_2], smoothing_function=SmoothingFunction().method6)


def test_smoothing_is_skipped_when_no_unigram_matches(record, smoothers):
    # NLTK returns the int 0 before smoothing: method 6 cannot complain, no warning.
    for method in METHODS:
        ours, _ = smoothers(method)
        outcome = record(sentence_bleu, [["a"]], ["b"], smoothing_function=ours)
        assert outcome.value == 0 and type(outcome.value) is int and outcome.warnings == []
