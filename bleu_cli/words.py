"""A shard's words as arrays of numbers, split and numbered by compiled code: the command's fast way in.

With ``--tokenize none`` (the command's default and sacrebleu's ``none``) and
no ``--lowercase``, a line's tokens are ``line.split()``. Splitting a shard's
thousands of lines into Python strings and numbering each word through a dict
is most of what the command would spend on a shard. Here numba does both on
the shard's UTF-8 bytes: a word is a run of bytes between whitespace (every
character ``str.split()`` splits on, ``str.isspace()``'s, some of them
several bytes long), and two words are equal exactly when their bytes are, as
UTF-8 writes each string one way. The numbers go into padded arrays, lesson
10's input as a training loop has it, with each text's length.

>>> references, hypotheses, hyp_lens, ref_lens = word_arrays([("the cat", "the cat sat"), ("a\\u3000dog", "a dog")])
>>> hypotheses, hyp_lens  # "the" is 0, "cat" 1, "a" 2, "dog" 3, "sat" 4
(array([[0, 1],
       [2, 3]], dtype=int32), array([2, 2]))
>>> references[:, 0], ref_lens[:, 0]  # the first reference of each pair: 0 pads
(array([[0, 1, 4],
       [2, 3, 0]], dtype=int32), array([3, 2]))
"""

from collections.abc import Sequence

import numpy as np

from bleu_scratch.lesson10_counter import compiled, hash_table_size

# The most cells a shard's padded arrays may hold (8 MB of int32), else the shard takes the lists' way: one line
# of a hundred thousand words among short ones would make every row that wide.
MAX_CELLS = 1 << 21
NEWLINE = ord("\n")


def word_arrays(
    segments: Sequence[Sequence[str]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The references (batch, references, length), hypotheses (batch, length) and their lengths, as word numbers;
    None where the padded arrays would hold more than ``MAX_CELLS`` cells.

    Each segment is the hypothesis line, then its reference lines; no line holds a newline.
    """
    pairs, references = len(segments), len(segments[0]) - 1
    texts = [segment[0] for segment in segments]
    texts += [line for segment in segments for line in segment[1:]]
    data = np.frombuffer("\n".join(texts).encode("utf-8"), np.uint8)
    ends = np.append(np.flatnonzero(data == NEWLINE), len(data))
    ids, lengths = numbered_words(data, np.append(0, ends[:-1] + 1), ends)
    hyp_lens, ref_lens = lengths[:pairs], lengths[pairs:].reshape(pairs, references)
    hyp_width, ref_width = int(hyp_lens.max(initial=0)), int(ref_lens.max(initial=0))
    if pairs * (hyp_width + references * ref_width) > MAX_CELLS:
        return None
    hyp_words = int(hyp_lens.sum())
    hypotheses = np.zeros((pairs, hyp_width), np.int32)
    hypotheses[np.arange(hyp_width) < hyp_lens[:, None]] = ids[:hyp_words]
    reference_rows = np.zeros((pairs, references, ref_width), np.int32)
    reference_rows[np.arange(ref_width) < ref_lens[..., None]] = ids[hyp_words:]
    return reference_rows, hypotheses, hyp_lens, ref_lens


@compiled
def numbered_words(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The number of every word of the texts ``data[starts[t]:ends[t]]`` (UTF-8), text after text, each distinct
    word numbered 0, 1, 2, ... as first seen; and how many words each text has.

    Words are found through a hash table of at least twice as many slots as
    there can be words (lesson 10's ``hash_table_size``): a word's bytes hashed (FNV-1a), then
    slot after slot until the slot is empty (a new word) or holds a word of the
    same bytes.

    >>> text = np.frombuffer("b a\\nb\\u2003c".encode(), np.uint8)
    >>> numbered_words(text, np.array([0, 4]), np.array([3, len(text)]))
    (array([0, 1, 0, 2], dtype=int32), array([2, 2]))
    """
    size = hash_table_size(len(data) // 2 + 1)  # a text of n bytes holds at most n // 2 + 1 words
    table = np.full(size, -1, np.int64)  # the number of the word in each slot
    word_start = np.empty(len(data) // 2 + 1, np.int64)  # where each distinct word first is
    word_length = np.empty(len(data) // 2 + 1, np.int64)
    ids = np.empty(len(data) // 2 + 1, np.int32)
    lengths = np.zeros(len(starts), np.int64)
    distinct, found = 0, 0
    for text in range(len(starts)):
        i = starts[text]
        while i < ends[text]:
            space = space_at(data, i, ends[text])
            if space:
                i += space
                continue
            j, hashed = i, np.uint64(14695981039346656037)
            while j < ends[text] and not space_at(data, j, ends[text]):
                hashed = (hashed ^ np.uint64(data[j])) * np.uint64(1099511628211)
                j += 1
            slot = np.int64(hashed >> np.uint64(1)) & (size - 1)
            while table[slot] >= 0:
                word = table[slot]
                if same_bytes(data, word_start[word], word_length[word], i, j - i):
                    break
                slot = (slot + 1) & (size - 1)
            if table[slot] < 0:  # a new word
                table[slot] = distinct
                word_start[distinct], word_length[distinct] = i, j - i
                distinct += 1
            ids[found] = table[slot]
            found += 1
            lengths[text] += 1
            i = j
    return ids[:found], lengths


@compiled
def same_bytes(data: np.ndarray, first: int, first_length: int, second: int, second_length: int) -> bool:
    """Whether two runs of ``data`` hold the same bytes."""
    if first_length != second_length:
        return False
    for k in range(first_length):
        if data[first + k] != data[second + k]:
            return False
    return True


@compiled
def space_at(data: np.ndarray, i: int, end: int) -> int:
    """How many bytes the whitespace character at ``data[i]`` takes (UTF-8), or 0 if ``data[i]`` starts no
    whitespace: the characters of ``str.isspace()``, on which ``str.split()`` splits.

    >>> [space_at(np.frombuffer(c.encode(), np.uint8), 0, len(c.encode())) for c in " \\x1f\\x85\\u2003\\u3000x"]
    [1, 1, 2, 3, 3, 0]
    """
    byte = data[i]
    if byte == 32 or 9 <= byte <= 13 or 28 <= byte <= 31:
        return 1
    if byte == 0xC2:  # U+0085, U+00A0
        return 2 if i + 1 < end and (data[i + 1] == 0x85 or data[i + 1] == 0xA0) else 0
    if byte < 0xE1 or byte > 0xE3 or i + 2 >= end:
        return 0
    second, third = data[i + 1], data[i + 2]
    if byte == 0xE1:  # U+1680
        return 3 if second == 0x9A and third == 0x80 else 0
    if byte == 0xE3:  # U+3000
        return 3 if second == 0x80 and third == 0x80 else 0
    # U+2000 to U+200A, U+2028, U+2029, U+202F; U+205F
    if second == 0x80 and (0x80 <= third <= 0x8A or third == 0xA8 or third == 0xA9 or third == 0xAF):
        return 3
    return 3 if second == 0x81 and third == 0x9F else 0
