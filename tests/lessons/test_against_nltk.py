"""Property-based differential tests: bleu_scratch against NLTK 3.10.4 on random corpora.

Random sentences over tiny vocabularies (so n-grams of every order match),
including empty and one-token sentences, 1 to 5 references with ties in
length, weights of length 1 to 6 in every shape NLTK accepts, every smoothing
method and auto_reweigh. Runs are reproducible (the hypothesis profile of
tests/conftest.py) and bounded by max_examples.

The only allowed disagreements are the documented ones (test_checks.py):
smoothing method 6 raises ValueError where NLTK raises IndexError or
AssertionError, and numpy weights with auto_reweigh and fewer than 4
hypothesis tokens are not reweighed where NLTK raises ValueError.
"""

import functools
import operator

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import bleu_scratch
from bleu_scratch import (
    BleuStats,
    batch_corpus_stats,
    bleu_from_stats,
    corpus_stats,
    sentence_stats,
)
from bleu_scratch.lesson05_sentence import max_n_of
from tests.quick import examples

VOCABULARIES = [("a",), ("a", "b"), ("a", "b", "c"), ("a", "b", "c", "d", "e")]


@st.composite
def sentence_pairs(draw, max_len: int = 9):
    """(references, hypothesis) over one small vocabulary."""
    token = st.sampled_from(draw(st.sampled_from(VOCABULARIES)))
    hypothesis = draw(st.lists(token, max_size=max_len))
    references = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["free", "tie", "edit"]))
        if kind == "free":
            reference = draw(st.lists(token, max_size=max_len))
        elif kind == "tie":
            # Lengths at the same distance on either side of the hypothesis make ties.
            distance = draw(st.integers(0, 3))
            length = max(0, len(hypothesis) + draw(st.sampled_from([-distance, distance])))
            reference = draw(st.lists(token, min_size=length, max_size=length))
        else:
            # A slice of the hypothesis with a few tokens around it: long n-gram matches.
            start = draw(st.integers(0, len(hypothesis)))
            end = draw(st.integers(start, len(hypothesis)))
            reference = draw(st.lists(token, max_size=2)) + hypothesis[start:end] + draw(st.lists(token, max_size=2))
        references.append(reference)
    return references, hypothesis


corpora = st.lists(sentence_pairs(), min_size=1, max_size=5)

weight_values = st.one_of(
    st.sampled_from([0.0, 0.1, 0.2, 0.25, 1 / 3, 0.5, 1.0]),
    st.floats(min_value=-1, max_value=2, allow_nan=False),
)
weight_lists = st.lists(weight_values, min_size=1, max_size=6)
uniform = st.integers(1, 6).map(lambda n: (1 / n,) * n)
weight_shapes = st.one_of(
    st.just((0.25, 0.25, 0.25, 0.25)),  # the default, the one auto_reweigh changes
    uniform,
    weight_lists.map(tuple),
    weight_lists,
    weight_lists.map(np.array),
    st.lists(
        st.one_of(uniform, weight_lists.map(tuple)), min_size=1, max_size=4
    ),  # one vector in a list: a plain score
)

smoothing_methods = st.one_of(
    st.just((None, {})),
    st.tuples(
        st.sampled_from([f"method{i}" for i in range(8)]),
        st.fixed_dictionaries(
            {},
            optional={
                "epsilon": st.sampled_from([0.01, 0.5, 1.0]),
                "alpha": st.sampled_from([0.5, 1.0, 10.0]),
                "k": st.sampled_from([0.5, 2.0, 10.0]),
            },
        ),
    ),
)


def _kind_of(score) -> str:
    """A label for hypothesis' statistics: did the case reach the interesting code?"""
    scores = score if isinstance(score, list) else [score]
    if all(s == 0 and type(s) is int for s in scores):
        return "int 0 (no unigram match)"
    if any(s < 1e-70 for s in scores):
        return "tiny (a zero order, unsmoothed)"
    return "positive score"


def check_score(record, same_as_nltk, smoothers, ours, theirs, args, weights, smoothing, auto_reweigh, hyp_total):
    """Our score equals NLTK's, except for the two documented deliberate differences."""
    method, parameters = smoothing
    our_smoothing, nltk_smoothing = smoothers(method, **parameters)
    nltk_outcome = record(theirs, *args, weights, nltk_smoothing, auto_reweigh)
    event(f"NLTK raised {nltk_outcome.error.__name__}" if nltk_outcome.error else _kind_of(nltk_outcome.value))
    if method == "method6" and nltk_outcome.error in (IndexError, AssertionError):
        outcome = record(ours, *args, weights, our_smoothing, auto_reweigh)
        assert issubclass(outcome.error, ValueError)
    elif isinstance(weights, np.ndarray) and auto_reweigh and hyp_total < 4 and nltk_outcome.error is ValueError:
        # Ours does not reweigh numpy weights: NLTK's score without auto_reweigh.
        same_as_nltk(
            lambda: ours(*args, weights, our_smoothing, True),
            lambda: theirs(*args, weights, nltk_smoothing, False),
        )
    else:
        same_as_nltk(
            lambda: ours(*args, weights, our_smoothing, auto_reweigh),
            lambda: theirs(*args, weights, nltk_smoothing, auto_reweigh),
        )


@settings(max_examples=examples(1500))
@given(pair=sentence_pairs(), weights=weight_shapes, smoothing=smoothing_methods, auto_reweigh=st.booleans())
def test_sentence_bleu(record, same_as_nltk, smoothers, pair, weights, smoothing, auto_reweigh):
    references, hypothesis = pair
    check_score(
        record,
        same_as_nltk,
        smoothers,
        bleu_scratch.sentence_bleu,
        nltk_bleu.sentence_bleu,
        (references, hypothesis),
        weights,
        smoothing,
        auto_reweigh,
        len(hypothesis),
    )


@settings(max_examples=examples(1000))
@given(corpus=corpora, weights=weight_shapes, smoothing=smoothing_methods, auto_reweigh=st.booleans())
def test_corpus_bleu(record, same_as_nltk, smoothers, corpus, weights, smoothing, auto_reweigh):
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    check_score(
        record,
        same_as_nltk,
        smoothers,
        bleu_scratch.corpus_bleu,
        nltk_bleu.corpus_bleu,
        (list_of_references, hypotheses),
        weights,
        smoothing,
        auto_reweigh,
        sum(map(len, hypotheses)),
    )


@settings(max_examples=examples(1000))
@given(pair=sentence_pairs(), n=st.integers(1, 6))
def test_modified_precision(same_as_nltk, pair, n):
    references, hypothesis = pair
    same_as_nltk(bleu_scratch.modified_precision, nltk_bleu.modified_precision, references, hypothesis, n)


@settings(max_examples=examples(500))
@given(pair=sentence_pairs(), hyp_len=st.integers(0, 12))
def test_closest_ref_length_and_brevity_penalty(same_as_nltk, pair, hyp_len):
    references, _ = pair
    closest = same_as_nltk(bleu_scratch.closest_ref_length, nltk_bleu.closest_ref_length, references, hyp_len).value
    same_as_nltk(bleu_scratch.brevity_penalty, nltk_bleu.brevity_penalty, closest, hyp_len)
    same_as_nltk(bleu_scratch.brevity_penalty, nltk_bleu.brevity_penalty, hyp_len, closest)


def nltk_stats(list_of_references, hypotheses, max_n: int) -> BleuStats:
    """The statistics NLTK's corpus_bleu sums: its modified precisions' raw numerators and denominators, and lengths.

    NLTK's denominator is at least 1: a hypothesis shorter than n adds 1 to
    the order's denominator (``too_short``) and no n-gram to ``totals``.
    """
    pairs = list(zip(list_of_references, hypotheses))
    orders = range(1, max_n + 1)
    precisions = [[nltk_bleu.modified_precision(refs, hyp, n) for refs, hyp in pairs] for n in orders]
    too_short = tuple(sum(len(hyp) < n for hyp in hypotheses) for n in orders)
    return BleuStats(
        hyp_len=sum(len(hyp) for hyp in hypotheses),
        ref_len=sum(nltk_bleu.closest_ref_length(refs, len(hyp)) for refs, hyp in pairs),
        matches=tuple(sum(p.numerator for p in order) for order in precisions),
        totals=tuple(sum(p.denominator for p in order) - short for order, short in zip(precisions, too_short)),
        too_short=too_short,
    )


@settings(max_examples=examples(500))
@given(corpus=corpora, split=st.integers(0, 5), max_n=st.integers(1, 6))
def test_stats_add_up_over_sentences_and_slices(corpus, split, max_n):
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    whole = corpus_stats(list_of_references, hypotheses, max_n)
    assert whole == nltk_stats(list_of_references, hypotheses, max_n)
    per_sentence = [sentence_stats(r, h, max_n) for r, h in corpus]
    assert per_sentence == [nltk_stats([r], [h], max_n) for r, h in corpus]
    assert functools.reduce(operator.add, per_sentence) == whole
    split = min(split, len(corpus) - 1)  # both slices non-empty where possible
    if split > 0:
        head = corpus_stats(list_of_references[:split], hypotheses[:split], max_n)
        tail = corpus_stats(list_of_references[split:], hypotheses[split:], max_n)
        assert head + tail == whole
    assert batch_corpus_stats(list_of_references, hypotheses, max_n) == whole


@settings(max_examples=examples(500))
@given(corpus=corpora, weights=weight_shapes, method=st.sampled_from([None] + [f"method{i}" for i in range(5)]))
def test_bleu_from_summed_stats_equals_nltk_corpus_bleu(same_as_nltk, smoothers, corpus, weights, method):
    # Smoothing methods 5-7 also read the last sentence pair, which stats alone do not carry.
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    our_smoothing, nltk_smoothing = smoothers(method)
    # NLTK's own sums, so that this tests bleu_from_stats alone.
    summed = nltk_stats(list_of_references, hypotheses, max_n_of(weights))
    same_as_nltk(
        lambda: bleu_from_stats(summed, weights, our_smoothing),
        lambda: nltk_bleu.corpus_bleu(list_of_references, hypotheses, weights, nltk_smoothing),
    )
