"""Lesson 09: why tools disagree. Every tool's BLEU from one set of counts.

Ten tools print ten BLEU numbers for the same files. Each number is the
same sufficient statistics (lesson 05's ``BleuStats``: clipped matches,
n-gram counts, lengths), read by a few rules of that tool's own:

- its **tokens**: whitespace (NLTK, nmt, torchmetrics), Perl's ``split``
  (multi-bleu.perl), 13a (sacrebleu), 13a on lowercased text (mteval-v13a),
  single spaces (d2l);
- its **reference length**: the closest, ties to the shorter (lesson 04); the
  closest, ties to the first listed (torchmetrics); the shortest (nmt);
- its **zero orders**: NLTK's tiny float, sacrebleu's 0, mteval's halving;
  Lin and Och's +1 (nmt, torchmetrics, with different quirks);
- its **arithmetic**: where the logarithms are added, in float64 or float32;
- **corpus or sentences**: d2l scores one sentence; its corpus number here is
  the mean of its sentence scores.

``tool_bleu(tool, hypotheses, list_of_references)`` gives the number the tool
named in ``TOOLS`` returns, on its own scale and of its own type;
``tool_signature(tool)`` names what was computed. Each ``*_from_stats``
function below is one tool's rule on the statistics.

>>> hypotheses = ["I ate an apple"]
>>> list_of_references = [["Bye", "I ate an apple here"]]
>>> tool_bleu("nmt", hypotheses, list_of_references)  # the shortest reference, "Bye", sets the penalty
1.0
>>> round(tool_bleu("sacrebleu", hypotheses, list_of_references), 2)  # the closest: 5 tokens
77.88
"""

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from . import checks
from .checks import door
from .lesson01_tokenize import tokenize_13a, tokenize_whitespace
from .lesson04_brevity import closest_ref_length
from .lesson05_sentence import BleuStats, bleu_from_stats, sentence_stats
from .lesson08_variants import first_closest_ref_length, shortest_ref_length
from .lesson09_sacrebleu import sacrebleu_from_stats
from .lesson09_tokenizers import SACREBLEU_TOKENIZERS

Tokenizer = Callable[[str], list[str]]
RefLength = Callable[[Sequence[Sequence[str]], int], int]

# Perl's split on a line read as bytes: ASCII whitespace only (Python's str.split also splits at U+0085, U+00A0...).
PERL_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")
# mteval-v13a.pl's tr/[A-Z]/[a-z]/: ASCII letters only.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def tokenize_perl_split(line: str) -> list[str]:
    """The words Perl's ``split`` finds in a line of bytes, as multi-bleu.perl reads them.

    >>> tokenize_perl_split(" a\\u00a0b  c ")
    ['a\\xa0b', 'c']
    """
    return [word for word in PERL_WHITESPACE.split(line) if word]


def tokenize_mteval(line: str) -> list[str]:
    """mteval-v13a.pl's tokens: 13a's, with A-Z lowercased (it lowercases unless run with ``-c``).

    mteval lowercases after undoing the SGML escapes and before its rules, which do not look
    at case, so lowercasing 13a's tokens is the same; only ASCII letters are lowercased.

    >>> tokenize_mteval("The Élan of BLEU.")
    ['the', 'Élan', 'of', 'bleu', '.']
    """
    return [token.translate(ASCII_LOWER) for token in tokenize_13a(line)]


def tokenize_single_spaces(line: str) -> list[str]:
    """d2l's tokens: ``line.split(' ')``, so two spaces make an empty token and '' is one empty token.

    >>> tokenize_single_spaces("a  b")
    ['a', '', 'b']
    """
    return line.split(" ")


def tool_stats(
    hypotheses: Sequence[str],
    list_of_references: Sequence[Sequence[str]],
    tokenize: Tokenizer,
    ref_length: RefLength = closest_ref_length,
    max_n: int = 4,
) -> BleuStats:
    """The corpus's statistics with a tool's tokens and reference length rule.

    >>> tool_stats(["a b c"], [["a b", "a b c d"]], str.split, shortest_ref_length, max_n=2)
    BleuStats(hyp_len=3, ref_len=2, matches=(3, 2), totals=(3, 2), too_short=(0, 0))
    """
    total = BleuStats.zero(max_n)
    for hypothesis, references in zip(hypotheses, list_of_references):
        hyp_tokens = tokenize(hypothesis)
        ref_tokens = [tokenize(reference) for reference in references]
        stats = sentence_stats(ref_tokens, hyp_tokens, max_n)
        total += dataclasses.replace(stats, ref_len=ref_length(ref_tokens, stats.hyp_len))
    return total


def multi_bleu_from_stats(stats: BleuStats) -> float:
    """multi-bleu.perl's BLEU (0-100): an order with no match adds log = -9999999999, so BLEU is 0.

    It adds the four logs with ``+`` and divides by 4; it prints the result with 2 decimals.

    >>> multi_bleu_from_stats(BleuStats(4, 4, (4, 3, 2, 1), (4, 3, 2, 1), (0, 0, 0, 0)))
    100.0
    """
    precisions = [m / t if t else 0 for m, t in zip(stats.matches, stats.totals)]
    bp = 1.0 if stats.hyp_len >= stats.ref_len else math.exp(1 - stats.ref_len / stats.hyp_len)
    logs = [math.log(p) if p else -9999999999 for p in precisions]
    return 100 * (bp * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4))


def mteval_from_stats(stats: BleuStats) -> float:
    """mteval-v13a.pl's BLEU (0-1): the k-th order with no match counts 1/(2^k * total); an order with no n-gram
    at all counts 1 (log 0), and the penalty is exp(min(0, 1 - r/c)).

    Two unigrams of 4 right, then no match: the precisions are 2/4, 1/(2*3), 1/(4*2), 1/(8*1):

    >>> stats = BleuStats(4, 4, (2, 0, 0, 0), (4, 3, 2, 1), (0, 0, 0, 0))
    >>> round(mteval_from_stats(stats), 6), round((2 / 4 * 1 / 6 * 1 / 8 * 1 / 8) ** (1 / 4), 6)
    (0.189959, 0.189959)
    """
    bp = math.exp(min(0, 1 - stats.ref_len / stats.hyp_len)) if stats.hyp_len > 0 else 0
    math.log(bp)  # mteval prints the log of the penalty: with no hypothesis token, Perl stops at "log of 0"
    stats.hyp_len / stats.ref_len  # and the ratio c/r: with no reference token, at "Illegal division by zero"
    score, smooth, cumulative = 0.0, 1, 0.0
    for n, (matches, total) in enumerate(zip(stats.matches, stats.totals), start=1):
        if total == 0:
            order_log = 0.0
        elif matches == 0:
            smooth *= 2
            order_log = math.log(1 / (smooth * total))
        else:
            order_log = math.log(matches / total)
        score += order_log
        cumulative = math.exp(score / n) * bp
    return cumulative


def nmt_from_stats(stats: BleuStats, smooth: bool = False) -> float:
    """tensorflow/nmt's ``compute_bleu`` (0-1), which Hugging Face evaluate's "bleu" runs (on its 13a tokens).

    ``stats.ref_len`` must be the shortest reference's (``shortest_ref_length``). With
    ``smooth``, every order, unigrams too, is (matches + 1) / (total + 1) (Lin and Och 2004).
    The penalty is computed from the ratio c/r as exp(1 - 1/ratio).

    A perfect hypothesis of 3 tokens, shortest reference 4: no 4-gram, so 0 unsmoothed;
    smoothed, every precision is (m + 1)/(m + 1) = 1 and only the penalty exp(1 - 4/3) is left:

    >>> stats = BleuStats(3, 4, (3, 2, 1, 0), (3, 2, 1, 0), (0, 0, 0, 1))
    >>> nmt_from_stats(stats), round(nmt_from_stats(stats, smooth=True), 6), round(math.exp(1 - 4 / 3), 6)
    (0.0, 0.716531, 0.716531)
    """
    if smooth:
        precisions = [(m + 1.0) / (t + 1.0) for m, t in zip(stats.matches, stats.totals)]
    else:
        precisions = [m / t if t > 0 else 0.0 for m, t in zip(stats.matches, stats.totals)]
    geo_mean = math.exp(sum((1.0 / stats.max_n) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0
    ratio = stats.hyp_len / stats.ref_len
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo_mean * bp


@functools.cache
def _float32_log_exp() -> tuple[Callable[[list[Any]], Any], Callable[[Any], Any]]:
    """The float32 ``log`` (of the precisions, all orders in one vector) and ``exp`` (of one number) torchmetrics takes.

    Where torch is installed, as it is wherever torchmetrics runs, they are torch's own, on float32
    tensors of the shapes torchmetrics passes: torch's are not correctly rounded on a CPU, and only
    they give torchmetrics' float32 to the last bit. Without torch, the float32 of the correctly
    rounded ``math.log`` and ``math.exp``.

    >>> log, exp = _float32_log_exp()
    >>> [float(x) for x in log([1.0, 1.0])], float(exp(0.0))
    ([0.0, 0.0], 1.0)
    """
    import numpy as np  # lessons 01-09 need only the standard library until a float32 is asked for

    try:
        import torch
    except ImportError:
        return (lambda xs: [np.float32(math.log(x)) for x in xs]), (lambda x: np.float32(math.exp(x)))
    return (
        lambda xs: torch.log(torch.tensor(xs, dtype=torch.float32)).numpy(),
        lambda x: torch.exp(torch.tensor(x, dtype=torch.float32)).numpy()[()],
    )


def torchmetrics_from_stats(stats: BleuStats, smooth: bool = False) -> Any:
    """torchmetrics' ``BLEUScore`` (0-1) as a ``numpy.float32``: its arithmetic is in float32.

    ``stats.ref_len`` must come from ``first_closest_ref_length``. If any order has no match
    the score is 0 before smoothing is looked at; ``smooth`` adds 1 to matches and totals of
    the orders above 1. Every step is rounded to float32 as torch rounds it; ``log`` and ``exp``
    are ``_float32_log_exp()``'s, so where torch is installed the score is torchmetrics' to the
    last bit. Without torch they are correctly rounded and torch's are not: in about 2% of the
    scores recorded from torchmetrics (tests/fixtures/tool_scores.json) the float32 differs by
    1 or 2 units in the last place, and by a few more on other counts, the lower the score.

    >>> torchmetrics_from_stats(BleuStats(4, 4, (4, 3, 2, 1), (4, 3, 2, 1), (0, 0, 0, 0)))
    np.float32(1.0)
    """
    import numpy as np

    f32 = np.float32
    if min(stats.matches) == 0:
        return f32(0.0)
    log, exp = _float32_log_exp()
    precisions = [f32(m) / f32(t) for m, t in zip(stats.matches, stats.totals)]
    if smooth:
        precisions[1:] = [f32(m + 1) / f32(t + 1) for m, t in zip(stats.matches[1:], stats.totals[1:])]
    weighted = [f32(1 / stats.max_n) * log_p for log_p in log(precisions)]
    log_sum = f32(0.0)
    for term in weighted:
        log_sum = f32(log_sum + term)
    geo_mean = exp(log_sum)
    if stats.hyp_len > stats.ref_len:
        bp = f32(1.0)
    else:
        bp = exp(f32(1) - f32(stats.ref_len) / f32(stats.hyp_len))
    return f32(bp * geo_mean)


def d2l_bleu(pred_seq: str, label_seq: str, k: int = 4) -> float:
    """d2l's ``bleu``: one hypothesis, one reference, split on single spaces.

    Its penalty is exp(min(0, 1 - len_label / len_pred)); the precision of order n is raised to
    0.5**n (not 1/k), and orders above the hypothesis length are left out.

    >>> d2l_bleu("a b c d", "a b c d")
    1.0
    """
    hyp, ref = tokenize_single_spaces(pred_seq), tokenize_single_spaces(label_seq)
    stats = sentence_stats([ref], hyp, min(k, len(hyp)))
    score = math.exp(min(0, 1 - len(ref) / len(hyp)))
    for n, (matches, total) in enumerate(zip(stats.matches, stats.totals), start=1):
        score *= math.pow(matches / total, math.pow(0.5, n))
    return score


def _corpus(tokenize: Tokenizer, ref_length: RefLength, from_stats: Callable[[BleuStats], Any]) -> Callable:
    """A tool that scores the corpus's summed statistics."""

    def score(hypotheses: Sequence[str], list_of_references: Sequence[Sequence[str]]) -> Any:
        return from_stats(tool_stats(hypotheses, list_of_references, tokenize, ref_length))

    return score


def _d2l_mean(hypotheses: Sequence[str], list_of_references: Sequence[Sequence[str]]) -> float:
    """d2l's corpus number here: the mean of its sentence scores, each against the first reference."""
    scores = [d2l_bleu(hypothesis, references[0]) for hypothesis, references in zip(hypotheses, list_of_references)]
    return sum(scores) / len(scores)


def _rstripped(tokenize: Tokenizer) -> Tokenizer:
    """sacrebleu drops a line's trailing whitespace before it tokenizes."""
    return lambda line: tokenize(line.rstrip())


SMOOTHED = functools.partial(nmt_from_stats, smooth=True), functools.partial(torchmetrics_from_stats, smooth=True)

# Each tool: its tokens, its reference length, its score from the summed statistics, and its signature.
CORPUS_TOOLS: Sequence[tuple[str, Tokenizer, RefLength, Callable[..., Any], str]] = [
    ("nltk", tokenize_whitespace, closest_ref_length, bleu_from_stats,
     "nltk 3.10.4 corpus_bleu|tok:whitespace|ref:closest,ties-shorter|smooth:method0|scale:0-1"),
    ("sacrebleu", _rstripped(tokenize_13a), closest_ref_length, sacrebleu_from_stats,
     "sacrebleu 2.6.0 BLEU|case:mixed|eff:no|tok:13a|smooth:exp|ref:closest,ties-shorter|scale:0-100"),
    ("multi-bleu", tokenize_perl_split, closest_ref_length, multi_bleu_from_stats,
     "multi-bleu.perl|tok:perl-split|ref:closest,ties-shorter|smooth:none|scale:0-100 (printed %.2f)"),
    ("mteval-v13a", tokenize_mteval, closest_ref_length, mteval_from_stats,
     "mteval-v13a.pl|tok:13a|case:lower|ref:closest,ties-shorter|smooth:halving|scale:0-1 (printed %.4f)"),
    ("nmt", tokenize_whitespace, shortest_ref_length, nmt_from_stats,
     "tensorflow/nmt compute_bleu|tok:whitespace|ref:shortest|smooth:no|scale:0-1"),
    ("nmt-smooth", tokenize_whitespace, shortest_ref_length, SMOOTHED[0],
     "tensorflow/nmt compute_bleu|tok:whitespace|ref:shortest|smooth:lin-och,+1-every-order|scale:0-1"),
    ("torchmetrics", tokenize_whitespace, first_closest_ref_length, torchmetrics_from_stats,
     "torchmetrics 1.9.0 BLEUScore|tok:whitespace|ref:closest,ties-first|smooth:no|float32|scale:0-1"),
    ("torchmetrics-smooth", tokenize_whitespace, first_closest_ref_length, SMOOTHED[1],
     "torchmetrics 1.9.0 BLEUScore|tok:whitespace|ref:closest,ties-first|smooth:+1-above-unigrams|float32|scale:0-1"),
    ("torchmetrics-sacrebleu", tokenize_13a, first_closest_ref_length, torchmetrics_from_stats,
     "torchmetrics 1.9.0 SacreBLEUScore|tok:13a|ref:closest,ties-first|smooth:no|float32|scale:0-1"),
]  # fmt: skip
# sacrebleu's other tokenizers ("sacrebleu-tok-NAME") and smoothing methods ("sacrebleu-smooth-NAME"), and
# torchmetrics' SacreBLEUScore with those tokenizers, which it applies to the line as given (no rstrip).
SACREBLEU_VARIANTS: Sequence[tuple[str, Tokenizer, RefLength, Callable[..., Any], str]] = [
    (f"sacrebleu-tok-{name}", _rstripped(tokenize), closest_ref_length, sacrebleu_from_stats,
     f"sacrebleu 2.6.0 BLEU|case:mixed|eff:no|tok:{name}|smooth:exp|ref:closest,ties-shorter|scale:0-100")
    for name, tokenize in SACREBLEU_TOKENIZERS.items() if name != "13a"
] + [
    (f"sacrebleu-smooth-{method}", _rstripped(tokenize_13a), closest_ref_length,
     functools.partial(sacrebleu_from_stats, smooth_method=method),
     f"sacrebleu 2.6.0 BLEU|case:mixed|eff:no|tok:13a|smooth:{method}|ref:closest,ties-shorter|scale:0-100")
    for method in ("none", "floor", "add-k")
] + [
    (f"torchmetrics-sacrebleu-tok-{name}", tokenize, first_closest_ref_length, torchmetrics_from_stats,
     f"torchmetrics 1.9.0 SacreBLEUScore|tok:{name}|ref:closest,ties-first|smooth:no|float32|scale:0-1")
    for name, tokenize in SACREBLEU_TOKENIZERS.items() if name != "13a"
]  # fmt: skip

_TOOLS: dict[str, tuple[Callable, str]] = {
    name: (_corpus(tokenize, ref_length, from_stats), signature)
    for name, tokenize, ref_length, from_stats, signature in CORPUS_TOOLS
}
_TOOLS["d2l"] = (_d2l_mean, "d2l 1.0.3 bleu(k=4)|tok:single-spaces|ref:first|mean of sentence scores|scale:0-1")
for name, tokenize, ref_length, from_stats, signature in SACREBLEU_VARIANTS:
    _TOOLS[name] = (_corpus(tokenize, ref_length, from_stats), signature)
TOOLS: tuple[str, ...] = tuple(_TOOLS)


@door(checks.text_corpus)
def tool_bleu(tool: str, hypotheses: Sequence[str], list_of_references: Sequence[Sequence[str]]) -> Any:
    """The BLEU that ``tool`` (one of ``TOOLS``) returns for these lines, on its scale and of its type.

    ``list_of_references[i]`` holds the reference lines of segment ``i``. NLTK, nmt and
    mteval-v13a answer on 0-1, sacrebleu and multi-bleu.perl on 0-100; torchmetrics returns
    a float32 (here a ``numpy.float32``). d2l scores one sentence against one reference:
    its number here is the mean of its sentence scores, each against the segment's first reference.

    >>> tool_bleu("torchmetrics", ["the cat sat on the mat"], [["the cat sat on the mat"]])
    np.float32(1.0)
    """
    if tool not in _TOOLS:
        raise ValueError(f"no tool {tool!r}: one of {', '.join(TOOLS)}")
    return _TOOLS[tool][0](hypotheses, list_of_references)


def tool_signature(tool: str) -> str:
    """One line naming what ``tool`` computes: the tool, its tokens, reference length, smoothing and scale.

    >>> tool_signature("nmt")
    'tensorflow/nmt compute_bleu|tok:whitespace|ref:shortest|smooth:no|scale:0-1'
    """
    if tool not in _TOOLS:
        raise ValueError(f"no tool {tool!r}: one of {', '.join(TOOLS)}")
    return _TOOLS[tool][1]
