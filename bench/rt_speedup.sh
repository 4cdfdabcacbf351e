#!/bin/sh
# Quick speedups of tests/abi/fib_msort.c (fib, mergesort, the task farm) at -n 1,2,3 in
# both modes. Wall time of the whole mpiexec (start-up included, about 0.1 s).
# Run from the repository root after make:  sh bench/rt_speedup.sh
set -e
mkdir -p tests/out/rt
B=tests/out/rt/bench_fib_msort
RT_LIB=lib/wtc/$(sh tools/mpi-info.sh mpicc | cut -d' ' -f1)/libwtcrt_mpi.a
mpicc -std=gnu11 -O2 -Ilib/wtc/include -o $B tests/abi/fib_msort.c "$RT_LIB" -lm
run() { # label np mode args
    label=$1 np=$2 mode=$3; shift 3
    s=$(date +%s.%N)
    timeout 600 mpiexec -n "$np" $B --wtc-mode="$mode" "$@" >/dev/null
    e=$(date +%s.%N)
    echo "$label -n $np $mode: $(echo "$e - $s" | bc) s"
}
for w in "fib 40 10 1" "msort 2 20000000 1" "farm 2 10 1000"; do
    set -- $w; label=$1; shift
    run "$label" 1 simple "$@"
    for np in 2 3; do for mode in simple dynamic; do run "$label" $np $mode "$@"; done; done
done
