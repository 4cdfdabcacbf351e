#!/bin/sh
# Writing a global or dereferencing a global pointer in a recursive function is legal C
# but cannot be what the user meant on distributed memory: a warning each, with its
# location, and the program is still built (SPEC 2.4).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/cg_warn
rm -rf "$out" && mkdir -p "$out"
fail() { echo "cg_warn: FAIL: $*"; cat "$out/log"; exit 1; }
bin/wtcc --no-predict tests/cg/global_warn.wtc -o "$out/prog" > "$out/log" 2>&1 || fail "build failed"
[ -x "$out/prog" ] || fail "no program built"
grep -q "global_warn.wtc:14:5: warning: recursive function 'f' writes global variable 'calls'" "$out/log" ||
    fail "no warning for the write of 'calls' at 14:5"
grep -q "global_warn.wtc:20:15: note: a best value found so far that every processor should see is shared with wtc_share_max(least, v) or wtc_share_min(least, v)" "$out/log" ||
    fail "no note on wtc_share_min for the bound 'least' at 20:15"
[ "$(grep -c 'note:' "$out/log")" -eq 1 ] || fail "expected one note (the counter 'calls++' gets none)"
grep -q "global_warn.wtc:16:20: warning: recursive function 'f' dereferences global pointer 'cursor'" "$out/log" ||
    fail "no warning for the dereference of 'cursor' at 16:20"
# reading a global array is fine: no warning about 'table'
grep -q "'table'" "$out/log" && fail "warned about reading the global array 'table'"
[ "$(grep -c 'warning:' "$out/log")" -eq 3 ] || fail "expected exactly three warnings"
# calling through a global that holds rank 0's function pointers (crashed at -n 3);
# a const table is every rank's own
bin/wtcc --no-predict tests/cg/fnptr_warn.wtc -o "$out/fnptr" > "$out/log" 2>&1 || fail "fnptr: build failed"
grep -q "fnptr_warn.wtc:18:16: warning: recursive function 'apply' calls through global 'op'" "$out/log" ||
    fail "no warning for the call through 'op' at 18:16"
grep -q "fnptr_warn.wtc:18:24: warning: recursive function 'apply' calls through global 'ops'" "$out/log" ||
    fail "no warning for the call through 'ops' at 18:24"
grep -q "'cops'" "$out/log" && fail "warned about the const table 'cops'"
[ "$(grep -c 'warning:' "$out/log")" -eq 2 ] || fail "fnptr: expected exactly two warnings"
# main's par body sets a global that the recursive function reads: the calls sent to
# other ranks see the region-start value (a silent wrong result without the warning);
# a global the recursive functions do not read is not warned about
bin/wtcc --no-predict tests/cg/region_global.wtc -o "$out/rg" > "$out/log" 2>&1 || fail "region_global: build failed"
grep -q "region_global.wtc:23:15: warning: global variable 'scale' is written in the body of a par that starts a parallel region" "$out/log" ||
    fail "no warning for 'scale' written in main's par body at 23:15"
grep -q "'unused_by_f'" "$out/log" && fail "warned about 'unused_by_f', which no recursive function reads"
[ "$(grep -c 'warning:' "$out/log")" -eq 1 ] || fail "region_global: expected exactly one warning"
# every iteration of a par storing into one variable: the value kept is the last call
# to end, not the last iteration's; an indexed array, a store under an if, one
# iteration and a variable of the body are not warned about
bin/wtcc --no-predict tests/cg/par_store_warn.wtc -o "$out/ps" > "$out/log" 2>&1 || fail "par_store_warn: build failed"
grep -q "par_store_warn.wtc:15:9: warning: every iteration of this par stores the result of 'f' into 'last'" "$out/log" ||
    fail "no warning for 'last = f(i)' at 15:9"
[ "$(grep -c 'warning:' "$out/log")" -eq 1 ] || fail "par_store_warn: expected exactly one warning"
# globals holding pointers: warned about when the program sets them (rank 0's
# addresses), not when nobody writes them (each rank has its own from the initializer)
bin/wtcc --no-predict tests/cg/ptr_global_warn.wtc -o "$out/pg" > "$out/log" 2>&1 || fail "ptr_global_warn: build failed"
grep -q "ptr_global_warn.wtc:24:17: warning: recursive function 'f' uses global 'logf', which holds pointers that the program sets" "$out/log" ||
    fail "no warning for 'logf' at 24:17"
grep -q "ptr_global_warn.wtc:25:42: warning: recursive function 'f' uses global 'rows', which holds pointers that the program sets" "$out/log" ||
    fail "no warning for 'rows' (filled through fill(rows)) at 25:42"
grep -q "'names'" "$out/log" && fail "warned about 'names', which main only reads"
[ "$(grep -c 'warning:' "$out/log")" -eq 2 ] || fail "ptr_global_warn: expected exactly two warnings"
# a write through a pointer listed in in: but not out: (lost for the caller when the
# call runs elsewhere): one warning for 'v' however often it is written, none for a
# buffer in both clauses, an array of its own, or the pointer variable itself
bin/wtcc --no-predict tests/cg/in_write_warn.wtc -o "$out/iw" > "$out/log" 2>&1 || fail "in_write_warn: build failed"
grep -q "in_write_warn.wtc:14:18: warning: recursive function 'norm' writes through 'v', which is listed in in: but not in out:" "$out/log" ||
    fail "no warning for the write through 'v' at 14:18"
[ "$(grep -c 'warning:' "$out/log")" -eq 1 ] || fail "in_write_warn: expected exactly one warning"
echo "cg_warn: ok"
