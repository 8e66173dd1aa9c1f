"""Edits show without restarting: a lesson module saved between two cells is what the next cell runs.

Every lesson's setup cell calls ``start_lesson()``, which turns on IPython's
autoreload. A learner imports a lesson's function by name (``from bleu_scratch
import corpus_bleu``) and then edits its module; the name still holds the
function object made before the edit, and a lesson's function is a door
(``bleu_scratch.checks.door``) wrapped around the lesson's code. The first
test runs a real kernel on a temporary notebook and a temporary package laid
out as ``bleu_scratch`` is (a module of doors, re-exported by the package);
the second holds the door to what autoreload does to an old function.
"""

import os
import textwrap

import nbformat
import pytest
from IPython.extensions.autoreload import update_function
from nbclient import NotebookClient

from bleu_scratch import checks
from bleu_scratch.checks import door

LESSON = """\
from bleu_scratch import checks
from bleu_scratch.checks import door


@door(checks.line)
def shout(line: str) -> str:
    return line.upper()


@door(checks.line)
def shout_twice(line: str) -> str:
    return shout(line) + " " + shout(line)


def whisper(line):
    return line.lower()
"""


def save(path, text):
    """Write ``path`` as an editor saves it: a new size and a later modification time than before."""
    before = path.stat().st_mtime if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, (before + 2, before + 2))


def test_a_module_saved_between_two_cells_is_what_the_next_cell_runs(tmp_path):
    package = tmp_path / "course"
    package.mkdir()
    (package / "__init__.py").write_text("from .lesson import shout, shout_twice, whisper\n", encoding="utf-8")
    save(package / "lesson.py", LESSON)
    setup = textwrap.dedent("""\
        from bleu_scratch.notebook import start_lesson

        start_lesson()
        from course import shout, shout_twice, whisper
        print(shout("it is"), "|", shout_twice("a"), "|", whisper("A SHIP"))
        """)
    after_the_edit = 'print(shout("it is"), "|", shout_twice("a"), "|", whisper("A SHIP"))'
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(setup), nbformat.v4.new_code_cell(after_the_edit)]
    )
    client = NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    with client.setup_kernel():
        client.execute_cell(notebook.cells[0], 0)
        edited = LESSON.replace("return line.upper()", 'return line.upper() + "!"').replace(
            "return line.lower()", 'return line.lower() + "..."'
        )
        save(package / "lesson.py", edited)
        client.execute_cell(notebook.cells[1], 1)
    before, after = ("".join(o.get("text", "") for o in cell.outputs) for cell in notebook.cells)
    errors = [o for cell in notebook.cells for o in cell.outputs if o.output_type == "error"]
    assert not errors, errors
    assert before == "IT IS | A A | a ship\n", f"before the edit: {before!r}"
    assert after == "IT IS! | A! A! | a ship...\n", (
        f"after saving the module the next cell printed {after!r}: the names imported before the edit "
        "should run the saved code (start_lesson turns on autoreload)"
    )


def test_autoreload_reaches_a_doors_code():
    """autoreload gives an old function the new one's code and __dict__ (its closure cannot be set)."""

    def made(suffix):
        @door(checks.line)
        def shout(line: str) -> str:
            return line.upper() + suffix

        return shout

    old, new = made(""), made("!")
    update_function(old, new)
    assert old("it is") == "IT IS!", "the door made before the edit still runs the code from before it"
    assert old.__wrapped__ is new.__wrapped__
    with pytest.raises(TypeError, match="shout takes one line of text"):
        old(["it", "is"])
