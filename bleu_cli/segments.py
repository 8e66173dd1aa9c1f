"""Tokens and statistics of text segments, the work a shard of lines is.

A segment is a tuple of lines from the aligned files: the hypothesis line,
then one line per reference. Its tokens come from lesson 01's tokenizers, its
statistics from lesson 10's fast counting. Shards of *lines* go to the worker
processes, which tokenize them there: a line pickles as one string, its
tokens as dozens.
"""

from collections.abc import Iterable, Sequence
from functools import partial

from bleu_scratch import TOKENIZERS, BleuStats, fast_stats_of_pairs
from bleu_scratch.parallel import shards, sum_shard_stats

from .settings import Settings

Tokens = list[str]
# Lines a worker gets at a time: enough to hide each task's cost in Dask and
# in pickling, few enough that the shards in flight hold little memory
# (benchmarks/cli_memory.py measures it).
SHARD_LINES = 1_000


def segment_tokens(lines: Sequence[str], tokenize: str = "none", lowercase: bool = False) -> tuple[list[Tokens], Tokens]:
    """``(references, hypothesis)`` of one segment's lines, by the tokenizer named ``tokenize``.

    >>> segment_tokens(("The cat sat", "the cat sat down"), lowercase=True)
    ([['the', 'cat', 'sat', 'down']], ['the', 'cat', 'sat'])
    """
    tokenizer = TOKENIZERS[tokenize]
    hypothesis, *references = (tokenizer(line.lower() if lowercase else line) for line in lines)
    return references, hypothesis


def stats_of_segments(
    segments: Iterable[Sequence[str]], max_n: int = 4, tokenize: str = "none", lowercase: bool = False
) -> BleuStats:
    """The summed statistics of a shard of segments, tokenized here.

    >>> stats_of_segments([("a b c", "a b c"), ("d", "d e")], max_n=2)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    return fast_stats_of_pairs((segment_tokens(lines, tokenize, lowercase) for lines in segments), max_n)


def stats_of_stream(segments: Iterable[Sequence[str]], settings: Settings) -> BleuStats:
    """The statistics of every segment, counted in shards of ``SHARD_LINES`` on ``settings.jobs`` processes.

    >>> settings = Settings("hyp", ("ref",), weights=(0.5, 0.5))
    >>> stats_of_stream([("a b c", "a b c"), ("d", "d e")], settings)
    BleuStats(hyp_len=4, ref_len=5, matches=(4, 2), totals=(4, 2), too_short=(0, 1))
    """
    count = partial(stats_of_segments, max_n=settings.max_n, tokenize=settings.tokenize, lowercase=settings.lowercase)
    return sum_shard_stats(count, shards(segments, SHARD_LINES), settings.max_n, settings.jobs)
