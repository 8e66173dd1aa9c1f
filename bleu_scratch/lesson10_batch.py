"""Lesson 10: many sentence scores at once, each the same float as ``sentence_bleu``.

Scoring every sentence of a test set, or using sentence BLEU as the reward of a
translation model in training, asks for thousands of sentence scores at a
time, often of token ids. Counted one sentence at a time, their statistics
cost a trip through Python's loops per n-gram. Here one counter,
``batch_counts``, counts the n-grams of the whole batch, given as numbers, a
row per sentence pair (``token_arrays``, lesson 10's arrays), with a loop
over each row that numba compiles to machine code (``lesson10_counter``).

The fast corpus score, the command and the significance tests (lesson 11)
count with it too. A smoothing method of lesson 07 is applied to the whole
batch by ``lesson10_smoothing``. The scores follow lesson 05's rules
(``brevity_penalty``, ``no_smoothing``'s warning, ``reweighed``,
``geometric_mean_score``) on arrays, with Python's own ``math.log``,
``math.fsum`` and ``math.exp`` where numpy's could differ in the last bit, so
every value is ``sentence_bleu``'s to the last bit.
"""

import math
from collections.abc import Sequence
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
    is_default_weights,
    max_n_of,
    weight_vectors,
)
from .lesson10_arrays import CHUNK, TokenArrays, chunked_arrays, pairs_as_lists
from .lesson10_smoothing import batch_smoothed_precisions, plain_number, smoothing_method


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
    counted = chunked_counts(list_of_references, hypotheses, max_n, pad_id, hypothesis_lengths, reference_lengths)
    return _each_stats(*counted)


@door(checks.batch, checks.highest_order)
def batch_corpus_stats(
    list_of_references: Any,
    hypotheses: Any,
    max_n: int = 4,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
    chunk: int = CHUNK,
) -> BleuStats:
    """``corpus_stats``, counted ``chunk`` sentence pairs at a time as batches (memory holds one chunk's arrays).

    Tokens may be words or integer token ids, in lists or in 2-D arrays (see ``batch_sentence_bleu``).

    >>> batch_corpus_stats([[["a", "b", "c"]], [["d", "e"]]], [["a", "b", "c"], ["d"]], max_n=2, chunk=1)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    >>> batch_corpus_stats(np.array([[1, 2, 3], [4, 5, 0]]), np.array([[1, 2, 3], [4, 0, 0]]), 2, pad_id=0)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    padding = pad_id, hypothesis_lengths, reference_lengths
    hyp_lens, ref_lens, matches = chunked_counts(list_of_references, hypotheses, max_n, *padding, chunk=chunk)
    totals = _totals(hyp_lens, max_n)
    return BleuStats(
        int(hyp_lens.sum()),
        int(ref_lens.sum()),
        tuple(matches.sum(axis=1).tolist()),
        tuple(totals.sum(axis=1).tolist()),
        tuple((totals == 0).sum(axis=1).tolist()),
    )


@door(checks.numbered_corpus, checks.weights)
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
    (padding before or after them), or the whole row. A reference row of no
    token is an empty reference, as NLTK scores ``[]``: its length 0 can set
    the brevity penalty. To give a pair fewer references than the array holds,
    repeat one of its references in the rows left: a copy changes no count and
    no length, so the score is NLTK's for the real references alone.

    >>> batch_sentence_bleu([[[1, 2, 3, 4]], [[5, 6]]], [[1, 2, 3, 4], [5, 6]], weights=(0.5, 0.5))
    [1.0, 1.0]
    >>> hypotheses = np.array([[1, 2, 3, 4], [5, 6, 0, 0]])
    >>> batch_sentence_bleu(np.array([[1, 2, 3, 4], [5, 6, 7, 0]]), hypotheses, (0.5, 0.5), pad_id=0)
    [1.0, 0.6065306597126334]
    """
    max_n, weight_list = max_n_of(weights), weight_vectors(weights)
    method = smoothing_method(smoothing_function)
    orders = method.orders(max_n) if method else max_n
    counted = chunked_counts(list_of_references, hypotheses, orders, pad_id, hypothesis_lengths, reference_lengths)
    hyp_lens, ref_lens, matches = counted
    plain = all(plain_number(w) for weight in weight_list for w in weight)
    precisions = batch_smoothed_precisions(method, matches, hyp_lens, max_n) if method and plain else None
    if precisions is None:  # a smoothing function of the user's, odd weights, or input NLTK raises on: pair by pair
        pairs = pairs_as_lists(list_of_references, hypotheses, pad_id, hypothesis_lengths, reference_lengths)
        return [
            bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, references, hypothesis)
            for stats, (references, hypothesis) in zip(_each_stats(hyp_lens, ref_lens, matches[:max_n]), pairs)
        ]
    columns = _scores(hyp_lens, ref_lens, precisions, weight_list, auto_reweigh)
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
    hyp_lens: np.ndarray, ref_lens: np.ndarray, precisions: np.ndarray, weight_list: list, auto_reweigh: bool
) -> list[list]:
    """Lesson 05's ``geometric_mean_score`` of every sentence on arrays, the same floats: a list per weight vector.

    Each precision's logarithm is Python's ``math.log``; numpy's
    products round as Python's; each sentence's weighted logs are then added by
    ``math.fsum`` and raised by ``math.exp``, as in lesson 05. A sentence with
    no unigram match scores the int 0, as NLTK's, and is never reweighed.

    >>> precisions = np.array([[0.5, 0.0], [0.25, 0.0]])  # a row per order, a column per sentence
    >>> _scores(np.array([4, 2]), np.array([4, 3]), precisions, [(0.5, 0.5)], False)  # sqrt(0.5 * 0.25), and 0
    [[0.3535533905932738, 0]]
    """
    scored = precisions[0] > 0
    bps = np.array(list(map(brevity_penalty, ref_lens.tolist(), hyp_lens.tolist())), dtype=np.float64)
    positive = precisions > 0  # NLTK skips the orders whose precision is 0
    logs = np.zeros(precisions.shape)
    logs[positive] = list(map(math.log, precisions[positive].tolist()))
    columns = []
    for weight in weight_list:
        used = positive[: len(weight)]
        weights = np.array(weight, dtype=np.float64)[:, None]
        if auto_reweigh and is_default_weights(weight):  # reweighed: 1/c on each of the c < 4 orders there are
            short = scored & (hyp_lens < 4)
            weights = np.where(short, 1 / np.maximum(hyp_lens, 1), weights)
            used = used & (~short | (np.arange(len(weight))[:, None] < hyp_lens))
        with np.errstate(all="ignore"):  # Python's floats overflow to inf quietly; numpy would warn
            weighted_logs = np.where(used, weights * logs[: len(weight)], 0.0).tolist()  # a list per order
        # zip gives each sentence's weighted logs; with no weight at all, their sum is 0.0.
        sums = map(math.fsum, zip(*weighted_logs)) if len(weight) else repeat(0.0)
        scores = bps * np.fromiter(map(math.exp, sums), np.float64, len(bps))
        columns.append([score if ok else 0 for score, ok in zip(scores.tolist(), scored.tolist())])
    return columns


def batch_counts(arrays: TokenArrays, max_n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hypothesis lengths, closest reference lengths, and clipped matches (one row per order), of every pair.

    >>> from bleu_scratch import token_arrays
    >>> arrays = token_arrays([[["the", "cat"]], [["a", "b", "c"]]], [["the", "the", "cat"], ["a", "b"]])
    >>> hyp_lens, ref_lens, matches = batch_counts(arrays, max_n=2)
    >>> hyp_lens, ref_lens, matches
    (array([3, 2]), array([2, 3]), array([[2, 2],
           [1, 1]]))
    """
    # numba is slow and large to load (docs/command-line.md, "The first call compiles"): only a process that lays
    # out or counts a batch pays for it (the command's --help and its messages on bad input do not).
    from .lesson10_counter import count_rows

    tokens, whose, hyp_lens, ref_lens, refs_per_sentence = arrays
    matches = np.zeros((max_n, len(tokens)), dtype=np.int64)
    count_rows(tokens, whose, matches)
    # The closest reference length, ties to the shorter: the smallest (distance, length).
    ref_sentence = np.repeat(np.arange(len(tokens)), refs_per_sentence)
    first_ref = np.cumsum(refs_per_sentence) - refs_per_sentence
    distance = np.abs(ref_lens - hyp_lens[ref_sentence])
    longest = int(ref_lens.max(initial=0)) + 1
    closest = np.minimum.reduceat(distance * longest + ref_lens, first_ref) % longest
    return hyp_lens, closest, matches


def chunked_counts(
    list_of_references: Any,
    hypotheses: Any,
    max_n: int,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
    chunk: int = CHUNK,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``batch_counts`` of the whole batch, counted ``chunk`` pairs (about ``CELLS`` array cells at most) at a time."""
    hyp_lens = np.zeros(len(hypotheses), np.int64)
    ref_lens = np.zeros(len(hypotheses), np.int64)
    matches = np.zeros((max_n, len(hypotheses)), np.int64)
    padding = pad_id, hypothesis_lengths, reference_lengths
    for pairs, part in chunked_arrays(list_of_references, hypotheses, chunk, *padding):
        hyp_lens[pairs], ref_lens[pairs], matches[:, pairs] = batch_counts(part, max_n)
    return hyp_lens, ref_lens, matches
