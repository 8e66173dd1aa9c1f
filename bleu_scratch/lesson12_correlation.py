"""Lesson 12: how far a metric agrees with human judgement: Pearson's r, Kendall's tau and the pairs they disagree on.

WMT's metrics task judges a metric by how its scores for the systems of one
language pair correlate with the humans' scores for the same systems:

- Pearson's r measures how well a straight line through the points fits:
  +1 when one score is an exact increasing linear function of the other,
  0 when there is no linear trend. One far-off system can move it a lot.
- Kendall's tau compares rankings only: over all pairs of systems, the share
  the metric orders as the humans do minus the share it orders the other
  way. This is tau-b, which divides by the pairs that are not tied (scipy's
  default); without ties it is tau-a, (concordant - discordant) / pairs.
- ``discordant_pairs`` names the pairs tau loses on: which systems the
  metric ranks the other way round from the humans.

A lower-is-better metric (TER, WER) correlates negatively with human scores
where a higher-is-better one (BLEU, chrF) correlates positively.
"""

import math
from collections.abc import Sequence
from itertools import combinations

from . import checks
from .checks import door


@door(checks.paired_scores)
def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation coefficient of two equally long lists of scores.

    The covariance of the two lists divided by the product of their standard
    deviations, all three from the deviations of each value from its list's mean:

    >>> pearson([1, 2, 3], [2, 4, 6]), pearson([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 4)  # covariance 4 / sqrt(5 * 5)
    0.8
    """
    ### BEGIN SOLUTION
    mean_x, mean_y = math.fsum(xs) / len(xs), math.fsum(ys) / len(ys)
    dx = [x - mean_x for x in xs]
    dy = [y - mean_y for y in ys]
    covariance = math.fsum(a * b for a, b in zip(dx, dy))
    return covariance / math.sqrt(math.fsum(a * a for a in dx) * math.fsum(b * b for b in dy))
    ### END SOLUTION


@door(checks.paired_scores)
def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b: (concordant - discordant) / sqrt(pairs not tied in xs * pairs not tied in ys).

    A pair of items is concordant when both lists order it the same way,
    discordant when they order it opposite ways. Of the 6 pairs of
    ``[1, 2, 3, 4]`` and ``[1, 3, 2, 4]`` only (2, 3) is discordant:
    (5 - 1) / 6.

    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 4)
    0.6667

    A pair tied in one list is neither; tau-b leaves it out of that list's count:

    >>> round(kendall_tau([1, 2, 2], [1, 2, 3]), 4)  # 2 concordant, (2 - 0) / sqrt(2 * 3)
    0.8165
    """
    ### BEGIN SOLUTION
    concordant = discordant = untied_x = untied_y = 0
    for i, j in combinations(range(len(xs)), 2):
        order_x = (xs[i] > xs[j]) - (xs[i] < xs[j])
        order_y = (ys[i] > ys[j]) - (ys[i] < ys[j])
        untied_x += order_x != 0
        untied_y += order_y != 0
        concordant += order_x * order_y > 0
        discordant += order_x * order_y < 0
    return (concordant - discordant) / math.sqrt(untied_x * untied_y)
    ### END SOLUTION


@door(checks.paired_scores_to_compare)
def discordant_pairs(xs: Sequence[float], ys: Sequence[float]) -> list[tuple[int, int]]:
    """The pairs of positions ``(i, j)``, ``i < j``, that ``xs`` and ``ys`` order opposite ways.

    >>> discordant_pairs([1, 2, 3, 4], [1, 3, 2, 4])
    [(1, 2)]
    """
    return [(i, j) for i, j in combinations(range(len(xs)), 2) if (xs[i] - xs[j]) * (ys[i] - ys[j]) < 0]
