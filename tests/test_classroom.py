"""The course edition: release without solutions, and the autograder.

Grading runs student code in a child process, so these tests grade a few
editions at once in threads (the work is in the children).
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bleu_scratch import classroom

REPO = Path(__file__).resolve().parent.parent
LESSON_MODULES = sorted({unit.module for unit in classroom.UNITS})
STUB = "raise NotImplementedError()"
# Kept apart so that no line of this file is itself a solution marker.
BEGIN, END = "### " + "BEGIN SOLUTION", "### " + "END SOLUTION"


def function_node(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name)


def set_function(edition: Path, module: str, name: str, body: list[str] | None = None) -> None:
    """Write one function of the edition: the repository's solution, or ``body`` in place of the stub."""
    path = edition / "bleu_scratch" / f"{module}.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    node = function_node("".join(lines), name)
    if body is None:
        solved = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        solved_node = function_node(solved, name)
        new = solved.splitlines(keepends=True)[solved_node.lineno - 1 : solved_node.end_lineno]
    else:
        new = lines[node.lineno - 1 : node.end_lineno]
        at = next(i for i, line in enumerate(new) if line.strip() == STUB)
        indent = new[at][: len(new[at]) - len(new[at].lstrip())]
        new[at : at + 1] = [f"{indent}{line}\n" for line in body]
    lines[node.lineno - 1 : node.end_lineno] = new
    path.write_text("".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("edition")
    classroom.release(out)
    return out


@pytest.fixture(scope="module")
def repo_report() -> classroom.Report:
    return classroom.grade(REPO)


def copy_of(edition: Path, tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(edition, target)
    return target


# --- markers ---------------------------------------------------------------


@pytest.mark.parametrize("module", LESSON_MODULES)
def test_every_lesson_function_is_marked_and_graded(module):
    source = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
    graded = [unit.name for unit in classroom.UNITS if unit.module == module]
    assert classroom.marked_functions(source) == graded


def test_stub_keeps_the_indentation_of_its_marker():
    source = "\n".join(["class A:", "    def f(self):", "        x = 1", f"        {BEGIN}", "        return x", f"        {END}", ""])
    stripped, regions = classroom.strip_solutions(source, classroom.CODE_STUB)
    assert stripped.splitlines() == ["class A:", "    def f(self):", "        x = 1", "        # YOUR CODE HERE", f"        {STUB}"]
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
    with pytest.raises(classroom.ClassroomError, match=message):
        classroom.strip_solutions("\n".join(lines) + "\n", classroom.CODE_STUB, "lesson.py")


# --- release -----------------------------------------------------------------


def test_edition_has_stubs_in_place_of_every_solution(edition):
    for path in edition.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".ipynb", ".md", ".toml", ".txt"):
            lines = path.read_text(encoding="utf-8").splitlines()
            assert not [line for line in lines if line.strip() in (BEGIN, END)], path
    for module in LESSON_MODULES:
        solved = (REPO / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        student = (edition / "bleu_scratch" / f"{module}.py").read_text(encoding="utf-8")
        for name in classroom.marked_functions(solved):
            ours, theirs = function_node(solved, name), function_node(student, name)
            assert ast.unparse(theirs.args) == ast.unparse(ours.args)
            assert ast.get_docstring(theirs) == ast.get_docstring(ours)
            assert ast.unparse(theirs.body[-1]) == STUB
            # What stands before the stub (the input checks) is the instructor's code, unchanged.
            before = [ast.unparse(s) for s in theirs.body[1:-1]]
            assert before == [ast.unparse(s) for s in ours.body[1 : 1 + len(before)]]


def test_notebooks_have_stubs_and_no_outputs(edition):
    for solved_path in sorted((REPO / "notebooks").glob("*.ipynb")):
        solved = json.loads(solved_path.read_text(encoding="utf-8"))
        student = json.loads((edition / "notebooks" / solved_path.name).read_text(encoding="utf-8"))
        assert len(student["cells"]) == len(solved["cells"])
        for ours, theirs in zip(solved["cells"], student["cells"]):
            source = "".join(theirs["source"])
            if BEGIN in [line.strip() for line in "".join(ours["source"]).splitlines()]:
                assert STUB in source and "# YOUR CODE HERE" in source
            else:
                assert source == "".join(ours["source"])
            if theirs["cell_type"] == "code":
                assert theirs["outputs"] == [] and theirs["execution_count"] is None
            # nbgrader's own student version keeps the cell metadata too: the grade_ids tie a submission to its tests.
            assert theirs["metadata"].get("nbgrader") == ours["metadata"].get("nbgrader")
        assert any("nbgrader" in cell["metadata"] for cell in student["cells"])


def test_edition_can_be_installed_and_tested_on_its_own(edition):
    for name in ("pyproject.toml", "requirements.txt", "environment.yml"):
        assert (edition / name).read_bytes() == (REPO / name).read_bytes()
    for data in (REPO / "data").rglob("*"):
        if data.is_file():
            assert (edition / data.relative_to(REPO)).read_bytes() == data.read_bytes()
    assert (edition / "tests" / "conftest.py").is_file()
    assert not (edition / "tests" / "test_classroom.py").exists()
    assert not (edition / "bleu_scratch" / "student_README.md").exists()
    assert not (edition / "tools" / "refresh_notebooks.py").exists()
    # The student edition's pytest hooks; the instructor's repository has none.
    assert (edition / "conftest.py").read_bytes() == (REPO / "tests" / "student_conftest.py").read_bytes()
    assert not (edition / "tests" / "student_conftest.py").exists() and not (REPO / "conftest.py").exists()
    readme = (edition / "README.md").read_text(encoding="utf-8")
    assert "python -m bleu_scratch.classroom grade ." in readme and "--only" in readme
    assert "`--memory-mb`" in readme and "each case may take 10 seconds" in readme
    # The files that hold working code for the graded exercises are named.
    assert "`bleu_scratch/classroom.py` is the grader" in readme and "`bleu_scratch/fast.py`" in readme
    # The repository ignores data/published_examples.json although it ships it;
    # a student repository made from the edition must not lose it.
    ignored = (edition / ".gitignore").read_text(encoding="utf-8").split()
    shipped = [p.relative_to(edition).as_posix() for p in edition.rglob("*") if p.is_file()]
    assert not [(p, rel) for p in ignored for rel in shipped if classroom._ignores(p.strip("/"), rel)]


def test_release_refuses_a_non_empty_directory_unless_forced(tmp_path):
    (tmp_path / "notes.txt").write_text("mine\n")
    command = [sys.executable, "-m", "bleu_scratch.classroom", "release", str(tmp_path)]
    refused = subprocess.run(command, capture_output=True, text=True)
    assert refused.returncode != 0 and "--force" in refused.stderr
    assert not (tmp_path / "README.md").exists()
    forced = subprocess.run(command + ["--force"], capture_output=True, text=True)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine\n"
    assert (tmp_path / "bleu_scratch" / "ngrams.py").is_file()


def test_release_with_force_fails_on_an_old_file_that_holds_a_solution(tmp_path):
    shutil.copy(REPO / "bleu_scratch" / "ngrams.py", tmp_path / "my_ngrams_backup.py")
    with pytest.raises(classroom.ClassroomError, match="my_ngrams_backup.py"):
        classroom.release(tmp_path, force=True)


def test_release_to_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "edition").write_text("not a folder\n")
    command = [sys.executable, "-m", "bleu_scratch.classroom", "release", str(tmp_path / "edition")]
    for args in ([], ["--force"]):
        refused = subprocess.run(command + args, capture_output=True, text=True)
        assert (refused.returncode, refused.stderr) == (1, f"classroom release: error: {tmp_path / 'edition'} is a file; give the name of a new or empty directory\n")


def copy_of_repository(root: Path) -> Path:
    """The files ``release`` reads (no .git, .venv or caches)."""
    for rel in classroom._source_files(REPO, None):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, root / rel)
    return root


def distinctive_lines(region: classroom.Region) -> list[str]:
    return [line for line in map(classroom._searched, region.lines) if classroom._distinctive(line)]


def test_release_fails_on_one_solution_line_anywhere(tmp_path):
    """The reviewer's case: one line of closest_ref_length's answer appended to data/README.md."""
    source = copy_of_repository(tmp_path / "repo")
    _, (region,) = classroom.strip_solutions((REPO / "bleu_scratch" / "brevity.py").read_text(encoding="utf-8").split("def brevity_penalty")[0], classroom.CODE_STUB)
    line = max(distinctive_lines(region), key=len)
    with (source / "data" / "README.md").open("a", encoding="utf-8") as readme:
        readme.write(f"\n    {line}\n")
    with pytest.raises(classroom.ClassroomError, match=rf"bleu_scratch/brevity.py:\d+: `{re.escape(line)}` can be read at data/README.md:\d+"):
        classroom.release(tmp_path / "out", source=source)
    assert not (tmp_path / "out").exists()


def test_every_solution_shows_in_a_markdown_cell_or_a_data_file():
    """Each solution's longest distinctive line, put in a Markdown cell or data/README.md, is a leak; the real edition has none."""
    edition = classroom.build_edition()
    passages = [passage for rel, content in edition.files.items() for passage in classroom._passages(rel, content)]
    assert classroom.find_leaks(passages, edition.regions) == []
    markdown = classroom.Passage("notebooks/01_tokens_and_ngrams.ipynb", "", lesson=1, cell=2, code=False)
    checked = 0
    for region in edition.regions:
        if distinctive_lines(region):
            line = max(distinctive_lines(region), key=len)
            for shown in (markdown, classroom.Passage("data/README.md", "")):
                leaks = classroom.find_leaks(passages + [classroom.Passage(**{**vars(shown), "text": f"See:\n{line}"})], [region])
                assert [leak.rsplit(" can be read at ", 1)[1] for leak in leaks] == [
                    f"{shown.path} cell 2" if shown.cell else f"{shown.path}:2"
                ], region.where
            checked += 1
    assert checked >= 30


# A line of lesson 03's answer, and the passages that may or may not show it.
ANSWER = classroom.Region("bleu_scratch/lesson.py", 10, ["    precision = Fraction(matches, max(1, total))"])
LESSON_03 = classroom.Passage("bleu_scratch/lesson.py", "", lesson=3)


@pytest.mark.parametrize(
    "region, shown, leaks",
    [
        (ANSWER, classroom.Passage("notebooks/02_x.ipynb", "", lesson=2, cell=5, code=True), False),  # an earlier lesson teaches it
        (ANSWER, classroom.Passage("notebooks/03_x.ipynb", "", lesson=3, cell=5, code=True), True),  # its own lesson's notebook gives it away
        (ANSWER, classroom.Passage("tests/test_x.py", ""), True),  # a test is no lesson
        # An exercise cell: an earlier code cell of its notebook may run the line, not a Markdown hint or a later cell.
        (classroom.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines), classroom.Passage("notebooks/03_x.ipynb", "", 3, cell=4, code=True), False),
        (classroom.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines), classroom.Passage("notebooks/03_x.ipynb", "", 3, cell=4), True),
        (classroom.Region("notebooks/03_x.ipynb cell 9", 2, ANSWER.lines), classroom.Passage("notebooks/03_x.ipynb", "", 3, cell=10, code=True), True),
    ],
)
def test_a_line_taught_before_the_exercise_is_no_leak(region, shown, leaks):
    shown = classroom.Passage(**{**vars(shown), "text": ANSWER.lines[0]})
    found = classroom.find_leaks([LESSON_03, shown], [region])
    assert len(found) == leaks


def make_source(root: Path, lesson_lines: list[str], notebook_markdown: str = "") -> Path:
    """A tiny repository: one marked lesson module and one notebook."""
    (root / "bleu_scratch").mkdir(parents=True)
    (root / "bleu_scratch" / "lesson.py").write_text("\n".join(lesson_lines) + "\n", encoding="utf-8")
    (root / "notebooks").mkdir()
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": [notebook_markdown]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "notebooks" / "01_lesson.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    return root


SQUARES = [
    "def total(values):",
    "    check_values(values)",
    f"    {BEGIN}",
    "    squares = [value * value for value in values]",
    "    return sum(squares, start=0)",
    f"    {END}",
]


def test_release_fails_when_markdown_shows_the_solution(tmp_path):
    source = make_source(tmp_path / "src", SQUARES, "Hint: `squares = [value * value for value in values]`")
    with pytest.raises(classroom.ClassroomError, match=r"lesson.py:4: `squares = .*` can be read at notebooks/01_lesson.ipynb cell 1"):
        classroom.release(tmp_path / "out", source=source)
    assert not (tmp_path / "out").exists()


def test_release_fails_when_an_input_check_is_inside_the_markers(tmp_path):
    lines = [SQUARES[0], SQUARES[2], SQUARES[1], *SQUARES[3:]]
    with pytest.raises(classroom.ClassroomError, match="input check inside a solution region"):
        classroom.release(tmp_path / "out", source=make_source(tmp_path / "src", lines))


def test_release_fails_on_an_unbalanced_marker_in_a_module(tmp_path):
    with pytest.raises(classroom.ClassroomError, match="lesson.py:3: BEGIN SOLUTION is never closed"):
        classroom.release(tmp_path / "out", source=make_source(tmp_path / "src", SQUARES[:-1]))


def run_notebook(path: Path, edition: Path, monkeypatch) -> dict:
    """Execute ``path`` in a fresh kernel that imports the edition's package; stop at the first error."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("PYTHONPATH", str(edition))
    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def test_student_notebook_stops_with_not_implemented_error_of_its_own_lesson(edition, monkeypatch):
    nbclient = pytest.importorskip("nbclient")
    path = sorted((edition / "notebooks").glob("01_*.ipynb"))[0]
    with pytest.raises(nbclient.exceptions.CellExecutionError) as stopped:
        run_notebook(path, edition, monkeypatch)
    assert stopped.value.ename == "NotImplementedError"
    # Lesson 01's own function, not a later lesson's that the notebook previews.
    assert str(Path("bleu_scratch", "ngrams.py")) in str(stopped.value)


def test_the_command_in_a_fresh_edition_names_the_exercise_it_needs(edition):
    wmt15 = edition / "data" / "wmt15-enru-100"
    result = subprocess.run(
        [sys.executable, "-m", "bleu_scratch", str(wmt15 / "google.ru"), str(wmt15 / "ref.ru")],
        cwd=edition, env=dict(os.environ, PYTHONPATH=str(edition)), capture_output=True, text=True, timeout=120,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert re.fullmatch(
        r"bleu-scratch: error: bleu_scratch\.\w+ is lesson 0\d's exercise: not written yet \(bleu_scratch/\w+\.py\); "
        r"the command scores once lessons 01-06 are written\n",
        result.stderr,
    ), result.stderr


@pytest.mark.parametrize("lesson, previews", [("00", ["01", "03", "05"]), ("01", ["03", "06"])])
def test_early_notebooks_need_only_their_own_lesson(edition, tmp_path, monkeypatch, lesson, previews):
    """With the lesson's own exercises done, its notebook runs; later lessons are shown by NLTK."""
    student = copy_of(edition, tmp_path, "student")
    for unit in classroom.UNITS:
        if unit.exercise.startswith(lesson):
            set_function(student, unit.module, unit.name)
    (solved_path,) = (REPO / "notebooks").glob(f"{lesson}_*.ipynb")
    path = student / "notebooks" / solved_path.name
    notebook = json.loads(path.read_text(encoding="utf-8"))
    exercises = 0
    for ours, theirs in zip(json.loads(solved_path.read_text(encoding="utf-8"))["cells"], notebook["cells"]):
        if STUB in "".join(theirs["source"]):
            theirs["source"] = ours["source"]
            exercises += 1
    path.write_text(json.dumps(notebook), encoding="utf-8")
    executed = run_notebook(path, student, monkeypatch)
    printed = "".join(out.get("text", "") for cell in executed.cells for out in cell.get("outputs", []))
    announced = re.findall(r"is lesson (\d\d)'s exercise: NLTK's answer is shown", printed)
    assert sorted(announced) == previews
    assert exercises >= 1 and printed.count("Correct!") == exercises


# --- grading -------------------------------------------------------------------


def test_grading_the_repository_gives_full_marks(repo_report):
    assert [(m.unit.name, m.points, m.reason) for m in repo_report.marks] == [
        (unit.name, unit.points, "") for unit in classroom.UNITS
    ]
    assert repo_report.score == repo_report.max_score == 24
    assert Path(repo_report.package).resolve() == REPO / "bleu_scratch" / "__init__.py"


@pytest.fixture(scope="module")
def fresh_report(edition, repo_report) -> classroom.Report:
    return classroom.grade(edition)


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
def one_filled_reports(edition, tmp_path_factory, repo_report) -> dict[str, classroom.Report]:
    """The grade of an edition where only one function is written, for each of ONE_FILLED."""
    root = tmp_path_factory.mktemp("one-filled")
    units = {unit.name: unit for unit in classroom.UNITS}

    def filled_grade(name: str) -> classroom.Report:
        copy = copy_of(edition, root, name)
        set_function(copy, units[name].module, name)
        return classroom.grade(copy)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(ONE_FILLED, pool.map(filled_grade, ONE_FILLED)))


@pytest.mark.parametrize("name", ONE_FILLED)
def test_one_function_written_earns_exactly_its_points(one_filled_reports, name):
    unit = next(unit for unit in classroom.UNITS if unit.name == name)
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
    marks = {m.unit.name: m for m in classroom.grade(student, timeout=5, memory_mb=512).marks}
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
    report = classroom.grade(student)
    assert report.score == 0
    assert all(m.reason.startswith("bleu_scratch does not import: SyntaxError") for m in report.marks)
    assert "(ngrams.py:" in report.marks[0].reason


def test_grading_never_counts_modules_from_outside_the_directory(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    (student / "bleu_scratch" / "fast.py").unlink()
    try:
        report = classroom.grade(student)
    except classroom.ClassroomError as error:  # the installed package filled the gap
        assert "imported code from outside it" in str(error) and "fast.py" in str(error)
    else:  # nothing else to fall back on
        assert all("does not import" in m.reason for m in report.marks)


def test_the_table_ends_with_the_score(fresh_report):
    table = fresh_report.table().splitlines()
    assert table[0].split() == ["exercise", "function", "points"]
    assert table[1].split()[:5] == ["01", "n-grams", "ngrams", "0/2", "not"]
    assert table[-1] == "score: 0/24"


def test_grade_command_prints_json(edition, capsys):
    assert classroom.main(["grade", str(edition), "--only", "brevity_penalty", "--json", "--memory-mb", "0"]) == 0
    grades = json.loads(capsys.readouterr().out)
    assert (grades["score"], grades["max_score"]) == (0, 2)
    assert [row["function"] for row in grades["exercises"]] == ["brevity_penalty"]


# --- pytest in the student edition ---------------------------------------------------


@pytest.fixture
def lesson_module(tmp_path, monkeypatch) -> types.ModuleType:
    """bleu_scratch.shouting, "Lesson 07": ``shout`` is a stub, ``whisper`` raises NotImplementedError of its own."""
    path = tmp_path / "shouting.py"
    path.write_text(
        f"def shout(text):\n    # YOUR CODE HERE\n    {STUB}\n\n\ndef whisper(text):\n    raise NotImplementedError('no sound')\n",
        encoding="utf-8",
    )
    module = types.ModuleType("bleu_scratch.shouting", "Lesson 07: shouting.")
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module


def raised(function, *args) -> BaseException:
    with pytest.raises(BaseException) as info:
        function(*args)
    return info.value


def test_only_a_stub_is_an_unwritten_exercise(lesson_module):
    reason = "bleu_scratch.shout is lesson 07's exercise: not written yet (bleu_scratch/shouting.py)"
    stub = raised(lesson_module.shout, "hi")
    assert classroom.unwritten_exercise(stub) == reason
    assert classroom.unwritten_exercise(raised(lesson_module.whisper, "hi")) is None
    # Hypothesis groups the distinct errors it finds: all must be stubs'.
    assert classroom.unwritten_exercise(ExceptionGroup("two", [stub, raised(lesson_module.shout, "ho")])) == reason
    assert classroom.unwritten_exercise(ExceptionGroup("two", [stub, AssertionError("wrong")])) is None


def test_record_lets_only_a_stub_through(record, lesson_module):
    """tests/conftest.py's ``run`` records errors to compare with NLTK's; a stub's would hide the skip."""
    with pytest.raises(NotImplementedError):
        record(lesson_module.shout, "hi")
    assert record(lesson_module.whisper, "hi").error is NotImplementedError


def test_pytest_in_the_edition_skips_what_is_not_written_and_fails_what_is_wrong(edition, tmp_path):
    pytest.importorskip("nbval")
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "brevity", "closest_ref_length", ["return max(len(reference) for reference in references)"])
    set_function(student, "ngrams", "ngrams")
    paths = [
        "bleu_scratch/brevity.py",  # doctests
        "tests/test_brevity.py",  # plain tests, and some through same_as_nltk, which records errors
        "tests/test_cli.py::test_head_closing_the_pipe_stops_the_command_quietly",  # the command in a process of its own
        "notebooks/01_tokens_and_ngrams.ipynb",  # count_ngrams is not written
    ]
    command = [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:randomly", *paths]
    result = subprocess.run(command, cwd=student, env=dict(os.environ, PYTHONPATH=str(student)), capture_output=True, text=True)
    out = result.stdout
    failed = re.findall(r"^FAILED (\S+)", out, re.M)
    skipped = re.findall(r"^SKIPPED \[\d+\] ([^:\s]+)(?::\d+)?: (.*)$", out, re.M)
    # The wrong closest_ref_length fails, in tests and in its docstring; nothing else does.
    assert "tests/test_brevity.py::test_tie_goes_to_the_shorter_reference_whatever_the_order" in failed, out
    assert "bleu_scratch/brevity.py::bleu_scratch.brevity.closest_ref_length" in failed
    assert not [name for name in failed if "brevity_penalty" in name or "ipynb" in name or "cli" in name]
    assert "NotImplementedError" not in out.split("short test summary info")[0]
    reasons = {reason for _, reason in skipped}
    assert {
        "bleu_scratch.brevity_penalty is lesson 04's exercise: not written yet (bleu_scratch/brevity.py)",
        "bleu_scratch.count_ngrams is lesson 01's exercise: not written yet (bleu_scratch/ngrams.py)",
        "an earlier cell stopped: bleu_scratch.count_ngrams is lesson 01's exercise: not written yet (bleu_scratch/ngrams.py)",
    } <= reasons
    assert re.fullmatch(r"bleu_scratch\.\w+ is lesson 0\d's exercise: not written yet \(.*\)", dict(skipped)["tests/test_cli.py"])
    assert dict(skipped)["notebooks/01_tokens_and_ngrams.ipynb"].startswith("an earlier cell stopped")
    # The summary counts the tests waiting for each exercise, in lesson order.
    summary = re.findall(r"^ +\d+  bleu_scratch\.(\w+) is lesson", out.split("until you write these exercises")[1], re.M)
    assert summary == ["count_ngrams", "brevity_penalty"]
    assert result.returncode == 1


# --- nbgrader metadata -------------------------------------------------------------


def code_cell(*lines: str, nbgrader: dict | None = None) -> dict:
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [f"{line}\n" for line in lines]}
    if nbgrader:
        cell["metadata"]["nbgrader"] = nbgrader
    return cell


def markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": [text]}


def exercise_notebook() -> dict:
    """Setup, then two exercises each followed (after some prose) by a check cell, then a plain cell."""
    return {
        "cells": [
            code_cell("import math"),
            markdown_cell("Exercise 1"),
            code_cell("def double(x):", f"    {BEGIN}", "    return 2 * x", f"    {END}"),
            markdown_cell("Check:"),
            code_cell("assert double(2) == 4", "print('Correct!')"),
            code_cell("x = 0", BEGIN, "x = 1", END),
            code_cell("assert x == 1"),
            code_cell("print(math.pi)"),
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


# What nbgrader's "Create Assignment" toolbar writes for an autograded answer
# and for its autograder tests (schema version 3; tests are read-only and score).
def solution_meta(grade_id: str) -> dict:
    return {"grade": False, "grade_id": grade_id, "locked": False, "schema_version": 3, "solution": True}


def check_meta(grade_id: str, points: float = 1) -> dict:
    return {"grade": True, "grade_id": grade_id, "locked": True, "points": points, "schema_version": 3, "solution": False}


def test_tag_nbgrader_marks_each_exercise_and_the_check_after_it():
    notebook = exercise_notebook()
    sources = [cell["source"] for cell in notebook["cells"]]
    assert classroom.tag_nbgrader(notebook) == 2
    assert [cell["metadata"].get("nbgrader") for cell in notebook["cells"]] == [
        None, None, solution_meta("exercise_1"), None, check_meta("exercise_1_check"),
        solution_meta("exercise_2"), check_meta("exercise_2_check"), None,
    ]
    assert [cell["source"] for cell in notebook["cells"]] == sources
    text = classroom.notebook_json(notebook)
    classroom.tag_nbgrader(notebook)
    assert classroom.notebook_json(notebook) == text


def test_tag_nbgrader_keeps_points_and_hand_tags_and_drops_tags_of_a_removed_exercise():
    notebook = exercise_notebook()
    classroom.tag_nbgrader(notebook)
    cells = notebook["cells"]
    cells[4]["metadata"]["nbgrader"]["points"] = 3  # set in nbgrader's toolbar
    read_only = {"grade": False, "grade_id": "intro", "locked": True, "schema_version": 3, "solution": False}
    cells[0]["metadata"]["nbgrader"] = read_only
    del cells[2:5]  # exercise 1 goes; the old exercise 2 is now the first
    cells.append(code_cell("print('the end')", nbgrader=check_meta("exercise_2_check", 3)))
    classroom.tag_nbgrader(notebook)
    assert [cell["metadata"].get("nbgrader") for cell in cells] == [
        read_only, None, solution_meta("exercise_1"), check_meta("exercise_1_check"), None, None,
    ]


def test_tag_nbgrader_keeps_the_points_of_a_check_cell():
    notebook = exercise_notebook()
    notebook["cells"][6]["metadata"]["nbgrader"] = check_meta("old_name", 5)
    classroom.tag_nbgrader(notebook)
    assert notebook["cells"][6]["metadata"]["nbgrader"] == check_meta("exercise_2_check", 5)


def test_tag_nbgrader_makes_a_written_answer_a_graded_solution():
    notebook = {"cells": [markdown_cell(f"Why?\n{BEGIN}\nBecause.\n{END}\n")]}
    classroom.tag_nbgrader(notebook)
    # nbgrader refuses a Markdown solution cell that is not also a grade cell.
    assert notebook["cells"][0]["metadata"]["nbgrader"] == {
        "grade": True, "grade_id": "exercise_1", "locked": False, "points": 1, "schema_version": 3, "solution": True,
    }


@pytest.mark.parametrize(
    "cells, message",
    [
        ([code_cell(BEGIN, "x = 1", END), markdown_cell("The end.")], "cell 1: the next code cell must be the exercise's check"),
        ([code_cell(BEGIN, "x = 1", END), code_cell("print(x)")], "cell 1: the next code cell must be the exercise's check"),
        ([code_cell(BEGIN, "x = 1", END), code_cell(BEGIN, "y = 1", END), code_cell("assert x == y")], "cell 1: the next code cell"),
        ([code_cell("note = 'see " + "BEGIN SOLUTION" + " below'")], "cell 1:1: nbgrader would read"),
        ([code_cell("x = 1", nbgrader=check_meta("same")), code_cell("y = 1", nbgrader=check_meta("same"))], "cell 2: grade_id 'same' is used twice"),
    ],
)
def test_tag_nbgrader_stops_where_nbgrader_would_fail(cells, message):
    with pytest.raises(classroom.ClassroomError, match=message):
        classroom.tag_nbgrader({"cells": cells}, "lesson.ipynb")


def test_the_repository_notebooks_are_tagged():
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        raw = path.read_text(encoding="utf-8")
        notebook = json.loads(raw)
        assert classroom.tag_nbgrader(notebook, path.name) >= 1
        assert classroom.notebook_json(notebook) == raw, f"run: python -m bleu_scratch.classroom tag-nbgrader ({path.name})"


def test_tag_nbgrader_command_writes_only_what_changes(tmp_path):
    (tmp_path / "01_lesson.ipynb").write_text(json.dumps(exercise_notebook()), encoding="utf-8")
    command = [sys.executable, "-m", "bleu_scratch.classroom", "tag-nbgrader", str(tmp_path)]
    first = subprocess.run(command, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == ["01_lesson.ipynb: 2 exercises, tagged", "1 of 1 notebooks changed"]
    tagged = (tmp_path / "01_lesson.ipynb").read_text(encoding="utf-8")
    assert json.loads(tagged)["cells"][2]["metadata"]["nbgrader"] == solution_meta("exercise_1")
    second = subprocess.run(command, capture_output=True, text=True)
    assert second.stdout.splitlines()[-1] == "0 of 1 notebooks changed"
    assert (tmp_path / "01_lesson.ipynb").read_text(encoding="utf-8") == tagged
    empty = subprocess.run(command[:-1] + [str(tmp_path / "nothing")], capture_output=True, text=True)
    assert empty.returncode == 1 and "no notebooks" in empty.stderr
