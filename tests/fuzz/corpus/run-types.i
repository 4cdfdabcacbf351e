# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"




typedef long long i64;
typedef unsigned char byte;
typedef enum { RED, GREEN, BLUE } channel;

typedef struct {
    byte c[3];
    int16_t alpha;
} pixel;

typedef struct {
    i64 sum;
    int min, max;
    bool any_opaque;
} stats;

struct window {
    int first, count;
};

static int failures;

static void check(const char *what, long got, long want)
{
    printf("%s = %ld %s\n", what, got, got == want ? "OK" : "BAD");
    if (got != want)
        failures++;
}


static stats one(pixel p, channel ch, byte shift, float gain)
{
    stats s;
    int v = (int)((p.c[ch] >> shift) * gain);
    s.sum = v;
    s.min = s.max = v;
    s.any_opaque = p.alpha == 255;
    return s;
}

static stats combine(stats a, stats b)
{
    stats r;
    r.sum = a.sum + b.sum;
    r.min = a.min < b.min ? a.min : b.min;
    r.max = a.max > b.max ? a.max : b.max;
    r.any_opaque = a.any_opaque || b.any_opaque;
    return r;
}


recursive stats survey(pixel *img, struct window w, channel ch, byte shift, float gain)
in: img[w.count], w, ch, shift, gain;
cond: w.count > 40;
mode: dynamic;
{
    stats part[2];
    struct window sub[2];

    if (w.count == 1)
        return one(img[0], ch, shift, gain);
    sub[0].first = w.first;
    sub[0].count = w.count / 2;
    sub[1].first = w.first + w.count / 2;
    sub[1].count = w.count - w.count / 2;
    par i = 0 to 1 do
        part[i] = survey(img + (sub[i].first - w.first), sub[i], ch, shift, gain);
    return combine(part[0], part[1]);
}


recursive i64 total(uint32_t *v, size_t n)
in: v[n], n;
cond: n > 128;
mode: simple;
{
    i64 r[2];

    if (n <= 128) {
        i64 t = 0;
        for (size_t j = 0; j < n; j++)
            t += v[j];
        return t;
    }
    par i = 0 to 1 do
        r[i] = total(v + i * (n / 2), i == 0 ? n / 2 : n - n / 2);
    return r[0] + r[1];
}

int main(void)
{
    static pixel img[777];
    static uint32_t v[1000];
    struct window all = { 0, 777 };
    stats s;
    i64 want = 0;

    for (int j = 0; j < 777; j++) {
        img[j].c[RED] = (byte)(j % 256);
        img[j].c[GREEN] = (byte)(j * 7 % 256);
        img[j].c[BLUE] = (byte)(255 - j % 256);
        img[j].alpha = (int16_t)(j == 500 ? 255 : j % 200);
    }
    s = survey(img, all, GREEN, 1, 2.0f);
    for (int j = 0; j < 777; j++)
        want += (img[j].c[GREEN] >> 1) * 2;
    check("survey GREEN sum", s.sum, want);
    check("survey GREEN min", s.min, 0);
    check("survey GREEN max", s.max, 254);
    check("survey any opaque", s.any_opaque, 1);

    s = survey(img, all, BLUE, 0, 1.0f);
    check("survey BLUE min", s.min, 0);
    check("survey BLUE max", s.max, 255);

    want = 0;
    for (int j = 0; j < 1000; j++) {
        v[j] = 4000000000u - (uint32_t)j;
        want += v[j];
    }
    check("total(v, 1000)", total(v, 1000), want);

    printf("%s\n", failures == 0 ? "OK" : "BAD");
    return failures != 0;
}
