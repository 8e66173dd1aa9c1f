"""nbgrader's autograde with each notebook's kernel in a bubblewrap sandbox.

The course's ``nbgrader_config.py`` names ``SandboxedKernelManager``: autograde starts each kernel through
``python -m bleu_classroom.kernel CONNECTION_FILE -- KERNEL_COMMAND``, which runs it in bubblewrap
(``jail.py``) with the submission's autograded folder, Python and the environment's packages read-only, and
nothing else (no gradebook, no other submission, no lessons, no network). The folder is read-only because
nbgrader, outside the sandbox, writes the executed notebook there and reads it again for feedback: a link the
kernel could plant in place of the notebook would make nbgrader write over, or show, any file it can reach.
The lessons write only below /tmp, the sandbox's own. The kernel talks over Unix sockets that this process
joins to the TCP ports nbgrader connects to.
"""

import json
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.manager import KernelManager

from . import jail

CHANNELS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
KERNEL_LIMITS = jail.Limits(seconds=0, memory_mb=2048, processes=64, disk_mb=256, max_output=0)


class SandboxedKernelManager(KernelManager):
    """A kernel manager whose kernels run in bubblewrap (``python -m bleu_classroom.kernel``)."""

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        command = super().format_kernel_cmd(extra_arguments)
        return [sys.executable, "-P", "-m", "bleu_classroom.kernel", str(self.connection_file), "--", *command]


def main(argv: list[str]) -> int:
    connection_file, command = Path(argv[0]), argv[argv.index("--") + 1 :]
    # Ended (jupyter_client's SIGTERM to the group, before its SIGKILL), it still stops the sandbox and removes the
    # sockets' folder; a second SIGTERM does not cut that short.
    signal.signal(signal.SIGTERM, _ending)
    outside = json.loads(connection_file.read_text(encoding="utf-8"))
    sockets = Path(tempfile.mkdtemp(prefix="bleu-kernel-"))
    process, group = None, None
    try:
        inside = {**outside, "transport": "ipc", "ip": "/kernel/channel"}
        (sockets / "connection.json").write_text(json.dumps(inside), encoding="utf-8")
        command = ["/kernel/connection.json" if part == str(connection_file) else part for part in command]
        here = Path.cwd()
        prefix = Path(sys.prefix).resolve()
        mounts = {str(prefix): prefix} if prefix != Path(sys.base_prefix).resolve() else {}
        mounts[str(here)] = here
        argv_ = jail.sandbox_command(command, mounts, KERNEL_LIMITS, {"/kernel": sockets}, chdir=str(here))
        # Same process group as this one: when nbgrader ends the kernel's group, the sandbox goes too.
        process, group = jail.start(argv_, KERNEL_LIMITS, new_session=False)
        # nbgrader interrupts the group on a cell's timeout, then ends it: this process waits for that end.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in CHANNELS:
            channel = sockets / f"channel-{outside[name]}"
            threading.Thread(target=_forward, args=(outside["ip"], outside[name], channel), daemon=True).start()
        return process.wait()
    finally:
        if process is not None:
            jail.stop(process, group)
        shutil.rmtree(sockets, ignore_errors=True)  # whatever the kernel left there; links are removed, not followed


def _ending(signum: int, frame: Any) -> None:
    """SIGTERM: end ``main`` through its ``finally``, once (a second SIGTERM is ignored)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(128 + signum)


def _forward(ip: str, port: int, path: Path) -> None:
    """Join each connection to ``ip:port`` to the Unix socket ``path`` the kernel listens on."""
    server = socket.create_server((ip, port))
    while True:
        client, _ = server.accept()
        kernel = socket.socket(socket.AF_UNIX)
        for _ in range(600):  # the kernel makes its sockets as it starts
            try:
                kernel.connect(str(path))
                break
            except OSError:
                time.sleep(0.05)
        for source, target in ((client, kernel), (kernel, client)):
            threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: Any, target: Any) -> None:
    try:
        while data := source.recv(1 << 16):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
