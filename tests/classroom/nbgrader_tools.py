"""What the nbgrader tests share: the course's assignment, running the pinned nbgrader, reading its gradebook."""

import os
import subprocess
import sys
from pathlib import Path

# Lessons 01 and 02: quick to run.
NBGRADER_NOTEBOOKS = ["01", "02"]
ASSIGNMENT = "bleu"


def nbgrader(course: Path, *args: str) -> None:
    """Run the pinned nbgrader in ``course``, as an instructor would (it finds ``alembic`` on PATH)."""
    bin_dir = Path(sys.executable).parent
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        JUPYTER_CONFIG_DIR=str(course / ".jupyter"),
    )
    env.pop("BLEU_SCRATCH_DATA", None)  # the notebooks must find data/ beside the package
    done = subprocess.run([str(bin_dir / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def nbgrader_scores(course: Path, student: str) -> dict[str, tuple[float, float]]:
    """nbgrader's own (score, max_score) of each notebook the student handed in."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(ASSIGNMENT, student)
        return {notebook.name: (notebook.score, notebook.max_score) for notebook in submission.notebooks}
