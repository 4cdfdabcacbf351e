#!/bin/sh
# A raw NUL byte inside a string or character literal (gcc keeps it, with a warning) in
# code that wtcc re-prints: main, a recursive function's clones, a spawn argument, a par
# body in main. The program prints the same bytes as the plain C one, in the MPI build
# and run by mpiexec. (Before: the re-printed text ended at the NUL: "missing
# terminating \" character".) Literals without NUL bytes: tests/run/literals.wtc.
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/cg_literals
rm -rf "$out" && mkdir -p "$out"
fail() { echo "cg_literals: FAIL: $*"; exit 1; }
# N stands for the NUL byte, written by tr
tr N '\000' > "$out/nul.wtc" <<'SRC'
#include <stdio.h>
recursive int count(const char *s, int n)
in: s[n], n;
cond: n > 2;
{
    int r[2];
    if (n <= 2)
        return (n > 0 && s[0] == 'N') + (n > 1 && s[1] == 'N') + (sizeof "aNb" == 4);
    par h = 0 to 1 do
        r[h] = count(h ? s + n / 2 : s, h ? n - n / 2 : n / 2);
    return r[0] + r[1];
}
int main(void)
{
    int r[2];
    fwrite("aNb\n", 1, 4, stdout);
    printf("%d %d\n", count("xNyNNz", 6), 'N' == 0);
    par i = 0 to 1 do
        r[i] = count(i ? "NN" : "NaNNb", i ? 2 : 5);
    printf("%d %d\n", r[0], r[1]);
    return 0;
}
SRC
perl tests/strip-annotations "$out/nul.wtc" > "$out/plain.c" &&
    cc -x c -w "$out/plain.c" -o "$out/plain" || fail "the plain C program does not build"
"$out/plain" > "$out/want" || fail "the plain C program failed"
bin/wtcc "$out/nul.wtc" -o "$out/prog" > "$out/build.log" 2>&1 || fail "wtcc: $(grep -v '^ ' "$out/build.log" | head -3)"
grep -q 'missing terminating' "$out/build.log" && fail "re-printed literal cut at the NUL"
for n in 1 3; do
    timeout -k 5 60 mpiexec -n $n "$out/prog" > "$out/got.$n" || fail "-n $n: status $?"
    cmp -s "$out/want" "$out/got.$n" || fail "-n $n: output differs: $(od -c "$out/got.$n" | head -3)"
done
echo "cg_literals: ok"
