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
score in a hundred then differs in its last bit. The three functions use the
lessons' counting and brevity penalty; only the posts' own choices are new.
"""

import math
from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson04_brevity import brevity_penalty, closest_ref_length
from .lesson05_sentence import DEFAULT_WEIGHTS, sentence_stats
from .lesson08_variants import first_closest_ref_length, shortest_ref_length

# numpy adds an array of 8 values or more in 8 running sums, and splits one of
# more than 128 values in two halves, each a multiple of 8 long.
NUMPY_BLOCK = 128


def numpy_sum(values: Sequence[float]) -> float:
    """Add ``values`` in the order ``np.sum`` adds a 1-D float64 array (pairwise summation).

    Up to 7 values it adds left to right, as ``sum`` does; from 8 on the
    order differs, and so can the last bit:

    >>> import math
    >>> values = [0.1] * 10
    >>> numpy_sum(values), sum(values), math.fsum(values)
    (1.0, 0.9999999999999999, 1.0)
    """
    if len(values) < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if len(values) <= NUMPY_BLOCK:
        partial = list(values[:8])
        whole_blocks = len(values) - len(values) % 8
        for start in range(8, whole_blocks, 8):
            for lane in range(8):
                partial[lane] += values[start + lane]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
            (partial[4] + partial[5]) + (partial[6] + partial[7])
        )
        for value in values[whole_blocks:]:
            total += value
        return total
    half = len(values) // 2
    half -= half % 8
    return numpy_sum(values[:half]) + numpy_sum(values[half:])


@door(checks.sentence_pair, checks.weights)
def introduction_bleu(
    references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], weights: Sequence[float] = DEFAULT_WEIGHTS
) -> float:
    """What the ``bleu_score`` of "Introduction to BLEU in Python" returns, to the last bit.

    Its precision of an order with no n-gram is 0/1; a zero precision adds 0
    to the log sum (as NLTK 3.2.x did), so a hypothesis with no match at all
    scores its brevity penalty: "a b" against "c d e" is exp(1 - 3/2).

    >>> import math
    >>> introduction_bleu([["c", "d", "e"]], ["a", "b"]) == math.exp(1 - 3 / 2)
    True
    >>> introduction_bleu([["c", "d", "e"]], [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ZeroDivisionError: the post's brevity_penalty divides by the hypothesis length ...: float division by zero
    """
    c = len(hypothesis)
    if c == 0:
        raise ZeroDivisionError(
            "the post's brevity_penalty divides by the hypothesis length (np.exp(1 - float(r)/c)): "
            "an empty hypothesis raises ZeroDivisionError: float division by zero"
        )
    bp = brevity_penalty(first_closest_ref_length(references, c), c)
    counted = sentence_stats(references, hypothesis, len(weights))
    p_n = [matches / total for matches, total in zip(counted.matches, counted.nltk_totals)]
    return bp * math.exp(numpy_sum([w_n * math.log(p) if p != 0 else 0 for w_n, p in zip(weights, p_n)]))


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
    The notes add the logs with the built-in ``sum``, which adds left to right
    (and, from Python 3.12 on, compensates its rounding errors).

    >>> import math
    >>> study_notes_bleu([["a", "b", "c", "d", "e"]], ["w", "x", "y", "z"]) == math.exp(1 - 5 / 4)
    True
    """
    c = len(hypothesis)
    if c < len(weights):
        raise ZeroDivisionError(
            f"the notes' modified_ngram_precision divides by len(cand) - n + 1, which is 0 for n = {c + 1}: "
            f"a candidate of {c} tokens cannot be scored with {len(weights)} weights "
            f"(ZeroDivisionError: division by zero)"
        )
    counted = sentence_stats(references, hypothesis, len(weights))
    p_n = [matches / total for matches, total in zip(counted.matches, counted.totals)]
    log_sum = sum([w_n * math.log(p) if p != 0 else 0 for w_n, p in zip(weights, p_n)])
    return brevity_penalty(closest_ref_length(references, c), c) * math.exp(log_sum)


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

    No unigram match scores the int 0, as the post's code returns it.
    """
    reference_tokens = [kirchhoff_tokenize(reference) for reference in references]
    tokens = kirchhoff_tokenize(hypothesis)
    counted = sentence_stats(reference_tokens, tokens, max_n)
    if counted.matches[0] == 0:
        return 0
    bp = brevity_penalty(shortest_ref_length(reference_tokens, counted.hyp_len), counted.hyp_len)
    # The post's geometric mean, np.exp(np.mean(logs)): the logs added in numpy's order, then divided by their number.
    logs = [math.log(matches / total) for matches, total in zip(counted.matches, counted.totals) if matches > 0]
    return bp * math.exp(numpy_sum(logs) / len(logs))
