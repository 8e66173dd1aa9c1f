"""Lesson 10: a batch as arrays, every token a number and every sentence pair a row.

The counter (``lesson10_counter``) counts numbers in arrays, so a batch of
sentence pairs first becomes a ``TokenArrays``: a 2-D array of token numbers with one row per sentence pair,
the hypothesis first and then each reference, every text in columns of its
own (``whose`` says which text a column belongs to) and -1 wherever there is
no token: before each text, and after a text shorter than its columns.
Tokens may come as people have them:

- lists of words: each distinct word gets a number through a dict, so two
  tokens get the same number exactly when they are equal in NLTK's Counters;
- lists of integer token ids: the ids are the numbers;
- 2-D integer arrays, as a training loop holds a batch (hypotheses of shape
  (batch, length); references of shape (batch, references, length), or
  (batch, length) for one reference each), with each row's length given or
  its padding marked by ``pad_id``: masks of where the tokens are take them
  out at once, with no Python loop over the rows.

A large batch is counted in chunks (``chunked_arrays``) of a bounded number
of array cells: for lists, pairs of about the same length together
(``chunks``), so that short rows are not padded to the longest; for 2-D
arrays, consecutive rows. The words of lists
are numbered first, a slab of consecutive pairs at a time (``slabs``), in the
order they lie in memory; each chunk then takes its rows from those numbers
(``pairs_in_rows``), and so do the tokens of arrays.
"""

import struct
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, count
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from . import checks
from .checks import door

# Ids this small stay as they are; larger ones, or other tokens, are numbered.
ID_LIMIT = 1 << 31
INT_TYPES = {int, bool}  # a bool is the int 0 or 1 in NLTK's Counters too
# Sentence pairs counted at a time, and array cells (a pair's row is as wide as its texts): enough
# for each numpy call that builds the rows to work on thousands of numbers, few enough that a chunk's
# arrays stay in the CPU's cache and in memory the allocator hands out again.
CHUNK = 5_000
CELLS = 1 << 16
FEW = 256  # pairs: a group of fewer is counted with the next, wider one
# Tokens of lists numbered at a time, in the order they are given (where they lie in memory, and before the
# chunks are counted, whose arrays would push them out of the CPU's cache); the numbers take a few
# dozen bytes a token until they are counted.
TOKENS = 1 << 20


class TokenArrays(NamedTuple):
    """A batch of sentence pairs as arrays: a row of token numbers (-1 for none) per pair."""

    tokens: np.ndarray  # (pairs, columns): -1, the hypothesis, then -1 and a reference, for each reference
    whose: np.ndarray  # (columns,): 0 for the hypothesis's columns, r for reference r's
    hyp_lens: np.ndarray  # per pair
    ref_lens: np.ndarray  # per reference, pair by pair
    refs_per_sentence: np.ndarray


@door(checks.batch)
def token_arrays(
    list_of_references: Any,
    hypotheses: Any,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
) -> TokenArrays:
    """The batch as ``TokenArrays``, from lists of tokens or from 2-D integer arrays.

    >>> arrays = token_arrays([[["the", "cat"], ["a", "cat"]]], [["the", "the", "dog"]])
    >>> arrays.tokens
    array([[-1,  0,  0,  1, -1,  0,  2, -1,  3,  2]])
    >>> arrays.whose
    array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2])

    "the" is 0, "dog" 1, "cat" 2 and "a" 3, numbered as first seen. With
    arrays, the pad id marks where each row's tokens are:

    >>> hypotheses = np.array([[5, 6, 7], [8, 0, 0]])
    >>> references = np.array([[5, 6, 0], [8, 9, 0]])
    >>> token_arrays(references, hypotheses, pad_id=0).tokens
    array([[-1,  5,  6,  7, -1,  5,  6],
           [-1,  8, -1, -1, -1,  8,  9]])
    """
    if isinstance(hypotheses, np.ndarray) and hypotheses.ndim == 2:
        return _from_arrays(list_of_references, hypotheses, pad_id, hypothesis_lengths, reference_lengths)
    lengths = text_lengths(list_of_references, hypotheses)
    with checks.named_bad_token(list_of_references, hypotheses):  # a token the dict cannot hash
        numbered = numbered_tokens(list_of_references, hypotheses, defaultdict(count().__next__))
    return pairs_in_rows(numbered, lengths, np.arange(len(hypotheses)))


class Lengths(NamedTuple):
    """How long each text of a batch is."""

    hyp_lens: np.ndarray  # per pair
    ref_lens: np.ndarray  # per reference, pair by pair
    refs_per_sentence: np.ndarray

    def ref_bounds(self) -> np.ndarray:
        """Where each pair's references start in ``ref_lens``, then where the last pair's end.

        >>> Lengths(np.array([1, 3]), np.array([2, 1, 1]), np.array([2, 1])).ref_bounds()
        array([0, 2, 3])
        """
        return np.concatenate([[0], np.cumsum(self.refs_per_sentence)])

    def part(self, pairs: slice) -> "Lengths":
        """The lengths of the pairs ``pairs`` (a slice of consecutive pairs)."""
        if pairs.start == 0 and pairs.stop == len(self.hyp_lens):
            return self
        bounds = self.ref_bounds()
        references = slice(int(bounds[pairs.start]), int(bounds[pairs.stop]))
        return Lengths(self.hyp_lens[pairs], self.ref_lens[references], self.refs_per_sentence[pairs])


def text_lengths(list_of_references: Sequence, hypotheses: Sequence) -> Lengths:
    """The length of every text of a batch given as lists.

    >>> text_lengths([[["a", "b"], ["c"]], [["d"]]], [["a"], ["b", "c", "d"]])
    Lengths(hyp_lens=array([1, 3]), ref_lens=array([2, 1, 1]), refs_per_sentence=array([2, 1]))
    """
    hyp_lens = np.fromiter(map(len, hypotheses), np.int64, len(hypotheses))
    refs_per_sentence = np.fromiter(map(len, list_of_references), np.int64, len(hypotheses))
    references = chain.from_iterable(list_of_references)
    ref_lens = np.fromiter(map(len, references), np.int64, int(refs_per_sentence.sum()))
    return Lengths(hyp_lens, ref_lens, refs_per_sentence)


def pairs_in_rows(numbered: np.ndarray, lengths: Lengths, pairs: np.ndarray) -> TokenArrays:
    """``TokenArrays`` of some pairs of a batch whose tokens are ``numbered``: its hypotheses end to end, then
    its references. A compiled loop (``lesson10_counter.laid_out``) copies each text's numbers into its row.

    >>> numbered = np.array([7, 8, 9, 7, 8, 9])  # hypotheses [7] and [8, 9], references [7] and [8, 9]
    >>> pairs_in_rows(numbered, Lengths(np.array([1, 2]), np.array([1, 2]), np.array([1, 1])), np.array([1])).tokens
    array([[-1,  8,  9, -1,  8,  9]])
    """
    from .lesson10_counter import laid_out  # numba loads only in a process that lays out a batch

    hyp_lens, ref_lens, refs_per_sentence = lengths
    text_lens = np.concatenate([hyp_lens, ref_lens])  # the hypotheses are texts 0, 1, ..., then the references
    first_refs = lengths.ref_bounds() + len(hyp_lens)
    rows, whose, pair_ref_lens = laid_out(numbered, np.cumsum(text_lens) - text_lens, text_lens, first_refs, pairs)
    return TokenArrays(rows, whose, hyp_lens[pairs], pair_ref_lens, refs_per_sentence[pairs])


def numbered_tokens(list_of_references: Sequence, hypotheses: Sequence, numbers: dict) -> np.ndarray:
    """Every token of the batch as a number, hypotheses first, then the references in order.

    Token ids (ints from 0 to 2**31 - 1) stay as they are. Other tokens are
    numbered by ``numbers``, a ``defaultdict`` whose default is the next number,
    as they are first seen (0, 1, 2, ...), so they get the same number exactly
    when they are equal in NLTK's Counters.
    """
    tokens = tuple(chain(chain.from_iterable(hypotheses), chain.from_iterable(chain.from_iterable(list_of_references))))
    ids = _as_ids(tokens)
    return ids if ids is not None else _packed(_look_up(numbers, tokens))


def _as_ids(tokens: tuple) -> np.ndarray | None:
    """The tokens as an int32 array if every one is a token id (an int from 0 to 2**31 - 1), else None.

    Only plain ints (and bools, 0 and 1 in NLTK's Counters too) are ids as
    they are: other int-like tokens (numpy ints, tensors) are equal or not
    by their own rules, so the dict numbers them. Checking the types costs
    less than a dict lookup of each id from a large vocabulary. A float
    equal to an id (1.0 and 1 are one token in NLTK's Counters) makes the
    batch numbered by the dict, like words.

    >>> _as_ids((0, 7, 2**31 - 1)), _as_ids((1, 1.0)), _as_ids((-1, 2)), _as_ids(("a", "b"))
    (array([         0,          7, 2147483647], dtype=int32), None, None, None)
    """
    if tokens and (type(tokens[0]) not in INT_TYPES or not set(map(type, tokens)) <= INT_TYPES):
        return None
    try:
        ids = _packed(tokens)
    except struct.error:  # an int past 2**31 - 1
        return None
    return ids if ids.min(initial=0) >= 0 else None


def _packed(numbers: tuple) -> np.ndarray:
    """Ints from -2**31 to 2**31 - 1 as an int32 array, each packed into its 4 bytes by ``struct`` in C."""
    # Writable, as the int32 copy of arrays' ids is: numba takes a read-only array for another type, and would
    # compile laid_out twice.
    packed = np.empty(len(numbers), np.int32)
    struct.pack_into(f"={len(numbers)}i", packed.data, 0, *numbers)
    return packed


def _look_up(table: dict, keys: tuple) -> tuple:
    """``table[key]`` of every key, looked up in C by one ``itemgetter`` call.

    ``itemgetter`` needs at least one key, and with one it returns the value
    itself, not a tuple: those two cases are looked up one by one.
    """
    return itemgetter(*keys)(table) if len(keys) > 1 else tuple(table[key] for key in keys)


def _from_arrays(
    references: np.ndarray,
    hypotheses: np.ndarray,
    pad_id: int | None,
    hypothesis_lengths: Any,
    reference_lengths: Any,
) -> TokenArrays:
    """``TokenArrays`` of a padded batch: each row's tokens, found through a mask of where they are, end to end."""
    references = references[:, None] if references.ndim == 2 else references  # (batch, length): one reference each
    hyp_mask = tokens_mask(hypotheses, pad_id, hypothesis_lengths)
    ref_mask = tokens_mask(references, pad_id, reference_lengths)
    parts = [hypotheses[hyp_mask], references[ref_mask]]
    if any(part.dtype == np.uint64 and part.size and part.max() >= 1 << 63 for part in parts):
        parts = [part.astype(object) for part in parts]  # ids past int64's range, numbered below as Python ints
    # Each part as int64 before they are joined: numpy would join int64 and uint64 as float64, merging large ids.
    tokens = np.concatenate([part.astype(np.int64) if part.dtype != object else part for part in parts])
    if len(tokens) and tokens.max() >= ID_LIMIT:  # the door refused negative ids
        _, tokens = np.unique(tokens, return_inverse=True)  # ids numbered 0, 1, 2, ... in the order of their values
    refs_per_sentence = np.full(len(hypotheses), references.shape[1], dtype=np.int64)
    lengths = Lengths(hyp_mask.sum(axis=-1), ref_mask.sum(axis=-1).ravel(), refs_per_sentence)
    # int32, as lists' numbers are (every id is below ID_LIMIT now): numba compiles laid_out for one type only.
    return pairs_in_rows(tokens.astype(np.int32), lengths, np.arange(len(hypotheses)))


def tokens_mask(rows: np.ndarray, pad_id: int | None, lengths: Any) -> np.ndarray:
    """True where ``rows`` hold a token: the first ``lengths`` of each row, or where it is not ``pad_id``."""
    if lengths is not None:
        return np.arange(rows.shape[-1]) < np.asarray(lengths).reshape(rows.shape[:-1] + (1,))
    if pad_id is not None:
        return rows != pad_id
    return np.ones(rows.shape, dtype=bool)


def pairs_as_lists(
    list_of_references: Any, hypotheses: Any, pad_id: int | None, hypothesis_lengths: Any, reference_lengths: Any
) -> Iterable[tuple[list, list]]:
    """Each pair as ``sentence_bleu`` takes it, for a smoothing function that reads the tokens: array rows as lists."""
    if not isinstance(hypotheses, np.ndarray):
        return zip(list_of_references, hypotheses)
    references = list_of_references[:, None] if list_of_references.ndim == 2 else list_of_references
    hyp_mask = tokens_mask(hypotheses, pad_id, hypothesis_lengths)
    ref_mask = tokens_mask(references, pad_id, reference_lengths)
    return (
        ([reference[mask].tolist() for reference, mask in zip(*refs)], hypothesis[mask].tolist())
        for hypothesis, mask, *refs in zip(hypotheses, hyp_mask, references, ref_mask)
    )


def chunks(widths: np.ndarray, chunk: int) -> list[np.ndarray]:
    """The pairs to count together, from each pair's row width: at most ``chunk`` pairs whose rows take at most
    about ``CELLS`` cells.

    Pairs are grouped by width first (within a factor of two): a row is as wide as its group's
    widest, so short pairs are not padded to the length of long ones. A group of fewer
    than ``FEW`` pairs joins the next, wider one (the widest stays as it is).

    >>> chunks(np.array([7, 80, 5]), chunk=2)  # the narrowest first
    [array([2, 0]), array([1])]
    """
    if len(widths) <= _rows_at_a_time(chunk, int(widths.max(initial=1))):  # one chunk of them all
        return [np.arange(len(widths))]
    order = np.argsort(widths, kind="stable")
    cuts, start = [], 0
    for cut in (np.flatnonzero(np.diff(np.log2(widths[order]).astype(np.int64))) + 1).tolist():
        if cut - start >= FEW:  # fewer narrow pairs join the next group: padding them costs less than a call
            cuts.append(cut)
            start = cut
    groups = np.split(order, cuts)
    steps = [_rows_at_a_time(chunk, int(widths[group[-1]])) for group in groups]
    return [part for group, rows in zip(groups, steps) for part in np.split(group, range(rows, len(group), rows))]


def row_widths(lengths: Lengths) -> np.ndarray:
    """How many cells each pair's row takes alone: -1 and its hypothesis, then -1 and its longest reference for each
    reference (a batch has at least one reference per pair).

    >>> row_widths(Lengths(np.array([1, 3]), np.array([2, 1, 1]), np.array([2, 1])))
    array([8, 6])
    """
    longest = np.maximum.reduceat(lengths.ref_lens, lengths.ref_bounds()[:-1])
    return 1 + lengths.hyp_lens + lengths.refs_per_sentence * (1 + longest)


def slabs(lengths: Lengths, tokens: int = TOKENS) -> list[slice]:
    """Consecutive pairs of at most about ``tokens`` tokens (a pair of more is a slab alone), in order.

    >>> slabs(Lengths(np.array([1, 3, 2]), np.array([2, 1, 1, 2]), np.array([2, 1, 1])), tokens=8)  # 4 tokens each
    [slice(0, 2, None), slice(2, 3, None)]
    """
    if int(lengths.hyp_lens.sum() + lengths.ref_lens.sum()) <= tokens:
        return [slice(0, len(lengths.hyp_lens))]
    per_pair = lengths.hyp_lens + np.add.reduceat(lengths.ref_lens, lengths.ref_bounds()[:-1])
    ends = np.cumsum(per_pair)
    cuts = np.searchsorted(ends, np.arange(tokens, int(ends[-1]), tokens), side="right").tolist()
    bounds = sorted({0, *cuts, len(per_pair)})
    return [slice(first, last) for first, last in zip(bounds, bounds[1:])]


def chunked_arrays(
    list_of_references: Any,
    hypotheses: Any,
    chunk: int,
    pad_id: int | None = None,
    hypothesis_lengths: Any = None,
    reference_lengths: Any = None,
) -> Iterator[tuple[np.ndarray, TokenArrays]]:
    """The batch as ``TokenArrays`` of chunks of pairs, each with its pairs' places in the batch: ``chunks`` of
    lists, consecutive rows of 2-D arrays (at most ``chunk``, and as many as ``CELLS`` holds at the arrays' width,
    which no laid-out row exceeds).

    Lists are numbered a slab at a time (``slabs``), by one dict for the whole batch, before the
    slab's chunks are put in rows. The caller's door has checked the whole batch: no chunk is checked again.

    >>> [(pairs, part.tokens) for pairs, part in chunked_arrays([[["a"]], [["a", "b"]]], [["a", "b"], ["b"]], 1)]
    [(array([0]), array([[-1,  0,  1, -1,  0]])), (array([1]), array([[-1,  1, -1,  0,  1]]))]
    """
    if isinstance(hypotheses, np.ndarray):
        references = list_of_references.shape[1] if list_of_references.ndim == 3 else 1
        width = 1 + hypotheses.shape[1] + references * (1 + list_of_references.shape[-1])
        rows = _rows_at_a_time(chunk, width)
        for start in range(0, len(hypotheses), rows):  # consecutive rows, as views
            taken = slice(start, start + rows)
            row_lengths = [
                None if given is None else np.asarray(given)[taken] for given in (hypothesis_lengths, reference_lengths)
            ]
            part = _from_arrays(list_of_references[taken], hypotheses[taken], pad_id, *row_lengths)
            yield np.arange(start, start + len(part.hyp_lens)), part
        return
    every_length = text_lengths(list_of_references, hypotheses)
    numbers: dict = defaultdict(count().__next__)  # one numbering for every slab: each word is added once
    for slab in slabs(every_length):
        with checks.named_bad_token(list_of_references, hypotheses):  # names the pair in the whole batch
            numbered = numbered_tokens(list_of_references[slab], hypotheses[slab], numbers)
        lengths = every_length.part(slab)
        for pairs in chunks(row_widths(lengths), chunk):
            yield pairs + slab.start, pairs_in_rows(numbered, lengths, pairs)


def _rows_at_a_time(chunk: int, width: int) -> int:
    """How many rows of ``width`` cells to count at a time."""
    return max(1, min(chunk, CELLS // width))
