#!/bin/sh
# tools/fetch-openmpi.sh DIR - a private Open MPI in DIR, for 'make check-openmpi' on a
# machine whose MPI is MPICH. Installing openmpi-bin would make Open MPI the system's
# mpicc and mpiexec (Debian's alternatives) for every user, so the Debian packages are
# only downloaded (apt-get download) and unpacked (dpkg -x) into DIR; nothing outside
# DIR changes. The packages are those apt would install (apt-get -s), so the libraries
# Open MPI needs that are already installed are used from the system.
# Use it with OPAL_PREFIX=DIR/usr, PATH=DIR/usr/bin and LD_LIBRARY_PATH=DIR's library
# folders (bench/openmpi.sh sets them). Prints DIR/usr; exits 1 with a message on failure.
set -eu
dir=${1:?usage: tools/fetch-openmpi.sh DIR}
if [ -f "$dir/.complete" ]; then
    echo "$dir/usr"
    exit 0
fi
command -v apt-get >/dev/null && command -v dpkg >/dev/null || {
    echo "fetch-openmpi: needs apt-get and dpkg (Debian/Ubuntu)" >&2; exit 1; }
pkgs=$(apt-get -s --no-install-recommends install openmpi-bin libopenmpi-dev 2>/dev/null |
       awk '$1 == "Inst" { print $2 }')
[ -n "$pkgs" ] || {
    echo "fetch-openmpi: apt-get cannot resolve openmpi-bin (run apt-get update?)" >&2; exit 1; }
mkdir -p "$dir/debs"
dir=$(cd "$dir" && pwd)
# apt-get download writes into the current folder
(cd "$dir/debs" && apt-get download $pkgs >&2) || {
    echo "fetch-openmpi: apt-get download failed for: $pkgs" >&2; exit 1; }
for deb in "$dir"/debs/*.deb; do
    dpkg -x "$deb" "$dir"
done
[ -x "$dir/usr/bin/mpicc.openmpi" ] || {
    echo "fetch-openmpi: no usr/bin/mpicc.openmpi in $dir after unpacking" >&2; exit 1; }
touch "$dir/.complete"
echo "$dir/usr"
