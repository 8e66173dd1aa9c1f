"""Lesson 00's environment check: the advice it gives where a package is missing, in a terminal and in Colab."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHECK = next(
    cell.source
    for cell in nbformat.read(NOTEBOOKS / "00_setup_and_a_first_score.ipynb", as_version=4).cells
    if cell.cell_type == "code" and "to_install" in cell.source
)
# tqdm made unimportable: the check must say how to install it.
WITHOUT_TQDM = "import sys\nsys.modules['tqdm'] = None\n"
# What Colab's kernel has loaded and a check can see: the module google.colab.
IN_COLAB = (
    "import types\n"
    "sys.modules['google'] = types.ModuleType('google')\n"
    "sys.modules['google.colab'] = types.ModuleType('google.colab')\n"
)


def advice(prelude: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", prelude + CHECK], capture_output=True, text=True, timeout=120, cwd=NOTEBOOKS
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("where", ["a terminal", "Colab"])
def test_a_missing_package_gets_advice_for_where_the_notebook_runs(where):
    text = advice(WITHOUT_TQDM + (IN_COLAB if where == "Colab" else ""))
    assert "MISSING: tqdm" in text
    if where == "Colab":
        assert "In Colab: run a cell with  !pip install -q tqdm==" in text
        assert "then Runtime > Restart session" in text
        assert "terminal" not in text and "repository's root folder" not in text
    else:
        assert "run in a terminal, in the repository's root folder" in text
        assert "-m pip install tqdm==" in text
        assert "Colab" not in text
