#!/usr/bin/env bash
# Make sure bubblewrap (command `bwrap`) is there: the grader runs each student function in a bubblewrap
# sandbox and never without one (bleu_classroom/jail.py).
# With bwrap on the PATH, it does nothing. As root on Debian or Ubuntu it installs the package `bubblewrap`
# with apt-get; otherwise it says what to run and exits non-zero, so that the test command stops first.
set -euo pipefail

if command -v bwrap >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install_sandbox.sh: installing Debian's bubblewrap with apt-get (once; under 1 MB)"
    log="$(mktemp)"
    if DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >>"$log" 2>&1; then
        rm -f "$log"
        command -v bwrap >/dev/null 2>&1 && exit 0
    fi
    cat "$log" >&2
    echo "install_sandbox.sh: apt-get could not install bubblewrap (its output is above)" >&2
    exit 1
fi

cat >&2 <<'MESSAGE'
install_sandbox.sh: the grader runs student code in bubblewrap, and `bwrap` is not on the PATH.
Install Debian's package (Debian, Ubuntu), then run the tests again:

    sudo apt-get update && sudo apt-get install -y bubblewrap
MESSAGE
exit 1
