/* hints.c - which standard header declares a type name, for gcc's hint after
 * "unknown type name 'uint32_t'": "did you forget '#include <stdint.h>'?". */
#include <string.h>

#include "diag.h"
#include "lex.h"

static const struct {
    const char *name, *header;
} std_types[] = {
    {"int8_t", "stdint.h"}, {"int16_t", "stdint.h"}, {"int32_t", "stdint.h"},
    {"int64_t", "stdint.h"}, {"uint8_t", "stdint.h"}, {"uint16_t", "stdint.h"},
    {"uint32_t", "stdint.h"}, {"uint64_t", "stdint.h"}, {"intptr_t", "stdint.h"},
    {"uintptr_t", "stdint.h"}, {"intmax_t", "stdint.h"}, {"uintmax_t", "stdint.h"},
    {"int_least8_t", "stdint.h"}, {"int_least16_t", "stdint.h"},
    {"int_least32_t", "stdint.h"}, {"int_least64_t", "stdint.h"},
    {"uint_least8_t", "stdint.h"}, {"uint_least16_t", "stdint.h"},
    {"uint_least32_t", "stdint.h"}, {"uint_least64_t", "stdint.h"},
    {"int_fast8_t", "stdint.h"}, {"int_fast16_t", "stdint.h"},
    {"int_fast32_t", "stdint.h"}, {"int_fast64_t", "stdint.h"},
    {"uint_fast8_t", "stdint.h"}, {"uint_fast16_t", "stdint.h"},
    {"uint_fast32_t", "stdint.h"}, {"uint_fast64_t", "stdint.h"},
    {"size_t", "stddef.h"}, {"ptrdiff_t", "stddef.h"}, {"wchar_t", "stddef.h"},
    {"max_align_t", "stddef.h"}, {"bool", "stdbool.h"}, {"FILE", "stdio.h"},
    {"fpos_t", "stdio.h"}, {"va_list", "stdarg.h"}, {"time_t", "time.h"},
    {"clock_t", "time.h"}, {"jmp_buf", "setjmp.h"}, {"sig_atomic_t", "signal.h"},
    {"div_t", "stdlib.h"}, {"ldiv_t", "stdlib.h"}, {"lldiv_t", "stdlib.h"},
    {"wint_t", "wchar.h"}, {"mbstate_t", "wchar.h"}, {"char16_t", "uchar.h"},
    {"char32_t", "uchar.h"}, {"atomic_int", "stdatomic.h"}, {"atomic_bool", "stdatomic.h"},
    {"pthread_t", "pthread.h"}, {"pthread_mutex_t", "pthread.h"}, {"ssize_t", "sys/types.h"},
    {"off_t", "sys/types.h"}, {"pid_t", "sys/types.h"}, {"MPI_Comm", "mpi.h"},
};

void lex_report_unknown_type(Loc loc, const char *name)
{
    diag_error(loc, "unknown type name '%s'", name);
    const char *hdr = lex_std_header(name);
    if (hdr)
        diag_note(loc, "'%s' is defined in header '<%s>'; did you forget '#include <%s>'?",
                  name, hdr, hdr);
}

const char *lex_std_header(const char *name)
{
    for (size_t i = 0; i < sizeof std_types / sizeof std_types[0]; i++)
        if (strcmp(std_types[i].name, name) == 0)
            return std_types[i].header;
    return NULL;
}
