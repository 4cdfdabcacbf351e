# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
# 16 "<fuzz>"
struct pt {
    double x, y;
};

struct xform {
    double sx, sy;
    double dx, dy;
};

struct box {
    double minx, miny, maxx, maxy;
    double sumx, sumy;
    long n;
};

static const struct box empty = { 1e300, 1e300, -1e300, -1e300, 0.0, 0.0, 0 };


static struct box add_point(struct box b, struct pt p, struct xform t)
{
    double x = p.x * t.sx + t.dx, y = p.y * t.sy + t.dy;
    if (x < b.minx) b.minx = x;
    if (y < b.miny) b.miny = y;
    if (x > b.maxx) b.maxx = x;
    if (y > b.maxy) b.maxy = y;
    b.sumx += x;
    b.sumy += y;
    b.n++;
    return b;
}


static struct box join(struct box a, struct box b)
{
    struct box r;
    r.minx = a.minx < b.minx ? a.minx : b.minx;
    r.miny = a.miny < b.miny ? a.miny : b.miny;
    r.maxx = a.maxx > b.maxx ? a.maxx : b.maxx;
    r.maxy = a.maxy > b.maxy ? a.maxy : b.maxy;
    r.sumx = a.sumx + b.sumx;
    r.sumy = a.sumy + b.sumy;
    r.n = a.n + b.n;
    return r;
}

recursive struct box bound(struct pt *p, int n, struct xform t)
in: p[n], n, t;
cond: n > 20000;
mode: simple;
{
    struct box b[2];
    int off[2], len[2];

    if (n <= 16) {
        struct box r = empty;
        for (int i = 0; i < n; i++)
            r = add_point(r, p[i], t);
        return r;
    }
    off[0] = 0;
    len[0] = n / 2;
    off[1] = n / 2;
    len[1] = n - n / 2;
    par i = 0 to 1 do
        b[i] = bound(&p[off[i]], len[i], t);
    return join(b[0], b[1]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    unsigned long long s = 4242;
    struct timespec t0, t1;
    struct xform t = { 0.5, 0.25, 1000.0, -8.0 };
    struct box got, want = empty;
    struct pt *p;
    int ok;

    if (n < 1) {
        fprintf(stderr, "usage: points [N>0]\n");
        return 2;
    }
    p = malloc((size_t)n * sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "points: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        p[i].x = (double)((long)(s >> 40) - (1L << 23));
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        p[i].y = (double)((long)(s >> 44) - (1L << 19));
    }

    clock_gettime(CLOCK_MONOTONIC, &t0);
    got = bound(p, n, t);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "TIME points %.6f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);

    for (int i = 0; i < n; i++)
        want = add_point(want, p[i], t);
    ok = got.minx == want.minx && got.miny == want.miny && got.maxx == want.maxx
         && got.maxy == want.maxy && got.sumx == want.sumx && got.sumy == want.sumy
         && got.n == want.n;
    printf("points: n = %ld\n", got.n);
    printf("points: box [%.2f, %.2f] x [%.2f, %.2f]\n", got.minx, got.maxx, got.miny, got.maxy);
    printf("points: centroid (%.6f, %.6f)\n", got.sumx / got.n, got.sumy / got.n);
    printf("points: %s\n", ok ? "OK" : "BAD");
    free(p);
    return ok ? 0 : 1;
}
