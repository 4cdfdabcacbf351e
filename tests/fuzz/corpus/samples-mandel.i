# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 18 "<fuzz>"
int W = 1024, H = 1024;


static int escape(int p)
{
    int x = p % W, y = p / W, k;
    double cr = -2.2 + 3.0 * x / W, ci = -1.5 + 3.0 * y / H;
    double zr = 0.0, zi = 0.0;

    for (k = 0; k < 1000 && zr * zr + zi * zi <= 4.0; k++) {
        double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
    }
    return k;
}


recursive int pixel(int p)
mode: dynamic;
{
    return escape(p);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    unsigned long sum = 0, hash = 0;
    long inside = 0, wrong = 0;
    double t0;
    int *img;

    if (argc > 1)
        W = H = atoi(argv[1]);
    if (argc > 2)
        H = atoi(argv[2]);
    if (W < 1 || H < 1 || W > 16384 || H > 16384) {
        fprintf(stderr, "usage: mandel [W [H]] (1..16384)\n");
        return 2;
    }
    img = malloc((size_t)W * H * sizeof *img);
    if (img == NULL) {
        fprintf(stderr, "mandel: out of memory\n");
        return 2;
    }

    t0 = now();
    par p = 0 to W * H - 1 do
        img[p] = pixel(p);
    fprintf(stderr, "TIME mandel %.6f\n", now() - t0);

    for (int p = 0; p < W * H; p++) {
        sum += img[p];
        hash = hash * 31 + img[p];
        inside += img[p] == 1000;
        if (p % 97 == 0 && img[p] != escape(p))
            wrong++;
    }
    printf("mandel: %d x %d, %d iterations at most\n", W, H, 1000);
    printf("mandel: inside %ld, iterations %lu, checksum %lu\n", inside, sum, hash);
    printf("mandel: spot check %s\n", wrong == 0 ? "OK" : "BAD");
    free(img);
    return wrong == 0 ? 0 : 1;
}
