#!/bin/sh
# parse_headers.sh - tests/parse/headers.c (stdio, stdlib, string, math, stdint, stdbool,
# time, pthread, stdatomic, mpi.h, ... plus tricky C11/GNU C) must parse without a single
# diagnostic after `mpicc -E`, and the dump must show the expected resolutions and types.
. tests/unit/parse_lib.inc
pp headers.c || { fail "mpicc -E headers.c failed"; exit 1; }
out=tests/out/parse/headers.dump
(cd tests/parse && ../../$PD --user headers.c ../out/parse/headers.c.i) > "$out" 2> "$out.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$out.err" ]; then fail "headers.c: exit $rc"; head -20 "$out.err"; exit 1; fi
pass "headers.c parses"

# expect LINE: the dump must contain this exact text (fixed string)
expect() {
    if grep -qF -- "$1" "$out"; then pass "$1"; else fail "missing in dump: $1"; fi
}
# reject TEXT: the dump must not contain it
reject() {
    if grep -qF -- "$1" "$out"; then fail "unexpected in dump: $1"; else pass "no $1"; fi
}
nhdr=$(head -1 "$out" | sed 's/.*items, \([0-9]*\) from headers.*/\1/')
[ "$nhdr" -gt 2000 ] && pass "$nhdr header items" || fail "only $nhdr header items"
expect "Decl local T: T @24:7"                 # typedef name redeclared as a variable
expect "Ident T -> local @25:5"
expect "Decl param x: T @28:13"
expect "Decl func proto_only: int (T)"          # T in parentheses stays a type
expect "Decl global fp: int (*)(int) defined"
expect "Decl func signal_like: void (*(int sig, void (*handler)(int)))(int)"
expect "Decl global arr_of_fp: int (*[4])(double, ...) defined"
expect "Decl global ptr_to_fn_returning_ptr_to_arr: char *(*(*)(void))[8] defined"
expect "Decl global callbacks: callback_t[3] static defined"
expect "Decl global cptr: const int *const volatile defined"
expect "Decl typedef point_t: struct { double x; double y; } typedef"
expect "Decl global favourite: enum color defined"
expect "Decl global atomic_long_counter: _Atomic long defined"
expect "Decl global ubig: unsigned __int128 defined"
expect "Decl global f64x: _Float64x defined"
expect "Decl global sc: signed char defined"
expect "Decl local _a: __typeof__(3)"
expect "Generic @66:"
expect "StmtExpr @66:"
expect "Builtin __builtin_offsetof (struct node)"
expect "Builtin __builtin_types_compatible_p (int)"
expect "Ident ap -> local"
expect "Builtin __builtin_va_arg (int)"
expect "LabelAddr l1"
expect "Goto"
expect "Cond @"
expect "Case @"
expect "Asm @"
expect "StringLit \"string \"\"literal \"\"concatenation\""
expect "Ident BLUE -> enumconst"
expect "Ident pthread_mutex_lock -> func"
reject "Ident MPI_Comm"                          # a typedef name, never an expression
# only compiler builtins are undeclared here
if grep -F -- "-> undeclared" "$out" | grep -vqE 'Ident __(builtin|atomic)_'; then
    fail "undeclared identifiers:"; grep -F -- "-> undeclared" "$out" | grep -vE 'Ident __(builtin|atomic)_'
else pass "identifiers resolve"; fi
expect "Decl local comm: MPI_Comm"
expect "Ident rank -> local"
expect "Decl local __atomic_load_ptr: __auto_type"
[ $FAILS -eq 0 ]
