"""Lesson 06: corpus statistics and the corpus score."""

import math

import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_scratch import (
    BleuStats,
    batch_corpus_stats,
    batch_sentence_stats,
    bleu_from_stats,
    corpus_bleu,
    corpus_stats,
    sentence_bleu,
    sentence_stats,
)

CAT = "the cat sat on the mat".split()
DOG_REF, DOG_HYP = "a dog barked".split(), "a dog".split()


def test_corpus_stats_by_hand():
    # Pair 1 is perfect: 6 unigram and 5 bigram matches, reference length 6.
    # Pair 2, "a dog" against "a dog barked": 2 and 1 matches, reference length 3.
    stats = corpus_stats([[CAT], [DOG_REF]], [CAT, DOG_HYP], max_n=2)
    assert stats == BleuStats(
        hyp_len=6 + 2, ref_len=6 + 3, matches=(6 + 2, 5 + 1), totals=(6 + 2, 5 + 1), too_short=(0, 0)
    )


def test_corpus_bleu_by_hand(same_as_nltk):
    # Pooled precisions are 8/8 and 6/6; BP = exp(1 - 9/8): BLEU-2 = exp(-1/8).
    outcome = same_as_nltk(corpus_bleu, nltk_corpus_bleu, [[CAT], [DOG_REF]], [CAT, DOG_HYP], (0.5, 0.5))
    assert outcome.value == pytest.approx(math.exp(-1 / 8), rel=1e-15)


def test_nltk_book_example(paper_cased, same_as_nltk):
    # NLTK's corpus_bleu doctest: the paper's candidate 1 plus a reordered sentence.
    hyp2 = "he read the book because he was interested in world history".split()
    ref2 = "he was interested in world history because he read the book".split()
    list_of_references = [paper_cased.references, [ref2]]
    hypotheses = [paper_cased.candidate_1, hyp2]
    # hyp2 against ref2 by hand: 11/11 unigrams; bigrams all but "book because": 9/10;
    # trigrams "he read the", "read the book" and the 4 inside "he was ... history": 6/9;
    # 4-grams "he read the book" and the 3 inside "he was interested in world history": 4/8.
    assert sentence_stats([ref2], hyp2) == BleuStats(11, 11, (11, 9, 6, 4), (11, 10, 9, 8), (0, 0, 0, 0))
    corpus = same_as_nltk(corpus_bleu, nltk_corpus_bleu, list_of_references, hypotheses).value
    assert str(corpus).startswith("0.5920")
    mean = (sentence_bleu(paper_cased.references, paper_cased.candidate_1) + sentence_bleu([ref2], hyp2)) / 2
    # The corpus score pools counts; it is not the mean of sentence scores (0.6223...).
    assert str(mean).startswith("0.6223")
    several = [(0.5, 0.5), (0.333, 0.333, 0.334), (0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2)]
    scores = same_as_nltk(corpus_bleu, nltk_corpus_bleu, list_of_references, hypotheses, several).value
    assert [str(s)[:6] for s in scores] == ["0.8242", "0.7067", "0.5920", "0.4719"]
    weighted = same_as_nltk(corpus_bleu, nltk_corpus_bleu, list_of_references, hypotheses, (0.1, 0.3, 0.5, 0.1)).value
    assert str(weighted).startswith("0.5818")


@pytest.mark.filterwarnings(r"ignore:\s*The hypothesis contains 0 counts:UserWarning")
def test_one_pair_corpus_equals_sentence_bleu(paper):
    for hypothesis in (paper.candidate_1, paper.candidate_2):
        for weights in [(0.5, 0.5), (1.0,), (0.25,) * 4]:
            assert corpus_bleu([paper.references], [hypothesis], weights) == sentence_bleu(
                paper.references, hypothesis, weights
            )


def test_order_of_pairs_does_not_matter_without_smoothing(paper):
    list_of_references = [paper.references, paper.references, [DOG_REF]]
    hypotheses = [paper.candidate_1, paper.candidate_2, DOG_HYP]
    forward = corpus_bleu(list_of_references, hypotheses, (0.5, 0.5))
    backward = corpus_bleu(list_of_references[::-1], hypotheses[::-1], (0.5, 0.5))
    assert forward == backward


def test_a_too_short_sentence_counts_one_ngram_like_nltk(same_as_nltk):
    # "x" has no bigram; NLTK's denominator is max(1, 0) = 1, so pooled p2 = 5/(5 + 1), not 5/5.
    stats = corpus_stats([[CAT], [["x"]]], [CAT, ["x"]], max_n=2)
    assert stats.totals == (7, 5) and stats.nltk_totals == (7, 6)
    outcome = same_as_nltk(corpus_bleu, nltk_corpus_bleu, [[CAT], [["x"]]], [CAT, ["x"]], (0.5, 0.5))
    assert outcome.value == pytest.approx(math.sqrt(7 / 7 * 5 / 6), rel=1e-15)


def test_summed_sentence_stats_give_nltk_corpus_bleu(paper_cased):
    list_of_references = [paper_cased.references, paper_cased.references, [DOG_REF]]
    hypotheses = [paper_cased.candidate_1, paper_cased.candidate_2, DOG_HYP]
    summed = sum((sentence_stats(r, h) for r, h in zip(list_of_references, hypotheses)), BleuStats.zero(4))
    assert summed == corpus_stats(list_of_references, hypotheses)
    assert bleu_from_stats(summed) == nltk_corpus_bleu(list_of_references, hypotheses)


def test_lesson_10s_counter_equals_the_lesson_statistics(paper):
    list_of_references = [paper.references, paper.the_references, [DOG_REF], [[]]]
    hypotheses = [paper.candidate_1, paper.the_candidate, DOG_HYP, ["a"]]
    for max_n in range(1, 7):
        assert batch_corpus_stats(list_of_references, hypotheses, max_n) == corpus_stats(
            list_of_references, hypotheses, max_n
        )
        assert batch_sentence_stats(list_of_references, hypotheses, max_n) == [
            sentence_stats(references, hypothesis, max_n)
            for references, hypothesis in zip(list_of_references, hypotheses)
        ]


def test_sentence_bleu_is_nltk_corpus_of_one(paper, same_as_nltk):
    # NLTK's sentence_bleu is corpus_bleu([references], [hypothesis]).
    theirs = nltk_sentence_bleu(paper.references, paper.candidate_2, (0.5, 0.5))
    same_as_nltk(corpus_bleu, nltk_corpus_bleu, [paper.references], [paper.candidate_2], (0.5, 0.5))
    assert corpus_bleu([paper.references], [paper.candidate_2], (0.5, 0.5)) == theirs
