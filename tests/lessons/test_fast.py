"""The fast statistics (bleu_scratch/lesson10_fast.py) equal the lesson statistics.

lesson10_fast.py takes a shortcut the lessons do not: when a hypothesis repeats no
n-gram of an order, it counts the hypothesis n-grams found in any reference
instead of clipping counts. These tests make both branches run (tiny
vocabularies repeat n-grams, longer ones do not) and compare with
``sentence_stats``/``corpus_stats`` and with NLTK's modified precision.
"""

import warnings

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision
from nltk.util import ngrams as nltk_ngrams

from bleu_scratch import (
    BleuStats,
    SmoothingFunction,
    corpus_bleu,
    corpus_stats,
    fast_corpus_bleu,
    fast_corpus_stats,
    fast_sentence_bleu,
    fast_sentence_stats,
    fast_stats_of_pairs,
    sentence_bleu,
    sentence_stats,
)
from tests.quick import examples

# "x" and ("x",) are different tokens; 1 and True are equal ones (as in NLTK's Counters).
VOCABULARIES = [("a",), ("a", "b"), ("a", "b", "c"), tuple("abcdefghij"), ("x", ("x",), 1, True, None)]


@st.composite
def sentence_pairs(draw):
    """(references, hypothesis): 0 to 12 tokens each, 1 to 5 references."""
    token = st.sampled_from(draw(st.sampled_from(VOCABULARIES)))
    hypothesis = draw(st.lists(token, max_size=12))
    references = draw(st.lists(st.lists(token, max_size=12), min_size=1, max_size=5))
    return references, hypothesis


def repeats_an_ngram(tokens, n: int) -> bool:
    grams = list(nltk_ngrams(tokens, n))  # NLTK's, not lesson 01's: this labels cases for either
    return len(set(grams)) < len(grams)


@settings(max_examples=examples(300))
@given(st.lists(sentence_pairs(), min_size=1, max_size=6), st.integers(1, 5))
def test_fast_corpus_stats_equal_corpus_stats(corpus, max_n):
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    for n in range(1, max_n + 1):
        event(
            f"order {n}: {'some' if any(repeats_an_ngram(h, n) for h in hypotheses) else 'no'} "
            "repeated hypothesis n-gram"
        )
    assert fast_corpus_stats(list_of_references, hypotheses, max_n) == corpus_stats(
        list_of_references, hypotheses, max_n
    )


@settings(max_examples=examples(100))
@given(sentence_pairs(), st.integers(1, 5))
def test_fast_sentence_stats_equal_sentence_stats(pair, max_n):
    references, hypothesis = pair
    assert fast_sentence_stats(references, hypothesis, max_n) == sentence_stats(references, hypothesis, max_n)


def test_a_stream_of_pairs_is_read_once_and_summed():
    pairs = [([["a", "b"]], ["a", "b"]), ([["c"], ["c", "d"]], ["d", "c", "c"]), ([[]], [])]
    stream = iter(pairs)
    # By hand. Lengths: 2 + 3 + 0; closest references: 2, then 2 ("c d" is 1 away
    # from 3, "c" is 2 away), then 0. Unigrams: 2, then "d" 1 + "c" clipped to 1;
    # bigrams: 1, then none of "d c", "c c" is in a reference; the empty pair has
    # no n-gram of either order.
    expected = BleuStats(hyp_len=5, ref_len=4, matches=(4, 1), totals=(5, 3), too_short=(1, 1))
    assert fast_stats_of_pairs(stream, 2) == expected
    assert next(stream, None) is None


def test_a_bad_pair_of_a_stream_is_named_when_it_is_read():
    stream = iter([([["a", "b"]], ["a", "b"]), ([["c"]], "c d")])
    with pytest.raises(TypeError, match=r"pairs\[1\] hypothesis is a str \('c d'\)"):
        fast_stats_of_pairs(stream, 2)
    with pytest.raises(TypeError, match=r"pairs\[0\] must be a \(references, hypothesis\) pair"):
        fast_stats_of_pairs([(["a"],)], 2)


def test_both_branches_agree_with_nltk_on_the_paper(paper):
    """Candidate 1 repeats no bigram (the set branch); "the the the ..." repeats everything (the count branch)."""
    for references, hypothesis in [(paper.references, paper.candidate_1), (paper.the_references, paper.the_candidate)]:
        stats = fast_sentence_stats(references, hypothesis, 4)
        for i in range(4):
            nltk_p = nltk_modified_precision(references, hypothesis, i + 1)
            assert (stats.matches[i], stats.nltk_totals[i]) == (nltk_p.numerator, nltk_p.denominator)
    assert not repeats_an_ngram(paper.candidate_1, 2) and repeats_an_ngram(paper.the_candidate, 2)


def scored(score, *arguments) -> tuple[str, list[str]]:
    """The score's repr (value and type, a number or a list, bit for bit) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = score(*arguments)
    return repr(value), [str(w.message) for w in caught]


SMOOTHING = [None, *(getattr(SmoothingFunction(), f"method{number}") for number in (1, 2, 3, 4, 5, 7))]


@settings(max_examples=examples(200))
@given(
    st.lists(sentence_pairs(), min_size=1, max_size=6),
    st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), [(1.0,), (1 / 3, 1 / 3, 1 / 3)]]),
    st.sampled_from(SMOOTHING),
    st.booleans(),
)
def test_fast_corpus_bleu_is_lesson_06s_score_on_the_fast_statistics(pairs, weights, smoothing, auto_reweigh):
    """fast_corpus_bleu must return what lesson 06's corpus_bleu returns, bit for bit, with the same warnings."""
    list_of_references = [references for references, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis in pairs]
    arguments = (list_of_references, hypotheses, weights, smoothing, auto_reweigh)
    assert scored(fast_corpus_bleu, *arguments) == scored(corpus_bleu, *arguments)


@settings(max_examples=examples(300))
@given(
    sentence_pairs(),
    st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), [(1.0,), (0.5, 0.5), (0.2,) * 5], (0.7, -0.2, 0.5)]),
    st.sampled_from(SMOOTHING),
    st.booleans(),
)
def test_fast_sentence_bleu_is_lesson_05s_on_the_fast_path(pair, weights, smoothing, auto_reweigh):
    """fast_sentence_bleu's value, type and warnings must be lesson 05's sentence_bleu's."""
    references, hypothesis = pair
    arguments = (references, hypothesis, weights, smoothing, auto_reweigh)
    assert scored(fast_sentence_bleu, *arguments) == scored(sentence_bleu, *arguments)
