#!/bin/sh
# A job's start-up makes as few collectives as it can (doc/runtime.md, the doorbell):
# with more ranks than cores each collective costs a scheduler time slice (4-8 ms at
# -n 3 on 2 cores, MPICH's spinning collectives), and on a cluster each costs log P
# latencies. With the doorbell: MPI_Comm_dup, one MPI_Allgather of the hosts and one
# MPI_Allreduce that agrees every rank mapped the segment and doubles as the start
# barrier (before: two more, an Allreduce and a Barrier); without it (WTC_DOORBELL=0):
# MPI_Comm_dup and the barrier. The doorbell must still work: a computing rank asks MPI
# (MPI_Iprobe) only when its mail flag is up, so rank 0 probes far less than without it.
# No shared-memory segment of the job is left behind.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/start
shim=$RT_OUT/start_count.so
bin/wtcc --no-predict tests/unit/rt_start.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_start.wtc"; exit 1; }
mpicc -shared -fPIC -O2 tests/unit/rt_start_count.c -o "$shim" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_start_count.c"; exit 1; }
segs() { ls /dev/shm 2>/dev/null | grep '^wtcrt\.' | sort; }
before=$(segs)

# run NP DOORBELL: the program in steal mode under the shim; sets RT_RC, RT_STDERR
run() {
    RT_RC=0
    WTC_DOORBELL=$2 timeout "$RT_TIMEOUT" mpiexec -n "$1" env LD_PRELOAD="$PWD/$shim" \
        "$prog" --wtc-mode=steal >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
}
# starts: the distinct start lists of all ranks; probes: rank 0's MPI_Iprobe count
starts() { sed -n 's/^rank [0-9]* start: *//p' "$RT_STDERR" | sort -u; }
probes() { awk '$1 == "rank" && $2 == "0" && $3 == "probes" { print $4 }' "$RT_STDERR"; }

for np in 2 3 5; do
    run "$np" 0
    ok0=$RT_RC out0=$(cat "$RT_STDOUT") start0=$(starts) p0=$(probes)
    run "$np" 1
    ok1=$RT_RC out1=$(cat "$RT_STDOUT") start1=$(starts) p1=$(probes)
    if [ "$ok0$ok1" != 00 ] || [ "$out0" != 46368 ] || [ "$out1" != 46368 ]; then
        rt_fail "-n $np: status $ok0/$ok1, output '$out0'/'$out1' (want 46368)"
    elif [ "$start1" != "Comm_dup Allgather Allreduce" ]; then
        rt_fail "-n $np doorbell: start-up collectives '$start1'"
    elif [ "$start0" != "Comm_dup Barrier" ]; then
        rt_fail "-n $np WTC_DOORBELL=0: start-up collectives '$start0'"
    elif [ -z "$p0" ] || [ -z "$p1" ] || [ $((p1 * 4)) -ge "$p0" ]; then
        rt_fail "-n $np: rank 0 probed ${p1:-?} times with the doorbell, ${p0:-?} without"
    else
        rt_pass "-n $np: start-up '$start1' (no doorbell: '$start0'); rank 0 probed $p1 times ($p0 without)"
    fi
done

# a segment of another job may come and go meanwhile: look twice
left=$(printf '%s\n' "$(segs)" | grep -vxF -e "$before" -e '' || true)
[ -n "$left" ] && { sleep 1; left=$(printf '%s\n' "$(segs)" | grep -vxF -e "$before" -e '' || true); }
if [ -z "$left" ]; then
    rt_pass "no shared-memory segment left behind"
else
    rt_fail "segments left in /dev/shm: $left"
fi
rm -f "$shim"
rt_summary
