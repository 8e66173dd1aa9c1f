"""Lesson 13: the reorderings BLEU cannot tell apart (Callison-Burch, Osborne and Koehn 2006).

BLEU counts n-grams and never asks where they are. Callison-Burch, Osborne
and Koehn turned that into a count. Cut a hypothesis between every two
neighbouring words whose bigram no reference has (a "bigram mismatch"). No
matched n-gram of any order crosses such a cut: an n-gram across it contains
the unmatched bigram. So the pieces can be put in any order and

- every matched n-gram survives, with its count, inside its piece;
- the unigram counts and the length stay, and with the length the brevity
  penalty;
- only the bigrams (and longer n-grams) across the new joins are new. They
  either match by chance, and the score goes up, or they do not, and the
  score is exactly the same.

With k mismatches there are k + 1 pieces and (k + 1)! orders, the paper's
count; pieces that are equal (two commas) give the same sentence in more
than one order, so the orders that differ number (k + 1)! / (m1! m2! ...),
m the number of copies of each piece.
"""

import math
from collections import Counter
from collections.abc import Sequence

from . import checks
from .checks import door
from .lesson01_ngrams import Token


@door(checks.sentence_pair)
def bigram_mismatch_chunks(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token]) -> list[list[Token]]:
    """The hypothesis cut at every bigram that no reference has.

    >>> refs = ["the cat sat on the mat".split()]
    >>> bigram_mismatch_chunks(refs, "on the mat the cat sat".split())
    [['on', 'the', 'mat'], ['the', 'cat', 'sat']]
    >>> bigram_mismatch_chunks(refs, [])
    []
    """
    ### BEGIN SOLUTION
    reference_bigrams = {bigram for reference in references for bigram in zip(reference, reference[1:])}
    chunks = [[token] for token in hypothesis[:1]]
    for previous, token in zip(hypothesis, hypothesis[1:]):
        if (previous, token) in reference_bigrams:
            chunks[-1].append(token)
        else:
            chunks.append([token])
    return chunks
    ### END SOLUTION


@door(checks.sentence_pair)
def permutations_keeping_matches(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token]) -> int:
    """How many different orders of the hypothesis's pieces keep every matched n-gram (the original included).

    Two pieces give 2! = 2 orders. Three give 3! = 6, but when two of them
    are the same "." only 3! / 2! = 3 orders differ:

    >>> refs = ["the cat sat on the mat .".split()]
    >>> permutations_keeping_matches(refs, "on the mat the cat sat".split())
    2
    >>> permutations_keeping_matches(refs, ". the cat sat .".split())
    3
    """
    ### BEGIN SOLUTION
    chunks = bigram_mismatch_chunks(references, hypothesis)
    count = math.factorial(len(chunks))
    for copies in Counter(tuple(chunk) for chunk in chunks).values():
        count //= math.factorial(copies)
    return count
    ### END SOLUTION
