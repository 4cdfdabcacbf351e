#!/bin/sh
# calibrate/start.sh NP [RUNS] - what a job's start and end cost on this host, for
# wtc-calibrate --start (doc/predictor.md §5; make calibrate runs it).
#
# Builds calibrate/probe.wtc (a job that ends at once) with bin/wtcc and runs it RUNS
# times (default 7) at -n 2 and at -n NP, taking turns, with WTC_START_PROBE set to the
# moment mpiexec was called: its rank 0 prints "wtc-start: procs P launch L start S end
# E" (runtime/mpi/transport.c); the end taken is the rest of the command's wall time
# after L + S (the probe's main takes microseconds), so the process's exit and the
# launcher's own end count. Prints "--start=2:L:S:E,NP:L:S:E" (the medians, in
# seconds) on stdout, nothing when the probe cannot run (then a warning on stderr and
# status 1: the machine file is written without the start's keys). Every mpiexec runs
# under timeout. Run from the repository root after make, on an idle host.
# WTC_BENCH_BUILT=DIR: the probe is DIR/probe, built there when missing; RUNS = 0 only
# builds it (bench/validate's WTC_BENCH_BUILD_ONLY, for a machine without a compiler).
cd "$(dirname "$0")/.." || exit 2
NP=${1:-4}
RUNS=${2:-7}
case $NP$RUNS in *[!0-9]*) echo "start.sh: usage: start.sh NP [RUNS]" >&2; exit 2 ;; esac
[ "$NP" -ge 2 ] || { echo "start.sh: NP >= 2" >&2; exit 2; }
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-start.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
warn() { echo "start.sh: WARNING: $*; the machine file leaves the job's start out" >&2; exit 1; }
B=${WTC_BENCH_BUILT:-$D}
mkdir -p "$B" || exit 2
[ -x "$B/probe" ] || bin/wtcc -O2 --no-predict calibrate/probe.wtc -o "$B/probe" >"$D/log" 2>&1 ||
    warn "building calibrate/probe.wtc failed: $(head -3 "$D/log")"
[ "$RUNS" = 0 ] && exit 0
NPS=2
[ "$NP" -gt 2 ] && NPS="2 $NP"
r=0
while [ $r -lt "$RUNS" ]; do
    for n in $NPS; do
        t0=$(date +%s%N)
        WTC_START_PROBE=$t0 timeout 60 mpiexec -n "$n" "$B/probe" \
            >/dev/null 2>"$D/err" || warn "mpiexec -n $n of the probe failed: $(head -3 "$D/err")"
        t1=$(date +%s%N)
        line=$(grep '^wtc-start: ' "$D/err") ||
            warn "the probe printed no wtc-start line at -n $n: $(head -3 "$D/err")"
        set -- $line
        [ "$3" = "$n" ] && [ "$5" != - ] || warn "the probe said '$line' at -n $n"
        echo "$5" >>"$D/launch.$n"
        echo "$7" >>"$D/start.$n"
        # the end: all the rest of the wall time (MPI_Finalize, the exit, the launcher's
        # own end), which the probe cannot see from inside
        awk -v a="$t0" -v b="$t1" -v l="$5" -v s="$7" \
            'BEGIN { e = (b - a) * 1e-9 - l - s; printf "%.6f\n", (e > 0 ? e : 0) }' >>"$D/end.$n"
    done
    r=$((r + 1))
done
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
out=
for n in $NPS; do
    out="$out${out:+,}$n:$(med "$D/launch.$n"):$(med "$D/start.$n"):$(med "$D/end.$n")"
done
echo "--start=$out"
