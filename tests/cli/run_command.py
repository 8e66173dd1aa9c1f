"""The command run in this process or as a module, as the command's tests run it.

Each behaviour is checked in-process through ``main(argv)``; the published
WMT15 line and every kind of bad input also through ``python -m bleu_cli``
in a subprocess, as a user runs it.
"""

import os
import select
import signal
import subprocess
import sys
import time

import psutil
import pytest

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


# Seconds the test waits for the command to be scoring, and for its processes to end: bounds, not measurements.
PATIENCE = 120


def start(paths: list[str], *options: str, program: str | None = None) -> subprocess.Popen:
    """The command in a session of its own, with Ctrl-C handled as at a terminal (not ignored, as in a background job).

    ``program``: Python code run in place of ``-m bleu_cli``, given the same arguments.

    Every process it starts inherits the variable BLEU_SIGNAL_TEST, which
    finds them afterwards, wherever they were moved in the process tree.
    """
    mark = str(time.time_ns())
    command = subprocess.Popen(
        [sys.executable, *(["-c", program] if program else ["-m", "bleu_cli"]), *paths, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=dict(os.environ, BLEU_SIGNAL_TEST=mark),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    command.mark = mark
    return command


def first_stderr_line(command: subprocess.Popen) -> bytes:
    """The first line the command writes on stderr, read as soon as it is written (within ``PATIENCE``)."""
    assert command.stderr is not None
    line = b""
    deadline = time.monotonic() + PATIENCE
    while not line.endswith(b"\n"):
        assert command.poll() is None and time.monotonic() < deadline, "the command wrote no line on stderr"
        ready, _, _ = select.select([command.stderr], [], [], 1)
        line += os.read(command.stderr.fileno(), 1) if ready else b""
    return line


def left_running(command: subprocess.Popen) -> list[str]:
    """The processes the command started that are still running, after waiting a while for them to end."""
    mark = command.mark

    def ours() -> list[psutil.Process]:
        found = []
        for process in psutil.process_iter():
            try:
                if process.environ().get("BLEU_SIGNAL_TEST") == mark and process.status() != psutil.STATUS_ZOMBIE:
                    found.append(process)
            except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
                continue
        return found

    gone, alive = psutil.wait_procs(ours(), timeout=PATIENCE)
    return [" ".join(process.cmdline())[:120] for process in alive if process.is_running()]


def scoring(command: subprocess.Popen, workers: int) -> list[psutil.Process]:
    """Wait until the command (or, with workers, each of its cluster's workers) is busy scoring; return its
    processes."""
    process = psutil.Process(command.pid)
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        assert command.poll() is None, "the command ended before it could be interrupted"
        descendants = process.children(recursive=True)
        busy = [p for p in descendants if _cpu(p) > 0.3] if workers else [process] if _cpu(process) > 1.0 else []
        if len(busy) >= max(workers, 1):
            return descendants
        time.sleep(0.1)
    pytest.fail("the command did not start scoring in time")


def busy_for(command: subprocess.Popen, seconds: float) -> None:
    """Wait until the command has used ``seconds`` of CPU time: a moment in its run that load does not move."""
    process = psutil.Process(command.pid)
    deadline = time.monotonic() + PATIENCE
    while _cpu(process) < seconds:
        assert command.poll() is None, f"the command ended before it had used {seconds} s of CPU time"
        assert time.monotonic() < deadline, f"the command did not use {seconds} s of CPU time in {PATIENCE} s"
        time.sleep(0.01)


def _cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
        return times.user + times.system
    except psutil.NoSuchProcess:
        return 0.0
