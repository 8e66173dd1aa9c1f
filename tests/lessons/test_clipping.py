"""Lesson 02: clipping by the maximum count in any single reference."""

from collections import Counter

from bleu_scratch import clipped_counts, count_ngrams, max_reference_counts


def test_max_not_sum_over_references():
    # Each reference says "the" twice: the hypothesis may use it twice, not four times.
    references = ["the cat on the mat".split(), "the dog on the rug".split()]
    assert max_reference_counts(references, 1)[("the",)] == 2


def test_max_reference_counts_by_hand():
    references = ["a b a".split(), "a a a c".split()]
    # a: max(2, 3) = 3; b: max(1, 0) = 1; c: max(0, 1) = 1.
    assert max_reference_counts(references, 1) == Counter({("a",): 3, ("b",): 1, ("c",): 1})
    # Bigrams: ab 1, ba 1 (ref 1); aa 2, ac 1 (ref 2).
    assert max_reference_counts(references, 2) == Counter({("a", "b"): 1, ("b", "a"): 1, ("a", "a"): 2, ("a", "c"): 1})


def test_empty_reference_contributes_nothing():
    assert max_reference_counts([[]], 1) == Counter()
    assert max_reference_counts([[], ["x"]], 1) == Counter({("x",): 1})


def test_papineni_example_2_clips_the_to_two(paper):
    # Papineni et al. (2002) Example 2: "the" appears 7 times in the candidate,
    # at most twice in one reference ("the cat is on the mat"), so it is clipped to 2.
    hypothesis_counts = count_ngrams(paper.the_candidate, 1)
    assert hypothesis_counts[("the",)] == 7
    max_counts = max_reference_counts(paper.the_references, 1)
    assert max_counts[("the",)] == 2
    assert clipped_counts(hypothesis_counts, max_counts) == Counter({("the",): 2})


def test_clipped_counts_published_example():
    # Blog post: hypothesis "is some" against "this is a test" / "this is is is test":
    # "is" occurs once in the hypothesis (max in a reference 3) -> 1; "some" -> 0.
    references = ["this is a test".split(), "this is is is test".split()]
    hypothesis = "is some".split()
    clipped = clipped_counts(count_ngrams(hypothesis, 1), max_reference_counts(references, 1))
    assert clipped[("is",)] == 1
    assert clipped[("some",)] == 0
    assert sum(clipped.values()) == 1


def test_clipped_never_exceeds_hypothesis_count():
    hypothesis_counts = Counter({("a",): 1, ("b",): 3})
    max_counts = Counter({("a",): 5, ("b",): 2})
    # min(1, 5) = 1, min(3, 2) = 2.
    assert clipped_counts(hypothesis_counts, max_counts) == Counter({("a",): 1, ("b",): 2})


def test_each_returns_a_counter_and_clipping_keeps_every_hypothesis_ngram():
    references = ["this is a test".split(), "this is is is test".split()]
    hypothesis_counts = count_ngrams("is some".split(), 1)
    max_counts = max_reference_counts(references, 1)
    clipped = clipped_counts(hypothesis_counts, max_counts)
    assert type(max_counts) is Counter and type(clipped) is Counter
    # "some" is clipped to 0 and stays, as in NLTK's modified_precision: `a & b` would drop it.
    assert dict(clipped) == {("is",): 1, ("some",): 0}
