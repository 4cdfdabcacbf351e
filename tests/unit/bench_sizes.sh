#!/bin/sh
# bench/sizes.inc, the sizes bench/validate and bench/auto.sh run the bench/balance
# programs at: each program built with its flags and run with its arguments at -n 2
# (steal mode) must pass its own self-check (OK, no BAD, exit 0) and print its TIME line,
# at the small sizes, and for UTS also at the full one (its flags choose another tree
# and the node count the check expects: a wrong count there would make every validation
# run of UTS fail).
. "$(dirname "$0")/rt_lib.inc"
# shellcheck source=bench/sizes.inc
. bench/sizes.inc

# check SRC [small]: build and run SRC at the sizes of bench/sizes.inc
check() {
    src=$1 size=${2:-}
    x=$(basename "$src" .wtc)
    label="$src ${size:-full}: $(bench_flags "$src" $size) $(bench_args "$src" $size)"
    # shellcheck disable=SC2046 # the flags are words
    if ! bin/wtcc -O2 --no-predict $(bench_flags "$src" $size) "$src" -o "$RT_OUT/size_$x" -lm \
        >"$RT_STDERR" 2>&1; then
        rt_fail "$label: build"
        return
    fi
    # shellcheck disable=SC2046
    rt_run 2 "$RT_OUT/size_$x" $(bench_args "$src" $size) --wtc-mode=steal
    if [ "$RT_RC" != 0 ]; then rt_fail "$label" "exit status $RT_RC"
    elif grep -q BAD "$RT_STDOUT" || ! grep -q OK "$RT_STDOUT"; then
        rt_fail "$label" "self-check: $(head -c 300 "$RT_STDOUT")"
    elif ! grep -q "^TIME $x " "$RT_STDERR"; then rt_fail "$label" "no 'TIME $x' line"
    else rt_pass "$label"; fi
}

for src in bench/balance/*.wtc bench/regions.wtc; do
    check "$src" small
done
check bench/balance/uts.wtc

rt_summary
