"""Lesson 07: smoothing.

A sentence with no 4-gram match has p_4 = 0, and the geometric mean of the
precisions is then 0 whatever the other orders say. Chen and Cherry (2014)
describe seven ways to soften this; these are NLTK's implementations, quirks
included, so that scores agree with NLTK bit for bit:

- methods 5, 6 and 7 read the *last* sentence pair of a corpus (NLTK passes
  the loop's last ``references`` and ``hypothesis``), so corpus order matters;
- method 5 can return a score above 1;
- method 6 asserts a non-zero trigram precision and needs ``max_n >= 3``.

Every method takes the list of precisions ``p_n`` (``Precision`` fractions)
and returns the smoothed list; some change ``p_n`` in place, as NLTK's do.
"""

import math
from collections.abc import Sequence
from typing import Any

from .lesson01_ngrams import Token, ngrams
from .lesson03_precision import Precision, modified_precision
from .lesson05_sentence import no_smoothing


class SmoothingError(ValueError):
    """A smoothing method cannot score this input; ``needs`` says what it lacks.

    ``needs`` is ``"orders"`` (fewer n-gram orders than the method reads) or
    ``"trigram match"``; the message says how to fix it in Python, and a
    tool with other spellings (the command line) can say it in its own.
    """

    def __init__(self, method: int, needs: str, message: str) -> None:
        super().__init__(message)
        self.method, self.needs = method, needs


class SmoothingFunction:
    """Chen and Cherry's smoothing methods 0-7, as in NLTK 3.10.4.

    >>> from bleu_scratch import sentence_bleu
    >>> hyp = "the cat sat on a mat".split()
    >>> ref = "the cat sat on the mat".split()
    >>> round(sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method1), 4)
    0.5373
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon  # method 1: added to zero match counts
        self.alpha = alpha  # method 6: weight of the interpolated prior
        self.k = k  # method 4: scale of the length-dependent count

    def method0(self, p_n: list, *args: Any, **kwargs: Any) -> list:
        """No smoothing: lesson 05's rule, a zero precision becomes the smallest normal float, with a warning.

        The score is then about 1e-77 (one zero order of four) instead of 0.
        """
        return no_smoothing(p_n)

    def method1(self, p_n: list, *args: Any, **kwargs: Any) -> list:
        """Add ``epsilon`` to the numerator of each zero precision.

        >>> SmoothingFunction(epsilon=0.1).method1([Precision(3, 4), Precision(0, 2)])
        [Precision(3, 4), 0.05]
        """
        return [(p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i for p_i in p_n]

    def method2(self, p_n: list, *args: Any, **kwargs: Any) -> list:
        """Add 1 to numerator and denominator of every order above 1 (Lin and Och 2004).

        >>> SmoothingFunction().method2([Precision(3, 4), Precision(0, 2)])
        [Precision(3, 4), Precision(1, 3)]
        """
        return [p_i if i == 0 else Precision(p_i.numerator + 1, p_i.denominator + 1) for i, p_i in enumerate(p_n)]

    def method3(self, p_n: list, *args: Any, **kwargs: Any) -> list:
        """Zero precisions become 1/(2^k * denominator), k = 1, 2, ... (mteval-v13a's rule).

        >>> SmoothingFunction().method3([Precision(3, 4), Precision(0, 2), Precision(0, 1)])
        [Precision(3, 4), 0.25, 0.25]
        """
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**incvnt * p_i.denominator)
                incvnt += 1
        return p_n

    def method4(
        self,
        p_n: list,
        references: Sequence,
        hypothesis: Sequence[Token],
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list:
        """Like method 3, but shorter hypotheses get a smaller smoothed count: 1/(2^k * K/ln(len)).

        In a corpus, ``hyp_len`` is the total hypothesis length, so corpus
        order does not matter here.
        """
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(
        self,
        p_n: list,
        references: Sequence,
        hypothesis: Sequence[Token],
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list:
        """Each precision becomes the mean of itself, the previous smoothed one and the next one.

        The "next" of the last order is the 5-gram precision of ``hypothesis``
        (in a corpus, the last sentence), and the "previous" of the first is
        p_1 + 1, which is how the result can exceed 1.
        """
        m = {}
        p_n_plus1 = p_n + [modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(
        self,
        p_n: list,
        references: Sequence,
        hypothesis: Sequence[Token],
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list:
        """Interpolate orders 3 and up with a prior p_{n-1}^2 / p_{n-2} (Gao and He 2013).

        Like NLTK, it needs a non-zero trigram precision (``p_n[2]``) and uses
        the n-gram count of ``hypothesis`` (in a corpus, the last sentence);
        where NLTK raises ``AssertionError`` or ``IndexError``, this raises a
        ``ValueError`` that says why.
        """
        # NLTK fails here with IndexError or a bare AssertionError.
        if len(p_n) < 3:
            raise SmoothingError(
                6,
                "orders",
                f"smoothing method 6 starts at trigrams, so it needs weights for at least "
                f"3 n-gram orders; got {len(p_n)}. Use e.g. weights=(0.25, 0.25, 0.25, 0.25)",
            )
        if not p_n[2]:
            raise SmoothingError(
                6,
                "trigram match",
                "smoothing method 6 needs at least one trigram match, as NLTK asserts; this "
                "hypothesis has none. Use another method, e.g. SmoothingFunction().method1",
            )
        for i, p_i in enumerate(p_n):
            if i in (0, 1):
                continue
            pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            m = p_i.numerator
            l = len(ngrams(hypothesis, i + 1))  # noqa: E741 (Chen and Cherry's name)
            p_n[i] = (m + self.alpha * pi0) / (l + self.alpha)
        return p_n

    def method7(
        self,
        p_n: list,
        references: Sequence,
        hypothesis: Sequence[Token],
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list:
        """Method 4, then method 5."""
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        return self.method5(p_n, references, hypothesis, hyp_len)
