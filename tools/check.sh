#!/usr/bin/env bash
# The whole check, as .ci/run and the README's test command run it: lint, format, types, then every test.
# Arguments go to pytest: `bash tools/check.sh -m "not slow"` is the quick loop with the same checks first.
set -euo pipefail
cd "$(dirname "$0")/.."
# The grader's tests run student code in bubblewrap, which never falls back to running it unsandboxed.
bash tools/install_sandbox.sh
python=.venv/bin/python
[ -x "$python" ] || python=python3
"$python" -m ruff check .
"$python" -m ruff format --check .
"$python" -m mypy
# Three processes (pytest-xdist), each taking a whole module or notebook at a time (tests/conftest.py says why):
# on two cores, a third keeps them busy while a test waits for a kernel, a server or a timeout.
"$python" -m pytest -n 3 --dist loadscope "$@"
