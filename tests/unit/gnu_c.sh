#!/bin/sh
# gnu_c.sh - C that gcc -std=gnu11 accepts must build with wtcc and run: each
# tests/gnu/X.wtc prints "ok" alone and under mpiexec -n 2, and its predictor runs;
# deep nesting as gcc takes it.
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

# gcc's practical nesting: a 4,100-term sum and a 5,000-branch else-if chain, on an
# 8 MB stack (the limits are far beyond: tests/unit/parse_robust.sh)
perl -e 'print "int main(void) { int a = 1; int s = a", " + a" x 4100, "; return s != 4101; }\n"' > "$out/sum.wtc"
perl -e 'print "int main(void) { int a = 4999, r = 0; if (a == 0) r = -1; ",
    (map { "else if (a == $_) r = $_; " } 1..5000), "return r != 4999; }\n"' > "$out/elif.wtc"
for x in sum elif; do
    if (ulimit -s 8192; timeout 300 "$WTCC" --no-predict "$out/$x.wtc" -o "$out/$x") > "$out/$x.log" 2>&1; then
        timeout 60 "$out/$x" < /dev/null || fail "$x: wrong result"
    else
        fail "$x: wtcc failed"; head -5 "$out/$x.log"
    fi
done
exit $failed
