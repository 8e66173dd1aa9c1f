"""The grader's cases: for each graded function, arguments and NLTK's answer.

Two kinds, both made when grading and never shipped to students: fixed edge
cases (below), and random corpora drawn from a seed the grader keeps
(``random_cases``). A table of answers to any cases a student has seen earns
nothing on cases drawn afresh.
"""

import random
from typing import Any

from .oracle import NltkOracle, Smoothing

# Papineni et al. (2002), Example 1: two candidates and three references.
CANDIDATE_1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct".split()
REFERENCES_1 = [
    "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    (
        "It is the guiding principle which guarantees the military forces always being under the command of the Party"
    ).split(),
    "It is the practical guide for the army always to heed the directions of the party".split(),
]
# Example 2: modified precision clips the seven "the"s to two.
CANDIDATE_THE = "the the the the the the the".split()
REFERENCES_CAT = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
CAT = "the cat sat on the mat".split()


def grading_cases(oracle: NltkOracle, seed: int) -> dict[str, list[tuple[tuple, Any]]]:
    """Each graded function's cases, the fixed ones then those drawn from ``seed``: (arguments, NLTK's answer)."""
    cases = fixed_cases(oracle)
    for name, drawn in random_cases(oracle, random.Random(seed)).items():
        cases[name] += drawn
    return cases


# Few words, so that random sentences share n-grams with their references.
WORDS = ("the", "a", "cat", "dog", "sat", "on", "mat", "is", "there", "ran")
WEIGHTS = ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.7, 0.3), (1.0,), (0.1, 0.2, 0.3, 0.4))
SMOOTHING = (None, *(Smoothing(f"method{k}") for k in range(8)))
DRAWN = 6  # random cases per function


def random_cases(oracle: NltkOracle, rng: random.Random) -> dict[str, list[tuple[tuple, Any]]]:
    """``DRAWN`` cases per graded function over random sentences."""
    bleu = oracle.bleu
    nltk_smoothing = bleu.SmoothingFunction()

    def sentence(shortest: int = 0) -> list[str]:
        return [rng.choice(WORDS) for _ in range(rng.randint(shortest, 14))]

    def references() -> list[list[str]]:
        return [sentence(1) for _ in range(rng.randint(1, 3))]

    def draw(make: Any) -> list:
        return [make() for _ in range(DRAWN)]

    def counted(name: str) -> tuple[tuple, Any]:
        tokens, n = sentence(), rng.randint(1, 5)
        return (tokens, n), getattr(oracle, name)(tokens, n)

    def clipped() -> tuple[tuple, Any]:
        refs, hyp, n = references(), sentence(), rng.randint(1, 4)
        args = (oracle.count_ngrams(hyp, n), oracle.max_reference_counts(refs, n))
        return args, oracle.clipped_counts(refs, hyp, n)

    def scored(score: Any, make: Any) -> tuple[tuple, Any]:
        # Some smoothing methods refuse some weights (method 6 needs three orders): draw again.
        while True:
            args = (*make(), rng.choice(WEIGHTS), rng.choice(SMOOTHING))
            try:
                return args, score(*oracle.resolve(args, nltk_smoothing))
            except (IndexError, ValueError, ZeroDivisionError, AssertionError):
                continue

    def sentence_bleu() -> tuple[tuple, Any]:
        return scored(bleu.sentence_bleu, lambda: (references(), sentence(1)))

    def corpus() -> tuple[list, list]:
        size = rng.randint(1, 4)
        return [references() for _ in range(size)], [sentence(1) for _ in range(size)]

    def corpus_bleu() -> tuple[tuple, Any]:
        return scored(bleu.corpus_bleu, corpus)

    def stats(fields: Any) -> Any:
        return oracle.stats(fields)

    def with_n(make: Any, answer: Any, highest: int) -> Any:
        def case() -> tuple[tuple, Any]:
            args = (*make(), rng.randint(1, highest))
            return args, answer(*args)

        return case

    return {
        "ngrams": draw(lambda: counted("ngrams")),
        "count_ngrams": draw(lambda: counted("count_ngrams")),
        "max_reference_counts": draw(with_n(lambda: (references(),), oracle.max_reference_counts, 4)),
        "clipped_counts": draw(clipped),
        "modified_precision": draw(with_n(lambda: (references(), sentence()), bleu.modified_precision, 4)),
        "closest_ref_length": draw(
            lambda: (lambda args: (args, bleu.closest_ref_length(*args)))((references(), rng.randint(0, 16)))
        ),
        "brevity_penalty": draw(
            lambda: (lambda args: (args, bleu.brevity_penalty(*args)))((rng.randint(0, 20), rng.randint(0, 20)))
        ),
        "sentence_stats": draw(
            with_n(lambda: (references(), sentence()), lambda r, h, n: stats(oracle.sentence_stats(r, h, n)), 4)
        ),
        "geometric_mean_score": draw(sentence_bleu),
        "corpus_stats": draw(with_n(corpus, lambda r, h, n: stats(oracle.corpus_stats(r, h, n)), 4)),
        "corpus_bleu": draw(corpus_bleu),
    }


def fixed_cases(oracle: NltkOracle) -> dict[str, list[tuple[tuple, Any]]]:
    """The instructor's edge cases: Papineni et al.'s examples, empty input, NLTK's quirks."""
    bleu = oracle.bleu
    cases: dict[str, list[tuple[tuple, Any]]] = {}
    cases["ngrams"] = [
        ((tokens, n), oracle.ngrams(tokens, n))
        for tokens, n in [
            (CANDIDATE_1, 1),
            (CANDIDATE_1, 4),
            (["the", "cat", "sat"], 3),
            (["the"], 2),
            ([], 1),
            (CANDIDATE_THE, 2),
        ]
    ]
    cases["count_ngrams"] = [
        ((tokens, n), oracle.count_ngrams(tokens, n))
        for tokens, n in [
            (REFERENCES_1[0], 1),
            (CANDIDATE_THE, 1),
            (CANDIDATE_THE, 3),
            (CANDIDATE_1, 2),
            (["a"], 2),
            ([], 1),
        ]
    ]
    cases["max_reference_counts"] = [
        ((references, n), oracle.max_reference_counts(references, n))
        for references, n in [
            (REFERENCES_CAT, 1),
            (REFERENCES_CAT, 2),
            (REFERENCES_1, 1),
            (REFERENCES_1, 3),
            ([["the", "cat"], []], 1),
            ([["a", "b"]], 3),
        ]
    ]
    cases["clipped_counts"] = [
        (
            (oracle.count_ngrams(hypothesis, n), oracle.max_reference_counts(references, n)),
            oracle.clipped_counts(references, hypothesis, n),
        )
        for references, hypothesis, n in [
            (REFERENCES_CAT, CANDIDATE_THE, 1),
            (REFERENCES_CAT, CANDIDATE_THE, 2),
            (REFERENCES_1, CANDIDATE_1, 1),
            (REFERENCES_1, CANDIDATE_2, 2),
            ([[]], ["a", "b"], 1),
        ]
    ]
    cases["modified_precision"] = [
        ((references, hypothesis, n), bleu.modified_precision(references, hypothesis, n))
        for references, hypothesis, n in [
            (REFERENCES_CAT, CANDIDATE_THE, 1),
            (REFERENCES_CAT, CANDIDATE_THE, 2),
            (REFERENCES_1, CANDIDATE_1, 1),
            (REFERENCES_1, CANDIDATE_1, 2),
            (REFERENCES_1, CANDIDATE_1, 4),
            (REFERENCES_1, CANDIDATE_2, 1),
            (REFERENCES_CAT, ["the"], 2),
            ([[]], [], 1),
            ([["a", "a", "b"], ["a", "b", "b"]], ["a", "b", "b", "a", "a"], 1),
        ]
    ]
    cases["closest_ref_length"] = [
        ((references, hyp_len), bleu.closest_ref_length(references, hyp_len))
        for references, hyp_len in [
            ([["a"] * 10, ["a"] * 14], 12),
            ([["a"] * 10, ["a"] * 14], 13),
            ([["a"] * 14, ["a"] * 10], 12),
            (REFERENCES_1, len(CANDIDATE_1)),
            (REFERENCES_1, 2),
            ([[]], 3),
            ([["a"] * 5], 0),
        ]
    ]
    cases["brevity_penalty"] = [
        ((closest_ref_len, hyp_len), bleu.brevity_penalty(closest_ref_len, hyp_len))
        for closest_ref_len, hyp_len in [(10, 12), (10, 10), (10, 5), (10, 0), (0, 0), (18, 17), (16, 2), (3, 1)]
    ]
    sentence_pairs = [
        (REFERENCES_1, CANDIDATE_1, 4),
        (REFERENCES_1, CANDIDATE_2, 4),
        (REFERENCES_CAT, CANDIDATE_THE, 4),
        (REFERENCES_CAT, ["the", "cat"], 4),
        ([["a", "b", "c"]], [], 2),
        (REFERENCES_CAT, CAT, 2),
    ]
    cases["sentence_stats"] = [
        ((references, hypothesis, max_n), oracle.stats(oracle.sentence_stats(references, hypothesis, max_n)))
        for references, hypothesis, max_n in sentence_pairs
    ]
    nltk_smoothing = oracle.bleu.SmoothingFunction()
    sentence_bleu_args = [
        (REFERENCES_1, CANDIDATE_1),
        (REFERENCES_1, CANDIDATE_2, (0.5, 0.5)),
        (REFERENCES_1, CANDIDATE_2),  # no trigram match: NLTK's tiny score
        (REFERENCES_CAT, CAT, (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
        (REFERENCES_1, CANDIDATE_1, [(1.0,), (0.5, 0.5), (0.25, 0.25, 0.25, 0.25)]),
        (REFERENCES_CAT, ["the", "cat", "is"], (0.25, 0.25, 0.25, 0.25), None, True),
        (REFERENCES_CAT, CANDIDATE_THE, (0.7, 0.3), Smoothing("method3")),
        # Method 4 leaves the zero precisions of a one-token hypothesis: the mean must skip them.
        (REFERENCES_CAT, ["the"], (0.25, 0.25, 0.25, 0.25), Smoothing("method4")),
        # Here sum() and NLTK's math.fsum() of the weighted logs differ in the last bit.
        (REFERENCES_1, "which ensures that the military".split()),
    ]
    cases["geometric_mean_score"] = [
        (args, bleu.sentence_bleu(*oracle.resolve(args, nltk_smoothing))) for args in sentence_bleu_args
    ]
    corpora = [
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_THE], 4),
        ([[["a", "b", "c"]], REFERENCES_CAT], [["a"], CAT], 4),
        ([REFERENCES_1, REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_2, CAT], 2),
    ]
    cases["corpus_stats"] = [
        (
            (list_of_references, hypotheses, max_n),
            oracle.stats(oracle.corpus_stats(list_of_references, hypotheses, max_n)),
        )
        for list_of_references, hypotheses, max_n in corpora
    ]
    corpus_bleu_args = [
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CANDIDATE_THE]),
        ([REFERENCES_1, REFERENCES_1], [CANDIDATE_1, CANDIDATE_2], (0.5, 0.5)),
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_1, CAT], [(1.0,), (0.5, 0.5)]),
        # Methods 4 and 5 read the corpus's last sentence pair, as NLTK's do.
        ([REFERENCES_1, REFERENCES_CAT], [CANDIDATE_2, ["the", "cat"]], (0.25, 0.25, 0.25, 0.25), Smoothing("method4")),
        ([REFERENCES_CAT, REFERENCES_1], [["the", "cat"], CANDIDATE_2], (0.25, 0.25, 0.25, 0.25), Smoothing("method5")),
        # Only the last hypothesis has a 5-gram match, which method 5 reads.
        ([REFERENCES_CAT, REFERENCES_1], [CAT, CANDIDATE_1], (0.25, 0.25, 0.25, 0.25), Smoothing("method5")),
        ([[["a", "b", "c"]], REFERENCES_CAT], [["a"], CAT], (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
    ]
    cases["corpus_bleu"] = [
        (args, bleu.corpus_bleu(*oracle.resolve(args, nltk_smoothing))) for args in corpus_bleu_args
    ]
    return cases
