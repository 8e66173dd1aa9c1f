"""Lesson 06: the corpus score.

The corpus score is not the mean of sentence scores. It adds up each
sentence's statistics (matches, n-gram counts, lengths) and computes one
precision per order and one brevity penalty from the totals.
"""

from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson05_sentence import (
    DEFAULT_WEIGHTS,
    BleuStats,
    Score,
    Smoothing,
    Weights,
    bleu_from_stats,
    max_n_of,
    sentence_stats,
)


@door(checks.corpus, checks.highest_order)
def corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int = 4
) -> BleuStats:
    """The sum of every sentence pair's statistics.

    >>> refs = [[["a", "b", "c"]], [["d", "e"]]]
    >>> hyps = [["a", "b", "c"], ["d"]]
    >>> corpus_stats(refs, hyps, max_n=2)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    ### BEGIN SOLUTION
    pairs = zip(list_of_references, hypotheses)
    return sum((sentence_stats(refs, hyp, max_n) for refs, hyp in pairs), BleuStats.zero(max_n))
    ### END SOLUTION


@door(checks.corpus, checks.weights)
def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """BLEU of a whole corpus from pooled counts, as NLTK's ``corpus_bleu`` computes it.

    One precision per order from the summed matches and n-gram counts, and one
    brevity penalty from the summed lengths: not the mean of sentence scores.
    Smoothing methods 5 to 7 also read the corpus's last sentence pair, as
    NLTK's do: pass ``list_of_references[-1]`` and ``hypotheses[-1]`` on to
    ``bleu_from_stats``.

    >>> hyp1 = "the cat sat on the mat".split()
    >>> hyp2 = "a dog".split()
    >>> refs1 = ["the cat sat on the mat".split()]
    >>> refs2 = ["a dog barked".split()]
    >>> round(corpus_bleu([refs1, refs2], [hyp1, hyp2], weights=(0.5, 0.5)), 4)
    0.8825
    >>> from bleu_scratch import SmoothingFunction
    >>> corpus_bleu([refs2, refs1], [hyp2, hyp1], smoothing_function=SmoothingFunction().method5)  # reads the last pair
    0.8932641627346888
    """
    ### BEGIN SOLUTION
    stats = corpus_stats(list_of_references, hypotheses, max_n_of(weights))
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, list_of_references[-1], hypotheses[-1])
    ### END SOLUTION
