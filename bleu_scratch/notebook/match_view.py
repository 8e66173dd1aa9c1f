"""Lesson 03: how the match view draws its marks, as HTML for Jupyter and web pages and as text elsewhere.

``matches.py`` decides what each n-gram is (matched, clipped or unmatched);
this module only draws it. The HTML is self-contained: inline styles, no
script, nothing loaded from elsewhere, so it shows the same in JupyterLab, in
a static page and offline. Each mark has its own colours (text and background
together, so it reads on a light or a dark page) and is told apart by more than
colour: a symbol (✓ ✂ ✗), a border style (solid, dashed, dotted) and, for a
clipped n-gram, a line through it.
"""

import html
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MATCHED, CLIPPED, UNMATCHED = "matched", "clipped", "unmatched"
SYMBOLS = {MATCHED: "✓", CLIPPED: "✂", UNMATCHED: "✗"}
MEANINGS = {
    MATCHED: "counts toward p_n",
    CLIPPED: "past its clip limit",
    UNMATCHED: "in no reference",
}
# Background, text and border colour of each mark: dark text on a light fill
# reads on any page; the three fills differ in lightness as well as in hue.
COLOURS = {
    MATCHED: ("#c6efce", "#0b3d18", "#1e7b34"),
    CLIPPED: ("#ffe0b2", "#4a2600", "#b35c00"),
    UNMATCHED: ("#eceff1", "#263238", "#607d8b"),
}
BORDERS = {MATCHED: "solid", CLIPPED: "dashed", UNMATCHED: "dotted"}


@dataclass(frozen=True)
class Mark:
    """One n-gram of the hypothesis, at one position, and what clipping made of it."""

    position: int  # index of its first token in the hypothesis
    ngram: tuple
    status: str  # MATCHED, CLIPPED or UNMATCHED
    count: int  # how often the hypothesis has it
    clip_limit: int  # the most times any single reference has it
    reference: int | None  # index of the first reference that has it clip_limit times; None if none has it


@dataclass(frozen=True)
class OrderMarks:
    """The marks of one order n, in hypothesis order, and that order's modified precision."""

    n: int
    marks: tuple[Mark, ...]
    precision: Any  # a Precision: matched over the number of n-grams (at least 1)

    def tally(self, status: str) -> int:
        return sum(mark.status == status for mark in self.marks)


class MatchView:
    """The hypothesis with its n-grams marked, order by order: HTML in Jupyter, text when printed."""

    def __init__(self, references: Sequence[Sequence], hypothesis: Sequence, orders: Sequence[OrderMarks]):
        self.references = references
        self.hypothesis = hypothesis
        self.orders = list(orders)

    def __str__(self) -> str:
        lines = [
            f"Match view: a hypothesis of {_count(len(self.hypothesis), 'token')} against "
            f"{_count(len(self.references), 'reference')}",
            f"  hypothesis: {_words(self.hypothesis)}",
            *(f"  R{k}: {_words(reference)}" for k, reference in enumerate(self.references, start=1)),
            "marks: " + "  ".join(f"{SYMBOLS[s]} {s} ({MEANINGS[s]})" for s in SYMBOLS),
        ]
        for order in self.orders:
            lines += ["", _summary(order)]
            if not order.marks:
                continue
            marked = " ".join(SYMBOLS[mark.status] + _ngram_text(mark.ngram) for mark in order.marks)
            lines += textwrap.wrap(marked, 100, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)
            lines += _ngram_table(order)
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        parts = [
            '<div class="bleu-match-view" style="font-family:inherit;line-height:1.4;margin:0.5em 0">',
            f'<div style="margin-bottom:0.4em"><b>Hypothesis</b> ({_count(len(self.hypothesis), "token")}): '
            f"{_escape(_words(self.hypothesis))}</div>",
        ]
        parts += [
            f'<div style="margin-bottom:0.2em"><b>R{k}</b>: {_escape(_words(reference))}</div>'
            for k, reference in enumerate(self.references, start=1)
        ]
        parts.append(_legend())
        for order in self.orders:
            parts.append(f'<div style="margin:0.7em 0 0.2em 0;font-weight:bold">{_escape(_summary(order))}</div>')
            parts.append('<div style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start">')
            parts += [_chip(mark) for mark in order.marks]
            parts.append("</div>")
        parts.append("</div>")
        return "\n".join(parts)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _words(tokens: Sequence) -> str:
    return " ".join(map(str, tokens)) if tokens else "(no tokens)"


def _ngram_text(ngram: tuple) -> str:
    return str(ngram[0]) if len(ngram) == 1 else f"[{_words(ngram)}]"


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def _summary(order: OrderMarks) -> str:
    p = order.precision
    if not order.marks:
        return (
            f"{order.n}-grams: none, the hypothesis has fewer than {order.n} tokens; "
            f"p_{order.n} = {p.numerator}/{p.denominator} (the denominator is at least 1, as in NLTK)"
        )
    tallies = ", ".join(f"{order.tally(status)} {status}" for status in SYMBOLS)
    return f"{order.n}-grams: p_{order.n} = {p.numerator}/{p.denominator} ({tallies})"


def _reference_name(mark: Mark) -> str:
    return "-" if mark.reference is None else f"R{mark.reference + 1}"


def _ngram_table(order: OrderMarks) -> list[str]:
    """One row per distinct n-gram, in order of first appearance."""
    rows: dict[tuple, list] = {}
    for mark in order.marks:
        row = rows.setdefault(mark.ngram, [_words(mark.ngram), mark.count, mark.clip_limit, _reference_name(mark), ""])
        row[4] += SYMBOLS[mark.status]
    headers = ["n-gram", "count", "clip limit", "allowed by", "marks"]
    width = max(len(headers[0]), *(len(row[0]) for row in rows.values()))
    lines = [f"  {headers[0]:<{width}}  {headers[1]}  {headers[2]}  {headers[3]}  {headers[4]}"]
    for text, count, limit, source, marks in rows.values():
        lines.append(f"  {text:<{width}}  {count:>5}  {limit:>10}  {source:<10}  {marks}")
    return lines


def _style(status: str) -> str:
    background, text, border = COLOURS[status]
    strike = "text-decoration:line-through;" if status == CLIPPED else ""
    return (
        f"background:{background};color:{text};border:2px {BORDERS[status]} {border};"
        f"border-radius:4px;padding:2px 6px;{strike}"
    )


def _chip(mark: Mark) -> str:
    words = _words(mark.ngram)
    allowed = "no reference has it" if mark.reference is None else f"R{mark.reference + 1} has it {mark.clip_limit}x"
    title = (
        f"{words}: {mark.status} ({MEANINGS[mark.status]}); {mark.count}x in the hypothesis, "
        f"clip limit {mark.clip_limit} ({allowed})"
    )
    source = "" if mark.reference is None else f" · {_reference_name(mark)}"
    return (
        f'<span class="bleu-mark bleu-{mark.status}" title="{_escape(title)}" '
        'style="display:inline-block;text-align:center">'
        f'<span style="display:inline-block;{_style(mark.status)}">'
        f'<span aria-hidden="true">{SYMBOLS[mark.status]}</span> {_escape(words)}</span>'
        f'<span style="display:block;font-size:75%;opacity:0.85">{mark.count}x · limit {mark.clip_limit}{source}</span>'
        "</span>"
    )


def _legend() -> str:
    items = [
        f'<span style="display:inline-block;margin-right:1em"><span style="display:inline-block;{_style(status)}">'
        f"{SYMBOLS[status]} {status}</span> {MEANINGS[status]}</span>"
        for status in SYMBOLS
    ]
    return (
        '<div style="margin:0.5em 0">' + "".join(items) + "</div>"
        '<div style="font-size:85%;opacity:0.85">Under each n-gram: how often the hypothesis has it (3x), '
        "its clip limit, the most times any single reference has it (limit 2), and the first reference "
        "that has it that often (R1).</div>"
    )
