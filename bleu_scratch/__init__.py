"""bleu_scratch: BLEU built from scratch, one lesson per module, exact to NLTK 3.10.4.

``from bleu_scratch import sentence_bleu`` can replace
``from nltk.translate.bleu_score import sentence_bleu``; the same holds for
``corpus_bleu``, ``modified_precision``, ``closest_ref_length``,
``brevity_penalty`` and ``SmoothingFunction``.

Every name here is a lesson's, in lesson order, and is that lesson's own
code: ``sentence_bleu`` is lesson 05's (``lesson05_sentence.py``),
``corpus_bleu`` lesson 06's. Lesson 10's fast paths have names of their own
(``batch_sentence_bleu``, ``fast_corpus_bleu``, ``parallel_corpus_bleu``):
the same values, faster. Lessons 01 to 09 need
only the standard library; the names of lessons 10 to 13 (10 and 11 use numpy,
and lesson 10's counter numba) are imported when first used.

>>> from bleu_scratch import sentence_bleu
>>> sentence_bleu([["the", "cat", "sat", "down"]], ["the", "cat", "sat", "down"])
1.0
"""

# The imports follow the lessons' order, not the alphabet.
# ruff: noqa: I001
import importlib
from typing import Any

__version__ = "0.3.0"

# Lesson 01: tokens and n-grams
from .lesson01_tokenize import (
    TOKENIZERS,
    tokenize_13a,
    tokenize_lowercase,
    tokenize_paper,
    tokenize_punctuation,
    tokenize_whitespace,
)
from .lesson01_ngrams import count_ngrams, ngrams

# Lesson 02: clipping
from .lesson02_clipping import clipped_counts, max_reference_counts

# Lesson 03: modified precision
from .lesson03_precision import Precision, modified_precision
from .lesson03_matches import explain

# Lesson 04: the brevity penalty
from .lesson04_brevity import brevity_penalty, closest_ref_length

# Lesson 05: the sentence score
from .lesson05_sentence import (
    BleuStats,
    bleu_from_stats,
    geometric_mean_score,
    no_smoothing,
    sentence_bleu,
    sentence_stats,
)

# Lesson 06: the corpus score
from .lesson06_corpus import corpus_bleu, corpus_stats

# Lesson 07: smoothing
from .lesson07_smoothing import SmoothingError, SmoothingFunction

# Lesson 08: published figures and the variants behind them
from .lesson08_variants import (
    first_closest_ref_length,
    renormalised_weights,
    shortest_ref_length,
    variant_sentence_bleu,
)
from .lesson08_posts import (
    introduction_bleu,
    kirchhoff_bleu,
    kirchhoff_tokenize,
    study_notes_bleu,
)

# Lesson 09: sacrebleu
from .lesson09_tokenizers import (
    ALL_TOKENIZERS,
    NEEDS_SENTENCEPIECE_MODEL,
    SACREBLEU_TOKENIZERS,
    sacrebleu_tokenizer,
    tokenize_char,
    tokenize_intl,
    tokenize_ja_mecab,
    tokenize_ko_mecab,
    tokenize_zh,
)
from .lesson09_sacrebleu import sacrebleu_from_stats
from .lesson09_tools import TOOLS, tool_bleu, tool_signature

# Lessons 10 to 13 (10 and 11 use numpy): each name is imported from its module when first used.
LATER_LESSONS = {
    # Lesson 10: scale
    "token_arrays": "lesson10_arrays",
    "batch_counts": "lesson10_batch",
    "batch_sentence_stats": "lesson10_batch",
    "batch_corpus_stats": "lesson10_batch",
    "batch_sentence_bleu": "lesson10_batch",
    "fast_corpus_bleu": "lesson10_batch",
    "parallel_corpus_stats": "lesson10_parallel",
    "parallel_corpus_bleu": "lesson10_parallel",
    "synthetic_corpus": "lesson10_synthetic",
    # Lesson 11: is the difference real?
    "segment_table": "lesson11_resampling",
    "resampled_stats": "lesson11_resampling",
    "bootstrap_interval": "lesson11_resampling",
    "PairedResult": "lesson11_significance",
    "paired_test": "lesson11_significance",
    # Lesson 12: BLEU and the humans
    "pearson": "lesson12_correlation",
    "kendall_tau": "lesson12_correlation",
    "discordant_pairs": "lesson12_correlation",
    # Lesson 13: what BLEU cannot see
    "bigram_mismatch_chunks": "lesson13_permutations",
    "permutations_keeping_matches": "lesson13_permutations",
    "word_edit_distance": "lesson13_relatives",
    "word_error_rate": "lesson13_relatives",
    "WordNetStandIn": "lesson13_relatives",
}


def __getattr__(name: str) -> Any:
    if name not in LATER_LESSONS:
        raise AttributeError(f"module 'bleu_scratch' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{LATER_LESSONS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(LATER_LESSONS))


__all__ = [
    "TOKENIZERS",
    "tokenize_whitespace",
    "tokenize_lowercase",
    "tokenize_punctuation",
    "tokenize_paper",
    "tokenize_13a",
    "ngrams",
    "count_ngrams",
    "max_reference_counts",
    "clipped_counts",
    "Precision",
    "modified_precision",
    "explain",
    "closest_ref_length",
    "brevity_penalty",
    "BleuStats",
    "sentence_stats",
    "no_smoothing",
    "geometric_mean_score",
    "bleu_from_stats",
    "sentence_bleu",
    "corpus_stats",
    "corpus_bleu",
    "SmoothingFunction",
    "SmoothingError",
    "shortest_ref_length",
    "first_closest_ref_length",
    "renormalised_weights",
    "variant_sentence_bleu",
    "introduction_bleu",
    "study_notes_bleu",
    "kirchhoff_tokenize",
    "kirchhoff_bleu",
    "SACREBLEU_TOKENIZERS",
    "ALL_TOKENIZERS",
    "NEEDS_SENTENCEPIECE_MODEL",
    "tokenize_intl",
    "tokenize_char",
    "tokenize_zh",
    "tokenize_ja_mecab",
    "tokenize_ko_mecab",
    "sacrebleu_tokenizer",
    "sacrebleu_from_stats",
    "TOOLS",
    "tool_bleu",
    "tool_signature",
    *LATER_LESSONS,
]
