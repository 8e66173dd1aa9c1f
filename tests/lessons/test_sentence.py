"""Lesson 05: sentence statistics and the sentence score."""

import collections
import json
import math
import sys

import numpy as np
import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import (
    BleuStats,
    Precision,
    bleu_from_stats,
    corpus_bleu,
    fast_corpus_bleu,
    geometric_mean_score,
    sentence_bleu,
    sentence_stats,
)
from bleu_scratch.lesson05_sentence import max_n_of, weight_vectors


class TestBleuStats:
    def test_addition_by_hand(self):
        a = BleuStats(hyp_len=3, ref_len=4, matches=(3, 1), totals=(3, 2), too_short=(0, 0))
        b = BleuStats(hyp_len=1, ref_len=2, matches=(1, 0), totals=(1, 0), too_short=(0, 1))
        # Field by field: 3 + 1, 4 + 2, (3 + 1, 1 + 0), (3 + 1, 2 + 0), (0 + 0, 0 + 1).
        assert a + b == BleuStats(4, 6, (4, 1), (4, 2), (0, 1))

    def test_zero_is_the_identity(self):
        a = BleuStats(5, 6, (4, 2), (5, 4), (0, 0))
        assert BleuStats.zero(2) + a == a == a + BleuStats.zero(2)

    def test_nltk_totals_count_a_too_short_sentence_as_one_ngram(self):
        # A one-token sentence has no bigram: NLTK's denominator is max(1, 0) = 1.
        stats = BleuStats(1, 1, (1, 0), (1, 0), (0, 1))
        assert stats.nltk_totals == (1, 1)
        assert stats.max_n == 2

    def test_adding_different_orders_is_an_error(self):
        with pytest.raises(ValueError, match="max_n=2 and max_n=3"):
            BleuStats.zero(2) + BleuStats.zero(3)


def test_sentence_stats_paper_candidate_1(paper):
    # Unigrams 17/18 and bigrams 10/17 (the paper); 18 tokens, closest reference 18.
    assert sentence_stats(paper.references, paper.candidate_1, max_n=2) == BleuStats(
        hyp_len=18, ref_len=18, matches=(17, 10), totals=(18, 17), too_short=(0, 0)
    )


def test_sentence_stats_of_a_short_hypothesis():
    # "a" against "a b": one unigram match; no bigram or trigram in the hypothesis.
    stats = sentence_stats([["a", "b"]], ["a"], max_n=3)
    assert stats == BleuStats(hyp_len=1, ref_len=2, matches=(1, 0, 0), totals=(1, 0, 0), too_short=(0, 1, 1))
    assert stats.nltk_totals == (1, 1, 1)


def test_sentence_stats_of_an_empty_hypothesis():
    # The closest reference to an empty hypothesis is the shortest: |1 - 0| < |2 - 0|.
    stats = sentence_stats([["a", "b"], ["c"]], [], max_n=2)
    assert stats == BleuStats(hyp_len=0, ref_len=1, matches=(0, 0), totals=(0, 0), too_short=(1, 1))


class TestWeights:
    def test_one_tuple(self):
        assert weight_vectors((0.5, 0.5)) == [(0.5, 0.5)]
        assert max_n_of((0.5, 0.5)) == 2

    def test_a_list_of_floats_is_one_vector(self):
        assert weight_vectors([0.2] * 5) == [[0.2] * 5]
        assert max_n_of([0.2] * 5) == 5

    def test_several_vectors(self):
        weights = [(1.0,), (0.2,) * 5, (0.5, 0.5)]
        assert weight_vectors(weights) == weights
        assert max_n_of(weights) == 5

    def test_numpy_array_is_one_vector(self):
        vectors = weight_vectors(np.array([0.25, 0.75]))
        assert len(vectors) == 1
        assert list(vectors[0]) == [0.25, 0.75]
        assert max_n_of(np.array([1 / 3] * 3)) == 3


def test_geometric_mean_by_hand():
    # sqrt(1/2 * 1/8) = sqrt(1/16) = 1/4.
    assert geometric_mean_score([Precision(1, 2), Precision(1, 8)], (0.5, 0.5), 1) == 0.25
    # A zero precision is skipped, not -inf: exp(0.5 * log(1/4)) = 1/2.
    assert geometric_mean_score([Precision(1, 4), Precision(0, 3)], (0.5, 0.5), 1) == 0.5
    # The brevity penalty multiplies the mean.
    assert geometric_mean_score([Precision(1, 1)], (1.0,), 0.5) == 0.5


def test_bleu_from_stats_by_hand():
    # p1 = 4/4, p2 = 1/3, BP = exp(1 - 5/4): BLEU-2 = exp(-1/4) * sqrt(1/3).
    stats = BleuStats(hyp_len=4, ref_len=5, matches=(4, 1), totals=(4, 3), too_short=(0, 0))
    expected = math.exp(1 - 5 / 4) * math.sqrt(1 / 3)
    assert bleu_from_stats(stats, weights=(0.5, 0.5)) == pytest.approx(expected, rel=1e-15)


def test_bleu_from_stats_needs_enough_orders():
    with pytest.raises(ValueError, match="3-gram statistics"):
        bleu_from_stats(BleuStats.zero(2), weights=(1 / 3,) * 3)


def test_paper_example_1_bleu_2_by_hand(paper, same_as_nltk):
    # Candidate 1: BP = 1 (18 tokens, a reference of 18), p1 = 17/18, p2 = 10/17:
    # BLEU-2 = sqrt(17/18 * 10/17) = sqrt(10/18).
    score = sentence_bleu(paper.references, paper.candidate_1, weights=(0.5, 0.5))
    assert score == pytest.approx(math.sqrt(10 / 18), rel=1e-15)
    same_as_nltk(sentence_bleu, nltk_sentence_bleu, paper.references, paper.candidate_1, (0.5, 0.5))


def test_paper_example_1_candidate_2_bleu_2_by_hand(paper, same_as_nltk):
    # Candidate 2: BP = exp(1 - 16/14), p1 = 8/14, p2 = 1/13.
    score = sentence_bleu(paper.references, paper.candidate_2, weights=(0.5, 0.5))
    expected = math.exp(1 - 16 / 14) * math.sqrt(8 / 14 * 1 / 13)
    assert score == pytest.approx(expected, rel=1e-15)
    same_as_nltk(sentence_bleu, nltk_sentence_bleu, paper.references, paper.candidate_2, (0.5, 0.5))


def test_nltk_docstring_figures(paper_cased, same_as_nltk):
    # NLTK's sentence_bleu doctests use the paper's sentences with case kept and
    # print "0.5045..." (ELLIPSIS: the digits shown are a prefix of the value).
    refs, hyp = paper_cased.references, paper_cased.candidate_1
    assert str(same_as_nltk(sentence_bleu, nltk_sentence_bleu, refs, hyp).value).startswith("0.5045")
    five = same_as_nltk(sentence_bleu, nltk_sentence_bleu, refs, hyp, (1 / 5,) * 5).value
    assert str(five).startswith("0.3920")
    several = [(1 / 2, 1 / 2), (1 / 3, 1 / 3, 1 / 3), (1 / 4, 1 / 4, 1 / 4, 1 / 4)]
    scores = same_as_nltk(sentence_bleu, nltk_sentence_bleu, refs, hyp, several).value
    assert [str(s)[:6] for s in scores] == ["0.7453", "0.6240", "0.5045"]


def test_zero_order_warns_and_scores_tiny_not_zero(paper_cased, same_as_nltk):
    # Candidate 2 has no trigram or 4-gram match: two warnings, and each zero
    # precision becomes sys.float_info.min, so the score is tiny but positive.
    outcome = same_as_nltk(sentence_bleu, nltk_sentence_bleu, paper_cased.references, paper_cased.candidate_2)
    assert len(outcome.warnings) == 2
    assert "0 counts of 3-gram" in outcome.warnings[0] and "0 counts of 4-gram" in outcome.warnings[1]
    assert 0 < outcome.value < sys.float_info.min**0.25


@pytest.mark.parametrize("weights, expected", [((0.25,) * 4, 0), ([(0.5, 0.5), (1.0,)], [0, 0])])
def test_no_unigram_match_returns_int_zero_without_warning(record, weights, expected):
    outcome = record(sentence_bleu, [["a", "b"]], ["c", "d"], weights)
    assert outcome.value == expected and outcome.warnings == []
    values = outcome.value if isinstance(expected, list) else [outcome.value]
    assert all(type(v) is int for v in values)


def test_auto_reweigh_by_hand(same_as_nltk):
    # 3 tokens, default weights: reweighed to (1/3, 1/3, 1/3), all precisions 1
    # ("a b c" in "a b c d"), BP = exp(1 - 4/3). NLTK still warns about the
    # missing 4-gram because smoothing runs before the reweighing.
    outcome = same_as_nltk(
        sentence_bleu, nltk_sentence_bleu, [["a", "b", "c", "d"]], ["a", "b", "c"], auto_reweigh=True
    )
    assert outcome.value == pytest.approx(math.exp(1 - 4 / 3), rel=1e-15)
    assert len(outcome.warnings) == 1


@pytest.mark.parametrize("weights", [[0.25] * 4, (0.25, 0.25, 0.25, 0.25), [(0.25,) * 4, (0.5, 0.5)], (0.5, 0.5)])
@pytest.mark.parametrize("hypothesis", [["a"], ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]])
def test_auto_reweigh_equals_nltk(same_as_nltk, weights, hypothesis):
    # Only the tuple (0.25, 0.25, 0.25, 0.25) is reweighed; a list of the same floats is not.
    same_as_nltk(sentence_bleu, nltk_sentence_bleu, [["a", "b", "c", "d", "e"]], hypothesis, weights, None, True)


def test_auto_reweigh_takes_a_namedtuple_of_the_default_weights_like_nltk(same_as_nltk):
    # NLTK compares with ==, so a tuple subclass of the default weights is reweighed too.
    weights = collections.namedtuple("Weights", "w1 w2 w3 w4")(0.25, 0.25, 0.25, 0.25)
    outcome = same_as_nltk(sentence_bleu, nltk_sentence_bleu, [["a", "b", "c"]], ["a", "b"], weights, None, True)
    assert outcome.value == math.exp(1 - 3 / 2)  # p_1 = p_2 = 1, reweighed to (1/2, 1/2)


@pytest.mark.parametrize("weights", [[(0.5, 0.5)], ((0.5, 0.5),), [[0.5, 0.5]]])
@pytest.mark.parametrize("hypothesis", [["a", "b"], ["x"]])
def test_a_list_of_one_weight_vector_gives_a_plain_score_like_nltk(same_as_nltk, weights, hypothesis):
    outcome = same_as_nltk(sentence_bleu, nltk_sentence_bleu, [["a", "b"]], hypothesis, weights)
    assert not isinstance(outcome.value, list)


def _published_sentence_bleus(data_dir):
    examples = json.loads((data_dir / "published_examples.json").read_text(encoding="utf-8"))["examples"]
    return [e for e in examples if e["quantity"] == "sentence_bleu" and "str.split" in e["tokenization"]]


def test_published_nltk_examples_equal_nltk_3_10_4(data_dir, same_as_nltk):
    # These figures were printed by NLTK 3.2.x, which skipped zero precisions;
    # the oracle is NLTK 3.10.4, which gives ~1e-77 or smaller for them.
    examples = _published_sentence_bleus(data_dir)
    assert len(examples) == 8
    for example in examples:
        references = [r.split() for r in example["references"]]
        hypothesis = example["hypothesis"].split()
        outcome = same_as_nltk(sentence_bleu, nltk_sentence_bleu, references, hypothesis, tuple(example["weights"]))
        if isinstance(example["reported"], float):
            assert outcome.value < 1e-70 < example["reported"]


@pytest.mark.parametrize("falsy", [False, 0, "", []])
def test_any_false_smoothing_function_means_none_like_nltk(same_as_nltk, falsy):
    # NLTK tests `if not smoothing_function`: anything false smooths with method0, warnings included.
    references, hypothesis = [list("abcde")], list("abx")
    same_as_nltk(sentence_bleu, nltk_sentence_bleu, references, hypothesis, (0.25,) * 4, falsy)
    same_as_nltk(corpus_bleu, nltk_corpus_bleu, [references], [hypothesis], (0.25,) * 4, falsy)
    same_as_nltk(fast_corpus_bleu, nltk_corpus_bleu, [references], [hypothesis], (0.25,) * 4, falsy)
