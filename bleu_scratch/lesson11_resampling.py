"""Lesson 11: resampling a test set, as sums of segments' statistics; a score's 95% interval.

A test set is one sample of the sentences a system could be asked to
translate. Bootstrap resampling (Efron 1979; Koehn 2004 for MT) asks how the
score would vary over other samples: draw as many segments as the test set
has, with replacement, score the draw, and repeat. Lesson 06's statistics add
up, so nothing needs counting again:

1. a table holds one row per segment, its ``BleuStats`` laid flat
   (``hyp_len, ref_len, matches..., totals..., too_short...``), counted for
   a whole system at once by lesson 10's batch counting (``batch_counts``, in chunks: ``chunked_counts``);
2. a draw's statistics are the sum of the chosen segments' rows, and every
   draw at once is one matrix product: how many times each draw chose each
   segment, times the table;
3. each sum is scored by lesson 09's ``sacrebleu_from_stats``.

This is where numpy earns its place: its random generator makes the same
draws as sacrebleu, and its arrays make a thousand resamples one product.
sacrebleu 2.6.0's definitions, followed here so that the numbers are its own:

- the draws come from numpy's ``default_rng(seed).choice(n_segments,
  (n_samples, n_segments))``: the same seed gives the same draws;
- sacrebleu keeps the resampled statistics as float32 numbers, so each
  precision of a resampled score is computed in float32 (``row_stats(...,
  single_precision=True)`` gives lesson 09's ``sacrebleu_from_stats`` such
  numbers). float32 holds every integer up to 2**24 exactly, so the sums are
  exact while a resample has fewer than 16,777,216 n-grams of an order;
- the interval is the 2.5th and 97.5th percentile of the resampled scores:
  with the scores sorted, the ``n // 40``-th from each end; sacrebleu prints
  half its width (``ci``) after the mean of the resampled scores.
"""

from collections.abc import Sequence

import numpy as np

from .lesson01_ngrams import Token
from .lesson05_sentence import BleuStats
from .lesson09_sacrebleu import sacrebleu_from_stats
from .lesson10_batch import chunked_counts

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
    token lists per system and per reference, all of the same length. Each row
    is ``stats_row`` of lesson 05's ``sentence_stats`` of its segment.

    >>> hyp = [["the", "cat", "the", "mat"], ["a", "dog"]]
    >>> ref = [["the", "cat", "on", "the", "mat"], ["a", "dog", "barked"]]
    >>> segment_table([hyp], [ref], max_n=2)
    array([[[4, 5, 4, 2, 4, 3, 0, 0],
            [2, 3, 2, 1, 2, 1, 0, 0]]])
    """
    list_of_references = [list(refs) for refs in zip(*references)]
    tables = []
    for hypotheses in systems:
        hyp_lens, ref_lens, matches = chunked_counts(list_of_references, hypotheses, max_n)
        totals = np.maximum(hyp_lens - np.arange(max_n)[:, None], 0)
        tables.append(np.column_stack([hyp_lens, ref_lens, matches.T, totals.T, totals.T == 0]))
    return np.stack(tables)


def bootstrap_draws(n_segments: int, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """``n_samples`` draws of ``n_segments`` segment numbers each, with replacement.

    >>> bootstrap_draws(5, 2, np.random.default_rng(12345))
    array([[3, 1, 3, 1, 1],
           [3, 3, 3, 4, 1]])
    """
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def draw_counts(draws: np.ndarray, n_segments: int) -> np.ndarray:
    """How many times each draw chose each segment: ``[draw, segment]``.

    >>> draw_counts(np.array([[3, 1, 3, 1, 1], [3, 3, 3, 4, 1]]), 5)
    array([[0, 3, 0, 2, 0],
           [0, 1, 0, 3, 1]])
    """
    offsets = np.arange(len(draws))[:, None] * n_segments
    return np.bincount((draws + offsets).ravel(), minlength=len(draws) * n_segments).reshape(len(draws), n_segments)


def resampled_stats(counts: np.ndarray, table: np.ndarray, chunk: int = 1000) -> np.ndarray:
    """The statistics of every draw: ``counts @ table``, one row per draw.

    ``counts`` is ``[draw, segment]``: how many times each draw takes each
    segment (for approximate randomization, 1 or 0). ``table`` is
    ``[segment, column]``, or ``[system, segment, column]`` for several systems
    at once, which gives ``[system, draw, column]``. The product runs in
    float64, numpy's fastest (BLAS), and is exact: every value and every partial
    sum is an integer far below 2**53. ``chunk`` draws at a time keep the
    float64 copy of ``counts`` small.

    >>> table = np.array([[3, 4, 3, 1, 3, 2, 0, 0], [2, 3, 2, 1, 2, 1, 0, 0]])
    >>> resampled_stats(np.array([[2, 0], [1, 1]]), table)
    array([[6, 8, 6, 2, 6, 4, 0, 0],
           [5, 7, 5, 2, 5, 3, 0, 0]])
    """
    # Every system's columns side by side, [segment, system * column]: one large product is faster than many thin ones.
    columns = np.moveaxis(table, -2, 0).reshape(table.shape[-2], -1).astype(np.float64)
    sums = np.concatenate(
        [counts[start : start + chunk].astype(np.float64) @ columns for start in range(0, len(counts), chunk)]
    )
    return np.moveaxis(sums.reshape(len(counts), *table.shape[:-2], table.shape[-1]), 0, -2).astype(np.int64)


def resampled_scores(stats: np.ndarray, single_precision: bool = True) -> np.ndarray:
    """sacrebleu's BLEU of each row of resampled statistics (lesson 09's ``sacrebleu_from_stats``).

    ``stats`` is ``[..., draw, column]``; the scores are ``[..., draw]``.
    Precisions in float32 (``single_precision``, as sacrebleu scores a
    bootstrap resample) change the score from the 8th digit on:

    >>> rows = np.array([[4, 4, 4, 3, 4, 3, 0, 0], [4, 4, 2, 0, 4, 3, 0, 0]])
    >>> resampled_scores(rows), resampled_scores(rows, single_precision=False)
    (array([100.        ,  28.86751291]), array([100.        ,  28.86751346]))
    """
    # Rows as lists of Python ints: reading numpy's rows number by number is slower.
    rows = stats.reshape(-1, stats.shape[-1]).tolist()
    return np.array([sacrebleu_from_stats(row_stats(row, single_precision)) for row in rows]).reshape(stats.shape[:-1])


def bootstrap_interval(scores: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The mean of the resampled scores and their 95% interval ``(low, high)``.

    Of 1,000 sorted scores, the 26th from the bottom (index 25) and from the
    top (index 974): 25 scores, 2.5%, lie beyond each end.

    >>> bootstrap_interval(np.arange(1000.0))
    (499.5, (25.0, 974.0))
    """
    ordered = np.sort(scores)
    beyond = len(ordered) // 40
    # The mean of the sorted scores, as sacrebleu takes it: numpy's pairwise sum depends on the order.
    return float(ordered.mean()), (float(ordered[beyond]), float(ordered[len(ordered) - beyond - 1]))
