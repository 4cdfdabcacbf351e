#!/bin/sh
# The host's shared heap (doc/runtime.md "Big buffers stay where they are on one host",
# runtime/mpi/heap.c): blocks of 64 KiB and more that the program allocates lie in a
# segment every rank of the host maps at the same address, and a child sent to another
# rank of the host uses its big buffers where they lie: no TASK or RESULT carries them.
# rt_shheap.wtc sorts by a mergesort whose merges allocate and free temporaries (blocks
# come and go while other ranks use the parent's), fills an array through out:-only
# children and sums it through in:-only ones, and checks calloc, realloc,
# posix_memalign and malloc_usable_size on the way, and that a big block realloc grows in
# 63 steps moves at most twice alone and 16 times with a block allocated after it at
# each step (it was copied at every step).
#   every mode at -n 2, 3, 4 (dynamic 3, 4, 5; steal also 8): correct, and the ranks together send less
#     than 1 MB where the same run with WTC_SHARED_HEAP=0 sends more than 10 MB (the
#     copies, as between hosts: the test would pass with the heap silently off otherwise),
#     and --wtc-stats says how much stayed where it lies
#   a wtcc --check build (its heap records) in steal mode
#   ranks under a program that forks them (timeout, twice): they share all the same
#   rt_shheap_churn.wtc: every leaf allocates, grows and frees blocks (big ones in the
#     shared heap) while its parents' buffers are used by address, in three modes
#   two hosts as hydra sees them (two launcher processes, two segments) in three modes:
#     sharing within each, copies between them
#   a private /dev/shm of 64 MiB (no shared heap: 256 MiB stay free for MPI) and of
#     400 MiB (some), where a mount namespace can be made; two jobs taking 600 MiB each
#     at once in one of 1 GiB: both right (one died of a SIGBUS)
#   two jobs at once on this host, each with its own segment; the same started from a
#     rank's environment (PMI_RANK set above the launchers)
#   a stale segment (its launcher gone) is unlinked by the next job, a live one's stays
#   nothing of the jobs is left in /dev/shm
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/shheap
$RT_WTCC -O2 --no-predict tests/unit/rt_shheap.wtc -o "$prog" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build rt_shheap.wtc"; rt_summary; }
$RT_WTCC -O2 --no-predict --check tests/unit/rt_shheap.wtc -o "$prog.chk" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build rt_shheap.wtc --check"; rt_summary; }
before=$(ls /dev/shm 2>/dev/null | grep -c '^wtcrt-heap')
want="msort 1000000 OK
fill and sum OK"

# sent: the bytes the ranks sent together, from the last run's --wtc-stats table
sent() {
    awk '$1 ~ /^[0-9]+$/ && NF >= 12 { s += $12 } END { print s + 0 }' "$RT_STDERR"
}

# case LABEL NP OPTIONS...: correct; sets $bytes
case_() {
    label=$1 np=$2
    shift 2
    rt_run "$np" "$prog" 1000000 --wtc-stats "$@"
    bytes=$(sent)
    if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "$want" ]; then
        rt_fail "$label" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
        return 1
    fi
}

for m in simple dynamic steal; do
    for np in 2 3 4; do
        extra=
        [ $m = dynamic ] && extra=--wtc-masters=1 np=$((np + 1)) # a worker more than 1
        case_ "$m -n $np" $np --wtc-mode=$m $extra || continue
        shared=$bytes
        heapline=$(grep -c '^heap: rank [0-9]* left [0-9.]* MB of buffers' "$RT_STDERR")
        heapgrow=$RT_OUT/grow.txt
        cp "$RT_STDERR" "$heapgrow"
        RT_RC=0
        WTC_SHARED_HEAP=0 timeout "$RT_TIMEOUT" mpiexec -n $np "$prog" 1000000 --wtc-stats \
            --wtc-mode=$m $extra >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        copied=$(sent)
        if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "$want" ]; then
            rt_fail "$m -n $np, WTC_SHARED_HEAP=0" "status $RT_RC"
        elif [ "$shared" -ge 1000000 ] || [ "$copied" -le 10000000 ]; then
            rt_fail "$m -n $np" "sent $shared bytes with the shared heap, $copied without (want < 1 MB and > 10 MB)"
        elif [ "$heapline" = 0 ]; then
            rt_fail "$m -n $np" "no 'heap: rank R left ... MB' line in --wtc-stats"
        elif ! awk '/^grow: moved/ { ok = $3 <= 2 && $5 <= 16 } END { exit !ok }' "$heapgrow"; then
            rt_fail "$m -n $np" "a big block grown by realloc in 63 steps: $(grep '^grow:' "$heapgrow") (want at most 2 and 16)"
        else
            rt_pass "$m -n $np: sent $shared bytes, $copied with WTC_SHARED_HEAP=0"
        fi
    done
done
case_ "steal -n 8" 8 --wtc-mode=steal && rt_pass "steal -n 8: sent $bytes bytes"
case_ "steal -n 3, batch 2" 3 --wtc-mode=steal --wtc-batch=2 &&
    rt_pass "steal -n 3, batch 2: sent $bytes bytes"

rt_run 3 "$prog.chk" 1000000 --wtc-mode=steal
rt_expect "--check build, steal -n 3" 0 "$want"

# ranks under a program the launcher started, which forks them (mpiexec -n 3 perf record
# ./prog, strace -f, timeout): the segment is the launcher's all the same, so they share
# (named after the parent, each such rank had its own and every big buffer was copied)
for wrap in "timeout 100" "timeout 100 timeout 90"; do
    RT_RC=0
    # shellcheck disable=SC2086
    timeout "$RT_TIMEOUT" mpiexec -n 3 $wrap "$prog" 1000000 --wtc-stats --wtc-mode=steal \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    b=$(sent)
    if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "$want" ]; then
        rt_fail "under '$wrap', steal -n 3" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
    elif [ "$b" -ge 1000000 ] || ! grep -q '^heap: rank 1 left' "$RT_STDERR"; then
        rt_fail "under '$wrap', steal -n 3" "sent $b bytes (want < 1 MB: the buffers by address), $(grep -c '^heap:' "$RT_STDERR") heap lines"
    else
        rt_pass "under '$wrap', steal -n 3: sent $b bytes, the buffers by address"
    fi
done

# churn: blocks allocated, grown and freed in every leaf, on every rank, while big
# buffers of the parents are in use by address
$RT_WTCC -O2 --no-predict tests/unit/rt_shheap_churn.wtc -o "$prog.churn" >"$RT_STDERR" 2>&1 ||
    rt_fail "build rt_shheap_churn.wtc"
for m in "steal 4" "dynamic 4" "simple 3"; do
    set -- $m
    rt_run $2 "$prog.churn" 2000000 --wtc-mode=$1
    rt_expect "churn, $1 -n $2" 0 "OK 0"
done

# two hosts, as hydra sees them (-launcher fork -hosts a:2,b:2: two launcher processes,
# so two segments): ranks 0-1 and 2-3 share among themselves, copy to each other, and
# pass on by address what they received as a copy
if mpiexec --version 2>/dev/null | grep -qi hydra; then
    for m in steal dynamic simple; do
        RT_RC=0
        timeout "$RT_TIMEOUT" mpiexec -launcher fork -hosts localhost:2,127.0.0.1:2 -n 4 \
            "$prog" 1000000 --wtc-mode=$m --wtc-stats >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        b=$(sent)
        h=$(grep -c '^heap: rank' "$RT_STDERR")
        if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "$want" ]; then
            rt_fail "two segments, $m -n 4" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
        elif [ "$h" = 0 ] || [ "$b" -le 1000000 ]; then
            rt_fail "two segments, $m -n 4" "$h heap lines, $b bytes sent (want both sharing and copies)"
        else
            rt_pass "two segments, $m -n 4: $h ranks left buffers where they lie, $b bytes sent"
        fi
    done
    RT_RC=0
    timeout "$RT_TIMEOUT" mpiexec -launcher fork -hosts localhost:2,127.0.0.1:2 -n 4 \
        "$prog.churn" 2000000 --wtc-mode=steal >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "two segments, churn, steal -n 4" 0 "OK 0"
fi

# a small /dev/shm (a private one, where a mount namespace may be made): 64 MiB gets no
# shared heap (256 MiB stay free for MPI), 400 MiB some; correct either way
if unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs /dev/shm' 2>/dev/null; then
    for size in 64 400; do
        RT_RC=0
        unshare -m sh -c "mount -t tmpfs -o size=${size}m tmpfs /dev/shm &&
            timeout $RT_TIMEOUT mpiexec -n 4 '$prog.churn' 1000000 --wtc-mode=steal --wtc-stats" \
            >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        h=$(grep -c '^heap: rank' "$RT_STDERR")
        if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "OK 0" ]; then
            rt_fail "/dev/shm of $size MiB" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
        elif [ $size = 64 ] && [ "$h" != 0 ]; then
            rt_fail "/dev/shm of 64 MiB" "$h ranks shared buffers (want none: MPI's room)"
        elif [ $size = 400 ] && [ "$h" = 0 ]; then
            rt_fail "/dev/shm of 400 MiB" "no rank shared a buffer"
        else
            rt_pass "/dev/shm of $size MiB: correct, $h ranks shared buffers"
        fi
    done
    # two jobs started together in a /dev/shm of 1 GiB, each main taking 600 MiB: each
    # job's check saw room (768 MiB spare) without the other's pending pages, and one
    # died of a SIGBUS at its first touch in 5 of 5 runs; a block of more than a quarter
    # of what is spare is reserved before it is handed out, so one job finds no room
    # and gets its block from the C library
    $RT_WTCC -O2 --no-predict tests/unit/rt_shbig.wtc -o "$RT_OUT/shbig" >"$RT_STDERR" 2>&1 ||
        rt_fail "build rt_shbig.wtc" "$(head -c 300 "$RT_STDERR")"
    RT_RC=0
    unshare -m sh -c "mount -t tmpfs -o size=1g tmpfs /dev/shm &&
        { timeout $RT_TIMEOUT mpiexec -n 2 '$RT_OUT/shbig' 600 >'$RT_OUT/big1.$$' 2>&1 &
          timeout $RT_TIMEOUT mpiexec -n 2 '$RT_OUT/shbig' 600 >'$RT_OUT/big2.$$' 2>&1 &
          wait; }" || RT_RC=$?
    if [ "$(grep -h 'MiB' "$RT_OUT/big1.$$" "$RT_OUT/big2.$$")" = "600 MiB OK
600 MiB OK" ]; then
        rt_pass "two jobs of 600 MiB blocks at once in a /dev/shm of 1 GiB: both right"
    else
        rt_fail "two jobs of 600 MiB blocks at once in a /dev/shm of 1 GiB" \
            "$(head -c 200 "$RT_OUT/big1.$$") / $(head -c 200 "$RT_OUT/big2.$$")"
    fi
    rm -f "$RT_OUT/big1.$$" "$RT_OUT/big2.$$"
else
    echo "(no mount namespace here: the small /dev/shm cases are not run)"
fi

# two jobs at once on this host: each its own segment (named after its own launcher)
timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" 1000000 --wtc-mode=steal >"$RT_OUT/job1.$$" 2>"$RT_OUT/job1e.$$" &
j1=$!
timeout "$RT_TIMEOUT" mpiexec -n 3 "$prog" 1000000 --wtc-mode=simple >"$RT_OUT/job2.$$" 2>"$RT_OUT/job2e.$$" &
j2=$!
wait $j1; s1=$?
wait $j2; s2=$?
if [ $s1 = 0 ] && [ $s2 = 0 ] && [ "$(cat "$RT_OUT/job1.$$")" = "$want" ] &&
    [ "$(cat "$RT_OUT/job2.$$")" = "$want" ]; then
    rt_pass "two jobs at once (steal -n 2, simple -n 3)"
else
    rt_fail "two jobs at once" "status $s1 / $s2: $(head -c 200 "$RT_OUT/job1.$$") / $(head -c 200 "$RT_OUT/job2.$$")"
fi
rm -f "$RT_OUT/job1.$$" "$RT_OUT/job2.$$" "$RT_OUT/job1e.$$" "$RT_OUT/job2e.$$"

# two jobs at once started from a rank's environment (a driver run under mpiexec that
# starts jobs, a shell inside an MPI step): the launchers and everything above them have
# PMI_RANK, and both jobs walked up past their launchers to the same process and shared
# one segment, a slot per local rank, each job reading the other's buffers by address
# (wrong sums in 2 of 5 runs, no word; the same name every time). Each job's ranks map
# a segment of their own, under a name of its own: seen in /proc/PID/maps while they
# run (copies of the program under two names), and each result right.
cp "$prog" "$RT_OUT/shjob_a" && cp "$prog" "$RT_OUT/shjob_b"
env PMI_RANK=0 PMI_SIZE=2 MPI_LOCALRANKID=0 MPI_LOCALNRANKS=2 sh -c "
    timeout $RT_TIMEOUT mpiexec -n 2 '$RT_OUT/shjob_a' 8000000 --wtc-mode=steal >'$RT_OUT/job1.$$' 2>/dev/null &
    timeout $RT_TIMEOUT mpiexec -n 2 '$RT_OUT/shjob_b' 8000000 --wtc-mode=simple >'$RT_OUT/job2.$$' 2>/dev/null &
    wait" &
jobs_sh=$!
segs() { # segs NAME: the shared-heap segments its processes map (name:inode), one a line
    for p in $(pgrep -x "$1"); do
        awk '/wtcrt-heap/ { print $6 ":" $5 }' "/proc/$p/maps" 2>/dev/null
    done | sort -u
}
sa= sb= tries=0
while [ $tries -lt 40 ] && { [ -z "$sa" ] || [ -z "$sb" ]; }; do
    sleep 0.05
    sa=$(segs shjob_a) sb=$(segs shjob_b) tries=$((tries + 1))
done
wait $jobs_sh
want8="msort 8000000 OK
fill and sum OK"
if [ "$(cat "$RT_OUT/job1.$$")" != "$want8" ] || [ "$(cat "$RT_OUT/job2.$$")" != "$want8" ]; then
    rt_fail "two jobs from a rank's environment" "$(head -c 200 "$RT_OUT/job1.$$") / $(head -c 200 "$RT_OUT/job2.$$")"
elif [ -z "$sa" ] || [ -z "$sb" ]; then
    rt_fail "two jobs from a rank's environment" "no segment seen in their maps ('$sa', '$sb')"
elif [ "$(echo "$sa" | wc -l)" != 1 ] || [ "$(echo "$sb" | wc -l)" != 1 ] ||
    [ "${sa%%:*}" = "${sb%%:*}" ] || [ "${sa#*:}" = "${sb#*:}" ]; then
    rt_fail "two jobs from a rank's environment" "segments (name:inode) of job a: $(echo $sa), of job b: $(echo $sb) (want one each, different names and files)"
else
    rt_pass "two jobs at once from a rank's environment: right, a segment each ($sa, $sb)"
fi
rm -f "$RT_OUT/job1.$$" "$RT_OUT/job2.$$" "$RT_OUT/shjob_a" "$RT_OUT/shjob_b"

# a segment whose launcher is gone (a job stopped before any rank unlinked the name) is
# unlinked by the next job of this user; one whose launcher runs stays (this shell's pid
# with a start time it does not have, and with its own)
if [ -r /proc/$$/stat ] && [ -w /dev/shm ]; then
    st=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
    gone=/dev/shm/wtcrt-heap.$(id -u).$$.1
    live=/dev/shm/wtcrt-heap.$(id -u).$$.$st
    # the doorbell's (mpi/bell.c, named after the host's first rank): a job killed in
    # its start left one for good
    bgone=/dev/shm/wtcrt.1.abc.4194303 blive=/dev/shm/wtcrt.1.abc.$$
    : >"$gone" && : >"$live" && : >"$bgone" && : >"$blive"
    rt_run 2 "$prog" 100000
    if [ "$RT_RC" != 0 ] || [ -e "$gone" ] || [ ! -e "$live" ] || [ -e "$bgone" ] ||
        [ ! -e "$blive" ]; then
        rt_fail "stale segments" "status $RT_RC; launcher gone: $([ -e "$gone" ] && echo left || echo removed), launcher running: $([ -e "$live" ] && echo left || echo removed); doorbell of a process gone: $([ -e "$bgone" ] && echo left || echo removed), running: $([ -e "$blive" ] && echo left || echo removed)"
    else
        rt_pass "a segment (heap, doorbell) whose process is gone is unlinked by the next job, a running one's stays"
    fi
    rm -f "$gone" "$live" "$bgone" "$blive"
fi

after=$(ls /dev/shm 2>/dev/null | grep -c '^wtcrt-heap')
if [ "$after" -le "$before" ]; then
    rt_pass "no segment left in /dev/shm ($after now, $before before)"
else
    rt_fail "segments left in /dev/shm" "$(ls /dev/shm | grep '^wtcrt-heap' | head -3)"
fi
rt_summary
