# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"







static int failures;

static void check(const char *what, long got, long want)
{
    printf("%s = %ld %s\n", what, got, got == want ? "OK" : "BAD");
    if (got != want)
        failures++;
}


static long spin(long d)
{
    long s = 0;
    for (long i = 0; i < 200; i++)
        s += (d * 31 + i) % 7;
    return s;
}

recursive long leaf(long d)
{
    return spin(d);
}


recursive long chain_first(int d)
cond: 1;
mode: steal;
{
    long r[2];

    if (d == 0)
        return 0;
    par i = 0 to 1 do {
        if (i == 0)
            r[i] = chain_first(d - 1);
        else
            r[i] = leaf(d);
    }
    return r[0] + r[1] + d;
}


recursive long chain_last(int d)
cond: 1;
mode: steal;
{
    long r[2];

    if (d == 0)
        return 0;
    par i = 0 to 1 do {
        if (i == 1)
            r[i] = chain_last(d - 1);
        else
            r[i] = leaf(d);
    }
    return r[0] + r[1] + d;
}

recursive void fill_one(long *v, int j)
in: j;
out: v[1];
{
    v[0] = spin(j);
}


recursive void fill(long *v, int n)
in: n;
out: v[n];
mode: steal;
{
    par j = 0 to n - 1 do
        fill_one(&v[j], j);
}

int main(void)
{
    enum { DEPTH = 10000, WIDE = 2000 };
    static long v[WIDE];
    long want = 0, got;

    for (long d = 1; d <= DEPTH; d++)
        want += spin(d) + d;
    check("chain, long branch first", chain_first(DEPTH), want);
    check("chain, long branch last", chain_last(DEPTH), want);
    fill(v, WIDE);
    got = 0;
    want = 0;
    for (int j = 0; j < WIDE; j++) {
        got += v[j];
        want += spin(j);
    }
    check("par of 2000 children", got, want);
    return failures != 0;
}
