"""The commands against sacrebleu's own command line, run as a subprocess on the same files.

WMT17's online-A output starts with a UTF-8 byte order mark, as submitted. sacrebleu's command
line opens files with Python's "utf-8" codec, which keeps the mark: a character U+FEFF glued to
the first token, which then matches nothing. The commands here read it the same way, so that
sacrebleu's number here is the number ``sacrebleu REF -i HYP`` prints.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_cli import compare, main

MARKED = "online-A.0"
BASELINE = "LIUM-NMT.4900"


def sacrebleu_command(*argv: str) -> list[dict] | dict:
    """sacrebleu's command line, as its users run it, with its JSON output at full width."""
    result = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *argv, "--format", "json", "--width", "16"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_online_a_starts_with_a_byte_order_mark(wmt17):
    assert Path(wmt17.system_path(MARKED)).read_bytes().startswith(b"\xef\xbb\xbf")


def test_compare_equals_sacrebleus_paired_bootstrap_on_a_file_with_a_mark(capsys, wmt17):
    systems = [wmt17.system_path(BASELINE), wmt17.system_path(MARKED)]
    expected = sacrebleu_command(wmt17.reference_path, "--input", *systems, "--paired-bs")
    assert compare.main([*systems, "--references", wmt17.reference_path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    ours = [{key: system[key] for key in ["score", "p_value", "mean", "ci"]} for system in report["systems"]]
    assert ours == [system["BLEU"] for system in expected]
    assert [system["system"] for system in report["systems"]] == systems


@pytest.mark.parametrize("name", [MARKED, BASELINE])
def test_as_sacrebleu_prints_sacrebleus_number_for_the_same_files(capsys, wmt17, name):
    expected = sacrebleu_command(wmt17.reference_path, "--input", wmt17.system_path(name))
    assert main([wmt17.system_path(name), wmt17.reference_path, "--as", "sacrebleu"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"sacrebleu = {expected['score']!r} ("), printed
