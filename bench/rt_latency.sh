#!/bin/sh
# Builds and runs bench/rt_latency.c (doc/runtime.md "Waiting without burning a core").
# Run from the repository root after make:  sh bench/rt_latency.sh [iterations]
set -e
mkdir -p tests/out/rt
RT_LIB=lib/wtc/$(sh tools/mpi-info.sh mpicc | cut -d' ' -f1)/libwtcrt_mpi.a
mpicc -std=gnu11 -O2 -DWTCRT_MPI -Iruntime -Iruntime/common -Iruntime/core -Iruntime/mpi -o tests/out/rt/rt_latency bench/rt_latency.c \
    "$RT_LIB" -lm
echo "== 2 ranks (one core each)"
timeout 300 mpiexec -n 2 tests/out/rt/rt_latency "$@"
echo "== 3 ranks, rank 2 computing (more ranks than cores on a 2-core machine)"
timeout 300 mpiexec -n 3 tests/out/rt/rt_latency "$@"
