#!/bin/sh
# Install the system packages wtcc needs when they are missing (Debian/Ubuntu).
# Called by every make target, so a fresh machine needs nothing but 'make'.
#   sh tools/ensure-deps.sh          what the build needs
#   sh tools/ensure-deps.sh check    also what the tests use: rsvg-convert (librsvg2-bin),
#                                    which renders the predictor's --wtc-plot SVG
set -e
missing=""
[ "${1:-}" = check ] && ! command -v rsvg-convert >/dev/null 2>&1 &&
    missing="$missing librsvg2-bin"
command -v mpicc >/dev/null 2>&1 || missing="$missing mpich libmpich-dev"
command -v mpiexec >/dev/null 2>&1 || missing="$missing mpich"
command -v flex >/dev/null 2>&1 || missing="$missing flex"
command -v bison >/dev/null 2>&1 || missing="$missing bison"
[ -z "$missing" ] && exit 0
echo "wtcc: installing missing packages:$missing" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "wtcc: error: apt-get not found; install$missing with your package manager" >&2
    exit 2
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "wtcc: error: need root (or sudo) to install$missing" >&2; exit 2
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
