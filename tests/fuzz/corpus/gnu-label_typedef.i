# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


typedef int T;

int main(void)
{
    T n = 0;
again:
    n++;
    if (n < 3)
        goto T;
    goto done;
T:
    goto again;
done:
    puts(n == 3 ? "ok" : "BAD");
    return 0;
}
