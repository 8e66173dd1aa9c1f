"""bleu_scratch: BLEU built from scratch, one lesson per module, exact to NLTK 3.10.4.

``from bleu_scratch import sentence_bleu`` can replace
``from nltk.translate.bleu_score import sentence_bleu``; the same holds for
``corpus_bleu``, ``modified_precision``, ``closest_ref_length``,
``brevity_penalty`` and ``SmoothingFunction``.

>>> from bleu_scratch import sentence_bleu
>>> sentence_bleu([["the", "cat", "sat", "down"]], ["the", "cat", "sat", "down"])
1.0
"""

from .brevity import brevity_penalty, closest_ref_length
from .clipping import clipped_counts, max_reference_counts
from .corpus import corpus_bleu, corpus_stats
from .ngrams import count_ngrams, ngrams
from .precision import Precision, modified_precision
from .sentence import BleuStats, bleu_from_stats, sentence_bleu, sentence_stats
from .smoothing import SmoothingFunction

__all__ = [
    "BleuStats",
    "Precision",
    "SmoothingFunction",
    "bleu_from_stats",
    "brevity_penalty",
    "clipped_counts",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_stats",
    "count_ngrams",
    "max_reference_counts",
    "modified_precision",
    "ngrams",
    "sentence_bleu",
    "sentence_stats",
]
