"""``--version``, and both commands without their optional extras: the feature, or one line naming the extra.

tqdm is the extra ``[cli]`` (the progress bar), dask.distributed the extra
``[dask]`` (``--jobs``, ``--scheduler``), regex the extra ``[intl]``
(``--tokenize intl``), MeCab the extras ``[ja]`` and ``[ko]`` (``ja-mecab``,
``ko-mecab``). A missing one is simulated in a subprocess by
``sys.modules[name] = None``, which makes its import fail as if it were not
installed; the progress bar's case runs with stderr on a pseudo-terminal, as
at a user's terminal.
"""

import subprocess
import sys

import pytest

import bleu_scratch
from tests.cli.run_command import WMT15_LINE, write
from tests.lessons.test_sacrebleu_tokenizers import MISSING_EXTRA
from tests.terminal import run_in_terminal

# The command run with some modules missing: python -c WITHOUT MODULES COMMAND ARGS...
WITHOUT = """
import importlib, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
module, function = sys.argv[2].split(":")
sys.exit(getattr(importlib.import_module(module), function)(sys.argv[3:]))
"""
SCORE = "bleu_cli:main"
COMPARE = "bleu_cli.compare:main"
NO_BAR = "no progress bar: pip install 'bleu-scratch[cli]' for one"


def without(modules: str, command: str, *argv: str) -> list[str]:
    return [sys.executable, "-c", WITHOUT, modules, command, *argv]


@pytest.mark.parametrize("module, prog", [("bleu_cli", "bleu-scratch"), ("bleu_cli.compare", "bleu-scratch-compare")])
def test_version_as_a_module(module, prog):
    result = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{prog} {bleu_scratch.__version__}\n", "")
    assert result.stdout == f"{prog} 0.3.0\n"


def test_scores_with_numpy_alone_when_stderr_is_no_terminal(wmt15):
    result = subprocess.run(
        without("tqdm,distributed", SCORE, wmt15["google.ru"], wmt15["ref.ru"]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, WMT15_LINE + "\n", "")


def test_without_tqdm_a_terminal_gets_one_line_and_the_score(wmt15):
    status, out, shown = run_in_terminal(without("tqdm", SCORE, wmt15["google.ru"], wmt15["ref.ru"]), stdout_too=False)
    assert (status, out, shown) == (0, WMT15_LINE + "\n", f"bleu-scratch: {NO_BAR}\n")


def test_with_tqdm_a_terminal_gets_no_such_line(wmt15):
    # At most the bar itself, should scoring outlast its delay on a busy machine.
    status, out, shown = run_in_terminal(
        [sys.executable, "-m", "bleu_cli", wmt15["google.ru"], wmt15["ref.ru"]], stdout_too=False
    )
    assert (status, out) == (0, WMT15_LINE + "\n")
    assert NO_BAR not in shown and "Traceback" not in shown and "error" not in shown


def test_compare_without_tqdm_a_terminal_gets_one_line_and_the_table(tmp_path):
    baseline = write(tmp_path / "baseline.txt", b"a b c d\ne f g h\n")
    system = write(tmp_path / "system.txt", b"a b c x\ne f g h\n")
    reference = write(tmp_path / "ref.txt", b"a b c d\ne f g x\n")
    argv = [baseline, system, "--references", reference, "--samples", "20", "--tokenize", "none"]
    status, out, shown = run_in_terminal(without("tqdm", COMPARE, *argv), stdout_too=False)
    assert (status, shown) == (0, f"bleu-scratch-compare: {NO_BAR}\n")
    assert out.splitlines()[2].startswith("Baseline: ")


@pytest.mark.parametrize(
    "options, option",
    [
        (["--jobs", "2"], "--jobs"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
        (["--jobs", "3", "--sentence"], "--jobs"),
    ],
)
def test_a_cluster_without_dask_is_one_line_naming_the_extra(wmt15, options, option):
    result = subprocess.run(
        without("distributed", SCORE, wmt15["google.ru"], wmt15["ref.ru"], *options),
        capture_output=True,
        text=True,
        timeout=120,
    )
    expected = f"bleu-scratch: error: {option} needs dask.distributed: pip install 'bleu-scratch[dask]'\n"
    assert (result.returncode, result.stdout, result.stderr) == (2, "", expected)


def test_one_job_needs_no_dask(wmt15):
    result = subprocess.run(
        without("distributed", SCORE, wmt15["google.ru"], wmt15["ref.ru"], "--jobs", "1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, WMT15_LINE + "\n", "")


@pytest.mark.parametrize("command, prog", [(SCORE, "bleu-scratch"), (COMPARE, "bleu-scratch-compare")])
@pytest.mark.parametrize("name", MISSING_EXTRA)
def test_without_its_extra_a_tokenizer_is_one_line_naming_it(wmt15, command, prog, name):
    files = [wmt15["google.ru"], wmt15["ref.ru"], *(["--references", wmt15["ref.ru"]] if command == COMPARE else [])]
    result = subprocess.run(
        without("regex,MeCab,mecab_ko", command, *files, "--tokenize", name),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"{prog}: error: {MISSING_EXTRA[name]}\n")


@pytest.mark.parametrize("tool", ["sacrebleu-tok-", "torchmetrics-sacrebleu-tok-"])
@pytest.mark.parametrize("name", MISSING_EXTRA)
def test_without_its_extra_a_tool_of_as_is_one_line_naming_it(wmt15, tool, name):
    result = subprocess.run(
        without("regex,MeCab,mecab_ko", SCORE, wmt15["google.ru"], wmt15["ref.ru"], "--as", tool + name),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"bleu-scratch: error: {MISSING_EXTRA[name]}\n")
