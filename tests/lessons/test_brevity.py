"""Lesson 04: closest reference length and the brevity penalty."""

import math

import pytest
from nltk.translate.bleu_score import brevity_penalty as nltk_brevity_penalty
from nltk.translate.bleu_score import closest_ref_length as nltk_closest_ref_length

from bleu_scratch import brevity_penalty, closest_ref_length


def refs_of_lengths(*lengths):
    return [["a"] * n for n in lengths]


def test_closest_reference_by_hand():
    # |13 - 12| = 1 beats |2 - 12| = 10.
    assert closest_ref_length(refs_of_lengths(13, 2), 12) == 13


def test_tie_goes_to_the_shorter_reference_whatever_the_order():
    # 11 and 13 are both 1 away from 12.
    assert closest_ref_length(refs_of_lengths(13, 11), 12) == 11
    assert closest_ref_length(refs_of_lengths(11, 13), 12) == 11


def test_paper_example_1_lengths(paper):
    # Candidate 1 has 18 tokens and reference 2 has 18: no penalty.
    # Candidate 2 has 14; references have 16, 18, 16 tokens: closest is 16.
    assert [len(r) for r in paper.references] == [16, 18, 16]
    assert closest_ref_length(paper.references, len(paper.candidate_1)) == 18
    assert closest_ref_length(paper.references, len(paper.candidate_2)) == 16


@pytest.mark.parametrize("lengths", [(0,), (5, 5), (3, 7), (7, 3), (1, 9, 5), (4, 6, 2, 8)])
@pytest.mark.parametrize("hyp_len", range(0, 10))
def test_closest_ref_length_equals_nltk(same_as_nltk, lengths, hyp_len):
    same_as_nltk(closest_ref_length, nltk_closest_ref_length, refs_of_lengths(*lengths), hyp_len)


def test_closest_ref_length_accepts_an_iterator_like_nltk():
    references = refs_of_lengths(13, 11)
    assert nltk_closest_ref_length(reversed(references), 12) == 11
    assert closest_ref_length(reversed(references), 12) == 11


def test_no_penalty_when_longer_returns_int_one():
    bp = brevity_penalty(10, 12)
    assert bp == 1 and type(bp) is int


def test_equal_length_is_not_longer():
    # c == r takes the exp branch: exp(1 - 12/12) = exp(0) = 1.0, a float, as in NLTK.
    bp = brevity_penalty(12, 12)
    assert bp == 1.0 and type(bp) is float
    assert type(nltk_brevity_penalty(12, 12)) is float


def test_empty_hypothesis_returns_int_zero():
    bp = brevity_penalty(10, 0)
    assert bp == 0 and type(bp) is int


def test_penalty_by_hand():
    # NLTK's doctests: r = 28, c = 12 -> exp(1 - 28/12) = exp(-4/3);
    # r = 13, c = 12 -> exp(1 - 13/12) = exp(-1/12).
    assert brevity_penalty(28, 12) == math.exp(1 - 28 / 12) == 0.2635971381157267
    assert brevity_penalty(13, 12) == math.exp(1 - 13 / 12)
    assert brevity_penalty(13, 12) == pytest.approx(0.9200, abs=5e-5)


def test_paper_example_1_candidate_2_penalty(paper):
    # r = 16, c = 14: exp(1 - 16/14) = exp(-1/7).
    r = closest_ref_length(paper.references, len(paper.candidate_2))
    assert brevity_penalty(r, len(paper.candidate_2)) == pytest.approx(math.exp(-1 / 7), rel=1e-15)


@pytest.mark.parametrize("closest_ref_len", [0, 1, 2, 3, 7, 12, 28, 1852])
@pytest.mark.parametrize("hyp_len", [0, 1, 2, 3, 7, 12, 28, 1989])
def test_brevity_penalty_equals_nltk(same_as_nltk, closest_ref_len, hyp_len):
    same_as_nltk(brevity_penalty, nltk_brevity_penalty, closest_ref_len, hyp_len)
