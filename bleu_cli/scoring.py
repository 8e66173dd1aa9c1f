"""Statistics to the score: lesson 05's ``bleu_from_stats`` as lesson 10 computes it, with the command's smoothing.

Where the lessons cannot score the input (smoothing method 6 without a
trigram match, a score beyond a float), the error says so in the command's
terms, from the facts the lesson's error carries.
"""

from collections.abc import Sequence

from bleu_scratch import BleuStats, SmoothingError, SmoothingFunction, fast_bleu_from_stats

from .errors import Overflow, SmoothingNeeds
from .settings import Settings


def score(stats: BleuStats, settings: Settings, last_references: Sequence, last_hypothesis: Sequence) -> float:
    """NLTK's BLEU of ``stats``; smoothing methods 5-7 read the last segment's tokens, as NLTK's corpus_bleu does.

    >>> stats = BleuStats(hyp_len=2, ref_len=2, matches=(2, 1), totals=(2, 1), too_short=(0, 0))
    >>> score(stats, Settings("hyp", ("ref",), weights=(0.5, 0.5)), [["a", "b"]], ["a", "b"])
    1.0
    """
    # Method 0 is no smoothing: NLTK's default, which lesson 10 scores without fractions.
    smoothing = getattr(SmoothingFunction(), f"method{settings.smoothing}") if settings.smoothing else None
    try:
        return fast_bleu_from_stats(stats, settings.weights, smoothing, False, last_references, last_hypothesis)
    except SmoothingError as error:
        raise SmoothingNeeds(error.needs, settings.max_n) from None
    except OverflowError:
        raise Overflow(settings.weights) from None
