#!/bin/sh
# The generated C: deterministic, clone structure as designed, compiles cleanly with
# -Wall -Wextra, and carries line directives so C compiler errors point at the .wtc.
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/cg_emit
rm -rf "$out" && mkdir -p "$out"
fail() { echo "cg_emit: FAIL: $*"; exit 1; }

# 1. deterministic: two runs give identical output
bin/wtcc -E samples/fib.wtc -o "$out/a.c" || fail "wtcc -E fib"
bin/wtcc -E samples/fib.wtc -o "$out/b.c" || fail "wtcc -E fib (2)"
cmp -s "$out/a.c" "$out/b.c" || fail "generated C differs between two runs"

# 2. the shape: both clones, the descriptor, a par frame, a deferred spawn, a par run
#    inline (the parallel clone called directly, wtc_par_next before a further child),
#    main wrapper
for pat in 'static long __wtc_seq_fib(int n)' 'static long __wtc_par_fib(wtc_ctx __wtc_c, int n)' \
           'wtc_par_open_fast(__wtc_c, wtc_cut_depth >= 0 ? __wtc_c.depth < wtc_cut_depth : (n > 20), &__wtc_s_1)' \
           'if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) __wtc_p_1 = wtc_par_next(__wtc_c);' \
           '__wtc_par_fib(wtc_ctx_down(__wtc_c), ' \
           'static const wtc_site __wtc_s_1 = { "samples/fib.wtc", 23, 5 };' \
           'wtc_spawn(__wtc_p_1, &__wtc_fn_fib' \
           'static const wtc_fn __wtc_fn_fib = {' '#define main __wtc_user_main' '#undef main' \
           'return wtc_start(argc, argv, &__wtc_program);' '#line 18 "'; do
    grep -qF "$pat" "$out/a.c" || fail "generated C lacks: $pat"
done
# the sequential clone calls no runtime function
sed -n '/^\(__attribute__((flatten)) \)\{0,1\}static long __wtc_seq_fib(int n) {/,/^}/p' "$out/a.c" > "$out/seq.c"
[ -s "$out/seq.c" ] || fail "cannot find the sequential clone"
grep -Eq '(^|[^_])wtc_(par_open|spawn|par_close|call|region_open|ctx_down)' "$out/seq.c" &&
    fail "the sequential clone calls the runtime"

# 3. every sample's generated C compiles without a warning under -Wall -Wextra
for s in samples/*.wtc; do
    b=$(basename "$s" .wtc)
    bin/wtcc -E "$s" -o "$out/$b.c" || fail "wtcc -E $s"
    mpicc -std=gnu11 -Wall -Wextra -Ilib/wtc/include -c "$out/$b.c" -o "$out/$b.o" \
        2> "$out/$b.warn" || fail "generated C of $s does not compile: $(head -3 "$out/$b.warn")"
    [ -s "$out/$b.warn" ] && fail "generated C of $s warns: $(head -3 "$out/$b.warn")"
done

# 4. an error only the C compiler finds points at the .wtc line (11), not generated C
bin/wtcc tests/cg/c_error.wtc -o "$out/c_error" 2> "$out/c_error.txt"
rc=$?
[ $rc -eq 1 ] || fail "C error: exit status $rc, expected 1"
grep -q 'c_error.wtc:11:[0-9]*: error: invalid use of undefined type' "$out/c_error.txt" ||
    fail "C error not reported at c_error.wtc:11: $(head -3 "$out/c_error.txt")"
[ -e "$out/c_error" ] && fail "an output file was left after a failed build"

# 5. mode: steal reaches the descriptor as WTC_MODE_STEAL (3), masters 1, warning-free C
bin/wtcc -E tests/cg/steal_mode.wtc -o "$out/steal.c" || fail "wtcc -E steal_mode.wtc"
grep -qF '"fib", 0, 3, 1, 1,' "$out/steal.c" || fail "mode: steal is not mode 3 in the descriptor"
mpicc -std=gnu11 -Wall -Wextra -Ilib/wtc/include -c "$out/steal.c" -o "$out/steal.o" \
    2> "$out/steal.warn" || fail "generated C of steal_mode.wtc does not compile"
[ -s "$out/steal.warn" ] && fail "generated C of steal_mode.wtc warns: $(head -3 "$out/steal.warn")"
echo "cg_emit: ok"
exit 0
