#!/bin/sh
# fuzz_smoke.sh - the fuzz target (tests/fuzz/fuzz_parse.c), built with the normal
# compiler, over its seed corpus and 30 deterministic mutants of each seed: no crash, no
# hang, every input run, and the seeds that are valid reach the code generator.
cd "$(dirname "$0")/../.." || exit 1
sh tests/fuzz/build.sh || { echo "FAIL: cannot build the fuzz target"; exit 1; }
out=tests/out/fuzz/smoke.txt
nseeds=$(ls tests/fuzz/corpus/*.i | wc -l)
timeout 120 tests/out/fuzz/fuzz_parse --mutate 30 tests/fuzz/corpus/*.i > "$out" 2> /dev/null
st=$?
[ $st = 0 ] || { echo "FAIL: fuzz_parse exited with status $st"; exit 1; }
cat "$out"
want=$((nseeds * 31))
read -r n _ clean _ < "$out"
[ "$n" = "$want" ] || { echo "FAIL: $n inputs run, expected $want"; exit 1; }
[ "$clean" -ge "$nseeds" ] || { echo "FAIL: only $clean inputs parsed without error"; exit 1; }
echo "ok"
