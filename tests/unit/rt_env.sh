#!/bin/sh
# The measurements' settings in the environment (doc/runtime.md "Waiting without
# burning a core": WTC_DOORBELL, WTC_YIELD_US, WTC_YIELD_OVER_US, WTC_SLEEP_MAX_US,
# WTC_YIELD_POLLS; "Answers from inside a leaf": WTC_ANSWER; the shared heap's
# WTC_SHARED_HEAP, WTC_HEAP_FILL, WTC_HEAP_REAPER; WTC_START_EARLY, WTC_ABORT_WAIT_S,
# WTC_MSG_CHUNK, WTC_BCAST): a value that is not of its kind is ignored, and rank 0 says so once,
# on stderr, while the program runs as without it; a good value says nothing. A typo
# used to pass silently for the setting (WTC_YIELD_US=abc even set the yield phase to 0).
# Two programs started as one job: a clear error at the start.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/env_fib
$RT_WTCC --no-predict samples/fib.wtc -o "$prog" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build samples/fib.wtc"; rt_summary; exit 1; }
# one SETTING WARNINGS: -n 3 with SETTING in every rank's environment
one() {
    RT_RC=0
    env "$1" timeout "$RT_TIMEOUT" mpiexec -n 3 "$prog" 25 >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    n=$(grep -c "^wtc: warning: ${1%%=*}=.* ignored" "$RT_STDERR")
    if [ "$RT_RC" = 0 ] && grep -q "^fib(25) = 75025 OK" "$RT_STDOUT" && [ "$n" = "$2" ]; then
        rt_pass "$1: status 0, the right result, $2 warning(s)"
    else
        rt_fail "$1" "status $RT_RC, $n warning(s) (want $2), stdout $(head -c 60 "$RT_STDOUT")"
    fi
}
one WTC_SLEEP_MAX_US=abc 1
one WTC_SLEEP_MAX_US=0 1
one WTC_YIELD_POLLS=x 1
one WTC_YIELD_US=-4 1
one WTC_YIELD_OVER_US=1us 1
one WTC_DOORBELL=off 1
one WTC_SLEEP_MAX_US=500 0
one WTC_YIELD_US=2.5 0
one WTC_DOORBELL=0 0
one WTC_ANSWER=no 1
one WTC_ANSWER=0 0
# read before MPI starts or at first use, said at the start (each took any value but 0
# for 'on' without a word)
one WTC_SHARED_HEAP=off 1
one WTC_SHARED_HEAP=0 0
one WTC_HEAP_FILL=no 1
one WTC_HEAP_REAPER=x 1
one WTC_START_EARLY=false 1
one WTC_START_EARLY=0 0
one WTC_ABORT_WAIT_S=0 1
one WTC_MSG_CHUNK=abc 1
one WTC_MSG_CHUNK=4096 0
one WTC_BCAST=star 1
one WTC_BCAST=tree 0

# two programs in one job (mpiexec -n 1 ./a : -n 1 ./b): a clear error at the start, with
# the doorbell or without it (it stopped at the first TASK with "truncated TASK (60
# bytes)" or "TASK for fib with buffers by address it does not have")
if $RT_WTCC --no-predict samples/msort.wtc -o "$RT_OUT/env_msort" >"$RT_STDERR" 2>&1; then
    for d in 1 0; do
        RT_RC=0
        WTC_DOORBELL=$d timeout "$RT_TIMEOUT" mpiexec -n 1 "$prog" 20 : -n 2 "$RT_OUT/env_msort" 100000 \
            >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        if [ "$RT_RC" = 2 ] && grep -q "rank 1 runs another program than rank 0 (fib.wtc)" "$RT_STDERR"; then
            rt_pass "two programs in one job, WTC_DOORBELL=$d: status 2, 'rank 1 runs another program'"
        else
            rt_fail "two programs in one job, WTC_DOORBELL=$d" "status $RT_RC, $(head -c 300 "$RT_STDERR")"
        fi
    done
else
    rt_fail "build samples/msort.wtc" "$(head -c 300 "$RT_STDERR")"
fi
rt_summary
