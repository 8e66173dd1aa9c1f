"""Re-run notebooks in a fresh kernel and store their outputs, as nbval expects.

Run it after changing the package: lessons print the package's source with
``inspect.getsource``, so their stored outputs go stale with any edit.

    python tools/refresh_notebooks.py                 # every notebook
    python tools/refresh_notebooks.py notebooks/03_modified_precision.ipynb

Each notebook runs top to bottom in its own folder (as nbval runs it), so
execution counts are 1..N. Cell timestamps that nbclient records are dropped
and printed chunks joined: both change from run to run and would make every
refresh a diff.
"""

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def refresh(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    nbformat.write(notebook, path)


def coalesce_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks into one output.

    How a cell's printing is split into chunks depends on timing, so without
    this the same run can store different chunks (nbval joins them anyway).
    """
    joined = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and previous
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def main(argv: list[str]) -> None:
    paths = [Path(p).resolve() for p in argv] or sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        refresh(path)
        print(f"refreshed {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
