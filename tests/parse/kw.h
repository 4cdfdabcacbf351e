/* kw.h - in a header the Work-Time C words are ordinary identifiers. */
extern int recursive;
int par(int to, int in, int out);
struct modes { int in, out, cond, mode; };
static inline int to_do(int to) { int par = to; return par + recursive; }
