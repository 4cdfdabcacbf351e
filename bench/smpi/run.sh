#!/bin/sh
# bench/smpi/run.sh - the predictor against SimGrid's SMPI on a simulated cluster.
#
#   sh bench/smpi/run.sh [--quick] [sample ...]      (default: every samples/*.wtc)
#
# cluster.xml is 128 hosts of 1 Gflop/s on 1 GbE (private 1 Gb/s links, 50 us host to
# host); smpi-1gbe.conf describes the same network to the predictor. Every sample is
# built with 'wtcc --cc=smpicc', run under smpirun at P = 16, 64 and 128 (--quick: 16)
# in simple, dynamic (one master) and steal mode, and predicted with that machine file;
# the table gives the parallel part of both (the sample's "TIME name s" line, simulated
# time under SMPI, against the predictor's regions_s) and the error. Installs Debian's
# libsimgrid-dev and simgrid when smpicc is missing (root, or sudo), then runs 'make'
# (which builds lib/wtc/smpi/libwtcrt_mpi.a once smpicc is there).
#
# Each setting runs SMPI_RUNS times (default 3) and the predictor records the program
# as many times, in rounds (a recording, then one SMPI run of every setting), so that
# both sides see the same hours of the host; the table compares the smallest of each
# and prints both spreads, and wall_s is the SMPI runs' wall time together. Under
# SMPI the simulated computing is the host's measured computing, and this VM's two
# CPUs share a core with work we do not see: the same SMPI run took 1.2 or 2.0 ms for a
# fixed fib(30) from one run to the next (a busy loop beside it: 2.0 ms natively too).
# Such noise only slows, so the fastest run is the one least disturbed.
#
# SMPI settings: in cluster.xml's <config>, each with its reason (simulated computing =
# measured computing, the platform's network figures as they are, an MPI_Iprobe costs
# its CPU time only, an MPI_Test 1 us, small sends travel eagerly). Environment:
# SMPI_TIMEOUT (s per run, default 120), SMPI_RUNS (default 3), SMPI_PROCS (default
# 16,64,128), SMPI_MODES (default simple,dynamic,steal), SMPI_CFG (more smpirun flags,
# e.g. --cfg=smpi/test:0, for experiments), SMPI_ARGS (other sizes, "fib=40 nqueens=14").
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 2
OUT=tests/out/smpi
TO=${SMPI_TIMEOUT:-120}
PROCS=${SMPI_PROCS:-16,64,128}
MODES=${SMPI_MODES:-simple,dynamic,steal}
if [ "${1:-}" = --quick ]; then
    PROCS=${SMPI_PROCS:-16}
    shift
fi
SMPI_CFG=${SMPI_CFG:-}
RUNS=${SMPI_RUNS:-3}
mkdir -p "$OUT"

if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
    echo "smpi: SimGrid not found: installing libsimgrid-dev simgrid ..."
    sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get update && $sudo apt-get install -y libsimgrid-dev simgrid; } \
        >"$OUT/apt.log" 2>&1 ||
        { echo "smpi: installing SimGrid failed (see $OUT/apt.log)" >&2; exit 2; }
fi
make >"$OUT/make.log" 2>&1 || { echo "smpi: make failed (see $OUT/make.log)" >&2; exit 2; }
[ -e lib/wtc/smpi/libwtcrt_mpi.a ] ||
    { echo "smpi: make built no SMPI runtime (lib/wtc/smpi; see $OUT/make.log)" >&2; exit 2; }

# The machine file: measured on the simulated cluster by wtc-calibrate under smpirun, as
# a user calibrates a real cluster (doc/predictor.md section 5), unless SMPI_MACHINE
# names one (bench/smpi/smpi-1gbe.conf: the network as cluster.xml describes it).
if [ -n "${SMPI_MACHINE:-}" ]; then
    MACH=$SMPI_MACHINE
else
    CAL=lib/wtc/smpi/wtc-calibrate
    [ -x "$CAL" ] || { echo "smpi: make built no $CAL (see $OUT/make.log)" >&2; exit 2; }
    MACH=$OUT/calibrated.conf
    # shellcheck disable=SC2086
    timeout 600 smpirun -np "${SMPI_CALIBRATE_NP:-16}" -platform "$here/cluster.xml" \
        $SMPI_CFG "$CAL" -o "$MACH" >"$OUT/calibrate.log" 2>&1 ||
        { echo "smpi: calibrating the simulated cluster failed (see $OUT/calibrate.log)" >&2
          exit 2; }
    grep -E '^wtc-calibrate: (wrote|WARNING)' "$OUT/calibrate.log"
fi
echo "machine file: $MACH"

# Numbers on stdin, one per line: "smallest spread%", the spread (largest - smallest)
# relative to the smallest; nothing when there are none.
smallest_spread() {
    awk 'NF { if (n++ == 0 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
         END { if (n) printf "%s %.1f%%", lo, 100 * (hi - lo) / lo }'
}

printf '%-8s %-8s %5s %11s %11s %8s %8s %8s %8s\n' sample mode procs predicted simulated error wall_s p_spread s_spread
: >"$OUT/rows.txt"
samples=${*:-$(ls samples/*.wtc)}
for src in $samples; do
    case "$src" in *.wtc) ;; *) src=samples/$src.wtc ;; esac
    x=$(basename "$src" .wtc)
    bin/wtcc --cc=smpicc "$src" -o "$OUT/$x" >"$OUT/$x.build" 2>&1 ||
        { echo "$x: build failed (see $OUT/$x.build)"; continue; }
    # sizes whose SMPI runs at P = 128 take seconds on a loaded 2-core machine
    case "$x" in
    fib) args=36 ;; mandel) args="512 512" ;; msort) args=2000000 ;;
    nqueens) args=13 ;; points) args=4000000 ;; qsort) args=2000000 ;;
    *) args=$(cat "samples/$x.args" 2>/dev/null) ;;
    esac
    # SMPI_ARGS="fib=40 nqueens=14": other sizes (one word each)
    for a in ${SMPI_ARGS:-}; do
        [ "${a%%=*}" = "$x" ] && args=${a#*=}
    done
    # RUNS rounds, each one recording (the predictor, every mode and P) and then one
    # SMPI run of every setting, so that both sides sample the same stretch of the
    # host's load (a rerun of the table half a day later found SMPI's times slower by up
    # to 35 % while the recordings were not); each row compares the smallest of each
    # side (see the head of this file)
    rm -f "$OUT/$x".csv.* "$OUT/$x".*.times "$OUT/$x".*.wall "$OUT/$x".*.rc
    r=0
    while [ $r -lt "$RUNS" ]; do
        r=$((r + 1))
        # shellcheck disable=SC2086
        timeout "$TO" "$OUT/$x.predict" --wtc-machine="$MACH" --wtc-procs="$PROCS" \
            --wtc-modes="$MODES" --wtc-masters=1 --wtc-format=csv $args \
            >"$OUT/$x.csv.$r" 2>"$OUT/$x.predict.err" || { r=-1; break; }
        for mode in $(echo "$MODES" | tr , ' '); do
            for P in $(echo "$PROCS" | tr , ' '); do
                s=$OUT/$x.$mode.$P
                [ -e "$s.rc" ] && continue # failed in an earlier round
                t0=$(date +%s.%N)
                # shellcheck disable=SC2086
                timeout "$TO" smpirun -np "$P" -platform "$here/cluster.xml" $SMPI_CFG \
                    "$OUT/$x" $args --wtc-mode="$mode" --wtc-masters=1 \
                    >/dev/null 2>"$s.err"
                rc=$?
                t1=$(date +%s.%N)
                echo "$t0 $t1" >>"$s.wall"
                t=$(awk '/^TIME /{ print $3 }' "$s.err" | tail -1)
                [ -n "$t" ] || [ $rc != 0 ] || rc=1
                if [ $rc = 0 ]; then echo "$t" >>"$s.times"; else echo "$rc" >"$s.rc"; fi
            done
        done
    done
    [ $r -ge 0 ] || { echo "$x: predict failed"; continue; }
    for mode in $(echo "$MODES" | tr , ' '); do
        for P in $(echo "$PROCS" | tr , ' '); do
            s=$OUT/$x.$mode.$P
            # smallest and largest of the recordings' predictions, of the SMPI runs
            pred=$(cat "$OUT/$x".csv.* |
                   awk -F, -v m="$mode" -v p="$P" '$1 == m && $2 == p { print $16 }' |
                   smallest_spread)
            if [ -e "$s.rc" ]; then
                sim="$([ "$(cat "$s.rc")" = 124 ] && echo TIMEOUT || echo FAIL) -"
            else
                sim=$(smallest_spread <"$s.times")
                [ -n "$sim" ] || sim="FAIL -"
            fi
            wall=$(awk '{ w += $2 - $1 } END { printf "%.1f", w }' "$s.wall")
            set -- $pred
            pred=${1:-FAIL} pspread=${2:--}
            set -- $sim
            sim=$1 sspread=$2
            echo "$x $mode $P $pred $sim $wall $pspread $sspread" | tee -a "$OUT/rows.txt" | awk '{
                ok = ($5 + 0 > 0 && $4 + 0 > 0)
                e = ok ? sprintf("%+.1f%%", 100 * ($4 - $5) / $5) : "-"
                printf "%-8s %-8s %5s %11s %11s %8s %8s %8s %8s\n", $1, $2, $3, $4, $5, e, $6, $7, $8 }'
        done
    done
done
echo
awk '$5 + 0 > 0 && $4 + 0 > 0 { e = 100 * ($4 - $5) / $5; a = e < 0 ? -e : e; n++
        if (a <= 15) k++; if (a > m) { m = a; w = $1 " " $2 " P=" $3 } }
     $5 + 0 <= 0 { bad++ }
     END { printf "%d settings compared, %d within 15 %%; max |error| %.1f%% (%s); %d runs failed or timed out\n",
               n, k, m, w, bad
           printf "target (issue 8: every sample, P and mode within 15 %%): %s\n",
               (n > 0 && k == n && bad == 0) ? "met" : "NOT MET"
           exit !(n > 0 && k == n && bad == 0) }' "$OUT/rows.txt"
