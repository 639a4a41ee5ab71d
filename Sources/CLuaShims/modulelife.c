/* See include/modulelife.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "modulelife.h"

int flua_stay_loaded(void) { return flua_keep_loaded((const void *)&flua_stay_loaded); }

int flua_keep_loaded(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return 0;
    /* The handle is kept on purpose: RTLD_NODELETE is sticky, closing it would undo nothing. */
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != NULL;
}
