#!/bin/sh
# timing: none
# The predictor's numeric environment variables (doc/predictor.md: WTC_PREDICT_SEED,
# decimal or 0x hex; WTC_PREDICT_MEM_MB, megabytes): a value not of its kind stops with
# one line naming it, status 2, before the program runs. A seed of 'abc' was 0 and 010
# octal 8, a memory limit of '1e9' 1 MB and 17592186044416 (2^44 MB) shifted to 0 bytes,
# a chunk per leaf task: all with status 0 and no word (a helper's bug hunt).
. tests/unit/sim_common.inc
sim_nq sim_env
run() { # NAME=VALUE: the predictor with it in its environment
    env "$1" timeout 60 $D/nq.predict --wtc-procs=1,2 --wtc-modes=simple --wtc-error=20 8 \
        >$D/o.txt 2>$D/e.txt
}
for kv in WTC_PREDICT_SEED=abc WTC_PREDICT_SEED=-1 WTC_PREDICT_SEED=0x \
    WTC_PREDICT_SEED=18446744073709551616 WTC_PREDICT_SEED=12x WTC_PREDICT_MEM_MB=0 \
    WTC_PREDICT_MEM_MB=1e9 WTC_PREDICT_MEM_MB=-5 WTC_PREDICT_MEM_MB=17592186044416 \
    "WTC_PREDICT_MEM_MB= 8"; do
    run "$kv"
    rc=$?
    [ $rc = 2 ] && [ ! -s $D/o.txt ] && [ "$(wc -l <$D/e.txt)" = 1 ] &&
        grep -q "error: $kv: expected a decimal number" $D/e.txt \
        && pass "$kv: refused before the run" \
        || bad "$kv: status $rc, $(wc -l <$D/o.txt) lines of report: $(head -c 200 $D/e.txt)"
done
for kv in WTC_PREDICT_SEED=0x5eed WTC_PREDICT_SEED=010 WTC_PREDICT_SEED=0XFF \
    WTC_PREDICT_SEED=18446744073709551615 WTC_PREDICT_SEED= WTC_PREDICT_MEM_MB=1 \
    WTC_PREDICT_MEM_MB=17592186044415 WTC_PREDICT_MEM_MB=; do
    run "$kv"
    rc=$?
    [ $rc = 0 ] && grep -q '^best: ' $D/o.txt && ! grep -q 'chunks' $D/o.txt \
        && pass "$kv: taken" || bad "$kv: status $rc: $(head -c 200 $D/e.txt)"
done
exit $fail
