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

/* 8 MiB, written once so that its pages are real memory (an untouched buffer reads as the
 * one shared zero page and would evict nothing). */
#define FLOWBENCH_EVICT_BYTES (8u << 20)
static unsigned char flowbench_evict_buffer[FLOWBENCH_EVICT_BYTES];
static int flowbench_evict_ready;

int flowbench_evict(lua_State *L) {
    (void)L;
    if (!flowbench_evict_ready) {
        for (size_t i = 0; i < FLOWBENCH_EVICT_BYTES; i++) flowbench_evict_buffer[i] = (unsigned char)i;
        flowbench_evict_ready = 1;
    }
    volatile unsigned long sum = 0;
    unsigned long s = 0;
    for (size_t i = 0; i < FLOWBENCH_EVICT_BYTES; i += 64) s += flowbench_evict_buffer[i];
    sum = s;
    (void)sum;
    return 0;
}

size_t flowbench_heap_bytes(void) {
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}
