"""Lesson 04: the brevity penalty.

Precision alone rewards saying little: "the" against "the cat is on the mat"
has unigram precision 1. BLEU multiplies by a penalty when the hypothesis is
shorter than the reference length closest to it.
"""

import math
from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token


@door(checks.references_read_once)
def closest_ref_length(references: Sequence[Sequence[Token]], hyp_len: int) -> int:
    """The reference length closest to ``hyp_len``; ties go to the shorter one.

    >>> refs = [["a"] * 10, ["a"] * 14]
    >>> closest_ref_length(refs, 12)
    10
    >>> closest_ref_length(refs, 13)
    14
    >>> closest_ref_length([["a"] * 14, ["a"] * 10], 12)  # the shorter, wherever it is listed
    10
    """
    ### BEGIN SOLUTION
    ref_lens = (len(reference) for reference in references)
    # Sorting key (distance, length) breaks a tie in favour of the shorter reference.
    return min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))
    ### END SOLUTION


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """``exp(1 - r/c)`` for a hypothesis of length c up to r, else 1.

    The types follow NLTK: the int 1 for a hypothesis longer than r, the
    float ``exp(0) = 1.0`` for one exactly as long, and the int 0 for an
    empty hypothesis.

    >>> brevity_penalty(10, 12)
    1
    >>> brevity_penalty(10, 10)
    1.0
    >>> brevity_penalty(10, 5)  # exp(1 - 10/5) = exp(-1)
    0.36787944117144233
    >>> brevity_penalty(10, 4)  # exp(1 - 10/4): r/c is a true division
    0.22313016014842982
    >>> brevity_penalty(10, 0)
    0
    """
    ### BEGIN SOLUTION
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)
    ### END SOLUTION
