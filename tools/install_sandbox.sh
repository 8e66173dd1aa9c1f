#!/usr/bin/env bash
# Make sure bubblewrap (command `bwrap`) is there: the grader runs each student function in a bubblewrap
# sandbox and never without one (bleu_classroom/jail.py).
# With bwrap on the PATH, it does nothing. As root on Debian or Ubuntu it installs the package `bubblewrap`
# with apt-get; otherwise it says what to run and exits non-zero, so that the test command stops first.
set -euo pipefail

. "$(dirname "$0")/apt_install.sh"
status=0
install_with_apt install_sandbox.sh bubblewrap bwrap "under 1 MB" || status=$?
[ "$status" -eq 2 ] || exit "$status"

cat >&2 <<'MESSAGE'
install_sandbox.sh: the grader runs student code in bubblewrap, and `bwrap` is not on the PATH.
Install Debian's package (Debian, Ubuntu), then run the tests again:

    sudo apt-get update && sudo apt-get install -y bubblewrap
MESSAGE
exit 1
