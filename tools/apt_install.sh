# Sourced by tools/install_*.sh: install_with_apt SCRIPT PACKAGE COMMAND SIZE returns 0 when COMMAND is on
# the PATH; otherwise it installs Debian's PACKAGE with apt-get when running as root on Debian or Ubuntu
# and returns 0 once COMMAND is there, 1 after printing apt-get's output, 2 when it cannot try.
install_with_apt() {
    local script="$1" package="$2" command="$3" size="$4" log
    command -v "$command" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        return 2
    fi
    echo "$script: installing Debian's $package with apt-get (once; $size)"
    log="$(mktemp)"
    if DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >>"$log" 2>&1; then
        rm -f "$log"
        command -v "$command" >/dev/null 2>&1 && return 0
    fi
    cat "$log" >&2
    echo "$script: apt-get could not install $package (its output is above)" >&2
    return 1
}
