"""NLTK's answers for the lesson functions a graded function calls, computed in the grader on request."""

from collections import Counter
from collections.abc import Callable

from .oracle import NltkOracle


def stand_ins(oracle: NltkOracle, names: set[str]) -> dict[str, Callable]:
    """The functions in ``names``, answering as the lessons should (precisions as Fractions, statistics as
    StatsAnswer)."""

    def clipped_counts(hypothesis_counts: Counter, max_ref_counts: Counter) -> Counter:
        # NLTK clips against references: one that says each n-gram its maximum
        # number of times, the copies kept apart by a token no hypothesis has.
        apart = object()
        reference = [
            token for ngram, count in max_ref_counts.items() for _ in range(count) for token in (*ngram, apart)
        ]
        return Counter(
            {ngram: oracle.clipped_count([reference], ngram, count) for ngram, count in hypothesis_counts.items()}
        )

    def geometric_mean_score(p_n: list, weights: tuple, bp: float) -> float:
        # NLTK's corpus_bleu ends with this mean. On a hypothesis longer than
        # its reference (NLTK's brevity penalty is the int 1) with a unigram
        # match, and a "smoothing" that hands it p_n, it returns 1 * the mean.
        mean = oracle.bleu.corpus_bleu([[["a"]]], [["a", "a"]], weights, lambda *args, **kwargs: p_n)
        return bp * mean

    every = {
        "ngrams": oracle.ngrams,
        "count_ngrams": oracle.count_ngrams,
        "max_reference_counts": oracle.max_reference_counts,
        "clipped_counts": clipped_counts,
        "modified_precision": lambda references, hypothesis, n: oracle.bleu.modified_precision(
            references, hypothesis, n
        ),
        "closest_ref_length": lambda references, hyp_len: oracle.bleu.closest_ref_length(references, hyp_len),
        "brevity_penalty": lambda closest_ref_len, hyp_len: oracle.bleu.brevity_penalty(closest_ref_len, hyp_len),
        "sentence_stats": lambda references, hypothesis, max_n=4: oracle.stats(
            oracle.sentence_stats(references, hypothesis, max_n)
        ),
        "geometric_mean_score": geometric_mean_score,
        "corpus_stats": lambda list_of_references, hypotheses, max_n=4: oracle.stats(
            oracle.corpus_stats(list_of_references, hypotheses, max_n)
        ),
    }
    return {name: function for name, function in every.items() if name in names}
