/*
 * The C side of the sandbox (docs/sandbox.md): a Lua state whose allocator enforces a
 * memory cap, a count hook that enforces an instruction and a time budget, and the
 * standard library cut down to what cannot reach outside the state.
 *
 * Everything that must raise a Lua error (the budget hook, the library wrappers) is C, so
 * no error ever unwinds through a Swift frame.
 */
#ifndef FLOW_LUASANDBOX_H
#define FLOW_LUASANDBOX_H

#include <stddef.h>
#include "../../CLua/shim.h"

/* The strings of SB_LONG_STRING bytes or more a state holds (longstrings.c): a set of
 * their blocks, and their bytes. */
typedef struct flua_LongStrings {
    void **slots;             /* 2^bits slots, NULL when free */
    unsigned bits;
    size_t count;
    size_t bytes;
} flua_LongStrings;

#define SB_LONG_STRING ((size_t)64 << 10)     /* the strings the set holds, at least */
#define SB_COMPARED_BYTES ((size_t)256 << 20) /* string bytes compared between two looks at the
                                                 clock, at most (about 60 ms of strcmp) */

/* A sandbox's limits and accounting. The memory fields are the allocator's user data, so
 * the struct must outlive the state. 0 in a limit means "no limit". */
typedef struct flua_Sandbox {
    size_t memoryLimit;       /* bytes the state may hold */
    size_t memoryUsed;        /* bytes the state holds now */
    size_t externalUsed;      /* bytes held outside the state that count against the cap
                                 (the node data of the sandbox's stores) */
    size_t memoryPeak;        /* the most it held */
    long long instructionLimit; /* VM instructions per run (flua_sandbox_begin) */
    double timeLimit;         /* seconds per run */
    double patternLimit;      /* estimated steps of one pattern-matching call */
    /* per run */
    long long instructionsLeft;
    double deadline;
    int exceeded;             /* 1: instructions, 2: time (sticky until the next begin) */
    double lastLook;          /* when the hook last read the clock */
    size_t grownSinceLook;    /* bytes allocated since then */
    lua_State *L;             /* the thread running (sb_running; kept alive in the registry) */
    flua_LongStrings longStrings; /* the state's long strings (the hook's pace) */
} flua_Sandbox;

/* lua_newstate with the sandbox's allocator (the memory cap applies from the first byte).
 * NULL when out of memory. */
lua_State *flua_sandbox_newstate(flua_Sandbox *sb);

/* Cuts the state's standard libraries down to the sandbox's (see docs/sandbox.md): no io,
 * package, require, debug, dofile, loadfile; os only clock, time, date; load only text
 * chunks; collectgarbage without the options that stop or tune the collector; the
 * pattern functions of string refuse a call whose worst case exceeds patternLimit. Runs in
 * protected mode; returns the lua_pcall status (on error the message is on top). */
int flua_sandbox_restrict(lua_State *L, flua_Sandbox *sb);

/* Starts a run: resets the instruction and time budgets and (re)installs the count hook
 * on `L` (coroutines created afterwards inherit it). */
void flua_sandbox_begin(lua_State *L, flua_Sandbox *sb);

/* After a run that ended without an error: when a budget of the run was spent all the same
 * (the script caught the limit error, say inside a coroutine or in a tail call, and ended
 * before the hook looked again), pushes the limit error and returns 1; else 0. Never raises
 * (call it outside protected mode). */
int flua_sandbox_spent(lua_State *L, flua_Sandbox *sb);

/* Called after every Swift function of the binding has returned (its frame is gone): raises
 * the limit error when a budget of the run is spent (a long Swift call ran past the time
 * limit), and the memory error when the state, with what the call made, holds more than
 * the cap and a full collection does not bring it back under. Returns otherwise. */
void flua_sandbox_afterswift(lua_State *L);

/* Whether `bytes` more may be held outside the state (the node data of a store): the cap
 * counts them with the state's own memory. Taken when 1; `bytes` < 0 gives back. */
int flua_sandbox_take(flua_Sandbox *sb, long long bytes);

/* Frees what the sandbox holds besides the struct itself (after lua_close). */
void flua_sandbox_release(flua_Sandbox *sb);

/* Makes this thread use the C locale (strcoll, the C collation, is then strcmp: a UTF-8
 * collation took 0.4 s to compare two 20 MB strings, in one instruction, under any time
 * limit; formatting and character classes are the same on every host). Returns the
 * thread's locale before, for flua_sandbox_unpin_locale; NULL when nothing changed. */
void *flua_sandbox_pin_locale(void);
void flua_sandbox_unpin_locale(void *previous);

/* Notes the string block p of `size` bytes; 0 when out of memory (nothing noted). */
int flua_longstrings_add(flua_LongStrings *set, void *p, size_t size);
/* Forgets block p of `size` bytes, when it is a noted string. */
void flua_longstrings_remove(flua_LongStrings *set, void *p, size_t size);
void flua_longstrings_free(flua_LongStrings *set);
/* The instructions the hook may let run between two looks at the clock, at most `most`:
 * fewer the more long-string bytes the state holds (at least 1). */
int flua_longstrings_pace(const flua_LongStrings *set, int most);

/* The estimated worst-case steps of matching pattern `p` in subject `s` from byte `init`
 * (0-based) on, trying every start position unless the pattern is anchored (what
 * find/match/gmatch/gsub do). `plain`: a plain substring search. */
double flua_pattern_cost(const char *s, size_t n, size_t init, const char *p, size_t pl, int plain);

#endif
