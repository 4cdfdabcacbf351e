/* header_undeclared.h - a header with an error only the C compiler finds. */
static int twice(int x)
{
    return x + not_declared_here;
}
