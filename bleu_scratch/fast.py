"""The statistics of lessons 05-06, counted fast.

``sentence_stats`` builds a Counter per reference per order and clips with
Python loops: clear, but as slow as NLTK. This module computes the same
``BleuStats`` (the tests check equality on random corpora) while keeping the
per-n-gram work inside C:

- n-grams come from ``zip`` over shifted slices, counted by ``Counter``;
- clipping looks up only the hypothesis's n-grams in each reference
  (``map(ref.get, ...)``), takes the maximum over references and the minimum
  with the hypothesis count with ``map(max, ...)`` and ``map(min, ...)``;
- corpus totals are kept as plain integer lists, not summed ``BleuStats``.

It skips input checks; callers check first (``corpus_bleu`` does).
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, repeat

from .ngrams import Token
from .sentence import BleuStats


def fast_sentence_stats(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], max_n: int = 4) -> BleuStats:
    """Equal to ``sentence_stats(references, hypothesis, max_n)``, about 5x faster.

    >>> fast_sentence_stats(["the cat is on the mat".split()], "the the the".split(), max_n=2)
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    """
    return fast_stats_of_pairs([(references, hypothesis)], max_n)


def fast_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int = 4
) -> BleuStats:
    """Equal to ``corpus_stats(list_of_references, hypotheses, max_n)``."""
    return fast_stats_of_pairs(zip(list_of_references, hypotheses), max_n)


def fast_stats_of_pairs(pairs: Iterable[tuple[Sequence[Sequence[Token]], Sequence[Token]]], max_n: int = 4) -> BleuStats:
    """Sum the statistics of ``(references, hypothesis)`` pairs read one at a time.

    Takes any iterable, so a stream of lines is scored in constant memory.
    """
    hyp_len = ref_len = 0
    matches, totals, too_short = [0] * max_n, [0] * max_n, [0] * max_n
    for references, hypothesis in pairs:
        length = len(hypothesis)
        hyp_len += length
        ref_len += min((len(r) for r in references), key=lambda r: (abs(r - length), r))
        # One Counter per reference holds every order: n-grams of different
        # orders are tuples of different lengths, so they never collide.
        ref_counts = [_all_order_counts(r, max_n) for r in references]
        for i in range(max_n):
            total = length - i
            if total <= 0:
                too_short[i] += 1
                continue
            totals[i] += total
            hyp_counts = Counter(_shifted_zip(hypothesis, i + 1))
            if len(ref_counts) == 1:
                allowed = map(ref_counts[0].get, hyp_counts, repeat(0))
            else:
                allowed = map(max, *(map(rc.get, hyp_counts, repeat(0)) for rc in ref_counts))
            matches[i] += sum(map(min, hyp_counts.values(), allowed))
    return BleuStats(hyp_len, ref_len, tuple(matches), tuple(totals), tuple(too_short))


def _shifted_zip(tokens: Sequence[Token], n: int) -> Iterable[tuple]:
    return zip(*[tokens[k:] for k in range(n)])


def _all_order_counts(tokens: Sequence[Token], max_n: int) -> Counter:
    return Counter(chain.from_iterable(_shifted_zip(tokens, n) for n in range(1, max_n + 1)))
