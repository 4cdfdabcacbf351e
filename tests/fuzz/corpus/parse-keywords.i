# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


int use_names(struct modes *m)
{
    int in = m->in, out = m->out, to = 2;
    int cond = in < out ? in : out;
    int mode = cond + to;
    return mode + par(to, in, out);
}

recursive int fib(int n)
in: n;
cond: n > 20;
{
    int r[2];
    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib(n - 1 - i);
    return r[0] + r[1];
}
