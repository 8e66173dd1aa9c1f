"""The batch (bleu_scratch/lesson10_batch.py) equals sentence by sentence: statistics, scores, types and warnings.

batch_sentence_stats counts a whole batch at once (lesson10_counter); each result must
be lesson 05's sentence_stats of that pair, and each score of
batch_sentence_bleu exactly sentence_bleu's (which tests/lessons/test_sentence.py
and test_against_nltk.py hold equal to lesson 05's and to NLTK's), with the
same warnings in the same order. Random batches over tiny vocabularies make
every n-gram order match and repeat; tokens are words, int ids, numpy ints, or
a mix where 1 and True are the same token, as in NLTK's Counters.
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import bleu_scratch
from bleu_scratch import (
    SmoothingFunction,
    batch_sentence_bleu,
    batch_sentence_stats,
    fast_corpus_bleu,
    sentence_stats,
    synthetic_corpus,
)
from tests.quick import examples

VOCABULARIES = [("a",), ("a", "b", "c"), (0, 1, 2), (1, True, "1", 1.0, 2), (7, 65536, 2**31 - 1), tuple("abcdefgh")]


@st.composite
def batches(draw):
    """1 to 8 sentence pairs over one vocabulary; 0 to 9 tokens; 1 to 4 references each."""
    token = st.sampled_from(draw(st.sampled_from(VOCABULARIES)))
    sentence = st.lists(token, max_size=9)
    pairs = draw(st.lists(st.tuples(st.lists(sentence, min_size=1, max_size=4), sentence), min_size=1, max_size=8))
    return [references for references, _ in pairs], [hypothesis for _, hypothesis in pairs]


@settings(max_examples=examples(400))
@given(batches(), st.integers(1, 6))
def test_batch_statistics_equal_each_sentences_statistics(batch, max_n):
    list_of_references, hypotheses = batch
    expected = [
        sentence_stats(references, hypothesis, max_n) for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    assert batch_sentence_stats(list_of_references, hypotheses, max_n) == expected


def test_a_batch_longer_than_a_chunk_is_counted_in_chunks_alike():
    list_of_references, hypotheses = synthetic_corpus(30, references=2, seed=3)
    expected = [
        sentence_stats(references, hypothesis) for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    assert bleu_scratch.lesson10_batch.chunked_counts(list_of_references, hypotheses, 4, chunk=7)[2].T.tolist() == [
        list(s.matches) for s in expected
    ]


@pytest.mark.slow
def test_a_batch_of_more_tokens_than_a_slab_is_numbered_in_slabs_alike():
    """Lists are numbered ``TOKENS`` (about a million) tokens at a time, each slab's pairs then counted."""
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(6)]
    long_text = lambda: [words[i] for i in rng.integers(0, 6, 300_000)]  # noqa: E731
    # Two pairs of 600,000 tokens each, then a short one with two references: slabs [0] and [1, 2].
    list_of_references = [[long_text()], [long_text()], [words[:3], words[2:]]]
    hypotheses = [long_text(), long_text(), words[:4]]
    arrays = bleu_scratch.lesson10_arrays
    assert len(arrays.slabs(arrays.text_lengths(list_of_references, hypotheses))) == 2
    expected = [
        sentence_stats(references, hypothesis) for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    assert batch_sentence_stats(list_of_references, hypotheses) == expected


WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25),
    (0.5, 0.5),
    (1.0,),
    (0.1, 0.2, 0.3, 0.4, 0.0),
    [(1.0,), (0.5, 0.5)],
    np.array([1 / 3] * 3),
    (1, 0),  # ints: as floats in the products, as in Python's
    (Fraction(1, 2), Fraction(1, 2)),  # weights of other types: scored pair by pair, as NLTK scores them
    np.array([0.5, 0.5], dtype=np.float32),
]
SMOOTHING = [None, "method1", "method3", "method4", "method5", "method7"]


def scored(score, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = score(*args, **kwargs)
    return value, [str(w.message) for w in caught]


@settings(max_examples=examples(300))
@given(batches(), st.sampled_from(range(len(WEIGHTS))), st.sampled_from(SMOOTHING), st.booleans())
def test_each_batch_score_is_sentence_bleus_with_its_warnings(batch, weights_index, method, auto_reweigh):
    list_of_references, hypotheses = batch
    weights = WEIGHTS[weights_index]
    smoothing = getattr(SmoothingFunction(), method) if method else None
    ours, our_warnings = scored(batch_sentence_bleu, list_of_references, hypotheses, weights, smoothing, auto_reweigh)
    one_by_one = [
        scored(bleu_scratch.sentence_bleu, references, hypothesis, weights, smoothing, auto_reweigh)
        for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    assert [repr(value) for value in ours] == [repr(value) for value, _ in one_by_one]  # value and type, bit for bit
    assert our_warnings == [message for _, messages in one_by_one for message in messages]


def test_a_synthetic_batch_of_token_ids_equals_nltk_sentence_by_sentence():
    """Integer token ids, as a translation model's training loop has them: NLTK's sentence_bleu for each pair."""
    list_of_references, hypotheses = synthetic_corpus(300, references=2, seed=7)
    ids = {}
    as_ids = lambda tokens: [ids.setdefault(token, len(ids)) for token in tokens]  # noqa: E731
    hypotheses = [as_ids(hypothesis) for hypothesis in hypotheses]
    list_of_references = [[as_ids(reference) for reference in references] for references in list_of_references]
    method1 = NltkSmoothingFunction().method1
    expected = [nltk_sentence_bleu(r, h, smoothing_function=method1) for r, h in zip(list_of_references, hypotheses)]
    assert (
        batch_sentence_bleu(list_of_references, hypotheses, smoothing_function=SmoothingFunction().method1) == expected
    )


def test_numpy_arrays_of_token_ids_are_read_as_their_ints():
    hypotheses = [np.array([1, 2, 3, 4], dtype=np.int32), np.array([5, 6], dtype=np.int64)]
    list_of_references = [[np.array([1, 2, 3, 5])], [[5, 6]]]
    expected = [
        bleu_scratch.sentence_bleu(list(map(list, refs)), list(h), weights=(0.5, 0.5))
        for refs, h in zip(list_of_references, hypotheses)
    ]
    assert batch_sentence_bleu(list_of_references, hypotheses, weights=(0.5, 0.5)) == expected


def test_bad_input_gets_the_corpus_checks():
    with pytest.raises(ValueError, match="2 hypotheses but 1 reference lists"):
        batch_sentence_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match="empty"):
        batch_sentence_stats([], [])


def test_a_synthetic_batch_without_smoothing_equals_nltk_with_its_warnings():
    """Many sentences share a row of precisions (their geometric mean is computed once): each value is NLTK's."""
    list_of_references, hypotheses = synthetic_corpus(2_000, references=1, seed=3)
    ours, our_warnings = scored(batch_sentence_bleu, list_of_references, hypotheses)
    theirs = [scored(nltk_sentence_bleu, r, h) for r, h in zip(list_of_references, hypotheses)]
    assert [repr(value) for value in ours] == [repr(value) for value, _ in theirs]
    assert our_warnings == [message for _, messages in theirs for message in messages]


ZERO_COUNTS = r"\sThe hypothesis contains 0 counts of 3-gram overlaps"  # the text starts with a newline


@pytest.mark.parametrize(
    "filters",
    [
        [("ignore", "", Warning)],  # the batch skips its warnings here, as warnings.warn would drop them
        [("ignore", "", Warning), ("ignore", "numpy.ndarray size changed", Warning)],  # as scipy adds on import
        [("ignore", r"\sThe hypothesis contains 0 counts of [234]-gram", Warning), ("always", "", Warning)],
        [("ignore", "", UserWarning), ("always", "", UserWarning)],  # the first filter decides
        [("ignore", "", DeprecationWarning), ("always", "", Warning)],  # another category's filter: warned
        [("always", "", Warning), ("ignore", ZERO_COUNTS, Warning)],  # some dropped: only by their text
        [("default", "", Warning)],  # once per text
        [("error", ZERO_COUNTS, Warning)],
    ],
)
def test_warning_filters_act_on_the_batch_as_on_nltk(filters):
    list_of_references, hypotheses = (
        [[["a", "b", "c", "d"]], [["a", "b", "x", "y"]], [["a", "b"]]],
        [
            ["a", "b", "c", "e"],
            ["a", "b", "c", "y"],
            ["a", "b"],
        ],
    )

    def outcome(score):
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            for action, message, category in filters:
                warnings.filterwarnings(action, message, category)
            try:
                value = score()
            except UserWarning as error:
                value = f"raised {error}"
        return value, [str(w.message) for w in caught]

    ours = outcome(lambda: batch_sentence_bleu(list_of_references, hypotheses))
    theirs = outcome(lambda: [nltk_sentence_bleu(r, h) for r, h in zip(list_of_references, hypotheses)])
    assert ours == theirs


@pytest.mark.parametrize("module, dropped", [("bleu_scratch", True), ("bleu_scratch.lesson05", False), ("nltk", False)])
def test_a_filter_on_the_module_acts_on_the_module_that_warns(module, dropped):
    """The batch warns from lesson 10's smoothing module, sentence_bleu from lesson 05's, NLTK from its own."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", module=module)
        batch_sentence_bleu([[["a", "b", "c"]]], [["a", "b", "d"]])
    assert len(caught) == (0 if dropped else 2)  # no 3-gram and no 4-gram matches


@pytest.mark.parametrize("references", [1, 3])
def test_long_rows_of_many_distinct_tokens_are_counted_alike(references):
    """3,000 distinct tokens in rows of up to 12,004 columns: an 8-gram's key is built from numbers up to the width."""
    rng = np.random.default_rng(5)
    reference = list(range(3_000))
    list_of_references = [[reference] + [rng.permutation(3_000).tolist() for _ in range(references - 1)]]
    hypothesis = reference[:1_500] * 2  # every n-gram twice, clipped to once
    hypothesis[700] = 5_000  # and one token no reference has
    expected = sentence_stats(list_of_references[0], hypothesis, 8)
    assert batch_sentence_stats(list_of_references, [hypothesis], 8) == [expected]


# Rows of 3-token texts are 8 columns wide (-1, the hypothesis, -1, the reference): no 9-gram fits in one, and
# every order past the third counts nothing.
SHORT_ROWS = [[["a", "b", "c"]], [["x", "y", "z"]]], [["a", "b", "c"], ["x", "x", "z"]]


@pytest.mark.parametrize("orders", [9, 29, 161])
def test_orders_longer_than_every_row_give_nltks_corpus_score(orders):
    weights = (1 / orders,) * orders
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(fast_corpus_bleu(*SHORT_ROWS, weights)) == repr(nltk_corpus_bleu(*SHORT_ROWS, weights))


class _OddFloat(float):
    def __mul__(self, other):
        return 0.0


@pytest.mark.parametrize(
    "list_of_references, hypotheses, weights",
    [
        ([[list("abcde")]], [list("abcdx")], [(1.0,), ()]),  # an empty weight vector among several: exp(0) = 1
        ([[["a"]], [["b"]]], [["c"], ["d"]], (float("inf"),)),  # no unigram match: 0, and no numpy warning
        ([[list("ab")]], [list("ab")], (float("inf"), 0.0)),  # inf * log(1) is nan, quietly, as in Python
        ([[list("ab")]], [list("ab")], (1e308, 1e308)),
        ([[["a"]]], [["b"]], (10**400,)),  # an int no float holds: NLTK never multiplies it here
        ([[list("abcde")]], [list("abcdx")], (_OddFloat(0.5), _OddFloat(0.5))),  # a float that multiplies its own way
        (*SHORT_ROWS, (1 / 29,) * 29),  # more orders than the rows have columns: those match nothing
        (*SHORT_ROWS, (1 / 161,) * 161),
    ],
)
def test_odd_weights_score_and_warn_as_nltk(list_of_references, hypotheses, weights):
    expected = [
        scored(nltk_sentence_bleu, references, hypothesis, weights)
        for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    ours, our_warnings = scored(batch_sentence_bleu, list_of_references, hypotheses, weights)
    assert [repr(value) for value in ours] == [repr(value) for value, _ in expected]
    assert our_warnings == [message for _, messages in expected for message in messages]
