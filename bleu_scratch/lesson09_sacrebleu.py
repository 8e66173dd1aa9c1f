"""Lesson 09: BLEU as sacrebleu reports it.

sacrebleu (Post 2018) is what papers cite. From the same ``BleuStats`` it
differs from NLTK's corpus BLEU in four ways:

- it divides by the true number of n-grams (``totals``): a sentence shorter
  than n adds nothing, where NLTK counts one n-gram (``nltk_totals``);
- it reports on a 0-100 scale;
- without smoothing an order with no match makes the score 0 (NLTK: a tiny
  positive number and a warning); by default it smooths with ``'exp'``
  (mteval-v13a's rule, NLTK's method3) instead;
- it works in percentages: the mean of ``log(100 * m / t)`` with the built-in
  ``sum``, where NLTK adds ``w * log(m / t)`` with ``math.fsum``. Same maths,
  different roundings: the two agree to about 1e-15, not bit for bit.
"""

import math

from . import checks
from .checks import door
from .lesson04_brevity import brevity_penalty
from .lesson05_sentence import BleuStats

# sacrebleu's smoothing methods and their default values (Chen and Cherry 2014).
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


@door(checks.sacrebleu_options)
def sacrebleu_from_stats(
    stats: BleuStats, smooth_method: str = "exp", smooth_value: float | None = None, effective_order: bool = False
) -> float:
    """sacrebleu's BLEU (0-100) from the statistics, the same float as ``sacrebleu.corpus_bleu(...).score``.

    The defaults are sacrebleu's ``corpus_bleu``'s; its ``sentence_bleu``
    differs by ``effective_order=True`` (orders with no n-gram are left out).

    A perfect hypothesis of 3 tokens against 4 reference tokens. With all four
    orders the missing 4-grams make the score 0; with the effective order it
    is 100 * exp(1 - 4/3) = 71.65 (the BP alone):

    >>> from bleu_scratch import BleuStats
    >>> stats = BleuStats(hyp_len=3, ref_len=4, matches=(3, 2, 1, 0), totals=(3, 2, 1, 0), too_short=(0, 0, 0, 1))
    >>> sacrebleu_from_stats(stats)
    0.0
    >>> round(sacrebleu_from_stats(stats, effective_order=True), 2)
    71.65

    Half the unigrams and no bigram right: 'exp' replaces the bigram
    precision 0/3 by 1/(2 * 3), so BLEU = 100 * sqrt(2/4 * 1/6):

    >>> stats = BleuStats(hyp_len=4, ref_len=4, matches=(2, 0), totals=(4, 3), too_short=(0, 0))
    >>> import math
    >>> round(sacrebleu_from_stats(stats), 4), round(100 * math.sqrt(2 / 4 * 1 / 6), 4)
    (28.8675, 28.8675)
    """
    ### BEGIN SOLUTION
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method] or 0.0  # 'none' and 'exp' take no value
    if not any(stats.matches):
        return 0.0
    bp = brevity_penalty(stats.ref_len, stats.hyp_len)

    precisions = []  # in percent, written as sacrebleu computes them so the floats agree
    # 'exp' gives the k-th order with no match a precision of 1 / (2**k * total).
    divisor = 1.0
    correct: float
    total: float
    for n, (correct, total) in enumerate(zip(stats.matches, stats.totals), start=1):
        if smooth_method == "add-k" and n > 1:
            correct, total = correct + smooth_value, total + smooth_value
        if total == 0:
            break  # no n-gram of this order or higher in the whole corpus
        if correct == 0 and smooth_method == "exp":
            divisor *= 2
            precisions.append(100.0 / (divisor * total))
        elif correct == 0 and smooth_method == "floor":
            precisions.append(100.0 * smooth_value / total)
        else:
            precisions.append(100.0 * correct / total)

    order = len(precisions) if effective_order else stats.max_n
    # A missing order, or an unsmoothed zero precision, has log -inf: BLEU is 0.
    if len(precisions) < order or 0.0 in precisions:
        return 0.0
    return bp * math.exp(sum(math.log(p) for p in precisions) / order)
    ### END SOLUTION
