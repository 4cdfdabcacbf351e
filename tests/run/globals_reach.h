/* globals_reach.h - the program's own header (tests/run/globals_reach.wtc): a global
   defined here and an inline function reading one; both are the program's code, as
   the .wtc file is, so their globals travel at a region's start. */
extern int scale;
static int offset = 0;
static inline long scaled(long x)
{
    return x * scale + offset;
}
