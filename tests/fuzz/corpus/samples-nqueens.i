# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 21 "<fuzz>"
static const long known[16 + 1] = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512
};



recursive long queens(int n, int row, unsigned cols, unsigned left, unsigned right)
cond: wtc_depth < 2;
mode: dynamic;
{
    long cnt[16];
    long total = 0;

    if (row == n)
        return 1;
    par c = 0 to n - 1 do {
        unsigned bit = 1u << c;
        cnt[c] = 0;
        if (((cols | left | right) & bit) == 0)
            cnt[c] = queens(n, row + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    for (int c = 0; c < n; c++)
        total += cnt[c];
    return total;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    long count;
    double t0;

    if (n < 1 || n > 16) {
        fprintf(stderr, "usage: nqueens [N in 1..%d]\n", 16);
        return 2;
    }
    t0 = now();
    count = queens(n, 0, 0, 0, 0);
    fprintf(stderr, "TIME nqueens %.6f\n", now() - t0);
    printf("nqueens(%d) = %ld %s\n", n, count, count == known[n] ? "OK" : "BAD");
    return count == known[n] ? 0 : 1;
}
