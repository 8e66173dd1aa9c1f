"""What a shard becomes where it is scored: tokens, statistics and, for ``--sentence``, each segment's score.

``score_shard`` runs in this process or on a Dask worker. It reads the shard
(a slice of the files, or lines read by the command), tokenizes each segment
with lesson 01's tokenizers, counts its statistics with lesson 10's batch
counting, and for ``--sentence`` scores each segment. Lines travel to a
worker, never tokens: a line pickles as one string, its tokens as dozens.
"""

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from bleu_scratch import TOKENIZERS, BleuStats
from bleu_scratch.batch import batch_corpus_stats, batch_sentence_stats

from .inputs import FileSlice, Segment, read_slice
from .scoring import score
from .settings import Settings

Tokens = list[str]


@dataclass(frozen=True)
class ShardResult:
    """What the command needs back from a shard."""

    count: int  # segments in the shard
    stats: BleuStats  # summed over them
    last: Segment  # its last segment: smoothing methods 5 to 7 read the corpus's last one
    scores: tuple[tuple[float, BleuStats], ...]  # with --sentence, each segment's score and statistics
    warnings: tuple[str, ...]  # the distinct warnings the lessons gave, in order


def segment_tokens(lines: Sequence[str], tokenize: str = "none", lowercase: bool = False) -> tuple[list[Tokens], Tokens]:
    """``(references, hypothesis)`` of one segment's lines, by the tokenizer named ``tokenize``.

    >>> segment_tokens(("The cat sat", "the cat sat down"), lowercase=True)
    ([['the', 'cat', 'sat', 'down']], ['the', 'cat', 'sat'])
    """
    tokenizer = TOKENIZERS[tokenize]
    hypothesis, *references = (tokenizer(line.lower() if lowercase else line) for line in lines)
    return references, hypothesis


def score_shard(shard: FileSlice | list[Segment], settings: Settings) -> ShardResult:
    """The statistics (and with ``--sentence`` the scores) of a shard.

    >>> result = score_shard([("a b c", "a b c"), ("d", "d e")], Settings("hyp", ("ref",), weights=(0.5, 0.5)))
    >>> result.stats, result.last
    (BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1)), ('d', 'd e'))
    """
    segments = read_slice(shard) if isinstance(shard, FileSlice) else shard
    pairs = [segment_tokens(lines, settings.tokenize, settings.lowercase) for lines in segments]
    met: list[str] = []

    def keep(message, category, filename, lineno, file=None, line=None):
        if str(message) not in met:
            met.append(str(message))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = keep
        # Lesson 10's batches count the whole shard at once.
        list_of_references, hypotheses = [references for references, _ in pairs], [hypothesis for _, hypothesis in pairs]
        if settings.sentence:
            counted = batch_sentence_stats(list_of_references, hypotheses, settings.max_n)
            scores = tuple((score(stats, settings, *pair), stats) for stats, pair in zip(counted, pairs))
            stats = sum(counted, BleuStats.zero(settings.max_n))
        else:
            scores, stats = (), batch_corpus_stats(list_of_references, hypotheses, settings.max_n)
    return ShardResult(len(segments), stats, segments[-1], scores, tuple(met))
