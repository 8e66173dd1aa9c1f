"""The grader: full marks for the repository, 0 for a fresh edition, and what a wrong answer is told.

The attacks on the grader are in test_attacks.py.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_classroom import command, errors, grader, units
from tests.classroom.edition_tools import REPO, copy_of, set_function

GRADER_FILE = Path(grader.__file__).resolve()
INSTRUCTOR_SOLUTION = REPO / "bleu_scratch" / "lesson03_precision.py"
POINTS = {unit.name: unit.points for unit in units.UNITS}


def test_grading_the_repository_gives_full_marks(repo_report):
    assert [(m.unit.name, m.points, m.reason) for m in repo_report.marks] == [
        (unit.name, unit.points, "") for unit in units.UNITS
    ]
    assert repo_report.score == repo_report.max_score == 24


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


@pytest.mark.parametrize("name", ["ngrams", "corpus_bleu"])
def test_a_function_and_those_before_it_earn_exactly_its_points(edition, tmp_path, name):
    # A graded function calls the student's own earlier functions: they are written too.
    position = next(i for i, unit in enumerate(units.UNITS) if unit.name == name)
    student = copy_of(edition, tmp_path, name)
    for unit in units.UNITS[: position + 1]:
        set_function(student, unit.module, unit.name)
    marks = grader.grade(student, only=[name]).marks
    assert [(m.unit.name, m.points, m.reason) for m in marks] == [(name, POINTS[name], "")]


def test_a_wrong_earlier_function_costs_the_later_one_too(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(
        student, "lesson01_ngrams", "ngrams", ["return [tuple(tokens[i : i + n]) for i in range(len(tokens))]"]
    )
    set_function(student, "lesson01_ngrams", "count_ngrams")
    marks = grader.grade(student, only=["01"]).marks
    assert [m.points for m in marks] == [0, 0]
    # The first differing element, not two truncated prefixes that look alike.
    assert re.search(r": item \[\d+\] is \(.*\), expected \(.*\)|: it has \d+ items, expected \d+", marks[0].reason), (
        marks[0].reason
    )


def test_a_later_lesson_written_on_unwritten_earlier_ones_says_what_it_waits_for(edition, tmp_path):
    """A course split by week: the week of lesson 03 handed in without the student's lessons 01 and 02."""
    student = copy_of(edition, tmp_path, "student")
    for unit in units.UNITS:
        if unit.module.startswith("lesson03_"):
            set_function(student, unit.module, unit.name)
    marks = [mark for mark in grader.grade(student, only=["03"]).marks if mark.points == 0]
    assert marks, "lesson 03 scored without lesson 01"
    for mark in marks:
        assert re.fullmatch(
            r"waits for \w+ of lesson0[12], not written in this package \(NotImplementedError at lesson0[12]_\w+\.py:"
            r"\d+ in \w+\): write it in this package too",
            mark.reason,
        ), mark.reason


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
    marks = {m.unit.name: m for m in grader.grade(student, budget=4, memory_mb=512, only=["01", "02", "04"]).marks}
    assert re.fullmatch(r"did not finish within 4s on ngrams\(.*\) \(an endless loop\?\)", marks["ngrams"].reason)
    assert marks["count_ngrams"].reason.startswith("stopped the grading process (exit code 3) on count_ngrams(")
    assert re.fullmatch(
        r"(used more than 512 MB of memory \(a loop that never ends\?\) on max_reference_counts\(.*"
        r"|did not finish within 4s on max_reference_counts\(.*"
        r"|was killed on max_reference_counts\(.*: used more than 512 MB of memory .*)",
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


def test_a_later_lesson_broken_or_copied_in_costs_and_gives_nothing(edition, tmp_path):
    # The sandbox's copy holds the lessons up to the graded function's own (lesson 07 for smoothing).
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson01_ngrams", "ngrams")
    (student / "bleu_scratch" / "lesson08_variants.py").write_text("def half_written(:\n")
    (student / "bleu_scratch" / "__init__.py").write_text("raise SystemExit('the package as a whole is not graded')")
    assert [m.points for m in grader.grade(student, only=["ngrams"]).marks] == [2]


def test_grading_never_imports_the_lessons(edition, tmp_path):
    # The grader's image has no bleu_scratch (tools/grader_image.py): grading must not need it.
    code = (
        "import sys\n"
        "sys.modules['bleu_scratch'] = None  # any import of it fails\n"
        "from bleu_classroom import command, gradebook, kernel\n"
        f"raise SystemExit(command.main(['grade', {str(edition)!r}, '--only', '01']))\n"
    )
    result = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == "score: 0/3"


def test_grading_a_folder_without_a_package_is_a_clear_error(tmp_path):
    with pytest.raises(errors.ClassroomError, match=r"has no bleu_scratch/__init__.py: [^(]*$"):
        grader.grade(tmp_path)
    # nbgrader's submitted/<student>/ holds the assignment's folder, which holds the package.
    (tmp_path / "bleu" / "bleu_scratch").mkdir(parents=True)
    (tmp_path / "bleu" / "bleu_scratch" / "__init__.py").touch()
    with pytest.raises(
        errors.ClassroomError, match=rf"a student edition \(such as {re.escape(str(tmp_path / 'bleu'))}\)$"
    ):
        grader.grade(tmp_path)


def test_a_missing_lesson_module_is_named(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    (student / "bleu_scratch" / "lesson01_ngrams.py").unlink()
    marks = grader.grade(student, only=["01"]).marks
    assert {mark.reason for mark in marks} == {"bleu_scratch/lesson01_ngrams.py is missing"}


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


def test_a_float_where_nltk_gives_an_int_is_said_so(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson04_brevity", "brevity_penalty", ["return 1.0"])
    marks = grader.grade(student, only=["brevity_penalty"]).marks
    # Papineni's (10, 12): NLTK's brevity penalty is the int 1.
    assert (
        marks[0].reason
        == "brevity_penalty(10, 12): returned 1.0, NLTK gives 1: same value, different type (float, expected int)"
    )


def test_a_sum_one_ulp_from_fsum_is_said_so(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    for unit in units.UNITS[: units.UNITS.index(next(u for u in units.UNITS if u.name == "geometric_mean_score"))]:
        set_function(student, unit.module, unit.name)
    set_function(
        student,
        "lesson05_sentence",
        "geometric_mean_score",
        [
            "return bp * math.exp(sum(w_i * math.log(p_i) for w_i, p_i in zip(weights, p_n) if p_i > 0))",
        ],
    )
    reason = grader.grade(student, only=["geometric_mean_score"]).marks[0].reason
    assert "one unit in the last place away: add with math.fsum" in reason, reason


def test_results_are_cached_per_submission(edition, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson04_brevity", "brevity_penalty")
    first = grader.grade(student, only=["04"], cache=True)
    assert grader.grade(student, only=["04"], cache=True).as_dict() == first.as_dict()
    set_function(student, "lesson04_brevity", "closest_ref_length")
    assert grader.grade(student, only=["04"], cache=True).score == 4 != first.score


def test_without_bubblewrap_grading_stops_with_one_line(edition, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bleu_classroom", "grade", str(edition), "--only", "ngrams"],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path), "HOME": str(tmp_path)},
        timeout=300,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert "bwrap is not installed: install bubblewrap" in result.stderr


# The console script imports the installed grader; -P keeps Python from putting the working folder first on
# its path (docs/grader.md gives both).
GRADER_COMMANDS = {
    "bleu-classroom": [str(Path(sys.executable).with_name("bleu-classroom"))],
    "python -P -m bleu_classroom": [sys.executable, "-P", "-m", "bleu_classroom"],
}


@pytest.mark.parametrize("command", list(GRADER_COMMANDS))
def test_the_instructors_grader_runs_from_inside_a_submission_that_ships_its_own(edition, tmp_path, command):
    student = copy_of(edition, tmp_path, "student")
    (student / "bleu_classroom").mkdir()
    (student / "bleu_classroom" / "__init__.py").write_text("")
    (student / "bleu_classroom" / "__main__.py").write_text("print('score: 24/24')\n")
    (student / "bleu_classroom" / "command.py").write_text("def main():\n    print('score: 24/24')\n")
    result = subprocess.run(
        [*GRADER_COMMANDS[command], "grade", ".", "--only", "01"],
        cwd=student,
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
        timeout=300,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == "score: 0/3"


def test_what_a_function_prints_costs_nothing_however_much(edition, tmp_path):
    student = copy_of(edition, tmp_path, "student")
    set_function(student, "lesson04_brevity", "brevity_penalty")
    with (student / "bleu_scratch" / "lesson04_brevity.py").open("a", encoding="utf-8") as module:
        # Debugging output: megabytes of it, and a line that looks like the grader's.
        module.write("\nprint('score: 24/24')\nfor _ in range(20_000):\n    print('x' * 100)\n")
    assert grader.grade(student, only=["brevity_penalty"]).score == 2


def test_a_kernel_ended_by_sigterm_leaves_no_sockets_folder(tmp_path):
    """jupyter_client ends a kernel that does not shut down with SIGTERM to its group: the wrapper still stops the
    sandbox and removes the folder of the kernel's sockets."""
    from bleu_classroom import kernel

    connection = tmp_path / "kernel.json"
    connection.write_text(json.dumps({"ip": "127.0.0.1", **dict.fromkeys(kernel.CHANNELS, 0)}), encoding="utf-8")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    sleeper = [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(120)"]
    wrapper = subprocess.Popen(
        [sys.executable, "-P", "-m", "bleu_classroom.kernel", str(connection), "--", *sleeper],
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE,
        cwd=tmp_path,
    )
    try:
        assert wrapper.stdout.readline() == b"up\n"
        assert [path.name.startswith("bleu-kernel-") for path in scratch.iterdir()] == [True]
        wrapper.terminate()
        assert wrapper.wait(timeout=60) == 128 + 15
    finally:
        wrapper.kill()
        wrapper.wait()
    assert list(scratch.iterdir()) == []


def test_what_lies_under_the_hosts_tmp_is_mounted_after_the_private_tmp():
    """A checkout, its virtual environment or a course folder can live under /tmp: mounted before the private
    /tmp, it would be hidden by it (autograde's kernels died so in a fresh clone under /tmp)."""
    from bleu_classroom import jail
    from bleu_classroom.kernel import KERNEL_LIMITS

    argv = jail.sandbox_command(["true"], {"/tmp/venv": Path("/tmp/venv")}, KERNEL_LIMITS, {"/tmp/c": Path("/tmp/c")})
    private = argv.index("--tmpfs")
    assert argv[private + 1] == "/tmp"
    assert argv.index("/tmp/venv") > private and argv.index("/tmp/c") > private
    assert all(argv[i + 1] != "/tmp" for i, part in enumerate(argv) if part == "--tmpfs" and i != private)


def test_a_sandbox_writes_only_to_its_tmp_and_dev_shm_each_no_larger_than_its_disk_limit():
    """/dev and /dev/shm are folders in memory, which no limit on one process's memory counts."""
    from bleu_classroom import jail

    limits = jail.Limits(seconds=60, memory_mb=0, processes=16, disk_mb=4, max_output=1 << 16)
    code = (
        "for place in ('/dev/fill', '/dev/shm/fill', '/tmp/fill'):\n"
        "    written, said = 0, 'no error'\n"
        "    try:\n"
        "        with open(place, 'wb', buffering=0) as out:\n"
        "            for _ in range(16):\n"
        "                written += out.write(bytes(1 << 20))\n"
        "    except OSError as error:\n"
        "        said = error.strerror\n"
        "    print(place, written <= 4 << 20, said)\n"
        "open('/dev/null', 'w').write('device files still take writes')\n"
    )
    outcome = jail.run([*jail.python_command(), "-c", code], {}, b"", limits)
    assert outcome.stdout.decode().splitlines() == [
        "/dev/fill True Read-only file system",
        "/dev/shm/fill True No space left on device",
        "/tmp/fill True No space left on device",
    ], outcome.stderr
    assert outcome.exit_code == 0


def test_the_files_a_sandbox_may_hold_are_what_lessons_01_to_07_need(tmp_path):
    package = REPO / "bleu_scratch"
    assert set(units.LESSON_FILES) == {path.name for path in package.glob("lesson0[1-7]_*.py")}
    # Written alone, as the grader writes them, every lesson module of them imports, and needs all of them.
    copy = tmp_path / "bleu_scratch"
    for name in (*units.LESSON_FILES, *units.SUPPORT_FILES):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(package / name, copy / name)
    (copy / "__init__.py").write_text("")
    modules = ", ".join(f"bleu_scratch.{name[:-3]}" for name in units.LESSON_FILES)
    code = (
        f"import json, sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport {modules}\n"
        "print(json.dumps(sorted(m.__file__ for name, m in sys.modules.items() if name.startswith('bleu_scratch.'))))"
    )
    # -S: no site-packages, where an editable install would find the repository's package first.
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr == ""
    assert json.loads(done.stdout) == sorted(str(copy / name) for name in (*units.LESSON_FILES, *units.SUPPORT_FILES))


def test_a_functions_drawn_cases_change_with_the_files_its_sandbox_may_hold():
    files = {"lesson01_ngrams.py": b"one", "lesson06_corpus.py": b"six", "lesson07_smoothing.py": b"seven"}
    chosen = units.select_units(["ngrams", "corpus_bleu"])
    cases = grader.cases_for(files, 12345, chosen)[0]
    later = grader.cases_for(files | {"lesson06_corpus.py": b"six, edited"}, 12345, chosen)[0]
    assert later["ngrams"] == cases["ngrams"]  # lesson 06 is after lesson 01
    assert later["corpus_bleu"] != cases["corpus_bleu"]
    # Lesson 07's file is in the sandbox of corpus_bleu's smoothing cases: a table of answers kept there, filled
    # from one grade's feedback to the next, meets new cases each time.
    smoothing = grader.cases_for(files | {"lesson07_smoothing.py": b"edited"}, 12345, chosen)[0]
    assert smoothing["corpus_bleu"] != cases["corpus_bleu"]


def test_an_answer_beyond_any_float_is_a_wrong_answer_not_a_crash(edition, tmp_path):
    """A value beyond any float is compared with NLTK's exactly; a forged one is a malformed answer."""
    student = copy_of(edition, tmp_path, "student")
    set_function(
        student, "lesson04_brevity", "brevity_penalty", ["from fractions import Fraction", "return Fraction(10**400)"]
    )
    reason = grader.grade(student, only=["brevity_penalty"]).marks[0].reason
    assert reason.startswith("brevity_penalty(10, 12): returned Fraction(1000"), reason
    # A forged float beyond any float, sent by the sandbox, is a malformed message.
    line = json.dumps({"kind": "answer", "index": 0, "value": ["float", "0x1p+99999"]}).encode()
    assert grader._answers(line, 1)[1].startswith("sent the grader a malformed message (hexadecimal value too large")


@pytest.mark.parametrize("folder", ["bleu_scratch", "bleu_scratch/checks"])
def test_a_folder_the_grader_may_not_search_costs_that_submission_alone(edition, tmp_path, monkeypatch, folder):
    """A student can take the grader's permission away (chmod 000 a folder), which binds a grader not run as root."""
    student = copy_of(edition, tmp_path, "student")
    closed, stat = student / folder, Path.stat

    def refused(path: Path, **options):
        if path.parent == closed:
            raise PermissionError(13, "Permission denied", str(path))
        return stat(path, **options)

    monkeypatch.setattr(Path, "stat", refused)  # lstat and is_file call it too
    reasons = {(mark.points, mark.reason) for mark in grader.grade(student).marks}
    read = "bleu_scratch" if folder == "bleu_scratch" else "bleu_scratch/checks/__init__.py"
    assert reasons == {(0, f"cannot read {read}: Permission denied")}


def test_a_bubblewrap_without_the_sandboxs_options_stops_grading_in_one_line(tmp_path, monkeypatch):
    """The check before grading starts the sandbox every grade starts: an older bubblewrap has no --size."""
    from bleu_classroom import jail

    older = tmp_path / "bwrap"
    older.write_text(
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = --size ] && { echo "bwrap: Unknown option --size" >&2; exit 1; }; done\n'
        f'exec {shutil.which("bwrap")} "$@"\n',
        encoding="utf-8",
    )
    older.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(jail, "check", jail.check.__wrapped__)  # the process's first check is kept
    with pytest.raises(jail.SandboxUnavailable, match=r"bubblewrap cannot start a sandbox here \(bwrap: Unknown"):
        jail.check()
