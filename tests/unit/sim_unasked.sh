#!/bin/sh
# Dynamic mode's grants without a request in the model (doc/runtime.md simulator note 15):
# a master shows its idle count in its doorbell slot, then grants idle workers unasked to
# the workers whose slots show pending children, then shows the count left; a worker that
# looks meanwhile asks, its request stands, and no grant goes unasked while it does. On
# the lent 16-core machine UTS dynamic -n 16 (one master) sent 3166-3318 TASKs with the
# doorbell and 3166-3241 without it (WTC_DOORBELL=0: no unasked grants, no slots). The
# model that showed and granted at one instant sent 9183 with it and 3058 without, and
# predicted 34 % more time: every idle worker went unasked to the lowest rank showing
# children, one small group at a time. UTS (1.85 M nodes) recorded once, replayed at P =
# 16 on one node of 16 cores with and without the doorbell.
. tests/unit/sim_common.inc
. bench/sizes.inc
node="L=1e-6 L_intra=5e-7 o_sa=1e-6 o_ra=1e-6 w_wake=5e-6 cores=16"
sim_conf $OUT/unasked_a.conf one-node $node
sim_conf $OUT/unasked_b.conf one-node $node no_doorbell=1
bin/wtcc ${SIM_CFLAGS:-} -O2 $(bench_flags bench/balance/uts.wtc) bench/balance/uts.wtc -o $OUT/unasked_uts -lm \
    >$OUT/unasked_uts.build 2>&1 || { bad "build: $(cat $OUT/unasked_uts.build)"; exit 1; }
timeout 120 $OUT/unasked_uts.predict --wtc-procs=2 --wtc-modes=simple \
    --wtc-save-profile=$OUT/unasked_uts.prof >$OUT/unasked_uts.out 2>&1 ||
    { bad "recording: $(tail -3 $OUT/unasked_uts.out)"; exit 1; }
# run CONF: "TIME TASKS", the predicted parallel part and the TASKs the decision log sent
run() {
    rm -f $OUT/unasked.dec
    t=$(WTC_DECISIONS=$OUT/unasked.dec timeout 60 $OUT/unasked_uts.predict \
        --wtc-profile=$OUT/unasked_uts.prof --wtc-machine=$1 --wtc-procs=16 --wtc-modes=dynamic \
        --wtc-masters=1 --wtc-format=csv 2>/dev/null | awk -F, 'NR == 2 { print $16 }')
    echo "${t:-x} $(grep -c '^send ' $OUT/unasked.dec 2>/dev/null)"
}
a=$(run $OUT/unasked_a.conf) b=$(run $OUT/unasked_b.conf)
case "$a $b" in *x*) bad "no prediction: '$a' '$b'"; exit 1 ;; esac
echo "$a $b" | awk '$4 > 1000 && $2 < 1.6 * $4 { exit 0 } { exit 1 }' \
    && pass "TASKs at P = 16: ${a#* } with the doorbell, ${b#* } without" \
    || bad "TASKs at P = 16: ${a#* } with the doorbell, ${b#* } without (want under 1.6 times)"
echo "$a $b" | awk '$1 < 1.15 * $3 { exit 0 } { exit 1 }' \
    && pass "predicted ${a%% *} s with the doorbell, ${b%% *} s without" \
    || bad "predicted ${a%% *} s with the doorbell, ${b%% *} s without (want under 1.15 times)"
exit $fail
