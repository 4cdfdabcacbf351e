#!/bin/sh
# The predictor's formulas against worked numbers: advice (SPEC 5 item 6), the o_a/o_b
# fit (SPEC 5.1), machine-file parser errors, presets, interpolation, bootstrap.
. tests/unit/sim_common.inc
cc $CFLAGS -Iruntime -Iruntime/common -Iruntime/sim -Icalibrate -o $OUT/sim_units tests/unit/sim_units.c \
    calibrate/calib_fit.c $LIB -lm || exit 1
$OUT/sim_units machines
