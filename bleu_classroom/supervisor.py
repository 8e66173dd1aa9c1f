"""The grade command's watchman: the grading runs in a child process, so that however it ends, the command says so.

Student code runs as the grader's user. Where the system lets such code stop
the grading process anyway (the sandbox refuses signals, but audit hooks are
no security boundary), this process is still there to say what happened
instead of ending without a word.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

SUPERVISED = "BLEU_CLASSROOM_GRADING"  # set in the child: it grades instead of supervising
STOPPED = (
    "classroom grade: error: the grading process was stopped by {signal} before it reported; "
    "if nobody stopped it, the student's code did: grade in a container (README: For instructors)"
)


def supervise(argv: list[str]) -> int | None:
    """Run the command ``argv`` in a child process and return its exit status; None in that child.

    The child imports this copy of ``bleu_classroom``, never one in the
    working directory (a student's edition has its own).
    """
    if os.environ.get(SUPERVISED):
        return None
    here = str(Path(__file__).resolve().parent.parent)
    code = (
        f"import sys; sys.path.insert(0, {here!r}); "
        "from bleu_classroom.command import main; sys.exit(main(sys.argv[1:]))"
    )
    try:
        child = subprocess.run([sys.executable, "-c", code, *argv], env=dict(os.environ, **{SUPERVISED: "1"}))
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    if child.returncode < 0:
        print(STOPPED.format(signal=signal.Signals(-child.returncode).name), file=sys.stderr)
        return 1
    return child.returncode
