# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


static x = 3;
const y = 4, *py = &y;

twice(int v)
{
    register r = v;
    return 2 * r;
}

recursive fib(int n)
cond: n > 15;
{
    int r[2];
    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib(n - 1 - i);
    return r[0] + r[1];
}

int main(void)
{
    static z;
    puts(x == 3 && *py == 4 && twice(5) == 10 && z == 0 && fib(20) == 6765 ? "ok" : "BAD");
    return 0;
}
