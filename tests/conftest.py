"""Shared fixtures: the comparison with NLTK 3.10.4 and the BLEU paper's examples.

``same_as_nltk(our_function, nltk_function, *args)`` runs both functions on the
same input and asserts what the project promises: the same value bit for bit,
of the same type (the int 0 where NLTK returns the int 0, a list where NLTK
returns a list), with the same UserWarnings, or the same exception type.
"""

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothingFunction

import tests.quick
from bleu_scratch import SmoothingFunction
from bleu_scratch.notebook.exercises import unwritten_exercise

DATA = Path(__file__).parent.parent / "data"

# Every property test runs the same generated cases each time, with no example
# database, so a failure reproduces on any machine; the tests set max_examples.
settings.register_profile(
    "reproducible", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("reproducible")


@dataclass
class Outcome:
    value: object
    warnings: list[str]
    error: type | None


def run(function, *args, **kwargs) -> Outcome:
    """Call ``function`` and record its value, its UserWarnings and its exception type."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 (the type is what we compare)
            if unwritten_exercise(error):
                # Only in the student edition: an exercise not written yet is no
                # answer to compare, and its test is skipped (see conftest.py there).
                raise
            value, error_type = None, type(error)
        else:
            error_type = None
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    return Outcome(value, messages, error_type)


def assert_identical(ours: object, theirs: object) -> None:
    """Equal with ``==``, same type, recursively through lists (no tolerance).

    A precision is NLTK's own Fraction subclass there and ``Precision`` here:
    both must be Fractions with the same raw (unreduced) numerator and denominator.
    """
    if isinstance(theirs, Fraction):
        assert isinstance(ours, Fraction), f"{ours!r} is not a Fraction"
        assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
        return
    assert type(ours) is type(theirs), f"type {type(ours).__name__} != NLTK's {type(theirs).__name__}"
    if isinstance(theirs, list):
        assert len(ours) == len(theirs)
        for our_item, their_item in zip(ours, theirs):
            assert_identical(our_item, their_item)
    elif isinstance(theirs, float) and math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == theirs, f"{ours!r} != NLTK's {theirs!r}"


def check_same_as_nltk(ours, theirs, *args, **kwargs) -> Outcome:
    """Run both functions on the same arguments; assert identical outcomes; return NLTK's."""
    nltk_outcome = run(theirs, *args, **kwargs)
    our_outcome = run(ours, *args, **kwargs)
    assert our_outcome.error is nltk_outcome.error, f"ours raised {our_outcome.error}, NLTK raised {nltk_outcome.error}"
    assert_identical(our_outcome.value, nltk_outcome.value)
    assert our_outcome.warnings == nltk_outcome.warnings
    return nltk_outcome


@pytest.fixture(scope="session")
def same_as_nltk():
    return check_same_as_nltk


@pytest.fixture(scope="session")
def record():
    return run


def both_smoothers(method: str | None, **parameters):
    """The same smoothing method (e.g. "method5") from ours and from NLTK; None for none."""
    if method is None:
        return None, None
    return (
        getattr(SmoothingFunction(**parameters), method),
        getattr(NltkSmoothingFunction(**parameters), method),
    )


@pytest.fixture(scope="session")
def smoothers():
    return both_smoothers


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


# Papineni et al. (2002), Example 1, as the issue gives them (no final period).
PAPINENI_CANDIDATE_1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
PAPINENI_CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
PAPINENI_REFERENCES = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
# Example 2.
PAPINENI_THE_CANDIDATE = "the the the the the the the"
PAPINENI_THE_REFERENCES = ["The cat is on the mat", "There is a cat on the mat"]


@dataclass(frozen=True)
class PapineniExamples:
    candidate_1: list[str]
    candidate_2: list[str]
    references: list[list[str]]
    the_candidate: list[str]
    the_references: list[list[str]]


def papineni(lowercase: bool) -> PapineniExamples:
    def tokenize(text: str) -> list[str]:
        return (text.lower() if lowercase else text).split()

    return PapineniExamples(
        tokenize(PAPINENI_CANDIDATE_1),
        tokenize(PAPINENI_CANDIDATE_2),
        [tokenize(r) for r in PAPINENI_REFERENCES],
        tokenize(PAPINENI_THE_CANDIDATE),
        [tokenize(r) for r in PAPINENI_THE_REFERENCES],
    )


@pytest.fixture(scope="session")
def paper() -> PapineniExamples:
    """The paper's examples lowercased and split on whitespace, as the paper counts them."""
    return papineni(lowercase=True)


@pytest.fixture(scope="session")
def paper_cased() -> PapineniExamples:
    """The same sentences with case kept (plain ``str.split()``)."""
    return papineni(lowercase=False)


@pytest.fixture(scope="session")
def dask_client():
    """A client of a real Dask cluster, two worker processes on 127.0.0.1, shared by the session and stopped at
    its end."""
    from bleu_scratch.lesson10_parallel import local_cluster

    with local_cluster(2) as client:
        yield client


@dataclass(frozen=True)
class Wmt17:
    """WMT17 English-German (data/wmt17-en-de-systems/): 16 systems' files and the reference, LIUM-NMT.4900 the
    baseline."""

    folder: Path

    def system_path(self, name: str) -> str:
        return str(self.folder / "systems" / f"newstest2017.{name}.en-de")

    @property
    def reference_path(self) -> str:
        return str(self.folder / "newstest2017.ref.de")

    @property
    def names(self) -> list[str]:
        """The systems' short names (as in published-figures.json), the baseline first."""
        names = sorted(
            path.name.removeprefix("newstest2017.").removesuffix(".en-de")
            for path in (self.folder / "systems").iterdir()
        )
        return ["LIUM-NMT.4900", *(name for name in names if name != "LIUM-NMT.4900")]


@pytest.fixture(scope="session")
def wmt17() -> Wmt17:
    return Wmt17(DATA / "wmt17-en-de-systems")


# The quick loop, `pytest -m "not slow"`, leaves out the notebooks under nbval and lesson 00's environment check,
# the browser, nbgrader, the grader and its attacks, the student edition, Dask clusters, the benchmarks, the
# wheel, and the command's tests that start it in a process of its own on odd streams, a FIFO, a megabyte line
# or without its extras, and beside sacrebleu's command line or the guides: processes and servers, each test
# seconds long. It runs each property test on a tenth of its generated cases (tests/quick.py). `pytest` keeps all.
ROOT = Path(__file__).resolve().parents[1]
# Test files that are slow as a whole, relative to the repository.
SLOW_FILES = {
    "tests/test_pages_in_chromium.py",  # a real headless browser
    "tests/benchmarks/test_benchmarks.py",  # the benchmark scripts, whole processes
    "tests/tools/test_repository.py",
    "tests/classroom/test_nbgrader.py",  # real nbgrader
    "tests/classroom/test_edition.py",  # a student edition used as a student uses it
    "tests/classroom/test_written_lessons.py",
    "tests/classroom/test_grader.py",  # a graded process per function
    "tests/classroom/test_attacks.py",  # the attacks, each graded in the sandbox until a limit stops it
    "tests/classroom/test_one_truth.py",
    "tests/classroom/test_gradebook.py",
    "tests/classroom/test_packaging.py",
    "tests/classroom/test_release.py",
    "tests/classroom/test_leaks.py",  # writes whole editions
    "tests/cli/test_signals.py",  # commands stopped mid-run, clusters among them
    "tests/cli/test_extras.py",  # the commands in processes without their extras, some at a terminal
    "tests/cli/test_guides_examples.py",  # the guides' console examples, each command a process
    "tests/cli/test_sacrebleu_command_line.py",  # sacrebleu's command line, a process each time
    "tests/lessons/test_parallel.py",  # Dask clusters
    "tests/lessons/test_wmt17_relatives.py",  # 16 systems scored by every relative
    "tests/notebooks/test_environment_check.py",  # lesson 00's check, importing every package, in a process
}
# Single slow tests in otherwise quick files: all 16 WMT17 systems, or thousands of resamples.
SLOW_TESTS = {
    "tests/cli/test_compare.py::test_lowercase_is_sacrebleus_lc",
    "tests/cli/test_compare.py::test_a_system_that_differs_in_no_trial_gets_sacrebleus_p_value_and_no_star",
    "tests/lessons/test_significance.py::test_paired_bootstrap_on_wmt17_systems_equals_sacrebleu",
    "tests/lessons/test_significance.py::test_the_recorded_sacrebleu_runs_are_ours",
    "tests/lessons/test_significance.py::test_bootstrap_p_values_match_moses_within_0_01",
    "tests/lessons/test_significance.py::test_randomization_p_values_match_multeval_within_0_01",
    "tests/lessons/test_significance.py::test_approximate_randomization_equals_sacrebleu",
    # sacrebleu's paired tests on every tokenizer, its approximate randomization with 1,000 resamples each time
    "tests/lessons/test_significance.py::test_every_sacrebleu_tokenizer_gives_sacrebleus_numbers",
    "tests/cli/test_compare.py::test_json_is_sacrebleus_paired_bootstrap",
    "tests/cli/test_compare.py::test_table_like_sacrebleus",  # the same run of sacrebleu's as the test above
    "tests/cli/test_compare.py::test_json_is_sacrebleus_approximate_randomization",
    "tests/lessons/test_atlas.py::test_wmt17_systems_by_every_tool",
    # a kernel, run cell by cell with a module saved in between
    "tests/notebooks/test_autoreload.py::test_a_module_saved_between_two_cells_is_what_the_next_cell_runs",
    # a JupyterLab server, started as the learner's command starts it
    "tests/tools/test_lessons_command.py::test_jupyterlab_starts_for_this_user_with_lesson_00_and_the_package_in_its_file_browser",
    # a real virtual environment made again; three nbgrader courses laid out, each from a student edition
    "tests/tools/test_lessons_command.py::test_an_environment_an_older_python_left_is_made_again",
    "tests/classroom/test_command.py::test_an_assignment_of_later_lessons_says_the_earlier_ones_are_handed_in_too",
    # the command in a process of its own: on closed or full streams, waiting for a FIFO's writer, on a line of a
    # megabyte (the tests of test_streams.py and test_faults.py that call it in this process stay quick)
    "tests/cli/test_streams.py::test_a_full_disk_on_stdout_is_one_line_and_status_2",
    "tests/cli/test_streams.py::test_a_closed_stdout_is_one_line_and_status_2",
    "tests/cli/test_streams.py::test_reading_a_closed_stdin_is_one_line_and_status_2",
    "tests/cli/test_streams.py::test_with_stderr_closed_an_error_never_reaches_stdout",
    "tests/cli/test_streams.py::test_a_line_break_in_a_file_name_stays_in_the_one_line",
    "tests/cli/test_streams.py::test_scores_when_nothing_goes_wrong",
    "tests/cli/test_faults.py::test_a_fifo_with_no_writer_is_waited_for_and_the_wait_said_on_one_line",
    "tests/cli/test_faults.py::test_a_signal_while_waiting_for_a_fifo_writer_stops_the_command",
    "tests/cli/test_faults.py::test_a_line_over_the_limit_is_refused_naming_file_line_and_limit",
    "tests/cli/test_faults.py::test_a_line_at_the_limit_is_scored",
}
# Words in a test's name that say it starts a cluster.
CLUSTER_WORDS = ("jobs", "scheduler", "cluster", "dask", "worker")


# tools/check.sh runs the tests in three processes (pytest-xdist, --dist loadscope): each process takes a whole
# module at a time (a notebook's cells share its kernel; a module's tests share its module-scoped fixtures), and
# the modules named here go to one process together, since they share a session fixture too long to make twice.
SAME_PROCESS = {
    # the autograded nbgrader course (tests/classroom/conftest.py)
    "tests/classroom/test_gradebook.py": "nbgrader course",
    "tests/classroom/test_nbgrader.py": "nbgrader course",
}


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist (plain `pytest`), no such hook exists
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getoption("dist") != "loadscope":
        return None  # pytest-xdist's own scheduler for the mode asked for
    from xdist.scheduler import LoadScopeScheduling

    class ModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SAME_PROCESS.get(scope, scope)

    return ModulesTogether(config, log)


def pytest_configure(config: pytest.Config) -> None:
    tests.quick.QUICK = "not slow" in (config.option.markexpr or "")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path)).resolve()
        where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        name = item.nodeid.split("::", 1)[-1]
        if (
            path.suffix == ".ipynb"
            or where in SLOW_FILES
            or f"{where}::{name.split('[')[0]}" in SLOW_TESTS
            or "dask_client" in getattr(item, "fixturenames", ())
            or (where.startswith("tests/") and any(word in name.lower() for word in CLUSTER_WORDS))
        ):
            item.add_marker(pytest.mark.slow)
