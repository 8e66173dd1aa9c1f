"""Smoothing a whole batch at once (bleu_scratch/lesson10_smoothing.py) gives NLTK's values, types and warnings.

The oracle is NLTK 3.10.4: its ``sentence_bleu`` of each pair with its own
``SmoothingFunction`` method, and, one level down, the list its method returns
for each sentence's precisions. Lesson 07's ``SmoothingFunction`` is its
equivalent, so a lesson 07 method with the same parameters must give NLTK's
values too. Random batches over small vocabularies make every order match,
miss, or be too short to exist; parameters are ints (as NLTK's defaults are)
and floats, which take different paths through Python's arithmetic.
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import bleu_scratch.lesson10_batch
from bleu_scratch import SmoothingFunction, batch_sentence_bleu, synthetic_corpus
from bleu_scratch.lesson10_smoothing import Method, _Numbers, batch_smoothed_precisions, smoothing_method
from bleu_scratch.notebook.exercises import unwritten_exercise
from tests.quick import examples

PARAMETERS = [
    {},  # NLTK's defaults: epsilon=0.1, alpha=5, k=5 (two ints)
    {"epsilon": 0.5, "alpha": 0.5, "k": 0.25},
    {"epsilon": 1, "alpha": 2, "k": 3},
    {"epsilon": 0.01, "alpha": 5.0, "k": 5.0},
]
WEIGHTS = [
    (1.0,),
    (0.5, 0.5),
    (1 / 3, 1 / 3, 1 / 3),
    (0.25, 0.25, 0.25, 0.25),
    (0.1, 0.2, 0.3, 0.4),
    (0.2, 0.2, 0.2, 0.2, 0.2),
    [(0.5, 0.5), (0.25, 0.25, 0.25, 0.25)],
    [(1.0,), (0.2, 0.2, 0.2, 0.2, 0.2)],
]


@st.composite
def batches(draw):
    """1 to 8 sentence pairs over a vocabulary of 1 to 4 words; 0 to 12 tokens; 1 to 4 references each."""
    sentence = st.lists(st.sampled_from("abcd"[: draw(st.integers(1, 4))]), max_size=12)
    pairs = draw(st.lists(st.tuples(st.lists(sentence, min_size=1, max_size=4), sentence), min_size=1, max_size=8))
    return [references for references, _ in pairs], [hypothesis for _, hypothesis in pairs]


def scored(score, *args):
    """The value (or the exception's type) and every warning's message, in order (``run`` keeps only UserWarnings:
    here a RuntimeWarning of numpy's would differ from NLTK too)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = score(*args)
        except Exception as error:  # noqa: BLE001 (the type is what is compared)
            if unwritten_exercise(error):  # in the student edition: no answer, and the test is skipped
                raise
            value = type(error)
    return value, [str(warning.message) for warning in caught]


def nltk_scores(list_of_references, hypotheses, weights, number, parameters, auto_reweigh):
    """NLTK's sentence_bleu of each pair, its warnings in order, and the exception type if one pair raises."""
    method = getattr(NltkSmoothingFunction(**parameters), f"method{number}")
    results = [
        scored(nltk_sentence_bleu, references, hypothesis, weights, method, auto_reweigh)
        for references, hypothesis in zip(list_of_references, hypotheses)
    ]
    raised = [value for value, _ in results if isinstance(value, type)]
    if raised:
        return raised[0], None
    return [repr(value) for value, _ in results], [message for _, messages in results for message in messages]


@settings(max_examples=examples(600))
@given(
    batches(),
    st.integers(0, 7),
    st.sampled_from(PARAMETERS),
    st.sampled_from(WEIGHTS),
    st.booleans(),
    st.sampled_from([NltkSmoothingFunction, SmoothingFunction]),
)
def test_each_score_is_nltks_with_its_warnings(batch, number, parameters, weights, auto_reweigh, smoothing_class):
    list_of_references, hypotheses = batch
    expected, expected_warnings = nltk_scores(list_of_references, hypotheses, weights, number, parameters, auto_reweigh)
    method = getattr(smoothing_class(**parameters), f"method{number}")
    ours, our_warnings = scored(batch_sentence_bleu, list_of_references, hypotheses, weights, method, auto_reweigh)
    if isinstance(expected, type):  # NLTK raises (method 6 without a trigram match): so does the batch
        assert isinstance(ours, type)
        if smoothing_class is NltkSmoothingFunction:
            assert ours is expected
        return
    assert [repr(value) for value in ours] == expected  # value and type (the int 0), bit for bit
    assert our_warnings == expected_warnings


def nltk_smoothed(references, hypothesis, max_n, number, parameters):
    """What NLTK's method returns for one sentence's precisions, each as the float the score takes the log of."""
    p_n = [nltk_modified_precision(references, hypothesis, n) for n in range(1, max_n + 1)]
    method = getattr(NltkSmoothingFunction(**parameters), f"method{number}")
    return [float(p_i) for p_i in method(p_n, references, hypothesis, hyp_len=len(hypothesis))]


@settings(max_examples=examples(600))
@given(batches(), st.integers(1, 7), st.sampled_from(PARAMETERS), st.integers(3, 6))
def test_each_smoothed_precision_is_nltks_to_the_last_bit(batch, number, parameters, max_n):
    list_of_references, hypotheses = batch
    method = smoothing_method(getattr(SmoothingFunction(**parameters), f"method{number}"))
    orders = method.orders(max_n)
    matches = np.array(
        [
            [nltk_modified_precision(references, hypothesis, n).numerator for n in range(1, orders + 1)]
            for references, hypothesis in zip(list_of_references, hypotheses)
        ]
    ).T
    hyp_lens = np.array([len(hypothesis) for hypothesis in hypotheses])
    ours = batch_smoothed_precisions(method, matches, hyp_lens, max_n)  # a row per order, a column per sentence
    each = ours.T.tolist() if ours is not None else [[]] * len(hypotheses)
    smoothed = [
        (references, hypothesis, p_n)
        for references, hypothesis, p_n in zip(list_of_references, hypotheses, each)
        if nltk_modified_precision(references, hypothesis, 1).numerator  # NLTK smooths only these
    ]
    if number == 6 and any(nltk_modified_precision(r, h, 3).numerator == 0 for r, h, _ in smoothed):
        assert ours is None  # NLTK asserts a trigram match: the batch leaves it to the pair-by-pair path
        return
    for references, hypothesis, p_n in smoothed:
        assert p_n == nltk_smoothed(references, hypothesis, max_n, number, parameters)


@pytest.mark.parametrize("number", range(8))
@pytest.mark.parametrize("references", [1, 4])
def test_a_synthetic_batch_is_smoothed_as_one_and_equals_nltk(monkeypatch, number, references):
    """Sentences of about 25 words (some empty or short): every method runs on the batch, none pair by pair."""
    list_of_references, hypotheses = synthetic_corpus(300, references=references, seed=number)
    if number == 6:  # method 6 needs a trigram match in every sentence it smooths
        kept = [i for i, h in enumerate(hypotheses) if nltk_modified_precision(list_of_references[i], h, 3).numerator]
        list_of_references, hypotheses = [list_of_references[i] for i in kept], [hypotheses[i] for i in kept]
    monkeypatch.setattr(bleu_scratch.lesson10_batch, "bleu_from_stats", None)  # the pair-by-pair path would crash
    expected, expected_warnings = nltk_scores(list_of_references, hypotheses, (0.25,) * 4, number, {}, False)
    ours, our_warnings = scored(batch_sentence_bleu, list_of_references, hypotheses, (0.25,) * 4,
                                getattr(NltkSmoothingFunction(), f"method{number}"))  # fmt: skip
    assert [repr(value) for value in ours] == expected
    assert our_warnings == expected_warnings


@pytest.mark.parametrize("number", range(8))
def test_padded_arrays_of_token_ids_are_smoothed_as_nltk_smooths_the_rows(number):
    """A training loop's batch: ids in a 2-D array padded on the right, one reference each."""
    list_of_references, hypotheses = synthetic_corpus(200, seed=20 + number, vocabulary=50)
    ids: dict[str, int] = {}
    hypotheses = [[ids.setdefault(word, len(ids)) for word in hypothesis] for hypothesis in hypotheses]
    references = [[ids.setdefault(word, len(ids)) for word in refs[0]] for refs in list_of_references]
    if number == 6:  # method 6 needs a trigram match in every sentence it smooths
        kept = [i for i, h in enumerate(hypotheses) if nltk_modified_precision([references[i]], h, 3).numerator]
        hypotheses, references = [hypotheses[i] for i in kept], [references[i] for i in kept]
    width = max(map(len, hypotheses + references))
    padded = lambda rows: np.array([row + [-1] * (width - len(row)) for row in rows])  # noqa: E731
    smoothing = getattr(NltkSmoothingFunction(), f"method{number}")
    expected, expected_warnings = nltk_scores([[r] for r in references], hypotheses, (0.25,) * 4, number, {}, False)
    ours, our_warnings = scored(
        lambda: batch_sentence_bleu(padded(references), padded(hypotheses), smoothing_function=smoothing, pad_id=-1)
    )
    assert [repr(value) for value in ours] == expected
    assert our_warnings == expected_warnings


@pytest.mark.parametrize("number", [5, 6, 7])
def test_long_sentences_keep_fractions_exact(number):
    """Methods 5-7 add fractions with denominators near 400**5 and beyond: exact, then rounded once, as NLTK."""
    list_of_references, hypotheses = synthetic_corpus(20, seed=11, length=400, vocabulary=30)
    for parameters in ({}, {"alpha": 0.5, "k": 0.25}):
        expected, _ = nltk_scores(list_of_references, hypotheses, (0.25,) * 4, number, parameters, False)
        method = getattr(SmoothingFunction(**parameters), f"method{number}")
        assert [
            repr(value) for value in batch_sentence_bleu(list_of_references, hypotheses, smoothing_function=method)
        ] == expected


def test_a_float_squared_is_pythons_pow_not_x_times_x():
    """Python's x ** 2 is C's pow(x, 2.0), which differs from x * x in the last bit for these x."""
    xs = [x for x in np.random.default_rng(0).uniform(0, 10, 20_000).tolist() if x**2 != x * x]
    assert xs, "a float whose pow(x, 2) is not x * x"
    assert (_Numbers.of(np.array(xs)) ** 2).floats().tolist() == [x**2 for x in xs]


def test_a_fraction_is_rounded_once_where_a_float_meets_it():
    third = _Numbers.fractions(np.array([1]), np.array([3]))
    tenth = _Numbers.fractions(np.array([1]), np.array([10]))
    assert ((third + tenth) / 3).floats().tolist() == [float((Fraction(1, 3) + Fraction(1, 10)) / 3)]
    assert (third + 0.1).floats().tolist() == [Fraction(1, 3) + 0.1]


class MySmoothing(NltkSmoothingFunction):
    def method1(self, p_n, *args, **kwargs):
        return [p_i if p_i.numerator else 0.5 for p_i in p_n]


@pytest.mark.parametrize(
    "function",
    [
        lambda p_n, **kwargs: [p_i if p_i.numerator else 0.5 for p_i in p_n],  # a user's own
        MySmoothing().method1,  # a subclass may smooth otherwise
        NltkSmoothingFunction(epsilon=Fraction(1, 10)).method1,  # not a plain int or float
    ],
)
def test_other_smoothing_functions_are_called_pair_by_pair_as_nltk_calls_them(function):
    assert smoothing_method(function) is None
    list_of_references, hypotheses = synthetic_corpus(30, seed=5)
    expected = [nltk_sentence_bleu(r, h, smoothing_function=function) for r, h in zip(list_of_references, hypotheses)]
    assert batch_sentence_bleu(list_of_references, hypotheses, smoothing_function=function) == expected


def test_an_instance_whose_method4_was_replaced_is_not_method7():
    smoothing = SmoothingFunction()
    smoothing.method4 = lambda p_n, *args, **kwargs: p_n  # type: ignore[method-assign]
    assert smoothing_method(smoothing.method7) is None
    assert smoothing_method(SmoothingFunction(k=2).method7) == Method(7, 2)


@pytest.mark.parametrize("number, parameters", [(4, {"k": 0}), (4, {"k": -0.0}), (7, {"k": 0}), (6, {"alpha": -2})])
def test_where_nltk_raises_the_batch_raises_the_same(number, parameters):
    """Methods 4 and 7 with k = 0 divide by zero; so does method 6 where alpha = -l for an n-gram count l."""
    list_of_references = [["a b c d".split()], ["x y z w v".split()]]
    hypotheses = ["a b c d".split(), "x y z q".split()]
    expected, _ = nltk_scores(list_of_references, hypotheses, (0.25,) * 4, number, parameters, False)
    ours, _ = scored(
        batch_sentence_bleu, list_of_references, hypotheses, (0.25,) * 4,
        getattr(NltkSmoothingFunction(**parameters), f"method{number}"),
    )  # fmt: skip
    assert expected is ZeroDivisionError
    assert ours is expected
