"""Lesson 10: every smoothing method of lesson 07 on a whole batch at once, each value NLTK's to the last bit.

``batch_sentence_bleu`` counts a batch's clipped matches as an array: one row
per n-gram order, one column per sentence. NLTK smooths one sentence at a
time, on ``Fraction`` objects; here each method works on all the columns at
once with numpy, and gives the same floats:

- a precision m/t is an unreduced fraction, and its float is m / t rounded
  once: numpy's division of the two int64 arrays (both exact doubles);
- numpy's + - * / on float64 round as Python's do, so methods 1 to 4 (epsilon
  / t; the fraction (m + 1) / (t + 1); a halved count) are the same
  arithmetic on arrays. Method 4's log(length) is Python's ``math.log`` of
  each distinct length: numpy's may differ in the last bit;
- methods 5 to 7 add and divide fractions: Python keeps them exact until a
  float meets one, and rounds once then. ``_Numbers`` does the same, a column
  at a time.

A smoothing function of your own, a parameter that is not a plain int or
float, and an input NLTK raises on (method 6 with no trigram match, k = 0 ...)
are left to the sentence-by-sentence path, which scores or raises as NLTK does.
"""

import math
import sys
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .lesson05_sentence import Smoothing, zero_order_warning
from .lesson07_smoothing import SmoothingFunction

# The parameter each method reads from its SmoothingFunction.
PARAMETERS = {1: "epsilon", 4: "k", 6: "alpha", 7: "k"}


class Method(NamedTuple):
    """One of Chen and Cherry's smoothing methods (0: none), with the parameter it reads."""

    number: int
    parameter: float = 0

    def orders(self, max_n: int) -> int:
        """How many n-gram orders to count: methods 5 and 7 also read the 5-gram precision."""
        return max(max_n, 5) if self.number in (5, 7) else max_n


class _NltkRaises(Exception):
    """NLTK's method raises on this batch; the sentence-by-sentence path raises it as NLTK does."""


def smoothing_method(smoothing_function: Smoothing | None) -> Method | None:
    """Which of NLTK's (or lesson 07's) smoothing methods ``smoothing_function`` is; None if none of them.

    >>> smoothing_method(SmoothingFunction(epsilon=0.2).method1), smoothing_method(None)
    (Method(number=1, parameter=0.2), Method(number=0, parameter=0))
    >>> smoothing_method(lambda p_n, **kwargs: p_n) is None
    True
    """
    if not smoothing_function:  # NLTK's test: None (or anything false) means method0
        return Method(0)
    owner = getattr(smoothing_function, "__self__", None)
    nltk = sys.modules.get("nltk.translate.bleu_score")  # loaded if the function is NLTK's
    # Only the classes themselves: a subclass, or an instance with a method replaced, may smooth otherwise
    # (method 7 calls self.method4 and self.method5).
    if type(owner) not in (SmoothingFunction, getattr(nltk, "SmoothingFunction", SmoothingFunction)):
        return None
    if any(name.startswith("method") for name in vars(owner)):
        return None
    for number in range(8):
        if getattr(smoothing_function, "__func__", None) is getattr(type(owner), f"method{number}"):
            parameter = getattr(owner, PARAMETERS[number]) if number in PARAMETERS else 0
            return Method(number, parameter) if plain_number(parameter) else None
    return None


def plain_number(parameter: object) -> bool:
    """A float, or an int small enough that every sum and product with a count is an exact double.

    Python's arithmetic with such a number is numpy's on float64; with another
    type (a Fraction, a numpy float32 or float64, a float subclass) it may not be:
    a smoothing parameter or a weight of another type is left to the
    sentence-by-sentence path.
    """
    return type(parameter) is float or (type(parameter) is int and abs(parameter) < 1 << 31)


def batch_smoothed_precisions(
    method: Method, matches: np.ndarray, hyp_lens: np.ndarray, max_n: int
) -> np.ndarray | None:
    """The values each sentence's score takes the logarithm of, as NLTK's method gives them; None where NLTK raises.

    ``matches`` holds the clipped matches, one row per order (``method.orders(max_n)`` rows at least), one
    column per sentence; so does the result. A sentence with no unigram match is not smoothed: NLTK scores
    it 0 first. With no smoothing (method 0), each zero order of the other sentences warns, in
    sentence order, and takes ``no_smoothing``'s value, the smallest normal float.

    >>> matches = np.array([[3, 2], [1, 0], [0, 0]])
    >>> batch_smoothed_precisions(Method(1, 0.1), matches, np.array([4, 2]), 3)
    array([[0.75      , 1.        ],
           [0.33333333, 0.1       ],
           [0.05      , 0.1       ]])
    >>> batch_smoothed_precisions(Method(6, 5), matches, np.array([4, 2]), 3) is None  # no trigram match
    True
    """
    counts = matches[:max_n]
    totals = np.maximum(hyp_lens - np.arange(1, max_n + 1)[:, None] + 1, 1)  # NLTK's denominators are at least 1
    precisions = counts / totals
    scored = counts[0] > 0
    if method.number == 0:
        zero = (counts == 0) & scored
        _warn_zero_orders(np.nonzero(zero.T)[1] + 1)
        precisions[zero] = sys.float_info.min
        return precisions
    fifth = (matches[4, scored], np.maximum(hyp_lens[scored] - 4, 1)) if method.number in (5, 7) else None
    try:
        with np.errstate(all="ignore"):  # Python's floats overflow to inf quietly; numpy would warn
            smooth = METHODS[method.number]
            precisions[:, scored] = smooth(
                method.parameter, counts[:, scored], totals[:, scored], hyp_lens[scored], fifth
            )
    except (ArithmeticError, _NltkRaises):  # ZeroDivisionError, OverflowError, or NLTK's assertion
        return None
    return precisions


def _warn_zero_orders(orders: np.ndarray) -> None:
    """``no_smoothing``'s warning for each order, in turn: sentence by sentence, as NLTK warns.

    A function of its own for speed: to find a warning's line number, Python walks
    the calling function's code from its start, and this one is short.
    """
    if not ignored([zero_order_warning(n) for n in np.unique(orders).tolist()]):
        for n in orders.tolist():
            warnings.warn(zero_order_warning(n))


def ignored(texts: list[str], category: type[Warning] = UserWarning) -> bool:
    r"""Whether Python's warning filters drop every warning of these texts from this module, as
    ``warnings.warn`` reads them: the first filter that matches a text, the category and the module
    decides. Then ``warnings.warn`` would do nothing at all, and costs a microsecond a call. A filter
    on a line number leaves the answer to ``warnings.warn``.

    >>> with warnings.catch_warnings():
    ...     warnings.filterwarnings("ignore", message=r"\sThe hypothesis contains 0 counts of 4-gram")
    ...     ignored([zero_order_warning(4)]), ignored([zero_order_warning(3), zero_order_warning(4)])
    (True, False)
    """
    for text in texts:
        action = warnings.defaultaction  # type: ignore[attr-defined]  # in the module, not in its stubs
        for filter_action, message, warned, module, line in warnings.filters:
            if line:
                return False
            if (
                (message is None or message.match(text))
                and issubclass(category, warned)
                and (module is None or module.match(__name__))
            ):
                action = filter_action
                break
        if action != "ignore":
            return False
    return True


# Each method: (its parameter, matches m and NLTK's denominators t (one row per order, one column per
# sentence), the hypothesis lengths, and for methods 5 and 7 the 5-gram matches and denominators) -> floats.
Columns = tuple[np.ndarray, np.ndarray]


def _method1(epsilon: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """epsilon added to each zero count: (0 + epsilon) / t, a float."""
    return np.where(m == 0, (0 + epsilon) / t, m / t)


def _method2(_: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """1 added to the counts of every order above 1: a fraction (m + 1) / (t + 1)."""
    return np.concatenate([m[:1] / t[:1], (m[1:] + 1) / (t[1:] + 1)])


def _method3(_: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """The i-th zero order of a sentence becomes 1 / (2**i * t): ``ldexp`` doubles t exactly, i times."""
    zero = m == 0
    return np.where(zero, 1 / np.ldexp(t.astype(np.float64), np.cumsum(zero, axis=0)), m / t)


def _method4(k: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """Like method 3, with smaller counts for shorter hypotheses (``_halved_counts``)."""
    smoothed, values = _halved_counts(k, m, t, hyp_len)
    return np.where(smoothed, values, m / t)


def _method5(_: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """Each precision the mean of its neighbours (``_neighbours``), on the fractions m / t."""
    return _neighbours([_Numbers.fractions(m_n, t_n) for m_n, t_n in zip(m, t)], fifth)


def _method6(alpha: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """Orders 3 and up interpolated with the prior p_{n-1}^2 / p_{n-2}, as lesson 07's loop, a column at a time.

    Where p_{n-2} is 0 the prior is the int 0, and with an int alpha the
    smoothed value is then int / int: a float, not a fraction.
    """
    if m.shape[1] and (len(m) < 3 or (m[2] == 0).any()):  # NLTK: IndexError, or its assertion of a trigram match
        raise _NltkRaises
    p_n = [_Numbers.fractions(m_n, t_n) for m_n, t_n in zip(m, t)]
    for i in range(2, len(m)):
        ngrams = np.maximum(hyp_len - i, 0)  # the hypothesis's (i + 1)-grams
        prior = ~p_n[i - 2].is_zero()
        smoothed = _Numbers.of(_divide(m[i] + alpha * 0, ngrams + alpha, where=~prior))
        pi0 = p_n[i - 1][prior] ** 2 / p_n[i - 2][prior]
        smoothed[prior] = (m[i][prior] + alpha * pi0) / (ngrams[prior] + alpha)
        p_n[i] = smoothed
    return np.stack([p_i.floats() for p_i in p_n])


def _method7(k: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray, fifth: Columns) -> np.ndarray:
    """Method 4, then method 5: floats where method 4 smoothed, fractions elsewhere, averaged."""
    smoothed, values = _halved_counts(k, m, t, hyp_len)
    p_n = []
    for m_n, t_n, smoothed_n, values_n in zip(m, t, smoothed, values):
        p_i = _Numbers.fractions(m_n, t_n)
        p_i[smoothed_n] = _Numbers.of(values_n[smoothed_n])
        p_n.append(p_i)
    return _neighbours(p_n, fifth)


METHODS: dict[int, Callable[..., np.ndarray]] = {
    1: _method1,
    2: _method2,
    3: _method3,
    4: _method4,
    5: _method5,
    6: _method6,
    7: _method7,
}


def _halved_counts(k: float, m: np.ndarray, t: np.ndarray, hyp_len: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Method 4's values, 1 / (2**i * k / log(len)) / t for the i-th zero order, and where they go.

    Hypotheses of one token keep their zeros (log 1 = 0). Python computes
    ``2**i * k`` exactly for an int k, and as 2.0**i * k for a float: both are
    ``ldexp(k, i)``.
    """
    smoothed = (m == 0) & (hyp_len > 1)
    log_len = _python_log(np.maximum(hyp_len, 2))
    scaled = np.ldexp(float(k), np.cumsum(smoothed, axis=0)) / log_len
    if (scaled[smoothed] == 0).any():  # k = 0, say: Python's 1 / 0.0 raises
        raise ZeroDivisionError("float division by zero")
    return smoothed, 1 / scaled / t


def _python_log(values: np.ndarray) -> np.ndarray:
    """``math.log`` of each value: once per distinct value (a batch has few lengths), then gathered."""
    distinct, where = np.unique(values, return_inverse=True)
    return np.array([math.log(value) for value in distinct.tolist()])[where.reshape(values.shape)]


def _neighbours(p_n: list["_Numbers"], fifth: Columns) -> np.ndarray:
    """Method 5: each precision the mean of the previous smoothed one, itself and the next, as lesson 07 has it.

    The next of the last order is the 5-gram precision; the previous of the first is p_1 + 1.
    """
    following = [*p_n, _Numbers.fractions(*fifth)]
    previous = p_n[0] + 1
    smoothed = []
    for i, p_i in enumerate(p_n):
        previous = (previous + p_i + following[i + 1]) / 3
        smoothed.append(previous.floats())
    return np.stack(smoothed)


def _divide(numerator: np.ndarray, denominator: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Python's division, whose results are used ``where``: by zero, it raises."""
    if (denominator[where] == 0).any():
        raise ZeroDivisionError("division by zero")
    return np.asarray(numerator / denominator, dtype=np.float64)


class _Numbers:
    """A column of numbers as Python holds them in NLTK's smoothing: each an exact fraction, or a float.

    ``exact`` marks the fractions, ``num / den`` their values (Python ints in
    object arrays: exact at any size, and never reduced, as the float of a
    fraction does not depend on it), ``value`` the floats. An operation with
    a float rounds the fraction once to its nearest float, as Python does.

    >>> third = _Numbers.fractions(np.array([1]), np.array([3]))
    >>> ((third + 1) / 3).floats(), (third + 0.1).floats()  # 4/9 rounded once; 1/3 rounded, then + 0.1
    (array([0.44444444]), array([0.43333333]))
    """

    __array_ufunc__ = None  # an int64 array + _Numbers: numpy leaves it to _Numbers.__radd__

    def __init__(self, exact: np.ndarray, num: np.ndarray, den: np.ndarray, value: np.ndarray) -> None:
        self.exact, self.num, self.den, self.value = exact, num, den, value

    @classmethod
    def fractions(cls, num: np.ndarray, den: np.ndarray) -> "_Numbers":
        size = len(num)
        return cls(np.ones(size, bool), num.astype(object), den.astype(object), np.zeros(size))

    @classmethod
    def of(cls, numbers: "_Numbers | np.ndarray | float", size: int = 0) -> "_Numbers":
        """Ints as fractions n/1, floats as floats; a single number repeated ``size`` times."""
        if isinstance(numbers, _Numbers):
            return numbers
        array = np.broadcast_to(numbers, size) if np.ndim(numbers) == 0 else np.asarray(numbers)
        if array.dtype.kind == "f":
            return cls(np.zeros(len(array), bool), np.zeros(len(array), object), np.ones(len(array), object), array)
        return cls.fractions(array, np.ones(len(array), np.int64))

    def floats(self) -> np.ndarray:
        """Each number as a float; a fraction's is Python's int / int, rounded once as ``float(Fraction)``."""
        value = self.value.astype(np.float64)
        value[self.exact] = (self.num[self.exact] / self.den[self.exact]).astype(np.float64)
        return value

    def is_zero(self) -> np.ndarray:
        return np.where(self.exact, self.num == 0, self.value == 0)

    def __getitem__(self, rows: np.ndarray) -> "_Numbers":
        return _Numbers(self.exact[rows], self.num[rows], self.den[rows], self.value[rows])

    def __setitem__(self, rows: np.ndarray, other: "_Numbers") -> None:
        for part in ("exact", "num", "den", "value"):
            getattr(self, part)[rows] = getattr(other, part)

    def _combine(self, other: Any, exact: Callable, inexact: Callable) -> "_Numbers":
        """``exact`` where both are fractions (numerators and denominators in and out), ``inexact`` elsewhere."""
        other = _Numbers.of(other, len(self.exact))
        both = self.exact & other.exact
        num, den = self.num.copy(), self.den.copy()
        num[both], den[both] = exact(self.num[both], self.den[both], other.num[both], other.den[both])
        value = self.value.copy()
        value[~both] = inexact(self[~both].floats(), other[~both].floats())
        return _Numbers(both, num, den, value)

    def __add__(self, other: Any) -> "_Numbers":
        return self._combine(other, lambda a, b, c, d: (a * d + c * b, b * d), np.add)

    def __mul__(self, other: Any) -> "_Numbers":
        return self._combine(other, lambda a, b, c, d: (a * c, b * d), np.multiply)

    __radd__, __rmul__ = __add__, __mul__  # IEEE addition and multiplication commute

    def __truediv__(self, other: Any) -> "_Numbers":
        other = _Numbers.of(other, len(self.exact))
        both = self.exact & other.exact
        # Python raises on a zero fraction, or on a float divisor of 0.0 (a tiny fraction's float too).
        if (other.num[both] == 0).any() or (other[~both].floats() == 0).any():
            raise ZeroDivisionError("division by zero")
        return self._combine(other, lambda a, b, c, d: (a * d, b * c), np.divide)

    def __pow__(self, exponent: int) -> "_Numbers":
        """A fraction's power is exact; a float's is C's pow(), which is not always x * x: Python's own, per row."""
        value = np.frompyfunc(pow, 2, 1)(self.value, exponent).astype(np.float64)
        return _Numbers(self.exact, self.num**exponent, self.den**exponent, value)
