#!/bin/sh
# Buffers of 64 KiB or more travel by reference (doc/runtime.md "Big buffers travel
# where they lie"): a TASK or RESULT is sent as packed bytes with the big buffers sent
# straight from where they lie, and received straight where they go, a TASK's into its
# children's memory, a RESULT's into the caller's arrays (the receiver lays the stream
# out). rt_byref.wtc
# mixes in:, out: and in+out buffers above, at and below the threshold, with a return
# value; every element is checked against a plain loop (between ranks of this host the
# big ones lie in the shared heap and go by address: rt_shheap.sh; here also without
# it, as between hosts). Every mode at -n 2-5 and 8,
# dynamic with two masters and batches of 2 (TASKs of several children), and with
# pieces of 100000, 4000 and 48 bytes (WTC_MSG_CHUNK: a TASK whose first piece is its
# packed part, or not; pieces inside a packed part; tests/unit/rt_pieces.sh cuts buffers
# by reference into pieces).
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/byref
$RT_WTCC -O2 --no-predict tests/unit/rt_byref.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_byref.wtc"; exit 1; }
want=$("$prog" 2)
case $want in
OK*) rt_pass "without mpiexec: $want" ;;
*) rt_fail "without mpiexec" "$want"; rt_summary; exit 1 ;;
esac
for mode in simple dynamic steal; do
    for np in 2 3 4 5 8; do
        rt_run $np "$prog" 2 --wtc-mode=$mode
        rt_expect "$mode -n $np" 0 "$want"
    done
done
rt_run 6 "$prog" 2 --wtc-mode=dynamic --wtc-masters=2 --wtc-batch=2
rt_expect "dynamic -n 6, 2 masters, batch 2" 0 "$want"
rt_run 4 "$prog" 2 --wtc-mode=steal --wtc-batch=3
rt_expect "steal -n 4, batch 3" 0 "$want"
# the buffers by reference really travel (as between hosts) without the shared heap
for c in 0 100000 4000 48; do
    for m in "simple 3" "dynamic 4" "steal 3"; do
        set -- $m
        RT_RC=0
        if [ $c = 0 ]; then
            WTC_SHARED_HEAP=0 timeout "$RT_TIMEOUT" mpiexec -n "$2" "$prog" 2 --wtc-mode="$1" \
                >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
            rt_expect "$1 -n $2, WTC_SHARED_HEAP=0" 0 "$want"
            continue
        fi
        WTC_SHARED_HEAP=0 WTC_MSG_CHUNK=$c timeout "$RT_TIMEOUT" mpiexec -n "$2" "$prog" 2 \
            --wtc-mode="$1" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        rt_expect "$1 -n $2 in pieces of $c bytes" 0 "$want"
    done
done
rt_summary
