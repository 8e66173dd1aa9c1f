"""The public functions: each lesson function behind one check of its input.

A lesson module shows its idea and nothing else. The checks that turn a common
mistake into a clear error (``checks.py``) run here, once per call, before the
lesson's code; the lesson functions call one another unchecked. ``wraps``
gives each checked function its lesson function's name, docstring and
signature, and ``inspect.getsource`` of it shows the lesson's code.

``sentence_bleu`` and ``corpus_bleu`` are lesson 10's: lessons 05 and 06's
scores on statistics counted faster (``fast.py``, ``batch.py``), the same
values (tests/lessons/test_fast.py holds them equal).
"""

from functools import wraps

from . import batch, brevity, corpus, fast, matches, parallel, posts, precision, sacre, sentence, significance, tokenize, variants
from . import correlation, permutations, relatives
from .checks import (
    check_corpus,
    check_line,
    check_order,
    check_references,
    check_sacrebleu_options,
    check_stats_for_weights,
    check_text,
    check_text_references,
    check_tokens,
    check_weights,
)
from .comparison_checks import check_paired_scores, check_paired_test
from .tokenize import TOKENIZERS

# Only the name, the docstring, the type hints and the source come from the lesson function:
# the checked one keeps its own module, so that it pickles as itself.
LESSON_FACE = ("__name__", "__doc__", "__annotations__")


@wraps(precision.modified_precision, LESSON_FACE)
def modified_precision(references, hypothesis, n):
    check_order(n)
    hypothesis = check_tokens(hypothesis, "hypothesis")
    return precision.modified_precision(check_references(references, allow_iterator=True), hypothesis, n)


@wraps(matches.explain, LESSON_FACE)
def explain(references, hypothesis, max_n=4):
    check_order(max_n, "max_n is the highest n-gram order")
    hypothesis = check_tokens(hypothesis, "hypothesis")
    return matches.explain(check_references(references), hypothesis, max_n)


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


@wraps(fast.sentence_bleu, LESSON_FACE)
def sentence_bleu(references, hypothesis, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    hypothesis = check_tokens(hypothesis, "hypothesis")
    references = check_references(references)
    check_weights(weights)
    return fast.sentence_bleu(references, hypothesis, weights, smoothing_function, auto_reweigh)


@wraps(fast.fast_bleu_from_stats, LESSON_FACE)
def fast_bleu_from_stats(
    stats, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False,
    last_references=((),), last_hypothesis=(),
):
    check_stats_for_weights(stats, weights)
    return fast.fast_bleu_from_stats(stats, weights, smoothing_function, auto_reweigh, last_references, last_hypothesis)


@wraps(corpus.corpus_stats, LESSON_FACE)
def corpus_stats(list_of_references, hypotheses, max_n=4):
    return corpus.corpus_stats(*check_corpus(list_of_references, hypotheses), max_n)


@wraps(batch.corpus_bleu, LESSON_FACE)
def corpus_bleu(list_of_references, hypotheses, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    list_of_references, hypotheses = check_corpus(list_of_references, hypotheses)
    check_weights(weights)
    return batch.corpus_bleu(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh)


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


def _checked_post(post):
    """A blog post's sentence score on tokens, behind the checks of ``sentence_bleu``."""

    @wraps(post, LESSON_FACE)
    def checked(references, hypothesis, weights=sentence.DEFAULT_WEIGHTS):
        hypothesis = check_tokens(hypothesis, "hypothesis")
        references = check_references(references)
        check_weights(weights)
        return post(references, hypothesis, weights)

    # Named as the module attribute it becomes, so that it pickles.
    checked.__qualname__ = post.__name__
    return checked


introduction_bleu = _checked_post(posts.introduction_bleu)
study_notes_bleu = _checked_post(posts.study_notes_bleu)


@wraps(posts.kirchhoff_bleu, LESSON_FACE)
def kirchhoff_bleu(references, hypothesis, weights=sentence.DEFAULT_WEIGHTS):
    check_text(hypothesis, "hypothesis", "kirchhoff_bleu")
    references = check_text_references(references, "kirchhoff_bleu")
    check_weights(weights)
    return posts.kirchhoff_bleu(references, hypothesis, weights)


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
kirchhoff_tokenize = _checked_tokenizer(posts.kirchhoff_tokenize)


@wraps(sacre.sacrebleu_from_stats, LESSON_FACE)
def sacrebleu_from_stats(stats, smooth_method="exp", smooth_value=None, effective_order=False):
    check_sacrebleu_options(stats, smooth_method, sacre.SMOOTH_DEFAULTS)
    return sacre.sacrebleu_from_stats(stats, smooth_method, smooth_value, effective_order)


@wraps(parallel.parallel_corpus_stats, LESSON_FACE)
def parallel_corpus_stats(list_of_references, hypotheses, max_n=4, client=None, jobs=2, shard_size=10_000):
    return parallel.parallel_corpus_stats(*check_corpus(list_of_references, hypotheses), max_n, client, jobs, shard_size)


@wraps(parallel.parallel_corpus_bleu, LESSON_FACE)
def parallel_corpus_bleu(
    list_of_references, hypotheses, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False,
    client=None, jobs=2, shard_size=10_000,
):
    list_of_references, hypotheses = check_corpus(list_of_references, hypotheses)
    check_weights(weights)
    return parallel.parallel_corpus_bleu(
        list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, client, jobs, shard_size
    )


@wraps(batch.batch_sentence_stats, LESSON_FACE)
def batch_sentence_stats(list_of_references, hypotheses, max_n=4):
    return batch.batch_sentence_stats(*check_corpus(list_of_references, hypotheses), max_n)


@wraps(batch.batch_sentence_bleu, LESSON_FACE)
def batch_sentence_bleu(list_of_references, hypotheses, weights=sentence.DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    list_of_references, hypotheses = check_corpus(list_of_references, hypotheses)
    check_weights(weights)
    return batch.batch_sentence_bleu(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh)


@wraps(batch.batch_corpus_stats, LESSON_FACE)
def batch_corpus_stats(list_of_references, hypotheses, max_n=4, chunk=batch.CHUNK):
    return batch.batch_corpus_stats(*check_corpus(list_of_references, hypotheses), max_n, chunk)


@wraps(significance.paired_test, LESSON_FACE)
def paired_test(
    named_systems, references, test_type="bs", n_samples=None, seed=12345, tokenize="13a",
    progress=significance.no_progress,
):
    named_systems, references = check_paired_test(
        named_systems, references, test_type, n_samples, seed, tokenize, TOKENIZERS
    )
    return significance.paired_test(named_systems, references, test_type, n_samples, seed, tokenize, progress)
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
