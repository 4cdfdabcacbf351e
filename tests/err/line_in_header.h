/* line_in_header.h - a header renamed by #line is still a header: 'par' is an
   ordinary name here under any file name. */
#line 1 "renamed.h"
static inline void fill(long *r, int n)
{
    par i = 0 to n - 1 do
        r[i] = i;
}
