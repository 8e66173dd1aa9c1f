"""Lesson 10: the statistics of lessons 05-06, counted fast.

``sentence_stats`` builds a Counter per reference per order and clips with
Python loops: clear, but as slow as NLTK. This module computes the same
``BleuStats`` (tests/lessons/test_fast.py checks equality on random corpora) with the
per-n-gram work inside C, and with less of it:

- n-grams come from ``zip`` over shifted slices; unigrams are the tokens
  themselves (orders are never mixed, so no 1-tuples are needed);
- most hypotheses repeat no bigram, trigram or 4-gram (and many repeat no
  word). For such an order, clipping a count of 1 can only leave 1 or 0, so
  the matches are simply the hypothesis n-grams found in at least one
  reference: one set difference, with the references streamed through it,
  never counted;
- otherwise the same holds for the n-grams the hypothesis has once, and only
  its repeated n-grams are clipped, as in the lesson, by their largest count
  in one reference (``list.count``);
- each sentence's shifted slices (``tokens[k:]``) are made once and zipped
  for every order;
- an n-gram contains two (n - 1)-grams, so once an order has no match, no
  higher order can have one: those orders are not counted at all;
- corpus totals are kept as plain integer lists, not summed ``BleuStats``.

``fast_sentence_bleu`` is lesson 05's ``sentence_bleu`` on these statistics,
scored by lesson 05's ``bleu_from_stats``: the same values
(tests/lessons/test_fast.py holds them equal), faster.
"""

from collections import Counter
from collections.abc import Iterable, Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson04_brevity import closest_ref_length
from .lesson05_sentence import DEFAULT_WEIGHTS, BleuStats, Score, Smoothing, Weights, bleu_from_stats, max_n_of


@door(checks.sentence_pair, checks.highest_order)
def fast_sentence_stats(
    references: Sequence[Sequence[Token]], hypothesis: Sequence[Token], max_n: int = 4
) -> BleuStats:
    """Equal to ``sentence_stats(references, hypothesis, max_n)``, several times faster.

    >>> fast_sentence_stats(["the cat is on the mat".split()], "the the the".split(), max_n=2)
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    """
    return fast_stats_of_pairs([(references, hypothesis)], max_n)


@door(checks.corpus, checks.highest_order)
def fast_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int = 4
) -> BleuStats:
    """Equal to ``corpus_stats(list_of_references, hypotheses, max_n)``.

    >>> fast_corpus_stats([[["a", "b", "c"]], [["d", "e"]]], [["a", "b", "c"], ["d"]], max_n=2)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    return fast_stats_of_pairs(zip(list_of_references, hypotheses), max_n)


@door(checks.pairs, checks.highest_order)
def fast_stats_of_pairs(
    pairs: Iterable[tuple[Sequence[Sequence[Token]], Sequence[Token]]], max_n: int = 4
) -> BleuStats:
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
    ### BEGIN SOLUTION
    hyp_len = ref_len = 0
    matches, totals, too_short = [0] * max_n, [0] * max_n, [0] * max_n
    for references, hypothesis in pairs:
        length = len(hypothesis)
        hyp_len += length
        ref_len += closest_ref_length(references, length)
        hyp_shifts = _shifts(hypothesis, max_n)
        ref_shifts = [_shifts(r, max_n) for r in references]
        found = length
        for i in range(max_n):
            n, total = i + 1, length - i
            if total <= 0:
                too_short[i] += 1
                continue
            totals[i] += total
            if not found:  # no (n - 1)-gram matched, so no n-gram can: it would contain one
                continue
            distinct = set(_ngrams(hyp_shifts, n))
            if len(distinct) == total:
                unmatched = distinct.difference(*(_ngrams(shifts, n) for shifts in ref_shifts))
                found = total - len(unmatched)
            else:
                hyp_counts = Counter(_ngrams(hyp_shifts, n))
                found = clipped_matches(hyp_counts, [list(_ngrams(shifts, n)) for shifts in ref_shifts])
            matches[i] += found
    return BleuStats(hyp_len, ref_len, tuple(matches), tuple(totals), tuple(too_short))
    ### END SOLUTION


def clipped_matches(hyp_counts: Counter, ref_ngrams: list[list]) -> int:
    """Sum over hypothesis n-grams of min(count, its largest count in one reference).

    An n-gram the hypothesis has once counts if any reference has it (a set
    difference, as above); only the few repeated ones are counted in the
    references, with ``list.count``.

    >>> clipped_matches(Counter("the the the cat".split()), ["the cat the".split(), "a cat".split()])
    3
    """
    ### BEGIN SOLUTION
    repeated = {ngram: count for ngram, count in hyp_counts.items() if count > 1}
    once = hyp_counts.keys() - repeated.keys()
    found = len(once) - len(once.difference(*ref_ngrams))
    return found + sum(
        min(count, max(ngrams.count(ngram) for ngrams in ref_ngrams)) for ngram, count in repeated.items()
    )
    ### END SOLUTION


def _shifts(tokens: Sequence[Token], max_n: int) -> list[Sequence[Token]]:
    """``tokens``, ``tokens[1:]``, ..., ``tokens[max_n - 1:]``: zipping the first n gives the n-grams."""
    return [tokens[k:] for k in range(max_n)]


def _ngrams(shifts: list[Sequence[Token]], n: int) -> Iterable:
    """The n-grams as tuples from ``_shifts``, or the tokens themselves for n = 1."""
    return shifts[0] if n == 1 else zip(*shifts[:n])


@door(checks.sentence_pair, checks.weights)
def fast_sentence_bleu(
    references: Sequence[Sequence[Token]],
    hypothesis: Sequence[Token],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """Lesson 05's ``sentence_bleu`` on statistics counted by ``fast_sentence_stats``: the same value, faster.

    >>> round(fast_sentence_bleu(["the cat sat on the mat".split()], "the cat sat on a mat".split()), 4)
    0.5373
    """
    ### BEGIN SOLUTION
    stats = fast_sentence_stats(references, hypothesis, max_n_of(weights))
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, references, hypothesis)
    ### END SOLUTION
