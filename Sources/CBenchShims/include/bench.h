/*
 * Helpers for flowbench (the benchmark executable): the floor of a Lua -> C call, a
 * monotonic clock callable from Lua, and the heap size. Its own C target, CBenchShims, which
 * only flowbench depends on: no library product ships it.
 */
#ifndef FLOW_BENCH_H
#define FLOW_BENCH_H

#include <stddef.h>
#include "../../CLua/shim.h"

/* A lua_CFunction that does nothing and returns no value: the cheapest C call. */
int flowbench_noop(lua_State *L);

/* A lua_CFunction that reads 8 MiB of memory, so that the data the caller touched before
 * (the Lua heap, say) is no longer in the core's L1 and L2 caches. */
int flowbench_evict(lua_State *L);

/* A lua_CFunction returning CLOCK_MONOTONIC in seconds (a float). */
int flowbench_clock(lua_State *L);

/* CLOCK_MONOTONIC in nanoseconds. */
unsigned long long flowbench_nanos(void);

/* Bytes the heap has handed out (mallinfo2: arena in use plus mmapped blocks). */
size_t flowbench_heap_bytes(void);

#endif
