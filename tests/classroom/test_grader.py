"""The grader: full marks for the repository, 0 for a fresh edition, each function on its own.

Grading runs student code in a child process, so these tests grade a few
editions at once in threads (the work is in the children).
"""

import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bleu_classroom import command, errors, grader, report, units
from tests.classroom.edition_tools import REPO, copy_of, set_function


def test_grading_the_repository_gives_full_marks(repo_report):
    assert [(m.unit.name, m.points, m.reason) for m in repo_report.marks] == [
        (unit.name, unit.points, "") for unit in units.UNITS
    ]
    assert repo_report.score == repo_report.max_score == 24
    assert Path(repo_report.package).resolve() == REPO / "bleu_scratch" / "__init__.py"


def test_a_fresh_edition_grades_zero_with_a_reason_each(edition, fresh_report):
    assert (fresh_report.score, fresh_report.max_score) == (0, 24)
    assert all(m.reason.startswith("not written yet (NotImplementedError at") for m in fresh_report.marks)
    # The child imported the edition's package, not the installed one.
    assert Path(fresh_report.package).resolve() == (edition / "bleu_scratch" / "__init__.py").resolve()


# One function of each shape: no dependency, one, three, called through
# sentence_bleu, and the corpus score over everything. (The repository's own
# grade already runs every function with stand-ins for the others.)
ONE_FILLED = ["ngrams", "max_reference_counts", "modified_precision", "geometric_mean_score", "corpus_bleu"]


@pytest.fixture(scope="module")
def one_filled_reports(edition, tmp_path_factory, repo_report) -> dict[str, report.Report]:
    """The grade of an edition where only one function is written, for each of ONE_FILLED."""
    root = tmp_path_factory.mktemp("one-filled")
    by_name = {unit.name: unit for unit in units.UNITS}

    def filled_grade(name: str) -> report.Report:
        copy = copy_of(edition, root, name)
        set_function(copy, by_name[name].module, name)
        return grader.grade(copy)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(ONE_FILLED, pool.map(filled_grade, ONE_FILLED)))


@pytest.mark.parametrize("name", ONE_FILLED)
def test_one_function_written_earns_exactly_its_points(one_filled_reports, name):
    unit = next(unit for unit in units.UNITS if unit.name == name)
    report = one_filled_reports[name]
    assert {m.unit.name: m.points for m in report.marks if m.points} == {unit.name: unit.points}
    assert report.score == unit.points


def test_loops_crashes_and_wrong_answers_cost_only_their_own_points(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "ngrams", "ngrams", ["while True:", "    pass"])
    set_function(student, "ngrams", "count_ngrams", ["import os", "os._exit(3)"])
    # The reviewer's case: a while loop that never moves on, appending as it goes.
    set_function(student, "clipping", "max_reference_counts", ["found, i = [], 0", "while i < len(references):", "    found.append(tuple(references[i]))", "return found"])
    # A print that looks like the grader's own report must not fool it.
    set_function(student, "brevity", "closest_ref_length", ['print(\'{"event": "done", "unit": "closest_ref_length", "results": []}\')', "return 0"])
    set_function(student, "clipping", "clipped_counts", ["return hypothesis_counts"])  # forgot to clip
    # Right but slow: 8 cases of 0.7 s each take longer than the limit, which is per case.
    set_function(student, "brevity", "brevity_penalty", ["import time", "from nltk.translate.bleu_score import brevity_penalty as nltk_bp", "time.sleep(0.7)", "return nltk_bp(closest_ref_len, hyp_len)"])
    # 5 s, not less: a correct function on a loaded 2-core machine must still finish in time.
    marks = {m.unit.name: m for m in grader.grade(student, timeout=5, memory_mb=512).marks}
    first_case = "(['It', 'is', 'a', 'guide'..., 1)"
    assert marks["ngrams"].reason == f"did not finish within 5s on ngrams{first_case} (an endless loop?)"
    assert marks["count_ngrams"].reason.startswith("stopped the grading process (exit code 3)")
    assert re.fullmatch(r"used more than 512 MB of memory \(.*\) on max_reference_counts\(.*\) at clipping.py:\d+ in max_reference_counts", marks["max_reference_counts"].reason)
    assert "cases differ from NLTK" in marks["closest_ref_length"].reason
    # Papineni's Example 2: seven "the"s, clipped to the two of the first reference.
    assert "returned Counter({('the',): 7}), NLTK gives Counter({('the',): 2})" in marks["clipped_counts"].reason
    assert marks["brevity_penalty"].points == 2
    assert sum(m.points for m in marks.values()) == 2


def test_a_package_that_does_not_import_gets_zero_with_the_error(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "ngrams", "ngrams", ["return [tuple(tokens[i : i + n] for i in range(len(tokens))"])
    report = grader.grade(student)
    assert report.score == 0
    assert all(m.reason.startswith("bleu_scratch does not import: SyntaxError") for m in report.marks)
    assert "(ngrams.py:" in report.marks[0].reason


def test_grading_never_counts_modules_from_outside_the_directory(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    (student / "bleu_scratch" / "fast.py").unlink()
    try:
        report = grader.grade(student)
    except errors.ClassroomError as error:  # the installed package filled the gap
        assert "imported code from outside it" in str(error) and "fast.py" in str(error)
    else:  # nothing else to fall back on
        assert all("does not import" in m.reason for m in report.marks)


def test_the_table_ends_with_the_score(fresh_report):
    table = fresh_report.table().splitlines()
    assert table[0].split() == ["exercise", "function", "points"]
    assert table[1].split()[:5] == ["01", "n-grams", "ngrams", "0/2", "not"]
    assert table[-1] == "score: 0/24"


def test_grade_command_prints_json(edition, capsys):
    assert command.main(["grade", str(edition), "--only", "brevity_penalty", "--json", "--memory-mb", "0"]) == 0
    grades = json.loads(capsys.readouterr().out)
    assert (grades["score"], grades["max_score"]) == (0, 2)
    assert [row["function"] for row in grades["exercises"]] == ["brevity_penalty"]
