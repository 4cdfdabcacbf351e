# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"
typedef struct { double x, y; } pt_t;
double total;


recursive static int sum(const int *a, int lo, int hi, pt_t p)
mode: simple;
out: a[hi - lo + 1];
in: a[hi - lo + 1], lo, hi, p;
cond: hi - lo > 1000 && wtc_depth < 4;
in: lo;
{
    int mid = lo + (hi - lo) / 2, s[2];
    int bounds[2][2] = {{lo, mid}, {mid + 1, hi}};
    if (lo == hi)
        return a[0];
    par k = 0 to 1 do {
        int to = k;
        s[to] = sum(a + (bounds[k][0] - lo), bounds[k][0], bounds[k][1], p);
    }
    return s[0] + s[1];
}


static recursive void walk(int depth)
mode: dynamic depth + 1;
{
    if (depth > 0)
        par i = 1 to depth do
            walk(depth - 1);
}

int main(void)
{
    int a[4] = {1, 2, 3, 4};
    pt_t p = {0};
    walk(2);
    par j = 0 to 3 do
        total += sum(a, j, j, p);
    return sum(a, 0, 3, p) == 10 ? 0 : 1;
}
