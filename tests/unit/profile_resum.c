/* profile_resum.c - tests/unit/sim_profile.sh: rewrites a profile's 'end' line with the
 * checksum of what precedes it, as a user who edits a profile by hand and makes the
 * checksum again would: the reader must still refuse values prog.predict never writes.
 *
 *   profile_resum FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

int main(int argc, char **argv)
{
    char err[256];
    size_t len;
    char *text, *end;
    FILE *f;
    if (argc != 2 || !(text = wtcrt_read_file(argv[1], &len, err, sizeof err)))
        return 2;
    if (!(end = strstr(text, "\nend ")))
        return 2;
    end[1] = 0;
    if (!(f = fopen(argv[1], "w")))
        return 2;
    fprintf(f, "%send %016llx\n", text, wtcrt_checksum(text, strlen(text)));
    return fclose(f) != 0;
}
