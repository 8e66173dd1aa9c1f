"""The guides' console examples print what the commands print, run as a reader runs them.

Each ```console block of a guide is run in a copy of the repository's ``data/``, from the copy's root
(a reader may start at any section, so a block that needs a folder says ``cd`` itself): a ``$`` line is
a command, and the lines after it are its output, stdout and stderr together. A line ``...`` stands for
lines left out.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ["docs/command-line.md", "docs/significance.md"]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
# Shown, not run here: a FIFO waits for a writer, and book.txt is a file of a 1,000,000-byte line that
# the guide does not ship (tests/cli/test_faults.py runs both).
NOT_RUN = ("mkfifo", "book.txt")


def blocks(guide: str) -> list[str]:
    return [
        block
        for block in BLOCK.findall((ROOT / guide).read_text(encoding="utf-8"))
        if not any(word in block for word in NOT_RUN)
    ]


def shown_in_order(shown: list[str], printed: list[str]) -> bool:
    """Whether the lines shown, in runs cut at ``...``, appear in what was printed, each run whole and in order."""
    runs, run = [], []
    for line in shown:
        if line.strip() == "...":
            runs.append(run)
            run = []
        else:
            run.append(line)
    runs.append(run)
    start = 0
    for run in filter(None, runs):
        found = next((i for i in range(start, len(printed) - len(run) + 1) if printed[i : i + len(run)] == run), None)
        if found is None:
            return False
        start = found + len(run)
    return True


@pytest.mark.parametrize("guide", GUIDES)
def test_each_console_example_prints_what_the_guide_shows(guide, tmp_path):
    shutil.copytree(ROOT / "data", tmp_path / "data")
    # The commands of this checkout, whichever environment runs the tests.
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    functions = f'bleu-scratch() {{ "{sys.executable}" -m bleu_cli "$@"; }}\n'
    functions += f'bleu-scratch-compare() {{ "{sys.executable}" -m bleu_cli.compare "$@"; }}\n'
    for block in blocks(guide):
        where = tmp_path
        lines = block.splitlines()
        commands = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for k, at in enumerate(commands):
            command = lines[at][2:]
            shown = lines[at + 1 : commands[k + 1] if k + 1 < len(commands) else len(lines)]
            if command.startswith("cd "):
                where = where / command[3:]
                continue
            result = subprocess.run(
                ["bash", "-c", functions + command],
                cwd=where,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=300,
            )
            printed = result.stdout.splitlines()
            if "$?" not in command:  # a command that prints its status itself is shown failing on purpose
                assert result.returncode == 0, f"{guide}: $ {command}\n" + result.stdout
            assert shown_in_order(shown, printed), (
                f"{guide}: $ {command}\nshown:\n" + "\n".join(shown) + "\nprinted:\n" + "\n".join(printed)
            )
