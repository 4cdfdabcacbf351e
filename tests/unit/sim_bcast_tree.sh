#!/bin/sh
# The region start's broadcast tree and its rule, in the protocol core that both
# executors call (tests/unit/sim_bcast_tree.c says what is checked).
. tests/unit/sim_common.inc
cc $CFLAGS -Iruntime -Iruntime/common -Iruntime/core -o $OUT/sim_bcast_tree \
    tests/unit/sim_bcast_tree.c $LIB -lm || { bad "build sim_bcast_tree"; exit 1; }
got=$(timeout 60 $OUT/sim_bcast_tree)
if [ "$got" = "bcast tree OK" ]; then
    pass "broadcast tree: P = 1 .. 200, one parent each, ceil(log2 P) rounds; the rule"
else
    bad "broadcast tree:"
    echo "$got" | head -12
fi
exit $fail
