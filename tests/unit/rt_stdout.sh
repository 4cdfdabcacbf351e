#!/bin/sh
# stdout of the MPI program: fully buffered when it is not a terminal, as the C library
# would have it (MPI_Init left it unbuffered: a write per line), and flushed in order
# before the program ends, whichever way: return from main, exit() in main, exit()
# inside a region (which aborts every rank), at -n 1 (no MPI) to 4; lines printed by two
# ranks at once come out whole, and main's setvbuf of stdout is kept.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/rt_stdout
$RT_WTCC --no-predict tests/unit/rt_stdout.wtc -o "$prog" || { echo "[FAIL] build"; exit 1; }

N=20000
# check LABEL WANT_RC LINES_AFTER: stdout is start, line 0..N-1, the sum, buffering full
# (asked after the region: MPI has started then), then LINES_AFTER more numbered lines,
# each exactly once and in order
check() {
    label=$1 want_rc=$2 after=$3
    got=$(awk -v n=$N -v after="$after" '
        BEGIN { i = 0 }
        NR == 1 { ok = $0 == "start"; next }
        /^sum / { if ($2 != 5000050000 || i != n) bad = 1; sums++; next }
        /^buffering / { if ($0 != "buffering full" || sums != 1) { print "buffering: " $0; bad = 1 }
                        bufs++; next }
        { if ($0 != "line " i) { print "line " NR ": " $0; bad = 1; exit } i++ }
        END { if (!bad && ok && sums == 1 && bufs == 1 && i == n + after) print "ok"
              else if (!bad) print "lines " i ", sums " sums ", buffering lines " bufs }' "$RT_STDOUT")
    if [ "$RT_RC" != "$want_rc" ]; then
        rt_fail "$label" "exit status $RT_RC, want $want_rc"
    elif [ "$got" != ok ]; then
        rt_fail "$label" "$got"
    else
        rt_pass "$label"
    fi
}

for np in 1 2 3 4; do
    rt_run $np "$prog" $N return
    check "return from main at -n $np" 0 $N
    rt_run $np "$prog" $N exit
    check "exit(3) in main at -n $np" 3 $N
done
# exit() inside a region aborts (-n 1: a plain exit): every line printed before is out
for np in 1 2 3; do
    rt_run $np "$prog" $N abort
    check "exit(5) inside a region at -n $np" 5 $N
    rt_run $np "$prog" $N done
    check "exit(0) inside a region at -n $np: status 0, as in C" 0 $N
done
# the line printed after the first region waits whole in the buffer: MPI's start, which
# set stdout's buffer again while main was printing, left no first piece written alone
for np in 1 2 3 4; do
    rt_run $np "$prog" 0 pending
    if [ "$RT_RC" = 0 ] && grep -q '^pending 15 of 15$' "$RT_STDERR"; then
        rt_pass "-n $np: the line after the region is buffered whole"
    else
        rt_fail "-n $np: the line after the region" "status $RT_RC, $(grep pending "$RT_STDERR")"
    fi
done
# a pipe as well as a file
RT_RC=0
timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" $N return 2>"$RT_STDERR" | cat >"$RT_STDOUT"
check "into a pipe at -n 2" 0 $N

# Lines printed by two ranks at once come out whole (tests/unit/rt_stdout_lines.wtc):
# ranks other than 0 buffer by lines, rank 0 while a region runs (fully buffered, a rank
# wrote 4 KiB at a time, and 2-34 of 400 k lines came out spliced with another rank's);
# then rank 0 is fully buffered again. With main's setvbuf(stdout, NULL, _IOLBF, 0) it
# stays by lines (MPI's start had overruled it, leaving a 1-byte buffer: a write per byte,
# 1 300-1 800 spliced lines).
lprog=$RT_OUT/rt_stdout_lines
if ! $RT_WTCC --no-predict tests/unit/rt_stdout_lines.wtc -o "$lprog" >"$RT_STDERR" 2>&1; then
    rt_fail "build rt_stdout_lines.wtc" "$(head -c 300 "$RT_STDERR")"
else
    for c in "2 simple" "2 steal" "3 dynamic" "2 simple line" "3 dynamic line"; do
        set -- $c
        want="full"
        [ "${3:-}" = line ] && want="lines"
        RT_RC=0
        timeout "$RT_TIMEOUT" mpiexec -n $1 "$lprog" 100000 ${3:-} --wtc-mode=$2 \
            2>"$RT_STDERR" | cat >"$RT_STDOUT" || RT_RC=$?
        bad=$(grep -cvE '^(leaf [01] line [0-9]+|sum 1|after: .*)$' "$RT_STDOUT")
        n=$(grep -c '^leaf' "$RT_STDOUT")
        after=$(sed -n 's/^after: \([a-z]*\) .*/\1/p' "$RT_STDOUT")
        if [ "$RT_RC" != 0 ] || [ "$n" != 200000 ] || [ "$bad" != 0 ] || [ "$after" != "$want" ]; then
            rt_fail "two ranks printing, $c" "status $RT_RC, $n leaf lines, $bad spliced ($(grep -vE '^(leaf [01] line [0-9]+|sum 1|after: .*)$' "$RT_STDOUT" | head -2 | tr '\n' '|')), $(grep '^after' "$RT_STDOUT") (want $want)"
        else
            rt_pass "two ranks printing, $c: 200000 whole lines, then stdout $after"
        fi
    done
fi

rt_summary
