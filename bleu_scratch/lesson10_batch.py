"""Lesson 10: many sentence scores at once, each the same float as ``sentence_bleu``.

Scoring every sentence of a test set, or using sentence BLEU as the reward of a
translation model in training, asks for thousands of sentence scores at a
time, often of token ids. Counted one sentence at a time, their statistics
cost a trip through Python's loops per n-gram. Here one counter,
``batch_counts``, counts the n-grams of the whole batch at once with numpy,
on the batch as numbers (``token_arrays``, lesson 10's arrays):

1. for each order n, every n-gram of the batch gets a key: the number of its
   sentence and first n - 1 tokens, then its last token;
2. ``ngram_dictionary`` (``np.unique`` with ``return_inverse``) turns the keys
   into the batch's dictionary of n-grams: each distinct one gets a small
   number, 0, 1, 2, ...;
3. one ``np.bincount`` counts each n-gram in each text (the hypothesis and
   every reference); clipping is the hypothesis's count limited by the
   largest reference count, and a sentence's matches are the sum over its
   n-grams (another ``np.bincount``);
4. only an n-gram found in the hypothesis and in a reference can begin a
   longer match: the others drop out, and each n-gram's dictionary number is
   the prefix number of the next order's keys.

The fast corpus score, the command and the significance tests (lesson 11)
count with it too. A smoothing method of lesson 07 is applied to the whole
batch by ``lesson10_smoothing``. Each sentence is then scored by lesson 05's rules
(``brevity_penalty``, ``no_smoothing``'s warning, ``reweighed``,
``geometric_mean_score``) with Python's own floating-point functions, so every
value is ``sentence_bleu``'s to the last bit (numpy's logarithm may differ
from the C library's in the last bit, so it is not used for the score).
"""

from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson04_brevity import brevity_penalty
from .lesson05_sentence import (
    DEFAULT_WEIGHTS,
    BleuStats,
    Score,
    Smoothing,
    Weights,
    bleu_from_stats,
    geometric_mean_score,
    max_n_of,
    reweighed,
    weight_vectors,
)
from .lesson10_arrays import TokenArrays, token_arrays, tokens_mask
from .lesson10_smoothing import batch_smoothed_precisions, smoothing_method

# Sentence pairs counted at a time: enough for numpy to work on long arrays, few enough that
# a chunk's arrays stay small (they grow with its tokens, and its counts with the most
# references one sentence has).
CHUNK = 5_000


@door(checks.batch, checks.highest_order)
def batch_sentence_stats(
    list_of_references: Any,
    hypotheses: Any,
    max_n: int = 4,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
) -> list[BleuStats]:
    """Each sentence pair's ``sentence_stats``, counted for the whole batch at once.

    Tokens may be words or integer token ids, in lists or in 2-D arrays (see
    ``batch_sentence_bleu``).

    >>> list_of_references = [["the cat is on the mat".split()], [[1, 2, 3]]]
    >>> words, ids = batch_sentence_stats(list_of_references, ["the the the".split(), [1, 2, 4]], 2)
    >>> words
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    >>> ids
    BleuStats(hyp_len=3, ref_len=3, matches=(2, 1), totals=(3, 2), too_short=(0, 0))
    """
    counted = _counts_by_chunk(list_of_references, hypotheses, max_n, pad_id, hypothesis_lengths, reference_lengths)
    return _each_stats(*counted)


@door(checks.corpus, checks.highest_order)
def batch_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    max_n: int = 4,
    chunk: int = CHUNK,
) -> BleuStats:
    """``corpus_stats``, counted ``chunk`` sentence pairs at a time as batches (memory holds one chunk's arrays).

    >>> batch_corpus_stats([[["a", "b", "c"]], [["d", "e"]]], [["a", "b", "c"], ["d"]], max_n=2, chunk=1)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    hyp_lens, ref_lens, matches = _counts_by_chunk(list_of_references, hypotheses, max_n, chunk=chunk)
    totals = _totals(hyp_lens, max_n)
    return BleuStats(
        int(hyp_lens.sum()),
        int(ref_lens.sum()),
        tuple(matches.sum(axis=1).tolist()),
        tuple(totals.sum(axis=1).tolist()),
        tuple((totals == 0).sum(axis=1).tolist()),
    )


@door(checks.corpus, checks.weights)
def fast_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """Lesson 06's ``corpus_bleu`` on statistics counted as batches: the same value, faster.

    >>> hyp1, hyp2 = "the cat sat on the mat".split(), "a dog".split()
    >>> refs1, refs2 = ["the cat sat on the mat".split()], ["a dog barked".split()]
    >>> round(fast_corpus_bleu([refs1, refs2], [hyp1, hyp2], weights=(0.5, 0.5)), 4)
    0.8825
    """
    ### BEGIN SOLUTION
    stats = batch_corpus_stats(list_of_references, hypotheses, max_n_of(weights))
    # Smoothing methods 5-7 read the last sentence pair, as NLTK's do.
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, list_of_references[-1], hypotheses[-1])
    ### END SOLUTION


@door(checks.batch, checks.weights)
def batch_sentence_bleu(
    list_of_references: Any,
    hypotheses: Any,
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
) -> list:
    """``sentence_bleu(references, hypothesis, ...)`` of every pair, with the same warnings, counted as one batch.

    Tokens may be words or integer token ids, in lists as ``corpus_bleu``
    takes them, or, as a training loop holds a batch, in 2-D integer arrays:
    ``hypotheses`` of shape (batch, length), ``list_of_references`` of shape
    (batch, references, length), or (batch, length) for one reference each.
    A row's tokens are its first ``hypothesis_lengths`` (``reference_lengths``:
    shape (batch,) or (batch, references)), or those that are not ``pad_id``
    (padding before or after them), or the whole row.

    >>> batch_sentence_bleu([[[1, 2, 3, 4]], [[5, 6]]], [[1, 2, 3, 4], [5, 6]], weights=(0.5, 0.5))
    [1.0, 1.0]
    >>> hypotheses = np.array([[1, 2, 3, 4], [5, 6, 0, 0]])
    >>> batch_sentence_bleu(np.array([[1, 2, 3, 4], [5, 6, 7, 0]]), hypotheses, (0.5, 0.5), pad_id=0)
    [1.0, 0.6065306597126334]
    """
    max_n, weight_list = max_n_of(weights), weight_vectors(weights)
    method = smoothing_method(smoothing_function)
    orders = method.orders(max_n) if method else max_n
    counted = _counts_by_chunk(list_of_references, hypotheses, orders, pad_id, hypothesis_lengths, reference_lengths)
    hyp_lens, ref_lens, matches = counted
    p_rows = batch_smoothed_precisions(method, matches, hyp_lens, max_n) if method else None
    if p_rows is None:  # a smoothing function of the user's, or input it raises on: pair by pair, as NLTK
        pairs = _pairs_as_lists(list_of_references, hypotheses, pad_id, hypothesis_lengths, reference_lengths)
        return [
            bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, references, hypothesis)
            for stats, (references, hypothesis) in zip(_each_stats(hyp_lens, ref_lens, matches[:max_n]), pairs)
        ]
    scored = (matches[0] > 0).tolist()  # with no unigram match the score is the int 0, and nothing warns
    columns = _scores(hyp_lens.tolist(), ref_lens.tolist(), p_rows, scored, weight_list, auto_reweigh)
    # Like NLTK, a list of several weight vectors gives a list of scores per sentence.
    return [list(scores) for scores in zip(*columns)] if len(weight_list) > 1 else columns[0]


def _totals(hyp_lens: np.ndarray, max_n: int) -> np.ndarray:
    """How many n-grams of each order (a row each) every hypothesis has: its length - n + 1, at least 0."""
    return np.maximum(hyp_lens - np.arange(max_n)[:, None], 0)


def _each_stats(hyp_lens: np.ndarray, ref_lens: np.ndarray, matches: np.ndarray) -> list[BleuStats]:
    """Each sentence's ``BleuStats`` from the batch's counts (``matches``: a row per order)."""
    totals = _totals(hyp_lens, len(matches))
    return [
        BleuStats(hyp_len, ref_len, tuple(m), tuple(t), tuple(int(total == 0) for total in t))
        for hyp_len, ref_len, m, t in zip(hyp_lens.tolist(), ref_lens.tolist(), matches.T.tolist(), totals.T.tolist())
    ]


def _scores(
    hyp_lens: list[int],
    ref_lens: list[int],
    p_rows: list[list],
    scored: list[bool],
    weight_list: list,
    auto_reweigh: bool,
) -> list[list]:
    """``bleu_from_stats`` of every sentence from its smoothed precisions, a list of scores per weight vector.

    A sentence with no unigram match (not ``scored``) scores the int 0, as NLTK's.
    """
    bps = list(map(brevity_penalty, ref_lens, hyp_lens))
    columns = []
    for weight in weight_list:
        # A sentence with no unigram match is never reweighed: NLTK returns 0 before that rule.
        weights: Iterable[Sequence[float]] = (
            [reweighed(weight, hyp_len, True) if ok else weight for hyp_len, ok in zip(hyp_lens, scored)]
            if auto_reweigh
            else repeat(weight)
        )
        column = map(geometric_mean_score, p_rows, weights, bps)
        columns.append([score if ok else 0 for score, ok in zip(column, scored)])
    return columns


def batch_counts(arrays: TokenArrays, max_n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hypothesis lengths, closest reference lengths, and clipped matches (one row per order), of every pair.

    >>> arrays = token_arrays([[["the", "cat"]], [["a", "b", "c"]]], [["the", "the", "cat"], ["a", "b"]])
    >>> hyp_lens, ref_lens, matches = batch_counts(arrays, max_n=2)
    >>> hyp_lens, ref_lens, matches
    (array([3, 2]), array([2, 3]), array([[2, 2],
           [1, 1]]))
    """
    ### BEGIN SOLUTION
    tokens, hyp_lens, ref_lens, refs_per_sentence, vocabulary = arrays
    sentences = len(hyp_lens)
    ref_sentence = np.repeat(np.arange(sentences), refs_per_sentence)
    first_ref = np.cumsum(refs_per_sentence) - refs_per_sentence
    # Each text is a hypothesis (whose = 0) or its sentence's reference r (whose = r + 1).
    text_lens = np.concatenate([hyp_lens, ref_lens])
    text_sentence = np.concatenate([np.arange(sentences), ref_sentence])
    text_whose = np.concatenate([np.zeros(sentences, np.int64), np.arange(len(ref_lens)) - first_ref[ref_sentence] + 1])
    whose = np.repeat(text_whose, text_lens)  # for every token of the batch
    room = np.repeat(np.cumsum(text_lens), text_lens) - np.arange(len(tokens))  # tokens from here to its text's end
    texts = int(text_whose.max(initial=0)) + 1

    matches = np.zeros((max_n, sentences), dtype=np.int64)
    start = np.arange(len(tokens))  # where each n-gram still in the running starts
    prefix = np.repeat(text_sentence, text_lens)  # the number of its sentence and first n - 1 tokens
    sentence_of = np.arange(sentences)  # the sentence of each prefix number
    for n in range(1, max_n + 1):
        if n > 1:
            fits = room[start] >= n  # an n-gram ends in the text it starts in
            start, prefix = start[fits], prefix[fits]
        # The batch's dictionary of n-grams: each distinct (prefix, last token) numbered 0, 1, 2, ...
        distinct, ngram = ngram_dictionary(prefix * vocabulary + tokens[start + n - 1])
        sentence_of = sentence_of[distinct // vocabulary]
        # How often each text has each n-gram: one bincount, a row per whose.
        counts = np.bincount(whose[start] * len(distinct) + ngram, minlength=texts * len(distinct))
        counts = counts.reshape(texts, len(distinct))
        clipped = np.minimum(counts[0], counts[1:].max(axis=0, initial=0))
        matches[n - 1] = np.bincount(sentence_of, weights=clipped, minlength=sentences)
        # Only an n-gram in the hypothesis and in a reference can begin a longer match.
        keep = (clipped > 0)[ngram]
        start, prefix = start[keep], ngram[keep]

    # The closest reference length, ties to the shorter: the smallest (distance, length).
    distance = np.abs(ref_lens - hyp_lens[ref_sentence])
    longest = int(ref_lens.max(initial=0)) + 1
    closest = np.minimum.reduceat(distance * longest + ref_lens, first_ref) % longest
    return hyp_lens, closest, matches
    ### END SOLUTION


def ngram_dictionary(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)``: the distinct keys, sorted, and each key's number among them.

    The same, in about half the time: ``np.unique`` sorts the positions by
    key (``argsort``); here each key and its position are one number, the key
    in the high bits and the position in the low ones, and ``np.sort`` sorts
    those numbers, as fast as it sorts plain integers. Other keys (negative,
    not int64, or too wide for that) go to ``np.unique``.

    >>> ngram_dictionary(np.array([30, 10, 30, 20]))
    (array([10, 20, 30]), array([2, 0, 2, 1]))
    """
    position_bits = max(len(keys) - 1, 1).bit_length()
    if keys.dtype != np.int64 or keys.min(initial=0) < 0 or int(keys.max(initial=0)).bit_length() + position_bits > 63:
        return np.unique(keys, return_inverse=True)
    packed = np.sort(keys << position_bits | np.arange(len(keys)))
    sorted_keys = packed >> position_bits
    first = np.ones(len(keys), dtype=bool)  # where a new key starts in the sorted list
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=first[1:])
    numbers = np.empty(len(keys), dtype=np.int64)
    numbers[packed & ((1 << position_bits) - 1)] = np.cumsum(first) - 1
    return sorted_keys[first], numbers


def _counts_by_chunk(
    list_of_references: Any,
    hypotheses: Any,
    max_n: int,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
    chunk: int = CHUNK,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``batch_counts`` of the whole batch, counted ``chunk`` pairs at a time (memory holds one chunk's arrays)."""

    def rows(lengths: Any, start: int) -> Any:
        return None if lengths is None else lengths[start : start + chunk]

    parts = [
        batch_counts(
            token_arrays(
                list_of_references[start : start + chunk],
                hypotheses[start : start + chunk],
                pad_id,
                rows(hypothesis_lengths, start),
                rows(reference_lengths, start),
            ),
            max_n,
        )
        for start in range(0, len(hypotheses), chunk)
    ]
    if len(parts) == 1:
        return parts[0]
    hyp_lens, ref_lens, matches = zip(*parts)
    return np.concatenate(hyp_lens), np.concatenate(ref_lens), np.concatenate(matches, axis=1)


def _pairs_as_lists(
    list_of_references: Any, hypotheses: Any, pad_id: int | None, hypothesis_lengths: Any, reference_lengths: Any
) -> Iterable[tuple[list, list]]:
    """Each pair as ``sentence_bleu`` takes it, for a smoothing function that reads the tokens: array rows as lists."""
    if not isinstance(hypotheses, np.ndarray):
        return zip(list_of_references, hypotheses)
    references = list_of_references[:, None] if list_of_references.ndim == 2 else list_of_references
    hyp_mask = tokens_mask(hypotheses, pad_id, hypothesis_lengths)
    ref_mask = tokens_mask(references, pad_id, reference_lengths)
    return (
        ([reference[mask].tolist() for reference, mask in zip(*refs)], hypothesis[mask].tolist())
        for hypothesis, mask, *refs in zip(hypotheses, hyp_mask, references, ref_mask)
    )
