"""The course tools' command line, ``bleu-classroom`` (``bleu-classroom --help`` lists its commands)."""

import argparse
import json
import math
import sys
import time
from pathlib import Path

from .errors import ClassroomError
from .grader import DEFAULT_BUDGET, DEFAULT_MEMORY_MB, grade
from .units import UNITS

# Limits below these would fail every function, the instructor's solutions too, and blame the student.
MIN_BUDGET = 1.0
MIN_MEMORY_MB = 128
DEFAULT_ASSIGNMENT = "bleu"  # the nbgrader assignment's name unless the instructor gives one
# What a command imports only when it runs, and how to install it. Grading imports no lesson: the
# grader's image (tools/grader_image.py) has none, and there only releasing stops for want of one.
FIXES = {
    "nbgrader": "pip install 'bleu-scratch[course]'",
    "bleu_scratch": "run it where a checkout of the repository is installed (pip install -e CHECKOUT)",
}


def seconds(text: str) -> float:
    """A ``--budget``: at least ``MIN_BUDGET`` seconds, which starting Python in the sandbox takes from it.

    >>> seconds("2.5")
    2.5
    >>> seconds("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0: give a finite number of seconds, at least 1 (starting the sandbox takes some)
    """
    value = float(text)
    if not MIN_BUDGET <= value < math.inf:  # nan too
        raise argparse.ArgumentTypeError(
            f"{text}: give a finite number of seconds, at least {MIN_BUDGET:g} (starting the sandbox takes some)"
        )
    return value


def megabytes(text: str) -> int:
    """A ``--memory-mb``: 0 for no limit, or at least ``MIN_MEMORY_MB``, below which Python and numpy may not start.

    >>> megabytes("0"), megabytes("512")
    (0, 512)
    >>> megabytes("5")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 5 MB is too little for Python and numpy to start: give at least 128, or 0 for no limit
    """
    value = int(text)
    if value != 0 and value < MIN_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"{text} MB is too little for Python and numpy to start: give at least {MIN_MEMORY_MB}, or 0 for no limit"
        )
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bleu-classroom", description="Release the student edition, grade it, run an nbgrader course."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    release_parser = commands.add_parser("release", help="write the student edition (solutions replaced by stubs)")
    release_parser.add_argument("out_dir", type=Path)
    release_parser.add_argument("--force", action="store_true", help="write into a non-empty directory")
    release_parser.add_argument(
        "--source", type=Path, metavar="CHECKOUT", help="the checkout to release (default: this editable install's)"
    )
    grade_parser = commands.add_parser("grade", help="grade the bleu_scratch package of a student edition")
    grade_parser.add_argument("directory", type=Path, nargs="?", default=Path("."))
    grade_parser.add_argument("--json", action="store_true", help="print the grades as JSON instead of a table")
    grade_parser.add_argument(
        "--only", nargs="+", metavar="NAME", help="grade only these exercises (01-06) or functions"
    )
    grade_parser.add_argument(
        "--budget", type=seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
        help=f"seconds each graded function may take in all, start and cases (default {DEFAULT_BUDGET:g})",
    )  # fmt: skip
    grade_parser.add_argument(
        "--memory-mb", type=megabytes, default=DEFAULT_MEMORY_MB, metavar="MB",
        help=f"memory each graded function may use (default {DEFAULT_MEMORY_MB}; 0: no limit)",
    )  # fmt: skip
    grade_parser.add_argument("--seed", type=int, help="the random cases' seed (default: the one the grader keeps)")
    tag_parser = commands.add_parser("tag-nbgrader", help="give the exercise and check cells nbgrader's cell metadata")
    tag_parser.add_argument("notebook_dir", type=Path, nargs="?", default=Path("notebooks"))
    course_parser = commands.add_parser("nbgrader-course", help="lay out an nbgrader course (source/ and its config)")
    course_parser.add_argument("course_dir", type=Path)
    course_parser.add_argument("--notebooks", nargs="+", metavar="NN", help="the notebooks, by number (default: all)")
    grades_parser = commands.add_parser("course-grades", help="notebook and package points by lesson, after autograde")
    grades_parser.add_argument("course_dir", type=Path)
    grades_parser.add_argument("--feedback", action="store_true", help="add the package marks to feedback pages")
    grades_format = grades_parser.add_mutually_exclusive_group()
    grades_format.add_argument("--json", action="store_true", help="print the grades as JSON instead of a table")
    grades_format.add_argument("--csv", type=Path, metavar="FILE", help="write one CSV row per student, for an LMS")
    for sub in (course_parser, grades_parser):
        sub.add_argument("--assignment", default=DEFAULT_ASSIGNMENT, help=f"(default {DEFAULT_ASSIGNMENT})")
    args = parser.parse_args(argv)
    try:
        if args.command == "tag-nbgrader":
            from .nbgrader_tags import tag_nbgrader_dir

            results = tag_nbgrader_dir(args.notebook_dir)
            for name, exercises, changed in results:
                said = "tagged" if changed else "unchanged"
                print(f"{name}: {exercises} exercise{'s' if exercises != 1 else ''}, {said}")
            print(f"{sum(changed for *_, changed in results)} of {len(results)} notebooks changed")
        elif args.command == "release":
            _release(args)
        elif args.command == "nbgrader-course":
            _nbgrader_course(args)
        elif args.command == "course-grades":
            _course_grades(args)
        else:
            report = grade(args.directory, args.budget, args.only, args.memory_mb, args.seed, cache=True)
            print(json.dumps(report.as_dict(), indent=2) if args.json else report.table())
    except ClassroomError as error:
        print(f"bleu-classroom {args.command}: error: {error}", file=sys.stderr)
        return 1
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in FIXES:
            raise
        print(f"bleu-classroom: error: {args.command} needs {missing}: {FIXES[missing]}", file=sys.stderr)
        return 2
    return 0


def _release(args: argparse.Namespace) -> None:
    from .release import REPO_ROOT, release

    started = time.perf_counter()
    edition = release(args.out_dir, force=args.force, source=args.source or REPO_ROOT)
    print(
        f"wrote the student edition to {args.out_dir}: {len(edition.files)} files, "
        f"{sum(map(len, edition.stubbed.values()))} functions to write in {len(edition.stubbed)} modules, "
        f"{sum(edition.notebook_exercises.values())} exercise cells in {len(edition.notebook_exercises)} notebooks "
        f"({time.perf_counter() - started:.1f}s)"
    )
    graded = {unit.name for unit in UNITS}
    ungraded = [
        f"{f} ({Path(m).name})" for m, names in sorted(edition.stubbed.items()) for f in names if f not in graded
    ]
    if ungraded:
        print(f"note: the grader does not grade these exercises: {', '.join(ungraded)}", file=sys.stderr)


def _nbgrader_course(args: argparse.Namespace) -> None:
    from .nbgrader_course import lay_out_course

    course = lay_out_course(args.course_dir, args.assignment, args.notebooks)
    print(
        f"wrote {args.course_dir / 'source' / course.assignment}: {len(course.notebooks)} notebooks, "
        f"the student edition's bleu_scratch ({len(course.student_modules)} modules to write) and data/; "
        f"and {args.course_dir / 'nbgrader_config.py'}\n"
        f"next, in {args.course_dir}: nbgrader generate_assignment {course.assignment}"
    )
    chosen = {int(name[:2]) for name in course.notebooks if name[:2].isdigit()}
    earlier = [f"{lesson:02d}" for lesson in range(1, max(chosen, default=0)) if lesson not in chosen]
    if earlier:  # the package is handed in whole: its earlier lessons are what these lessons call
        print(
            f"note: students hand in the whole package: lesson{'s' * (len(earlier) > 1)} {', '.join(earlier)} "
            "must be written in this assignment's bleu_scratch too (copied from their earlier assignments), "
            "or what calls them scores 0",
            file=sys.stderr,
        )


def _course_grades(args: argparse.Namespace) -> None:
    from .gradebook import add_package_feedback, course_grades, lms_csv, table

    if args.csv and (args.csv.is_dir() or not args.csv.parent.is_dir()):  # said before the grading, not after
        raise ClassroomError(f"cannot write {args.csv}: give a file name in a folder that exists")
    grades = course_grades(args.course_dir, args.assignment)
    for student in grades:
        if (reason := student.not_graded()) is not None:
            print(f"note: {student.student} {reason}", file=sys.stderr)
    if args.feedback:
        pages = add_package_feedback(args.course_dir, args.assignment, grades)
        first = "" if pages else f": run nbgrader generate_feedback {args.assignment} first, which writes them"
        print(f"added the package's marks to {pages} feedback pages{first}", file=sys.stderr)
    if args.json:
        print(json.dumps({"assignment": args.assignment, "students": [g.as_dict() for g in grades]}, indent=2))
    elif args.csv:
        try:
            args.csv.write_text(lms_csv(grades), encoding="utf-8")
        except OSError as error:
            raise ClassroomError(f"cannot write {args.csv}: {error.strerror or error}") from None
        print(f"wrote the grades of {len(grades)} students to {args.csv}")
    else:
        print(table(grades) if grades else f"no submission of {args.assignment} is autograded yet")
