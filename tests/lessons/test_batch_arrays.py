"""A batch of token ids in 2-D arrays, as a training loop holds it: each score is NLTK's for the unpadded rows.

The rows are padded on the right, on the left, or cut by lengths; references
come as a 3-D array (several per sentence) or a 2-D one (one each); ids may be
past 2**31, which lesson 10 numbers again. Each value, type and
warning must be NLTK's ``sentence_bleu`` of the same tokens as plain lists.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import batch_corpus_stats, batch_sentence_bleu, batch_sentence_stats, corpus_stats, sentence_stats
from bleu_scratch.lesson10_batch import chunked_counts
from tests.quick import examples

PAD = -100  # Hugging Face's label padding: a negative id, which the door refuses anywhere but as the pad
IDS = [(0, 1, 2), (5, 7, 2**40), (3, 4, 5, 6, 7, 8)]


@st.composite
def padded_batches(draw):
    """(reference rows, hypothesis rows): 1 to 6 sentences, 1 to 3 references, 0 to 8 ids each."""
    ids = st.sampled_from(draw(st.sampled_from(IDS)))
    sentence = st.lists(ids, max_size=8)
    references = draw(st.integers(1, 3))
    pairs = draw(
        st.lists(
            st.tuples(st.lists(sentence, min_size=references, max_size=references), sentence), min_size=1, max_size=6
        )
    )
    return [refs for refs, _ in pairs], [hyp for _, hyp in pairs]


def padded(rows: list[list[int]], width: int, left: bool) -> np.ndarray:
    return np.array([[PAD] * (width - len(row)) + row if left else row + [PAD] * (width - len(row)) for row in rows])


def scored(function, *arguments, **options) -> tuple[str, list[str]]:
    """The scores' repr (values and types, bit for bit) and the warnings given."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*arguments, **options)
    return repr(value), [str(w.message) for w in caught]


def nltk_scores(list_of_references, hypotheses, weights, smoothing):
    return [nltk_sentence_bleu(refs, hyp, weights, smoothing) for refs, hyp in zip(list_of_references, hypotheses)]


@settings(max_examples=examples(200))
@given(
    padded_batches(),
    st.booleans(),
    st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5)]),
    st.sampled_from([None, SmoothingFunction().method1, SmoothingFunction().method4]),
)
def test_padded_arrays_score_as_nltk_scores_the_rows(batch, left, weights, smoothing):
    list_of_references, hypotheses = batch
    width = max(len(row) for refs in list_of_references for row in [*refs] + hypotheses) + 2
    hyp_array = padded(hypotheses, width, left)
    ref_array = np.stack([padded(refs, width + 1, left) for refs in list_of_references])
    expected = scored(nltk_scores, list_of_references, hypotheses, weights, smoothing)
    assert scored(batch_sentence_bleu, ref_array, hyp_array, weights, smoothing, pad_id=PAD) == expected
    if len(list_of_references[0]) == 1:  # one reference each: a 2-D array will do
        assert scored(batch_sentence_bleu, ref_array[:, 0], hyp_array, weights, smoothing, pad_id=PAD) == expected


@settings(max_examples=examples(100))
@given(padded_batches())
def test_lengths_cut_the_rows_whatever_follows(batch):
    list_of_references, hypotheses = batch
    width = 10
    # What follows a row's tokens is junk that would match, were it read.
    hyp_array = np.array([row + [5] * (width - len(row)) for row in hypotheses])
    ref_array = np.array([[row + [5] * (width - len(row)) for row in refs] for refs in list_of_references])
    lengths = (
        np.array([len(row) for row in hypotheses]),
        np.array([[len(row) for row in refs] for refs in list_of_references]),
    )
    expected = scored(nltk_scores, list_of_references, hypotheses, (0.5, 0.5), None)
    options = {"hypothesis_lengths": lengths[0], "reference_lengths": lengths[1]}
    assert scored(batch_sentence_bleu, ref_array, hyp_array, (0.5, 0.5), **options) == expected


@settings(max_examples=examples(100))
@given(padded_batches(), st.booleans())
def test_corpus_statistics_of_arrays_are_lesson_06s_of_the_rows(batch, left):
    list_of_references, hypotheses = batch
    width = max(len(row) for refs in list_of_references for row in [*refs] + hypotheses) + 1
    ref_array = np.stack([padded(refs, width, left) for refs in list_of_references])
    lengths = {
        "hypothesis_lengths": np.array([len(row) for row in hypotheses]),
        "reference_lengths": np.array([[len(row) for row in refs] for refs in list_of_references]),
    }
    expected = corpus_stats(list_of_references, hypotheses)
    assert batch_corpus_stats(ref_array, padded(hypotheses, width, left), pad_id=PAD) == expected
    if not left:  # lengths count from the start of each row
        assert batch_corpus_stats(ref_array, padded(hypotheses, width, left), **lengths) == expected


def test_a_whole_array_is_every_rows_tokens():
    hypotheses = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=np.int32)
    references = np.array([[[1, 2, 3, 5]], [[5, 6, 7, 8]]], dtype=np.uint16)
    expected = [batch_sentence_stats([[row.tolist() for row in refs] for refs in references], hypotheses.tolist())]
    assert [batch_sentence_stats(references, hypotheses)] == expected


def test_arrays_of_more_pairs_than_a_chunk_are_counted_a_chunk_at_a_time_alike():
    """Each chunk of rows takes its own rows' lengths; the last chunk is shorter (10 pairs, 3 at a time)."""
    rng = np.random.default_rng(4)
    hypotheses, references = rng.integers(0, 4, (10, 12)), rng.integers(0, 4, (10, 2, 12))
    hyp_lens, ref_lens = rng.integers(0, 13, 10), rng.integers(0, 13, (10, 2))
    expected = [
        sentence_stats([r[:n].tolist() for r, n in zip(refs, ns)], hyp[:m].tolist())
        for refs, ns, hyp, m in zip(references, ref_lens, hypotheses, hyp_lens)
    ]
    counted = chunked_counts(references, hypotheses, 4, None, hyp_lens, ref_lens, chunk=3)
    assert [(h, r, tuple(m)) for h, r, m in zip(*counted[:2], counted[2].T.tolist())] == [
        (s.hyp_len, s.ref_len, s.matches) for s in expected
    ]


@pytest.mark.parametrize(
    "references, hypotheses, options, error, message",
    [
        (np.array([[1, 2]]), np.array([[1.0, 2.0]]), {}, TypeError, "token ids are integers"),
        (np.array([[1, 2], [3, 4]]), np.array([[1, 2]]), {}, ValueError, "1 hypotheses but 2 rows of references"),
        (np.array([[1, 2]]), np.array([[1, 0, 2]]), {"pad_id": 0}, ValueError, "between tokens in row 0"),
        (np.array([[1, 2]]), np.array([[1, 2]]), {"pad_id": 0, "hypothesis_lengths": [1]}, ValueError, "not both"),
        (np.array([[1, 2]]), np.array([[1, 2]]), {"hypothesis_lengths": [1]}, ValueError, "together"),
        (
            np.array([[1, 2]]),
            np.array([[1, 2]]),
            {"hypothesis_lengths": [3], "reference_lengths": [1]},
            ValueError,
            "from 0 to the row length 2",
        ),
        ([[[1, 2]]], [[1, 2]], {"pad_id": 0}, TypeError, "pad_id marks the tokens of each row of a 2-D array"),
        (np.array([[1, 2]]), np.array([[1, 2]]), {"pad_id": 0.5}, TypeError, "pad_id must be an int"),
        ([[1, 2]], np.array([[1, 2]]), {}, TypeError, "list_of_references is a list while hypotheses is a 2-D"),
        (np.array([[1, 2]]), np.array([1, 2]), {"pad_id": 0}, TypeError, r"1-D array of shape \(2,\), but a batch"),
        (np.array([[1, 2]]), np.array([[[1, 2]]]), {}, TypeError, "3-D array of shape"),
        (np.array([[1, 2]], np.uint16), np.array([[1, 2]]), {"pad_id": -1}, ValueError, "cannot occur in list_of_ref"),
        (np.array([[1, -100]]), np.array([[1, 0]]), {"pad_id": 0}, ValueError, "holds -100 at \\[0, 1\\], a negative"),
        (np.array([[1, 2]]), np.array([[-1, 2]]), {}, ValueError, "If -1 marks padding, pass pad_id=-1"),
        (
            np.array([[1, 2]]),
            np.array([[1, -2]]),
            {"hypothesis_lengths": [2], "reference_lengths": [2]},
            ValueError,
            r"The lengths count it as a token of its row: check them. If negative ids are real tokens",
        ),
        (np.array([[1, 2]]), np.ma.masked_equal([[1, 0]], 0), {}, TypeError, "numpy MaskedArray, whose mask"),
    ],
)
def test_a_malformed_batch_of_arrays_gets_one_clear_message(references, hypotheses, options, error, message):
    with pytest.raises(error, match=message):
        batch_sentence_bleu(references, hypotheses, **options)


def test_negative_ids_that_are_tokens_pass_as_the_message_says():
    # Hashed ids can be negative: the same bits read as uint64, as the refusal suggests, score as NLTK's ints.
    hypotheses, references = np.array([[-5, 2, 3, 0]]), np.array([[-5, 2, 4, 0]])
    expected = nltk_sentence_bleu([[-5, 2, 4]], [-5, 2, 3], weights=(0.5, 0.5))
    assert batch_sentence_bleu(references.view(np.uint64), hypotheses.view(np.uint64), (0.5, 0.5), pad_id=0) == [
        expected
    ]


def test_int64_and_uint64_arrays_keep_large_ids_apart():
    # numpy joins int64 and uint64 as float64, where 2**53 and 2**53 + 1 are one number; NLTK's ints are not.
    hypotheses = np.array([[2**53, 7]])
    for references in (np.array([[2**53 + 1, 7]], dtype=np.uint64), np.array([[2**64 - 1, 7]], dtype=np.uint64)):
        expected = nltk_sentence_bleu([[int(t) for t in references[0]]], [2**53, 7], weights=(1.0,))
        assert batch_sentence_bleu(references, hypotheses, weights=(1.0,)) == [expected] == [0.5]


def test_rows_of_no_tokens_score_as_nltk_scores_empty_sentences():
    expected = scored(nltk_scores, [[[]], [[]]], [[], []], (0.25,) * 4, None)
    assert scored(batch_sentence_bleu, np.zeros((2, 0), int), np.zeros((2, 0), int)) == expected
    assert scored(batch_sentence_bleu, np.zeros((2, 0), int), np.zeros((2, 0), int), pad_id=0) == expected
    assert scored(batch_sentence_bleu, np.zeros((1, 1, 0), int), np.array([[7]]), pad_id=0) == scored(
        nltk_scores, [[[]]], [[7]], (0.25,) * 4, None
    )


def test_a_pair_with_fewer_references_repeats_one_as_the_docstring_says():
    # A row of padding is an empty reference, as NLTK scores [], whose length 0 sets the penalty here: 1.0.
    hypotheses = np.array([[1, 2, 3, 0, 0, 0]])
    padded_row = np.array([[[1, 2, 3, 4, 5, 6], [0] * 6]])
    expected = nltk_sentence_bleu([[1, 2, 3, 4, 5, 6], []], [1, 2, 3], weights=(1.0,))
    assert batch_sentence_bleu(padded_row, hypotheses, weights=(1.0,), pad_id=0) == [expected] == [1.0]
    # A copy of a real reference changes no count and no length: NLTK's score for the real reference alone.
    repeated = np.array([[[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]])
    expected = nltk_sentence_bleu([[1, 2, 3, 4, 5, 6]], [1, 2, 3], weights=(1.0,))
    assert batch_sentence_bleu(repeated, hypotheses, weights=(1.0,), pad_id=0) == [expected] == [math.exp(1 - 6 / 3)]


def test_int_like_tokens_are_tokens_by_their_own_equality_as_in_nltk():
    class Index:
        """Like a 0-d tensor: an index for numpy and struct, but equal only to itself."""

        def __init__(self, value):
            self.value = value

        def __index__(self):
            return self.value

    hypothesis, reference = [Index(1), Index(2)], [Index(1), Index(2)]
    expected = nltk_sentence_bleu([reference], hypothesis, weights=(1.0,))
    assert batch_sentence_bleu([[reference]], [hypothesis], weights=(1.0,)) == [expected] == [0]


def test_lists_and_arrays_reach_the_compiled_layout_as_one_type(monkeypatch):
    """numba compiles laid_out for each type it is given: a read-only array, or int64, would be another compile."""
    import numba

    from bleu_scratch import lesson10_counter, token_arrays

    given, laid_out = [], lesson10_counter.laid_out

    def recorded(numbered, *rest):
        given.append(numba.typeof(numbered))
        return laid_out(numbered, *rest)

    monkeypatch.setattr(lesson10_counter, "laid_out", recorded)
    token_arrays([[[1, 2]]], [[1, 2]])  # ids
    token_arrays([[["a", "b"]]], [["a"]])  # words
    token_arrays(np.array([[1, 2]]), np.array([[1, 2]]), pad_id=0)  # a 2-D array of ids
    assert given == [numba.typeof(np.zeros(1, np.int32))] * 3, given
