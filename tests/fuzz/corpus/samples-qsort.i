# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 16 "<fuzz>"
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

static void swap(int *a, int i, int j)
{
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}



static int partition(int *a, int n)
{
    int m = n / 2, last = n - 1, p = 0;
    if (a[m] < a[0]) swap(a, m, 0);
    if (a[last] < a[0]) swap(a, last, 0);
    if (a[last] < a[m]) swap(a, last, m);
    swap(a, m, last);
    for (int i = 0; i < last; i++)
        if (a[i] < a[last])
            swap(a, i, p++);
    swap(a, p, last);
    return p;
}

recursive void quick(int *a, int n)
in: a[n], n;
out: a[n];
cond: n > 20000;
mode: dynamic;
{
    int lo[2], len[2];
    int p;

    if (n <= 24) {
        insertion_sort(a, n);
        return;
    }
    p = partition(a, n);
    lo[0] = 0;
    len[0] = p;
    lo[1] = p + 1;
    len[1] = n - p - 1;
    par x = 0 to 1 do
        quick(&a[lo[x]], len[x]);
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
    unsigned long long x = 19700101;
    unsigned long sum_in = 0, sum_out = 0, weighted = 0;
    unsigned xor_in = 0, xor_out = 0;
    long unsorted = 0;
    double t0;
    int *a;

    if (n < 1) {
        fprintf(stderr, "usage: qsort [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "qsort: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (int)(x >> 35);
        sum_in += (unsigned)a[i];
        xor_in ^= (unsigned)a[i];
    }

    t0 = now();
    quick(a, n);
    fprintf(stderr, "TIME qsort %.6f\n", now() - t0);

    for (int i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            unsorted++;
        sum_out += (unsigned)a[i];
        xor_out ^= (unsigned)a[i];
        weighted = weighted * 31 + (unsigned)a[i];
    }
    printf("qsort: n = %d\n", n);
    printf("qsort: sorted %s\n", unsorted == 0 ? "OK" : "BAD");
    printf("qsort: same values %s\n", sum_in == sum_out && xor_in == xor_out ? "OK" : "BAD");
    printf("qsort: min %d max %d\n", a[0], a[n - 1]);
    printf("qsort: checksum %lu\n", weighted);
    free(a);
    return unsorted == 0 && sum_in == sum_out && xor_in == xor_out ? 0 : 1;
}
