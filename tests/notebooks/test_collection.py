"""The lesson collection itself: order, imports, exercises, reproducibility.

nbval re-runs each notebook and compares outputs; these tests check what a
re-run cannot: that the collection is complete and every notebook keeps the
house rules.
"""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_sources(nb: dict) -> list[str]:
    return ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]


def test_numbered_from_00_without_gaps():
    numbers = [int(re.match(r"(\d\d)_[a-z0-9_]+\.ipynb$", p.name).group(1)) for p in PATHS]
    assert numbers == list(range(len(PATHS))), [p.name for p in PATHS]
    assert len(PATHS) >= 7


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_imports_bleu_scratch(path):
    assert any(re.search(r"^\s*(from|import) bleu_scratch\b", src, re.M) for src in code_sources(load(path)))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_has_marked_exercise(path):
    marked = [s for s in code_sources(load(path)) if "### BEGIN SOLUTION" in s]
    assert marked, "no exercise cell with ### BEGIN SOLUTION"
    for src in marked:
        assert src.count("### BEGIN SOLUTION") == src.count("### END SOLUTION")


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_never_downloads(path):
    assert not any("nltk.download" in src for src in code_sources(load(path)))


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_kernel_and_clean_run(path):
    nb = load(path)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1))
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    images = [m for c in code for o in c["outputs"] for m in o.get("data", {})]
    assert "image/svg+xml" not in images


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_goals_and_link_to_next(path):
    nb = load(path)
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert re.search(r"learning goals|you will learn", markdown[0] + markdown[1 % len(markdown)], re.I)
    index = PATHS.index(path)
    if index + 1 < len(PATHS):
        assert PATHS[index + 1].name in markdown[-1], "the last cell should link the next notebook"


def test_core_lessons_have_plots():
    core = [p for p in PATHS if int(p.name[:2]) <= 6]
    with_png = [
        p.name
        for p in core
        if any("image/png" in o.get("data", {}) for c in load(p)["cells"] if c["cell_type"] == "code" for o in c["outputs"])
    ]
    assert len(with_png) >= 4, with_png


# nbgrader's cell metadata, version 3 (nbgrader/nbgraderformat/v3.json in nbgrader 0.9).
NBGRADER_KEYS = {"schema_version", "grade", "locked", "solution", "task", "grade_id", "points", "checksum", "cell_type"}
NBGRADER_REQUIRED = {"schema_version", "grade", "locked", "solution"}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_exercises_carry_nbgrader_metadata(path):
    """nbgrader takes a notebook only if every marked cell is a solution cell; the check after it is graded."""
    cells = load(path)["cells"]
    code = [i for i, cell in enumerate(cells) if cell["cell_type"] == "code"]
    marked = [i for i in code if "### BEGIN SOLUTION" in "".join(cells[i]["source"])]
    for i in marked:
        solution = cells[i]["metadata"].get("nbgrader", {})
        assert (solution.get("solution"), solution.get("grade"), solution.get("locked")) == (True, False, False), f"cell {i + 1}"
        check = cells[code[code.index(i) + 1]]
        assert "assert" in "".join(check["source"])
        tests = check["metadata"].get("nbgrader", {})
        assert (tests.get("grade"), tests.get("solution"), tests.get("locked")) == (True, False, True), f"check of cell {i + 1}"
        assert tests["points"] > 0
    tagged = [cell["metadata"]["nbgrader"] for cell in cells if "nbgrader" in cell["metadata"]]
    assert len(tagged) >= 2 * len(marked)
    for meta in tagged:
        assert NBGRADER_REQUIRED <= set(meta) <= NBGRADER_KEYS and meta["schema_version"] == 3, meta
        assert re.fullmatch(r"[a-zA-Z0-9_\-]+", meta["grade_id"]), meta
    grade_ids = [meta["grade_id"] for meta in tagged if meta["grade"] or meta["solution"] or meta["locked"]]
    assert len(grade_ids) == len(set(grade_ids)), grade_ids


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_finds_its_data_from_the_package_not_the_working_directory(path):
    """nbgrader, a copied edition or Colab run a notebook elsewhere: no path may start from the working directory."""
    code = "\n".join(code_sources(load(path)))
    assert not re.search(r"""["']\.\.?/""", code), "use bleu_scratch.notebook.data_dir()"
