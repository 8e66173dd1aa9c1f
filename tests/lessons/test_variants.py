"""Lesson 08: the published variants, each beside the standard rule on the same input."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import closest_ref_length as nltk_closest_ref_length
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import (
    Precision,
    closest_ref_length,
    first_closest_ref_length,
    renormalised_weights,
    shortest_ref_length,
    variant_sentence_bleu,
)
from tests.quick import examples

SHIP_REFERENCES = [s.split() for s in ["this is a ship", "it is ship", "ship it is", "a ship, it is"]]

# "the cat on a mat" against a 7-token and a 2-token reference: 5 tokens, closest
# reference 7 (2 away, the other is 3 away), shortest reference 2. p_1 = 5/5,
# p_2 = 1/4 ("the cat"), p_3 = 0/3 and p_4 = 0/2.
CAT_REFERENCES = ["the cat is on the mat today".split(), "a cat".split()]
CAT_HYPOTHESIS = "the cat on a mat".split()


def lengths_to_references(lengths):
    return [["w"] * length for length in lengths]


class TestShortestReference:
    def test_differs_from_closest_when_nearer_a_longer_reference(self):
        references = lengths_to_references([3, 9])
        assert shortest_ref_length(references, 8) == 3
        assert closest_ref_length(references, 8) == 9

    def test_ignores_the_hypothesis_length_and_the_order(self):
        references = lengths_to_references([5, 2, 7])
        assert {shortest_ref_length(references, c) for c in range(12)} == {2}
        assert shortest_ref_length(references[::-1], 6) == 2

    @settings(max_examples=examples(100))
    @given(st.lists(st.integers(0, 30), min_size=1, max_size=5), st.integers(0, 40))
    def test_never_longer_than_the_closest(self, lengths, hyp_len):
        references = lengths_to_references(lengths)
        assert shortest_ref_length(references, hyp_len) <= nltk_closest_ref_length(references, hyp_len)


class TestFirstClosestReference:
    def test_a_tie_goes_to_the_first_listed(self):
        # 5 tokens: 6 and 4 are both 1 away.
        assert first_closest_ref_length(lengths_to_references([6, 4]), 5) == 6
        assert first_closest_ref_length(lengths_to_references([4, 6]), 5) == 4
        # NLTK takes the shorter whatever the order.
        assert nltk_closest_ref_length(lengths_to_references([6, 4]), 5) == 4

    @settings(max_examples=examples(100))
    @given(st.lists(st.integers(0, 30), min_size=1, max_size=5), st.integers(0, 40))
    def test_agrees_with_nltk_without_a_tie(self, lengths, hyp_len):
        distances = sorted({abs(length - hyp_len) for length in lengths})
        tied = {length for length in lengths if abs(length - hyp_len) == distances[0]}
        references = lengths_to_references(lengths)
        if len(tied) == 1:
            assert first_closest_ref_length(references, hyp_len) == nltk_closest_ref_length(references, hyp_len)
        else:
            assert first_closest_ref_length(references, hyp_len) == next(n for n in lengths if n in tied)


class TestRenormalisedWeights:
    def test_by_hand(self):
        p_n = [Precision(5, 5), Precision(1, 4), Precision(0, 3), Precision(0, 2)]
        assert renormalised_weights(p_n, (0.25, 0.25, 0.25, 0.25)) == [0.5, 0.5, 0.0, 0.0]
        # Unequal weights keep their ratio: 1 : 3 becomes 1/4 : 3/4.
        assert renormalised_weights(p_n[:3], (1, 3, 4)) == [0.25, 0.75, 0.0]

    def test_unchanged_without_a_zero(self):
        assert renormalised_weights([Precision(1, 2), Precision(1, 3)], (0.5, 0.5)) == [0.5, 0.5]


class TestVariantSentenceBleu:
    def test_old_nltk_rule_by_hand(self):
        # "it it it it it it it": "it" occurs at most once in a reference, so
        # p_1 = 1/7; p_2 = 0 drops orders 2-4 with their weights. c = 7 > r = 4: BP = 1.
        assert variant_sentence_bleu(SHIP_REFERENCES, ["it"] * 7) == math.exp(0.25 * math.log(1 / 7))

    def test_the_three_rules_side_by_side(self):
        # Standard (old NLTK) rule: BP = exp(1 - 7/5), mean over p_1 = 1 and p_2 = 1/4
        # with weights 1/4 each: (1/4) ** (1/4).
        old_nltk = variant_sentence_bleu(CAT_REFERENCES, CAT_HYPOTHESIS)
        assert math.isclose(old_nltk, math.exp(1 - 7 / 5) * 0.25**0.25, rel_tol=1e-15)
        # Shortest reference: 5 > 2, no penalty.
        shortest = variant_sentence_bleu(CAT_REFERENCES, CAT_HYPOTHESIS, ref_length=shortest_ref_length)
        assert math.isclose(shortest, 0.25**0.25, rel_tol=1e-15)
        # And weights renormalised to 1/2 each: sqrt(1 * 1/4) = 1/2.
        renormalised = variant_sentence_bleu(
            CAT_REFERENCES, CAT_HYPOTHESIS, ref_length=shortest_ref_length, renormalise=True
        )
        assert math.isclose(renormalised, 0.5, rel_tol=1e-15)
        # NLTK 3.10.4 keeps the two zero orders, about 1e-77 each, and warns.
        with pytest.warns(UserWarning) as caught:
            assert nltk_sentence_bleu(CAT_REFERENCES, CAT_HYPOTHESIS) < 1e-150
        assert ["0 counts of 3-gram" in str(w.message) for w in caught] == [True, False]

    def test_no_unigram_match_scores_the_int_0(self):
        assert variant_sentence_bleu([["a", "b"]], ["c"], renormalise=True) == 0
        assert type(variant_sentence_bleu([["a", "b"]], ["c"])) is int

    @settings(max_examples=examples(150))
    @given(
        st.lists(st.lists(st.sampled_from("abcde"), max_size=9), min_size=1, max_size=3),
        st.lists(st.sampled_from("abcdef"), max_size=9),
    )
    def test_defaults_equal_nltk_epsilon_0_method_1(self, references, hypothesis):
        # NLTK 3.10.4 skips p_n = 0 in its log sum, and method 1 with epsilon 0
        # turns each zero precision into 0.0: the NLTK 3.2.2-3.2.5 default, bit for bit.
        expected = nltk_sentence_bleu(
            references, hypothesis, smoothing_function=NltkSmoothingFunction(epsilon=0).method1
        )
        ours = variant_sentence_bleu(references, hypothesis)
        assert ours == expected
        assert type(ours) is type(expected)
