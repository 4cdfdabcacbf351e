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

long pong(int n);

recursive long ping(int n)
cond: n > 8;
mode: simple;
{
    long r[2];

    if (n <= 1)
        return 1;
    par i = 0 to 1 do
        r[i] = pong(n - 1 - i);
    return r[0] + r[1] + 1;
}

recursive long pong(int n)
cond: n > 8;
mode: dynamic;
{
    if (n <= 1)
        return 2;
    return 2 * ping(n - 1) + ping(n - 2) % 7;
}


static long pong_ref(int n);

static long ping_ref(int n)
{
    if (n <= 1)
        return 1;
    return pong_ref(n - 1) + pong_ref(n - 2) + 1;
}

static long pong_ref(int n)
{
    if (n <= 1)
        return 2;
    return 2 * ping_ref(n - 1) + ping_ref(n - 2) % 7;
}

int main(void)
{
    check("ping(18)", ping(18), ping_ref(18));
    check("pong(17)", pong(17), pong_ref(17));
    check("ping(1)", ping(1), 1);

    printf("%s\n", failures == 0 ? "OK" : "BAD");
    return failures != 0;
}
