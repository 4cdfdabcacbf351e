#!/bin/sh
# bin/wtc-calibrate: writes a machine file the predictor accepts; bad arguments give
# status 2. Every mpiexec runs under timeout.
. tests/unit/sim_common.inc
C=bin/wtc-calibrate
[ -x $C ] || { bad "$C missing: run make"; exit 1; }
rm -f $OUT/cal.conf
timeout 120 mpiexec -n 2 $C -o $OUT/cal.conf --quick --name=unit-test; rc=$?
[ $rc = 0 ] && [ -f $OUT/cal.conf ] && pass "calibrate on 2 ranks wrote a file" || bad "status $rc"
ls $OUT/cal.conf.tmp.* >/dev/null 2>&1 && bad "temporary file left" || pass "no temporary file left"
cat > $OUT/loadconf.c <<'XEOF'
#include <stdio.h>
#include "sim.h"
int main(int argc, char **argv)
{
    sim_machine m;
    char err[512];
    (void)argc;
    if (sim_machine_load(argv[1], &m, err, sizeof err) < 0) { puts(err); return 1; }
    printf("%s: L=%g o_sa=%g S=%g t_m=%g\n", m.name, m.L, m.o_sa, m.S, m.t_m);
    return 0;
}
XEOF
cc $CFLAGS -Wno-missing-prototypes -Iruntime -Iruntime/common -Iruntime/sim -o $OUT/loadconf $OUT/loadconf.c $LIB -lm &&
    $OUT/loadconf $OUT/cal.conf && pass "the machine file parses" || bad "unparsable file"
timeout 60 mpiexec -n 2 $C -o >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && pass "missing file name: status 2: $(head -1 $OUT/e.txt)" || bad "status $rc"
timeout 60 mpiexec -n 2 $C --frobnicate -o x >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && pass "unknown argument: status 2" || bad "status $rc"
timeout 60 mpiexec -n 1 $C -o $OUT/one.conf >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && [ ! -f $OUT/one.conf ] && pass "one rank: status 2: $(head -1 $OUT/e.txt)" || bad "status $rc"
exit $fail
