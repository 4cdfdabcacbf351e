# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


long sum(int n, int x[const *]);

long sum(int n, int x[const n])
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

int main(void)
{
    int a[4] = {1, 2, 3, 4};
    puts(sum(4, a) == 10 ? "ok" : "BAD");
    return 0;
}
