"""One graded process: start it, answer its requests, collect its answers until its budget is spent.

Everything the process sends is untrusted: each message is checked, and the
clock is the grader's own, which no message can reset.
"""

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import sandbox
from .plain import call_text, clip

# What the graded process runs, sent as text: read once, never a path the student's code could use.
SANDBOX_SOURCE = Path(sandbox.__file__).read_text(encoding="utf-8")
MAX_LINE = 1 << 20  # bytes in one message from the student's process
MAX_MESSAGES = 10_000  # messages from one graded process
MAX_BYTES = 16 << 20  # bytes from one graded process, all messages together
# The largest arguments the grader computes NLTK's answers for, on a graded function's request:
# more than any lesson needs, and little enough that no request can stall the grader.
MAX_ITEMS, MAX_INT = 20_000, 1_000


class Session:
    """One graded process: start it, answer its requests, collect its answers until the budget is spent."""

    def __init__(self, job: dict, budget: float, helpers: dict[str, Callable], classes: dict[str, type]) -> None:
        self.job, self.budget, self.helpers, self.classes = job, budget, helpers, classes
        self.answers: dict[int, list] = {}
        self.failure = ""  # why the function earns nothing, whatever it answered
        self.refused: list[str] = []
        self.package = ""
        self.stderr = ""
        self.exit_code: int | None = None

    def run(self) -> None:
        # One BLAS thread: each would reserve address space under the memory limit.
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": self.job["scratch"]}
        env.update(dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1"))
        deadline = time.monotonic() + self.budget
        # The graded process ends when this end of the pipe closes, however the grader ends.
        alive, self.job["alive_fd"] = _lifeline()
        with tempfile.TemporaryFile() as stderr:
            process = subprocess.Popen(
                [sys.executable, "-I", "-B", "-c", sandbox.BOOTSTRAP],
                cwd=self.job["scratch"],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=True,
                pass_fds=(self.job["alive_fd"],),
            )
            os.close(self.job["alive_fd"])
            replies: queue.Queue = queue.Queue()
            messages: queue.Queue = queue.Queue()
            threading.Thread(target=_write, args=(process.stdin, replies), daemon=True).start()
            threading.Thread(target=_read, args=(process.stdout, messages), daemon=True).start()
            replies.put(json.dumps(SANDBOX_SOURCE))
            replies.put(json.dumps(self.job))
            try:
                self._talk(messages, replies, deadline)
            finally:
                replies.put(None)
                _stop(process)
                os.close(alive)
                stderr.seek(0)
                self.stderr = stderr.read(1 << 16).decode("utf-8", "replace")
                self.exit_code = process.returncode

    def _talk(self, messages: queue.Queue, replies: queue.Queue, deadline: float) -> None:
        cases, received = len(self.job["cases"]), 0
        for _ in range(MAX_MESSAGES):
            try:
                line = messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.failure = f"did not finish within {self.budget:g}s{self._on_case()} (an endless loop?)"
                return
            if line is None:  # the process ended
                if len(self.answers) < cases and not self.failure:
                    self.failure = "ended"
                return
            received += len(line)
            if line is _TOO_LONG or received > MAX_BYTES:
                self.failure = (
                    f"sent the grader a message longer than {MAX_LINE} bytes, or more than {MAX_BYTES >> 20} MB in all"
                )
                return
            try:
                message = json.loads(line)
                self._handle(message, replies)
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as error:
                self.failure = (
                    f"sent the grader a malformed message ({clip(str(error), 80)}): "
                    f"{clip(line.decode('utf-8', 'replace').strip(), 80)}"
                )
                return
            if self.failure or len(self.answers) == cases:
                return
        self.failure = f"sent the grader more than {MAX_MESSAGES} messages"

    def _handle(self, message: dict, replies: queue.Queue) -> None:
        kind = message["kind"]
        if kind == "imported":
            self.package = str(message["file"])
        elif kind == "import-failed":
            self.failure = f"bleu_scratch does not import: {clip(str(message['error']), 200)}"
        elif kind == "missing":
            self.failure = str(message["error"])
        elif kind == "refused":
            if not self.refused:  # the first says enough
                self.refused.append(clip(str(message["what"]), 200))
        elif kind == "call":
            replies.put(json.dumps(self._call(message)))
        elif kind in ("answer", "raised"):
            index = message["index"]
            if type(index) is not int or not 0 <= index < len(self.job["cases"]) or index in self.answers:
                raise ValueError(f"no case {index} is waiting for an answer")
            if kind == "answer":
                value = message["value"]
                # An answer of a type no lesson returns is a wrong answer, not a malformed one.
                if not (
                    isinstance(value, list) and len(value) == 2 and value[0] == "object" and isinstance(value[1], str)
                ):
                    sandbox.decode(value, {"Precision": lambda n, d: None, "BleuStats": lambda **f: None})
                self.answers[index] = ["ok", message["value"]]
            else:
                self.answers[index] = ["raised", str(message["error"]), str(message["message"]), str(message["where"])]
        else:
            raise ValueError(f"no message is called {kind!r}")

    def _call(self, message: dict) -> dict:
        """NLTK's answer for a lesson function the graded one called."""
        helper = self.helpers.get(message["name"])
        if helper is None:
            return {"error": f"{message['name']} is not available while this function is graded"}
        try:
            args = [sandbox.decode(a, self.classes) for a in message["args"]]
            kwargs = {str(k): sandbox.decode(v, self.classes) for k, v in message["kwargs"].items()}
            if not _small([args, kwargs]):
                return {
                    "error": f"{message['name']} is answered for at most {MAX_ITEMS} items and numbers up to {MAX_INT}"
                }
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return {"value": sandbox.encode(helper(*args, **kwargs), self.classes)}
        except Exception as error:  # noqa: BLE001 (the student's arguments may be anything)
            return {
                "error": (
                    f"{message['name']} could not use those arguments: {type(error).__name__}: {clip(str(error), 120)}"
                )
            }

    def _on_case(self) -> str:
        waiting = len(self.answers)
        if waiting >= len(self.job["cases"]):
            return ""
        return f" on {call_text(self.job['call'], self.job['cases'][waiting])}"


_TOO_LONG = b"\0"


def _small(value: Any) -> bool:
    """Whether ``value`` has at most MAX_ITEMS items in all and no number above MAX_INT.

    >>> _small([["a", "b"], 3]), _small([10 ** 6]), _small([["a"] * (MAX_ITEMS + 1)])
    (True, False, False)
    """
    items, stack = 0, [value]
    while stack:
        item = stack.pop()
        items += 1
        if items > MAX_ITEMS:
            return False
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and abs(item) > MAX_INT:
            return False
    return True


def _lifeline() -> tuple[int, int]:
    """A pipe: the grader keeps the write end, the graded process waits on the read end."""
    read_end, write_end = os.pipe()
    return write_end, read_end


def _read(stream: Any, messages: queue.Queue) -> None:
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            break
        if len(line) > MAX_LINE:
            messages.put(_TOO_LONG)
            break
        messages.put(line)
    messages.put(None)


def _write(stream: Any, replies: queue.Queue) -> None:
    """Write the grader's lines; a process that stops reading blocks only this thread."""
    try:
        while (reply := replies.get()) is not None:
            stream.write(reply.encode("utf-8") + b"\n")
            stream.flush()
    except OSError:
        pass


def _stop(process: subprocess.Popen) -> None:
    """End the graded process and anything it started."""
    try:
        os.killpg(process.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
