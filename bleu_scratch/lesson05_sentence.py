"""Lesson 05: the sentence score.

BLEU = BP * exp(sum_n w_n * log p_n): the brevity penalty times the weighted
geometric mean of the modified precisions. A sentence is summarised by a few
integers (its ``BleuStats``), and the score is computed from those, so the
corpus score of lesson 06 can reuse the same code on summed statistics.
"""

import functools
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import checks
from .checks import door
from .lesson01_ngrams import Token, count_ngrams
from .lesson02_clipping import clipped_counts, max_reference_counts
from .lesson03_precision import Precision
from .lesson04_brevity import brevity_penalty, closest_ref_length

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
# NLTK's ``weights``: one weight per n-gram order, or a list of such vectors (which gives a list of scores).
Weights = Sequence[float] | Sequence[Sequence[float]]
# A score: a float (the int 0 when no unigram matches), or a list of them for a list of weight vectors.
Score = float | list[float]
# A smoothing method, as NLTK's SmoothingFunction has them: the precisions in, the values to score out.
Smoothing = Callable[..., list[Any]]

# NLTK's warning, word for word, for an order with no match.
ZERO_ORDER_WARNING = (
    "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
    "Therefore the BLEU score evaluates to 0, independently of\n"
    "how many N-gram overlaps of lower order it contains.\n"
    "Consider using lower n-gram order or use SmoothingFunction()"
)


@dataclass(frozen=True)
class BleuStats:
    """The sufficient statistics of BLEU: integers that add up across sentences.

    ``matches[i]`` and ``totals[i]`` are the clipped matches and the number of
    hypothesis n-grams of order ``i + 1``; ``too_short[i]`` counts the sentences
    with no n-gram of that order. NLTK counts such a sentence as having one
    n-gram (``nltk_totals``); the BLEU paper and sacrebleu use ``totals``.

    >>> a = BleuStats(hyp_len=3, ref_len=4, matches=(3, 1), totals=(3, 2), too_short=(0, 0))
    >>> b = BleuStats(hyp_len=1, ref_len=1, matches=(1, 0), totals=(1, 0), too_short=(0, 1))
    >>> a + b
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 1), totals=(4, 2), too_short=(0, 1))
    >>> (a + b).nltk_totals
    (4, 3)
    """

    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    too_short: tuple[int, ...]

    @property
    def max_n(self) -> int:
        return len(self.matches)

    @property
    def nltk_totals(self) -> tuple[int, ...]:
        return tuple(map(int.__add__, self.totals, self.too_short))

    @classmethod
    def zero(cls, max_n: int) -> "BleuStats":
        """The statistics of an empty corpus, the start of a sum."""
        return cls(0, 0, (0,) * max_n, (0,) * max_n, (0,) * max_n)

    def __add__(self, other: "BleuStats") -> "BleuStats":
        if other.max_n != self.max_n:
            raise ValueError(f"cannot add statistics of max_n={self.max_n} and max_n={other.max_n}")
        return BleuStats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            tuple(map(int.__add__, self.matches, other.matches)),
            tuple(map(int.__add__, self.totals, other.totals)),
            tuple(map(int.__add__, self.too_short, other.too_short)),
        )


@door(checks.sentence_pair, checks.highest_order)
def sentence_stats(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], max_n: int = 4) -> BleuStats:
    """Count what BLEU needs to know about one sentence pair.

    >>> sentence_stats(["the cat is on the mat".split()], "the the the".split(), max_n=2)
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    """
    ### BEGIN SOLUTION
    matches, totals = [], []
    for n in range(1, max_n + 1):
        counts = count_ngrams(hypothesis, n)
        clipped = clipped_counts(counts, max_reference_counts(references, n))
        matches.append(sum(clipped.values()))
        totals.append(sum(counts.values()))
    hyp_len = len(hypothesis)
    return BleuStats(
        hyp_len=hyp_len,
        ref_len=closest_ref_length(references, hyp_len),
        matches=tuple(matches),
        totals=tuple(totals),
        too_short=tuple(int(total == 0) for total in totals),
    )
    ### END SOLUTION


def weight_vectors(weights: Weights) -> list[Sequence[float]]:
    """Read ``weights`` as NLTK does: one weight vector, or a list of them.

    >>> weight_vectors((0.5, 0.5))
    [(0.5, 0.5)]
    >>> weight_vectors([(1.0,), (0.5, 0.5)])
    [(1.0,), (0.5, 0.5)]
    """
    # NLTK asks whether weights[0][0] exists. A number, the usual first weight, has no
    # items at all: that is answered without raising an exception, which costs more.
    try:
        if not hasattr(weights[0], "__getitem__"):
            return [weights]  # type: ignore[list-item]
        weights[0][0]  # type: ignore[index]
    except (TypeError, IndexError):
        return [weights]  # type: ignore[list-item]
    return list(weights)  # type: ignore[arg-type]


def max_n_of(weights: Weights) -> int:
    """The highest n-gram order any weight vector needs.

    >>> max_n_of([(1.0,), (0.25, 0.25, 0.25, 0.25)])
    4
    """
    return max(len(weight) for weight in weight_vectors(weights))


def is_default_weights(weight: object) -> bool:
    """Whether NLTK's ``auto_reweigh`` would treat ``weight`` as the default weights.

    NLTK tests ``weight == (0.25, 0.25, 0.25, 0.25)``: true for that tuple (or
    a namedtuple of it), false for a list. For a numpy array the test has no
    single truth value and NLTK crashes; we answer false, as for a list.

    >>> is_default_weights((0.25, 0.25, 0.25, 0.25)), is_default_weights([0.25, 0.25, 0.25, 0.25])
    (True, False)
    """
    try:
        return bool(weight == DEFAULT_WEIGHTS)
    except ValueError:
        return False


@functools.cache  # a batch of sentences warns thousands of times with the same few texts
def zero_order_warning(n: int) -> str:
    """NLTK's warning, word for word, for an order ``n`` with no match.

    >>> zero_order_warning(4).splitlines()[1]
    'The hypothesis contains 0 counts of 4-gram overlaps.'
    """
    return ZERO_ORDER_WARNING.format(n)


def no_smoothing(p_n: Sequence[Any], *args: Any, **kwargs: Any) -> list[Any]:
    """NLTK's rule when nothing smooths (``SmoothingFunction().method0``).

    A zero precision would make the geometric mean 0 (its log is minus
    infinity). NLTK warns and puts the smallest normal float,
    ``sys.float_info.min`` (about 2.2e-308), in its place, so one zero order
    of four makes the score about (2.2e-308) ** (1/4), 1.2e-77, not 0.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     no_smoothing([Precision(3, 4), Precision(0, 3)])
    [Precision(3, 4), 2.2250738585072014e-308]
    >>> str(caught[0].message).splitlines()[1]
    'The hypothesis contains 0 counts of 2-gram overlaps.'
    """
    smoothed = []
    for i, p_i in enumerate(p_n):
        if p_i != 0:
            smoothed.append(p_i)
        else:
            warnings.warn(zero_order_warning(i + 1))
            smoothed.append(sys.float_info.min)
    return smoothed


def geometric_mean_score(p_n: Sequence[Any], weights: Sequence[float], bp: float) -> float:
    """BP * exp(sum of w_n * log p_n), skipping zero precisions.

    ``math.fsum`` adds the logs exactly, as NLTK does, so the result is the
    same float to the last bit.

    >>> geometric_mean_score([Precision(1, 2), Precision(1, 8)], (0.5, 0.5), 1)  # sqrt(1/16)
    0.25
    """
    ### BEGIN SOLUTION
    weighted_logs = []
    for w_i, p_i in zip(weights, p_n):
        if p_i > 0:
            weighted_logs.append(w_i * math.log(p_i))
    return bp * math.exp(math.fsum(weighted_logs))
    ### END SOLUTION


def reweighed(weight: Sequence[float], hyp_len: int, auto_reweigh: bool) -> Sequence[float]:
    """NLTK's ``auto_reweigh``: a hypothesis shorter than 4 tokens gets equal weights on the orders it has.

    Only the default weights are replaced, as NLTK replaces only those.

    >>> reweighed((0.25, 0.25, 0.25, 0.25), 2, auto_reweigh=True)
    (0.5, 0.5)
    >>> reweighed([0.25, 0.25, 0.25, 0.25], 2, auto_reweigh=True)  # a list is not NLTK's default tuple
    [0.25, 0.25, 0.25, 0.25]
    """
    if auto_reweigh and hyp_len < 4 and is_default_weights(weight):
        return (1 / hyp_len,) * hyp_len
    return weight


@door(checks.stats_for_weights)
def bleu_from_stats(
    stats: BleuStats,
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
    last_references: Sequence[Sequence[Token]] = ((),),
    last_hypothesis: Sequence[Token] = (),
) -> Score:
    """NLTK's BLEU from summed statistics: the sentence and corpus scores of lessons 05, 06 and 10 come from here.

    ``last_references`` and ``last_hypothesis`` are the corpus's last sentence
    pair, which smoothing methods 5 to 7 read (an NLTK quirk kept on purpose).

    >>> stats = BleuStats(hyp_len=4, ref_len=4, matches=(4, 3), totals=(4, 3), too_short=(0, 0))
    >>> bleu_from_stats(stats, weights=(0.5, 0.5))
    1.0
    >>> short = BleuStats(hyp_len=3, ref_len=4, matches=(3, 2), totals=(3, 2), too_short=(0, 0))
    >>> bleu_from_stats(short, weights=(0.5, 0.5))  # the brevity penalty exp(1 - 4/3)
    0.7165313105737893
    """
    weight_list = weight_vectors(weights)
    # Like NLTK, a list of several weight vectors gives a list of scores, but
    # a list holding one vector gives a plain score.
    several = len(weight_list) > 1
    if stats.matches[0] == 0:
        return [0] * len(weight_list) if several else 0
    bp = brevity_penalty(stats.ref_len, stats.hyp_len)
    orders = zip(stats.matches[: max(map(len, weight_list))], stats.nltk_totals)
    if not smoothing_function:  # NLTK's test: None (or anything false) means method0
        # Unsmoothed, a precision is only ever compared with 0 and passed to math.log, which takes the
        # fraction's float; the float of m/t is m / t. So floats give the same score, without fractions.
        p_n = no_smoothing([m / t for m, t in orders])
    else:
        p_n = [Precision(m, t) for m, t in orders]
        p_n = smoothing_function(p_n, references=last_references, hypothesis=last_hypothesis, hyp_len=stats.hyp_len)
    scores = [geometric_mean_score(p_n, reweighed(weight, stats.hyp_len, auto_reweigh), bp) for weight in weight_list]
    return scores if several else scores[0]


@door(checks.sentence_pair, checks.weights)
def sentence_bleu(
    references: Sequence[Sequence[Token]],
    hypothesis: Sequence[Token],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """BLEU of one hypothesis against its references; a drop-in for NLTK's.

    The BLEU paper's Example 1, candidate 1, with bigram weights:

    >>> hypothesis = ("It is a guide to action which ensures that the military "
    ...               "always obeys the commands of the party").split()
    >>> references = [
    ...     "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    ...     ("It is the guiding principle which guarantees the military forces always being under the command "
    ...      "of the Party").split(),
    ...     "It is the practical guide for the army always to heed the directions of the party".split(),
    ... ]
    >>> round(sentence_bleu(references, hypothesis, weights=(0.5, 0.5)), 4)
    0.7454
    """
    stats = sentence_stats(references, hypothesis, max_n_of(weights))
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, references, hypothesis)
