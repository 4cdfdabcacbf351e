# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 12 "<fuzz>"
recursive long fib(int n)
cond: n > 20;
mode: dynamic;
{
    long r[2];

    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib(n - 1 - i);
    return r[0] + r[1];
}


static long fib_loop(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40;
    long f, expect;
    double t0;

    if (n < 0 || n > 90) {
        fprintf(stderr, "usage: fib [N in 0..90]\n");
        return 2;
    }
    t0 = now();
    f = fib(n);
    fprintf(stderr, "TIME fib %.6f\n", now() - t0);
    expect = fib_loop(n);
    printf("fib(%d) = %ld %s\n", n, f, f == expect ? "OK" : "BAD");
    return f == expect ? 0 : 1;
}
