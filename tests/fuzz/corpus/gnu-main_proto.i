# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"



int main(int argc, char **argv);
static int (*entry)(int, char **) = main;

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

int main(int argc, char **argv)
{
    if (argc == 42)
        return 7;
    puts(entry == main && entry(42, argv) == 7 && fib(20) == 6765 ? "ok" : "BAD");
    return 0;
}
