"""Lesson 12: Callison-Burch, Osborne and Koehn's reorderings, against NLTK's modified precision and a brute-force
count."""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import modified_precision

from bleu_scratch import bigram_mismatch_chunks, permutations_keeping_matches
from tests.quick import examples

VOCABULARY = "a b c d".split()
SENTENCE = st.lists(st.sampled_from(VOCABULARY), max_size=9)


def precisions(references, hypothesis):
    """NLTK's clipped matches and totals for n = 1 to 4, as (numerator, denominator) pairs."""
    return [modified_precision(references, hypothesis, n).as_integer_ratio() for n in range(1, 5)]


def test_the_papers_candidate_1_has_eight_pieces(paper):
    # Read off the three references: "action which", "which ensures", "military always", "always obeys",
    # "obeys the", "the commands" and "commands of" are in none of them; every other bigram is in one.
    assert bigram_mismatch_chunks(paper.references, paper.candidate_1) == [
        "it is a guide to action".split(),
        ["which"],
        "ensures that the military".split(),
        ["always"],
        ["obeys"],
        ["the"],
        ["commands"],
        "of the party".split(),
    ]
    assert permutations_keeping_matches(paper.references, paper.candidate_1) == math.factorial(8)


@settings(max_examples=examples(300))
@given(st.lists(SENTENCE, min_size=1, max_size=3), SENTENCE)
def test_the_cuts_are_exactly_the_bigrams_no_reference_has(references, hypothesis):
    pieces = bigram_mismatch_chunks(references, hypothesis)
    assert [token for piece in pieces for token in piece] == hypothesis
    reference_bigrams = {tuple(reference[i : i + 2]) for reference in references for i in range(len(reference) - 1)}
    for piece in pieces:
        assert all(bigram in reference_bigrams for bigram in zip(piece, piece[1:]))
    for left, right in zip(pieces, pieces[1:]):
        assert (left[-1], right[0]) not in reference_bigrams


@settings(max_examples=examples(300))
@given(st.lists(SENTENCE, min_size=1, max_size=3), SENTENCE, st.randoms(use_true_random=False))
def test_a_reordering_of_the_pieces_never_loses_a_match(references, hypothesis, random):
    pieces = bigram_mismatch_chunks(references, hypothesis)
    random.shuffle(pieces)
    reordered = [token for piece in pieces for token in piece]
    before, after = precisions(references, hypothesis), precisions(references, reordered)
    # Same totals (same length), at least as many clipped matches of every order.
    assert [total for _, total in after] == [total for _, total in before]
    assert all(matched_after >= matched_before for (matched_after, _), (matched_before, _) in zip(after, before))
    reference_bigrams = {tuple(reference[i : i + 2]) for reference in references for i in range(len(reference) - 1)}
    if not any((left[-1], right[0]) in reference_bigrams for left, right in zip(pieces, pieces[1:])):
        assert after == before  # no join matched by chance: the very same counts, the same BLEU


@settings(max_examples=examples(200))
@given(st.lists(SENTENCE, min_size=1, max_size=2), st.lists(st.sampled_from(VOCABULARY), max_size=7))
def test_the_count_is_the_number_of_different_orders(references, hypothesis):
    chunks = [tuple(chunk) for chunk in bigram_mismatch_chunks(references, hypothesis)]
    assert permutations_keeping_matches(references, hypothesis) == len(set(itertools.permutations(chunks)))


def test_the_door_refuses_a_string():
    with pytest.raises(TypeError, match=r"split\(\)"):
        permutations_keeping_matches([["a", "b"]], "a b")
    with pytest.raises(ValueError, match="at least one reference"):
        bigram_mismatch_chunks([], ["a", "b"])
