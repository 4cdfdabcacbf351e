#!/bin/sh
# Outputs named by the user that are not regular files (doc/runtime.md "Statistics and
# traces"): a trace, a plot or a profile written to a symbolic link goes into the file it
# names (the link stays a link), and one written to a FIFO or a device goes into it (it
# stays what it was). They were written beside and renamed over the name: a link or a
# FIFO became a regular file, and as root --wtc-save-profile=/dev/null replaced
# /dev/null (a helper's bug hunt). Also wtc-calibrate -o.
. "$(dirname "$0")/rt_lib.inc"
d=$RT_OUT/special
rm -rf "$d" && mkdir -p "$d"
$RT_WTCC tests/unit/rt_args.wtc -o "$d/prog" >"$d/build" 2>&1 ||
    { rt_fail "build tests/unit/rt_args.wtc with its predictor" "$(head -c 300 "$d/build")"; rt_summary; exit 1; }

# fifo_check LABEL CMD...: CMD writes into $d/ff while a reader drains it
fifo_check() {
    label=$1; shift
    rm -f "$d/ff" "$d/drained" && mkfifo "$d/ff"
    (timeout 60 cat "$d/ff" >"$d/drained" &)
    "$@" >/dev/null 2>"$RT_STDERR"; rc=$?
    sleep 1
    if [ $rc = 0 ] && [ -p "$d/ff" ] && [ -s "$d/drained" ]; then
        rt_pass "$label into a FIFO: written into it, still a FIFO"
    else
        rt_fail "$label into a FIFO" "status $rc, $( [ -p "$d/ff" ] && echo fifo || echo 'no longer a fifo'), $(wc -c <"$d/drained" 2>/dev/null) bytes read"
    fi
}
# link_check LABEL EXT CMD-with-LINK...: CMD writes through $d/link.EXT
link_check() {
    label=$1 ext=$2; shift 2
    rm -f "$d/real.$ext" "$d/link.$ext" && : >"$d/real.$ext" && ln -s real.$ext "$d/link.$ext"
    "$@" >/dev/null 2>"$RT_STDERR"; rc=$?
    if [ $rc = 0 ] && [ -L "$d/link.$ext" ] && [ -s "$d/real.$ext" ]; then
        rt_pass "$label through a symbolic link: the link stays, its file written"
    else
        rt_fail "$label through a symbolic link" "status $rc, $( [ -L "$d/link.$ext" ] && echo link || echo 'no longer a link'), $(wc -c <"$d/real.$ext") bytes"
    fi
}

fifo_check "--wtc-trace (run, -n 2)" timeout 60 mpiexec -n 2 "$d/prog" --wtc-trace="$d/ff"
link_check "--wtc-trace (run, -n 2)" json timeout 60 mpiexec -n 2 "$d/prog" --wtc-trace="$d/link.json"
fifo_check "--wtc-plot" timeout 60 "$d/prog.predict" --wtc-procs=1,2 --wtc-plot="$d/ff"
link_check "--wtc-save-profile" prof timeout 60 "$d/prog.predict" --wtc-procs=1,2 --wtc-save-profile="$d/link.prof"
fifo_check "--wtc-trace (predictor)" timeout 60 "$d/prog.predict" --wtc-procs=2 --wtc-modes=steal --wtc-trace="$d/ff"
fifo_check "wtc-calibrate -o" timeout 300 mpiexec -n 2 bin/wtc-calibrate --quick -o "$d/ff"
rt_summary
