"""Run a command on a pseudo-terminal, as a user at a terminal runs it (the progress bar draws only there)."""

import os
import pty
import select
import subprocess
import time
from pathlib import Path


def run_in_terminal(
    argv: list,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdout_too: bool = True,
    timeout: float = 120,
) -> tuple[int, str, str]:
    """Run ``argv`` with stdin and stderr on a pseudo-terminal, and stdout too unless ``stdout_too`` is false
    (then on a pipe): its exit status, what it wrote to the pipe, and what the terminal showed."""
    control, terminal = pty.openpty()
    stdout = terminal if stdout_too else subprocess.PIPE
    try:
        process = subprocess.Popen(argv, stdin=terminal, stdout=stdout, stderr=terminal, cwd=cwd, env=env)
    finally:
        os.close(terminal)
    shown, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([control], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(control, 65536)
            except OSError:  # EIO: every process has closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        out, _ = process.communicate(timeout=max(deadline - time.monotonic(), 1))
    finally:
        os.close(control)
        if process.poll() is None:
            process.kill()
            process.wait()
    # A terminal ends its lines with CR LF.
    piped = out.decode("utf-8", errors="replace") if out else ""
    return process.returncode, piped, shown.decode("utf-8", errors="replace").replace("\r\n", "\n")
