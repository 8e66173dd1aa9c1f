"""Lesson 01: n-grams, checked by hand and against nltk.util.ngrams."""

from collections import Counter

import pytest
from nltk.util import ngrams as nltk_ngrams

from bleu_scratch import count_ngrams, ngrams


def test_bigrams_of_three_tokens_by_hand():
    # 3 tokens have 3 - 2 + 1 = 2 bigrams.
    assert ngrams(["the", "cat", "sat"], 2) == [("the", "cat"), ("cat", "sat")]


def test_unigrams_are_one_token_tuples():
    assert ngrams(["a", "b"], 1) == [("a",), ("b",)]


@pytest.mark.parametrize("length, n", [(0, 1), (1, 2), (3, 4), (2, 9)])
def test_a_sequence_shorter_than_n_has_no_ngrams(length, n):
    assert ngrams(["x"] * length, n) == []


@pytest.mark.parametrize("length", range(0, 8))
@pytest.mark.parametrize("n", range(1, 6))
def test_count_is_length_minus_n_plus_one(length, n):
    assert len(ngrams(list(range(length)), n)) == max(0, length - n + 1)


@pytest.mark.parametrize("n", range(1, 6))
def test_same_ngrams_as_nltk_util(n):
    tokens = "it is a guide to action which ensures that the military".split()
    assert ngrams(tokens, n) == list(nltk_ngrams(tokens, n))


def test_tokens_may_be_any_hashable_and_a_tuple():
    assert ngrams((1, 2, 3), 2) == [(1, 2), (2, 3)]


def test_count_ngrams_published_example():
    # "this is is a ship": "is" twice, the other words once (the blog post's counting table).
    counts = count_ngrams("this is is a ship".split(), 1)
    assert counts == Counter({("is",): 2, ("this",): 1, ("a",): 1, ("ship",): 1})


def test_count_ngrams_of_repeated_bigram():
    # "a b a b a": bigrams ab, ba, ab, ba -> 2 each, 5 - 2 + 1 = 4 in all.
    counts = count_ngrams("a b a b a".split(), 2)
    assert counts == Counter({("a", "b"): 2, ("b", "a"): 2})
    assert sum(counts.values()) == 4


def test_count_ngrams_of_too_short_sequence_is_empty():
    assert count_ngrams(["a"], 2) == Counter()


def test_count_ngrams_returns_a_counter_as_nltk_counts():
    # NLTK's modified_precision counts with Counter(ngrams(...)); a dict compares equal but is another type.
    assert type(count_ngrams("a b a".split(), 1)) is Counter
    assert type(count_ngrams(["a"], 2)) is Counter
