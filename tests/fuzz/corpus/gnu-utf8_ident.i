# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"



static int \U000003c0 = 3;

recursive long fib\U000003c0(int n)
cond: n > 15;
{
    long r[2];
    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib\U000003c0(n - 1 - i);
    return r[0] + r[1];
}

int main(void)
{
    int \U000000e9t\U000000e9 = \U000003c0 + 1;
    puts(\U000000e9t\U000000e9 == 4 && fib\U000003c0(20) == 6765 ? "ok" : "BAD");
    return 0;
}
