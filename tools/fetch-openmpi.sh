#!/bin/sh
# tools/fetch-openmpi.sh DIR - a private Open MPI in DIR, for 'make check-openmpi' on a
# machine whose MPI is MPICH. Installing openmpi-bin would make Open MPI the system's
# mpicc and mpiexec (Debian's alternatives) for every user, so the Debian packages are
# only downloaded (apt-get download) and unpacked (dpkg -x) into DIR; nothing outside
# DIR changes. The packages are those apt would install (apt-get -s), so the libraries
# Open MPI needs that are already installed are used from the system.
# It writes DIR/env.sh, to be sourced: OPAL_PREFIX (Open MPI is relocatable through it),
# PATH and LD_LIBRARY_PATH. Prints DIR/env.sh; exits 1 with a message on failure.
set -eu
dir=${1:?usage: tools/fetch-openmpi.sh DIR}
if [ -f "$dir/env.sh" ]; then
    echo "$dir/env.sh"
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
# libpsm-infinipath1 names its library through Debian's alternatives (postinst, not run
# by dpkg -x): the soname link is made here, in DIR only (ldconfig -n writes no cache)
psm=$dir/usr/lib/libpsm1
if [ -d "$psm" ]; then
    PATH=$PATH:/sbin:/usr/sbin ldconfig -n "$psm"
fi
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
lib=$dir/usr/lib/$arch
cat > "$dir/env.sh" <<ENV
# written by tools/fetch-openmpi.sh: the private Open MPI in $dir
export OPAL_PREFIX="$dir/usr"
export PATH="$dir/usr/bin:\$PATH"
export LD_LIBRARY_PATH="$lib:$lib/openmpi/lib:$psm\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
# PMIx looks for its help texts at its configured path, not under OPAL_PREFIX
export PMIX_MCA_pcompress_base_silence_warning=1
ENV
echo "$dir/env.sh"
