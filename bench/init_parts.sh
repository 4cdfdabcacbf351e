#!/bin/sh
# bench/init_parts.sh - where MPI's start goes, rank by rank (doc/runtime.md "Start-up"):
# runs a wtcc program that ends at once with bench/init_parts.c preloaded, at each -n and
# under each variant of the environment, and prints medians over the runs, in ms:
#
#   launch  mpiexec's start to the first rank's process     spread  first to last rank
#   init    the longest MPI_Init of the ranks               ready   mpiexec's start to
#           the last rank out of MPI_Init                   hwloc, ucp, worker, ep: per rank
#           (mean) in hwloc's topology, UCX's context, its worker and all its endpoints
#   pmi     per rank (mean), waiting for the launcher's answers (key exchange, barriers)
#   fin     the longest MPI_Finalize                        wall    the whole command
#
#   sh bench/init_parts.sh                    -n 2, 4; the variants below; 7 runs each
#   INIT_PARTS_NP="2 8 16" INIT_PARTS_RUNS=9 sh bench/init_parts.sh
#   INIT_PARTS_VARIANTS="base UCX_TLS=self,sysv,cma" ...   'base' is the runtime's own
#                                             choice; any other is VAR=VALUE[,...] words
#                                             joined by '+' (set for the ranks, winning
#                                             over the runtime's own as a user's would)
#   WTC_BENCH_BUILT=DIR ...                   the program and the library from DIR (as
#                                             bench/startup.sh's; built if missing)
cd "$(dirname "$0")/.." || exit 2
NPS=${INIT_PARTS_NP:-2 4}
RUNS=${INIT_PARTS_RUNS:-7}
VARIANTS=${INIT_PARTS_VARIANTS:-base UCX_TLS=self,sysv,cma UCX_MODULES=^ib,rdmacm MPIR_CVAR_NOLOCAL=0}
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-parts.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
B=${WTC_BENCH_BUILT:-$D}
if [ ! -x "$B/wtc" ]; then
    bin/wtcc -O2 --no-predict samples/fib.wtc -o "$B/wtc" >"$D/log" 2>&1 ||
        { echo "init_parts: building samples/fib.wtc failed:" >&2; cat "$D/log" >&2; exit 2; }
fi
if [ ! -f "$B/init_parts.so" ]; then
    ${CC:-cc} -O2 -shared -fPIC bench/init_parts.c -o "$B/init_parts.so" -ldl >"$D/log" 2>&1 ||
        { echo "init_parts: building bench/init_parts.c failed:" >&2; cat "$D/log" >&2; exit 2; }
fi
so=$(cd "$B" && pwd)/init_parts.so

med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)]; else printf "-" }'; }

echo "init_parts: $(nproc) cores, $RUNS runs each, $(date -u '+%Y-%m-%d %H:%M'), ms (medians)"
printf '%-28s %3s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n' variant n launch spread init \
    ready hwloc ucp worker ep pmi fin wall
for n in $NPS; do
    for v in $VARIANTS; do
        envs=
        [ "$v" = base ] || envs=$(echo "$v" | tr '+' ' ')
        : >"$D/sum"
        i=0
        while [ $i -lt "$RUNS" ]; do
            : >"$D/ranks"
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086 # the variant's words
            env $envs INIT_PARTS_OUT="$D/ranks" LD_PRELOAD="$so" timeout 60 \
                mpiexec -n "$n" "$B/wtc" 5 >/dev/null 2>"$D/err"
            st=$?
            t1=$(date +%s.%N)
            if [ $st != 0 ] || [ "$(wc -l <"$D/ranks")" != "$n" ]; then
                echo "  $v -n $n: status $st, $(wc -l <"$D/ranks") ranks wrote: $(head -c 300 "$D/err")"
                i=$((i + 1))
                continue
            fi
            awk -v t0="$t0" -v t1="$t1" '
                NR == 1 { s0 = $2; s1 = $2; rd = $4 }
                { if ($2 < s0) s0 = $2; if ($2 > s1) s1 = $2; if ($4 > rd) rd = $4
                  if ($4 - $3 > in_) in_ = $4 - $3; if ($6 - $5 > fi) fi = $6 - $5
                  h += $7; u += $8; w += $9; e += $10; p += $12 }
                END { printf "%f %f %f %f %f %f %f %f %f %f %f\n", 1e3 * (s0 - t0),
                    1e3 * (s1 - s0), 1e3 * in_, 1e3 * (rd - t0), 1e3 * h / NR, 1e3 * u / NR,
                    1e3 * w / NR, 1e3 * e / NR, 1e3 * p / NR, 1e3 * fi, 1e3 * (t1 - t0) }' \
                "$D/ranks" >>"$D/sum"
            i=$((i + 1))
        done
        line=$(printf '%-28s %3s' "$v" "$n")
        for c in 1 2 3 4 5 6 7 8 9 10 11; do
            line="$line $(printf '%7s' "$(cut -d' ' -f$c "$D/sum" | med)")"
        done
        echo "$line"
    done
done
