#define _GNU_SOURCE
#include <malloc.h>
#include <time.h>
#include "bench.h"

int flowbench_noop(lua_State *L) {
    (void)L;
    return 0;
}

unsigned long long flowbench_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int flowbench_clock(lua_State *L) {
    lua_pushnumber(L, (lua_Number)flowbench_nanos() * 1e-9);  /* seconds */
    return 1;
}

size_t flowbench_heap_bytes(void) {
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}
