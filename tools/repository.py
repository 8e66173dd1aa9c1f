"""The repository's GitHub path, and the places that name it: the README's badges, the site's links, the
notebooks' Colab cells.

    python tools/repository.py                               # write the Colab cell into every notebook
    python tools/repository.py --set alice/bleu-from-scratch  # the repository moved: rewrite every place

A notebook opened alone in Colab has neither the package nor the data. Its
first code cell clones the repository, installs colab/requirements.txt (the
package and the pinned oracles; Colab has numpy and matplotlib) and puts the
clone on ``sys.path``. Outside Colab (no ``google.colab`` module), or where
``bleu_scratch`` is importable (a clone, Binder, the student edition), the cell
does nothing and prints nothing: nbval's stored outputs stay the same, and a
kernel without the package reaches lesson 00's advice instead of a clone. The
cell is tagged ``remove-cell``: the website leaves it out. After writing the
cells, refresh the notebooks' stored outputs (tools/refresh_notebooks.py): a
new first cell shifts the execution counts.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
# Placeholder until the project has its public address: --set replaces it everywhere.
REPOSITORY = "OWNER/bleu-from-scratch"
# The files that name the repository, besides the notebooks.
NAMING_FILES = ["tools/repository.py", "README.md", "tools/build_site.py", "pyproject.toml"]
COLAB_TAG = "remove-cell"

COLAB_CELL = """\
# Colab: install bleu_scratch and its data from the repository. Elsewhere, or where it is installed, this does nothing.
import importlib.util
import sys

if "google.colab" in sys.modules and importlib.util.find_spec("bleu_scratch") is None:
    import os
    import subprocess
    from pathlib import Path

    clone = Path("bleu-from-scratch").resolve()
    address = "https://github.com/{repository}"
    get = ["git", "clone", "--quiet", "--depth", "1", address, str(clone)]
    # No password prompt: a wrong or private address fails at once instead of waiting for one.
    no_prompt = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    if not clone.exists() and subprocess.run(get, env=no_prompt).returncode:
        raise SystemExit(f"could not clone {{address}} (git says why just above)")
    install = [sys.executable, "-m", "pip", "install", "--quiet", "-r", "colab/requirements.txt"]
    if subprocess.run(install, cwd=clone).returncode:
        raise SystemExit(f"could not install {{clone}}/colab/requirements.txt (pip says why just above)")
    sys.path.insert(0, str(clone))"""


def colab_cell(repository: str = REPOSITORY) -> str:
    """The first code cell of every notebook, for ``repository`` (OWNER/NAME on GitHub)."""
    return COLAB_CELL.format(repository=repository)


def notebooks(root: Path = ROOT) -> list[Path]:
    """Every lesson and appendix notebook."""
    return sorted((root / "notebooks").glob("*.ipynb"))


def write_colab_cell(path: Path, repository: str = REPOSITORY) -> bool:
    """Make the notebook's first code cell the Colab cell (added after the title if missing); True if it changed."""
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    if code and COLAB_TAG in code[0].metadata.get("tags", []):
        if code[0].source == colab_cell(repository):
            return False
        code[0].source = colab_cell(repository)
    else:
        cell = nbformat.v4.new_code_cell(colab_cell(repository), metadata={"tags": [COLAB_TAG]})
        notebook.cells.insert(1, cell)
    nbformat.write(notebook, path)
    return True


def set_repository(repository: str, root: Path = ROOT) -> None:
    """Rewrite every place under ``root`` that names the repository: NAMING_FILES and the notebooks' Colab cells."""
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
        raise SystemExit(f"give the repository as OWNER/NAME, as in its GitHub address, got {repository!r}")
    for name in NAMING_FILES:
        path = root / name
        path.write_text(path.read_text(encoding="utf-8").replace(REPOSITORY, repository), encoding="utf-8")
    for path in notebooks(root):
        write_colab_cell(path, repository)


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--set", metavar="OWNER/NAME", help="the repository's new GitHub path")
    args = parser.parse_args()
    if args.set:
        set_repository(args.set)
        print(f"every place now names {args.set}")
        return
    changed = [path.name for path in notebooks() if write_colab_cell(path)]
    print(f"Colab cell written into {len(changed)} notebooks" + (": refresh their outputs" if changed else ""))


if __name__ == "__main__":
    sys.exit(main())
