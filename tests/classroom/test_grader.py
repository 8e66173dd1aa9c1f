"""The grader: full marks for the repository, 0 for a fresh edition, each function on its own, and no way to fool it.

Every attack below was tried on the grader this one replaces (issue 11): there
it scored points, crashed, hung or changed the instructor's files. Each test
asserts what the report says and what is left on disk, never how long it took.
"""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bleu_classroom import command, errors, grader, report, supervisor, units
from tests.classroom.edition_tools import REPO, copy_of, set_function

GRADER_FILE = Path(grader.__file__).resolve()
INSTRUCTOR_SOLUTION = REPO / "bleu_scratch" / "lesson03_precision.py"
POINTS = {unit.name: unit.points for unit in units.UNITS}


def test_grading_the_repository_gives_full_marks(repo_report):
    assert [(m.unit.name, m.points, m.reason) for m in repo_report.marks] == [
        (unit.name, unit.points, "") for unit in units.UNITS
    ]
    assert repo_report.score == repo_report.max_score == 24
    assert Path(repo_report.package).name == "__init__.py"


def test_a_fresh_edition_grades_zero_with_a_reason_each(fresh_report):
    assert (fresh_report.score, fresh_report.max_score) == (0, 24)
    for mark in fresh_report.marks:
        assert re.fullmatch(
            rf"not written yet \(NotImplementedError at {mark.unit.module}\.py:\d+ in \w+\)", mark.reason
        ), mark.reason


def test_the_edition_readme_lists_the_points_the_grader_gives(edition, repo_report, fresh_report):
    readme = (edition / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| [^|]+ \| `bleu_scratch/(\w+)\.py` \| `(\w+)` \| (\d+) \|$", readme, re.M)
    assert {(module, name): int(points) for module, name, points in listed} == {
        (mark.unit.module, mark.unit.name): mark.points for mark in repo_report.marks
    }
    assert sum(int(points) for *_, points in listed) == repo_report.score == fresh_report.max_score
    assert f"(all exercises, {repo_report.score} points)" in readme


@pytest.mark.parametrize("name", ["ngrams", "modified_precision", "geometric_mean_score", "corpus_bleu"])
def test_one_function_written_earns_exactly_its_points(edition, tmp_path, name):
    # No dependency; three (given by the grader from NLTK); called through
    # sentence_bleu; the corpus score over everything.
    unit = next(unit for unit in units.UNITS if unit.name == name)
    student = copy_of(edition, tmp_path, name)
    set_function(student, unit.module, name)
    marks = grader.grade(student, only=[name]).marks
    assert [(m.unit.name, m.points) for m in marks] == [(name, unit.points)]


# One edition, one attack per function; two functions written honestly.
ATTACKS = {
    # Free points from the oracle.
    "ngrams": (
        "lesson01_ngrams",
        ["from nltk.util import ngrams as nltk_ngrams", "return list(nltk_ngrams(tokens, n))"],
    ),
    # Kill the grader, then answer right.
    "count_ngrams": (
        "lesson01_ngrams",
        ["import os, signal", "os.kill(os.getppid(), signal.SIGKILL)", "return Counter(ngrams(tokens, n))"],
    ),
    # Rewrite the instructor's grader.
    "max_reference_counts": (
        "lesson02_clipping",
        [f"open({str(GRADER_FILE)!r}, 'a').write('# every answer is right')", "return Counter()"],
    ),
    # Forgot the zero counts NLTK keeps: notebook 02's check fails this too.
    "clipped_counts": ("lesson02_clipping", ["return hypothesis_counts & max_ref_counts"]),
    # Read the instructor's solution and run it.
    "modified_precision": (
        "lesson03_precision",
        [
            f"source = open({str(INSTRUCTOR_SOLUTION)!r}).read()",
            "space = {}",
            "exec(source, space)",
            "return space['modified_precision'](references, hypothesis, n)",
        ],
    ),
    # Lift the memory limit, then use more than it allows.
    "closest_ref_length": (
        "lesson04_brevity",
        [
            "import resource",
            "resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))",
            "big = bytearray(1500 << 20)",
            "return min((abs(len(r) - hyp_len), len(r)) for r in references)[1]",
        ],
    ),
    # Any class named BleuStats, with the right numbers (lesson 05's own code).
    "sentence_stats": (
        "lesson05_sentence",
        [
            "from collections import namedtuple",
            "BleuStats = namedtuple('BleuStats', 'hyp_len ref_len matches totals too_short')",
            "matches, totals = [], []",
            "for n in range(1, max_n + 1):",
            "    counts = count_ngrams(hypothesis, n)",
            "    matches.append(sum(clipped_counts(counts, max_reference_counts(references, n)).values()))",
            "    totals.append(sum(counts.values()))",
            "too_short = tuple(int(total == 0) for total in totals)",
            "return BleuStats(len(hypothesis), closest_ref_length(references, len(hypothesis)), "
            "tuple(matches), tuple(totals), too_short)",
        ],
    ),
    # Answers forged on the grader's pipe, ahead of the real ones.
    "geometric_mean_score": (
        "lesson05_sentence",
        [
            "import os",
            "for fd in range(3, 12):",
            "    try:",
            '        os.write(fd, b\'{"kind": "answer", "index": 0, "value": ["float", "0x1p-1"]}\\n\')',
            "    except OSError:",
            "        pass",
            "return 0.5",
        ],
    ),
    # A working implementation of a later lesson (10), used for an earlier one.
    "corpus_stats": (
        "lesson06_corpus",
        [
            "from bleu_scratch.lesson10_fast import fast_corpus_stats",
            "return fast_corpus_stats(list_of_references, hypotheses, max_n)",
        ],
    ),
}
HONEST = ["brevity_penalty", "corpus_bleu"]


@pytest.fixture(scope="module")
def attacked(edition, tmp_path_factory) -> dict[str, report.Mark]:
    student = copy_of(edition, tmp_path_factory.mktemp("attacks"), "student")
    for name, (module, body) in ATTACKS.items():
        set_function(student, module, name, body)
    for name in HONEST:
        set_function(student, next(u.module for u in units.UNITS if u.name == name), name)
    # Lesson 10 as the repository has it: a working lesson10_fast.py in the student's folder.
    (student / "bleu_scratch" / "lesson10_fast.py").write_bytes(
        (REPO / "bleu_scratch" / "lesson10_fast.py").read_bytes()
    )
    before = GRADER_FILE.read_bytes()
    marks = {m.unit.name: m for m in grader.grade(student, memory_mb=1024).marks}
    assert GRADER_FILE.read_bytes() == before, "the student's code changed the grader"
    return marks


def test_honest_functions_keep_their_points_beside_the_attacks(attacked):
    assert {name: m.points for name, m in attacked.items() if m.points} == {name: POINTS[name] for name in HONEST}


@pytest.mark.parametrize(
    "name, reason",
    [
        (
            "ngrams",
            "tried to import nltk (the grader's answers come from it: write the function yourself), "
            "which graded code may not",
        ),
        ("count_ngrams", "tried to send a signal (os.kill), which graded code may not"),
        ("max_reference_counts", f"tried to write {GRADER_FILE}, which graded code may not"),
        ("modified_precision", f"tried to read {INSTRUCTOR_SOLUTION}, which graded code may not"),
        ("closest_ref_length", "tried to raise its limits (resource.setrlimit), which graded code may not"),
        ("corpus_stats", "fast_corpus_stats is not yours to call while corpus_stats is graded"),
    ],
)
def test_an_attack_earns_nothing_and_the_report_says_why(attacked, name, reason):
    assert attacked[name].points == 0
    assert reason in attacked[name].reason


def test_only_the_lessons_own_classes_count_as_answers(attacked):
    # The numbers are right; the type is not the lesson's BleuStats.
    assert attacked["sentence_stats"].points == 0
    assert re.fullmatch(
        r"sentence_stats\(.*\) returned <a bleu_scratch.lesson05_sentence.BleuStats>, NLTK gives BleuStats\(.*",
        attacked["sentence_stats"].reason,
    )


def test_zero_counts_are_part_of_the_answer(attacked):
    # Papineni's Example 2 as a Counter: NLTK keeps ("the",): 2 and every zero.
    assert attacked["clipped_counts"].points == 0
    assert (
        "returned Counter(" in attacked["clipped_counts"].reason
        and "NLTK gives Counter(" in attacked["clipped_counts"].reason
    )


def test_forged_answers_on_the_grader_pipe_cost_the_function(attacked):
    assert attacked["geometric_mean_score"].points == 0
    assert "malformed message" in attacked["geometric_mean_score"].reason


def test_garbage_on_the_pipe_while_importing_costs_points_and_never_crashes_the_grader(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    with (student / "bleu_scratch" / "__init__.py").open("a", encoding="utf-8") as init:
        init.write(
            "\nimport os\nfor _fd in range(3, 12):\n    try:\n        os.write(_fd, b'not json\\n')\n"
            "    except OSError:\n        pass\n"
        )
    set_function(student, "lesson01_ngrams", "ngrams")
    marks = grader.grade(student, only=["01"]).marks
    assert [m.points for m in marks] == [0, 0]
    assert all(m.reason.startswith("sent the grader a malformed message") for m in marks)


def test_messages_do_not_reset_the_clock_of_an_endless_function(edition, tmp_path):
    # The old grader restarted a case's clock on every event: this ran forever.
    student = copy_of(edition, tmp_path, "student")
    set_function(
        student,
        "lesson01_ngrams",
        "ngrams",
        [
            "import os, time",
            "while True:",
            "    for fd in range(3, 12):",
            "        try:",
            '            os.write(fd, b\'{"kind": "call", "name": "ngrams", "args": [], "kwargs": {}}\\n\')',
            "        except OSError:",
            "            pass",
            "    time.sleep(0.2)",
        ],
    )
    marks = grader.grade(student, only=["ngrams"], budget=3).marks
    assert marks[0].points == 0
    assert re.fullmatch(r"did not finish within 3s on ngrams\(.*\) \(an endless loop\?\)", marks[0].reason), marks[
        0
    ].reason


def test_loops_crashes_and_wrong_answers_cost_only_their_own_points(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson01_ngrams", "ngrams", ["while True:", "    pass"])
    set_function(student, "lesson01_ngrams", "count_ngrams", ["import os", "os._exit(3)"])
    # A while loop that never moves on, appending as it goes: it fills the
    # memory or the time first, depending on the machine; either costs its points.
    set_function(
        student,
        "lesson02_clipping",
        "max_reference_counts",
        ["found, i = [], 0", "while i < len(references):", "    found.append(tuple(references[i]))", "return found"],
    )
    # A print that looks like a message to the grader goes nowhere.
    set_function(
        student,
        "lesson04_brevity",
        "closest_ref_length",
        ['print(\'{"kind": "answer", "index": 0, "value": ["int", 18]}\')', "return 0"],
    )
    set_function(student, "lesson02_clipping", "clipped_counts", ["return hypothesis_counts"])  # forgot to clip
    set_function(student, "lesson04_brevity", "brevity_penalty")
    marks = {m.unit.name: m for m in grader.grade(student, budget=8, memory_mb=512, only=["01", "02", "04"]).marks}
    assert re.fullmatch(r"did not finish within 8s on ngrams\(.*\) \(an endless loop\?\)", marks["ngrams"].reason)
    assert marks["count_ngrams"].reason.startswith("stopped the grading process (exit code 3) on count_ngrams(")
    assert re.fullmatch(
        r"(used more than 512 MB of memory \(a loop that never ends\?\)|did not finish within 8s) "
        r"on max_reference_counts\(.*",
        marks["max_reference_counts"].reason,
    ), marks["max_reference_counts"].reason
    assert "returned 0, NLTK gives 10" in marks["closest_ref_length"].reason
    # Papineni's Example 2: seven "the"s, clipped to the two of the first reference.
    assert "returned Counter({('the',): 7}), NLTK gives Counter({('the',): 2})" in marks["clipped_counts"].reason
    assert {name: m.points for name, m in marks.items() if m.points} == {"brevity_penalty": 2}


def test_one_allocation_past_the_limit_is_a_memory_error(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson04_brevity", "brevity_penalty", ["big = bytearray(2 << 30)", "return 1"])
    marks = grader.grade(student, only=["brevity_penalty"], memory_mb=512).marks
    assert re.fullmatch(
        r"used more than 512 MB of memory \(a loop that never ends\?\) on brevity_penalty\(10, 12\) "
        r"at lesson04_brevity.py:\d+ in brevity_penalty",
        marks[0].reason,
    ), marks[0].reason


def test_a_package_that_does_not_import_gets_zero_with_the_error(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson01_ngrams", "ngrams", ["return [tuple(tokens[i : i + n] for i in range(len(tokens))"])
    report = grader.grade(student, only=["01", "02"])
    assert report.score == 0
    assert all(m.reason.startswith("bleu_scratch does not import: SyntaxError") for m in report.marks)
    assert "(lesson01_ngrams.py:" in report.marks[0].reason


def test_a_missing_module_is_never_filled_from_the_instructors_copy(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    # A module with no exercise, which bleu_scratch imports: only the instructor's copy could stand in for it.
    (student / "bleu_scratch" / "lesson03_matches.py").unlink()
    report = grader.grade(student, only=["ngrams"])
    assert report.score == 0
    assert report.marks[0].reason.startswith("bleu_scratch does not import:"), report.marks[0].reason


def test_grading_a_folder_without_a_package_is_a_clear_error(tmp_path):
    with pytest.raises(errors.ClassroomError, match="has no bleu_scratch/__init__.py"):
        grader.grade(tmp_path)


def test_the_table_ends_with_the_score(fresh_report):
    table = fresh_report.table().splitlines()
    assert table[0].split() == ["exercise", "function", "points"]
    assert table[1].split()[:5] == ["01", "n-grams", "ngrams", "0/2", "not"]
    assert table[-1] == "score: 0/24"


def test_grade_command_prints_json(edition, capfd):
    assert command.main(["grade", str(edition), "--only", "brevity_penalty", "--json", "--memory-mb", "0"]) == 0
    grades = json.loads(capfd.readouterr().out)
    assert (grades["score"], grades["max_score"]) == (0, 2)
    assert [row["function"] for row in grades["exercises"]] == ["brevity_penalty"]


def test_the_command_says_so_when_the_grading_process_is_stopped(edition, tmp_path):
    # What the sandbox refuses, a student may still find a way to do as the
    # grader's user: the command outlives its grading process and says what happened.
    psutil = pytest.importorskip("psutil")
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson01_ngrams", "ngrams", ["while True:", "    pass"])
    command_line = [
        sys.executable,
        "-m",
        "bleu_classroom",
        "grade",
        str(student),
        "--only",
        "ngrams",
        "--budget",
        "600",
    ]
    with subprocess.Popen(command_line, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as watched:
        parent = psutil.Process(watched.pid)
        # The graded function loops until killed: wait for its process (the grading process's child).
        while not any(len(child.children()) for child in parent.children()):
            assert watched.poll() is None, watched.stderr.read()
            time.sleep(0.1)
        grading = parent.children()[0]
        graded = grading.children()
        grading.kill()
        out, err = watched.communicate(timeout=120)
        # The graded process is in a session of its own; it ends with its grader all the same.
        _, left = psutil.wait_procs(graded, timeout=60)
    assert not left
    assert (watched.returncode, out) == (1, "")
    assert err == supervisor.STOPPED.format(signal="SIGKILL") + "\n"


def test_a_student_grades_an_edition_that_does_not_import_from_its_own_folder(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    with (student / "bleu_scratch" / "lesson01_ngrams.py").open("a", encoding="utf-8") as module:
        module.write("\ndef broken(:\n")
    # The edition's own grader, as its README says to run it; nothing of this repository on the path.
    result = subprocess.run(
        [sys.executable, "-m", "bleu_classroom", "grade", ".", "--only", "01"],
        cwd=student,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == "score: 0/3"
    assert "bleu_scratch does not import: SyntaxError" in result.stdout


def test_another_students_work_is_out_of_reach(edition, tmp_path):
    other = copy_of(edition, tmp_path, "other")
    set_function(other, "lesson01_ngrams", "ngrams")
    student = copy_of(edition, tmp_path, "student")
    theirs = other / "bleu_scratch" / "lesson01_ngrams.py"
    set_function(
        student,
        "lesson01_ngrams",
        "ngrams",
        [
            "space = {}",
            f"exec(open({str(theirs)!r}).read(), space)",
            "return space['ngrams'](tokens, n)",
        ],
    )
    marks = grader.grade(student, only=["ngrams"]).marks
    assert (marks[0].points, marks[0].reason) == (
        0,
        f"tried to read {theirs}, which graded code may not: no points for this function",
    )


# A second round, found by a reviewer who attacked the grader above: each earned points, wrote outside
# the student's folder, left a process behind or stalled the grader, until the grader was changed.
SECOND_ROUND = {
    # NLTK's source read through a handle on site-packages (a path relative to it, not to the folder).
    "ngrams": (
        "lesson01_ngrams",
        [
            "import os, sys",
            "site = os.open(next(p for p in sys.path if p.endswith('site-packages')), os.O_RDONLY)",
            "os.open('nltk/util.py', os.O_RDONLY, dir_fd=site)",
            "return []",
        ],
    ),
    # A link in its own folder that leads out of it.
    "count_ngrams": (
        "lesson01_ngrams",
        ["import os", "os.symlink('/', os.path.join(os.getcwd(), 'out'))", "return Counter()"],
    ),
    # The C fork that subprocess keeps for itself, which raises no audit event.
    "max_reference_counts": (
        "lesson02_clipping",
        [
            "import sys",
            "fork_exec = sys.modules['subprocess']._fork_exec",
            "return Counter()",
        ],
    ),
    # A second interpreter, which the audit hook does not watch.
    "clipped_counts": ("lesson02_clipping", ["import _xxsubinterpreters", "return Counter()"]),
    # A later lesson's public function (a door's wrapper), kept in a list before the grader could replace it
    # (see __init__.py below).
    "geometric_mean_score": ("lesson05_sentence", ["return bp * _STASH[0]([['a']], ['a'], weights)"]),
    # A request that would have the grader build a list of 50 million tokens.
    "modified_precision": (
        "lesson03_precision",
        [
            "from collections import Counter",
            "clipped_counts(Counter({('a',): 1}), Counter({('a',): 50_000_000}))",
            "return Precision(0, 1)",
        ],
    ),
}


@pytest.fixture(scope="module")
def second_round(edition, tmp_path_factory) -> dict[str, report.Mark]:
    student = copy_of(edition, tmp_path_factory.mktemp("second-round"), "student")
    for name, (module, body) in SECOND_ROUND.items():
        set_function(student, module, name, body)
    (student / "bleu_scratch" / "lesson10_fast.py").write_bytes(
        (REPO / "bleu_scratch" / "lesson10_fast.py").read_bytes()
    )
    with (student / "bleu_scratch" / "__init__.py").open("a", encoding="utf-8") as init:
        init.write(
            "\nfrom . import lesson10_fast as _fast, lesson05_sentence as _sentence\n"
            "_sentence._STASH = [_fast.fast_sentence_bleu]\n"
        )
    return {m.unit.name: m for m in grader.grade(student, only=list(SECOND_ROUND), budget=10).marks}


@pytest.mark.parametrize(
    "name, reason",
    [
        ("ngrams", "tried to open a relative path (nltk/util.py), which graded code may not"),
        ("count_ngrams", "tried to make a link (os.symlink), which graded code may not"),
        ("max_reference_counts", "raised AttributeError"),
        ("clipped_counts", "tried to import _xxsubinterpreters, which graded code may not"),
        ("geometric_mean_score", "fast_sentence_bleu is not yours to call while sentence_bleu is graded"),
        ("modified_precision", "clipped_counts is answered for at most 20000 items and numbers up to 1000"),
    ],
)
def test_the_second_round_of_attacks_earns_nothing(second_round, name, reason):
    assert second_round[name].points == 0
    assert reason in second_round[name].reason, second_round[name].reason
