"""Lesson 13: BLEU's relatives: word error rate, built here, and METEOR without WordNet's data.

The relatives lesson 13 compares with BLEU (NIST, chrF, chrF++, TER, GLEU,
METEOR) are computed with their reference implementations, NLTK's and
sacrebleu's. This module holds the two pieces they leave to us:

- word error rate (WER), speech recognition's metric and TER's ancestor: the
  fewest word insertions, deletions and substitutions that turn the
  hypothesis into a reference (Levenshtein's edit distance, over words),
  divided by the reference length. With several references it is counted
  as TER counts (Snover et al. 2006): the fewest edits to any reference,
  over the mean reference length. So WER is TER without TER's block shifts,
  and TER is never above it on the same tokens;
- ``WordNetStandIn``, what NLTK's ``meteor_score`` reads from WordNet, from a
  table instead of WordNet's data (which the lessons never download).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import checks
from .checks import door
from .lesson01_ngrams import Token


@door(checks.reference, checks.hypothesis)
def word_edit_distance(reference: Sequence[Token], hypothesis: Sequence[Token]) -> int:
    """The fewest word insertions, deletions and substitutions that turn ``hypothesis`` into ``reference``.

    Dynamic programming over prefixes: ``previous[j]`` is the distance
    between the reference's first ``i - 1`` words and the hypothesis's first
    ``j`` words, and each new reference word extends it by one of three moves.

    One substitution (sat -> lay) and one deletion (the second "the"):

    >>> word_edit_distance("the cat lay on mat".split(), "the cat sat on the mat".split())
    2

    Order matters, unlike BLEU's n-gram counts: a swap of two words costs two
    substitutions.

    >>> word_edit_distance("a b c".split(), "b a c".split())
    2
    """
    ### BEGIN SOLUTION
    previous = list(range(len(hypothesis) + 1))
    for i, ref_token in enumerate(reference, start=1):
        current = [i]
        for j, hyp_token in enumerate(hypothesis, start=1):
            substitute = previous[j - 1] + (ref_token != hyp_token)
            current.append(min(substitute, previous[j] + 1, current[j - 1] + 1))
        previous = current
    return previous[-1]
    ### END SOLUTION


def word_errors(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token]) -> tuple[int, float]:
    """The statistics WER is computed from: the fewest edits to any reference, and the mean reference length.

    Like ``BleuStats`` (lesson 05) they add up over a corpus.

    >>> word_errors(["the cat sat".split(), "a cat sat down".split()], "the cat sat down".split())
    (1, 3.5)
    """
    edits = min(word_edit_distance(reference, hypothesis) for reference in references)
    return edits, sum(len(reference) for reference in references) / len(references)


def edit_rate(edits: float, ref_length: float) -> float:
    """``edits / ref_length``; with no reference word, 1.0 if anything had to be edited, else 0.0 (TER's rule).

    >>> edit_rate(1, 4.0), edit_rate(3, 0.0), edit_rate(0, 0.0)
    (0.25, 1.0, 0.0)
    """
    if ref_length > 0:
        return edits / ref_length
    return 1.0 if edits > 0 else 0.0


@door(checks.sentence_pair)
def word_error_rate(references: Sequence[Sequence[Token]], hypothesis: Sequence[Token]) -> float:
    """WER of one hypothesis: its fewest edits to any reference, over the mean reference length.

    It can exceed 1: a hypothesis longer than the reference has more words to
    delete than the reference has words.

    >>> word_error_rate(["the cat sat on the mat".split()], "the cat lay on mat".split())
    0.3333333333333333
    >>> word_error_rate([["yes"]], "no no no".split())
    3.0
    """
    return edit_rate(*word_errors(references, hypothesis))


def corpus_word_error_rate(
    list_of_references: Sequence[Sequence[Sequence[Token]]], hypotheses: Sequence[Sequence[Token]]
) -> float:
    """WER of a corpus: every sentence's edits over every sentence's reference length, pooled.

    Pooled as corpus BLEU pools its counts (lesson 06), not a mean of
    sentence rates: a long sentence weighs more than a short one.

    >>> corpus_word_error_rate([["a b c d".split()], [["e"]]], ["a b c d".split(), ["f"]])
    0.2
    """
    edits, ref_length = 0, 0.0
    for references, hypothesis in zip(list_of_references, hypotheses):
        sentence_edits, sentence_length = word_errors(references, hypothesis)
        edits += sentence_edits
        ref_length += sentence_length
    return edit_rate(edits, ref_length)


@dataclass(frozen=True)
class _Lemma:
    word: str

    def name(self) -> str:
        return self.word


@dataclass(frozen=True)
class _Synset:
    words: tuple[str, ...]

    def lemmas(self) -> list[_Lemma]:
        return [_Lemma(word) for word in self.words]


class WordNetStandIn:
    """What NLTK's ``meteor_score`` reads from WordNet (``wordnet.synsets(word)``), from a table.

    METEOR aligns hypothesis and reference words in stages: identical words,
    then words with the same stem, then synonyms, which NLTK looks up in
    WordNet. WordNet's data is a download the lessons never make, so pass
    ``wordnet=WordNetStandIn()`` and METEOR runs its exact and stem stages
    only. A table ``{word: its synonyms}`` shows what the synonym stage
    adds. NLTK 3.10.4 runs that stage on what the stem stage left: it looks
    up the *stem* of each hypothesis word still unaligned and compares the
    synonyms with the stems of the reference words, so the table's keys and
    synonyms are stems (Porter's "guarante" for "guarantees").

    >>> WordNetStandIn().synsets("guarante")
    []
    >>> synsets = WordNetStandIn({"guarante": ["ensur"]}).synsets("guarante")
    >>> [lemma.name() for synset in synsets for lemma in synset.lemmas()]
    ['ensur']
    """

    def __init__(self, synonyms: Mapping[str, Sequence[str]] | None = None) -> None:
        self.synonyms = {word: tuple(words) for word, words in (synonyms or {}).items()}

    def synsets(self, word: str) -> list[_Synset]:
        return [_Synset(self.synonyms[word])] if word in self.synonyms else []
