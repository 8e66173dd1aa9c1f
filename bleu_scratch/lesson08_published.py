"""Lesson 08: every published example, recomputed under the procedure that produced it.

``data/published_examples.json`` holds the worked examples and figures of the
BLEU paper and five blog posts, each with the sentences, how they were
tokenized, the figure as published and what printed it. For each entry this
module computes two things from the same tokens:

- ``recompute``: the figure under the *published* procedure (an old NLTK's
  rule, a post's own variant from ``variants.py``, or the standard lesson
  function where the post used the standard rule);
- ``standard``: today's standard answer from a BLEU library given as a
  module, ``BLEU_SCRATCH`` or ``nltk.translate.bleu_score`` (the tests and
  the notebook pass NLTK in; the package never imports it).

Values are kept comparable with ``==``: a float for a score or a penalty,
``[numerator, denominator]`` for a precision, ``{"n-gram": count}`` for counts.
"""

import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

from .lesson01_ngrams import count_ngrams, ngrams
from .lesson01_tokenize import TOKENIZERS
from .lesson02_clipping import clipped_counts, max_reference_counts
from .lesson03_precision import Precision, modified_precision
from .lesson04_brevity import brevity_penalty, closest_ref_length
from .lesson05_sentence import sentence_bleu
from .lesson08_variants import shortest_ref_length, variant_sentence_bleu

Tokens = list[str]

# The standard functions, under the names NLTK's bleu_score module gives them.
BLEU_SCRATCH = SimpleNamespace(
    ngrams=ngrams,
    modified_precision=modified_precision,
    closest_ref_length=closest_ref_length,
    brevity_penalty=brevity_penalty,
    sentence_bleu=sentence_bleu,
)


def load_examples(path: str | Path) -> list[dict]:
    """The entries of ``published_examples.json``, in file order."""
    return json.loads(Path(path).read_text(encoding="utf-8"))["examples"]


def tokenized(entry: dict) -> tuple[list[Tokens], Tokens]:
    """The entry's references and hypothesis as token lists, by the tokenizer it names.

    >>> tokenized({"tokenizer": "paper", "references": ["The cat."], "hypothesis": "the cat"})
    ([['the', 'cat']], ['the', 'cat'])
    >>> tokenized({"tokenizer": None, "references": [["A", "test"]], "hypothesis": ["A"]})
    ([['A', 'test']], ['A'])
    """
    # None: the source printed its tokens, and the entry holds them as lists.
    tokenize = list if entry["tokenizer"] is None else TOKENIZERS[entry["tokenizer"]]
    return [tokenize(r) for r in entry["references"]], tokenize(entry["hypothesis"])


def published_figure(entry: dict) -> Any:
    """The published figure as a comparable value, or None where no number was published.

    A figure written as a formula keeps the number after its ``=``:

    >>> published_figure({"quantity": "x", "reported": "exp(-0.5) = 0.6065306597126334"})
    0.6065306597126334
    >>> published_figure({"quantity": "x", "reported": "equal to NLTK (no number printed)"}) is None
    True
    """
    reported = entry["reported"]
    if entry["quantity"] == "note":
        return None
    if isinstance(reported, str):
        number = re.search(r"=\s*([-+0-9.eE]+)\s*$", reported)
        return float(number.group(1)) if number else None
    return reported


def _by_text(counts: Counter) -> dict[str, int]:
    return {" ".join(ngram): count for ngram, count in counts.items()}


def _fraction(p: Precision) -> list[int]:
    return [p.numerator, p.denominator]


def _sentence_bleu_of(bleu: Any, refs: list[Tokens], hyp: Tokens, entry: dict) -> float:
    # Zero-count warnings are expected here: the tiny scores they announce are the point.
    with warnings.catch_warnings(action="ignore"):
        return bleu.sentence_bleu(refs, hyp, tuple(entry["weights"]))


class Procedure(NamedTuple):
    """How one kind of figure was published, and how to compute it then and now."""

    label: str
    published: str
    recompute: Callable[[list[Tokens], Tokens, dict], Any]
    standard: Callable[[Any, list[Tokens], Tokens, dict], Any] | None
    why_standard_differs: str


PROCEDURES: dict[str, Procedure] = {
    "count_ngrams": Procedure(
        "n-gram counts",
        "the post's counting code: standard n-gram counts",
        lambda refs, hyp, e: _by_text(count_ngrams(hyp, e["n"])),
        lambda bleu, refs, hyp, e: _by_text(Counter(bleu.ngrams(hyp, e["n"]))),
        "",
    ),
    "clipped_counts": Procedure(
        "clipped counts",
        "the post's clipping code: standard clipping",
        lambda refs, hyp, e: _by_text(clipped_counts(count_ngrams(hyp, e["n"]), max_reference_counts(refs, e["n"]))),
        None,
        "",
    ),
    "modified_precision": Procedure(
        "modified precision",
        "standard modified n-gram precision on the entry's tokens",
        lambda refs, hyp, e: _fraction(modified_precision(refs, hyp, e["n"])),
        lambda bleu, refs, hyp, e: _fraction(bleu.modified_precision(refs, hyp, e["n"])),
        "",
    ),
    "sentence_bleu": Procedure(
        "sentence BLEU",
        "NLTK 3.2.2-3.2.5's default: zero precisions left out, weights kept",
        lambda refs, hyp, e: variant_sentence_bleu(refs, hyp, tuple(e["weights"])),
        _sentence_bleu_of,
        "since NLTK 3.3 a zero precision counts as 2.2e-308, about 1e-77 per zero order, instead of being left out",
    ),
    "brevity_penalty_variant_shortest_reference": Procedure(
        "BP, shortest ref",
        "brevity penalty against the shortest reference",
        lambda refs, hyp, e: brevity_penalty(shortest_ref_length(refs, len(hyp)), len(hyp)),
        lambda bleu, refs, hyp, e: bleu.brevity_penalty(bleu.closest_ref_length(refs, len(hyp)), len(hyp)),
        "the standard penalty uses the closest reference, not the shortest",
    ),
    "sentence_bleu_variant": Procedure(
        "sentence BLEU, variant",
        "shortest-reference BP; mean over non-zero precisions, weights renormalised",
        lambda refs, hyp, e: variant_sentence_bleu(
            refs, hyp, tuple(e["weights"]), ref_length=shortest_ref_length, renormalise=True
        ),
        _sentence_bleu_of,
        "the standard score uses the closest reference and keeps zero precisions",
    ),
}


def recompute(entry: dict) -> Any:
    """The entry's figure recomputed under its published procedure (None for a note)."""
    if entry["quantity"] == "note":
        return None
    references, hypothesis = tokenized(entry)
    return PROCEDURES[entry["quantity"]].recompute(references, hypothesis, entry)


def standard(entry: dict, bleu: Any = BLEU_SCRATCH) -> Any:
    """Today's standard answer for the entry's input from the library ``bleu``.

    None for a note, and for clipped counts (NLTK has no per-n-gram clipping function).
    """
    procedure = PROCEDURES.get(entry["quantity"])
    if procedure is None or procedure.standard is None:
        return None
    references, hypothesis = tokenized(entry)
    return procedure.standard(bleu, references, hypothesis, entry)


def status(entry: dict, ours: Any, oracle: Any) -> str:
    """Whether the published figure is reproduced, and why today's standard answer differs."""
    figure = published_figure(entry)
    if entry["quantity"] == "note":
        return "note (no figure): checked in its own cell"
    if figure is None:
        verdict = "no figure published"
    elif ours == figure:
        verdict = "reproduced exactly"
    else:
        verdict = f"differs: {ours!r} != {figure!r}"
    published = ours if figure is None else figure
    if oracle is not None and oracle != published:
        verdict += f"; NLTK 3.10.4 differs because {PROCEDURES[entry['quantity']].why_standard_differs}"
    return verdict


class Row(NamedTuple):
    number: int
    source: str
    label: str
    figure: Any
    ours: Any
    oracle: Any
    status: str


def table(examples: Sequence[dict], oracle: Any = BLEU_SCRATCH) -> list[Row]:
    """One row per entry: the published figure, our recomputation, the oracle's answer, the status."""
    rows = []
    for number, entry in enumerate(examples, start=1):
        ours, theirs = recompute(entry), standard(entry, oracle)
        label = PROCEDURES[entry["quantity"]].label if entry["quantity"] in PROCEDURES else "note"
        rows.append(
            Row(number, entry["source"], label, published_figure(entry), ours, theirs, status(entry, ours, theirs))
        )
    return rows
