/* libdir.c - finding lib/wtc (runtimes, ABI header, machine presets).
 *
 * The build tree has the install layout (bin/wtcc beside lib/wtc/), so one rule serves
 * both: <directory of the real executable>/../lib/wtc. $WTC_LIBDIR overrides it.
 */
#include "driver.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory holding this executable, symlinks resolved; NULL if unknown. */
static char *self_dir(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    if (!self)
        return NULL;
    return drv_dirname(self);
}

/* Is 'path' an existing directory? */
static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The lib/wtc directory: $WTC_LIBDIR, else <dir of this executable>/../lib/wtc.
   Returns NULL after an error message when it does not exist. */
const char *drv_find_libdir(void)
{
    const char *env = getenv("WTC_LIBDIR");
    if (env && *env) {
        if (!is_dir(env)) {
            drv_error("WTC_LIBDIR='%s' is not a directory", env);
            return NULL;
        }
        return env;
    }
    char *bin = self_dir();
    if (!bin) {
        drv_error("cannot find the wtcc executable (/proc/self/exe): %s; set WTC_LIBDIR "
                  "to the lib/wtc directory", strerror(errno));
        return NULL;
    }
    char *guess = drv_format("%s/../lib/wtc", bin);
    char *dir = realpath(guess, NULL);
    if (!dir || !is_dir(dir)) {
        drv_error("the wtcc runtime directory '%s' does not exist", guess);
        drv_note("run 'make' in the wtcc tree, or 'make install', or set WTC_LIBDIR");
        return NULL;
    }
    return dir;
}
