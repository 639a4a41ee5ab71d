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

/* The estimated worst-case steps of matching pattern `p` in subject `s` from byte `init`
 * (0-based) on, trying every start position unless the pattern is anchored (what
 * find/match/gmatch/gsub do). `plain`: a plain substring search. */
double flua_pattern_cost(const char *s, size_t n, size_t init, const char *p, size_t pl, int plain);

#endif
