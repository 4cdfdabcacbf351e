/* radix.omp.c - radix.wtc with OpenMP tasks: the same American flag sort; while the
 * piece has more than 16384 keys, each bucket of 2 or more keys is a task.
 *
 *   cc -O2 -fopenmp radix.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void insertion(unsigned *a, int n)
{
    for (int i = 1; i < n; i++) {
        unsigned v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* Count and permute a[0..n) on the byte at shift; count[], start[] out. */
static void split(unsigned *a, int n, int shift, int *count, int *start)
{
    int next[256];

    for (int b = 0; b < 256; b++)
        count[b] = 0;
    for (int i = 0; i < n; i++)
        count[(a[i] >> shift) & 255]++;
    for (int b = 0, s = 0; b < 256; b++) {
        start[b] = next[b] = s;
        s += count[b];
    }
    for (int b = 0; b < 256; b++) {
        int end = start[b] + count[b];
        while (next[b] < end) {
            unsigned v = a[next[b]];
            int d = (v >> shift) & 255;
            while (d != b) {
                unsigned t = a[next[d]];
                a[next[d]++] = v;
                v = t;
                d = (v >> shift) & 255;
            }
            a[next[b]++] = v;
        }
    }
}

static void rsort_seq(unsigned *a, int n, int shift)
{
    int count[256], start[256];

    if (n <= 64) {
        insertion(a, n);
        return;
    }
    split(a, n, shift, count, start);
    if (shift == 0)
        return;
    for (int b = 0; b < 256; b++)
        if (count[b] > 1)
            rsort_seq(&a[start[b]], count[b], shift - 8);
}

static void rsort(unsigned *a, int n, int shift)
{
    int count[256], start[256];

    if (!(n > 16384)) {
        rsort_seq(a, n, shift);
        return;
    }
    split(a, n, shift, count, start);
    if (shift == 0)
        return;
    for (int b = 0; b < 256; b++)
        if (count[b] > 1) {
#pragma omp task firstprivate(b) shared(count, start)
            rsort(&a[start[b]], count[b], shift - 8);
        }
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000000;
    unsigned long long x = 88172645463325252ULL, sum_in = 0, sum_out = 0;
    unsigned xor_in = 0, xor_out = 0;
    unsigned *a;
    long bad = 0;
    double t0;

    if (n < 1) {
        fprintf(stderr, "usage: radix [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "radix: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (unsigned)(x >> 32);
        sum_in += a[i];
        xor_in ^= a[i];
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    rsort(a, n, 24);
    fprintf(stderr, "TIME radix %.6f\n", omp_get_wtime() - t0);
    for (int i = 0; i < n; i++) {
        sum_out += a[i];
        xor_out ^= a[i];
        if (i > 0 && a[i - 1] > a[i])
            bad++;
    }
    int ok = bad == 0 && sum_in == sum_out && xor_in == xor_out;
    printf("radix: %d keys, first %u last %u: %s\n", n, a[0], a[n - 1], ok ? "OK" : "BAD");
    free(a);
    return !ok;
}
