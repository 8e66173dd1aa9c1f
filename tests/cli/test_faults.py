"""Faults and odd input: a cluster lost, frozen or without workers mid-run, two local clusters at once, a FIFO with
no writer, a huge line.

Each command runs as a user runs it, in a process of its own (as in
test_signals.py); every cluster listens on 127.0.0.1 and is stopped by the
test, whatever happens. What is asserted is the outcome, never a duration.
"""

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil
import pytest

from bleu_cli import pipeline
from bleu_cli.errors import NoScheduler
from bleu_cli.inputs import MAX_LINE_BYTES
from bleu_cli.watch import watched
from tests.cli.run_command import (
    PATIENCE,
    WMT15_LINE,
    first_stderr_line,
    left_running,
    run_main,
    run_module,
    scoring,
    start,
    write,
)

# The WMT15 sample a thousand times over: every count a thousand times, so the same figures but the lengths.
LONG_LINE = WMT15_LINE.replace("hyp_len = 1989 ref_len = 1852", "hyp_len = 1989000 ref_len = 1852000")


def _stop(process: subprocess.Popen) -> None:
    """Kill the process and every process of its session (a Dask worker's own worker process among them)."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(PATIENCE)


@contextmanager
def dask_scheduler_and_worker(workers: int = 1) -> Iterator[tuple[str, psutil.Process | None]]:
    """A scheduler and a worker process of one thread (if ``workers``), started with Dask's own commands on
    127.0.0.1, and stopped at the end; the scheduler's address and the worker's process."""
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
        + ["--no-dashboard"],
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    worker = None
    try:
        address = _logged(scheduler, r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)").group(1)
        if not workers:
            yield address, None
            return
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1"]
            + ["--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        _logged(worker, "Registered to:")
        yield address, psutil.Process(worker.pid)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                _stop(process)


def _logged(process: subprocess.Popen, pattern: str) -> re.Match:
    """The first match in the process's log: the scheduler's address, or the worker's registration."""
    assert process.stderr is not None
    log, deadline = "", time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 1)
        log += os.read(process.stderr.fileno(), 1 << 16).decode(errors="replace") if ready else ""
        found = re.search(pattern, log)
        if found:
            return found
        assert process.poll() is None, f"{process.args} ended as it started: {log[-2000:]}"
    pytest.fail(f"{process.args} did not start in time: {log[-2000:]}")


def _cpu_of_tree(process: psutil.Process) -> float:
    total = 0.0
    for member in [process, *process.children(recursive=True)]:
        try:
            times = member.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


def _one_error_line(err: bytes) -> str:
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bleu-scratch: error: "), err.decode()[-2000:]
    return lines[0]


def _dask_scheduler() -> psutil.Process:
    """The scheduler process of ``dask_scheduler_and_worker``."""
    return next(p for p in psutil.Process().children() if "dask_scheduler" in " ".join(p.cmdline()))


def _scoring_on(worker: psutil.Process | None, command: subprocess.Popen) -> None:
    """Wait until the worker has spent a second scoring for the command: its processes have loaded Dask by the
    time it is in the scheduler's hands, scoring adds to that."""
    assert worker is not None
    deadline = time.monotonic() + PATIENCE
    start_cpu = _cpu_of_tree(worker)
    while _cpu_of_tree(worker) < start_cpu + 1.0:
        assert command.poll() is None and time.monotonic() < deadline, "the worker did not start scoring"
        time.sleep(0.1)


def test_the_scheduler_killed_mid_run_ends_in_one_line_and_status_2(long_input):
    with dask_scheduler_and_worker() as (address, worker):
        command = start(long_input, "--scheduler", address, "--sentence")
        _scoring_on(worker, command)
        _dask_scheduler().kill()
        out, err = command.communicate(timeout=PATIENCE)
    line = _one_error_line(err)
    assert (command.returncode, out) == (2, b"")
    assert f"lost the Dask scheduler at {address} mid-run" in line and "run the command again" in line
    assert left_running(command) == []


def _ended(command: subprocess.Popen) -> tuple[bytes, bytes]:
    """The command's stdout and stderr once it has ended; one still waiting after PATIENCE is killed."""
    try:
        return command.communicate(timeout=PATIENCE)
    finally:
        if command.poll() is None:
            _stop(command)


# The command with the waits on --scheduler's scheduler lowered from the defaults the docs give (10 s for an
# answer, 30 s for a worker), so that a test waits seconds, not half a minute.
SHORT_WAITS = """
import sys
from bleu_cli import main, pipeline
pipeline.SCHEDULER_WAIT = pipeline.WORKER_WAIT = 3
raise SystemExit(main(sys.argv[1:]))
"""
# Only the wait for a worker lowered: a busy machine's scheduler keeps its 10 s to answer.
SHORT_WORKER_WAIT = SHORT_WAITS.replace(
    "pipeline.SCHEDULER_WAIT = pipeline.WORKER_WAIT = 3", "pipeline.WORKER_WAIT = 3"
)


@pytest.mark.parametrize("moment", ["before the run", "mid-run"])
def test_a_frozen_scheduler_ends_in_one_line_and_status_2(long_input, moment):
    """A stopped scheduler keeps its connections open: only its silence tells."""
    with dask_scheduler_and_worker() as (address, worker):
        if moment == "before the run":
            _dask_scheduler().suspend()
        command = start(long_input, "--scheduler", address, "--sentence", program=SHORT_WAITS)
        if moment == "mid-run":
            _scoring_on(worker, command)
            _dask_scheduler().suspend()
        out, err = _ended(command)
    line = _one_error_line(err)
    assert (command.returncode, out) == (2, b"")
    if moment == "before the run":  # Dask's own timeout or the watch's, whichever comes first
        assert f"cannot reach the Dask scheduler at {address}: " in line
    else:
        assert f"lost the Dask scheduler at {address} mid-run" in line
    assert left_running(command) == []


def test_every_worker_lost_mid_run_ends_in_one_line_and_status_2(long_input):
    with dask_scheduler_and_worker() as (address, worker):
        command = start(long_input, "--scheduler", address, "--sentence", program=SHORT_WORKER_WAIT)
        _scoring_on(worker, command)
        assert worker is not None
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its nanny: none comes back
        out, err = _ended(command)
    line = _one_error_line(err)
    assert (command.returncode, out) == (2, b"")
    assert line == (
        f"bleu-scratch: error: the Dask scheduler at {address} has no worker after 3 s; "
        f"start one with `dask worker {address}`"
    )
    assert left_running(command) == []


def test_a_worker_lost_mid_run_and_restarted_leaves_the_score_whole(long_input):
    with dask_scheduler_and_worker() as (address, worker):
        command = start(long_input, "--scheduler", address)
        _scoring_on(worker, command)
        assert worker is not None
        # The worker process, not its nanny, which starts another.
        next(p for p in worker.children() if "spawn_main" in " ".join(p.cmdline())).kill()
        assert command.poll() is None, "the command ended before its worker was killed"
        out, err = _ended(command)
    assert (command.returncode, out.decode(), err) == (0, LONG_LINE + "\n", b"")


def test_a_scheduler_with_no_worker_is_one_line_and_status_2(monkeypatch, capsys, wmt15):
    monkeypatch.setattr(pipeline, "WORKER_WAIT", 1)
    with dask_scheduler_and_worker(workers=0) as (address, _):
        status, out, err = run_main(capsys, wmt15["google.ru"], wmt15["ref.ru"], "--scheduler", address)
    assert (status, out) == (2, "")
    assert err == (
        f"bleu-scratch: error: the Dask scheduler at {address} has no worker after 1 s; "
        f"start one with `dask worker {address}`\n"
    )


@pytest.mark.parametrize("moment", ["as it starts", "mid-run"])
def test_the_local_clusters_process_killed_ends_in_one_line_and_status_2(long_input, moment):
    command = start(long_input, "--jobs", "2", "--sentence")
    processes = scoring(command, workers=2)
    host = next(process for process in processes if "LocalCluster" in " ".join(process.cmdline()))
    if moment == "mid-run":
        # The command's client has connected to the cluster's scheduler, and the workers are scoring.
        _wait_for(
            lambda: any(c.status == psutil.CONN_ESTABLISHED for c in psutil.Process(command.pid).net_connections())
        )
        workers = host.children(recursive=True)
        before = sum(_cpu_of_tree(worker) for worker in workers)
        _wait_for(lambda: sum(_cpu_of_tree(worker) for worker in workers) > before + 1.0)
        assert command.poll() is None, "the command ended before its cluster was stopped"
    host.kill()
    out, err = command.communicate(timeout=PATIENCE)
    line = _one_error_line(err)
    assert (command.returncode, out) == (2, b"")
    assert "the local Dask cluster of --jobs 2 stopped before the end of the run" in line
    assert left_running(command) == []


def _wait_for(condition) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.1)


def _listening_ports(process: psutil.Process) -> set[int]:
    ports = set()
    for member in [process, *process.children(recursive=True)]:
        try:
            connections = member.net_connections(kind="inet")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        ports |= {c.laddr.port for c in connections if c.status == psutil.CONN_LISTEN}
    return ports


def test_two_commands_with_local_clusters_at_once_both_score_and_leave_port_8787_free(long_input):
    commands = [start(long_input, "--jobs", "2") for _ in range(2)]
    try:
        listened: list[set[int]] = [set(), set()]
        deadline = time.monotonic() + 5 * PATIENCE
        while any(command.poll() is None for command in commands) and time.monotonic() < deadline:
            for seen, command in zip(listened, commands):
                try:
                    seen |= _listening_ports(psutil.Process(command.pid))
                except psutil.NoSuchProcess:
                    continue
            time.sleep(0.2)
        results = [command.communicate(timeout=PATIENCE) for command in commands]
    finally:
        for command in commands:
            _stop(command)
    for command, (out, err) in zip(commands, results):
        assert (command.returncode, out.decode(), err) == (0, LONG_LINE + "\n", b"")
    # Each cluster's scheduler and workers were seen listening, none of them on Dask's default dashboard port.
    assert all(seen and 8787 not in seen for seen in listened), listened
    assert all(left_running(command) == [] for command in commands)


def test_a_fifo_with_no_writer_is_waited_for_and_the_wait_said_on_one_line(tmp_path, wmt15):
    fifo = tmp_path / "hypothesis.fifo"
    os.mkfifo(fifo)
    command = start([str(fifo), wmt15["ref.ru"]])
    notice = first_stderr_line(command)
    assert notice.decode() == (
        f"{fifo} is a FIFO with no writer yet: waiting for a program to open it for writing (Ctrl-C stops)\n"
    )
    with open(fifo, "wb") as writer:  # the writer comes later, as `cat google.ru > hypothesis.fifo` would
        writer.write(Path(wmt15["google.ru"]).read_bytes())
    out, err = command.communicate(timeout=PATIENCE)
    assert (command.returncode, out.decode(), err) == (0, WMT15_LINE + "\n", b"")


@pytest.mark.parametrize("signal_number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_waiting_for_a_fifo_writer_stops_the_command(tmp_path, wmt15, signal_number, status):
    fifo = tmp_path / "reference.fifo"
    os.mkfifo(fifo)
    command = start([wmt15["google.ru"], str(fifo)])
    first_stderr_line(command)
    if signal_number == signal.SIGINT:
        os.killpg(command.pid, signal.SIGINT)  # as Ctrl-C at a terminal
    else:
        command.send_signal(signal.SIGTERM)
    out, err = command.communicate(timeout=PATIENCE)
    assert (command.returncode, out, err) == (status, b"", b"")
    assert left_running(command) == []


def _line_of(length: int) -> bytes:
    """A line of ``length`` bytes of UTF-8: two-byte letters and spaces, as Russian text has."""
    word = "слово ".encode()
    whole_letters = (word * (length // len(word) + 1))[:length].decode(errors="ignore").encode()
    return whole_letters.ljust(length, b"a")


@pytest.mark.parametrize("through", ["file", "standard input"])
def test_a_line_over_the_limit_is_refused_naming_file_line_and_limit(tmp_path, through):
    lines = [b"a short segment", _line_of(MAX_LINE_BYTES + 1), b"another one"]
    hypothesis = tmp_path / "hyp.txt"
    hypothesis.write_bytes(b"\n".join(lines) + b"\n")
    reference = write(tmp_path / "ref.txt", b"a short segment\nthe same\nanother one\n")
    if through == "file":
        result = run_module(str(hypothesis), reference)
        name = str(hypothesis)
    else:
        result = subprocess.run(
            [sys.executable, "-m", "bleu_cli", "-", reference],
            input=hypothesis.read_bytes(),
            capture_output=True,
            timeout=PATIENCE,
        )
        result.stdout, result.stderr, name = result.stdout.decode(), result.stderr.decode(), "-"
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"bleu-scratch: error: {name}, line 2: longer than 1,000,000 bytes, the longest line the command reads; "
        "put one segment per line\n"
    )


def test_a_line_at_the_limit_is_scored(tmp_path):
    line = _line_of(MAX_LINE_BYTES)
    assert len(line) == MAX_LINE_BYTES and len(line.decode()) < MAX_LINE_BYTES  # bytes are counted, not letters
    hypothesis = write(tmp_path / "hyp.txt", line + b"\r\n")  # the line ending is not counted
    reference = write(tmp_path / "ref.txt", line + b"\n")
    result = run_module(hypothesis, reference, "--json")
    # Hypothesis and reference are the same words: every precision is 1 and so is the score.
    assert (result.returncode, json.loads(result.stdout)["bleu"], result.stderr) == (0, 1.0, "")


def test_a_verdict_lost_in_the_block_is_raised_again():
    # Python drops an exception raised in a __del__ (here: caught once), as it would the watch's first signal.
    caught = []
    with pytest.raises(NoScheduler):
        with watched(lambda: NoScheduler("tcp://127.0.0.1:8786", "no answer")):
            try:
                time.sleep(30)
            except BaseException as error:
                caught.append(type(error).__name__)
            time.sleep(30)
    assert caught == ["Verdict"]
