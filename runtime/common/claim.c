/* common/claim.c - one region at a time among a program's threads, for both runtimes
   (mpi/region.c's wtc_call and wtc_region_open, sim/record.c's recorder). Each tested
   "no region running" while another thread was starting one, and two regions at once
   hung the job or stopped it ("par frames closed out of order"; a helper's bug hunt,
   4 pthreads calling fib). A thread that does not get the claim runs its call
   sequentially, as a call made inside a region does. */
#include <stdatomic.h>
#include "wtcrt.h"

static atomic_int claimed;

int wtcrt_region_claim(int (*possible)(void *arg), void *arg)
{
    int free_ = 0;
    if (!atomic_compare_exchange_strong(&claimed, &free_, 1))
        return 0;
    if (possible(arg))
        return 1;
    atomic_store(&claimed, 0);
    return 0;
}

void wtcrt_region_unclaim(void)
{
    atomic_store(&claimed, 0);
}
