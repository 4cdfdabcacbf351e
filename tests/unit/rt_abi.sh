#!/bin/sh
# The MPI runtime against hand-written programs in the generated shape (tests/abi/*.c):
# results at -n 1,2,3,4,5,8 in both modes, masters 1/2, batch 1/4; exit() in main; the
# masters warning. Run from the repository root after make. SAN="-fsanitize=..." builds
# the programs and the runtime sources with sanitizers. Exits 0 when everything passed.
. "$(dirname "$0")/rt_lib.inc"

rt_build fib_msort
rt_build misc
rt_build exit_main

# fib_msort: fixed expected output
FM_WANT="fib(24) = 46368
sorted 50000, checksum ok
farm total 19270282"

check_fm() { # label, np, options...
    label=$1 np=$2; shift 2
    rt_run "$np" "$RT_OUT/fib_msort" 24 50000 "$@"
    rt_expect "fib_msort $label" 0 "$FM_WANT"
}

check_misc() { # label, np, options...
    label=$1 np=$2; shift 2
    rt_run "$np" "$RT_OUT/misc" 5 10000 "$@"
    if [ "$RT_RC" = 0 ] && [ "$(tail -n 1 "$RT_STDOUT")" = OK ]; then rt_pass "misc $label"
    else rt_fail "misc $label" "rc=$RT_RC"; fi
}

for np in 1 2 3 4 5 8; do
    check_fm "-n $np simple" $np --wtc-mode=simple
    check_misc "-n $np simple" $np --wtc-mode=simple
    check_fm "-n $np dynamic" $np --wtc-mode=dynamic
    check_misc "-n $np dynamic" $np --wtc-mode=dynamic
    check_fm "-n $np dynamic batch 4" $np --wtc-batch=4 --wtc-mode=dynamic
    check_misc "-n $np dynamic batch 4" $np --wtc-mode=dynamic --wtc-batch=4
    check_fm "-n $np steal" $np --wtc-mode=steal
    check_misc "-n $np steal" $np --wtc-mode=steal
    check_fm "-n $np steal batch 1" $np --wtc-batch=1 --wtc-mode=steal
    if [ $np -ge 3 ]; then
        check_fm "-n $np dynamic masters 2" $np --wtc-mode=dynamic --wtc-masters=2
        check_misc "-n $np dynamic masters 2 batch 4" $np --wtc-mode=dynamic --wtc-masters=2 --wtc-batch=4
    fi
done
# the source's modes (fib dynamic, msort simple, the farm dynamic) without --wtc-mode
check_fm "-n 4 source modes" 4
check_misc "-n 3 source modes" 3
# --wtc-* options anywhere among the program's own arguments
rt_run 3 "$RT_OUT/fib_msort" --wtc-mode=dynamic 24 --wtc-batch=2 50000 --wtc-masters=1
rt_expect "options removed from argv wherever they stand" 0 "$FM_WANT"
# no mpiexec: one rank
RT_RC=0
timeout 120 "$RT_OUT/fib_msort" 24 50000 --wtc-mode=dynamic --wtc-masters=3 \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
rt_expect "singleton without mpiexec ignores masters" 0 "$FM_WANT"

# exit() called in main, through a plain function: status 3 on every rank, the other
# ranks released; 'mode: dynamic 4' on fewer ranks warns once
for np in 1 2 3 5; do
    rt_run $np "$RT_OUT/exit_main"
    rt_expect "exit() in main at -n $np" 3 "total 328350"
    nw=$(grep -c "warning: sq asks for 4 masters" "$RT_STDERR")
    want=1; [ $np -ge 5 ] || [ $np = 1 ] && want=0
    if [ "$nw" = "$want" ]; then rt_pass "masters warning at -n $np ($nw)"
    else rt_fail "masters warning at -n $np" "$nw warnings, want $want"; fi
done

rt_summary
