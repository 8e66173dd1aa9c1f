"""The lesson collection itself: order, imports, exercises, reproducibility.

nbval re-runs each notebook and compares outputs; these tests check what a
re-run cannot: that the collection is complete and every notebook keeps the
house rules.
"""

import ast
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
# Lessons are numbered 00, 01, ...; appendices (deep dives off the main path) A1, A2, ...
LESSONS = [path for path in PATHS if re.match(r"\d\d_", path.name)]
APPENDICES = [path for path in PATHS if re.match(r"A\d_", path.name)]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_sources(nb: dict) -> list[str]:
    return ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]


def test_numbered_from_00_without_gaps():
    assert LESSONS + APPENDICES == PATHS, "a notebook is a lesson, NN_name.ipynb, or an appendix, AN_name.ipynb"
    numbers = [int(re.match(r"(\d\d)_[a-z0-9_]+\.ipynb$", p.name).group(1)) for p in LESSONS]
    assert numbers == list(range(len(LESSONS))), [p.name for p in LESSONS]
    assert len(LESSONS) >= 7
    appendices = [int(re.match(r"A(\d)_[a-z0-9_]+\.ipynb$", p.name).group(1)) for p in APPENDICES]
    assert appendices == list(range(1, len(APPENDICES) + 1)), [p.name for p in APPENDICES]


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


def bare_asserts(source: str) -> list[str]:
    """The asserts of a code cell that would stop without a message; IPython's magics are left out."""
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    return [ast.unparse(node) for node in ast.walk(ast.parse(python)) if isinstance(node, ast.Assert) and not node.msg]


def test_bare_asserts_are_found():
    assert bare_asserts("x = 1\nassert x == 2\nassert x, 'x is 0'\n%time y = 1") == ["assert x == 2"]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_every_failing_check_says_what_is_wrong(path):
    """A check that stops a learner says what it found and what was expected: no bare ``assert``."""
    cells = load(path)["cells"]
    bare = {
        f"cell {i}": found
        for i, cell in enumerate(cells)
        if cell["cell_type"] == "code" and (found := bare_asserts("".join(cell["source"])))
    }
    assert not bare, f"give each assert a message saying what is wrong and what was expected: {bare}"


def markdown_of(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in load(path)["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_title_reading_time_and_goals(path):
    markdown = markdown_of(path)
    title = f"# {path.name.split('_')[0]} "
    assert markdown[0].startswith(title), "the first cell is the title, with the notebook's number"
    reading_time = r"^\*About \d+ minutes to read; [^*]+ to run\.\*$"
    assert re.search(reading_time, markdown[0], re.M), "say how long it takes to read and run"
    assert re.search(r"learning goals|you will learn", markdown[0] + markdown[1 % len(markdown)], re.I)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_lesson_links_the_next(path):
    index = LESSONS.index(path)
    if index + 1 < len(LESSONS):
        assert LESSONS[index + 1].name in markdown_of(path)[-1], "the last cell should link the next lesson"


@pytest.mark.parametrize("path", APPENDICES, ids=lambda p: p.name)
def test_an_appendix_is_linked_from_its_lesson_and_back(path):
    linking = [lesson for lesson in LESSONS if f"({path.name})" in "\n".join(markdown_of(lesson))]
    assert linking, "link the appendix from the lesson it belongs to"
    assert any(f"({lesson.name})" in markdown_of(path)[-1] for lesson in linking), "end with a link back to that lesson"


def test_lesson_00_lists_every_notebook():
    contents = markdown_of(LESSONS[0])
    listed = "\n".join(cell for cell in contents if cell.startswith("## Contents"))
    assert [path.name for path in PATHS[1:] if f"({path.name})" not in listed] == []


def test_core_lessons_have_plots():
    core = [p for p in LESSONS if int(p.name[:2]) <= 6]
    with_png = [
        p.name
        for p in core
        if any(
            "image/png" in o.get("data", {}) for c in load(p)["cells"] if c["cell_type"] == "code" for o in c["outputs"]
        )
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
        flags = (solution.get("solution"), solution.get("grade"), solution.get("locked"))
        assert flags == (True, False, False), f"cell {i + 1}"
        check = cells[code[code.index(i) + 1]]
        assert "assert" in "".join(check["source"])
        tests = check["metadata"].get("nbgrader", {})
        flags = (tests.get("grade"), tests.get("solution"), tests.get("locked"))
        assert flags == (True, False, True), f"check of cell {i + 1}"
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
