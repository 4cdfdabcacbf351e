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

int scale = 1;
int table[8];
struct config {
    int add;
    int mul;
} cfg = { 0, 1 };
int width = 1;


static long weight(int i)
{
    return (long)table[i % 8] * scale * cfg.mul + cfg.add;
}


recursive long weigh(int *v, int lo, int n)
in: v[n * width], lo, n;
cond: n > 40;
mode: dynamic;
{
    long r[2];

    if (n <= 40) {
        long t = 0;
        for (int i = lo; i < lo + n; i++) {
            t += weight(i);
            for (int w = 0; w < width; w++)
                t += v[(i - lo) * width + w];
        }
        return t;
    }
    par k = 0 to 1 do
        r[k] = weigh(&v[k * (n / 2) * width], lo + k * (n / 2), k == 0 ? n / 2 : n - n / 2);
    return r[0] + r[1];
}

static long weigh_ref(int *v, int n)
{
    long t = 0;
    for (int i = 0; i < n; i++) {
        t += weight(i);
        for (int w = 0; w < width; w++)
            t += v[i * width + w];
    }
    return t;
}

int main(void)
{
    static int v[3 * 1000];

    for (int j = 0; j < 3000; j++)
        v[j] = j % 13;
    for (int i = 0; i < 8; i++)
        table[i] = i * i;

    scale = 3;
    check("weigh, scale 3", weigh(v, 0, 1000), weigh_ref(v, 1000));

    scale = -5;
    cfg.add = 7;
    cfg.mul = 2;
    table[3] = 1000;
    check("weigh, scale -5, cfg 7 2", weigh(v, 0, 1000), weigh_ref(v, 1000));

    width = 3;
    scale = 1;
    check("weigh, width 3", weigh(v, 0, 1000), weigh_ref(v, 1000));

    printf("%s\n", failures == 0 ? "OK" : "BAD");
    return failures != 0;
}
