# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"



recursive long fib(int n)
cond: n > 15;
{
    long r[2];
    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib(n - 1 - i);
    return r[0] + r[1];
}

static int calls(void)
{
    return recursive(4);
}

int main(void)
{
    struct walk_options o = { .recursive = 1 }, *po = &o;
    int total = calls();
    {
        int recursive = 2;
        recursive += o.recursive + po->recursive;
        total += recursive * 10;
    }
    puts(total == 44 && fib(20) == 6765 ? "ok" : "BAD");
    return 0;
}
