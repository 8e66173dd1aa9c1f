"""bleu_scratch: BLEU built from scratch, one lesson per module, exact to NLTK 3.10.4.

``from bleu_scratch import sentence_bleu`` can replace
``from nltk.translate.bleu_score import sentence_bleu``; the same holds for
``corpus_bleu``, ``modified_precision``, ``closest_ref_length``,
``brevity_penalty`` and ``SmoothingFunction``.

Every name here is a lesson's, in lesson order. The functions that take
input a user can get wrong are checked once at the door (``api.py``) and
then run the lesson's code unchanged. Two names are not their lessons' own:
``sentence_bleu`` and ``corpus_bleu`` are lesson 10's, lessons 05 and 06's
scores on statistics counted faster (``fast.py``, ``batch.py``), the same values;
``bleu_scratch.sentence.sentence_bleu`` and ``bleu_scratch.corpus.corpus_bleu``
are lessons 05 and 06's.

>>> from bleu_scratch import sentence_bleu
>>> sentence_bleu([["the", "cat", "sat", "down"]], ["the", "cat", "sat", "down"])
1.0
"""

# Lesson 01: tokens and n-grams
from .api import tokenize_13a, tokenize_lowercase, tokenize_paper, tokenize_punctuation, tokenize_whitespace
from .tokenize import TOKENIZERS
from .ngrams import count_ngrams, ngrams

# Lesson 02: clipping
from .clipping import clipped_counts, max_reference_counts

# Lesson 03: modified precision
from .precision import Precision
from .api import explain, modified_precision

# Lesson 04: the brevity penalty
from .brevity import brevity_penalty
from .api import closest_ref_length

# Lesson 05: the sentence score (sentence_bleu: lesson 10's, see above)
from .sentence import BleuStats, geometric_mean_score, no_smoothing
from .api import bleu_from_stats, sentence_stats

# Lesson 06: the corpus score (corpus_bleu: lesson 10's, see above)
from .api import corpus_stats

# Lesson 07: smoothing
from .smoothing import SmoothingError, SmoothingFunction

# Lesson 08: published figures and the variants behind them
from .variants import renormalised_weights
from .api import first_closest_ref_length, shortest_ref_length, variant_sentence_bleu
from .posts import numpy_sum
from .api import introduction_bleu, kirchhoff_bleu, kirchhoff_tokenize, study_notes_bleu

# Lesson 09: sacrebleu
from .api import sacrebleu_from_stats

# Lesson 10: scale
from .fast import fast_corpus_stats, fast_sentence_stats, fast_stats_of_pairs
from .api import (
    batch_corpus_stats,
    batch_sentence_bleu,
    batch_sentence_stats,
    corpus_bleu,
    fast_bleu_from_stats,
    parallel_corpus_bleu,
    parallel_corpus_stats,
    sentence_bleu,
)
from .synthetic import synthetic_corpus

# Lesson 11: is the difference real? (numpy from here on)
from .resampling import bootstrap_interval, resampled_stats, segment_table
from .significance import PairedResult
from .api import paired_test
# Lesson 12: what BLEU cannot see
from .api import discordant_pairs, kendall_tau, pearson
from .api import bigram_mismatch_chunks, permutations_keeping_matches
from .api import word_edit_distance, word_error_rate
from .relatives import WordNetStandIn

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
    "corpus_stats",
    "SmoothingFunction",
    "SmoothingError",
    "shortest_ref_length",
    "first_closest_ref_length",
    "renormalised_weights",
    "variant_sentence_bleu",
    "numpy_sum",
    "introduction_bleu",
    "study_notes_bleu",
    "kirchhoff_tokenize",
    "kirchhoff_bleu",
    "sacrebleu_from_stats",
    "fast_sentence_stats",
    "fast_corpus_stats",
    "fast_stats_of_pairs",
    "fast_bleu_from_stats",
    "sentence_bleu",
    "corpus_bleu",
    "batch_sentence_stats",
    "batch_corpus_stats",
    "batch_sentence_bleu",
    "parallel_corpus_stats",
    "parallel_corpus_bleu",
    "synthetic_corpus",
    "segment_table",
    "resampled_stats",
    "bootstrap_interval",
    "PairedResult",
    "paired_test",
    "pearson",
    "kendall_tau",
    "discordant_pairs",
    "bigram_mismatch_chunks",
    "permutations_keeping_matches",
    "word_edit_distance",
    "word_error_rate",
    "WordNetStandIn",
]
