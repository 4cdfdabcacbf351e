#!/bin/sh
# A par's body that spawns many children answers thieves while it spawns (steal mode;
# doc/runtime.md "steal mode", the core's wtcp_spawn_poll_due): samples/mandel 1024, one
# par of 1 M pixels in main, at -n 2 gives its first children (the front: child 0) to
# rank 1 before its loop ends, a decision-log line "send 0 0 N -> 1" that a give at the
# close (from the back of the pending children) or a seed never writes; the image is
# right. The predictor's simulation of the same setting gives the front too (one rule,
# two executors). Before the spawn polls rank 1 idled through the whole loop.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/spawn_poll
$RT_WTCC -O2 samples/mandel.wtc -o "$prog" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build samples/mandel.wtc"; rt_summary; exit 1; }
# front FILE...: the gives of main's par that start at its child 0
front() { cat "$@" 2>/dev/null | awk '$1 == "send" && $2 == 0 && $3 == 0 { n++ } END { print n + 0 }'; }

# a rank 1 that the host starts late may miss the loop once: up to 3 runs
got=0 tries=0 bad=
while [ "$got" = 0 ] && [ "$tries" -lt 3 ]; do
    tries=$((tries + 1))
    rm -f "$prog.dec" "$prog.dec".*
    WTC_DECISIONS=$prog.dec rt_run 2 "$prog" 1024 --wtc-mode=steal
    if [ "$RT_RC" != 0 ] || ! grep -q 'spot check OK' "$RT_STDOUT"; then
        bad="status $RT_RC, $(grep 'spot check' "$RT_STDOUT")"
        break
    fi
    got=$(front "$prog.dec" "$prog.dec".*)
done
if [ -n "$bad" ]; then
    rt_fail "mandel 1024 steal -n 2" "$bad"
elif [ "$got" -ge 1 ]; then
    rt_pass "mandel 1024 steal -n 2: the spawning par gave its front to a thief ($tries run(s)), image right"
else
    rt_fail "mandel 1024 steal -n 2: no give from the front of main's par in $tries runs" \
        "$(head -5 "$prog.dec" "$prog.dec".* 2>/dev/null | tr '\n' ' ')"
fi

rm -f "$prog.sim"
WTC_DECISIONS=$prog.sim timeout "$RT_TIMEOUT" "$prog.predict" --wtc-procs=2 --wtc-modes=steal 1024 \
    >"$RT_STDOUT" 2>"$RT_STDERR"
rc=$?
if [ "$rc" = 0 ] && [ "$(front "$prog.sim")" -ge 1 ]; then
    rt_pass "its prediction for steal P = 2 gives the front while spawning too"
else
    rt_fail "predictor, steal P = 2: status $rc, gives from the front: $(front "$prog.sim")"
fi
rt_summary
