"""Solution markers: found, balanced, replaced by nbgrader's stub at the same indentation."""

import pytest

from bleu_classroom import errors, markers, units
from tests.classroom.edition_tools import BEGIN, END, LESSON_MODULES, REPO, STUB


@pytest.mark.parametrize("module", LESSON_MODULES)
def test_every_lesson_function_is_marked_and_graded(module):
    source = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
    graded = [unit.name for unit in units.UNITS if unit.module == module]
    assert markers.marked_functions(source) == graded


def test_stub_keeps_the_indentation_of_its_marker():
    source = "\n".join(
        ["class A:", "    def f(self):", "        x = 1", f"        {BEGIN}", "        return x", f"        {END}", ""]
    )
    stripped, regions = markers.strip_solutions(source, markers.CODE_STUB)
    assert stripped.splitlines() == [
        "class A:",
        "    def f(self):",
        "        x = 1",
        "        # YOUR CODE HERE",
        f"        {STUB}",
    ]
    assert regions[0].lines == ["        return x"]


@pytest.mark.parametrize(
    "lines, message",
    [
        ([BEGIN, "x = 1"], "never closed"),
        (["x = 1", END], "without a BEGIN"),
        ([BEGIN, BEGIN, END], "inside the region"),
        (["## BEGIN SOLUTION", "x = 1", END], "malformed marker"),
    ],
)
def test_unbalanced_or_malformed_markers_are_errors(lines, message):
    with pytest.raises(errors.ClassroomError, match=message):
        markers.strip_solutions("\n".join(lines) + "\n", markers.CODE_STUB, "lesson.py")
