#!/bin/sh
# bench/lent.sh - the benchmarks on a machine with more cores that has no compiler and no
# MPI (a lent machine with no network): build everything here, carry it there, run it.
#
#   sh bench/lent.sh pack DIR      here, after 'make': the binaries of bench/startup.sh and
#                                  bench/balance.sh (WTC_BENCH_BUILT=DIR/built), of
#                                  bench/validate (DIR/val: its sizes differ) and this
#                                  host's MPICH in DIR/mpi.tar.gz: mpiexec.hydra, its
#                                  proxy, the libraries they and the programs load (ldd's
#                                  closure, the C library left out) and UCX's modules
#   sh bench/lent.sh run DIR OUT   there, from the repository root (bin/ and lib/ carried
#                                  too): DIR's MPICH first in PATH, the machine's facts,
#                                  then each step below under its own timeout, its log
#                                  appended to OUT/lent.log and its last lines on stdout
#
# Steps, in this order (LENT_STEPS to choose; each skipped if its list is empty):
#   facts      cores, threads per core, memory, load; MPICH found
#   copies     plain C fib 40 as 1, P/2 and P copies at once: do P busy cores run at
#              one core's speed (hardware threads or a shared host show here)
#   inflate    the same with each program of LENT_INFLATE (balance binaries, plain C, their
#              TIME line): alone, P/2 and P copies, alone, P copies; then each one's steal
#              -n P --wtc-stats run: its ranks' computing against plain C alone
#   startup    bench/startup.sh at -n 1 2 4 8 16 (LENT_STARTUP_NP), 7 runs
#   parts      bench/init_parts.sh at -n 2, nproc/2, nproc: where MPI's start goes, under
#              each of LENT_PARTS_VARIANTS (init_parts.sh's INIT_PARTS_VARIANTS)
#   ab         (with LENT_AB_ENV) steal -n nproc of each of LENT_STATS, 7 runs taking turns
#              without and with that environment (VAR=VALUE words): whole-process medians
#   stats      one steal run at -n nproc of each of LENT_STATS (balance binaries) with
#              --wtc-stats: each rank's computing, idle and waiting
#   balance16  bench/balance.sh at P = nproc (LENT_BAL16 programs)
#   validate   bench/validate, calibrated at -n nproc, P = 8 and nproc (LENT_VALIDATE)
#   balance8   bench/balance.sh at P = nproc/2 (LENT_BAL8 programs)
# LENT_RUNS (default 3) runs per median; LENT_STEP_TIMEOUT (s, default 240) per step.
# The MPI programs run with the GPU hidden (CUDA_VISIBLE_DEVICES=), as on a CPU node
# (bench/README.md "On 16 cores again": MPICH's hwloc otherwise starts the GPU driver).

cd "$(dirname "$0")/.." || exit 2
BAL16=${LENT_BAL16-nqueens uts fib mandel msort cilksort qsort_hoare knapsack}
BAL8=${LENT_BAL8-nqueens uts fib}
STATS=${LENT_STATS-nqueens_c3 uts fib}
INFLATE=${LENT_INFLATE-fib nqueens_c3 uts mandel msort knapsack}
VAL=${LENT_VALIDATE-bench/balance/uts.wtc bench/balance/fib.wtc bench/balance/mandel.wtc bench/balance/msort.wtc}
RUNS=${LENT_RUNS:-3}
STMO=${LENT_STEP_TIMEOUT:-240}

case ${1:-} in
pack)
    dir=${2:?"usage: sh bench/lent.sh pack DIR"}
    if [ ! -x bin/wtcc ] || [ ! -x bin/wtc-calibrate ]; then
        echo "lent: run make first" >&2
        exit 2
    fi
    mkdir -p "$dir/built" "$dir/mpi/bin" "$dir/mpi/lib/ucx" || exit 2
    dir=$(cd "$dir" && pwd)
    # every program the steps run, built once here
    WTC_BENCH_BUILT=$dir/built WTC_BENCH_BUILD_ONLY=1 sh bench/startup.sh >/dev/null || exit 2
    ${CC:-cc} -O2 -shared -fPIC bench/init_parts.c -o "$dir/built/init_parts.so" -ldl || exit 2
    # shellcheck disable=SC2046,SC2086 # lists of names
    { WTC_BENCH_BUILT=$dir/built WTC_BENCH_BUILD_ONLY=1 sh bench/balance.sh $(echo "$BAL16 $BAL8" |
        tr ' ' '\n' | sort -u) >/dev/null &&
        WTC_BENCH_BUILT=$dir/val WTC_BENCH_BUILD_ONLY=1 sh bench/validate $VAL >/dev/null; } || exit 2
    printf 'int f(int n) { return n < 2 ? n : f(n - 1) + f(n - 2); }\nint main(void) { return f(40) & 1; }\n' |
        ${CC:-cc} -O2 -x c - -o "$dir/built/fib40" || exit 2
    hydra=$(command -v mpiexec.hydra) || { echo "lent: no mpiexec.hydra (MPICH) here" >&2; exit 2; }
    proxy=$(dirname "$hydra")/hydra_pmi_proxy
    cp "$hydra" "$proxy" "$dir/mpi/bin/" || exit 2
    ln -sf mpiexec.hydra "$dir/mpi/bin/mpiexec"
    # the shared libraries they load, but the C library's own (every Linux has those)
    for f in "$hydra" "$proxy" "$dir/built/uts" "$dir/built/uts.omp"; do ldd "$f"; done |
        awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
        grep -Ev '/(libc|libm|libresolv|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
        while read -r lib; do cp -L "$lib" "$dir/mpi/lib/" || exit 2; done || exit 2
    ucx=$(dirname "$(ldd "$dir/built/uts" | awk '$1 ~ /^libucs/ { print $3 }')")/ucx
    [ -d "$ucx" ] && cp -L "$ucx"/*.so.0 "$dir/mpi/lib/ucx/"
    # compressed: MPICH's library alone is 40 MB, a lent machine takes 64 MiB in all
    tar -C "$dir" -czf "$dir/mpi.tar.gz" mpi && rm -rf "$dir/mpi" || exit 2
    du -sh "$dir"
    exit 0
    ;;
run) ;;
*)
    echo "usage: sh bench/lent.sh pack DIR | run DIR OUT" >&2
    exit 2
    ;;
esac

dir=${2:?"usage: sh bench/lent.sh run DIR OUT"}
out=${3:?"usage: sh bench/lent.sh run DIR OUT"}
dir=$(cd "$dir" && pwd) || exit 2
mkdir -p "$out" || exit 2
# the steps' logs go to OUT/lent.log, one after the other (one file: a lent machine
# gives back few)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wtc-lent.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
: >"$out/lent.log"
tar -C "$tmp" -xzf "$dir/mpi.tar.gz" || exit 2
mpi=$tmp/mpi
PATH=$mpi/bin:$PATH
LD_LIBRARY_PATH=$mpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
UCX_MODULE_DIR=$mpi/lib/ucx
CUDA_VISIBLE_DEVICES=
export PATH LD_LIBRARY_PATH UCX_MODULE_DIR CUDA_VISIBLE_DEVICES
WTC_BENCH_BUILT=$dir/built
export WTC_BENCH_BUILT
cores=$(nproc)
half=$((cores / 2))
[ "$half" -ge 2 ] || half=2
STEPS=${LENT_STEPS:-facts copies startup parts ab stats balance16 validate balance8}

# step NAME COMMAND...: run it under the step's timeout into OUT/NAME.log; show its end
step() {
    name=$1
    shift
    echo "== $name ($(date -u +%H:%M:%S))"
    timeout -k 5 "$STMO" "$@" >"$tmp/step.log" 2>&1
    st=$?
    [ $st = 124 ] && echo "($name: stopped after $STMO s)" >>"$tmp/step.log"
    [ $st != 0 ] && [ $st != 124 ] && echo "($name: status $st)" >>"$tmp/step.log"
    { echo "== $name"; cat "$tmp/step.log"; } >>"$out/lent.log"
    tail -n "${LENT_TAIL:-40}" "$tmp/step.log"
}

# at_once K COMMAND...: K copies of COMMAND at once; copy i's stderr, then a line
# "WALL seconds", in $tmp/once.i
at_once() {
    k=$1
    shift
    i=0
    while [ "$i" -lt "$k" ]; do
        (t0=$(date +%s.%N); timeout 120 "$@" >/dev/null 2>"$tmp/once.$i" </dev/null
            t1=$(date +%s.%N)
            echo "$t0 $t1" | awk '{ printf "WALL %.4f\n", $2 - $1 }' >>"$tmp/once.$i") &
        i=$((i + 1))
    done
    wait
}

# copies K: K plain C fib 40 at once; each one's seconds
copies() {
    at_once "$1" "$dir/built/fib40"
    echo "$1 at once: $(awk '$1 == "WALL" { printf "%.2f\n", $2 }' "$tmp"/once.* | sort -n | tr '\n' ' ')"
    rm -f "$tmp"/once.*
}

# copies_all: fib 40 alone, as half the cores, as all, alone again
copies_all() {
    copies 1
    copies "$half"
    copies "$cores"
    copies 1
}

# fstep NAME FUNCTION: as step, for a function of this script (each of its runs has its
# own timeout)
fstep() {
    echo "== $1 ($(date -u +%H:%M:%S))"
    "$2" >"$tmp/step.log" 2>&1
    { echo "== $1"; cat "$tmp/step.log"; } >>"$out/lent.log"
    cat "$tmp/step.log"
}

# tline FILE: the TIME line's seconds in FILE (0 when there is none)
tline() { awk '$1 == "TIME" { t = $3 } END { print t + 0 }' "$1"; }

# kcopies PROG K: K copies of PROG's plain C at once; the median of their TIME lines
kcopies() {
    at_once "$2" "$dir/built/$1.plain"
    for f in "$tmp"/once.*; do tline "$f"; done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
    rm -f "$tmp"/once.*
}

# inflate: for each of LENT_INFLATE, its plain C alone and as many copies at once (the
# median copy's TIME), then the sum of the ranks' computing in a steal -n P run against
# plain C alone: how much slower a core computes this program when all cores do
inflate() {
    for p in $INFLATE; do
        a1=$(kcopies "$p" 1)
        h=$(kcopies "$p" "$half")
        f1=$(kcopies "$p" "$cores")
        a2=$(kcopies "$p" 1)
        f2=$(kcopies "$p" "$cores")
        timeout 60 mpiexec -n "$cores" "$dir/built/$p" --wtc-mode=steal --wtc-stats \
            >"$tmp/st" 2>&1 </dev/null || echo "$p: steal run failed"
        sum=$(awk '$2 == "worker" && $1 ~ /^[0-9]+$/ { s += $3 } END { print s + 0 }' "$tmp/st")
        echo "$p $a1 $a2 $h $f1 $f2 $sum" | awk -v P="$cores" -v H="$half" '{
            alone = ($2 < $3 ? $2 : $3); full = ($5 < $6 ? $5 : $6)
            printf "%-12s alone %.3f %.3f s | %d copies %.3f | %d copies %.3f %.3f | x%.2f x%.2f | steal -n %d: ranks compute %.3f s = x%.2f\n",
                $1, $2, $3, H, $4, P, $5, $6, $4 / alone, full / alone, P, $7, $7 / alone }'
    done
}

# ab: LENT_STATS's programs in steal mode at -n cores, 7 runs each without and with
# LENT_AB_ENV, taking turns; the medians of the whole command's wall time
ab() {
    for p in $STATS; do
        case $p in nqueens*) a=15 ;; fib) a=44 ;; *) a= ;; esac
        : >"$tmp/a"
        : >"$tmp/b"
        for i in 1 2 3 4 5 6 7; do
            for w in a b; do
                e=
                [ $w = b ] && e=$LENT_AB_ENV
                t0=$(date +%s.%N)
                # shellcheck disable=SC2086
                env $e timeout 60 mpiexec -n "$cores" "$dir/built/$p" --wtc-mode=steal $a \
                    >/dev/null 2>"$tmp/err" || { echo "$p ($w): failed"; head -3 "$tmp/err"; }
                t1=$(date +%s.%N)
                echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$tmp/$w"
            done
        done
        ma=$(sort -g "$tmp/a" | sed -n 4p)
        mb=$(sort -g "$tmp/b" | sed -n 4p)
        echo "$p steal -n $cores: without $ma s, with $LENT_AB_ENV $mb s (medians of 7)"
    done
}

for s in $STEPS; do
    case $s in
    facts)
        step facts sh -c 'nproc; lscpu | grep -E "^(Model name|Thread|Core|Socket|NUMA node\(s\))"
            free -g | head -2; cat /proc/loadavg; mpiexec --version | head -3
            mpiexec -n 2 '"$dir"'/built/mpi && echo "MPI runs"' ;;
    copies)
        fstep copies copies_all ;;
    inflate)
        [ -n "$INFLATE" ] && fstep inflate inflate ;;
    startup)
        [ -n "${LENT_STARTUP_NP-1 2 4 8 16}" ] &&
            step startup env WTC_BENCH_RUNS=7 WTC_STARTUP_NP="${LENT_STARTUP_NP-1 2 4 8 16}" \
                sh bench/startup.sh ;;
    parts)
        step parts env INIT_PARTS_NP="2 $half $cores" \
            ${LENT_PARTS_VARIANTS:+INIT_PARTS_VARIANTS="$LENT_PARTS_VARIANTS"} sh bench/init_parts.sh ;;
    ab)
        [ -n "${LENT_AB_ENV:-}" ] && fstep ab ab ;;
    stats)
        for p in $STATS; do
            case $p in nqueens*) a=15 ;; fib) a=44 ;; *) a= ;; esac
            # shellcheck disable=SC2086
            LENT_TAIL=${LENT_TAIL:-25} step "stats.$p" timeout 60 mpiexec -n "$cores" \
                "$dir/built/$p" --wtc-mode=steal --wtc-stats $a
        done ;;
    balance16)
        # shellcheck disable=SC2086
        [ -n "$BAL16" ] && step balance16 env WTC_BENCH_RUNS="$RUNS" WTC_BALANCE_P="$cores" \
            sh bench/balance.sh $BAL16 ;;
    validate)
        # shellcheck disable=SC2086
        [ -n "$VAL" ] && step validate env WTC_BENCH_BUILT="$dir/val" VALIDATE_RUNS=2 VALIDATE_PROCS="$half $cores" \
            VALIDATE_CALIBRATE_NP="$cores" sh bench/validate $VAL ;;
    balance8)
        # shellcheck disable=SC2086
        [ -n "$BAL8" ] && step balance8 env WTC_BENCH_RUNS="$RUNS" WTC_BALANCE_P="$half" \
            sh bench/balance.sh $BAL8 ;;
    *) echo "lent: no step '$s'" >&2 ;;
    esac
done
echo "== done ($(date -u +%H:%M:%S))"
