#!/bin/sh
# The shared heap's filler (runtime/mpi/heap.c "the filler", doc/runtime.md "Big buffers
# stay where they are on one host"): a big block main takes above the slice's high-water
# mark returns at once and a thread of rank 0 (wtc-heapfill) reserves its pages on the
# spare core; it pauses while a region runs. rt_shfill.wtc says whether the thread runs
# and checks the data where it lies (other ranks read it by address), zeros from calloc,
# a block taken after a region, and a child of fork.
#   -n 2 steal, -n 3 simple, -n 4 dynamic: the thread runs, everything right
#   WTC_HEAP_FILL=0, WTC_SHARED_HEAP=0 and -n 1: no thread, everything right
#   a private /dev/shm of 400 MiB (where a mount namespace can be made): 24 MiB blocks
#     fit beside the 256 MiB margin, each under a quarter of what is spare (the filler
#     runs), the 48 MiB one is over it (reserved before main gets it: another job could
#     take the rest meanwhile), right either way
#   a private /dev/shm of 800 MiB: what rank 0's filler has still to reserve counts
#     in another rank's room check too (rt_shfill_room.wtc)
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/shfill
rt_wtcc rt_shfill "$prog"
ok="first OK
zeros OK
after a region OK
fork OK"

for c in "2 steal" "3 simple" "4 dynamic"; do
    set -- $c
    rt_run $1 "$prog" --wtc-mode=$2
    rt_expect "$2 -n $1: the filler runs" 0 "filler 1
$ok"
done
RT_RC=0
WTC_HEAP_FILL=0 timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
rt_expect "WTC_HEAP_FILL=0, -n 2: no filler" 0 "filler 0
$ok"
RT_RC=0
WTC_SHARED_HEAP=0 timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
rt_expect "WTC_SHARED_HEAP=0, -n 2: no filler" 0 "filler 0
$ok"
rt_run 1 "$prog"
rt_expect "-n 1: no shared heap, no filler" 0 "filler 0
$ok"

if unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm' 2>/dev/null; then
    RT_RC=0
    unshare -m sh -c "mount -t tmpfs -o size=400m tmpfs /dev/shm &&
        timeout $RT_TIMEOUT mpiexec -n 2 '$prog' 6291456" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "/dev/shm of 400 MiB" 0 "filler 1
$ok"
    # 800 MiB (256 kept free): main's 400 MiB, still to reserve when a region starts,
    # leave no room for rank 1's 480 MiB, which comes from the C library (it took rank
    # 0's pages, whose first touch was a SIGBUS, when only rank 0 counted them)
    rt_wtcc rt_shfill_room "$prog.room"
    RT_RC=0
    unshare -m sh -c "mount -t tmpfs -o size=800m tmpfs /dev/shm &&
        timeout $RT_TIMEOUT mpiexec -n 2 '$prog.room' 400 480" >"$RT_STDOUT" 2>"$RT_STDERR" ||
        RT_RC=$?
    rt_expect "/dev/shm of 800 MiB: another rank's block in a region" 0 "other rank 1
touched OK"
else
    echo "(no mount namespace here: the small /dev/shm case is not run)"
fi
rt_summary
