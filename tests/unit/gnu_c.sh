#!/bin/sh
# gnu_c.sh - C that gcc -std=gnu11 accepts must build with wtcc and run: each
# tests/gnu/X.wtc prints "ok" alone and under mpiexec -n 2, and its predictor runs.
cd "$(dirname "$0")/../.." || exit 1
WTCC=${WTCC:-bin/wtcc}
out=tests/out/gnu
rm -rf "$out" && mkdir -p "$out"
failed=0
fail() { echo "FAIL: $*"; failed=1; }
for src in tests/gnu/*.wtc; do
    x=$(basename "$src" .wtc)
    if ! timeout 120 "$WTCC" "$src" -o "$out/$x" 2> "$out/$x.log"; then
        fail "$x: wtcc failed"; head -10 "$out/$x.log"; continue
    fi
    r1=$(timeout 60 "$out/$x" < /dev/null 2>&1)
    r2=$(timeout 60 mpiexec -n 2 "$out/$x" < /dev/null 2>&1)
    timeout 60 "$out/$x.predict" --wtc-procs=2 --wtc-masters=1 --wtc-format=csv \
        < /dev/null > "$out/$x.csv" 2>&1
    st=$?
    [ "$r1" = ok ] || fail "$x: '$r1', expected ok"
    [ "$r2" = ok ] || fail "$x -n 2: '$r2', expected ok"
    [ $st = 0 ] && grep -q '^simple,2,' "$out/$x.csv" || fail "$x.predict: status $st"
    [ $failed = 0 ] && echo "ok: $x"
done
exit $failed
