"""Lesson 10: many sentence scores at once, each the same float as ``sentence_bleu``.

Scoring every sentence of a test set, or using sentence BLEU as the reward of a
translation model in training, asks for thousands of sentence scores at a
time, often of token ids. Counted one sentence at a time, their statistics
cost a trip through Python's loops per n-gram. Here one counter,
``batch_counts``, counts the n-grams of the whole batch at once with numpy,
on the batch as numbers, a row per sentence pair (``token_arrays``, lesson
10's arrays):

1. sorting each row puts equal tokens side by side: the hypothesis's first,
   then each reference's (``np.sort`` of each token with its column);
2. in the sorted row, a run of one token in the hypothesis is followed by
   its runs in the references (``runs``): its clipped count is its length
   limited by the longest of those (``most_in_a_reference``), and a
   sentence's matches are the sum over its row (``np.bincount``);
3. the tokens a row's hypothesis shares with a reference are numbered 0, 1,
   2, ... (``numbered_in_rows``), the others -1: an n-gram is then one
   integer, its tokens' numbers side by side, negative if any token matches
   nothing;
4. for each order, only the n-grams whose every token matches are sorted,
   and counted as the tokens were.

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


@door(checks.numbered_corpus, checks.highest_order)
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
    hyp_lens, ref_lens, matches = chunked_counts(list_of_references, hypotheses, max_n, chunk=chunk)
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
    ### BEGIN SOLUTION
    tokens, whose, hyp_lens, ref_lens, refs_per_sentence = arrays
    pairs, columns = tokens.shape
    refs = int(whose[-1])
    whose_bits, column_bits = refs.bit_length(), columns.bit_length()
    matches = np.zeros((max_n, pairs), dtype=np.int64)
    ngrams, bits = tokens, int(tokens.max(initial=0)).bit_length()  # the n-gram at each column as one number
    token_numbers, token_bits = tokens, bits
    orders = min(max_n, columns)  # an n-gram wider than the rows is in no row: the orders past them match nothing
    for n in range(1, orders + 1):
        if n > 1:  # an n-gram: the (n-1)-gram at its column, then its last token's number
            ngrams = (ngrams[:, :-1] << token_bits) | token_numbers[:, n - 1 :]
            bits += token_bits
        # Tokens get numbers, and so do n-grams the next order might not extend within 63 bits (the test
        # counts the column's bits too, so that the next order can still be numbered if it must).
        numbered = n == 1 or (n < orders and bits + token_bits + whose_bits + column_bits > 62)
        if numbered:  # sorted with their columns, to number them where they are
            keys = np.sort(narrow((ngrams << column_bits) | np.arange(ngrams.shape[1]), bits + column_bits), axis=1)
            columns_of = keys & ((1 << column_bits) - 1)
            values = ((keys >> column_bits) << whose_bits) | whose[columns_of]
        else:  # only the n-grams whose every token matches, each row's side by side
            values = np.sort(compacted((ngrams << whose_bits) | whose[: ngrams.shape[1]], bits + whose_bits), axis=1)
        # Sorted, each row has its equal n-grams side by side: the hypothesis's, then each reference's.
        starts, lengths, values_of_runs, hyp = runs(values, whose_bits)
        clipped = np.minimum(lengths[hyp], most_in_a_reference(lengths, values_of_runs, hyp, refs))
        matches[n - 1] = np.bincount(starts[hyp] // values.shape[1], weights=clipped, minlength=pairs)
        if numbered and n < orders:
            shared = hyp[clipped > 0]
            row_of_shared = starts[shared] // values.shape[1]
            ngrams = numbered_in_rows(row_of_shared, shared, lengths, values_of_runs, refs, columns_of)
            bits = int(ngrams.max(initial=0)).bit_length()
            if n == 1:
                token_numbers, token_bits = ngrams, bits

    # The closest reference length, ties to the shorter: the smallest (distance, length).
    ref_sentence = np.repeat(np.arange(pairs), refs_per_sentence)
    first_ref = np.cumsum(refs_per_sentence) - refs_per_sentence
    distance = np.abs(ref_lens - hyp_lens[ref_sentence])
    longest = int(ref_lens.max(initial=0)) + 1
    closest = np.minimum.reduceat(distance * longest + ref_lens, first_ref) % longest
    return hyp_lens, closest, matches
    ### END SOLUTION


def narrow(keys: np.ndarray, bits: int) -> np.ndarray:
    """The keys as int32 if they fit (numpy sorts those faster than int64), else as they are."""
    return keys.astype(np.int32) if bits < 32 else keys


def compacted(keys: np.ndarray, bits: int) -> np.ndarray:
    """The keys that are not negative, each row's to its left, then -1 (at least one, to start the row once sorted)."""
    kept = keys >= 0
    counts = kept.sum(axis=1)
    rows = np.full((len(keys), int(counts.max(initial=0)) + 1), -1, dtype=np.int32 if bits < 32 else np.int64)
    rows[np.arange(rows.shape[1]) < counts[:, None]] = keys[kept]
    return rows


def runs(ordered: np.ndarray, whose_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The runs of equal values in sorted rows: where each starts (in the flat array), its length, its n-gram
    (negative for none), and which runs are the hypothesis's (whose 0) that a run of a reference may follow.

    A row's first run holds no n-gram (its first column does not), so no run joins the next row's.

    >>> runs(np.array([[-1, 4, 4, 5, 8], [-1, 4, 5, 5, 5]]), whose_bits=1)  # n-gram 2: twice in the first hypothesis
    (array([0, 1, 3, 4, 5, 6, 7]), array([1, 2, 1, 1, 1, 1, 3]), array([-1,  2,  2,  4, -1,  2,  2]), array([1, 3, 5]))
    """
    flat = ordered.ravel()
    first = np.empty(flat.size, dtype=bool)
    first[:1] = True
    np.not_equal(flat[1:], flat[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    values = flat[starts]
    hyp = np.flatnonzero((values[:-1] & ((1 << whose_bits) - 1) == 0) & (values[:-1] >= 0))
    return starts, np.append(starts[1:], flat.size) - starts, values >> whose_bits, hyp


def most_in_a_reference(lengths: np.ndarray, ngrams: np.ndarray, hyp: np.ndarray, refs: int) -> np.ndarray:
    """For each run of the hypothesis, its n-gram's longest run in one reference: the runs after it of the same n-gram.

    A run of the hypothesis is never the last run (``runs``), so the runs after it are never itself.
    """
    most = np.zeros(len(hyp), dtype=np.int64)
    same = np.ones(len(hyp), dtype=bool)  # the runs so far hold the same n-gram (a run of another ends them)
    for r in range(1, refs + 1):
        after = np.minimum(hyp + r, len(lengths) - 1)
        same &= ngrams[after] == ngrams[hyp]
        most = np.maximum(most, np.where(same, lengths[after], 0))
    return most


def numbered_in_rows(
    row_of_shared: np.ndarray,
    shared: np.ndarray,
    lengths: np.ndarray,
    ngrams: np.ndarray,
    refs: int,
    places: np.ndarray,
) -> np.ndarray:
    """Each column's number among the n-grams its row's hypothesis shares with a reference (0, 1, 2, ...), else -1.

    ``shared``: the runs of those n-grams in the hypothesis, in rows ``row_of_shared``;
    ``places``: the column each sorted value came from.
    """
    # The shared runs are in row order: each one's number is its place minus its row's first place.
    first_of_row = np.searchsorted(row_of_shared, np.arange(len(places)))
    number = np.arange(len(shared)) - first_of_row[row_of_shared]
    run_number = np.full(len(lengths), -1, dtype=np.int64)
    run_number[shared] = number
    same = np.ones(len(shared), dtype=bool)
    for r in range(1, refs + 1):  # the references' runs of the same n-gram, right after it, get its number too
        after = np.minimum(shared + r, len(lengths) - 1)
        same &= ngrams[after] == ngrams[shared]
        run_number[after[same]] = number[same]
    numbers = np.empty(places.size, dtype=np.int64)
    row_starts = np.arange(0, places.size, places.shape[1])[:, None]
    numbers[(places + row_starts).ravel()] = np.repeat(run_number, lengths)
    return numbers.reshape(places.shape)


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
