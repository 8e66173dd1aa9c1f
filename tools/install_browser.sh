#!/usr/bin/env bash
# Make sure Debian's chromium is there for the browser tests (tests/test_pages_in_chromium.py): they render the
# match view and the lessons' website in a real headless browser and look at the screenshots.
# With chromium on the PATH (or $CHROMIUM naming a Chromium or Chrome binary), it does nothing.
# As root on Debian or Ubuntu it installs the package `chromium` with apt-get; otherwise it says
# what to run and exits non-zero, so that the README's test command stops before the tests.
set -euo pipefail

if [ -n "${CHROMIUM:-}" ]; then
    command -v "$CHROMIUM" >/dev/null 2>&1 && exit 0
    echo "install_browser.sh: CHROMIUM is set to \"$CHROMIUM\", which is not a program; unset it or point it at Chromium or Chrome" >&2
    exit 1
fi

. "$(dirname "$0")/apt_install.sh"
status=0
install_with_apt install_browser.sh chromium chromium "about 300 MB" || status=$?
[ "$status" -eq 2 ] || exit "$status"

cat >&2 <<'MESSAGE'
install_browser.sh: the browser tests need Chromium, and `chromium` is not on the PATH.
Install Debian's package (Debian, Ubuntu), then run the tests again:

    sudo apt-get update && sudo apt-get install -y chromium

or point CHROMIUM at a Chromium or Google Chrome you have, for example
    export CHROMIUM="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
MESSAGE
exit 1
