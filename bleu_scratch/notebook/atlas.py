"""The disagreement atlas (appendix A4, docs/atlas.md): minimal examples, every tool's number side by side.

``data/atlas/examples.json`` holds the examples: each a tiny corpus (``hypotheses``,
``list_of_references``), a ``topic``, and one sentence, its ``rule``, on what makes the tools
differ on it (``also`` names more tools for its row, ``digits`` asks for more decimals).
Nothing here computes BLEU: ``atlas_rows`` asks a ``score`` function for each value
(lesson 09's ``tool_bleu`` in the appendix; the numbers the real tools printed, for
docs/atlas.md), and the tables show them in BLEU points, 0 to 100, whatever the tool's scale.

``data/atlas/real-tool-scores.json`` and ``wmt17-real-tool-scores.json`` hold what the real tools
returned (``tools/record_tool_scores.py`` ran them); ``wmt17_points`` reads the second, and
``print_ranks`` and ``wmt17_markdown`` show how far the 16 WMT17 systems' ranks move from tool to tool.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import data_dir, print_table

# The ten tools every row shows, with their short headers.
COLUMNS = {
    "nltk": "nltk",
    "sacrebleu": "sacrebleu",
    "multi-bleu": "multi-bleu",
    "mteval-v13a": "mteval",
    "nmt": "nmt",
    "nmt-smooth": "nmt-smooth",
    "torchmetrics": "tm",
    "torchmetrics-smooth": "tm-smooth",
    "torchmetrics-sacrebleu": "tm-sacre",
    "d2l": "d2l",
}
# A value a tool could not give: the error it raised instead.
ERROR = "error"
# multi-bleu.perl prints 2 decimals: its cells never show more.
PRINTED_DECIMALS = {"multi-bleu": 2}


@dataclass(frozen=True)
class AtlasRow:
    """One example and each tool's value in BLEU points (or ``ERROR``), in the order of ``COLUMNS``, then ``also``."""

    number: int
    name: str
    topic: str
    rule: str
    hypotheses: list[str]
    list_of_references: list[list[str]]
    points: dict[str, float | str]
    digits: int = 2


def load_examples() -> dict[str, dict[str, Any]]:
    """The atlas's examples, by name, in the order the atlas shows them.

    >>> examples = load_examples()
    >>> examples["shortest reference"]["list_of_references"]
    [['Bye', 'I ate an apple here']]
    """
    return json.loads((data_dir() / "atlas" / "examples.json").read_text(encoding="utf-8"))


def in_points(tool: str, value: Any) -> float:
    """A tool's value in BLEU points: sacrebleu's and multi-bleu.perl's as they are, the others' times 100.

    >>> in_points("sacrebleu", 77.88), in_points("nltk", 0.5)
    (77.88, 50.0)
    """
    return float(value) if tool.startswith("sacrebleu") or tool == "multi-bleu" else 100 * float(value)


def atlas_rows(
    examples: dict[str, dict[str, Any]], score: Callable[[str, list[str], list[list[str]]], Any]
) -> list[AtlasRow]:
    """Each example with ``score(tool, hypotheses, list_of_references)`` of each tool, in points.

    A ``ZeroDivisionError`` or ``ValueError`` (nmt's division by an empty hypothesis's length, mteval's log of 0)
    is shown as ``ERROR``: the tool stopped.

    >>> rows = atlas_rows({"x": {"topic": "t", "rule": "r", "hypotheses": ["a"], "list_of_references": [["a"]]}},
    ...                   lambda tool, h, r: 1 / 0 if tool == "nmt" else 1.0)
    >>> rows[0].points["nltk"], rows[0].points["sacrebleu"], rows[0].points["nmt"]
    (100.0, 1.0, 'error')
    """
    rows = []
    for number, (name, example) in enumerate(examples.items(), start=1):
        points: dict[str, float | str] = {}
        for tool in [*COLUMNS, *example.get("also", [])]:
            try:
                points[tool] = in_points(tool, score(tool, example["hypotheses"], example["list_of_references"]))
            except (ZeroDivisionError, ValueError):
                points[tool] = ERROR
        rows.append(
            AtlasRow(
                number,
                name,
                example["topic"],
                example["rule"],
                example["hypotheses"],
                example["list_of_references"],
                points,
                example.get("digits", 2),
            )
        )
    return rows


def _cell(value: float | str, digits: int, tool: str = "") -> str:
    return value if isinstance(value, str) else f"{value:.{min(digits, PRINTED_DECIMALS.get(tool, digits))}f}"


def _also(row: AtlasRow) -> str:
    return ", ".join(f"{tool} {_cell(value, row.digits)}" for tool, value in row.points.items() if tool not in COLUMNS)


def print_atlas(rows: Sequence[AtlasRow], topics: Sequence[str]) -> None:
    """Print the rows of these topics: a table of the ten tools, then each example's lines and its rule.

    >>> row = AtlasRow(1, "x", "t", "why", ["a b"], [["a b"]], {tool: 100.0 for tool in COLUMNS})
    >>> print_atlas([row], ["t"])  # doctest: +NORMALIZE_WHITESPACE
    #  example  nltk    sacrebleu  multi-bleu  mteval  nmt     nmt-smooth  tm      tm-smooth  tm-sacre  d2l
    -  -------  ------  ---------  ----------  ------  ------  ----------  ------  ---------  --------  ------
    1  x        100.00  100.00     100.00      100.00  100.00  100.00      100.00  100.00     100.00    100.00
    <BLANKLINE>
    1. x: hypotheses ['a b']; references [['a b']]
       why: why
    """
    chosen = [row for row in rows if row.topic in topics]
    print_table(
        ["#", "example", *COLUMNS.values()],
        [[row.number, row.name, *(_cell(row.points[tool], row.digits, tool) for tool in COLUMNS)] for row in chosen],
    )
    for row in chosen:
        print(f"\n{row.number}. {row.name}: hypotheses {row.hypotheses!r}; references {row.list_of_references!r}")
        if _also(row):
            print(f"   also: {_also(row)}")
        print(f"   why: {row.rule}")


def atlas_markdown(rows: Sequence[AtlasRow]) -> str:
    """The rows as one Markdown table: the example, the ten tools' values, the other tools shown, the rule.

    >>> row = AtlasRow(1, "x", "t", "why", ["a|b"], [["a b"]], {tool: 50.0 for tool in COLUMNS})
    >>> print(atlas_markdown([row]).splitlines()[2].replace(" 50.00 |", ""))
    | 1 | x: `'a\\|b'` ‖ `'a b'` |  | why |
    """
    lines = [
        "| # | example: hypotheses ‖ references | " + " | ".join(COLUMNS.values()) + " | also | why |",
        "|---|---|" + "---:|" * len(COLUMNS) + "---|---|",
    ]
    for row in rows:
        # Python's repr shows the invisible characters (a tab, a no-break space, a byte order mark) as escapes.
        corpus = " / ".join(f"`{line!r}`" for line in row.hypotheses)
        references = " / ".join(" + ".join(f"`{line!r}`" for line in refs) for refs in row.list_of_references)
        cells = [str(row.number), f"{row.name}: {corpus} ‖ {references}"]
        cells += [_cell(row.points[tool], row.digits, tool) for tool in COLUMNS]
        cells += [_also(row), row.rule]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def recorded(name: str) -> dict[str, Any]:
    """What the real tools returned, as ``tools/record_tool_scores.py`` wrote it: ``real-tool-scores`` (the
    examples) or ``wmt17-real-tool-scores`` (the WMT17 systems), with the tools' versions.

    >>> recorded("real-tool-scores")["versions"]["torchmetrics"]
    '1.9.0'
    """
    return json.loads((data_dir() / "atlas" / f"{name}.json").read_text(encoding="utf-8"))


def lines_of(path: str) -> list[str]:
    """A file of the repository (``data/...``) as the tools' Python callers read it: UTF-8, split at "\\n" only,
    a byte order mark kept.

    >>> lines_of("data/wmt17-en-de-systems/systems/newstest2017.online-A.0.en-de")[0][:5]
    '\\ufeff28 J'
    """
    return (data_dir().parent / path).read_text(encoding="utf-8").removesuffix("\n").split("\n")


def wmt17_points() -> dict[str, dict[str, float]]:
    """Each WMT17 system's BLEU points by tool, as the real tools returned them (``wmt17-real-tool-scores``).

    >>> round(wmt17_points()["online-A.0"]["sacrebleu"], 4)  # sacrebleu REF -i online-A prints 20.7965
    20.7965
    """
    return {
        system: {tool: in_points(tool, entry["scores"][tool]) for tool in COLUMNS}
        for system, entry in recorded("wmt17-real-tool-scores")["corpora"].items()
    }


def ranks(points: dict[str, dict[str, float]], tool: str) -> dict[str, int]:
    """Each system's rank by one tool's BLEU, 1 the highest.

    >>> ranks({"a": {"nltk": 20.0}, "b": {"nltk": 30.0}}, "nltk")
    {'a': 2, 'b': 1}
    """
    order = sorted(points, key=lambda system: -points[system][tool])
    return {system: order.index(system) + 1 for system in points}


def _ranked_rows(points: dict[str, dict[str, float]]) -> list[list[str]]:
    """One row per system, by sacrebleu's rank: the name, each tool's points and rank, the range of its ranks."""
    by_tool = {tool: ranks(points, tool) for tool in COLUMNS}
    rows = []
    for system in sorted(points, key=lambda s: by_tool["sacrebleu"][s]):
        spread = sorted({by_tool[tool][system] for tool in COLUMNS})
        cells = [f"{points[system][tool]:.2f} ({by_tool[tool][system]})" for tool in COLUMNS]
        rows.append([system, *cells, f"{spread[0]}-{spread[-1]}"])
    return rows


def print_ranks(points: dict[str, dict[str, float]]) -> None:
    """Print each system's BLEU points by tool, its rank by that tool in brackets, and the range of its ranks."""
    print_table(["system", *COLUMNS.values(), "ranks"], _ranked_rows(points))


def wmt17_markdown(points: dict[str, dict[str, float]]) -> str:
    """``print_ranks``'s table in Markdown.

    >>> print(wmt17_markdown({"a": dict.fromkeys(COLUMNS, 20.0)}).splitlines()[2].replace(" 20.00 (1) |", ""))
    | a | 1-1 |
    """
    lines = ["| system | " + " | ".join(COLUMNS.values()) + " | ranks |", "|---|" + "---:|" * len(COLUMNS) + "---|"]
    lines += ["| " + " | ".join(row) + " |" for row in _ranked_rows(points)]
    return "\n".join(lines) + "\n"
