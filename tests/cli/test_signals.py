"""Ctrl-C and SIGTERM: no traceback, no partial score, every process the command started gone, status 130 or 143.

The command runs as a user runs it, in a process of its own, on an input long
enough that it is still scoring when the signal comes: Ctrl-C is sent to the
whole process group, as a terminal sends it; SIGTERM to the command alone, as
``kill`` does. What is asserted is the outcome, with generous bounds on how
long the processes may take to go, never a duration.
"""

import ctypes
import logging
import os
import signal
import subprocess
import sys
import time

import pytest

from bleu_cli import inputs, main, pipeline
from tests.cli.run_command import PATIENCE, busy_for, left_running, scoring, start


@pytest.fixture(autouse=True)
def logging_as_before():
    """A run stopped by a signal leaves logging off in its process; the tests that run here turn it back on."""
    before = logging.root.manager.disable
    yield
    logging.disable(before)


@pytest.mark.parametrize(
    "signal_number, status, options",
    [
        (signal.SIGINT, 130, ["--jobs", "2"]),
        (signal.SIGTERM, 143, ["--jobs", "2", "--sentence"]),
        (signal.SIGINT, 130, ["--sentence"]),
        (signal.SIGTERM, 143, []),
    ],
    ids=[
        "ctrl-c, local cluster",
        "kill, local cluster, sentences",
        "ctrl-c, one process, sentences",
        "kill, one process",
    ],
)
def test_a_signal_while_scoring_stops_everything_quietly(long_input, signal_number, status, options):
    command = start(long_input, *options)
    scoring(command, workers=2 if "--jobs" in options else 0)
    if signal_number == signal.SIGINT:
        os.killpg(command.pid, signal.SIGINT)  # the whole foreground group, as Ctrl-C at a terminal
    else:
        command.send_signal(signal.SIGTERM)
    out, err = command.communicate(timeout=PATIENCE)
    assert (command.returncode, out, err) == (status, b"", b"")
    assert left_running(command) == []


def test_a_signal_as_the_command_starts_leaves_nothing_behind(long_input):
    for moment in (0.2, 0.8, 1.5):  # while Python and the lessons load, or while the cluster starts
        command = start(long_input, "--jobs", "2")
        time.sleep(moment)
        command.send_signal(signal.SIGTERM)
        out, err = command.communicate(timeout=PATIENCE)
        # Before the command handles signals, SIGTERM ends it as it ends any process: the shell says 143 too.
        # (Status 0 with nothing printed was seen once in a full run: Popen says 0 when another waiter, or an
        # ignored SIGCHLD, took the child's status first. The message says which was in place.)
        seen = (moment, out[-300:], err[-300:], f"SIGCHLD handler: {signal.getsignal(signal.SIGCHLD)}")
        assert command.returncode in (143, -signal.SIGTERM) and (out, err) == (b"", b""), seen
        assert left_running(command) == []


# The command, with SIGTERM sent by Dask's client to its own process the moment it has connected to the cluster,
# before the client is handed back: the moment a signal cut the client off, which no sleep hits every time.
CUT_OFF_AS_IT_CONNECTS = """
import os, signal, sys
from distributed import Client
connect = Client.start
def start(client, **options):
    connect(client, **options)
    os.kill(os.getpid(), signal.SIGTERM)
Client.start = start
from bleu_cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def test_a_signal_as_the_client_connects_is_quiet_to_the_end(long_input):
    command = start(long_input, "--jobs", "2", program=CUT_OFF_AS_IT_CONNECTS)
    out, err = command.communicate(timeout=PATIENCE)
    assert (command.returncode, out, err) == (143, b"", b"")
    assert left_running(command) == []


@pytest.mark.parametrize("signal_number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_a_library_turned_into_its_own_error_still_ends_as_the_signal(
    monkeypatch, wmt15, signal_number, status
):
    """The signal may land inside a library (importing Dask, waiting on the cluster) that wraps the interrupt."""

    def interrupted(settings, check_signals):
        try:
            os.kill(os.getpid(), signal_number)  # the command's handler raises here
        except BaseException as error:
            raise RuntimeError("the library's own error") from error

    monkeypatch.setattr(pipeline, "score_files", interrupted)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), sys.unraisablehook
    assert main([wmt15["google.ru"], wmt15["ref.ru"]]) == status
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), sys.unraisablehook) == before


@pytest.mark.parametrize("signal_number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_a_library_kept_still_stops_the_run_before_anything_is_printed(
    monkeypatch, capsys, wmt15, signal_number, status
):
    """Python only reports an exception raised in a ctypes callback, as numba's compiler calls, and goes on."""
    score_shard = pipeline.score_shard

    @ctypes.CFUNCTYPE(None)
    def callback():
        os.kill(os.getpid(), signal_number)  # the command's handler raises here, and ctypes keeps the exception

    scored = 0

    def kept(shard, settings):
        nonlocal scored
        scored += 1
        callback()
        return score_shard(shard, settings)

    reported = []  # what Python reports as it goes on: printed on stderr, outside pytest
    monkeypatch.setattr(pipeline, "score_shard", kept)
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    monkeypatch.setattr(inputs, "SHARD_LINES", 10)  # 10 shards: the first one's signal stops the run before the next
    assert main([wmt15["google.ru"], wmt15["ref.ru"]]) == status
    assert (capsys.readouterr(), reported, scored) == (("", ""), [], 1)  # no score; the signal not an error


# A command stopped by Ctrl-C inside an exec() of a string, as an import the command makes may run one. Run with
# ``python -m``, which ends the process by SIGINT when it thinks a KeyboardInterrupt got away.
INTERRUPTED_IN_EXEC = """
import os, signal
from bleu_cli.signals import stoppable

def command(argv, check_signals):
    exec("os.kill(os.getpid(), signal.SIGINT)")
    return 0

raise SystemExit(stoppable(command, []))
"""


def test_ctrl_c_inside_exec_still_ends_with_status_130(tmp_path):
    (tmp_path / "interrupted_in_exec.py").write_text(INTERRUPTED_IN_EXEC)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    finished = subprocess.run(
        [sys.executable, "-m", "interrupted_in_exec"], capture_output=True, env=environment, timeout=PATIENCE
    )
    assert (finished.returncode, finished.stdout, finished.stderr) == (130, b"", b"")


def test_ctrl_c_at_any_moment_ends_with_status_130_and_nothing_printed(long_input):
    """From the first imports of the command to its scoring: the moments are the command's CPU seconds."""
    for moment in (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0):
        command = start(long_input, "--sentence")
        busy_for(command, moment)
        os.killpg(command.pid, signal.SIGINT)
        out, err = command.communicate(timeout=PATIENCE)
        assert (command.returncode, out, err[-500:]) == (130, b"", b""), moment
        assert left_running(command) == []


def test_a_signal_is_remembered_by_its_own_run_only(monkeypatch, wmt15):
    """After a run stopped by a signal, the next run's error is an error, not that signal's status."""

    def interrupted(settings, check_signals):
        os.kill(os.getpid(), signal.SIGTERM)

    def failing(settings, check_signals):
        raise RuntimeError("a bug, not a signal")

    monkeypatch.setattr(pipeline, "score_files", interrupted)
    assert main([wmt15["google.ru"], wmt15["ref.ru"]]) == 143
    monkeypatch.setattr(pipeline, "score_files", failing)
    with pytest.raises(RuntimeError, match="a bug"):
        main([wmt15["google.ru"], wmt15["ref.ru"]])
