"""Standard streams closed or full, a file name with a line break, a file written to while it is scored.

Whatever goes wrong, the command ends with one line on stderr and exit status
2, and stdout gets nothing: never a partial result, never a traceback. Each
command runs in a process of its own, with its streams as a shell would set
them up (closed, or /dev/full).
"""

import subprocess
import sys
from pathlib import Path

import pytest

from bleu_cli.errors import Changed
from bleu_cli.inputs import file_slices, read_slice
from tests.cli.run_command import WMT15_LINE

SCORE = [sys.executable, "-m", "bleu_cli"]
COMPARE = [sys.executable, "-m", "bleu_cli.compare"]


def run(command: list[str], closed: str = "", **streams) -> subprocess.CompletedProcess:
    """``command``, with the stream ``closed`` (0, 1 or 2) closed as a shell closes it (``>&-``)."""
    if closed:
        command = ["sh", "-c", f'exec "$@" {closed}>&-', "sh", *command]
    return subprocess.run(command, timeout=120, **streams)


def commands(wmt15) -> dict[str, list[str]]:
    hypothesis, reference = wmt15["google.ru"], wmt15["ref.ru"]
    return {
        "bleu-scratch": [*SCORE, hypothesis, reference],
        "bleu-scratch --sentence": [*SCORE, hypothesis, reference, "--sentence"],
        "bleu-scratch --as sacrebleu": [*SCORE, hypothesis, reference, "--as", "sacrebleu"],
        "bleu-scratch-compare": [*COMPARE, reference, hypothesis, "--references", reference, "--samples", "10"],
    }


@pytest.mark.parametrize(
    "name", ["bleu-scratch", "bleu-scratch --sentence", "bleu-scratch --as sacrebleu", "bleu-scratch-compare"]
)
def test_a_full_disk_on_stdout_is_one_line_and_status_2(wmt15, name):
    with open("/dev/full", "w") as full:
        result = run(commands(wmt15)[name], stdout=full, stderr=subprocess.PIPE, text=True)
    prog = name.split()[0]
    assert (result.returncode, result.stderr) == (
        2,
        f"{prog}: error: cannot write the output: No space left on device\n",
    )


@pytest.mark.parametrize("name", ["bleu-scratch", "bleu-scratch-compare"])
def test_a_closed_stdout_is_one_line_and_status_2(wmt15, name):
    result = run(
        commands(wmt15)[name],
        closed="1",
        stderr=subprocess.PIPE,
        text=True,
    )
    assert (result.returncode, result.stderr) == (
        2,
        f"{name}: error: cannot write the output: standard output is closed\n",
    )


@pytest.mark.parametrize("command", [SCORE + ["-"], COMPARE + ["-"]], ids=["bleu-scratch", "bleu-scratch-compare"])
def test_reading_a_closed_stdin_is_one_line_and_status_2(wmt15, command):
    files = [wmt15["ref.ru"]] if command[2] == "bleu_cli" else [wmt15["google.ru"], "--references", wmt15["ref.ru"]]
    result = run(command + files, capture_output=True, text=True, closed="0")
    prog = "bleu-scratch" if command[2] == "bleu_cli" else "bleu-scratch-compare"
    assert (result.returncode, result.stdout, result.stderr) == (
        2,
        "",
        f"{prog}: error: cannot read -: standard input is closed\n",
    )


def test_with_stderr_closed_an_error_never_reaches_stdout(wmt15, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    result = run([*SCORE, wmt15["google.ru"], str(short)], capture_output=True, text=True, closed="2")
    assert (result.returncode, result.stdout) == (2, "")


def test_a_line_break_in_a_file_name_stays_in_the_one_line(tmp_path):
    missing = str(tmp_path / "no\nsuch.txt")
    result = run([*SCORE, missing, missing], capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no\\nsuch.txt: No such file or directory" in result.stderr


def test_a_file_cut_short_after_its_scan_is_an_error_naming_it(tmp_path, wmt15):
    hypothesis = tmp_path / "hypothesis.txt"
    hypothesis.write_bytes(Path(wmt15["google.ru"]).read_bytes())
    (first, *_) = file_slices([str(hypothesis), wmt15["ref.ru"]])
    hypothesis.write_bytes(hypothesis.read_bytes()[: first.ranges[0][1] // 2])  # written to since the scan
    with pytest.raises(Changed, match="hypothesis.txt changed while it was scored"):
        read_slice(first)


def test_scores_when_nothing_goes_wrong(wmt15):
    result = run(commands(wmt15)["bleu-scratch"], capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, WMT15_LINE + "\n", "")
