"""Lesson 02: clipping.

A hypothesis may not get credit for an n-gram more often than the n-gram occurs
in any single reference: "the the the the the the the" matches "the" only twice
against "the cat is on the mat".
"""

from collections import Counter
from collections.abc import Sequence

from .lesson01_ngrams import Token, count_ngrams


def max_reference_counts(references: Sequence[Sequence[Token]], n: int) -> Counter:
    """For each n-gram, the most times it occurs in any single reference.

    The maximum, not the sum: two references that each say "the" twice allow
    two "the"s, not four.

    >>> refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> max_reference_counts(refs, 1)[("the",)]
    2
    """
    ### BEGIN SOLUTION
    max_counts: Counter = Counter()
    for reference in references:
        # Counter | Counter keeps the larger count of each key.
        max_counts |= count_ngrams(reference, n)
    return max_counts
    ### END SOLUTION


def clipped_counts(hypothesis_counts: Counter, max_ref_counts: Counter) -> Counter:
    """Clip each hypothesis n-gram count to its maximum reference count.

    >>> hyp = Counter({("the",): 7})
    >>> clipped_counts(hyp, Counter({("the",): 2, ("cat",): 1}))
    Counter({('the',): 2})
    """
    ### BEGIN SOLUTION
    return Counter({ngram: min(count, max_ref_counts[ngram]) for ngram, count in hypothesis_counts.items()})
    ### END SOLUTION
