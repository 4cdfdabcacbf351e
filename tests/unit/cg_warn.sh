#!/bin/sh
# Writing a global or dereferencing a global pointer in a recursive function is legal C
# but cannot be what the user meant on distributed memory: a warning each, with its
# location, and the program is still built (SPEC 2.4).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/cg_warn
rm -rf "$out" && mkdir -p "$out"
fail() { echo "cg_warn: FAIL: $*"; cat "$out/log"; exit 1; }
# build NAME: tests/cg/NAME.wtc into $out/NAME, its messages in $out/log
build() {
    bin/wtcc --no-predict "tests/cg/$1.wtc" -o "$out/$1" > "$out/log" 2>&1 || fail "$1: build failed"
}
# has TEXT WHY / lacks TEXT WHY: the log holds TEXT, or does not
has() { grep -q "$1" "$out/log" || fail "$2"; }
lacks() { ! grep -q "$1" "$out/log" || fail "$2"; }
# count KIND N WHY: the log holds exactly N lines with "KIND:"
count() { [ "$(grep -c "$1:" "$out/log")" -eq "$2" ] || fail "$3"; }
build global_warn
[ -x "$out/global_warn" ] || fail "no program built"
has "global_warn.wtc:14:5: warning: recursive function 'f' writes global variable 'calls'" \
    "no warning for the write of 'calls' at 14:5"
has "global_warn.wtc:20:15: note: a best value found so far that every processor should see is shared with wtc_share_max(least, v) or wtc_share_min(least, v)" \
    "no note on wtc_share_min for the bound 'least' at 20:15"
count note 1 "expected one note (the counter 'calls++' gets none)"
has "global_warn.wtc:16:20: warning: recursive function 'f' dereferences global pointer 'cursor'" \
    "no warning for the dereference of 'cursor' at 16:20"
# 'cursor' keeps its initializer (every rank's own address of 'table'): the warning does
# not say its data exists only on rank 0, which was false (a helper's bug hunt)
has "pointer 'cursor', which no function writes: on each processor it points where its initializer says" \
    "the warning for 'cursor', which nobody writes, does not say so"
# reading a global array is fine: no warning about 'table'
lacks "'table'" "warned about reading the global array 'table'"
count warning 3 "expected exactly three warnings"
# calling through a global that holds rank 0's function pointers (crashed at -n 3);
# a const table is every rank's own
build fnptr_warn
has "fnptr_warn.wtc:18:16: warning: recursive function 'apply' calls through global 'op'" \
    "no warning for the call through 'op' at 18:16"
has "fnptr_warn.wtc:18:24: warning: recursive function 'apply' calls through global 'ops'" \
    "no warning for the call through 'ops' at 18:24"
lacks "'cops'" "warned about the const table 'cops'"
count warning 2 "fnptr: expected exactly two warnings"
# main's par body sets a global that the recursive function reads: the calls sent to
# other ranks see the region-start value (a silent wrong result without the warning);
# a global the recursive functions do not read is not warned about
build region_global
has "region_global.wtc:23:15: warning: global variable 'scale' is written in the body of a par that starts a parallel region" \
    "no warning for 'scale' written in main's par body at 23:15"
lacks "'unused_by_f'" "warned about 'unused_by_f', which no recursive function reads"
count warning 1 "region_global: expected exactly one warning"
# every iteration of a par storing into one variable: the value kept is the last call
# to end, not the last iteration's; an indexed array, a store under an if, one
# iteration and a variable of the body are not warned about
build par_store_warn
has "par_store_warn.wtc:15:9: warning: every iteration of this par stores the result of 'f' into 'last'" \
    "no warning for 'last = f(i)' at 15:9"
count warning 1 "par_store_warn: expected exactly one warning"
# globals holding pointers: warned about when the program sets them (rank 0's
# addresses), not when nobody writes them (each rank has its own from the initializer)
build ptr_global_warn
has "ptr_global_warn.wtc:24:17: warning: recursive function 'f' uses global 'logf', which holds pointers and which the program writes" \
    "no warning for 'logf' at 24:17"
has "ptr_global_warn.wtc:25:42: warning: recursive function 'f' uses global 'rows', which holds pointers and which the program writes" \
    "no warning for 'rows' (filled through fill(rows)) at 25:42"
lacks "'names'" "warned about 'names', which main only reads"
count warning 2 "ptr_global_warn: expected exactly two warnings"
# a write through a pointer listed in in: but not out: (lost for the caller when the
# call runs elsewhere): one warning for 'v' however often it is written, none for a
# buffer in both clauses, an array of its own, or the pointer variable itself
build in_write_warn
has "in_write_warn.wtc:14:18: warning: recursive function 'norm' writes through 'v', which is listed in in: but not in out:" \
    "no warning for the write through 'v' at 14:18"
count warning 1 "in_write_warn: expected exactly one warning"
# the same in the functions a recursive function calls, directly or not: a pointer the
# program sets and dereferences there (crashed at -n 2 with no word), a call through a
# function pointer main sets, a struct holding a pointer main sets; not a pointer nobody
# writes, nor a const table of functions
build helper_warn
has "helper_warn.wtc:22:41: warning: recursive function 'f' calls 'deep', which dereferences global pointer 'gp'; the data it points to exists only on rank 0" \
    "no warning for 'gp' dereferenced in deep at 22:41"
has "helper_warn.wtc:24:32: warning: recursive function 'f' calls 'via', which calls through global 'op'" \
    "no warning for the call through 'op' in via at 24:32"
has "helper_warn.wtc:24:45: warning: recursive function 'f' calls 'via', which uses global 'cf', which holds pointers and which the program writes" \
    "no warning for 'cf' in via at 24:45"
lacks "'fixed'" "warned about 'fixed', which nobody writes"
lacks "'cops'" "warned about the const table 'cops'"
has "helper_warn.wtc:21:26: warning: recursive function 'f' calls 'bump', which writes global variable 'calls'" \
    "no warning for 'calls' written in bump at 21:26"
count warning 4 "helper_warn: expected exactly four warnings"
# a par body writing memory its spawned calls read through in: arguments, the same
# place in every iteration: the calls run after the body and read the last iteration's
# value (33 33 33 33 at -n 2 against C's 0 11 22 33); not an element of each iteration's
# own, an index from a body variable, the pointer variable itself, one iteration, or a
# variable of the body (a static one is one object for all: warned); a C library
# function writing the memory (memcpy) counts too
build lent_write_warn
has "lent_write_warn.wtc:29:16: warning: every iteration of this par writes 'buf', which the calls of 'first' it spawns read" \
    "no warning for 'buf' written at 29:16"
has "lent_write_warn.wtc:34:11: warning: every iteration of this par writes 'x', which the calls of 'first' it spawns read" \
    "no warning for 'x' (lent as &x) written at 34:11"
has "lent_write_warn.wtc:38:16: warning: every iteration of this par writes 's', which the calls of 'sum' it spawns read" \
    "no warning for 's.v[1]' (lent as &s.v[0]) written at 38:16"
has "its own element, e.g. 'buf\[i\]'" "no hint 'buf[i]' for the array"
has "lent_write_warn.wtc:65:9: warning: every iteration of this par writes 'cp', which the calls of 'first' it spawns read" \
    "no warning for 'cp' written by memcpy at 65:9"
has "lent_write_warn.wtc:75:15: warning: every iteration of this par writes 'sb', which the calls of 'first' it spawns read" \
    "no warning for the static 'sb' of the body written at 75:15"
count warning 5 "lent_write_warn: expected exactly five warnings"
# a definition with external linkage named like a function MPI calls (write, send,
# poll ...) replaces it for MPI too: 'long write(long)' hung the job at -n 2 ("write_line
# failed to write entire message"); a warning each, for functions, variables and
# recursive functions, none for a static one or a local
build mpi_name_warn
has "mpi_name_warn.wtc:7:6: warning: 'write' is also a function of the C library that MPI calls" \
    "no warning for the function 'write' at 7:6"
has "mpi_name_warn.wtc:17:5: warning: 'send' is also a function of the C library that MPI calls" \
    "no warning for the variable 'send' at 17:5"
has "mpi_name_warn.wtc:19:16: warning: 'poll' is also a function of the C library that MPI calls" \
    "no warning for the recursive function 'poll' at 19:16"
lacks "'read'" "warned about the static function 'read'"
lacks "'close'" "warned about the local 'close'"
count warning 3 "mpi_name_warn: expected exactly three warnings"
# a cond: of a pointer or floating type: no word (gcc's "pointer/integer type mismatch"
# about the generated code was), and a double converted as an 'if' converts it
build cond_scalar
count warning 0 "cond_scalar: a pointer or double cond: drew a warning"
bin/wtcc -E tests/cg/cond_scalar.wtc -o "$out/cond_scalar.c" 2> "$out/log" || fail "cond_scalar: -E failed"
grep -q '(share \* n) != 0' "$out/cond_scalar.c" || fail "cond_scalar: the double cond: is not converted as an 'if' converts it"
echo "cg_warn: ok"
