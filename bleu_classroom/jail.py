"""Running untrusted code in bubblewrap (Debian's ``bubblewrap``, command ``bwrap``), every limit kept outside.

The sandbox has its own process, network, IPC and host-name namespaces, no capabilities, a new session,
and dies with its parent. Inside is only what the caller mounts, the system's programs and Python (its
installed packages hidden), numpy, all read-only, and a private ``/tmp`` and ``/dev/shm``, each of bounded
size. From outside, the grader keeps the wall clock (it kills the sandbox), reads at most ``max_output``
bytes, and sets the limits before bubblewrap starts: each process's address space, and, in a control group
where the system lets it make one, the memory and processes of the whole sandbox (else a limit on the
user's processes, which does not bind root: as root, no sandbox starts without a control group).
Bubblewrap: the small, well-kept tool Flatpak runs on, packaged by Debian, with no daemon.
"""

import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import uuid
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from .errors import ClassroomError

INSTALL = "install bubblewrap (Debian, Ubuntu: sudo apt-get install -y bubblewrap; or run tools/install_sandbox.sh)"
PACKAGES = "/python-packages"  # where numpy is mounted
CGROUP_ROOTS = (Path("/sys/fs/cgroup"),)
ROOT_WITHOUT_CGROUP = (
    "running as root, the grader can bound a sandbox's processes and memory only with a control group, and it "
    "cannot make one here: run it as an ordinary user, or where /sys/fs/cgroup is writable with the pids controller"
)


class SandboxUnavailable(ClassroomError):
    """No sandbox can start here: grading stops, it never runs student code without one."""


@dataclass
class Limits:
    seconds: float  # wall clock, from starting bubblewrap to its end
    memory_mb: int  # all the sandbox's processes together (each, without a control group); 0: none
    processes: int  # processes and threads at once
    disk_mb: int  # the private /tmp
    max_output: int  # bytes read from standard output; standard error is kept to 64 kB


@dataclass
class Outcome:
    stdout: bytes
    stderr: str
    exit_code: int
    timed_out: bool
    too_much_output: bool


@functools.cache
def check() -> None:
    """Stop with one line saying why if bubblewrap cannot start a sandbox here; never fall back to none."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(
            f"the grader runs student code only in a sandbox, and bwrap is not installed: {INSTALL}"
        )
    # The sandbox every grade starts, with its options (an older bubblewrap has no --size, say).
    sandbox = sandbox_command(["/bin/true"], {}, Limits(seconds=60, memory_mb=0, processes=16, disk_mb=1, max_output=0))
    probe = subprocess.run([bwrap, *sandbox[1:]], capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        said = (probe.stderr.strip().splitlines() or ["no message"])[-1]
        raise SandboxUnavailable(
            f"bubblewrap cannot start a sandbox here ({said}): run the grader as root, or allow unprivileged "
            "user namespaces (sysctl kernel.unprivileged_userns_clone=1; in a container, --privileged)"
        )


def python_command() -> list[str]:
    """Python as it runs in the sandbox: the interpreter the venv was made from, isolated, no site-packages."""
    executable = getattr(sys, "_base_executable", sys.executable)
    return [executable, "-I", "-S", "-B"]


def sandbox_command(
    command: list[str],
    mounts: dict[str, Path],
    limits: Limits,
    writable: dict[str, Path] | None = None,
    chdir: str = "/tmp",
) -> list[str]:
    """bubblewrap's command line: ``mounts`` read-only and ``writable`` read-write (sandbox path -> host path)."""
    # The private /tmp first: a mount made after it may lie below it (a virtual environment or a course
    # folder under the host's /tmp), and one made before it would be hidden by it.
    argv = ["bwrap", *_isolation(), "--size", str(limits.disk_mb << 20), "--tmpfs", "/tmp"]
    # /dev's shared memory is a folder in memory too, which no limit on a process's memory counts: as small as /tmp.
    argv += ["--size", str(limits.disk_mb << 20), "--tmpfs", "/dev/shm"]
    argv += [*_system(), *_python(), *_numpy()]
    for inside, outside in mounts.items():
        argv += ["--ro-bind", str(outside), inside]
    # The sandbox's root and its /dev are folders in memory too: read-only (below), so that /tmp and /dev/shm are
    # the only places to write (device files such as /dev/null still take writes).
    for inside, outside in (writable or {}).items():
        argv += ["--bind", str(outside), inside]
    return [*argv, "--remount-ro", "/", "--remount-ro", "/dev", "--chdir", chdir, "--", *command]


def start(
    argv: list[str], limits: Limits, new_session: bool = True, **popen: Any
) -> "tuple[subprocess.Popen, _Cgroup | None]":
    """Start bubblewrap's ``argv`` with the limits set from outside; the caller ends it with ``stop``."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "MPLCONFIGDIR": "/tmp"}
    env.update(dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1"))
    group = _Cgroup.make(limits)
    if group is None and os.geteuid() == 0:  # the limit on the user's processes does not bind root
        raise SandboxUnavailable(ROOT_WITHOUT_CGROUP)
    process = subprocess.Popen(
        argv,
        env=env,
        start_new_session=new_session,
        preexec_fn=_limiter(limits, group),  # noqa: PLW1509 (only system calls between fork and exec)
        **popen,
    )
    return process, group


def run(command: list[str], mounts: dict[str, Path], stdin: bytes, limits: Limits) -> Outcome:
    """Run ``command`` in a sandbox with ``mounts`` (sandbox path -> host path, read-only)."""
    pipes = dict.fromkeys(("stdin", "stdout", "stderr"), subprocess.PIPE)
    process, group = start(sandbox_command(command, mounts, limits), limits, **pipes)
    out, err = bytearray(), bytearray()
    flooded = threading.Event()
    readers = [
        threading.Thread(target=_read, args=(process.stdout, out, limits.max_output, flooded, process), daemon=True),
        threading.Thread(target=_read, args=(process.stderr, err, 1 << 16, None, None), daemon=True),
        threading.Thread(target=_write, args=(process.stdin, stdin), daemon=True),
    ]
    for reader in readers:
        reader.start()
    timed_out = False
    try:
        process.wait(timeout=limits.seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        stop(process, group)
    for reader in readers[:2]:
        reader.join(timeout=5)
    return Outcome(bytes(out), err.decode("utf-8", "replace"), process.returncode, timed_out, flooded.is_set())


def _isolation() -> list[str]:
    return "--unshare-all --die-with-parent --new-session --cap-drop ALL --proc /proc --dev /dev".split()


def _system() -> list[str]:
    """The system's programs and libraries, read-only, with the Python packages installed there hidden."""
    argv = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    for hidden in sorted(Path("/usr/lib").glob("python3*/*-packages")) + sorted(
        Path("/usr/local/lib").glob("python3*/*-packages")
    ):
        argv += ["--tmpfs", str(hidden)]
    return argv


def _python() -> list[str]:
    """Python's prefix read-only, its own site-packages hidden (NLTK, sacrebleu, the grader could be there)."""
    prefix = str(Path(sys.base_prefix).resolve())
    argv = [] if prefix.startswith("/usr/") or prefix == "/usr" else ["--ro-bind", prefix, prefix]
    purelib = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
    for key in ("purelib", "platlib"):
        place = Path(purelib[key])
        if place.is_dir():
            argv += ["--tmpfs", str(place)]
    return argv


def _numpy() -> list[str]:
    spec = find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations))).resolve()
    argv = ["--ro-bind", str(folder), f"{PACKAGES}/numpy"]
    libs = folder.parent / "numpy.libs"  # the wheel's own BLAS
    if libs.is_dir():
        argv += ["--ro-bind", str(libs), f"{PACKAGES}/numpy.libs"]
    return argv


class _Cgroup:
    """A control group of its own (version 1 or 2) holding the sandbox, where this process may make one."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders

    @classmethod
    def make(cls, limits: Limits) -> "_Cgroup | None":
        name, root, memory = f"bleu-grade-{uuid.uuid4().hex}", CGROUP_ROOTS[0], str(limits.memory_mb << 20)
        group = cls([])
        try:
            if (root / "pids" / "tasks").exists():  # version 1: one hierarchy per controller
                plan = {root / "pids" / name: {"pids.max": str(limits.processes)}}
                if limits.memory_mb and (root / "memory" / "tasks").exists():
                    plan[root / "memory" / name] = {"memory.limit_in_bytes": memory}
            elif "pids" in (root / "cgroup.subtree_control").read_text():  # version 2
                plan = {root / name: {"pids.max": str(limits.processes)}}
                if limits.memory_mb:
                    plan[root / name] |= {"memory.max": memory, "memory.swap.max": "0"}
            else:
                return None
            for folder, settings in plan.items():
                folder.mkdir()
                group.folders.append(folder)
                for setting, value in settings.items():
                    (folder / setting).write_text(value)
        except OSError:
            group.remove()
            return None
        return group

    def kill(self) -> None:
        for _ in range(50):
            pids = set()
            for folder in self.folders:
                try:
                    pids |= {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
                except OSError:
                    pass
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            threading.Event().wait(0.02)

    def remove(self) -> None:
        for folder in self.folders:
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # its last processes are still being reaped
                    threading.Event().wait(0.02)


def _processes_of(uid: int) -> int:
    """How many processes and threads the user ``uid`` runs now."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                pass
    return count


def _limiter(limits: Limits, group: _Cgroup | None):  # noqa: ANN202
    """What the child runs between fork and exec: join the control group, set limits it cannot raise."""
    procs = [os.fsencode(folder / "cgroup.procs") for folder in group.folders] if group else []
    rlimits = [(resource.RLIMIT_CORE, 0)]
    if group is None:  # Linux counts all the user's processes: those running now, and the sandbox's
        rlimits.append((resource.RLIMIT_NPROC, _processes_of(os.getuid()) + limits.processes))
    if limits.memory_mb:
        rlimits.append((resource.RLIMIT_AS, limits.memory_mb << 20))

    def limit() -> None:
        for path in procs:
            fd = os.open(path, os.O_WRONLY)
            os.write(fd, b"0")
            os.close(fd)
        for which, value in rlimits:
            resource.setrlimit(which, (value, value))

    return limit


def _read(stream, into: bytearray, cap: int, flooded: threading.Event | None, process) -> None:  # noqa: ANN001
    """Keep the first ``cap`` bytes; past them, end the sandbox (answers) or drop the rest (what it prints)."""
    while chunk := stream.read1(1 << 16):
        room = max(0, cap - len(into))
        into += chunk[:room]
        if len(chunk) > room and flooded is not None:
            flooded.set()
            _signal(process)
            return


def _write(stream, data: bytes) -> None:  # noqa: ANN001
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass  # the sandbox stopped reading: it answers for that itself


def _signal(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop(process: subprocess.Popen, group: "_Cgroup | None") -> None:
    """End the sandbox and everything in it: its process group, then (its namespace's first process gone
    with bubblewrap) the kernel ends the rest; the control group, where there is one, makes sure."""
    _signal(process)
    if process.poll() is None:  # not the leader of its own process group
        process.kill()
    process.wait()
    if group:
        group.kill()
        group.remove()
