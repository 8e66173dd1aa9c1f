"""Re-run notebooks in a fresh kernel and store their outputs, as nbval expects.

Run it after changing the package: lessons print the package's source with
``inspect.getsource``, so their stored outputs go stale with any edit.

    python tools/refresh_notebooks.py                 # every notebook
    python tools/refresh_notebooks.py notebooks/03_modified_precision.ipynb

Each notebook runs top to bottom in its own folder (as nbval runs it), so
execution counts are 1..N. Cell timestamps that nbclient records are dropped:
they change on every run and would make every refresh a diff.
"""

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def refresh(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)


def main(argv: list[str]) -> None:
    paths = [Path(p).resolve() for p in argv] or sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        refresh(path)
        print(f"refreshed {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
