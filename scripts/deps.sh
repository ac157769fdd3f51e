# Sourced by the other scripts: install what the build and the tests need
# when it is missing (Debian; as root, or with sudo when available).
iprof_need() {
    missing=""
    command -v meson >/dev/null 2>&1 || missing="$missing meson"
    command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
    command -v cc >/dev/null 2>&1 || missing="$missing gcc"
    command -v python3 >/dev/null 2>&1 || missing="$missing python3"
    for p in "$@"; do
        command -v "${p%%:*}" >/dev/null 2>&1 || missing="$missing ${p#*:}"
    done
    [ -z "$missing" ] && return 0
    echo "installing:$missing" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq $missing >&2
}

# A Python module is not a command: prints the pseudo-command
# "python3-MODULE-missing:PACKAGE" for iprof_need when Debian's python3 (for
# which Debian's python3-* packages are installed) cannot import MODULE.
iprof_pymod() {
    py=/usr/bin/python3
    [ -x "$py" ] || py=python3
    "$py" -c "import $1" >/dev/null 2>&1 || echo "python3-$1-missing:$2"
}
