"""Deliberate differences from NLTK: common mistakes raise a clear error.

Each test checks the exception type, that the message names what is wrong and
how to fix it, and (where NLTK does something) what NLTK 3.10.4 does instead.
"""

from collections import deque

import numpy as np
import pytest
from nltk.translate import bleu_score as nltk_bleu

import bleu_scratch
from bleu_scratch import (
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)

REF = "the cat sat on the mat".split()
HYP = "the cat sat".split()


class TestNoReference:
    def test_sentence_with_no_references(self, record):
        # NLTK: KeyError from deep inside modified_precision.
        assert record(nltk_bleu.sentence_bleu, [], HYP).error is KeyError
        with pytest.raises(ValueError, match=r"references is empty.*at least one reference.*Give \[reference_tokens\]"):
            sentence_bleu([], HYP)

    def test_corpus_pair_with_no_references(self, record):
        assert record(nltk_bleu.corpus_bleu, [[REF], []], [HYP, HYP]).error is KeyError
        with pytest.raises(ValueError, match=r"list_of_references\[1\] is empty"):
            corpus_bleu([[REF], []], [HYP, HYP])

    @pytest.mark.parametrize("function", ["modified_precision", "closest_ref_length"])
    def test_helpers_with_no_references(self, record, function):
        args = ([], HYP, 1) if function == "modified_precision" else ([], 3)
        # NLTK: modified_precision raises KeyError (but returns 0/1 for a hypothesis
        # with no n-gram); closest_ref_length: "min() arg is an empty sequence".
        nltk_error = record(getattr(nltk_bleu, function), *args).error
        assert nltk_error is (KeyError if function == "modified_precision" else ValueError)
        with pytest.raises(ValueError, match="references is empty"):
            getattr(bleu_scratch, function)(*args)

    def test_modified_precision_with_no_references_and_no_ngram(self, record):
        # Where NLTK returns a value, 0/1, it is still no precision: no reference was given.
        assert record(nltk_bleu.modified_precision, [], ["a"], 2).value == 0
        with pytest.raises(ValueError, match="references is empty"):
            modified_precision([], ["a"], 2)

    @pytest.mark.parametrize("hypothesis", [HYP, [], ["a"]])
    def test_one_empty_reference_is_valid_and_scores_zero_like_nltk(self, same_as_nltk, hypothesis):
        outcome = same_as_nltk(sentence_bleu, nltk_bleu.sentence_bleu, [[]], hypothesis)
        assert outcome.value == 0 and type(outcome.value) is int
        same_as_nltk(corpus_bleu, nltk_bleu.corpus_bleu, [[[]], [REF]], [hypothesis, REF])
        same_as_nltk(modified_precision, nltk_bleu.modified_precision, [[]], hypothesis, 1)
        same_as_nltk(closest_ref_length, nltk_bleu.closest_ref_length, [[]], len(hypothesis))


def test_different_numbers_of_hypotheses_and_reference_lists(record):
    # NLTK: AssertionError.
    assert record(nltk_bleu.corpus_bleu, [[REF]], [HYP, HYP]).error is AssertionError
    with pytest.raises(ValueError, match=r"2 hypotheses but 1 reference lists.*one list of references per hypothesis"):
        corpus_bleu([[REF]], [HYP, HYP])


def test_empty_corpus(record):
    # NLTK 3.10.4 raises ZeroDivisionError (Fraction(0, 0)) rather than returning 0.
    assert record(nltk_bleu.corpus_bleu, [], []).error is ZeroDivisionError
    with pytest.raises(ValueError, match=r"corpus is empty.*nothing to score"):
        corpus_bleu([], [])


class TestStringsInsteadOfTokens:
    def test_hypothesis_str(self, record):
        # NLTK silently scores characters.
        assert record(nltk_bleu.sentence_bleu, [REF], "the cat sat").error is None
        with pytest.raises(
            TypeError, match=r"hypothesis is a str.*split it first.*\.split\(\) -> \['the', 'cat', 'sat'\]"
        ):
            sentence_bleu([REF], "the cat sat")

    def test_reference_str(self, record):
        assert record(nltk_bleu.sentence_bleu, ["the cat sat on the mat"], HYP).error is None
        with pytest.raises(
            TypeError, match=r"references\[0\] is a str.*split it first, e\.g\. 'the cat sat on the mat'\.split\(\)"
        ):
            sentence_bleu(["the cat sat on the mat"], HYP)

    def test_corpus_hypothesis_str(self):
        with pytest.raises(TypeError, match=r"hypotheses\[1\] is a str.*split it first"):
            corpus_bleu([[REF], [REF]], [HYP, "the cat sat"])

    def test_corpus_reference_str(self):
        with pytest.raises(TypeError, match=r"list_of_references\[0\]\[0\] is a str.*split it first"):
            corpus_bleu([["the cat sat on the mat"]], [HYP])

    def test_modified_precision_hypothesis_str(self, record):
        assert record(nltk_bleu.modified_precision, [REF], "the cat", 1).error is None
        with pytest.raises(TypeError, match=r"\.split\(\)"):
            modified_precision([REF], "the cat", 1)

    def test_bytes_too(self):
        with pytest.raises(TypeError, match=r"hypothesis is a bytes.*split it first"):
            sentence_bleu([REF], b"the cat sat")

    def test_whole_references_argument_str(self, record):
        assert record(nltk_bleu.sentence_bleu, "the cat sat on the mat", HYP).error is None
        with pytest.raises(TypeError, match=r"references is a str.*list of references.*pass \[reference\.split\(\)\]"):
            sentence_bleu("the cat sat on the mat", HYP)

    def test_whole_hypotheses_argument_str(self, record):
        # NLTK: a bare AssertionError (7 characters against 1 reference list).
        assert record(nltk_bleu.corpus_bleu, [[REF]], "the cat").error is AssertionError
        with pytest.raises(TypeError, match=r"hypotheses is a str.*\[line\.split\(\) for line in lines\]"):
            corpus_bleu([[REF]], "the cat")


class TestUnwrappedReference:
    def test_sentence_bleu(self, record):
        # NLTK scores each token of REF as a one-character-per-token "reference".
        assert record(nltk_bleu.sentence_bleu, REF, HYP).error is None
        with pytest.raises(TypeError, match=r"passed unwrapped: pass \[reference\] \(a list of references\)"):
            sentence_bleu(REF, HYP)

    def test_corpus_bleu(self, record):
        assert record(nltk_bleu.corpus_bleu, [REF, REF], [HYP, HYP]).error is None
        with pytest.raises(
            TypeError, match=r"list_of_references\[0\]\[0\] is a str.*passed unwrapped: pass \[reference\]"
        ):
            corpus_bleu([REF, REF], [HYP, HYP])

    def test_reference_of_int_tokens(self, record):
        # A token that is no str: the message still says to wrap, not to convert.
        assert record(nltk_bleu.sentence_bleu, [1, 2, 3], [1, 2, 3]).error is TypeError
        with pytest.raises(TypeError, match=r"references\[0\] is an int \(1\).*passed unwrapped: pass \[reference\]"):
            sentence_bleu([1, 2, 3], [1, 2, 3])

    def test_corpus_hypothesis(self, record):
        # NLTK: a bare AssertionError when the lengths differ, characters scored when they agree.
        assert record(nltk_bleu.corpus_bleu, [[REF]], ["the"]).error is None
        with pytest.raises(
            TypeError,
            match=r"hypotheses\[0\] is a str \('the'\).*passed unwrapped: pass \[hypothesis\] \(a list of hypotheses\)",
        ):
            corpus_bleu([[REF]], ["the"])
        assert record(nltk_bleu.corpus_bleu, [[REF]], HYP).error is AssertionError
        with pytest.raises(ValueError, match=r"3 hypotheses but 1 reference lists.*pass \[hypothesis\]"):
            corpus_bleu([[REF]], HYP)


class TestUnhashableTokens:
    def test_hypothesis(self):
        with pytest.raises(TypeError, match=r"hypothesis contains an unhashable token of type list.*must be hashable"):
            sentence_bleu([REF], [["the"], ["cat"]])

    def test_reference(self):
        with pytest.raises(TypeError, match=r"references\[0\] contains an unhashable token of type list"):
            sentence_bleu([[["the"], ["cat"]]], HYP)

    def test_a_corpus_given_to_sentence_bleu(self):
        with pytest.raises(TypeError, match="score it with corpus_bleu, not sentence_bleu"):
            sentence_bleu([[REF]], [HYP])


class TestTokensOfACorpus:
    """The corpus door hashes every token at once (the batch's numbering does, for the batch): a bad one is named."""

    def test_an_unhashable_hypothesis_token(self, record):
        assert record(nltk_bleu.corpus_bleu, [[REF], [REF]], [HYP, ["the", ["cat"]]]).error is TypeError
        with pytest.raises(TypeError, match=r"hypotheses\[1\] contains an unhashable token of type list"):
            corpus_bleu([[REF], [REF]], [HYP, ["the", ["cat"]]])

    def test_an_unhashable_reference_token(self):
        with pytest.raises(TypeError, match=r"list_of_references\[1\]\[1\] contains an unhashable token of type dict"):
            bleu_scratch.batch_sentence_bleu([[REF], [REF, ["the", {}]]], [HYP, HYP])

    def test_a_bad_token_in_a_batch_counted_in_chunks_is_named_by_its_place_in_the_whole_batch(self):
        # The batch's door leaves the tokens to lesson 10's numbering, which meets this one in the chunk of
        # pairs 4 and 5 (counted shortest first): the message still names hypotheses[5].
        hypotheses = [["the"] * length for length in (8, 7, 6, 5, 4, 3, 2, 1)]
        hypotheses[5] = ["the", ["cat"], "sat"]
        with pytest.raises(TypeError, match=r"hypotheses\[5\] contains an unhashable token of type list") as raised:
            bleu_scratch.batch_corpus_stats([[REF]] * 8, hypotheses, chunk=2)
        assert raised.value.__suppress_context__  # one message, not the numbering's TypeError before it

    def test_tokens_that_hash_but_cannot_be_compared(self):
        class Odd:
            def __hash__(self):
                return 1

            def __eq__(self, other):
                raise TypeError("no comparing")

        with pytest.raises(TypeError, match=r"hypothesis: comparing its tokens raised TypeError \(no comparing\)"):
            sentence_bleu([REF], [Odd(), Odd()])

    def test_other_hashable_tokens_are_scored_as_nltk_scores_them(self):
        # Tuples, floats and None are hashable: no mistake to report, and 1.0 is the token 1, as in NLTK's Counters.
        list_of_references = [[[("a",), 1, 2.5, None, "x"]], [[1.0, True, 3]]]
        hypotheses = [[("a",), 1, 2.5, "x"], [1, 1, 3]]
        expected = nltk_bleu.corpus_bleu(list_of_references, hypotheses, weights=(0.5, 0.5))
        assert corpus_bleu(list_of_references, hypotheses, weights=(0.5, 0.5)) == expected
        scores = bleu_scratch.batch_sentence_bleu(list_of_references, hypotheses, weights=(0.5, 0.5))
        assert scores == [
            nltk_bleu.sentence_bleu(r, h, weights=(0.5, 0.5)) for r, h in zip(list_of_references, hypotheses)
        ]


def test_not_a_sequence():
    with pytest.raises(TypeError, match=r"hypothesis must be a list of tokens, got generator.*list\(\.\.\.\)"):
        sentence_bleu([REF], (token for token in HYP))
    with pytest.raises(
        TypeError, match=r"list_of_references must be a list of reference lists, got generator.*list\(\.\.\.\)"
    ):
        corpus_bleu((refs for refs in [[REF]]), [HYP])


def test_a_set_of_tokens_has_no_order(record):
    # NLTK scores the set in its iteration order, which differs between runs for str tokens.
    assert record(nltk_bleu.sentence_bleu, [REF], set(HYP)).error is None
    with pytest.raises(TypeError, match=r"hypothesis is a set, which has no order.*pass a list"):
        sentence_bleu([REF], set(HYP))
    with pytest.raises(TypeError, match=r"references\[0\] is a set, which has no order"):
        sentence_bleu([set(REF)], HYP)


@pytest.mark.parametrize("n", ["2", 2.0])
def test_order_of_another_type(record, n):
    # NLTK: TypeError ('>=' not supported) for "2", ValueError from islice for 2.0.
    assert record(nltk_bleu.modified_precision, [REF], HYP, n).error in (TypeError, ValueError)
    with pytest.raises(TypeError, match=r"n is the n-gram order and must be an int"):
        modified_precision([REF], HYP, n)


def test_order_of_an_int_like_type_is_read_as_an_int(same_as_nltk, record):
    same_as_nltk(modified_precision, nltk_bleu.modified_precision, [REF], HYP, True)
    # NLTK: "TypeError: an integer is required" for a numpy integer; ours reads it as the int.
    assert record(nltk_bleu.modified_precision, [REF], HYP, np.int64(2)).error is TypeError
    assert modified_precision([REF], HYP, np.int64(2)) == nltk_bleu.modified_precision([REF], HYP, 2)


@pytest.mark.parametrize("n", [0, -1])
def test_order_below_one(record, n):
    # NLTK: n=0 gives a meaningless 7/7-style value, n=-1 a ValueError from islice.
    assert record(nltk_bleu.modified_precision, [REF], HYP, n).error is (None if n == 0 else ValueError)
    with pytest.raises(ValueError, match=rf"n is the n-gram order and must be 1 or more.*got {n}"):
        modified_precision([REF], HYP, n)


@pytest.mark.parametrize(
    "references, hypothesis",
    [
        ([REF], np.array(HYP)),
        (np.array([REF]), HYP),
        ([np.array(REF)], HYP),
        ([REF], deque(HYP)),
        ({tuple(REF), tuple(HYP)}, HYP),
        ([REF, HYP], tuple(HYP)),
    ],
    ids=["numpy hypothesis", "numpy references", "numpy reference", "deque hypothesis", "set of references", "tuple"],
)
def test_other_collections_score_as_in_nltk(same_as_nltk, references, hypothesis):
    # Not mistakes: NLTK scores any ordered collection of tokens, and a set of references.
    for method in ("method0", "method5", "method6"):
        ours, theirs = getattr(bleu_scratch.SmoothingFunction(), method), getattr(nltk_bleu.SmoothingFunction(), method)
        same_as_nltk(
            lambda ours=ours: sentence_bleu(references, hypothesis, smoothing_function=ours),
            lambda theirs=theirs: nltk_bleu.sentence_bleu(references, hypothesis, smoothing_function=theirs),
        )
    same_as_nltk(corpus_bleu, nltk_bleu.corpus_bleu, [references, references], [hypothesis, hypothesis])
    same_as_nltk(modified_precision, nltk_bleu.modified_precision, references, hypothesis, 2)
    same_as_nltk(closest_ref_length, nltk_bleu.closest_ref_length, references, 4)


@pytest.mark.parametrize("weights", [(), []])
def test_empty_weights(record, weights):
    # NLTK returns the int 0 whatever the input.
    assert record(nltk_bleu.sentence_bleu, [REF], REF, weights).value == 0
    with pytest.raises(ValueError, match=r"weights is empty: give one weight per n-gram order, e\.g\. \(0\.25"):
        sentence_bleu([REF], REF, weights)
    with pytest.raises(ValueError, match="weights is empty"):
        corpus_bleu([[REF]], [REF], weights)


@pytest.mark.filterwarnings(r"ignore:\s*The hypothesis contains 0 counts:UserWarning")
@pytest.mark.parametrize("hypothesis", [["the"], ["the", "cat"], HYP])
def test_numpy_weights_with_auto_reweigh_and_a_short_hypothesis(record, same_as_nltk, hypothesis):
    weights = np.array([0.25, 0.25, 0.25, 0.25])
    # NLTK: `weight == (0.25, 0.25, 0.25, 0.25)` is an array, and `and` needs its truth value.
    nltk_outcome = record(nltk_bleu.sentence_bleu, [REF], hypothesis, weights, None, True)
    assert nltk_outcome.error is ValueError
    # Ours treats the array like a list of floats: no reweighing, so the score is
    # NLTK's without auto_reweigh, and the same as ours with a list.
    ours = same_as_nltk(
        lambda: sentence_bleu([REF], hypothesis, weights, None, True),
        lambda: nltk_bleu.sentence_bleu([REF], hypothesis, weights, None, False),
    ).value
    assert ours == sentence_bleu([REF], hypothesis, [0.25] * 4, None, True)
    assert ours != sentence_bleu([REF], hypothesis, (0.25,) * 4, None, True)


def test_numpy_weights_with_auto_reweigh_and_a_long_hypothesis_equal_nltk(same_as_nltk):
    # With 4 tokens or more NLTK never evaluates the comparison, and both agree.
    same_as_nltk(sentence_bleu, nltk_bleu.sentence_bleu, [REF], REF[:4], np.array([0.25] * 4), None, True)


@pytest.mark.parametrize(
    "name",
    [
        "sentence_stats",
        "corpus_stats",
        "batch_corpus_stats",
        "batch_sentence_stats",
        "parallel_corpus_stats",
    ],
)
@pytest.mark.parametrize("max_n", [0, 2.5])
def test_every_stats_function_checks_max_n(name, max_n):
    function = getattr(bleu_scratch, name)
    if name == "sentence_stats":
        arguments = ([["a", "b"]], ["a", "b"])
    else:
        arguments = ([[["a", "b"]]], [["a", "b"]])
    with pytest.raises((TypeError, ValueError), match="max_n is the highest n-gram order"):
        function(*arguments, max_n=max_n)
