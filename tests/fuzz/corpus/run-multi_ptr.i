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


recursive void combine(const double *x, const double *y, double *acc, double *z,
                       long *neg, int n, double alpha)
in: x[n], y[n], acc[n], n, alpha;
out: acc[n], z[n], neg[1];
cond: n > 50;
mode: dynamic;
{
    long part[2];
    int half = n / 2;

    if (n <= 50) {
        *neg = 0;
        for (int j = 0; j < n; j++) {
            acc[j] += alpha * x[j] * y[j];
            z[j] = x[j] - y[j];
            *neg += z[j] < 0;
        }
        return;
    }
    par i = 0 to 1 do
        combine(x + i * half, y + i * half, acc + i * half, z + i * half, &part[i],
                i == 0 ? half : n - half, alpha);
    *neg = part[0] + part[1];
}

int main(void)
{
    static double x[1234], y[1234], acc[1234], z[1234];
    long neg = -1, bad = 0;

    for (int j = 0; j < 1234; j++) {
        x[j] = j % 10;
        y[j] = j % 7;
        acc[j] = 1.0;
    }
    combine(x, y, acc, z, &neg, 1234, 0.5);
    combine(x, y, acc, z, &neg, 1234, 0.25);
    for (int j = 0; j < 1234; j++)
        bad += acc[j] != 1.0 + 0.75 * (j % 10) * (j % 7) || z[j] != (j % 10) - (j % 7);
    check("combine wrong elements", bad, 0);
    {
        long want = 0;
        for (int j = 0; j < 1234; j++)
            want += j % 10 < j % 7;
        check("combine negatives", neg, want);
    }

    printf("%s\n", failures == 0 ? "OK" : "BAD");
    return failures != 0;
}
