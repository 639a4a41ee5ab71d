/*
 * The long strings a sandboxed state holds (see include/luasandbox.h and docs/sandbox.md,
 * "Costly instructions"). Comparing two strings (`a < b`, `a <= b`, `a == b`) is one
 * instruction that works through both in C (strcoll, memcmp) without allocating: the hook
 * cannot see it coming. So the allocator notes every string of SB_LONG_STRING bytes or more
 * while it lives, and the hook looks at the clock after at most SB_COMPARED_BYTES /
 * (their bytes) instructions: the comparisons between two looks work through at most
 * SB_COMPARED_BYTES bytes, whatever the script compares.
 */
#include "include/luasandbox.h"

#include <stdint.h>
#include <stdlib.h>

/* The slot where the search for p starts, in a table of 2^bits slots (Fibonacci hashing). */
static size_t sb_slot(const void *p, unsigned bits) {
    return (size_t)(((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

/* Puts p into the table (which has a free slot). */
static void sb_put(flua_LongStrings *set, void *p) {
    size_t mask = ((size_t)1 << set->bits) - 1, i = sb_slot(p, set->bits);
    while (set->slots[i] != NULL) i = (i + 1) & mask;
    set->slots[i] = p;
}

/* Doubles the table (16 slots at first); 0 when out of memory. */
static int sb_grow(flua_LongStrings *set) {
    unsigned bits = set->bits == 0 ? 4 : set->bits + 1;
    void **slots = calloc((size_t)1 << bits, sizeof(void *));
    if (slots == NULL) return 0;
    void **old = set->slots;
    size_t n = set->bits == 0 ? 0 : (size_t)1 << set->bits;
    set->slots = slots;
    set->bits = bits;
    for (size_t i = 0; i < n; i++)
        if (old[i] != NULL) sb_put(set, old[i]);
    free(old);
    return 1;
}

int flua_longstrings_add(flua_LongStrings *set, void *p, size_t size) {
    if ((set->count + 1) * 2 > ((size_t)1 << set->bits) && !sb_grow(set)) return 0;
    sb_put(set, p);
    set->count++;
    set->bytes += size;
    return 1;
}

void flua_longstrings_remove(flua_LongStrings *set, void *p, size_t size) {
    if (set->count == 0) return;
    size_t mask = ((size_t)1 << set->bits) - 1, i = sb_slot(p, set->bits);
    while (set->slots[i] != p) {
        if (set->slots[i] == NULL) return; /* not a string: a table's array, say */
        i = (i + 1) & mask;
    }
    set->slots[i] = NULL;
    set->count--;
    set->bytes -= size;
    /* linear probing: the entries after the hole that would no longer be found move up */
    for (size_t j = (i + 1) & mask; set->slots[j] != NULL; j = (j + 1) & mask) {
        void *q = set->slots[j];
        set->slots[j] = NULL;
        sb_put(set, q);
    }
}

void flua_longstrings_free(flua_LongStrings *set) {
    free(set->slots);
    set->slots = NULL;
    set->bits = 0;
    set->count = 0;
    set->bytes = 0;
}

int flua_longstrings_pace(const flua_LongStrings *set, int most) {
    if (set->bytes == 0) return most;
    size_t n = SB_COMPARED_BYTES / set->bytes;
    return n >= (size_t)most ? most : n < 1 ? 1 : (int)n;
}
