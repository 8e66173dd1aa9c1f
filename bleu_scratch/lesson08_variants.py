"""Lesson 08: the variants that published BLEU figures were computed with.

Blog posts and old NLTK releases printed BLEU numbers that today's NLTK does
not give for the same input. Each difference comes from one small rule,
written here next to the standard one so both can be run on the same input:

- ``shortest_ref_length``: the brevity penalty's reference length is the
  shortest reference, not the closest one (standard: ``closest_ref_length``).
- ``first_closest_ref_length``: among equally close references, the first
  one, not the shorter one (standard: ``closest_ref_length``).
- ``renormalised_weights``: a zero precision is left out of the geometric
  mean and the remaining weights are rescaled to sum to 1.
- ``variant_sentence_bleu``: a sentence score built from any of these rules.
  With its defaults it is NLTK 3.2.2-3.2.5's default ``sentence_bleu``: a
  zero precision is left out of the geometric mean and the other weights are
  kept, which is what ``SmoothingFunction(epsilon=0).method1`` does today.
"""

from collections.abc import Callable, Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson03_precision import Precision
from .lesson04_brevity import brevity_penalty, closest_ref_length
from .lesson05_sentence import DEFAULT_WEIGHTS, geometric_mean_score, sentence_stats


@door(checks.references)
def shortest_ref_length(references: Sequence[Sequence[Token]], hyp_len: int) -> int:
    """The length of the shortest reference, whatever the hypothesis length.

    The paper and NLTK use the reference length closest to the hypothesis
    length. The two agree while the hypothesis is nearest the shortest
    reference and differ once it is nearer a longer one, where the shortest
    reference lets a too-short hypothesis escape the penalty:

    >>> refs = [["a"] * 3, ["a"] * 9]
    >>> shortest_ref_length(refs, 8), closest_ref_length(refs, 8)
    (3, 9)
    """
    ### BEGIN SOLUTION
    return min(len(reference) for reference in references)
    ### END SOLUTION


@door(checks.references)
def first_closest_ref_length(references: Sequence[Sequence[Token]], hyp_len: int) -> int:
    """The closest reference length; a tie goes to the reference listed first.

    NLTK breaks a tie in favour of the shorter reference; an ``argmin`` over
    the distances picks whichever comes first in the list.

    >>> refs = [["a"] * 6, ["a"] * 4]
    >>> first_closest_ref_length(refs, 5), closest_ref_length(refs, 5)
    (6, 4)
    """
    ### BEGIN SOLUTION
    ref_lens = [len(reference) for reference in references]
    # min returns the first of equal keys, like numpy.argmin.
    return min(ref_lens, key=lambda ref_len: abs(ref_len - hyp_len))
    ### END SOLUTION


def renormalised_weights(p_n: Sequence[Precision], weights: Sequence[float]) -> list[float]:
    """Weights with the zero-precision orders dropped and the rest rescaled to sum to 1.

    With precisions (1/2, 1/4, 0, 0) and uniform weights, the mean runs over
    the first two orders only, each weighted 1/2:

    >>> renormalised_weights([Precision(1, 2), Precision(1, 4), Precision(0, 3), Precision(0, 2)],
    ...                      (0.25, 0.25, 0.25, 0.25))
    [0.5, 0.5, 0.0, 0.0]
    """
    ### BEGIN SOLUTION
    kept = sum(w_i for w_i, p_i in zip(weights, p_n) if p_i > 0)
    return [w_i / kept if p_i > 0 else 0.0 for w_i, p_i in zip(weights, p_n)]
    ### END SOLUTION


@door(checks.sentence_pair)
def variant_sentence_bleu(
    references: Sequence[Sequence[Token]],
    hypothesis: Sequence[Token],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    ref_length: Callable[[Sequence[Sequence[Token]], int], int] = closest_ref_length,
    renormalise: bool = False,
) -> float:
    """Sentence BLEU with zero precisions left out of the geometric mean.

    ``ref_length`` picks the brevity penalty's reference length
    (``closest_ref_length``, ``shortest_ref_length`` or
    ``first_closest_ref_length``); ``renormalise`` rescales the weights of the
    remaining orders to sum to 1. With the defaults this is the default
    ``sentence_bleu`` of NLTK 3.2.2 to 3.2.5. The post "Introduction to BLEU
    in Python" printed, with that NLTK, 0.1353352832366127 for the hypothesis
    "it": p_1 = 1, p_2 = 0 (dropped, with p_3 and p_4), and the brevity
    penalty is exp(1 - 3/1):

    >>> refs = [s.split() for s in ["this is a ship", "it is ship", "ship it is", "a ship, it is"]]
    >>> variant_sentence_bleu(refs, ["it"])
    0.1353352832366127

    The paper's BLEU of the same input is 0: its geometric mean has a zero factor.
    """
    ### BEGIN SOLUTION
    stats = sentence_stats(references, hypothesis, len(weights))
    if stats.matches[0] == 0:
        return 0
    p_n = [Precision(m, t) for m, t in zip(stats.matches, stats.nltk_totals)]
    if renormalise:
        weights = renormalised_weights(p_n, weights)
    bp = brevity_penalty(ref_length(references, stats.hyp_len), stats.hyp_len)
    # geometric_mean_score skips zero precisions, as NLTK 3.2.x's loop did.
    return geometric_mean_score(p_n, weights, bp)
    ### END SOLUTION
