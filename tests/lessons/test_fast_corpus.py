"""Lesson 10's counter (bleu_scratch/lesson10_batch.py) for a corpus: the fast corpus score is lesson 06's.

``batch_corpus_stats`` counts a corpus in chunks with ``batch_counts``;
``fast_corpus_bleu`` scores those statistics by lesson 06's rules. Both must
equal the lesson's ``corpus_stats`` and ``corpus_bleu`` (which
test_against_nltk.py holds equal to NLTK's), bit for bit, with the same
warnings. Tiny vocabularies make every order match and repeat.
"""

import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_scratch import SmoothingFunction, batch_corpus_stats, corpus_bleu, corpus_stats, fast_corpus_bleu
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


@settings(max_examples=examples(300))
@given(st.lists(sentence_pairs(), min_size=1, max_size=6), st.integers(1, 5), st.integers(1, 4))
def test_batch_corpus_stats_equal_corpus_stats_whatever_the_chunk(corpus, max_n, chunk):
    list_of_references = [references for references, _ in corpus]
    hypotheses = [hypothesis for _, hypothesis in corpus]
    expected = corpus_stats(list_of_references, hypotheses, max_n)
    assert batch_corpus_stats(list_of_references, hypotheses, max_n, chunk=chunk) == expected


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
def test_fast_corpus_bleu_is_lesson_06s_score(pairs, weights, smoothing, auto_reweigh):
    """fast_corpus_bleu must return what lesson 06's corpus_bleu returns, bit for bit, with the same warnings."""
    list_of_references = [references for references, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis in pairs]
    arguments = (list_of_references, hypotheses, weights, smoothing, auto_reweigh)
    assert scored(fast_corpus_bleu, *arguments) == scored(corpus_bleu, *arguments)
