"""NLTK 3.10.4's answers, and the quantities the grader derives from them."""

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from .errors import ClassroomError
from .plain import Smoothing, StatsAnswer

NLTK_VERSION = "3.10.4"


class NltkOracle:
    """NLTK 3.10.4's answers, and the quantities the grader derives from them.

    NLTK is imported on first use (a third of a second or more): a function
    that only raises NotImplementedError is graded without it. ``on_load`` is
    told "start" and "end" around the import, so that the grader does not count
    that time against the student's function.
    """

    def __init__(self, on_load: Callable[[str], None] | None = None) -> None:
        self._on_load = on_load
        self._nltk: tuple | None = None

    def _load(self) -> tuple:
        if self._nltk is None:
            if self._on_load:
                self._on_load("start")
            try:
                import nltk
                from nltk.translate import bleu_score
                from nltk.util import ngrams
            except ImportError:
                raise ClassroomError(
                    "grading compares with NLTK, which is not installed: pip install -r requirements.txt"
                ) from None
            if nltk.__version__ != NLTK_VERSION:
                raise ClassroomError(
                    f"the grader's answers are NLTK {NLTK_VERSION}'s, but NLTK {nltk.__version__} is installed: "
                    f"pip install nltk=={NLTK_VERSION}"
                )
            self._nltk = (bleu_score, ngrams)
            if self._on_load:
                self._on_load("end")
        return self._nltk

    @property
    def bleu(self) -> Any:
        """The module nltk.translate.bleu_score."""
        return self._load()[0]

    def _ngrams(self, tokens: list, n: int) -> Iterator[tuple]:
        return self._load()[1](tokens, n)

    def ngrams(self, tokens: list, n: int) -> list:
        return list(self._ngrams(tokens, n))

    def count_ngrams(self, tokens: list, n: int) -> Counter:
        return Counter(self._ngrams(tokens, n))

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
        every_ngram = {ngram for reference in references for ngram in self._ngrams(reference, n)}
        return Counter({ngram: self.clipped_count(references, ngram, copies) for ngram in every_ngram})

    def clipped_counts(self, references: list, hypothesis: list, n: int) -> Counter:
        return Counter(
            {
                ngram: self.clipped_count(references, ngram, count)
                for ngram, count in self.count_ngrams(hypothesis, n).items()
            }
        )

    def sentence_stats(self, references: list, hypothesis: list, max_n: int) -> dict:
        """BleuStats's fields for one pair, from NLTK's modified precisions and closest length."""
        totals = [len(self.ngrams(hypothesis, n)) for n in range(1, max_n + 1)]
        return {
            "hyp_len": len(hypothesis),
            "ref_len": self.bleu.closest_ref_length(references, len(hypothesis)),
            "matches": tuple(
                self.bleu.modified_precision(references, hypothesis, n).numerator for n in range(1, max_n + 1)
            ),
            "totals": tuple(totals),
            "too_short": tuple(int(len(hypothesis) < n) for n in range(1, max_n + 1)),
        }

    def corpus_stats(self, list_of_references: list, hypotheses: list, max_n: int) -> dict:
        pairs = [self.sentence_stats(refs, hyp, max_n) for refs, hyp in zip(list_of_references, hypotheses)]
        return {
            field: (
                sum(p[field] for p in pairs)
                if field in ("hyp_len", "ref_len")
                else tuple(map(sum, zip(*(p[field] for p in pairs))))
            )
            for field in pairs[0]
        }

    def geometric_mean_score(self, p_n: list, weights: tuple, bp: float) -> float:
        """NLTK's weighted geometric mean of ``p_n``, times ``bp``.

        NLTK's corpus_bleu ends with this mean. On a hypothesis longer than
        its reference (NLTK's brevity penalty is the int 1) with a unigram
        match, and a "smoothing" that hands it p_n, it returns 1 * the mean.
        """
        mean = self.bleu.corpus_bleu([[["a"]]], [["a", "a"]], weights, lambda *args, **kwargs: p_n)
        return bp * mean

    def classes(self) -> dict[str, type]:
        """The lesson classes as NLTK's answers have them: its unreduced Fraction is the lessons' Precision."""
        return {"Precision": self.bleu.Fraction, "BleuStats": StatsAnswer}

    @staticmethod
    def stats(fields: dict) -> StatsAnswer:
        return StatsAnswer(**fields)

    @staticmethod
    def resolve(args: tuple, smoothing: Any) -> tuple:
        return tuple(getattr(smoothing, arg.method) if isinstance(arg, Smoothing) else arg for arg in args)
