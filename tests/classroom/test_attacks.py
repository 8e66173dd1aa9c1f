"""Attacks on the grader, one of each kind found so far, as a determined student would write them.

Each attack is a graded function's body in a student edition. Every one must
earn 0 points, change no file outside the submission, leave no process
behind, and end (the wall clock is the grader's: these tests assert outcomes,
never durations). The two honest functions beside them keep their points.
The later attacks, one submission each, are what a submission's folder holds
and what it says: each gets 0 with a reason, or the documented refusal.
"""

import hashlib
import os
import shutil
import warnings
from pathlib import Path

import psutil
import pytest

from bleu_classroom import cases, command, grader, jail, units
from bleu_classroom.oracle import NltkOracle
from tests.classroom.edition_tools import REPO, set_function, side_by_side

GRADER_FILE = Path(grader.__file__).resolve()
INSTRUCTOR_SOLUTION = REPO / "bleu_scratch" / "lesson03_precision.py"
MODULE = {unit.name: unit.module for unit in units.UNITS}

# Round one: each attack against a function of its own.
ROUND_ONE = {
    # Fake reports on standard output: a score line and a forged answer.
    "ngrams": [
        "print('score: 24/24')",
        'print(\'{"kind": "answer", "index": 0, "value": ["list", []]}\')',
        "return ['forged']",
    ],
    # Rewrite the grader's files, the instructor's solution and itself on disk.
    "count_ngrams": [
        "import os",
        f"for path in ({str(GRADER_FILE)!r}, {str(INSTRUCTOR_SOLUTION)!r}, __file__):",
        "    try:",
        "        open(path, 'a').write('# every answer is right')",
        "    except OSError:",
        "        pass",
        "return Counter()",
    ],
    # Lift the memory limit, then use more than it allows.
    "max_reference_counts": [
        "import resource",
        "try:",
        "    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))",
        "except (ValueError, OSError):",
        "    pass",
        "big = bytearray(3000 << 20)",
        "return Counter()",
    ],
    # Malformed messages on every descriptor that might reach the grader.
    "clipped_counts": [
        "import os",
        "for fd in range(0, 20):",
        "    try:",
        '        os.write(fd, b\'not json\\n{"kind": "answer", "index": 999}\\n\')',
        "    except OSError:",
        "        pass",
        "return hypothesis_counts",
    ],
    # Keep-alives: messages forever, hoping to reset a clock.
    "modified_precision": [
        "import os, time",
        "while True:",
        '    os.write(1, b\'{"kind": "imported", "file": "x"}\\n\')',
        "    time.sleep(0.1)",
    ],
    # Kill the parent, the namespace's first process, and every process it can signal.
    "closest_ref_length": [
        "import os, signal",
        "for target in (os.getppid(), 1, -1):",
        "    try:",
        "        os.kill(target, signal.SIGKILL)",
        "    except OSError:",
        "        pass",
        "return -1",
    ],
    # NLTK by another path: anywhere on the file system, through /proc, or its site-packages.
    "sentence_stats": [
        "import os, sys",
        "found = []",
        "for top in ('/', '/proc/self/root', '/proc/1/root'):",
        "    for folder, subfolders, files in os.walk(top):",
        "        subfolders[:] = [s for s in subfolders if s not in ('proc', 'sys', 'dev', 'share', 'include')]",
        "        if folder.endswith(os.sep + 'nltk'):",
        "            found.append(folder)",
        "        if 'lesson03_precision.py' in files and not folder.endswith('/submission/bleu_scratch'):",
        "            found.append(folder)",
        "if found:",
        "    raise SystemExit(f'found {found[:3]}')",
        "raise RuntimeError('nothing of NLTK or the instructor anywhere')",
    ],
    # A later lesson's working code, copied into the student's folder (see below).
    "corpus_stats": [
        "from bleu_scratch.lesson10_batch import batch_corpus_stats",
        "return batch_corpus_stats(list_of_references, hypotheses, max_n)",
    ],
    # Links and directory handles leading out of the folder.
    "corpus_bleu": [
        "import os",
        "os.symlink('/', '/tmp/out')",
        "root = os.open('/', os.O_RDONLY)",
        f"for path in ({str(INSTRUCTOR_SOLUTION.relative_to('/'))!r}, 'etc/shadow'):",
        "    try:",
        "        os.open(path, os.O_RDONLY, dir_fd=root)",
        "        raise SystemExit('read ' + path)",
        "    except FileNotFoundError:",
        "        pass",
        "return -1.0",
    ],
}
# Round two: processes, fills and a table of answers.
ROUND_TWO = {
    # A daemon by double fork, and a process started with subprocess, both meant to outlive the grade.
    "ngrams": [
        "import os, subprocess",
        "subprocess.Popen(['sleep', '600'], start_new_session=True)",
        "if os.fork() == 0:",
        "    os.setsid()",
        "    if os.fork() == 0:",
        "        import time",
        "        time.sleep(600)",
        "    os._exit(0)",
        "return []",
    ],
    # A fork bomb.
    "count_ngrams": [
        "import os",
        "children = 0",
        "try:",
        "    while children < 100_000:",
        "        if os.fork() == 0:",
        "            import time",
        "            time.sleep(600)",
        "        children += 1",
        "except OSError:",
        "    pass",
        "return Counter()",
    ],
    # Fill the disk: the private /tmp, the working folder, the submission's copy.
    "max_reference_counts": [
        "import os",
        "block = b'x' * (1 << 20)",
        "for place in ('/tmp/fill', 'fill', '/submission/fill', '/fill'):",
        "    try:",
        "        with open(place, 'wb') as out:",
        "            for _ in range(4096):",
        "                out.write(block)",
        "    except OSError:",
        "        pass",
        "return Counter()",
    ],
    # Fill the memory, a bit at a time.
    "clipped_counts": ["kept = []", "while True:", "    kept.append(bytearray(1 << 20))"],
    # Flood the grader with output.
    "closest_ref_length": ["import os", "while True:", "    os.write(1, b'x' * (1 << 20))"],
}


def table_of_answers() -> list[str]:
    """A body for modified_precision that looks up NLTK's answers to the cases the grader once shipped."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fixed = cases.fixed_cases(NltkOracle())["modified_precision"]
    table = {repr(args): (value.numerator, value.denominator) for args, value in fixed}
    return [
        f"answers = {table!r}",
        "return Precision(*answers[repr((references, hypothesis, n))])",
    ]


HONEST = {1: ["brevity_penalty"], 2: ["brevity_penalty"]}


def snapshot() -> dict[str, str]:
    """Every file of the instructor's repository that grading must not change, by hash."""
    files = [*REPO.glob("bleu_classroom/*.py"), *REPO.glob("bleu_scratch/*.py"), *REPO.glob("tests/classroom/*.py")]
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


def sandboxes_left() -> list[psutil.Process]:
    left = []
    for process in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(process.info["cmdline"] or [])
        # The sandbox's own processes, and the daemon the first attack of round two starts with subprocess.
        if (
            "bleu_grading_sandbox" in cmdline
            or cmdline == "sleep 600"
            or cmdline.startswith("bwrap ")
            and "/submission" in cmdline
        ):
            left.append(process)
    return left


def package_copy(edition: Path, target: Path) -> Path:
    shutil.copytree(edition / "bleu_scratch", target / "bleu_scratch")
    return target


def written_attack(edition: Path, folder: Path, bodies: dict[str, list[str]], honest: list[str]) -> Path:
    """``folder`` with the attacking submission in ``student``, and another student's submission in ``other``."""
    # The package is all the grader reads of a submission.
    student = package_copy(edition, folder / "student")
    for name, body in bodies.items():
        set_function(student, MODULE[name], name, body)
    for name in honest:
        set_function(student, MODULE[name], name)
    for module in ("lesson10_batch.py", "lesson10_arrays.py"):
        (student / "bleu_scratch" / module).write_bytes((REPO / "bleu_scratch" / module).read_bytes())
    package_copy(edition, folder / "other")
    return folder


def attack(folder: Path, names: list[str], budget: float) -> dict:
    student, other = folder / "student", folder / "other"
    before, others_before = (
        snapshot(),
        hashlib.sha256(b"".join(p.read_bytes() for p in sorted(other.rglob("*.py")))).digest(),
    )
    submission_before = sorted(p.name for p in student.rglob("*"))
    report = grader.grade(student, only=names, budget=budget, memory_mb=512)
    assert snapshot() == before, "grading changed the instructor's files"
    assert hashlib.sha256(b"".join(p.read_bytes() for p in sorted(other.rglob("*.py")))).digest() == others_before
    assert sorted(p.name for p in student.rglob("*")) == submission_before, "the sandbox wrote in the submission"
    assert not psutil.wait_procs(sandboxes_left(), timeout=120)[1], "a process outlived the grade"
    return {mark.unit.name: mark for mark in report.marks}


@pytest.fixture(scope="module")
def rounds(edition, tmp_path_factory) -> list[dict]:
    """Both rounds, graded at once: most of their time is waiting for the limits to trip."""
    # Round one's search of the sandbox's files must end on its own to report what it found: on a loaded
    # machine that takes more than 5 s, so its round has a budget it trips only by looping (the keep-alives).
    # Round two's limits tests read which limit tripped, so its budget stays 5 s.
    attacks = [
        (ROUND_ONE, HONEST[1], 30),
        ({**ROUND_TWO, "modified_precision": table_of_answers()}, HONEST[2], 5),
    ]
    # Written one at a time (see edition_tools.side_by_side), graded side by side.
    rounds = {
        written_attack(edition, tmp_path_factory.mktemp("round"), bodies, honest): ([*bodies, *honest], budget)
        for bodies, honest, budget in attacks
    }
    return list(side_by_side(lambda folder: attack(folder, *rounds[folder]), rounds).values())


@pytest.fixture(scope="module")
def round_one(rounds) -> dict:
    return rounds[0]


@pytest.fixture(scope="module")
def round_two(rounds) -> dict:
    return rounds[1]


@pytest.mark.parametrize("name", ROUND_ONE)
def test_round_one_earns_nothing(round_one, name):
    assert round_one[name].points == 0, round_one[name].reason


@pytest.mark.parametrize("name", [*ROUND_TWO, "modified_precision"])
def test_round_two_earns_nothing(round_two, name):
    assert round_two[name].points == 0, round_two[name].reason


def test_honest_functions_keep_their_points_beside_the_attacks(round_one, round_two):
    for marks in (round_one, round_two):
        assert {name: m.points for name, m in marks.items() if m.points} == {"brevity_penalty": 2}


def test_what_the_attacks_found_is_nothing(round_one):
    # Nothing of NLTK or the instructor exists in the sandbox; no link or handle leads out of it.
    assert "raised RuntimeError at lesson05_sentence.py:" in round_one["sentence_stats"].reason
    assert "nothing of NLTK or the instructor anywhere" in round_one["sentence_stats"].reason
    # A later lesson is not in the sandbox: the copy holds the lessons up to the graded function's own.
    assert "No module named 'bleu_scratch.lesson10_batch'" in round_one["corpus_stats"].reason
    assert "returned -1.0" in round_one["corpus_bleu"].reason


def test_limits_hold_whichever_trips_first(round_two):
    # The daemons: whether the pids limit stops a fork or not, they ended with the sandbox (checked above).
    assert "returned Counter({})" in round_two["count_ngrams"].reason or "stopped" in round_two["count_ngrams"].reason
    # The private /tmp is full at 64 MB; nothing else is writable.
    assert "returned Counter({})" in round_two["max_reference_counts"].reason
    reason = round_two["clipped_counts"].reason
    assert "512 MB" in reason or "did not finish within 5s" in reason, reason
    reason = round_two["closest_ref_length"].reason
    assert "more than 16 MB" in reason or "did not finish within 5s" in reason, reason


def test_a_table_of_the_shipped_cases_answers_earns_nothing(round_two):
    # The fixed cases are in the table; the ones drawn when grading are not.
    assert "raised KeyError" in round_two["modified_precision"].reason, round_two["modified_precision"].reason


# Round three: what the submission's folder holds besides its functions' bodies. A refusal comes before
# any sandbox starts: each submission is graded alone.
LINKED = ["bleu_scratch", "bleu_scratch/lesson04_brevity.py", "bleu_scratch/checks"]


@pytest.mark.parametrize("whose", ["a classmate's", "the instructor's"])
@pytest.mark.parametrize("linked", LINKED)
def test_a_package_linked_to_another_earns_nothing(edition, tmp_path, whose, linked):
    # A link committed to git, or planted by the student's kernel under nbgrader, to a package with every function.
    other = REPO if whose == "the instructor's" else package_copy(REPO, tmp_path / "alice")
    student = package_copy(edition, tmp_path / "student")
    place = student / linked
    if place.is_dir():
        shutil.rmtree(place)
    else:
        place.unlink()
    target = other / linked if whose == "the instructor's" else Path(os.path.relpath(other / linked, place.parent))
    place.symlink_to(target)
    report = grader.grade(student)
    assert report.score == 0
    assert {mark.reason for mark in report.marks} == {
        f"{linked} is a symbolic link (to {target}): the package must be the submission's own files"
    }


def test_odd_files_beside_the_lessons_are_never_read(edition, tmp_path):
    # Each of these crashed or hung the grading of the whole class when every .py file was hashed.
    student = package_copy(edition, tmp_path / "student")
    set_function(student, "lesson04_brevity", "brevity_penalty")
    for folder in (student / "bleu_scratch", student / "bleu_scratch" / "checks"):
        (folder / "notes.py").mkdir()
        (folder / "extra.py").symlink_to("/nonexistent")
        os.mkfifo(folder / "pipe.py")
        (folder / "zero.py").symlink_to("/dev/zero")
        sparse(folder / "sparse.py")
    marks = {mark.unit.name: mark for mark in grader.grade(student, only=["04"]).marks}
    assert (marks["brevity_penalty"].points, marks["brevity_penalty"].reason) == (2, "")
    assert marks["closest_ref_length"].reason.startswith("not written yet")


def sparse(path: Path) -> None:
    """A file of 3 GB that takes no room on disk: read whole, it fills the memory."""
    path.touch()
    os.truncate(path, 3 << 30)


ODD_MODULES = {
    "a folder": (Path.mkdir, "is not a regular file"),
    "a FIFO": (os.mkfifo, "is not a regular file"),
    "3 GB, sparse": (sparse, "is larger than 1 MB"),
}


@pytest.mark.parametrize("odd", ODD_MODULES)
def test_a_module_of_the_package_that_is_no_plain_file_earns_nothing(edition, tmp_path, odd):
    make, said = ODD_MODULES[odd]
    student = package_copy(edition, tmp_path / "student")
    module = student / "bleu_scratch" / "lesson04_brevity.py"
    module.unlink()
    make(module)
    report = grader.grade(student, only=["01", "04"])
    assert report.score == 0
    assert {mark.reason for mark in report.marks} == {f"bleu_scratch/lesson04_brevity.py {said}"}


def renamed_lesson_10(student: Path) -> None:
    """Lesson 10's batch counting, with what it imports of lessons 07 and 10, under names of no lesson."""
    names = {"lesson10_batch": "batch", "lesson10_arrays": "arrays", "lesson10_smoothing": "smoothing10"}
    names["lesson07_smoothing"] = "smoothing07"
    for old, new in names.items():
        source = (REPO / "bleu_scratch" / f"{old}.py").read_text(encoding="utf-8")
        for other_old, other_new in names.items():
            source = source.replace(f"from .{other_old} import", f"from .{other_new} import")
        (student / "bleu_scratch" / f"{new}.py").write_text(source, encoding="utf-8")


def test_modules_of_the_students_own_are_not_in_the_sandbox(edition, tmp_path):
    # Working code under a name of no lesson: NLTK's vendored (here the instructor's brevity penalty stands for
    # it), at the package's top and in its support folder, and lesson 10 renamed (docs/grader.md: a later
    # lesson neither costs nor earns).
    student = package_copy(edition, tmp_path / "student")
    brevity = (REPO / "bleu_scratch" / "lesson04_brevity.py").read_bytes()
    (student / "bleu_scratch" / "vendor_bleu.py").write_bytes(brevity)
    (student / "bleu_scratch" / "checks" / "vendored.py").write_bytes(brevity.replace(b"from .", b"from ..", 3))
    set_function(
        student,
        "lesson04_brevity",
        "brevity_penalty",
        ["from bleu_scratch.vendor_bleu import brevity_penalty", "return brevity_penalty(closest_ref_len, hyp_len)"],
    )
    set_function(
        student,
        "lesson04_brevity",
        "closest_ref_length",
        [
            "from bleu_scratch.checks.vendored import closest_ref_length",
            "return closest_ref_length(references, hyp_len)",
        ],
    )
    renamed_lesson_10(student)
    set_function(
        student,
        "lesson06_corpus",
        "corpus_stats",
        [
            "from bleu_scratch.batch import batch_corpus_stats",
            "return batch_corpus_stats(list_of_references, hypotheses, max_n)",
        ],
    )
    marks = {mark.unit.name: mark for mark in grader.grade(student, only=["04", "corpus_stats"]).marks}
    assert {name: mark.points for name, mark in marks.items()} == dict.fromkeys(marks, 0)
    for name, missing in (
        ("brevity_penalty", "vendor_bleu"),
        ("closest_ref_length", "checks.vendored"),
        ("corpus_stats", "batch"),
    ):
        assert "raised ModuleNotFoundError at lesson0" in marks[name].reason, marks[name].reason
        assert f"No module named 'bleu_scratch.{missing}'" in marks[name].reason, marks[name].reason


def test_a_table_of_every_answer_a_grading_showed_earns_nothing(edition, tmp_path):
    # Each miss shows the case and NLTK's answer: kept over gradings, or pooled by a class, they make a table
    # of every case a package met. A package changed to hold that table meets new random cases.
    student = package_copy(edition, tmp_path / "student")
    shown, _ = grader.cases_for(
        grader.submitted_files(student), grader.kept_seed(), units.select_units(["modified_precision"])
    )
    table = {repr(args): (value.numerator, value.denominator) for args, value in shown["modified_precision"]}
    body = [f"answers = {table!r}", "return Precision(*answers[repr((references, hypothesis, n))])"]
    set_function(student, "lesson03_precision", "modified_precision", body)
    first, again = (grader.grade(student, only=["modified_precision"]).marks[0] for _ in range(2))
    assert first.points == 0
    assert "raised KeyError at lesson03_precision.py:" in first.reason, first.reason
    assert again == first  # graded again unchanged: the same cases, the same mark


FORGED = "\r\x1b[2K04 brevity penalty  brevity_penalty  2/2  ok\nscore: 24/24\x1b[8m"


def test_what_a_submission_says_cannot_redraw_the_instructors_terminal(edition, tmp_path):
    # An exception's message and a class's name, with a carriage return, a new line and terminal escapes.
    student = package_copy(edition, tmp_path / "student")
    set_function(student, "lesson04_brevity", "brevity_penalty", [f"raise RuntimeError({FORGED!r})"])
    set_function(student, "lesson04_brevity", "closest_ref_length", [f"return type({FORGED!r}, (), {{}})()"])
    linked = package_copy(edition, tmp_path / "linked")
    shutil.rmtree(linked / "bleu_scratch")
    (linked / "bleu_scratch").symlink_to(FORGED)
    for report in (grader.grade(student, only=["04"]), grader.grade(linked, only=["04"])):
        lines = report.table().splitlines()
        assert len(lines) == 4 and lines[-1] == "score: 0/4", lines
        assert all(line.isprintable() for line in lines), lines
        assert all(r"\x1b[2K04 brevity penalty" in mark.reason for mark in report.marks), report.marks


def test_as_root_without_a_control_group_grading_stops_with_one_line(edition, tmp_path, monkeypatch, capsys):
    # A limit on the user's processes does not bind root: there a fork loop reached 100 children.
    monkeypatch.setattr(jail, "CGROUP_ROOTS", (tmp_path,))
    monkeypatch.setattr(jail.os, "geteuid", lambda: 0)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert command.main(["grade", str(edition), "--only", "ngrams"]) == 1
    assert capsys.readouterr() == ("", f"bleu-classroom grade: error: {jail.ROOT_WITHOUT_CGROUP}\n")
