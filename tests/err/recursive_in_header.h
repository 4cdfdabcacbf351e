/* recursive_in_header.h - the program's own header: 'recursive' and 'par' are keywords
   only in the .wtc file itself, so neither may be written here. */
recursive long fib(long n) cond: n > 20;

static inline void fill(long *r, int n)
{
    par i = 0 to n - 1 do
        r[i] = i;
}
