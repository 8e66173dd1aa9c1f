"""Lesson 08: three blog posts' own BLEU code, reproduced exactly: what each returns, and where each crashes.

``variants.py`` holds the rules behind the posts' published figures; here is
each post's whole procedure, down to what changes the last bit of a score or
stops it with an error:

- "Introduction to BLEU in Python" (Arie Pratama, 2019), its ``bleu_score``:
  ``introduction_bleu``. The first of equally close references; a zero
  precision adds 0 to the log sum, so with no unigram match the score is
  BP x exp(0), not 0; the logs are added with ``np.sum``; an empty hypothesis
  divides by zero in its brevity penalty.
- The study notes "BLEU (BiLingual Evaluation Understudy)", written from
  Wikipedia, their ``bleu_score``: ``study_notes_bleu``. Their modified
  precision divides by ``len(cand) - n + 1``, which is 0 for a candidate of
  n - 1 tokens, so any candidate shorter than the number of weights raises
  ``ZeroDivisionError``; the logs are added with the built-in ``sum``.
- "Understanding the BLEU Score for Translation Model Evaluation" (David
  Kirchhoff), its ``preprocess_text`` and ``bleu_score_sentence``:
  ``kirchhoff_tokenize`` and ``kirchhoff_bleu``, on text. Each whitespace
  word keeps its letters and digits, in any script, each lowercased on its
  own ("Café" -> "café"), and a word of punctuation alone stays as an empty token; the
  brevity penalty uses the shortest reference; zero precisions are left out
  and the mean taken over the others (``np.mean`` of their logs).

How the posts add the logs matters: ``np.sum``, ``np.mean`` and ``sum`` add in an order
of their own, ``math.fsum`` (NLTK's, and lesson 05's) exactly, and about one
score in a hundred then differs in its last bit. The functions call numpy where
the posts call it (``np.log``, ``np.sum``, ``np.mean``, ``np.exp``), so they
return the posts' values bit for bit on any machine, even where numpy's log and
exp differ from the C library's in the last bit. numpy is imported when a post's
function runs, not with the module: lessons 01 to 09 import with the standard
library alone. The posts' code returns a ``numpy.float64``; the functions return
that value as a plain ``float``. The three functions use the lessons' counting
and brevity-penalty rules; only the posts' own choices are new.
"""

import math
from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson04_brevity import brevity_penalty, closest_ref_length
from .lesson05_sentence import DEFAULT_WEIGHTS, sentence_stats
from .lesson08_variants import first_closest_ref_length, shortest_ref_length


@door(checks.sentence_pair, checks.weights)
def introduction_bleu(
    references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], weights: Sequence[float] = DEFAULT_WEIGHTS
) -> float:
    """What the ``bleu_score`` of "Introduction to BLEU in Python" returns, to the last bit.

    Its precision of an order with no n-gram is 0/1; a zero precision adds 0
    to the log sum (as NLTK 3.2.x did), so a hypothesis with no match at all
    scores its brevity penalty: "a b" against "c d e" is exp(1 - 3/2). The
    logs and the penalty are numpy's (``np.log``, ``np.sum``, ``np.exp``), as
    the post computes them; the post's ``numpy.float64`` is returned as a
    ``float`` of the same value.

    >>> import math
    >>> introduction_bleu([["c", "d", "e"]], ["a", "b"]) == math.exp(1 - 3 / 2)
    True
    >>> introduction_bleu([["c", "d", "e"]], [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ZeroDivisionError: the post's brevity_penalty divides by the hypothesis length ...: float division by zero
    """
    import numpy as np

    c = len(hypothesis)
    if c == 0:
        raise ZeroDivisionError(
            "the post's brevity_penalty divides by the hypothesis length (np.exp(1 - float(r)/c)): "
            "an empty hypothesis raises ZeroDivisionError: float division by zero"
        )
    r = first_closest_ref_length(references, c)
    bp = 1 if c > r else np.exp(1 - float(r) / c)
    counted = sentence_stats(references, hypothesis, len(weights))
    p_n = [matches / total for matches, total in zip(counted.matches, counted.nltk_totals)]
    score = np.sum([w_n * np.log(p) if p != 0 else 0 for w_n, p in zip(weights, p_n)])
    return float(bp * np.exp(score))


@door(checks.sentence_pair, checks.weights)
def study_notes_bleu(
    references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], weights: Sequence[float] = DEFAULT_WEIGHTS
) -> float:
    """What the study notes' ``bleu_score`` returns, to the last bit, and where it crashes.

    A candidate of 2 tokens has no trigram, and the notes divide its trigram
    matches by ``len(cand) - 3 + 1 = 0``:

    >>> study_notes_bleu([["a", "b", "c", "d"]], ["a", "b"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ZeroDivisionError: ... which is 0 for n = 3: a candidate of 2 tokens cannot be scored with 4 weights (...)

    With no match at all the score is the brevity penalty, exp(1 - 5/4) here.
    The notes take the logs with ``np.log`` and add them with the built-in
    ``sum``: numpy floats, so left to right with one rounding per addition on
    every Python (the compensated ``sum`` of Python 3.12 is for Python floats
    only). The notes' ``numpy.float64`` is returned as a ``float`` of the same
    value.

    >>> import math
    >>> study_notes_bleu([["a", "b", "c", "d", "e"]], ["w", "x", "y", "z"]) == math.exp(1 - 5 / 4)
    True
    """
    import numpy as np

    c = len(hypothesis)
    if c < len(weights):
        raise ZeroDivisionError(
            f"the notes' modified_ngram_precision divides by len(cand) - n + 1, which is 0 for n = {c + 1}: "
            f"a candidate of {c} tokens cannot be scored with {len(weights)} weights "
            f"(ZeroDivisionError: division by zero)"
        )
    counted = sentence_stats(references, hypothesis, len(weights))
    p_n = [matches / total for matches, total in zip(counted.matches, counted.totals)]
    # The built-in sum of numpy floats: left to right, one rounding per addition, on every Python.
    score = sum([w_n * np.log(p) if p != 0 else 0 for w_n, p in zip(weights, p_n)])
    r = closest_ref_length(references, c)
    bp = np.exp(1 - r / c) if c <= r else 1
    return float(bp * np.exp(score))


@door(checks.line)
def kirchhoff_tokenize(line: str) -> list[str]:
    """The tokens of Kirchhoff's ``preprocess_text``: each whitespace word's letters and digits, each lowercased.

    A word of punctuation alone stays, as an empty token, and letters outside
    ASCII are kept (lesson 01's ``tokenize_paper`` drops both):

    >>> kirchhoff_tokenize("The café - it's OPEN!")
    ['the', 'café', '', 'its', 'open']

    The post lowercases one character at a time, so a capital sigma is always
    "σ", never the word-final "ς" that lowercasing the whole line gives:

    >>> kirchhoff_tokenize("ΟΔΟΣ"), "ΟΔΟΣ".lower()
    (['οδοσ'], 'οδος')
    """
    return ["".join(char.lower() for char in word if char.isalnum()) for word in line.split()]


@door(checks.text_pair, checks.highest_order)
def kirchhoff_bleu(references: Sequence[str], hypothesis: str, max_n: int = 4) -> float:
    """What Kirchhoff's ``bleu_score_sentence`` returns for lines of text, to the last bit.

    Orders 1 to ``max_n``, equally weighted; an order with no match is left
    out of the mean. The empty token of "-" is a word like any other: "the
    cat sat - on the mat" against "the cat sat on the mat" has p_1 = 6/7,
    p_2 = 4/6, p_3 = 2/5 and no 4-gram match, so the score is
    (6/7 * 4/6 * 2/5) ** (1/3), not 1:

    >>> round(kirchhoff_bleu(["the cat sat on the mat"], "the cat sat - on the mat"), 4)
    0.6114

    The post's ``np.exp(np.mean(logs))`` returns a ``numpy.float64``; this
    returns a ``float`` of the same value. No unigram match scores the int 0,
    as the post's code returns it.
    """
    reference_tokens = [kirchhoff_tokenize(reference) for reference in references]
    tokens = kirchhoff_tokenize(hypothesis)
    counted = sentence_stats(reference_tokens, tokens, max_n)
    if counted.matches[0] == 0:
        return 0
    import numpy as np

    # The post's brevity penalty is math.exp's, lesson 04's; its geometric mean is numpy's.
    bp = brevity_penalty(shortest_ref_length(reference_tokens, counted.hyp_len), counted.hyp_len)
    logs = [math.log(matches / total) for matches, total in zip(counted.matches, counted.totals) if matches > 0]
    return float(bp * np.exp(np.mean(logs)))
