# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


int f(int a)
{
    int x = a +;
    return x
}

int h(void) {
    printf("%d\n", 1, 2;
    int y = 3
    y++;
    return y;
}

struct s { int a; int b };
int ok = 1;
