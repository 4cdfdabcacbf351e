#!/bin/sh
# Answers from inside a leaf (doc/runtime.md "Answers from inside a leaf",
# runtime/mpi/answer.c): a rank deep in a sequential leaf still gives its pending work
# to a thief (steal mode) and to the ranks its master granted it (dynamic mode),
# through its answering thread, instead of at the leaf's end.
#   steal -n 2 (rt_answer.wtc, leaves of 300 ms): correct; rank 1's longest wait for an
#     answer is under 100 ms, and rank 0's --wtc-stats line counts its thread's
#     answers. The same run with WTC_ANSWER=0 (no thread) must show the wait of a
#     leaf (150 ms or more): the check can fail.
#   dynamic -n 3, 1 master: correct, and rank 0's thread served the GRANT.
#   WTC_START_EARLY=0 (MPI started before main, no held region): the same in steal mode.
#   WTC_DOORBELL=0 (nobody can ring, as between hosts): the thread's ticks answer, the
#     same limit.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/answer
rt_wtcc rt_answer "$prog"

# wait_max RANK: the longest wait for a STEAL's answer of RANK in the last run, in ms
wait_max() {
    sed -n "s/^steal: rank $1 sent .* \([0-9.]*\) ms at most$/\1/p" "$RT_STDERR"
}
# leaf_of RANK: how many answers RANK's thread gave in the last run (empty: none)
leaf_of() {
    sed -n "s/^leaf: rank $1 answered \([0-9]*\) .*/\1/p" "$RT_STDERR"
}
ok_run() { [ "$RT_RC" = 0 ] && grep -q '^sum 20 OK$' "$RT_STDOUT"; }

for how in early late nobell; do
    early=1 bell=1 label="steal -n 2"
    [ $how = late ] && early=0 label="steal -n 2, WTC_START_EARLY=0"
    [ $how = nobell ] && bell=0 label="steal -n 2, WTC_DOORBELL=0 (ticks)"
    WTC_START_EARLY=$early WTC_DOORBELL=$bell rt_run 2 "$prog" 300 --wtc-mode=steal --wtc-stats
    w=$(wait_max 1) n=$(leaf_of 0)
    if ! ok_run; then
        rt_fail "$label" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
    elif [ -z "$w" ] || [ -z "$n" ]; then
        rt_fail "$label" "no steal: / leaf: line for ranks 1 / 0 (wait '$w', answers '$n')"
    elif ! awk -v w="$w" 'BEGIN { exit !(w < 100) }'; then
        rt_fail "$label" "rank 1 waited $w ms for an answer (want < 100: its victim is in a leaf of 300 ms)"
    else
        rt_pass "$label: rank 1 waited $w ms at most, rank 0's thread answered $n"
    fi
done

WTC_ANSWER=0 rt_run 2 "$prog" 300 --wtc-mode=steal --wtc-stats
w=$(wait_max 1)
if ok_run && [ -n "$w" ] && [ -z "$(leaf_of 0)" ] && awk -v w="$w" 'BEGIN { exit !(w >= 150) }'; then
    rt_pass "steal -n 2, WTC_ANSWER=0: rank 1 waited $w ms (a leaf), no thread answered"
else
    rt_fail "steal -n 2, WTC_ANSWER=0" "status $RT_RC, wait '$w' ms, answers '$(leaf_of 0)' (want a wait of 150 ms or more and none)"
fi

rt_run 3 "$prog" 300 --wtc-mode=dynamic --wtc-masters=1 --wtc-stats
n=$(leaf_of 0)
if ok_run && [ -n "$n" ]; then
    rt_pass "dynamic -n 3: rank 0's thread served $n GRANTs inside its leaf"
else
    rt_fail "dynamic -n 3" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")', answers '$n'"
fi
# The registration with membarrier(2) that the thread's fence needs is made while main
# is the only thread (wtcrt_answer_prepare): with threads (MPI's, the start thread) it
# waits for every CPU to pass a scheduling point, 9-16 ms here, and made at a region's
# start it kept the other ranks from their first work that long (UTS steal -n 2: rank
# 1 idle 13-45 ms, then 1.2-1.4 ms). A preloaded shim counts the threads started before
# each registration; every rank registers once, before any.
shim=$RT_OUT/answer_mb.so
if ! cc -shared -fPIC -O2 tests/unit/rt_answer_mb.c -o "$shim" -ldl >"$RT_STDERR" 2>&1; then
    rt_fail "build rt_answer_mb.c" "$(head -c 300 "$RT_STDERR")"
else
    for how in early late; do
        early=1
        [ $how = late ] && early=0
        RT_RC=0
        WTC_START_EARLY=$early timeout "$RT_TIMEOUT" mpiexec -n 3 env LD_PRELOAD="$PWD/$shim" \
            "$prog" 1 --wtc-mode=steal >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        regs=$(grep -c '^membarrier register after' "$RT_STDERR")
        late=$(grep '^membarrier register after' "$RT_STDERR" | grep -vc 'after 0 threads$')
        if ! ok_run; then
            rt_fail "membarrier, steal -n 3 ($how start)" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
        elif [ "$regs" != 3 ] || [ "$late" != 0 ]; then
            rt_fail "membarrier, steal -n 3 ($how start)" "want 3 registrations, each after 0 threads: $(grep '^membarrier' "$RT_STDERR" | tr '\n' ';')"
        else
            rt_pass "membarrier, steal -n 3 ($how start): each rank registered once, before any thread"
        fi
    done
fi

rt_summary
