#!/bin/sh
# Messages in pieces (doc/runtime.md "Messages over 2 GiB"): a message longer than the
# chunk (1 GiB; WTC_MSG_CHUNK, for tests, lowers it) travels as several MPI messages
# and arrives whole. tests/abi/pieces.c checks the pieces against the transport itself;
# then whole programs run with a chunk of a few KiB in every mode, so TASKs, RESULTs and
# REGION_BEGINs all travel in pieces. The real thing (a 5 GB array at -n 2) is
# bench/bigmsg.sh: it needs ~13 GB of memory.
. "$(dirname "$0")/rt_lib.inc"

if [ -n "$SAN" ]; then
    mpicc -std=gnu11 -O1 -g $SAN -fno-omit-frame-pointer -fno-sanitize-recover=all -DWTCRT_MPI \
        -Iruntime -Iruntime/common -Iruntime/core -Iruntime/mpi -Ilib/wtc/include \
        -o "$RT_OUT/pieces" tests/abi/pieces.c runtime/common/*.c runtime/core/*.c \
        runtime/mpi/*.c -lm || { echo "[FAIL] build pieces"; exit 1; }
else
    mpicc -std=gnu11 -O2 -g -Wall -Wextra -Werror -DWTCRT_MPI -Iruntime -Iruntime/common \
        -Iruntime/core -Ilib/wtc/include -o "$RT_OUT/pieces" tests/abi/pieces.c \
        "$RT_LIB" -lm || { echo "[FAIL] build pieces"; exit 1; }
fi
for c in 48 1000 4096 65536; do
    RT_RC=0
    WTC_MSG_CHUNK=$c timeout "$RT_TIMEOUT" mpiexec -n 2 "$RT_OUT/pieces" \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "pieces of $c bytes" 0 "pieces OK"
done

# whole programs: mergesort (TASKs and RESULTs of up to 200 KB; without the shared heap,
# where its big buffers would not travel at all)
prog=$RT_OUT/pieces_msort
$RT_WTCC --no-predict samples/msort.wtc -o "$prog" || { echo "[FAIL] build msort"; exit 1; }
want=$(cat samples/msort.out)
for mode in simple dynamic steal; do
    for np in 2 3 4; do
        RT_RC=0
        WTC_SHARED_HEAP=0 WTC_MSG_CHUNK=4000 timeout "$RT_TIMEOUT" mpiexec -n $np "$prog" --wtc-mode=$mode \
            100000 >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        rt_expect "msort 100000 in pieces of 4000 bytes, -n $np $mode" 0 "$want"
    done
done
RT_RC=0
WTC_SHARED_HEAP=0 WTC_MSG_CHUNK=48 timeout "$RT_TIMEOUT" mpiexec -n 3 "$prog" --wtc-mode=steal 20000 \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 0 ] && grep -q "sorted OK" "$RT_STDOUT" && grep -q "same values OK" "$RT_STDOUT"
then rt_pass "msort 20000 in pieces of 48 bytes (a header each), -n 3 steal"
else rt_fail "msort 20000 in pieces of 48 bytes" "rc=$RT_RC"; fi

rt_summary
