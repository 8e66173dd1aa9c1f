"""Lesson 03: modified n-gram precision.

p_n = (clipped n-gram matches) / (n-grams in the hypothesis). The fraction is
kept unreduced (2/4 stays 2/4) because the corpus score adds numerators and
denominators across sentences, exactly as NLTK does.
"""

import numbers
from collections.abc import Sequence
from fractions import Fraction

from . import checks
from .checks import door
from .lesson01_ngrams import Token, count_ngrams
from .lesson02_clipping import clipped_counts, max_reference_counts


class Precision(Fraction):
    """A fraction that remembers the numerator and denominator it was given.

    It compares and computes like a ``Fraction`` (2/4 == 1/2), but
    ``numerator`` and ``denominator`` return the raw counts, as NLTK's
    ``Fraction(..., _normalize=False)`` does.

    >>> p = Precision(2, 4)
    >>> p.numerator, p.denominator, float(p), str(p), str(Precision(3, 1))
    (2, 4, 0.5, '2/4', '3')
    >>> p == Fraction(1, 2) == Precision(1, 2) and Fraction(1, 2) == p
    True
    """

    _raw: tuple[int, int]

    def __new__(cls, numerator: int, denominator: int) -> "Precision":
        self = super().__new__(cls, numerator, denominator)
        self._raw = (numerator, denominator)
        return self

    @property
    def numerator(self) -> int:
        return self._raw[0]

    @property
    def denominator(self) -> int:
        return self._raw[1]

    def __eq__(self, other: object) -> bool:
        # Fraction.__eq__ compares reduced and raw parts (1/2 vs 2/4) and says
        # False; cross-multiplying compares values, whichever side is raw.
        if isinstance(other, numbers.Rational):
            return bool(self._raw[0] * int(other.denominator) == int(other.numerator) * self._raw[1])
        return super().__eq__(other)

    __hash__ = Fraction.__hash__

    def as_integer_ratio(self) -> tuple[int, int]:
        return self._raw

    # Fraction rebuilds copies and pickles from its reduced parts; keep the raw ones.
    def __reduce__(self) -> tuple:
        return (type(self), self._raw)

    def __copy__(self) -> "Precision":
        return self

    def __deepcopy__(self, memo: dict) -> "Precision":
        return self

    def __repr__(self) -> str:
        return f"Precision({self._raw[0]}, {self._raw[1]})"

    def __str__(self) -> str:
        # Like Fraction (and NLTK's), a denominator of 1 is not shown: 0/1 prints as 0.
        return str(self._raw[0]) if self._raw[1] == 1 else f"{self._raw[0]}/{self._raw[1]}"


@door(checks.order, checks.hypothesis, checks.references_read_once)
def modified_precision(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], n: int) -> Precision:
    """Clipped n-gram matches over hypothesis n-grams, as an unreduced fraction.

    The denominator is at least 1, so a hypothesis shorter than ``n`` gets
    0/1 (NLTK's convention; sacrebleu's sentence score leaves such an order out).

    The BLEU paper's Example 2 (Papineni et al. 2002): 2/7.

    >>> hypothesis = "the the the the the the the".split()
    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> modified_precision(references, hypothesis, 1)
    Precision(2, 7)
    >>> modified_precision(references, hypothesis, 2)
    Precision(0, 6)
    """
    ### BEGIN SOLUTION
    counts = count_ngrams(hypothesis, n)
    clipped = clipped_counts(counts, max_reference_counts(references, n))
    return Precision(sum(clipped.values()), max(1, sum(counts.values())))
    ### END SOLUTION
