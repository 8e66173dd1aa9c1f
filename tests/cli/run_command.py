"""The command run in this process or as a module, as the command's tests run it.

Each behaviour is checked in-process through ``main(argv)``; the published
WMT15 line and every kind of bad input also through ``python -m bleu_cli``
in a subprocess, as a user runs it.
"""

import subprocess
import sys

from bleu_cli import main

# multi-bleu.perl's published figure for these files (data/wmt15-enru-100/README.md),
# in sacrebleu's layout.
WMT15_LINE = "BLEU = 23.17 53.8/29.6/17.6/10.3 (BP = 1.000 ratio = 1.074 hyp_len = 1989 ref_len = 1852)"


def run_main(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_module(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleu_cli", *argv], capture_output=True, text=True, timeout=120)


def write(path, content: bytes) -> str:
    path.write_bytes(content)
    return str(path)
