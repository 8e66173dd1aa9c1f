"""tools/lessons.sh, the learner's command: the lessons' environment, then JupyterLab at the repository's root.

The script runs in a copy of its folder whose environment (.venv/lessons) is made of stand-ins that
record how they are called, as root and, where the tests run as root, as an ordinary user: JupyterLab
gets --allow-root exactly when the user is root. Then it starts the real JupyterLab (this environment's)
on 127.0.0.1 and the test asks it what a learner's browser would: the start page opens lesson 00, and
the file browser holds bleu_scratch/ and notebooks/.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "lessons.sh"
LESSON_00 = "notebooks/00_setup_and_a_first_score.ipynb"
NOBODY = 65534
TIME_LIMIT = 90  # seconds for JupyterLab to answer; a loaded machine is slow, not wrong


def checkout(folder: Path, jupyter: str) -> Path:
    """A folder laid out as the repository for the script, its environment's pip and jupyter the given scripts."""
    (folder / "tools").mkdir(parents=True)
    shutil.copy(SCRIPT, folder / "tools" / "lessons.sh")
    (folder / "requirements.txt").write_text("")
    (folder / "pyproject.toml").write_text("")
    for name in ("notebooks", "bleu_scratch"):
        (folder / name).symlink_to(ROOT / name)
    bin_folder = folder / ".venv" / "lessons" / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "python").write_text("#!/bin/sh\nexit 0\n")  # new enough: the script asks it only that
    (bin_folder / "python").chmod(0o755)
    calls = folder / "calls.txt"
    for name, body in (("pip", f'echo "pip $*" >> "{calls}"'), ("jupyter", jupyter)):
        (bin_folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_folder / name).chmod(0o755)
    return folder


def calls_as(user: int | None, folder: Path) -> list[str]:
    """Run the script (as ``user``, if given) with stand-ins; the calls they recorded."""
    repo = checkout(folder, f'echo "jupyter $*" >> "{folder / "calls.txt"}"')
    (repo / "calls.txt").touch()
    if user is not None:  # the user's own environment and record, as a learner's are
        for path in (repo / ".venv" / "lessons", repo / "calls.txt"):
            os.chown(path, user, user)
    prefix = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] if user is not None else []
    subprocess.run([*prefix, "bash", str(repo / "tools" / "lessons.sh"), "--port", "8889"], check=True, timeout=60)
    return (repo / "calls.txt").read_text().splitlines()


OLD_PYTHON = '#!/bin/sh\n[ "$1" = --version ] && echo "Python 3.10.13" && exit 0\nexit 1\n'


def test_a_python_older_than_3_11_or_none_is_refused_in_one_line_naming_the_fix(tmp_path):
    repo = checkout(tmp_path / "repo", "exit 0")
    old = tmp_path / "python3.10"
    old.write_text(OLD_PYTHON)
    old.chmod(0o755)

    def run(python: str) -> subprocess.CompletedProcess:
        script = ["bash", str(repo / "tools" / "lessons.sh")]
        return subprocess.run(script, env=dict(os.environ, PYTHON=python), capture_output=True, text=True, timeout=60)

    # An environment made before is used whatever PYTHON says: it is only asked to make one.
    assert run(str(old)).returncode == 0
    shutil.rmtree(repo / ".venv" / "lessons")  # as in a fresh clone
    fix = "the lessons need Python 3.11 or newer: PYTHON=python3.11 bash tools/lessons.sh\n"
    for python, said in ((str(old), f"{old} is Python 3.10.13"), ("python3.99", "python3.99 not found")):
        refused = run(python)
        assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", f"tools/lessons.sh: {said}; {fix}")
    assert not (repo / ".venv" / "lessons").exists()


def test_an_environment_an_older_python_left_is_made_again(tmp_path):
    repo = checkout(tmp_path / "repo", "exit 0")
    venv_python = repo / ".venv" / "lessons" / "bin" / "python"
    venv_python.write_text(OLD_PYTHON)
    made = subprocess.run(
        ["bash", str(repo / "tools" / "lessons.sh")],
        env=dict(os.environ, PYTHON=sys.executable),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "is from an older Python or has no pip; making it again" in made.stderr
    # A real environment now, of this Python (its JupyterLab is not installed: requirements.txt is empty here).
    version = subprocess.run([str(venv_python), "--version"], capture_output=True, text=True, check=True).stdout
    assert version.split()[1].startswith(f"{sys.version_info[0]}.{sys.version_info[1]}.")
    assert (repo / ".venv" / "lessons" / "bin" / "pip").is_file()


def expected_calls(as_root: bool) -> list[str]:
    root = " --allow-root" if as_root else ""
    return [
        "pip install -q -r requirements.txt",
        f"jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/{LESSON_00}{root} --port 8889",
    ]


def test_the_command_installs_the_lessons_environment_and_opens_lesson_00_at_the_root(tmp_path):
    assert (ROOT / LESSON_00).is_file()
    first = expected_calls(as_root=os.geteuid() == 0)
    assert calls_as(None, tmp_path / "repo") == first
    # Run again: JupyterLab again, no install until the requirements change.
    again = subprocess.run(["bash", str(tmp_path / "repo" / "tools" / "lessons.sh"), "--port", "8889"], timeout=60)
    assert again.returncode == 0
    assert (tmp_path / "repo" / "calls.txt").read_text().splitlines() == first + first[1:]
    (tmp_path / "repo" / "requirements.txt").write_text("nltk==3.10.4\n")
    subprocess.run(["bash", str(tmp_path / "repo" / "tools" / "lessons.sh"), "--port", "8889"], timeout=60, check=True)
    assert (tmp_path / "repo" / "calls.txt").read_text().splitlines() == first + first[1:] + first


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can run the script as another user")
def test_as_an_ordinary_user_the_command_does_not_pass_allow_root():
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # the ordinary user reads the script and writes the record
        assert calls_as(NOBODY, Path(folder) / "repo") == expected_calls(as_root=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_jupyterlab_starts_for_this_user_with_lesson_00_and_the_package_in_its_file_browser(tmp_path):
    jupyter = Path(sys.executable).parent / "jupyter"
    repo = checkout(tmp_path / "repo", f'exec "{jupyter}" "$@"')
    port, token = free_port(), "lessons-test"
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    server = subprocess.Popen(
        ["bash", str(repo / "tools" / "lessons.sh"), "--no-browser", "--ip=127.0.0.1", f"--port={port}"]
        + [f"--IdentityProvider.token={token}", "--port-retries=0"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + TIME_LIMIT
        while True:
            assert server.poll() is None, f"JupyterLab stopped ({server.returncode}): {server.stderr.read()[-2000:]}"
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, "JupyterLab did not answer"
                time.sleep(0.5)
        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as start:
            opener.open(f"{base}/?token={token}", timeout=10)
        assert start.value.code == 302
        assert start.value.headers["Location"].split("?")[0] == f"/lab/tree/{LESSON_00}"
        top = json.load(urllib.request.urlopen(f"{base}/api/contents?token={token}", timeout=10))
        assert {"bleu_scratch", "notebooks"} <= {item["name"] for item in top["content"]}
        package = json.load(urllib.request.urlopen(f"{base}/api/contents/bleu_scratch?token={token}", timeout=10))
        assert "lesson01_ngrams.py" in {item["name"] for item in package["content"]}
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
