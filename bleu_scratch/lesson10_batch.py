"""Lesson 10: many sentence scores at once, each the same float as ``sentence_bleu``.

Scoring every sentence of a test set, or using sentence BLEU as the reward of a
translation model in training, asks for thousands of sentence scores at a
time, often of token ids. Counted one sentence at a time, their statistics
cost a trip through Python's loops per n-gram; here numpy counts the n-grams
of the whole batch at once:

1. every token becomes an integer id (through a dict, so tokens are equal
   exactly when they are equal in NLTK's Counters);
2. for each order n, every n-gram gets a key naming its sentence and its
   tokens: the number of its first n - 1 tokens, then its last token;
3. one sort of the keys (tagged with whose n-gram it is: the hypothesis's or
   reference r's) puts each n-gram's counts side by side; clipping is the
   hypothesis's count limited by the largest reference count, and a
   sentence's matches are the sum over its n-grams (``np.bincount``);
4. only the n-grams found in the hypothesis and in a reference can begin a
   longer match: the others drop out before the next order, and the rest are
   numbered 0, 1, 2, ... so that keys stay small integers.

Each sentence is then scored by lesson 05's rules (``brevity_penalty``,
``no_smoothing``'s warning, ``reweighed``, ``geometric_mean_score``) with
Python's own floating-point functions, so every value is ``sentence_bleu``'s
to the last bit (numpy's logarithm may differ from the C library's in the last
bit, so it is not used for the score).
"""

import struct
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import chain, count, repeat
from operator import itemgetter

import numpy as np

from . import checks
from .checks import door
from .lesson01_ngrams import Token
from .lesson04_brevity import brevity_penalty
from .lesson05_sentence import (
    DEFAULT_WEIGHTS,
    BleuStats,
    Score,
    Smoothing,
    Weights,
    bleu_from_stats,
    geometric_mean_score,
    max_n_of,
    no_smoothing,
    reweighed,
    weight_vectors,
)

# Sentence pairs counted at a time: enough for numpy to
# work on long arrays, few enough that a chunk's arrays fit in a few MB.
CHUNK = 5_000
# Widest number np.sort sorts for batch_counts, as an int64 (a test lowers it to try the other way).
PACKED_BITS = 63


@door(checks.corpus, checks.highest_order)
def batch_sentence_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int = 4
) -> list[BleuStats]:
    """Each sentence pair's ``sentence_stats``, counted for the whole batch at once.

    >>> list_of_references = [["the cat is on the mat".split()], [[1, 2, 3]]]
    >>> words, ids = batch_sentence_stats(list_of_references, ["the the the".split(), [1, 2, 4]], 2)
    >>> words
    BleuStats(hyp_len=3, ref_len=6, matches=(2, 0), totals=(3, 2), too_short=(0, 0))
    >>> ids
    BleuStats(hyp_len=3, ref_len=3, matches=(2, 1), totals=(3, 2), too_short=(0, 0))
    """
    hyp_lens, ref_lens, matches = _counts_by_chunk(list_of_references, hypotheses, max_n)
    totals = np.maximum(hyp_lens - np.arange(1, max_n + 1)[:, None] + 1, 0)
    return [
        BleuStats(hyp_len, ref_len, tuple(m), tuple(t), tuple(int(total == 0) for total in t))
        for hyp_len, ref_len, m, t in zip(hyp_lens.tolist(), ref_lens.tolist(), matches.T.tolist(), totals.T.tolist())
    ]


@door(checks.corpus, checks.highest_order)
def batch_corpus_stats(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    max_n: int = 4,
    chunk: int = CHUNK,
) -> BleuStats:
    """``corpus_stats``, counted ``chunk`` sentence pairs at a time as batches (memory holds one chunk's arrays).

    >>> batch_corpus_stats([[["a", "b", "c"]], [["d", "e"]]], [["a", "b", "c"], ["d"]], max_n=2, chunk=1)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    total = BleuStats.zero(max_n)
    for start in range(0, len(hypotheses), chunk):
        hyp_lens, ref_lens, matches = batch_counts(
            list_of_references[start : start + chunk], hypotheses[start : start + chunk], max_n
        )
        totals = np.maximum(hyp_lens - np.arange(1, max_n + 1)[:, None] + 1, 0)
        total += BleuStats(
            int(hyp_lens.sum()),
            int(ref_lens.sum()),
            tuple(matches.sum(axis=1).tolist()),
            tuple(totals.sum(axis=1).tolist()),
            tuple((totals == 0).sum(axis=1).tolist()),
        )
    return total


@door(checks.corpus, checks.weights)
def fast_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> Score:
    """Lesson 06's ``corpus_bleu`` on statistics counted as batches: the same value, faster.

    >>> hyp1, hyp2 = "the cat sat on the mat".split(), "a dog".split()
    >>> refs1, refs2 = ["the cat sat on the mat".split()], ["a dog barked".split()]
    >>> round(fast_corpus_bleu([refs1, refs2], [hyp1, hyp2], weights=(0.5, 0.5)), 4)
    0.8825
    """
    ### BEGIN SOLUTION
    stats = batch_corpus_stats(list_of_references, hypotheses, max_n_of(weights))
    # Smoothing methods 5-7 read the last sentence pair, as NLTK's do.
    return bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, list_of_references[-1], hypotheses[-1])
    ### END SOLUTION


@door(checks.corpus, checks.weights)
def batch_sentence_bleu(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    weights: Weights = DEFAULT_WEIGHTS,
    smoothing_function: Smoothing | None = None,
    auto_reweigh: bool = False,
) -> list:
    """``sentence_bleu(references, hypothesis, ...)`` of every pair, with the same warnings, counted as one batch.

    Tokens may be words or integer token ids.

    >>> batch_sentence_bleu([[[1, 2, 3, 4]], [[5, 6]]], [[1, 2, 3, 4], [5, 6]], weights=(0.5, 0.5))
    [1.0, 1.0]
    """
    max_n = max_n_of(weights)
    if smoothing_function:
        stats = batch_sentence_stats(list_of_references, hypotheses, max_n)
        return [
            bleu_from_stats(pair_stats, weights, smoothing_function, auto_reweigh, references, hypothesis)
            for pair_stats, references, hypothesis in zip(stats, list_of_references, hypotheses)
        ]
    # Without smoothing, lesson 05's rules straight from the counts, with no BleuStats to build per sentence.
    hyp_lens, ref_lens, matches = _counts_by_chunk(list_of_references, hypotheses, max_n)
    nltk_totals = np.maximum(hyp_lens - np.arange(1, max_n + 1)[:, None] + 1, 1)
    weight_list = weight_vectors(weights)
    columns = _scores(hyp_lens.tolist(), ref_lens.tolist(), matches, nltk_totals, weight_list, auto_reweigh)
    # Like NLTK, a list of several weight vectors gives a list of scores per sentence.
    return [list(scores) for scores in zip(*columns)] if len(weight_list) > 1 else columns[0]


def _scores(
    hyp_lens: list[int],
    ref_lens: list[int],
    matches: np.ndarray,
    nltk_totals: np.ndarray,
    weight_list: list,
    auto_reweigh: bool,
) -> list[list]:
    """``bleu_from_stats`` of every sentence without smoothing, a list of scores per weight vector.

    The same rules, with each precision as the float m / t (as ``bleu_from_stats`` has it).
    """
    # numpy's m / t is Python's: both divide the two ints as exact doubles, rounded once.
    rows = (matches / nltk_totals).T.tolist()
    scored = (matches[0] > 0).tolist()  # with no unigram match the score is the int 0, and nothing warns
    warns = ((matches == 0).any(axis=0) & (matches[0] > 0)).tolist()
    p_rows = [no_smoothing(p_n) if warn else p_n for p_n, warn in zip(rows, warns)]  # warnings in sentence order
    bps = list(map(brevity_penalty, ref_lens, hyp_lens))
    columns = []
    for weight in weight_list:
        # A sentence with no unigram match is never reweighed: NLTK returns 0 before that rule.
        weights: Iterable[Sequence[float]] = (
            [reweighed(weight, hyp_len, True) if ok else weight for hyp_len, ok in zip(hyp_lens, scored)]
            if auto_reweigh
            else repeat(weight)
        )
        column = map(geometric_mean_score, p_rows, weights, bps)
        columns.append([score if ok else 0 for score, ok in zip(column, scored)])
    return columns


def batch_counts(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]], max_n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hypothesis lengths, closest reference lengths, and clipped matches (one row per order), of every pair."""
    ### BEGIN SOLUTION
    references = [reference for refs in list_of_references for reference in refs]
    hyp_lens = np.fromiter(map(len, hypotheses), np.int64, len(hypotheses))
    ref_lens = np.fromiter(map(len, references), np.int64, len(references))
    refs_per_sentence = np.fromiter(map(len, list_of_references), np.int64, len(hypotheses))
    ref_sentence = np.repeat(np.arange(len(hypotheses)), refs_per_sentence)
    first_ref = np.cumsum(refs_per_sentence) - refs_per_sentence
    ref_number = np.arange(len(references)) - first_ref[ref_sentence]  # its place among its sentence's references
    # Every token of the batch, hypotheses first, with its sentence, whose it is (0 the
    # hypothesis's, r + 1 the sentence's reference r's), and its room: how many tokens its
    # text has from it to the end, itself included (the longest n-gram that can start there).
    # Arrays this long hold int32 where the numbers fit: half the memory to write.
    tokens, largest = _token_ids(list_of_references, hypotheses)
    small = _index_type(len(tokens))
    text_lens = np.concatenate([hyp_lens, ref_lens])
    sentence: np.ndarray = np.repeat(
        np.concatenate([np.arange(len(hypotheses)), ref_sentence]).astype(small), text_lens
    )
    tag: np.ndarray = np.repeat(
        np.concatenate([np.zeros(len(hypotheses), np.int64), ref_number + 1]).astype(small), text_lens
    )
    room: np.ndarray = np.repeat(np.cumsum(text_lens).astype(small), text_lens)
    room -= np.arange(len(tokens), dtype=small)

    token_bits = max(largest, 1).bit_length()
    matches = np.zeros((max_n, len(hypotheses)), dtype=np.int64)
    start: np.ndarray = np.arange(len(tokens), dtype=small)  # where each n-gram still in the running starts
    prefix = sentence  # a number for its sentence and its first n - 1 tokens
    sentence_of = np.arange(len(hypotheses))  # the sentence of each prefix number
    for n in range(1, max_n + 1):
        if n > 1:
            fits = room[start] >= n  # an n-gram ends in the text it starts in
            start, prefix = start[fits], prefix[fits]
        key = prefix.astype(np.int64)
        key <<= token_bits
        # At order 1 every position starts an n-gram: the arrays as they are, with nothing to gather.
        last_token, text_tag = (tokens, tag) if n == 1 else (tokens[start + n - 1], tag[start])
        key |= last_token
        # Sorted by (n-gram, whose), each n-gram's counts lie side by side, the hypothesis's first.
        run_key, whose, first, order = _runs(key, text_tag)  # each run: one n-gram in one text
        counts = np.diff(np.append(first, len(key)))
        group = _starts(run_key)  # each n-gram's first run: the hypothesis's, if it has the n-gram
        in_hypothesis = np.where(whose[group] == 0, counts[group], 0)
        most_in_a_reference = np.maximum.reduceat(np.where(whose > 0, counts, 0), group) if len(group) else group
        clipped = np.minimum(in_hypothesis, most_in_a_reference)
        group_sentence = sentence_of[run_key[group] >> token_bits]  # a key's high bits are its prefix number
        matches[n - 1] = np.bincount(group_sentence, weights=clipped, minlength=len(hypotheses))
        if n < max_n:
            # Only an n-gram in the hypothesis and in a reference can begin a longer match. The
            # others drop out; the rest are numbered 0, 1, 2, ... as the next order's prefixes.
            shared = clipped > 0
            size = np.diff(np.append(first[group], len(key)))  # each n-gram's count in the batch, side by side
            keep = np.repeat(shared, size)
            start = order[keep] if n == 1 else start[order[keep]]
            prefix = np.repeat(np.arange(np.count_nonzero(shared), dtype=small), size[shared])
            sentence_of = group_sentence[shared]

    # The closest reference length, ties to the shorter: the smallest (distance, length).
    distance = np.abs(ref_lens - hyp_lens[ref_sentence])
    longest = int(ref_lens.max(initial=0)) + 1
    closest = np.minimum.reduceat(distance * longest + ref_lens, first_ref) % longest
    return hyp_lens, closest, matches
    ### END SOLUTION


def _counts_by_chunk(
    list_of_references: Sequence[Sequence[Sequence[Token]]],
    hypotheses: Sequence[Sequence[Token]],
    max_n: int,
    chunk: int = CHUNK,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``batch_counts`` of the whole batch, counted ``chunk`` pairs at a time (memory holds one chunk's arrays)."""
    parts = [
        batch_counts(list_of_references[start : start + chunk], hypotheses[start : start + chunk], max_n)
        for start in range(0, len(hypotheses), chunk)
    ]
    if len(parts) == 1:
        return parts[0]
    hyp_lens, ref_lens, matches = zip(*parts)
    return np.concatenate(hyp_lens), np.concatenate(ref_lens), np.concatenate(matches, axis=1)


def _token_ids(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]]
) -> tuple[np.ndarray, int]:
    """Every token of the batch as an int32, hypotheses first, then the references in order; and the largest.

    Token ids (ints from 0 to 2**31 - 1) stay as they are. Other tokens are
    numbered by a dict, so they get the same number exactly when they are
    equal in NLTK's Counters; a reference token found in no hypothesis cannot
    match, and they all share one number.
    """
    hypothesis_tokens = tuple(chain.from_iterable(hypotheses))
    reference_tokens = tuple(chain.from_iterable(chain.from_iterable(list_of_references)))
    if type(next(chain(hypothesis_tokens, reference_tokens), None)) is int:
        distinct = set(hypothesis_tokens).union(reference_tokens)
        if all(type(token) is int and 0 <= token < 1 << 31 for token in distinct):
            return _int32_array(hypothesis_tokens + reference_tokens), max(distinct)  # type: ignore[type-var, return-value]
    # A new hypothesis token gets the next number as it is first seen (in C: the
    # defaultdict calls the counter); then every reference token is looked up, and
    # one found in no hypothesis gets the number after them.
    numbers: defaultdict[Token, int] = defaultdict(count().__next__)
    hypothesis_ids = _look_up(numbers, hypothesis_tokens)
    unmatched = len(numbers)
    numbers.default_factory = repeat(unmatched).__next__
    return _int32_array(hypothesis_ids + _look_up(numbers, reference_tokens)), unmatched


def _int32_array(numbers: tuple) -> np.ndarray:
    """The numbers (each from 0 to 2**31 - 1) as an int32 array.

    ``struct.pack`` turns each int into 4 bytes in C, with less work per int
    than ``np.fromiter`` does. It takes only ints: a float equal to an int id
    (1.0 for 1, the same token in NLTK's Counters) is converted by numpy.

    >>> _int32_array((0, 7, 2**31 - 1)), _int32_array((1, 1.0))
    (array([         0,          7, 2147483647], dtype=int32), array([1, 1], dtype=int32))
    """
    try:
        return np.frombuffer(struct.pack(f"={len(numbers)}i", *numbers), np.int32)
    except struct.error:
        return np.fromiter(numbers, np.int32, len(numbers))


def _look_up(table: dict, keys: tuple) -> tuple:
    """``table[key]`` of every key, looked up in C by one ``itemgetter`` call.

    ``itemgetter`` needs at least one key, and with one it returns the value
    itself, not a tuple: those two cases are looked up one by one.
    """
    return itemgetter(*keys)(table) if len(keys) > 1 else tuple(table[key] for key in keys)


def _runs(key: np.ndarray, tag: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sort by key, then tag; return each run of equal (key, tag): its key, tag and start; and the sorting order.

    The order is ``np.lexsort``'s.

    Where key, tag and row number fit in one int64 side by side, one
    ``np.sort`` of those numbers does it, faster than ``np.lexsort`` or
    ``np.argsort``. It is done in ``key`` itself, which the caller gives up:
    each new array this long can be fresh memory that the system maps page by
    page, a cost of its own on top of the arithmetic.
    """
    tag_bits = int(tag.max(initial=0)).bit_length()
    row_bits = max(len(key) - 1, 1).bit_length()
    if int(key.max(initial=0)).bit_length() + tag_bits + row_bits > PACKED_BITS:
        order = np.lexsort((tag, key))
        key, tag = key[order], tag[order]
        first = _starts(key, tag)
        return key[first], tag[first], first, order
    packed = key
    packed <<= tag_bits
    packed |= tag
    packed <<= row_bits
    packed |= np.arange(len(packed))
    packed.sort()
    order = (packed & ((1 << row_bits) - 1)).astype(_index_type(len(packed)))
    packed >>= row_bits  # each is now key << tag_bits | tag
    first = _starts(packed)
    runs = packed[first]
    return runs >> tag_bits, runs & ((1 << tag_bits) - 1), first, order


def _index_type(size: int) -> type:
    """int32 where every position of ``size`` things fits, else int64.

    >>> _index_type(5_000).__name__, _index_type(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if size < 1 << 31 else np.int64


def _starts(*columns: np.ndarray) -> np.ndarray:
    """Where each run of equal rows (equal in every column) of sorted columns starts."""
    change = np.zeros(len(columns[0]), dtype=bool)
    change[:1] = True
    for column in columns:
        change[1:] |= column[1:] != column[:-1]
    return np.flatnonzero(change)
