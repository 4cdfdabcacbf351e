# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 18 "<fuzz>"
static void insertion_sort(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}


static void bitonic_merge(int *a, int m, int n, int *t)
{
    int i, j, k;
    for (i = 0; i < m; i++)
        t[i] = a[i];
    for (j = m; j < n; j++)
        t[n - 1 - (j - m)] = a[j];
    i = 0;
    j = n - 1;
    for (k = 0; k < n; k++)
        a[k] = (t[j] < t[i]) ? t[j--] : t[i++];
}

recursive void msort(int *a, int n)
in: a[n], n;
out: a[n];
cond: n > 4096;
mode: simple;
{
    int top[2], size[2];
    int *t;

    if (n <= 32) {
        insertion_sort(a, n);
        return;
    }
    top[0] = 0;
    size[0] = n / 2;
    top[1] = n / 2;
    size[1] = n - n / 2;
    par x = 0 to 1 do
        msort(&a[top[x]], size[x]);
    t = malloc((size_t)n * sizeof *t);
    if (t == NULL) {
        fprintf(stderr, "msort: out of memory\n");
        exit(2);
    }
    bitonic_merge(a, size[0], n, t);
    free(t);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    unsigned long long x = 20050301;
    unsigned long sum_in = 0, sum_out = 0, weighted = 0;
    unsigned xor_in = 0, xor_out = 0;
    long unsorted = 0;
    double t0;
    int *a;

    if (n < 1) {
        fprintf(stderr, "usage: msort [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "msort: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (int)(x >> 32);
        sum_in += (unsigned)a[i];
        xor_in ^= (unsigned)a[i];
    }

    t0 = now();
    msort(a, n);
    fprintf(stderr, "TIME msort %.6f\n", now() - t0);

    for (int i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            unsorted++;
        sum_out += (unsigned)a[i];
        xor_out ^= (unsigned)a[i];
        weighted = weighted * 31 + (unsigned)a[i];
    }
    printf("msort: n = %d\n", n);
    printf("msort: sorted %s\n", unsorted == 0 ? "OK" : "BAD");
    printf("msort: same values %s\n", sum_in == sum_out && xor_in == xor_out ? "OK" : "BAD");
    printf("msort: min %d max %d\n", a[0], a[n - 1]);
    printf("msort: checksum %lu\n", weighted);
    free(a);
    return unsorted == 0 && sum_in == sum_out && xor_in == xor_out ? 0 : 1;
}
