# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"

recursive void f(int *a, int n)
in: a[n, n;
out: a[n];
cond: n > ;
mode: ;
{
    par i = 0 to 1 do
        f(a, n / 2);
    par = 3;
}

recursive int g(int n)
mode: simple
{
    return n;
}

int after_errors = 1;
