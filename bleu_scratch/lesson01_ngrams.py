"""Lesson 01: tokens and n-grams.

An n-gram is a run of ``n`` consecutive tokens. BLEU compares the n-grams of a
hypothesis with those of its references, for n = 1 to 4 by default.
"""

from collections import Counter
from collections.abc import Hashable, Sequence

Token = Hashable
Ngram = tuple


def ngrams(tokens: Sequence[Token], n: int) -> list[Ngram]:
    """Return the n-grams of ``tokens`` in order, each as a tuple.

    A sequence of ``L`` tokens has ``L - n + 1`` n-grams, and none if it is
    shorter than ``n``.

    >>> ngrams(["the", "cat", "sat"], 2)
    [('the', 'cat'), ('cat', 'sat')]
    >>> ngrams(["the"], 2)
    []
    """
    ### BEGIN SOLUTION
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    ### END SOLUTION


def count_ngrams(tokens: Sequence[Token], n: int) -> Counter:
    """Count how often each n-gram occurs in ``tokens``.

    >>> count_ngrams("this is is a ship".split(), 1)
    Counter({('is',): 2, ('this',): 1, ('a',): 1, ('ship',): 1})
    """
    ### BEGIN SOLUTION
    return Counter(ngrams(tokens, n))
    ### END SOLUTION
