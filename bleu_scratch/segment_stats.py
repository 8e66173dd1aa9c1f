"""Lesson 11: every segment's statistics as a row of one integer table, for many systems at once.

A significance test rescores a test set thousands of times, each time from a
different choice of its segments. Lesson 06's statistics add up, so a
resample's statistics are a sum of segments' statistics, and a table with one
row per segment holds all a test needs. A row is a ``BleuStats`` laid flat:
``hyp_len, ref_len, matches..., totals..., too_short...``.

Lesson 10 counts a segment's row in Python; for 16 systems of 3,004 segments
that would be most of the time of a paired test. Here numpy counts every
segment of every system at once (this lesson is the first to use numpy: it is
what sacrebleu draws its resamples with, and its arrays turn thousands of
resamples into a few sums):

- each distinct token gets an integer id, so the systems' and the references'
  tokens become one integer array;
- an n-gram becomes one integer, its code: the code of its first n - 1 tokens
  times the vocabulary size plus its last token's id, renumbered by
  ``np.unique`` so that the codes stay small at every order;
- sorting ``(segment, code)`` keys counts each n-gram in each hypothesis and in
  each reference (``np.unique`` with counts); a hypothesis n-gram is clipped
  to its most occurrences in one reference, as in lesson 02, and the clipped
  counts of a segment are summed.

The rows equal lesson 10's ``fast_sentence_stats`` of the same tokens
(tests/lessons/test_significance.py checks it on random corpora and on WMT17).
"""

from collections.abc import Sequence
from itertools import chain

import numpy as np

from .ngrams import Token
from .sentence import BleuStats

Stream = Sequence[Sequence[Token]]  # one system's or one reference's tokens, a list per segment


def stats_row(stats: BleuStats) -> list[int]:
    """``stats`` laid flat, as a row of the table.

    >>> stats_row(BleuStats(hyp_len=3, ref_len=4, matches=(3, 1), totals=(3, 2), too_short=(0, 0)))
    [3, 4, 3, 1, 3, 2, 0, 0]
    """
    return [stats.hyp_len, stats.ref_len, *stats.matches, *stats.totals, *stats.too_short]


def row_stats(row: Sequence, single_precision: bool = False) -> BleuStats:
    """A row, or a sum of rows, back to ``BleuStats``.

    With ``single_precision`` the matches and totals are numpy float32
    numbers, as sacrebleu keeps resampled statistics: lesson 09's
    ``sacrebleu_from_stats`` then computes the precisions in float32, exactly
    where sacrebleu does.

    >>> row_stats(np.array([3, 4, 3, 1, 3, 2, 0, 0]))
    BleuStats(hyp_len=3, ref_len=4, matches=(3, 1), totals=(3, 2), too_short=(0, 0))
    """
    max_n = (len(row) - 2) // 3
    values = list(map(int, row))
    counts = np.asarray(row[2 : 2 + 2 * max_n], dtype=np.float32) if single_precision else values[2 : 2 + 2 * max_n]
    return BleuStats(values[0], values[1], tuple(counts[:max_n]), tuple(counts[max_n:]), tuple(values[2 + 2 * max_n :]))


def segment_table(systems: Sequence[Stream], references: Sequence[Stream], max_n: int = 4) -> np.ndarray:
    """The statistics of every segment of every system: an int64 array ``[system, segment, column]``.

    ``systems`` and ``references`` are streams, sacrebleu's layout: one list of
    token lists per system and per reference, all of the same length.

    >>> hyp = [["the", "cat", "the", "mat"], ["a", "dog"]]
    >>> ref = [["the", "cat", "on", "the", "mat"], ["a", "dog", "barked"]]
    >>> segment_table([hyp], [ref], max_n=2)
    array([[[4, 5, 4, 2, 4, 3, 0, 0],
            [2, 3, 2, 1, 2, 1, 0, 0]]])
    """
    streams = [*systems, *references]
    n_segments = len(references[0])
    lengths = np.array([[len(tokens) for tokens in stream] for stream in streams], dtype=np.int64)
    lengths = lengths.reshape(len(streams), n_segments)
    tokens = list(chain.from_iterable(chain.from_iterable(streams)))
    # Each distinct token's id is its place in the vocabulary, in order of first appearance.
    vocabulary = {token: number for number, token in enumerate(dict.fromkeys(tokens))}
    ids = np.fromiter(map(vocabulary.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    # For each token: its (stream, segment) group, and how many tokens its segment has from there on.
    sizes = lengths.ravel()
    group = np.repeat(np.arange(sizes.size), sizes)
    left = np.repeat(np.cumsum(sizes), sizes) - np.arange(ids.size)

    hyp_len = lengths[: len(systems)]
    table = np.zeros((len(systems), n_segments, 2 + 3 * max_n), dtype=np.int64)
    table[:, :, 0] = hyp_len
    table[:, :, 1] = closest_ref_lengths(hyp_len, lengths[len(systems) :])
    codes = ids
    for i in range(max_n):
        if i > 0:
            # Codes of the n-grams starting at each position; where a segment has too few
            # tokens left the code means nothing, and ``left`` leaves it out below.
            codes = np.unique(codes[:-1] * len(vocabulary) + ids[i:], return_inverse=True)[1].ravel()
        starts = left[: codes.size] > i
        matches = clipped_matches(group[: codes.size][starts], codes[starts], len(systems), n_segments)
        table[:, :, 2 + i] = matches.reshape(len(systems), n_segments)
        table[:, :, 2 + max_n + i] = np.maximum(hyp_len - i, 0)
        table[:, :, 2 + 2 * max_n + i] = hyp_len <= i
    return table


def closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """Lesson 04's closest reference length of each segment, ties to the shorter, for arrays.

    ``hyp_lens`` is ``[system, segment]``, ``ref_lens`` is ``[reference, segment]``.

    >>> closest_ref_lengths(np.array([[12, 13]]), np.array([[10, 10], [14, 14]]))
    array([[10, 14]])
    """
    best = np.broadcast_to(ref_lens[0], hyp_lens.shape)
    for lens in ref_lens[1:]:
        gap, best_gap = np.abs(lens - hyp_lens), np.abs(best - hyp_lens)
        best = np.where((gap < best_gap) | ((gap == best_gap) & (lens < best)), lens, best)
    return best


def clipped_matches(groups: np.ndarray, codes: np.ndarray, n_systems: int, n_segments: int) -> np.ndarray:
    """The clipped matches of every (system, segment), from the n-grams' groups and codes.

    ``groups`` numbers (stream, segment) pairs, the systems' streams first;
    an n-gram of a hypothesis counts at most as often as it occurs in one
    reference of its segment.

    Segment 0 of one system, "a a b" (codes 0 0 1), against the reference "a c" (codes 0 2):
    "a" is clipped to once, "b" has no match.

    >>> clipped_matches(np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 0, 2]), n_systems=1, n_segments=1)
    array([1])
    """
    n_codes = int(codes.max()) + 1 if codes.size else 1
    keys = groups * n_codes + codes  # (stream, segment, code), unique per n-gram and place
    in_hypothesis = groups < n_systems * n_segments
    segment_keys = n_segments * n_codes  # key % segment_keys is (segment, code): the same for every stream

    # Each reference n-gram's count, then the largest over the references of a segment.
    ref_keys, ref_counts = np.unique(keys[~in_hypothesis], return_counts=True)
    ref_keys %= segment_keys
    order = np.lexsort((ref_counts, ref_keys))
    ref_keys, ref_counts = ref_keys[order], ref_counts[order]
    last = np.ones(ref_keys.size, dtype=bool)  # the last (largest) count of each (segment, code)
    last[:-1] = ref_keys[1:] != ref_keys[:-1]
    # A last key no n-gram has, so that every search below lands on a real entry.
    ref_keys = np.append(ref_keys[last], segment_keys)
    ref_counts = np.append(ref_counts[last], 0)

    hyp_keys, hyp_counts = np.unique(keys[in_hypothesis], return_counts=True)
    found = ref_keys.searchsorted(hyp_keys % segment_keys)
    in_reference = np.where(ref_keys[found] == hyp_keys % segment_keys, ref_counts[found], 0)
    clipped = np.minimum(hyp_counts, in_reference)
    return np.bincount(hyp_keys // n_codes, weights=clipped, minlength=n_systems * n_segments).astype(np.int64)
