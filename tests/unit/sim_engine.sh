#!/bin/sh
# The simulator: hand-computed timelines of small trees in every mode (simple, dynamic,
# steal), the decision log, conservation on a big random tree, the saturation of a
# 131,072-task farm on the 2004 preset (and its plateau without o_b*P), and the
# simulation speed in CPU time (>= 1 million messages/s, target 5; SIM_SLOW_OK=1 under
# sanitizers).
. tests/unit/sim_common.inc
cc $CFLAGS -Iruntime -Iruntime/common -Iruntime/core -Iruntime/sim -o $OUT/sim_engine tests/unit/sim_engine.c $LIB -lm || exit 1
timeout 300 $OUT/sim_engine
