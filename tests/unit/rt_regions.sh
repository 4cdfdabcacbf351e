#!/bin/sh
# Dynamic regions one after the other (doc/runtime.md "Messages", the tag parity of
# control messages): rank 0 leaves a region's end barrier once every rank has entered
# it and starts the next region, while the master may still wait for its own barrier to
# complete, taking its workers' last REQs and IDLEs. Rank 0's first REQ of the next
# region came in with the same tag, the ending master dropped it, and rank 0, its
# request standing, ran that region alone: before the fix 4 to 13 of 60 regions at
# -n 3 ran their eight leaves of 5 ms all on rank 0 (a silent loss of the workers).
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/regions
$RT_WTCC --no-predict tests/unit/rt_regions.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_regions.wtc"; exit 1; }

# On a loaded host (CI) both workers can be off the CPU for a whole region's 40 ms, so
# one lone region in 60 is allowed, and a run with more is repeated once; the bug lost
# the workers in 4 to 13 of 60 every run.
for np in 3 4; do
    for try in 1 2; do
        rt_run "$np" "$prog" 60 --wtc-masters=1
        got=$(cat "$RT_STDOUT")
        case "$got" in
            "0 of 60 regions ran on rank 0 alone" | "1 of 60 regions ran on rank 0 alone")
                ok=$([ "$RT_RC" = 0 ] && echo 1) ;;
            *) ok= ;;
        esac
        [ -n "$ok" ] && break
    done
    if [ -n "$ok" ]; then
        rt_pass "dynamic -n $np: the regions shared their leaves ($got, attempt $try)"
    else
        rt_fail "dynamic -n $np: '$got' (status $RT_RC, 2 attempts)"
    fi
done
rt_summary
