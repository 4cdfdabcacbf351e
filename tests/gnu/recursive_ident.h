/* A header that uses 'recursive' as an ordinary name. */
struct walk_options { int recursive; int depth; };
static inline int recursive(int n) { return n <= 0 ? 0 : 1 + recursive(n - 1); }
