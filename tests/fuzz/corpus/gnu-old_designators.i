# 0 "<fuzz>"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "<fuzz>"


struct point { int x, y; };
static int a[5] = { [2] 7, [4] 9 };
static struct point p = { y: 2, x: 1 };
static int b[6] = { [1 ... 3] 5 };

int main(void)
{
    struct point q = { x: 3 };
    puts(a[2] == 7 && a[4] == 9 && a[0] == 0 && p.x == 1 && p.y == 2 && q.x == 3 &&
         b[2] == 5 && b[4] == 0 ? "ok" : "BAD");
    return 0;
}
