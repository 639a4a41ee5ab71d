/* See include/modulelife.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "modulelife.h"

int flua_stay_loaded(void) { return flua_keep_loaded((const void *)&flua_stay_loaded); }

int flua_keep_loaded(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return 0;
    /* The handle is kept on purpose: RTLD_NODELETE is sticky, closing it would undo nothing. */
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != NULL;
}

void *flua_dlopen_beside(const char *file, char *why, unsigned long size) {
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) {
        snprintf(why, size, "cannot find the executable's directory");
        return NULL;
    }
    path[n] = 0;
    char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    if (dir + strlen(file) >= sizeof path) {
        snprintf(why, size, "the executable's directory is too long");
        return NULL;
    }
    strcpy(path + dir, file);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *e = dlerror();
        snprintf(why, size, "%s", e ? e : path);
    }
    return handle;
}

