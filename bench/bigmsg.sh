#!/bin/sh
# A 5 GB array split in two at -n 2 (bench/bigmsg.wtc): one TASK and one RESULT of
# 2.5 GB each, over the 2 GiB one MPI call can carry. Needs about 13 GB of memory
# (rank 0: the array, the TASK, the RESULT; rank 1: the TASK, its copy, the RESULT):
# it does not start with less available. BYTES=N changes the size. Not part of
# `make check` (tests/unit/rt_pieces.sh tests the pieces with a small chunk).
cd "$(dirname "$0")/.." || exit 2
BYTES=${BYTES:-5000000000}
need_kb=$((BYTES / 1024 * 27 / 10))
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ "${avail_kb:-0}" -lt "$need_kb" ]; then
    echo "bigmsg: skipped: $((avail_kb / 1048576)) GiB available, $((need_kb / 1048576)) GiB needed"
    exit 0
fi
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
bin/wtcc --no-predict bench/bigmsg.wtc -o "$dir/bigmsg" || exit 2
/usr/bin/time -f "bigmsg: %e s, max RSS of a rank %M KB" \
    timeout 600 mpiexec -n 2 "$dir/bigmsg" "$BYTES" --wtc-stats
