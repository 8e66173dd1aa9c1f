"""The public functions: each lesson function behind one check of its input.

A lesson module shows its idea and nothing else. The checks that turn a common
mistake into a clear error (``checks.py``) run here, once per call, before the
lesson's code; the lesson functions call one another unchecked. ``wraps``
gives each checked function its lesson function's name, docstring and
signature, and ``inspect.getsource`` of it shows the lesson's code.

``corpus_bleu`` is lesson 10's: lesson 06's score on statistics counted
faster, the same value (tests/lessons/test_fast.py holds the two equal).
"""

from functools import wraps

from . import brevity, corpus, fast, parallel, precision, sacre, sentence, tokenize, variants
from . import correlation, permutations, relatives
from .checks import (
    check_corpus,
    check_line,
    check_order,
    check_paired_scores,
    check_references,
    check_sacrebleu_options,
    check_stats_for_weights,
    check_tokens,
    check_weights,
)

# Only the name, the docstring, the type hints and the source come from the lesson function:
# the checked one keeps its own module, so that it pickles as itself.
LESSON_FACE = ("__name__", "__doc__", "__annotations__")


@wraps(precision.modified_precision, LESSON_FACE)
def modified_precision(references, hypothesis, n):
    check_order(n)
    hypothesis = check_tokens(hypothesis, "hypothesis")
    return precision.modified_precision(check_references(references, allow_iterator=True), hypothesis, n)


@wraps(brevity.closest_ref_length, LESSON_FACE)
def closest_ref_length(references, hyp_len):
    return brevity.closest_ref_length(check_references(references, allow_iterator=True), hyp_len)


@wraps(sentence.sentence_stats, LESSON_FACE)
def sentence_stats(references, hypothesis, max_n=4):
    hypothesis = check_tokens(hypothesis, "hypothesis")
    return sentence.sentence_stats(check_references(references), hypothesis, max_n)


@wraps(sentence.bleu_from_stats, LESSON_FACE)
def bleu_from_stats(
    stats, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False,
    last_references=((),), last_hypothesis=(),
):
    check_stats_for_weights(stats, weights)
    return sentence.bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, last_references, last_hypothesis)


@wraps(sentence.sentence_bleu, LESSON_FACE)
def sentence_bleu(references, hypothesis, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    hypothesis = check_tokens(hypothesis, "hypothesis")
    references = check_references(references)
    check_weights(weights)
    return sentence.sentence_bleu(references, hypothesis, weights, smoothing_function, auto_reweigh)


@wraps(corpus.corpus_stats, LESSON_FACE)
def corpus_stats(list_of_references, hypotheses, max_n=4):
    return corpus.corpus_stats(*check_corpus(list_of_references, hypotheses), max_n)


@wraps(fast.corpus_bleu, LESSON_FACE)
def corpus_bleu(list_of_references, hypotheses, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    list_of_references, hypotheses = check_corpus(list_of_references, hypotheses)
    check_weights(weights)
    return fast.corpus_bleu(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh)


@wraps(variants.shortest_ref_length, LESSON_FACE)
def shortest_ref_length(references, hyp_len):
    return variants.shortest_ref_length(check_references(references), hyp_len)


@wraps(variants.first_closest_ref_length, LESSON_FACE)
def first_closest_ref_length(references, hyp_len):
    return variants.first_closest_ref_length(check_references(references), hyp_len)


@wraps(variants.variant_sentence_bleu, LESSON_FACE)
def variant_sentence_bleu(
    references, hypothesis, weights=sentence.DEFAULT_WEIGHTS, ref_length=brevity.closest_ref_length, renormalise=False
):
    hypothesis = check_tokens(hypothesis, "hypothesis")
    references = check_references(references)
    return variants.variant_sentence_bleu(references, hypothesis, weights, ref_length, renormalise)


def _checked_tokenizer(tokenizer):
    @wraps(tokenizer, LESSON_FACE)
    def checked(line):
        check_line(line, tokenizer.__name__)
        return tokenizer(line)

    # Named as the module attribute it becomes, so that it pickles.
    checked.__qualname__ = tokenizer.__name__
    return checked


tokenize_whitespace = _checked_tokenizer(tokenize.tokenize_whitespace)
tokenize_lowercase = _checked_tokenizer(tokenize.tokenize_lowercase)
tokenize_punctuation = _checked_tokenizer(tokenize.tokenize_punctuation)
tokenize_paper = _checked_tokenizer(tokenize.tokenize_paper)
tokenize_13a = _checked_tokenizer(tokenize.tokenize_13a)


@wraps(sacre.sacrebleu_from_stats, LESSON_FACE)
def sacrebleu_from_stats(stats, smooth_method="exp", smooth_value=None, effective_order=False):
    check_sacrebleu_options(stats, smooth_method, sacre.SMOOTH_DEFAULTS)
    return sacre.sacrebleu_from_stats(stats, smooth_method, smooth_value, effective_order)


@wraps(parallel.parallel_corpus_stats, LESSON_FACE)
def parallel_corpus_stats(list_of_references, hypotheses, max_n=4, jobs=2, shard_size=10_000):
    return parallel.parallel_corpus_stats(*check_corpus(list_of_references, hypotheses), max_n, jobs, shard_size)


@wraps(parallel.parallel_corpus_bleu, LESSON_FACE)
def parallel_corpus_bleu(
    list_of_references, hypotheses, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False,
    jobs=2, shard_size=10_000,
):
    list_of_references, hypotheses = check_corpus(list_of_references, hypotheses)
    check_weights(weights)
    return parallel.parallel_corpus_bleu(
        list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, jobs, shard_size
    )


@wraps(relatives.word_edit_distance, LESSON_FACE)
def word_edit_distance(reference, hypothesis):
    return relatives.word_edit_distance(check_tokens(reference, "reference"), check_tokens(hypothesis, "hypothesis"))


@wraps(correlation.pearson, LESSON_FACE)
def pearson(xs, ys):
    return correlation.pearson(*check_paired_scores(xs, ys))


@wraps(correlation.kendall_tau, LESSON_FACE)
def kendall_tau(xs, ys):
    return correlation.kendall_tau(*check_paired_scores(xs, ys))


@wraps(correlation.discordant_pairs, LESSON_FACE)
def discordant_pairs(xs, ys):
    return correlation.discordant_pairs(*check_paired_scores(xs, ys, correlation=False))


def _checked_sentence_pair(lesson_function):
    """The door of a lesson function of ``(references, hypothesis)``, both checked as for ``sentence_bleu``."""

    @wraps(lesson_function, LESSON_FACE)
    def checked(references, hypothesis):
        hypothesis = check_tokens(hypothesis, "hypothesis")
        return lesson_function(check_references(references), hypothesis)

    # Named as the module attribute it becomes, so that it pickles.
    checked.__qualname__ = lesson_function.__name__
    return checked


word_error_rate = _checked_sentence_pair(relatives.word_error_rate)
bigram_mismatch_chunks = _checked_sentence_pair(permutations.bigram_mismatch_chunks)
permutations_keeping_matches = _checked_sentence_pair(permutations.permutations_keeping_matches)
