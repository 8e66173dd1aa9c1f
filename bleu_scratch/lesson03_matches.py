"""Lesson 03: the match view. Which n-grams of a hypothesis count toward p_n, which are clipped, which match nothing.

Modified precision counts, for each n-gram of the hypothesis, how many of its
occurrences the references allow: at most its clip limit, the most times any
single reference has it (lesson 02). ``explain`` marks every n-gram of the
hypothesis, in order, with what that count made of it:

- matched: an occurrence within the clip limit; it counts toward p_n;
- clipped: an occurrence past the clip limit; the references have the n-gram,
  but not that often;
- unmatched: no reference has the n-gram at all.

The matched occurrences of an order are p_n's numerator, the same as
``modified_precision`` counts. Which occurrences of a repeated n-gram are the
clipped ones is a choice of the picture (the later ones); the count is not.
"""

from collections import Counter
from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token, count_ngrams, ngrams
from .lesson02_clipping import clipped_counts, max_reference_counts
from .lesson03_precision import modified_precision
from .notebook.match_view import CLIPPED, MATCHED, UNMATCHED, Mark, MatchView, OrderMarks


def mark_ngrams(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], n: int) -> OrderMarks:
    """Mark each n-gram of ``hypothesis`` matched, clipped or unmatched, with its count and clip limit.

    The BLEU paper's Example 2: "the" occurs 7 times, and at most twice in one
    reference (the first), so two occurrences count and five are clipped.

    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> unigrams = mark_ngrams(references, "the the the the the the the".split(), 1)
    >>> [mark.status for mark in unigrams.marks][:3], unigrams.precision
    (['matched', 'matched', 'clipped'], Precision(2, 7))
    >>> first = unigrams.marks[0]
    >>> first.count, first.clip_limit, first.reference
    (7, 2, 0)
    """
    in_hypothesis = count_ngrams(hypothesis, n)
    limits = max_reference_counts(references, n)
    allowed = clipped_counts(in_hypothesis, limits)
    per_reference = [count_ngrams(reference, n) for reference in references]
    seen: Counter = Counter()
    marks = []
    for position, ngram in enumerate(ngrams(hypothesis, n)):
        seen[ngram] += 1
        limit = limits[ngram]
        if seen[ngram] <= allowed[ngram]:
            status = MATCHED
        else:
            status = CLIPPED if limit else UNMATCHED
        # The first reference that has the n-gram as often as the limit allows.
        source = next((k for k, counts in enumerate(per_reference) if limit and counts[ngram] == limit), None)
        marks.append(Mark(position, ngram, status, in_hypothesis[ngram], limit, source))
    return OrderMarks(n, tuple(marks), modified_precision(references, hypothesis, n))


@door(checks.highest_order, checks.hypothesis, checks.references)
def explain(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], max_n: int = 4) -> MatchView:
    """The match view: every n-gram of ``hypothesis`` marked, for n = 1 to ``max_n``.

    In Jupyter it shows as a picture (HTML); printed, as text. Each mark
    carries the n-gram's count in the hypothesis, its clip limit and the
    reference that allows it.

    >>> references = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> view = explain(references, "the cat the cat on the mat".split(), max_n=2)
    >>> [str(order.precision) for order in view.orders]
    ['5/7', '4/6']
    >>> print(view)  # doctest: +NORMALIZE_WHITESPACE
    Match view: a hypothesis of 7 tokens against 2 references
      hypothesis: the cat the cat on the mat
      R1: the cat is on the mat
      R2: there is a cat on the mat
    marks: ✓ matched (counts toward p_n)  ✂ clipped (past its clip limit)  ✗ unmatched (in no reference)
    <BLANKLINE>
    1-grams: p_1 = 5/7 (5 matched, 2 clipped, 0 unmatched)
      ✓the ✓cat ✓the ✂cat ✓on ✂the ✓mat
      n-gram  count  clip limit  allowed by  marks
      the         3           2  R1          ✓✓✂
      cat         2           1  R1          ✓✂
      on          1           1  R1          ✓
      mat         1           1  R1          ✓
    <BLANKLINE>
    2-grams: p_2 = 4/6 (4 matched, 1 clipped, 1 unmatched)
      ✓[the cat] ✗[cat the] ✂[the cat] ✓[cat on] ✓[on the] ✓[the mat]
      n-gram   count  clip limit  allowed by  marks
      the cat      2           1  R1          ✓✂
      cat the      1           0  -           ✗
      cat on       1           1  R2          ✓
      on the       1           1  R1          ✓
      the mat      1           1  R1          ✓

    "cat on" is allowed by R2 only; the second "the cat" is clipped because
    no reference has it twice.
    """
    orders = [mark_ngrams(references, hypothesis, n) for n in range(1, max_n + 1)]
    return MatchView(references, hypothesis, orders)
