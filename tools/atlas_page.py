"""Write the tables of docs/atlas.md from the real tools' numbers: ``python tools/atlas_page.py``.

The numbers are the real tools': NLTK 3.10.4 and sacrebleu 2.6.0 run here; torchmetrics, tensorflow/nmt's
``compute_bleu``, d2l, multi-bleu.perl and mteval-v13a.pl as ``tools/record_tool_scores.py`` recorded them
(``data/atlas/*real-tool-scores.json``). The page's text around the tables is written by hand:
this script replaces what lies between the ``<!-- atlas:NAME -->`` and ``<!-- /atlas:NAME -->`` markers.
``tests/lessons/test_atlas.py`` fails when the page and the numbers part.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bleu_scratch.notebook.atlas import (  # noqa: E402 (after the path)
    atlas_markdown,
    atlas_rows,
    load_examples,
    recorded,
    wmt17_markdown,
    wmt17_points,
)

PAGE = ROOT / "docs" / "atlas.md"
EXAMPLES = load_examples()
RECORDED = recorded("real-tool-scores")
WMT17 = recorded("wmt17-real-tool-scores")
# Recorded from the real tools (they need torch, or are no package, or are Perl); NLTK and sacrebleu run live.
RECORDED_TOOLS = (
    "multi-bleu",
    "mteval-v13a",
    "nmt",
    "nmt-smooth",
    "torchmetrics",
    "torchmetrics-smooth",
    "torchmetrics-sacrebleu",
    "d2l",
)
ERRORS = {"ZeroDivisionError": ZeroDivisionError, "ValueError": ValueError}
_BY_CORPUS = {json.dumps([e["hypotheses"], e["list_of_references"]]): name for name, e in EXAMPLES.items()}


def quiet(function: Callable, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def live(tool: str, hypotheses: list[str], list_of_references: list[list[str]]) -> Any:
    """NLTK's number (``nltk``, on ``str.split()`` tokens) or sacrebleu's (``sacrebleu[-tok-X|-smooth-Y]``), live."""
    if tool == "nltk":
        from nltk.translate.bleu_score import corpus_bleu

        references = [[reference.split() for reference in refs] for refs in list_of_references]
        return quiet(corpus_bleu, references, [hypothesis.split() for hypothesis in hypotheses])
    import sacrebleu

    options = {}
    if tool.startswith("sacrebleu-tok-"):
        options["tokenize"] = tool.removeprefix("sacrebleu-tok-")
    elif tool.startswith("sacrebleu-smooth-"):
        options["smooth_method"] = tool.removeprefix("sacrebleu-smooth-")
    most = max(len(refs) for refs in list_of_references)
    streams = [[refs[j] if j < len(refs) else None for refs in list_of_references] for j in range(most)]
    return sacrebleu.corpus_bleu(hypotheses, streams, **options).score


def real_score(tool: str, hypotheses: list[str], list_of_references: list[list[str]]) -> Any:
    """An atlas example's number from the real tool: live, or recorded (a recorded error raised again)."""
    if tool not in RECORDED_TOOLS:
        return live(tool, hypotheses, list_of_references)
    value = RECORDED["corpora"][_BY_CORPUS[json.dumps([hypotheses, list_of_references])]]["scores"][tool]
    if isinstance(value, dict):
        raise ERRORS[value["error"]](f"{tool} stopped with {value['error']}")
    return value


def tables() -> dict[str, Callable[[], str]]:
    """The page's generated parts, by marker name, each made when called (the WMT17 table takes a while)."""
    return {
        "examples": lambda: atlas_markdown(atlas_rows(EXAMPLES, real_score)),
        "wmt17": lambda: wmt17_markdown(wmt17_points()),
    }


def write_page(page: Path = PAGE) -> None:
    text = page.read_text(encoding="utf-8")
    for name, make in tables().items():
        table = make()
        marked = re.compile(rf"(<!-- atlas:{name} -->\n).*?(<!-- /atlas:{name} -->)", re.S)
        if not marked.search(text):
            raise SystemExit(f"{page} has no <!-- atlas:{name} --> ... <!-- /atlas:{name} --> markers")
        text = marked.sub(lambda match, table=table: match.group(1) + table + match.group(2), text)
    page.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_page()
