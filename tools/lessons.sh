#!/usr/bin/env bash
# The learner's command (README, "Two commands"): make the lessons' environment and open them in JupyterLab.
# The environment is .venv/lessons, from requirements.txt alone: no course tooling (the tests' environment,
# .venv itself, adds nbgrader, whose menus and configuration warnings a learner does not need). Inside .venv, it
# is left out wherever .venv is: git, the student edition, the linters, pytest's collection. JupyterLab serves the repository's
# root, so that the package's modules (bleu_scratch/*.py) are in its file browser, and opens lesson 00 in
# notebooks/. As root (a container, say) it passes --allow-root, without which JupyterLab refuses to start.
# Arguments go to JupyterLab: `bash tools/lessons.sh --port 8889`. PYTHON names the Python (3.11 or newer) that
# makes the environment; delete .venv/lessons to make it again with another.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv/lessons
python=${PYTHON:-python3}  # the Python that makes the environment: PYTHON=python3.11 bash tools/lessons.sh
new_enough='import sys; sys.exit(sys.version_info < (3, 11))'
# An environment an older Python left, or one without pip (Debian's python3-venv missing then), is made again.
if [ -d "$venv" ] && ! { "$venv/bin/python" -c "$new_enough" && "$venv/bin/python" -m pip --version; } >/dev/null 2>&1; then
    if [ ! -w "$venv" ]; then
        echo "tools/lessons.sh: $venv is from an older Python or has no pip, and is not yours to remake:" \
            "delete it as its owner" >&2
        exit 2
    fi
    echo "tools/lessons.sh: $venv is from an older Python or has no pip; making it again" >&2
    rm -rf "$venv"
fi
if [ ! -d "$venv" ]; then
    if ! command -v "$python" >/dev/null 2>&1; then
        echo "tools/lessons.sh: $python not found; the lessons need Python 3.11 or newer:" \
            "PYTHON=python3.11 bash tools/lessons.sh" >&2
        exit 2
    fi
    if ! "$python" -c "$new_enough" 2>/dev/null; then
        echo "tools/lessons.sh: $python is $("$python" --version 2>&1 | head -n 1); the lessons need Python 3.11" \
            "or newer: PYTHON=python3.11 bash tools/lessons.sh" >&2
        exit 2
    fi
    "$python" -m venv "$venv"
fi
# Install once, and again only after requirements.txt or pyproject.toml (its extras) changed.
installed="$venv/installed-from.txt"
if ! cat requirements.txt pyproject.toml | cmp -s - "$installed"; then
    "$venv/bin/pip" install -q -r requirements.txt
    cat requirements.txt pyproject.toml > "$installed"
fi
as_root=()
[ "$(id -u)" -eq 0 ] && as_root=(--allow-root)
# ${as_root[@]+...}: an empty array is "unbound" under set -u in the bash of macOS (3.2).
exec "$venv/bin/jupyter" lab --ServerApp.root_dir=. \
    --LabApp.default_url=/lab/tree/notebooks/00_setup_and_a_first_score.ipynb ${as_root[@]+"${as_root[@]}"} "$@"
