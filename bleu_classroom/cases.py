"""The grader's cases: for each graded function, arguments and NLTK's answer.

Two kinds, both made when grading and never shipped to students: fixed edge
cases (below), and random corpora (``random_arguments``) drawn from a seed the
grader makes of the one it keeps and the files of the function's lesson and the
lessons before it (``grader.cases_for``): a package changed to hold a table of the
answers it was shown meets new cases.
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
    fixed, drawn = fixed_arguments(), random_arguments(oracle, random.Random(seed))
    return answered(oracle, {name: fixed[name] + drawn[name] for name in fixed})


def fixed_cases(oracle: NltkOracle) -> dict[str, list[tuple[tuple, Any]]]:
    """The instructor's edge cases with NLTK's answers."""
    return answered(oracle, fixed_arguments())


def answered(oracle: NltkOracle, arguments: dict[str, list[tuple]]) -> dict[str, list[tuple[tuple, Any]]]:
    cases = {name: [(args, oracle.answer(name, args)) for args in listed] for name, listed in arguments.items()}
    # clipped_counts is handed the counts; NLTK answers from the sentences they come from.
    cases["clipped_counts"] = [
        ((oracle.count_ngrams(hyp, n), oracle.max_reference_counts(refs, n)), answer)
        for (refs, hyp, n), answer in cases["clipped_counts"]
    ]
    return cases


# Few words, so that random sentences share n-grams with their references.
WORDS = ("the", "a", "cat", "dog", "sat", "on", "mat", "is", "there", "ran")
WEIGHTS = ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.7, 0.3), (1.0,), (0.1, 0.2, 0.3, 0.4))
SMOOTHING = (None, *(Smoothing(f"method{k}") for k in range(8)))
DRAWN = 6  # random cases per function


def random_arguments(oracle: NltkOracle, rng: random.Random) -> dict[str, list[tuple]]:
    """``DRAWN`` cases per graded function over random sentences (clipped_counts's as the sentences)."""

    def sentence(shortest: int = 0) -> list[str]:
        return [rng.choice(WORDS) for _ in range(rng.randint(shortest, 14))]

    def references() -> list[list[str]]:
        return [sentence(1) for _ in range(rng.randint(1, 3))]

    def corpus() -> tuple[list, list]:
        size = rng.randint(1, 4)
        return [references() for _ in range(size)], [sentence(1) for _ in range(size)]

    def scored(name: str, make: Any) -> tuple:
        # Some smoothing methods refuse some weights (method 6 needs three orders): draw again.
        while True:
            args = (*make(), rng.choice(WEIGHTS), rng.choice(SMOOTHING))
            try:
                oracle.answer(name, args)
                return args
            except (IndexError, ValueError, ZeroDivisionError, AssertionError):
                continue

    makers = {
        "ngrams": lambda: (sentence(), rng.randint(1, 5)),
        "count_ngrams": lambda: (sentence(), rng.randint(1, 5)),
        "max_reference_counts": lambda: (references(), rng.randint(1, 4)),
        "clipped_counts": lambda: (references(), sentence(), rng.randint(1, 4)),
        "modified_precision": lambda: (references(), sentence(), rng.randint(1, 4)),
        "closest_ref_length": lambda: (references(), rng.randint(0, 16)),
        "brevity_penalty": lambda: (rng.randint(0, 20), rng.randint(0, 20)),
        "sentence_stats": lambda: (references(), sentence(), rng.randint(1, 4)),
        "geometric_mean_score": lambda: scored("geometric_mean_score", lambda: (references(), sentence(1))),
        "corpus_stats": lambda: (*corpus(), rng.randint(1, 4)),
        "corpus_bleu": lambda: scored("corpus_bleu", corpus),
    }
    return {name: [make() for _ in range(DRAWN)] for name, make in makers.items()}


def fixed_arguments() -> dict[str, list[tuple]]:
    """The instructor's edge cases: Papineni et al.'s examples, empty input, NLTK's quirks."""
    r1, cat, the, c1, c2, quarters = REFERENCES_1, REFERENCES_CAT, CANDIDATE_THE, CANDIDATE_1, CANDIDATE_2, (0.25,) * 4
    return {
        "ngrams": [(c1, 1), (c1, 4), (["the", "cat", "sat"], 3), (["the"], 2), ([], 1), (the, 2)],
        "count_ngrams": [(r1[0], 1), (the, 1), (the, 3), (c1, 2), (["a"], 2), ([], 1)],
        "max_reference_counts": [(cat, 1), (cat, 2), (r1, 1), (r1, 3), ([["the", "cat"], []], 1), ([["a", "b"]], 3)],
        "clipped_counts": [(cat, the, 1), (cat, the, 2), (r1, c1, 1), (r1, c2, 2), ([[]], ["a", "b"], 1)],
        "modified_precision": [
            *[(cat, the, 1), (cat, the, 2), (r1, c1, 1), (r1, c1, 2), (r1, c1, 4), (r1, c2, 1), (cat, ["the"], 2)],
            *[([[]], [], 1), ([["a", "a", "b"], ["a", "b", "b"]], ["a", "b", "b", "a", "a"], 1)],
        ],
        "closest_ref_length": [
            *[([["a"] * 10, ["a"] * 14], 12), ([["a"] * 10, ["a"] * 14], 13), ([["a"] * 14, ["a"] * 10], 12)],
            *[(r1, len(c1)), (r1, 2), ([[]], 3), ([["a"] * 5], 0)],
        ],
        "brevity_penalty": [(10, 12), (10, 10), (10, 5), (10, 0), (0, 0), (18, 17), (16, 2), (3, 1)],
        "sentence_stats": [
            *[(r1, c1, 4), (r1, c2, 4), (cat, the, 4), (cat, ["the", "cat"], 4), ([["a", "b", "c"]], [], 2)],
            (cat, CAT, 2),
        ],
        "geometric_mean_score": [
            (r1, c1),
            (r1, c2, (0.5, 0.5)),
            (r1, c2),  # no trigram match: NLTK's tiny score
            (cat, CAT, (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
            (r1, c1, [(1.0,), (0.5, 0.5), quarters]),
            (cat, ["the", "cat", "is"], quarters, None, True),
            (cat, the, (0.7, 0.3), Smoothing("method3")),
            # Method 4 leaves the zero precisions of a one-token hypothesis: the mean must skip them.
            (cat, ["the"], quarters, Smoothing("method4")),
            # Here sum() and NLTK's math.fsum() of the weighted logs differ in the last bit.
            (r1, "which ensures that the military".split()),
        ],
        "corpus_stats": [
            *[([r1, cat], [c1, the], 4), ([[["a", "b", "c"]], cat], [["a"], CAT], 4)],
            ([r1, r1, cat], [c1, c2, CAT], 2),
        ],
        "corpus_bleu": [
            ([r1, cat], [c1, the]),
            ([r1, r1], [c1, c2], (0.5, 0.5)),
            ([r1, cat], [c1, CAT], [(1.0,), (0.5, 0.5)]),
            # Methods 4 and 5 read the corpus's last sentence pair, as NLTK's do.
            ([r1, cat], [c2, ["the", "cat"]], quarters, Smoothing("method4")),
            ([cat, r1], [["the", "cat"], c2], quarters, Smoothing("method5")),
            # Only the last hypothesis has a 5-gram match, which method 5 reads.
            ([cat, r1], [CAT, c1], quarters, Smoothing("method5")),
            ([[["a", "b", "c"]], cat], [["a"], CAT], (1 / 3, 1 / 3, 1 / 3), Smoothing("method1")),
        ],
    }
