#!/bin/sh
# bench/auto.sh - does --wtc-auto pick a good setting? For each program it saves a
# profile with the predictor's table of best settings at P = 2 (every mode, cut-off
# depths WTC_AUTO_DEPTHS, on this host's calibrated machine), runs
# `mpiexec -n 2 ./prog --wtc-auto=PROFILE`, then runs every setting of the table by hand
# and compares the parallel part (the "TIME name seconds" line): auto against the best
# setting measured ("auto/best"), then runs auto and that best setting again, taking
# turns, and compares those ("again": the best of many medians is the luckiest, so the
# setting is chosen on one set of runs and compared on fresh ones). Not a test: it
# prints figures (bench/README.md, "--wtc-auto"; doc/predictor.md §12).
#
#   sh bench/auto.sh                      the samples and bench/balance programs
#   sh bench/auto.sh fib msort            only these (samples first, then bench/balance;
#                                         b_fib, b_knapsack: bench/balance's; sizes:
#                                         bench/sizes.inc)
#   WTC_BENCH_RUNS=5 ...                  median of 5 runs (default 3)
#   WTC_AUTO_CONFIRM=7 ...                runs of auto and the best setting again, side by
#                                         side (default 5): the "again" column
#   WTC_AUTO_DEPTHS=2,4,6 ...             the depths swept (default 1,2,3,4,6,8)
#   WTC_AUTO_MACHINE=FILE ...             a machine file instead of calibrating
#   WTC_AUTO_SMALL=1 ...                  the small sizes of bench/sizes.inc (to try the
#                                         script in minutes: start-up noise, no figures)
#
# Settings tried by hand: simple, dynamic with 1 master (one worker at -n 2) and steal,
# each at every depth; batch: the runtime's default (the table is computed for it).

cd "$(dirname "$0")/.." || exit 2
RUNS=${WTC_BENCH_RUNS:-3}
CONFIRM=${WTC_AUTO_CONFIRM:-5}
DEPTHS=${WTC_AUTO_DEPTHS:-1,2,3,4,6,8}
TMO=120
[ -x bin/wtcc ] && [ -x bin/wtc-calibrate ] || { echo "auto: run make first" >&2; exit 2; }
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-auto.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM

ALL="fib mandel msort nqueens points qsort b_fib b_mandel b_msort b_nqueens b_qsort_lomuto b_qsort_hoare b_cilksort b_uts b_knapsack"
for p in "$@"; do # a misspelt name stops the script here, not silently later
    case " $ALL " in *" $p "* | *" b_$p "*) ;; *) echo "auto: no program $p" >&2; exit 2 ;; esac
done
[ $# -gt 0 ] && ALL=$(for p in "$@"; do case " $ALL " in *" $p "*) echo "$p" ;; *) echo "b_$p" ;; esac; done)
small=
[ "${WTC_AUTO_SMALL:-0}" = 1 ] && small=small

MACH=${WTC_AUTO_MACHINE:-}
if [ -z "$MACH" ]; then
    MACH=$D/host.conf
    echo "auto: calibrating this host (bin/wtc-calibrate -n 2) ..."
    timeout 600 mpiexec -n 2 bin/wtc-calibrate -o "$MACH" >"$D/calibrate.log" 2>&1 ||
        { echo "auto: calibration failed:" >&2; cat "$D/calibrate.log" >&2; exit 1; }
fi

# sizes that run 0.2-1 s on one core, those of bench/validate: bench_args, bench_flags
# shellcheck source=bench/sizes.inc
. bench/sizes.inc

# once BIN ARGS...: the TIME line's seconds of one run at -n 2, or "fail"
once() {
    timeout -k 5 $TMO mpiexec -n 2 "$@" >"$D/out" 2>"$D/err" </dev/null
    st=$?
    if [ $st -ne 0 ] || grep -q BAD "$D/out" || ! grep -q '^TIME ' "$D/err"; then
        echo fail
    else
        awk '/^TIME / { print $3 }' "$D/err"
    fi
}

# med FILE: the median of its lines ("fail" if any failed)
med() {
    if grep -q fail "$1"; then echo fail; return; fi
    sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "auto: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), median of $RUNS runs, depths $DEPTHS, machine $MACH"
printf '%-16s %-34s %9s %9s  %-26s %7s %7s\n' program "auto's choice" "auto s" "best s" "best setting" \
    "auto/best" "again"
worst=0
for p in $ALL; do
    case $p in b_*) src=bench/balance/${p#b_}.wtc ;; *) src=samples/$p.wtc ;; esac
    # shellcheck disable=SC2046 # the flags are words
    bin/wtcc -O2 $(bench_flags "$src" $small) "$src" -o "$D/$p" -lm >"$D/build.log" 2>&1 ||
        { echo "$p: build failed"; cat "$D/build.log"; continue; }
    a=$(bench_args "$src" $small)
    # shellcheck disable=SC2086 # the arguments are words
    timeout 600 "$D/$p.predict" --wtc-procs=2 --wtc-masters=1 --wtc-depth="$DEPTHS" \
        --wtc-machine="$MACH" --wtc-save-profile="$D/$p.prof" $a >"$D/pred.txt" 2>"$D/pred.err" ||
        { echo "$p: prediction failed: $(head -2 "$D/pred.err")"; continue; }
    : >"$D/t.auto"
    for m in simple dynamic steal; do for d in $(echo "$DEPTHS" | tr , ' '); do : >"$D/t.$m.$d"; done; done
    i=0
    while [ $i -lt "$RUNS" ]; do # the settings take turns within a round
        # shellcheck disable=SC2086
        once "$D/$p" --wtc-auto="$D/$p.prof" $a >>"$D/t.auto"
        [ $i = 0 ] && choice=$(sed -n 's/^wtc: auto from .*P = 2: \(.*\), predicted.*/\1/p' "$D/err")
        for m in simple dynamic steal; do
            for d in $(echo "$DEPTHS" | tr , ' '); do
                # shellcheck disable=SC2086
                once "$D/$p" --wtc-mode=$m --wtc-depth=$d $a >>"$D/t.$m.$d"
            done
        done
        i=$((i + 1))
    done
    ta=$(med "$D/t.auto")
    best= bs=
    for m in simple dynamic steal; do
        for d in $(echo "$DEPTHS" | tr , ' '); do
            t=$(med "$D/t.$m.$d")
            [ "$t" = fail ] && continue
            if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
                best=$t bs="$m depth $d" bm=$m bd=$d
            fi
        done
    done
    r=$(awk -v a="$ta" -v b="$best" 'BEGIN { if (a == "fail" || b == "") print "fail"; else printf "%.3f", a / b }')
    # The best of 3 x depths medians is biased low (the luckiest of many noisy figures):
    # auto and the setting found best run again, taking turns, and their ratio is the
    # figure that counts (selection on one set of runs, comparison on fresh ones).
    r2=fail
    if [ "$r" != fail ]; then
        : >"$D/c.auto"
        : >"$D/c.best"
        i=0
        while [ $i -lt "$CONFIRM" ]; do
            # shellcheck disable=SC2086
            once "$D/$p" --wtc-auto="$D/$p.prof" $a >>"$D/c.auto"
            # shellcheck disable=SC2086
            once "$D/$p" --wtc-mode="$bm" --wtc-depth="$bd" $a >>"$D/c.best"
            i=$((i + 1))
        done
        r2=$(awk -v a="$(med "$D/c.auto")" -v b="$(med "$D/c.best")" \
            'BEGIN { if (a == "fail" || b == "fail") print "fail"; else printf "%.3f", a / b }')
    fi
    printf '%-16s %-34s %9s %9s  %-26s %7s %7s\n' "$p" "$(echo "$choice" | sed 's/--wtc-//g')" \
        "$ta" "$best" "$bs" "$r" "$r2"
    [ "$r2" != fail ] && worst=$(awk -v w="$worst" -v r="$r2" 'BEGIN { print (r > w ? r : w) }')
done
echo "auto: worst auto/best (again, side by side) $worst (target: within 1.05)"
