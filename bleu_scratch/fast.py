"""The statistics of lessons 05-06, counted fast.

``sentence_stats`` builds a Counter per reference per order and clips with
Python loops: clear, but as slow as NLTK. This module computes the same
``BleuStats`` (tests/test_fast.py checks equality on random corpora) with the
per-n-gram work inside C, and with less of it:

- n-grams come from ``zip`` over shifted slices; unigrams are the tokens
  themselves (orders are never mixed, so no 1-tuples are needed);
- most hypotheses repeat no bigram, trigram or 4-gram (and many repeat no
  word). For such an order, clipping a count of 1 can only leave 1 or 0, so
  the matches are simply the hypothesis n-grams found in at least one
  reference: one set difference, with the references streamed through it,
  never counted;
- otherwise, as in the lesson, the count of each hypothesis n-gram is clipped
  by its maximum count in a reference, with ``map(max, ...)`` and
  ``map(min, ...)`` over Counter lookups instead of Python loops;
- corpus totals are kept as plain integer lists, not summed ``BleuStats``.

It skips input checks; callers check first (``corpus_bleu`` does).
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import repeat

from .ngrams import Token
from .sentence import BleuStats


def fast_sentence_stats(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], max_n: int = 4) -> BleuStats:
    """Equal to ``sentence_stats(references, hypothesis, max_n)``, several times faster.

    >>> fast_sentence_stats(["the cat is on the mat".split()], "the the the".split(), max_n=2)
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    """
    return fast_stats_of_pairs([(references, hypothesis)], max_n)


def fast_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int = 4
) -> BleuStats:
    """Equal to ``corpus_stats(list_of_references, hypotheses, max_n)``.

    >>> fast_corpus_stats([[["a", "b", "c"]], [["d", "e"]]], [["a", "b", "c"], ["d"]], max_n=2)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    return fast_stats_of_pairs(zip(list_of_references, hypotheses), max_n)


def fast_stats_of_pairs(pairs: Iterable[tuple[Sequence[Sequence[Token]], Sequence[Token]]], max_n: int = 4) -> BleuStats:
    """Sum the statistics of ``(references, hypothesis)`` pairs read one at a time.

    Takes any iterable, so a stream of lines is scored in constant memory.

    "the" occurs three times in the hypothesis, so unigrams are clipped by
    counts (at most 2, the count in the first reference); the bigrams are all
    different, so each one counts if some reference has it ("the cat", "the
    mat" do; "cat the", "mat the" do not):

    >>> refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    >>> fast_stats_of_pairs([(refs, "the cat the mat the".split())], max_n=2)
    BleuStats(hyp_len=5, ref_len=6, matches=(4, 2), totals=(5, 4), too_short=(0, 0))
    """
    hyp_len = ref_len = 0
    matches, totals, too_short = [0] * max_n, [0] * max_n, [0] * max_n
    for references, hypothesis in pairs:
        length = len(hypothesis)
        hyp_len += length
        ref_len += min((len(r) for r in references), key=lambda r: (abs(r - length), r))
        for i in range(max_n):
            n, total = i + 1, length - i
            if total <= 0:
                too_short[i] += 1
                continue
            totals[i] += total
            distinct = set(_ngrams_of_order(hypothesis, n))
            if len(distinct) == total:
                unmatched = distinct.difference(*(_ngrams_of_order(r, n) for r in references))
                matches[i] += total - len(unmatched)
            else:
                matches[i] += _clipped_matches(references, Counter(_ngrams_of_order(hypothesis, n)), n)
    return BleuStats(hyp_len, ref_len, tuple(matches), tuple(totals), tuple(too_short))


def _clipped_matches(references: Sequence[Sequence[Token]], hyp_counts: Counter, n: int) -> int:
    """Sum over hypothesis n-grams of min(count, its maximum count in one reference)."""
    ref_counts = (Counter(_ngrams_of_order(r, n)) for r in references)
    per_reference = [map(counts.get, hyp_counts, repeat(0)) for counts in ref_counts]
    allowed = per_reference[0] if len(per_reference) == 1 else map(max, *per_reference)
    return sum(map(min, hyp_counts.values(), allowed))


def _ngrams_of_order(tokens: Sequence[Token], n: int) -> Iterable:
    """The n-grams of ``tokens`` as tuples, or the tokens themselves for n = 1."""
    return tokens if n == 1 else zip(*[tokens[k:] for k in range(n)])
