"""NLTK 3.10.4's answers, and the quantities the grader derives from them (computed outside the sandbox)."""

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .errors import ClassroomError

NLTK_VERSION = "3.10.4"


@dataclass(frozen=True)
class Smoothing:
    """An argument that stands for ``SmoothingFunction().<method>`` of the package being called."""

    method: str


@dataclass(frozen=True)
class StatsAnswer:
    """An expected ``BleuStats``, given by its fields (the class is the student's)."""

    hyp_len: int
    ref_len: int
    matches: tuple
    totals: tuple
    too_short: tuple


class NltkOracle:
    """NLTK 3.10.4's answers, and the quantities the grader derives from them."""

    def __init__(self) -> None:
        try:
            import nltk
            from nltk.translate import bleu_score
        except ImportError:
            nltk = None
        if getattr(nltk, "__version__", None) != NLTK_VERSION:
            found = f"NLTK {nltk.__version__} is installed" if nltk else "it is not installed"
            raise ClassroomError(
                f"the grader's answers are NLTK {NLTK_VERSION}'s, {found}: pip install nltk=={NLTK_VERSION}"
            )
        self.bleu: Any = bleu_score  # nltk.translate.bleu_score

    def ngrams(self, tokens: list, n: int) -> list:
        return list(self.bleu.ngrams(tokens, n))

    def count_ngrams(self, tokens: list, n: int) -> Counter:
        return Counter(self.bleu.ngrams(tokens, n))

    def clipped_count(self, references: list, ngram: tuple, copies: int) -> int:
        """NLTK's clipped count of ``ngram`` in a hypothesis that says it ``copies`` times.

        The copies are separated by a token that no reference contains, so no
        other n-gram of that hypothesis can match: NLTK's numerator is then
        min(copies, the most times one reference says ``ngram``).
        """
        separator = "\x00" + "\x00".join(str(len(r)) for r in references)  # in no reference: no NUL in tokens
        hypothesis = [token for _ in range(copies) for token in (*ngram, separator)]
        return self.bleu.modified_precision(references, hypothesis, len(ngram)).numerator

    def max_reference_counts(self, references: list, n: int) -> Counter:
        # No reference says an n-gram more often than it has tokens.
        copies = 1 + max(len(reference) for reference in references)
        every_ngram = {ngram for reference in references for ngram in self.bleu.ngrams(reference, n)}
        return Counter({ngram: self.clipped_count(references, ngram, copies) for ngram in every_ngram})

    def clipped_counts(self, references: list, hypothesis: list, n: int) -> Counter:
        counts = self.count_ngrams(hypothesis, n)
        return Counter({ngram: self.clipped_count(references, ngram, count) for ngram, count in counts.items()})

    def sentence_stats(self, references: list, hypothesis: list, max_n: int) -> dict:
        """BleuStats's fields for one pair, from NLTK's modified precisions and closest length."""
        orders = range(1, max_n + 1)
        return {
            "hyp_len": len(hypothesis),
            "ref_len": self.bleu.closest_ref_length(references, len(hypothesis)),
            "matches": tuple(self.bleu.modified_precision(references, hypothesis, n).numerator for n in orders),
            "totals": tuple(len(self.ngrams(hypothesis, n)) for n in orders),
            "too_short": tuple(int(len(hypothesis) < n) for n in orders),
        }

    def corpus_stats(self, list_of_references: list, hypotheses: list, max_n: int) -> dict:
        pairs = [self.sentence_stats(refs, hyp, max_n) for refs, hyp in zip(list_of_references, hypotheses)]
        fields = {field: [pair[field] for pair in pairs] for field in pairs[0]}
        return {f: sum(v) if f.endswith("_len") else tuple(map(sum, zip(*v))) for f, v in fields.items()}

    def classes(self) -> dict[str, type]:
        """The lesson classes as NLTK's answers have them: its unreduced Fraction is the lessons' Precision."""
        return {"Precision": self.bleu.Fraction, "BleuStats": StatsAnswer}

    @staticmethod
    def stats(fields: dict) -> StatsAnswer:
        return StatsAnswer(**fields)

    def answer(self, name: str, args: tuple) -> Any:
        """NLTK's answer to the graded function ``name`` on ``args`` (clipped_counts's: the sentences)."""
        smoothed = tuple(
            getattr(self.bleu.SmoothingFunction(), a.method) if isinstance(a, Smoothing) else a for a in args
        )
        answers = {
            "modified_precision": self.bleu.modified_precision,
            "closest_ref_length": self.bleu.closest_ref_length,
            "brevity_penalty": self.bleu.brevity_penalty,
            "sentence_stats": lambda *a: self.stats(self.sentence_stats(*a)),
            "geometric_mean_score": self.bleu.sentence_bleu,
            "corpus_stats": lambda *a: self.stats(self.corpus_stats(*a)),
            "corpus_bleu": self.bleu.corpus_bleu,
        }
        return answers.get(name, getattr(self, name, None))(*smoothed)
