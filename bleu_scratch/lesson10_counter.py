"""Lesson 10: the one fast counter, a loop over each sentence pair's row that numba compiles to machine code.

``count_row`` counts one row of ``TokenArrays`` (lesson 10's arrays: token
numbers, -1 where there is none, and which text each column is) as lesson 02
counts, one column after another; numba compiles it, so each step takes
nanoseconds where Python's loop would take far longer:

1. every distinct n-gram of the row gets a number, 0, 1, 2, ..., through a
   hash table (``numbered``): for unigrams, of the tokens; for a longer
   n-gram, of a key made of two numbers, its first n - 1 tokens' and its
   last token's;
2. one pass over the row counts each number in the hypothesis and its
   largest count in any one reference; the clipped count is the smaller
   (lesson 02), the matches their sum;
3. an n-gram that matches nothing becomes -1 before the next order, so that
   no longer n-gram is built on it; when an order has no match, the row is
   done.

``count_rows`` runs it on every row of a batch; ``batch_counts``
(``lesson10_batch``) calls it. ``laid_out`` lays a batch's rows out (for
``lesson10_arrays``), copying each text's numbers into place.
"""

from collections.abc import Callable

import numpy as np
from numba import njit


def compiled(function: Callable) -> Callable:
    """``function`` compiled to machine code by numba when first called, and cached on disk where numba may write
    (beside this file, else in the user's cache folder); where it may not, compiled again in each process."""
    try:
        return njit(cache=True)(function)
    except RuntimeError:  # numba found no folder to write its cache to
        return njit(function)


@compiled
def count_rows(tokens: np.ndarray, whose: np.ndarray, matches: np.ndarray) -> None:
    """``count_row`` of every row of ``tokens``, into its column of ``matches`` (a row per order)."""
    for pair in range(len(tokens)):
        count_row(tokens[pair], whose, matches[:, pair])


@compiled
def laid_out(
    numbered: np.ndarray, starts: np.ndarray, lengths: np.ndarray, first_refs: np.ndarray, pairs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``pairs`` (lesson 10's arrays), which columns are whose, and the pairs' reference lengths in order.

    Text t's tokens are ``numbered[starts[t]:starts[t] + lengths[t]]``: text
    p is pair p's hypothesis, and pair p's references are the texts from
    ``first_refs[p]`` to ``first_refs[p + 1]``. Each row is -1 and the
    hypothesis, then -1 and each reference, each text in as many columns as
    the longest of its kind among the pairs, and -1 wherever there is no token.

    >>> numbered = np.array([7, 8, 9, 7, 8, 9])  # hypotheses [7] and [8, 9], references [7] and [8, 9]
    >>> rows, whose, ref_lens = laid_out(numbered, np.array([0, 1, 3, 4]), np.array([1, 2, 1, 2]),
    ...                                  np.array([2, 3, 4]), np.array([1, 0]))
    >>> rows, whose, ref_lens
    (array([[-1,  8,  9, -1,  8,  9],
           [-1,  7, -1, -1,  7, -1]]), array([0, 0, 0, 1, 1, 1]), array([2, 1]))
    """
    hyp_width, ref_width, refs, references = 0, 0, 1, 0
    for pair in pairs:
        hyp_width = max(hyp_width, lengths[pair])
        refs = max(refs, first_refs[pair + 1] - first_refs[pair])
        references += first_refs[pair + 1] - first_refs[pair]
        for text in range(first_refs[pair], first_refs[pair + 1]):
            ref_width = max(ref_width, lengths[text])
    rows = np.full((len(pairs), 1 + hyp_width + refs * (1 + ref_width)), -1, dtype=np.int64)
    whose = np.zeros(rows.shape[1], dtype=np.int64)
    for r in range(refs):
        start = 1 + hyp_width + r * (1 + ref_width)
        whose[start : start + 1 + ref_width] = r + 1
    ref_lens = np.empty(references, dtype=np.int64)
    found = 0
    for i, pair in enumerate(pairs):
        rows[i, 1 : 1 + lengths[pair]] = numbered[starts[pair] : starts[pair] + lengths[pair]]
        column = 2 + hyp_width
        for text in range(first_refs[pair], first_refs[pair + 1]):
            rows[i, column : column + lengths[text]] = numbered[starts[text] : starts[text] + lengths[text]]
            ref_lens[found] = lengths[text]
            found += 1
            column += 1 + ref_width
    return rows, whose, ref_lens


@compiled
def count_row(row: np.ndarray, whose: np.ndarray, matches: np.ndarray) -> None:
    """The clipped matches of one sentence pair's row, for each order 1, 2, ... (``matches[n - 1]``, 0 past the last
    order with a match).

    ``row`` holds token numbers, -1 where there is none, and ``whose`` says
    which text each column is (0 for the hypothesis, r for reference r).
    Each n-gram of the row gets a number, the same wherever it occurs: its
    tokens' numbers for unigrams, and for a longer n-gram the number of the
    pair (number of its first n - 1 tokens, number of its last token), given
    by ``numbered``. Counting then needs no dict: ``in_hypothesis[k]`` and
    ``most_in_a_reference[k]`` are n-gram k's counts. An n-gram that matches
    nothing is given -1 before the next order, so that no longer n-gram
    that holds it is counted: when an order has no match, no higher order
    has one and the row is done.

    >>> matches = np.zeros(2, dtype=np.int64)
    >>> count_row(np.array([-1, 7, 7, 8, -1, 7, 8]), np.array([0, 0, 0, 0, 1, 1, 1]), matches)
    >>> matches  # "7 7 8" against "7 8": one 7 (clipped), one 8, and the bigram "7 8"
    array([2, 1])
    """
    ### BEGIN SOLUTION
    matches[:] = 0
    width = len(row)
    table = np.empty(hash_table_size(width), dtype=np.int64)
    numbers = np.empty(width, dtype=np.int64)  # the number of the n-gram that starts in each column, or -1
    first = np.empty(width, dtype=np.int64)  # the number of each column's token, or -1
    keys = np.empty(width, dtype=np.int64)
    in_hypothesis = np.empty(width, dtype=np.int64)
    in_reference = np.empty(width, dtype=np.int64)
    most_in_a_reference = np.empty(width, dtype=np.int64)
    counted_for = np.empty(width, dtype=np.int64)  # the reference whose count in_reference holds
    for n in range(1, len(matches) + 1):
        if n == 1:
            distinct = numbered(row, table, numbers)
        else:  # an n-gram: its first n - 1 tokens, then its last token, as one key
            keys[:] = -1
            for i in range(width - n + 1):
                if numbers[i] >= 0 and first[i + n - 1] >= 0:
                    keys[i] = numbers[i] * width + first[i + n - 1]
            distinct = numbered(keys, table, numbers)
        in_hypothesis[:distinct] = 0
        most_in_a_reference[:distinct] = 0
        counted_for[:distinct] = 0
        for i in range(width):
            k = numbers[i]
            if k < 0:
                continue
            if whose[i] == 0:
                in_hypothesis[k] += 1
            else:  # a reference's columns come together, reference 1 first: a new one starts a new count
                if counted_for[k] != whose[i]:
                    counted_for[k] = whose[i]
                    in_reference[k] = 0
                in_reference[k] += 1
                most_in_a_reference[k] = max(most_in_a_reference[k], in_reference[k])
        clipped = 0
        for k in range(distinct):
            clipped += min(in_hypothesis[k], most_in_a_reference[k])
        matches[n - 1] = clipped
        if clipped == 0:
            return
        for i in range(width):
            if numbers[i] >= 0 and min(in_hypothesis[numbers[i]], most_in_a_reference[numbers[i]]) == 0:
                numbers[i] = -1
        if n == 1:
            first[:] = numbers
    ### END SOLUTION


@compiled
def hash_table_size(keys: int) -> int:
    """A power of two at least twice ``keys``: a table of that size stays at most half full."""
    size = 2
    while size < 2 * keys:
        size *= 2
    return size


@compiled
def numbered(keys: np.ndarray, table: np.ndarray, numbers: np.ndarray) -> int:
    """Each key's number among the distinct keys, 0, 1, 2, ... as first seen, into ``numbers`` (a key -1 stays -1);
    returns how many distinct keys there are.

    ``table`` is a hash table, ``hash_table_size(len(keys))`` slots (a power
    of two, at least twice the keys, so that a search always ends at an empty
    slot): each key is looked for from the slot its hash gives, slot after
    slot, until the slot holds it (the place of a key seen before) or is empty
    (-1: a new key, kept there). Fibonacci hashing spreads the keys: the key
    (its two halves of 32 bits mixed) times 2**32 divided by the golden ratio,
    of which the slot is the top bits of the low 32. Kept to 32 bits, the
    arithmetic gives the same slots compiled (where an int has 64 bits and
    wraps around) and as plain Python (``numbered.py_func``).

    >>> numbers = np.empty(5, dtype=np.int64)
    >>> numbered(np.array([40, -1, 7, 40, 7]), np.empty(16, dtype=np.int64), numbers), numbers
    (2, array([ 0, -1,  1,  0,  1]))
    >>> numbered(np.array([40, 7, 3]), np.empty(4, dtype=np.int64), numbers)  # compiled code checks no index: this does
    Traceback (most recent call last):
    ...
    ValueError: numbered needs a table of hash_table_size(len(keys)) slots
    """
    if len(table) < 2 * len(keys) or len(table) & (len(table) - 1) or len(table) > 1 << 32:
        raise ValueError("numbered needs a table of hash_table_size(len(keys)) slots")
    table[:] = -1
    bits = 0  # the slot is the hash's top log2(len(table)) bits
    while 1 << bits < len(table):
        bits += 1
    distinct = 0
    for i in range(len(keys)):
        key = int(keys[i])  # as plain Python, an int of any size: no numpy overflow
        if key < 0:
            numbers[i] = -1
            continue
        hashed = ((key ^ (key >> 32)) & 0xFFFFFFFF) * 0x9E3779B9 & 0xFFFFFFFF
        slot = hashed >> (32 - bits)
        while table[slot] >= 0 and keys[table[slot]] != key:
            slot = (slot + 1) & (len(table) - 1)
        if table[slot] < 0:  # a new key: the next number
            table[slot] = i
            numbers[i] = distinct
            distinct += 1
        else:
            numbers[i] = numbers[table[slot]]
    return distinct
