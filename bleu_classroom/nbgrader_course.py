"""The nbgrader course (``bleu-classroom nbgrader-course``): a directory nbgrader's own commands take as it is.

``source/<assignment>/`` gets the instructor's notebooks, tagged, at its top (nbgrader stubs their
solutions), the student edition's ``bleu_scratch/`` (nbgrader copies ``.py`` files unchanged, so it must
hold stubs already) and ``data/``; ``nbgrader_config.py`` names the modules autograde must keep (it would
put the source's stubs back) and the sandboxed kernels (``kernel``).
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import ClassroomError
from .nbgrader_tags import notebook_json, tag_nbgrader
from .release import REPO_ROOT, build_edition

CONFIG_HEADER = "# nbgrader's settings for the bleu-from-scratch course, written by bleu-classroom nbgrader-course."


@dataclass
class Course:
    """An assignment laid out in an nbgrader course directory."""

    directory: Path
    assignment: str
    notebooks: list[str]  # file names, at the top of source/<assignment>/
    student_modules: list[str]  # package files the student writes, relative to the assignment


def lesson_notebooks(chosen: list[str] | None, notebook_dir: Path = REPO_ROOT / "notebooks") -> list[Path]:
    """The notebooks whose names start with one of ``chosen`` ("01", "A1"); every lesson ``NN_*`` if None.

    >>> [path.name for path in lesson_notebooks(["02", "01"])]
    ['01_tokens_and_ngrams.ipynb', '02_clipping.ipynb']
    """
    notebooks = sorted(notebook_dir.glob("*.ipynb"))
    if chosen is None:
        return [path for path in notebooks if re.match(r"\d\d_", path.name)]
    picked = []
    for prefix in chosen:
        matches = [path for path in notebooks if path.name.startswith(f"{prefix}_")]
        if len(matches) != 1:
            names = ", ".join(path.name.split("_")[0] for path in notebooks)
            raise ClassroomError(f"--notebooks {prefix}: no single notebook {prefix}_*.ipynb; choose among {names}")
        picked.append(matches[0])
    return sorted(set(picked))


def nbgrader_config(assignments: dict[str, list[str]]) -> str:
    """``nbgrader_config.py`` for the course: each assignment's student modules are kept by autograde.

    >>> config = nbgrader_config({"bleu": ["bleu_scratch/lesson01_ngrams.py"]})
    >>> print(config[config.index("c.Autograde"):], end="")
    c.Autograde.exclude_overwriting = {
        "bleu": [
            "bleu_scratch/lesson01_ngrams.py"
        ]
    }
    """
    return "\n".join(
        [
            CONFIG_HEADER,
            "# The command rewrites it for each assignment it adds: put settings of your own (course_id, the",
            "# exchange) in ~/.jupyter/nbgrader_config.py, which nbgrader reads first.",
            "c = get_config()  # noqa: F821 (nbgrader defines it)",
            "",
            "# A lesson cell can take seconds on a busy server; an endless loop still ends.",
            "c.Execute.timeout = 120",
            "# Each notebook's kernel runs in a bubblewrap sandbox that holds only its submission's folder",
            "# (bleu_classroom/kernel.py): student code cannot reach the gradebook or other submissions.",
            'c.Execute.kernel_manager_class = "bleu_classroom.kernel.SandboxedKernelManager"',
            "# autograde overwrites the files of a submission with the source's (the",
            "# notebooks aside), so that a student cannot change what the notebooks",
            "# import; the package modules the student writes must stay the student's.",
            f"c.Autograde.exclude_overwriting = {json.dumps(assignments, indent=4)}",
            "",
        ]
    )


def lay_out_course(course_dir: Path, assignment: str, notebooks: list[str] | None = None) -> Course:
    """Write ``source/<assignment>/`` and ``nbgrader_config.py`` under ``course_dir``.

    Other assignments already in ``source/`` stay, and keep their place in the config.
    The notebooks are tagged for nbgrader on the way (``tag_nbgrader``), so the
    source is right even where the repository's notebooks were not re-tagged.
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]+", assignment):
        raise ClassroomError(
            f"--assignment {assignment!r}: use letters, digits, '-' and '_' (nbgrader makes it a folder name)"
        )
    config_path = course_dir / "nbgrader_config.py"
    if config_path.exists() and not config_path.read_text(encoding="utf-8").startswith(CONFIG_HEADER):
        raise ClassroomError(
            f"{config_path} was not written by this command; move it away or choose another course directory"
        )
    target = course_dir / "source" / assignment
    if target.exists():
        raise ClassroomError(
            f"{target} exists; remove it to lay the assignment out again, or choose another --assignment"
        )
    chosen = lesson_notebooks(notebooks)
    edition = build_edition()
    shipped = {rel: content for rel, content in edition.files.items() if rel.startswith(("bleu_scratch/", "data/"))}
    for path in chosen:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        tag_nbgrader(notebook, path.name)
        shipped[path.name] = notebook_json(notebook).encode("utf-8")
    for rel, content in shipped.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_bytes(content)
    student_modules = sorted(rel for rel in edition.stubbed if rel.startswith("bleu_scratch/"))
    # Every assignment ships the same package, so the student writes the same modules in each.
    assignments = {
        folder.name: student_modules
        for folder in sorted((course_dir / "source").iterdir())
        if (folder / "bleu_scratch").is_dir()
    }
    config_path.write_text(nbgrader_config(assignments), encoding="utf-8")
    return Course(course_dir, assignment, [path.name for path in chosen], student_modules)
