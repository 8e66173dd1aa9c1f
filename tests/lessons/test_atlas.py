"""The disagreement atlas (appendix A4, docs/atlas.md): every example's every value is the real tool's.

On the examples, NLTK and sacrebleu run here, live. torchmetrics and d2l (they need torch), tensorflow/nmt's
``compute_bleu`` (a file of a repository, not a package) and Moses' multi-bleu.perl and mteval-v13a.pl
(Perl scripts of a repository) ran once, outside the test environment, in ``tools/record_tool_scores.py``,
which wrote their numbers and versions to ``data/atlas/real-tool-scores.json`` (the WMT17 systems:
``wmt17-real-tool-scores.json``, NLTK and sacrebleu included). Lesson 09's ``tool_bleu`` must give each of
those numbers: the same float, torchmetrics' float32, and what the Perl scripts print (multi-bleu.perl 2
decimals, mteval-v13a.pl's --metricsMATR-output 15 significant digits); where the tool stopped, the same error.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

from bleu_scratch import tool_bleu
from bleu_scratch.notebook.atlas import COLUMNS, lines_of

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import atlas_page  # noqa: E402 (tools/ is no package)
from atlas_page import ERRORS, EXAMPLES, RECORDED, RECORDED_TOOLS, WMT17, live, quiet  # noqa: E402

CASES = [(name, tool) for name, example in EXAMPLES.items() for tool in [*COLUMNS, *example.get("also", [])]]


def as_printed(tool: str, value) -> float:
    """A value as the tool shows it: multi-bleu.perl's 2 decimals, mteval-v13a.pl's 15 significant digits."""
    if tool == "multi-bleu":
        return float(f"{value:.2f}")
    if tool == "mteval-v13a":
        return float(f"{value:.15g}")
    return float(value)


def test_at_least_25_examples_each_with_its_rule():
    assert len(EXAMPLES) >= 25
    for name, example in EXAMPLES.items():
        assert example["rule"].endswith(".") and example["topic"], name


def test_the_recording_is_of_these_examples_by_the_pinned_tools():
    recorded = {name: (e["hypotheses"], e["list_of_references"]) for name, e in RECORDED["corpora"].items()}
    assert recorded == {name: (e["hypotheses"], e["list_of_references"]) for name, e in EXAMPLES.items()}, (
        "data/atlas/examples.json changed: record it again (data/atlas/README.md says how)"
    )
    for record in (RECORDED, WMT17):
        versions = record["versions"]
        assert (versions["torchmetrics"], versions["d2l"], versions["nltk"], versions["sacrebleu"]) == (
            "1.9.0",
            "1.0.3",
            "3.10.4",
            "2.6.0",
        )
        assert versions["tensorflow/nmt"], "the tensorflow/nmt commit whose compute_bleu ran"


@pytest.mark.parametrize("name, tool", CASES, ids=[f"{name}-{tool}" for name, tool in CASES])
def test_each_value_is_the_real_tools(name, tool):
    example = EXAMPLES[name]
    hypotheses, list_of_references = example["hypotheses"], example["list_of_references"]
    if tool not in RECORDED_TOOLS:
        expected = live(tool, hypotheses, list_of_references)
        ours = quiet(tool_bleu, tool, hypotheses, list_of_references)
        assert (ours, type(ours)) == (expected, type(expected))
        return
    expected = RECORDED["corpora"][name]["scores"][tool]
    if isinstance(expected, dict):  # the real tool stopped
        with pytest.raises(ERRORS[expected["error"]]):
            quiet(tool_bleu, tool, hypotheses, list_of_references)
        return
    ours = quiet(tool_bleu, tool, hypotheses, list_of_references)
    assert type(ours) is (np.float32 if tool.startswith("torchmetrics") else float)
    assert as_printed(tool, ours) == expected


def shows(name: str) -> bool:
    """Whether docs/atlas.md shows the real tools' numbers in its table ``name``."""
    table = atlas_page.tables()[name]()
    return f"<!-- atlas:{name} -->\n{table}<!-- /atlas:{name} -->" in atlas_page.PAGE.read_text(encoding="utf-8")


def test_the_page_shows_the_real_tools_numbers_on_the_examples():
    assert shows("examples"), (
        "docs/atlas.md's table of examples is not the real tools' numbers: run tools/atlas_page.py"
    )


def test_the_page_shows_the_real_tools_numbers_on_wmt17():
    assert shows("wmt17"), "docs/atlas.md's WMT17 table is not the real tools' numbers: run tools/atlas_page.py"


# Four of the 16 (each takes seconds per tool): the file with a byte order mark, the best and the worst by
# sacrebleu, and the rule-based system, whose tokens differ most from the reference's.
WMT17_SYSTEMS = ["online-A.0", "uedin-nmt.4722", "online-F.0", "PROMT-Rule-based.4735"]


@pytest.mark.parametrize("system", WMT17_SYSTEMS)
def test_wmt17_systems_by_every_tool(system):
    entry = WMT17["corpora"][system]
    hypotheses = lines_of(entry["hypothesis_file"])
    references = [[line] for line in lines_of(entry["reference_files"][0])]
    for tool in COLUMNS:
        ours = quiet(tool_bleu, tool, hypotheses, references)
        assert as_printed(tool, ours) == entry["scores"][tool], (system, tool)
