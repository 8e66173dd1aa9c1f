#!/usr/bin/env bash
# The learner's command (README, "Two commands"): make the lessons' environment and open them in JupyterLab.
# The environment is .venv/lessons, from requirements.txt alone: no course tooling (the tests' environment,
# .venv itself, adds nbgrader, whose menus and configuration warnings a learner does not need). Inside .venv, it
# is left out wherever .venv is: git, the student edition, the linters, pytest's collection. JupyterLab serves the repository's
# root, so that the package's modules (bleu_scratch/*.py) are in its file browser, and opens lesson 00 in
# notebooks/. As root (a container, say) it passes --allow-root, without which JupyterLab refuses to start.
# Arguments go to JupyterLab: `bash tools/lessons.sh --port 8889`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv/lessons
[ -d "$venv" ] || python3 -m venv "$venv"
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
