"""Lesson 10: a synthetic corpus of any size, to time and scale with.

Real test sets have a few thousand segments; measuring speed and memory needs
hundreds of thousands. This corpus is random but shaped like text: words
follow Zipf's law, and hypothesis and references share a hidden sentence, so
n-grams of every order match.
"""

import random
from itertools import accumulate


def synthetic_corpus(
    segments: int, references: int = 1, seed: int = 0, vocabulary: int = 30_000, length: int = 25
) -> tuple[list[list[list[str]]], list[list[str]]]:
    """A seeded random corpus to time and scale with: ``(list_of_references, hypotheses)``.

    Words follow Zipf's law (the word of rank r has frequency proportional to
    1/r), so common words repeat within a sentence as in real text. Each
    segment starts from a hidden sentence of about ``length`` words; the
    hypothesis and every reference replace about a third of its words at
    random and add or drop up to 3 words at the end, so n-grams of every order
    match, and a few segments come out empty or shorter than 4 words.

    >>> list_of_references, hypotheses = synthetic_corpus(3, references=2, seed=1)
    >>> len(hypotheses), [len(refs) for refs in list_of_references]
    (3, [2, 2, 2])
    >>> synthetic_corpus(3, references=2, seed=1) == (list_of_references, hypotheses)
    True
    """
    rng = random.Random(seed)
    words = [f"w{rank}" for rank in range(1, vocabulary + 1)]
    cumulative = list(accumulate(1 / rank for rank in range(1, vocabulary + 1)))

    def draw(k: int) -> list[str]:
        return rng.choices(words, cum_weights=cumulative, k=k)

    def edit(sentence: list[str]) -> list[str]:
        edited = [word if rng.random() > 0.35 else new for word, new in zip(sentence, draw(len(sentence)))]
        change = rng.randint(-3, 3)
        return edited[: len(edited) + change] if change < 0 else edited + draw(change)

    list_of_references, hypotheses = [], []
    for _ in range(segments):
        hidden = draw(max(1, round(rng.gauss(length, 8))))
        hypotheses.append(edit(hidden))
        list_of_references.append([edit(hidden) for _ in range(references)])
    return list_of_references, hypotheses
