/* bhut.omp.c - bhut.wtc with OpenMP tasks (a task per half while a piece has more
 * than 1000 bodies). Barnes-Hut forces: the gravitational acceleration of every body from an
 * octree built sequentially (theta 0.5).
 *
 *   OMP_NUM_THREADS=2 ./bhut.omp [N]          N bodies (default 30000) in 16 Plummer-like clusters
 *
 * main builds the octree (an array of nodes with child indices) and computes the
 * centres of mass; the timed part walks it once per body. The bodies are split in
 * halves by index, in a par while a piece has more than 1000 bodies; a body in a
 * dense cluster opens many more cells than one in the outskirts.
 *
 * Self-check: 200 bodies' accelerations against direct summation (relative error of
 * the sum of their magnitudes' deviations below 1 %).
 * The time goes to stderr ("TIME bhut <seconds>").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define THETA 0.5
#define EPS2 1e-6 /* softening */

struct body {
    double x, y, z, m;
};

struct node {
    double x, y, z, m; /* centre of mass and mass */
    double cx, cy, cz, half; /* the cube: centre and half side */
    int child[8];      /* -1: none */
    int body;          /* a leaf's body, -1 for an inner node */
};

static struct node *tree;
static int nnodes, cap;

static int new_node(double cx, double cy, double cz, double half)
{
    if (nnodes == cap) {
        cap = cap ? 2 * cap : 1024;
        tree = realloc(tree, (size_t)cap * sizeof *tree);
        if (tree == NULL) {
            fprintf(stderr, "bhut: out of memory\n");
            exit(2);
        }
    }
    struct node *t = &tree[nnodes];
    t->x = t->y = t->z = t->m = 0;
    t->cx = cx;
    t->cy = cy;
    t->cz = cz;
    t->half = half;
    for (int i = 0; i < 8; i++)
        t->child[i] = -1;
    t->body = -1;
    return nnodes++;
}

static int octant(const struct node *t, const struct body *b)
{
    return (b->x > t->cx) | (b->y > t->cy) << 1 | (b->z > t->cz) << 2;
}

static void insert(const struct body *bs, int k, int node, int depth)
{
    for (;;) {
        struct node *t = &tree[node];
        if (t->body < 0 && t->child[0] == -1 && t->child[1] == -1 && t->child[2] == -1 &&
            t->child[3] == -1 && t->child[4] == -1 && t->child[5] == -1 &&
            t->child[6] == -1 && t->child[7] == -1 && t->m == 0) {
            t->body = k; /* an empty leaf */
            t->m = 1;    /* marks it used; the mass comes later */
            return;
        }
        if (t->body >= 0 && depth < 60) { /* a full leaf: push its body down */
            int old = t->body, o = octant(t, &bs[old]);
            double h = t->half / 2;
            t->body = -1;
            int c = new_node(tree[node].cx + (o & 1 ? h : -h), tree[node].cy + (o & 2 ? h : -h),
                             tree[node].cz + (o & 4 ? h : -h), h);
            tree[node].child[o] = c;
            tree[c].body = old;
            tree[c].m = 1;
            t = &tree[node];
        } else if (t->body >= 0)
            return; /* coincident bodies: drop (does not happen with random doubles) */
        int o = octant(t, &bs[k]);
        if (t->child[o] < 0) {
            double h = t->half / 2;
            int c = new_node(t->cx + (o & 1 ? h : -h), t->cy + (o & 2 ? h : -h),
                             t->cz + (o & 4 ? h : -h), h);
            tree[node].child[o] = c;
            tree[c].body = k;
            tree[c].m = 1;
            return;
        }
        node = t->child[o];
        depth++;
    }
}

static void mass(const struct body *bs, int node)
{
    struct node *t = &tree[node];

    if (t->body >= 0) {
        const struct body *b = &bs[t->body];
        t->x = b->x;
        t->y = b->y;
        t->z = b->z;
        t->m = b->m;
        return;
    }
    double x = 0, y = 0, z = 0, m = 0;
    for (int i = 0; i < 8; i++) {
        int c = tree[node].child[i];
        if (c >= 0) {
            mass(bs, c);
            x += tree[c].x * tree[c].m;
            y += tree[c].y * tree[c].m;
            z += tree[c].z * tree[c].m;
            m += tree[c].m;
        }
    }
    t = &tree[node];
    t->x = x / m;
    t->y = y / m;
    t->z = z / m;
    t->m = m;
}

/* The acceleration of body b from the tree t. */
static void accel(const struct node *t, const struct body *b, double *a)
{
    int stack[512], sp = 0;
    double ax = 0, ay = 0, az = 0;

    stack[sp++] = 0;
    while (sp > 0) {
        const struct node *n = &t[stack[--sp]];
        double dx = n->x - b->x, dy = n->y - b->y, dz = n->z - b->z;
        double r2 = dx * dx + dy * dy + dz * dz;
        if (n->body >= 0 || 4 * n->half * n->half < THETA * THETA * r2) {
            if (r2 > 0) {
                double r2e = r2 + EPS2, inv = n->m / (r2e * sqrt(r2e));
                ax += dx * inv;
                ay += dy * inv;
                az += dz * inv;
            }
        } else
            for (int i = 0; i < 8; i++)
                if (n->child[i] >= 0)
                    stack[sp++] = n->child[i];
    }
    a[0] = ax;
    a[1] = ay;
    a[2] = az;
}

static void forces_seq(const struct node *t, const struct body *b, int n, double *acc)
{
    int lo[2] = {0, n / 2}, len[2] = {n / 2, n - n / 2};

    if (n <= 16) {
        for (int i = 0; i < n; i++)
            accel(t, &b[i], &acc[3 * i]);
        return;
    }
    for (int h = 0; h <= 1; h++)
        forces_seq(t, &b[lo[h]], len[h], &acc[3 * lo[h]]);
}

static void forces(const struct node *t, const struct body *b, int n, double *acc)
{
    int lo[2] = {0, n / 2}, len[2] = {n / 2, n - n / 2};

    if (!(n > 1000)) {
        forces_seq(t, b, n, acc);
        return;
    }
    for (int h = 0; h <= 1; h++) {
#pragma omp task firstprivate(h) shared(lo, len)
        forces(t, &b[lo[h]], len[h], &acc[3 * lo[h]]);
    }
#pragma omp taskwait
}

static unsigned long long next(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static double uniform(unsigned long long *s)
{
    return (double)(next(s) >> 11) * 0x1p-53;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 30000;
    unsigned long long s = 2024;
    double cl[16][4], t0, dev = 0, mag = 0;
    struct body *b;
    double *acc;

    if (n < 200) {
        fprintf(stderr, "usage: bhut [N >= 200]\n");
        return 2;
    }
    b = malloc((size_t)n * sizeof *b);
    acc = malloc((size_t)n * 3 * sizeof *acc);
    if (b == NULL || acc == NULL) {
        fprintf(stderr, "bhut: out of memory\n");
        return 2;
    }
    for (int c = 0; c < 16; c++) { /* cluster centres and radii */
        cl[c][0] = 0.1 + 0.8 * uniform(&s);
        cl[c][1] = 0.1 + 0.8 * uniform(&s);
        cl[c][2] = 0.1 + 0.8 * uniform(&s);
        cl[c][3] = 0.002 + 0.05 * uniform(&s);
    }
    for (int i = 0; i < n; i++) { /* Plummer-like radius, random direction */
        int c = (int)(next(&s) % 16);
        double u = uniform(&s) * 0.99 + 0.005, r = cl[c][3] / sqrt(pow(u, -2.0 / 3) - 1);
        double z = 2 * uniform(&s) - 1, ph = 2 * M_PI * uniform(&s), q = sqrt(1 - z * z);
        if (r > 0.5)
            r = 0.5;
        b[i].x = cl[c][0] + r * q * cos(ph);
        b[i].y = cl[c][1] + r * q * sin(ph);
        b[i].z = cl[c][2] + r * z;
        b[i].m = 1.0 / n;
    }
    new_node(0.5, 0.5, 0.5, 1.0); /* the root cube: [-0.5, 1.5]^3 */
    for (int i = 0; i < n; i++)
        insert(b, i, 0, 0);
    mass(b, 0);

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    forces(tree, b, n, acc);
    fprintf(stderr, "TIME bhut %.6f\n", omp_get_wtime() - t0);

    for (int k = 0; k < 200; k++) { /* direct sums for a sample */
        int i = (int)((long)k * n / 200);
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; j++) {
            double dx = b[j].x - b[i].x, dy = b[j].y - b[i].y, dz = b[j].z - b[i].z;
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 > 0) {
                double r2e = r2 + EPS2, inv = b[j].m / (r2e * sqrt(r2e));
                ax += dx * inv;
                ay += dy * inv;
                az += dz * inv;
            }
        }
        dev += sqrt((ax - acc[3 * i]) * (ax - acc[3 * i]) + (ay - acc[3 * i + 1]) * (ay - acc[3 * i + 1]) +
                    (az - acc[3 * i + 2]) * (az - acc[3 * i + 2]));
        mag += sqrt(ax * ax + ay * ay + az * az);
    }
    printf("bhut: %d bodies, %d nodes: relative deviation %.2g: %s\n", n, nnodes, dev / mag,
           dev / mag < 0.01 ? "OK" : "BAD");
    return !(dev / mag < 0.01);
}
