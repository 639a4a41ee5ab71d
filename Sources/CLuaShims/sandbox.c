/*
 * The sandbox's C side (see include/luasandbox.h and docs/sandbox.md).
 */
#include "include/luasandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern _Thread_local int flua_in_lua; /* luashims.c */
int flua_interrupt_pending(void);     /* interrupts.c */
static void sb_look_soon(lua_State *L);

/* ------------------------------------------------------------------ memory cap */

/* The allocator: refuses growth past the cap (Lua then raises "not enough memory") while
 * Lua code runs, never while Swift code does (a Swift function of the binding, the host
 * itself): a memory error there would unwind through a Swift frame. What Swift allocates
 * is still counted, so the script's next allocation fails. Shrinking and freeing never
 * fail, as Lua requires. */
#define SB_GROWN_LOOK (4u << 20) /* bytes allocated between two looks at the clock, at most */

static int sb_most(flua_Sandbox *sb);

/* Notes a long string: under a time limit, when the hook would let more instructions run
 * before its next look than the long strings allow, it looks at the next one. */
static void sb_note_long(flua_Sandbox *sb, void *p, size_t size) {
    if (!flua_longstrings_add(&sb->longStrings, p, size)) return;
    if (sb->timeLimit > 0 && flua_in_lua && sb->L != NULL && lua_gethookcount(sb->L) > sb_most(sb)) sb_look_soon(sb->L);
}

static void *flua_sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    flua_Sandbox *sb = (flua_Sandbox *)ud;
    size_t old = ptr != NULL ? osize : 0;
    if (nsize == 0) {
        if (old >= SB_LONG_STRING) flua_longstrings_remove(&sb->longStrings, ptr, old);
        free(ptr);
        sb->memoryUsed -= old;
        return NULL;
    }
    if (nsize > old && sb->memoryLimit != 0 && flua_in_lua &&
        sb->memoryUsed + sb->externalUsed - old + nsize > sb->memoryLimit)
        return NULL;
    void *p = realloc(ptr, nsize);
    if (p == NULL) return NULL;
    /* a new string (Lua says so in osize), made once and freed once */
    if (ptr == NULL && osize == LUA_TSTRING && nsize >= SB_LONG_STRING) sb_note_long(sb, p, nsize);
    if (nsize > old && sb->timeLimit > 0 && flua_in_lua) {
        /* copying long strings, say: the hook looks at the clock at the next instruction */
        sb->grownSinceLook += nsize - old;
        if (sb->grownSinceLook > SB_GROWN_LOOK && sb->L != NULL) {
            sb->grownSinceLook = 0;
            sb_look_soon(sb->L);
        }
    }
    sb->memoryUsed = sb->memoryUsed - old + nsize;
    if (sb->memoryUsed > sb->memoryPeak) sb->memoryPeak = sb->memoryUsed;
    return p;
}

static flua_Sandbox *flua_sandbox_of(lua_State *L);

lua_State *flua_sandbox_newstate(flua_Sandbox *sb) {
    lua_State *L = lua_newstate(flua_sandbox_alloc, sb);
    /* the threads' marks (sb_mark): coroutines copy the main thread's, which stays 0 */
    if (L != NULL) memset(lua_getextraspace(L), 0, LUA_EXTRASPACE);
    return L;
}

extern _Thread_local lua_State *flua_swift_L; /* luashims.c */

static int sb_fits(flua_Sandbox *sb, long long bytes) {
    return bytes <= 0 || sb->memoryLimit == 0 || sb->memoryUsed + sb->externalUsed + (size_t)bytes <= sb->memoryLimit;
}

int flua_sandbox_take(flua_Sandbox *sb, long long bytes) {
    /* past the cap: first a full collection (stores no longer referenced give theirs
     * back), from the Swift function of the binding running now, in its thread */
    lua_State *L = flua_swift_L;
    if (!sb_fits(sb, bytes) && L != NULL && flua_sandbox_of(L) == sb) lua_gc(L, LUA_GCCOLLECT);
    if (!sb_fits(sb, bytes)) return 0;
    sb->externalUsed = (size_t)((long long)sb->externalUsed + bytes);
    return 1;
}

static flua_Sandbox *flua_sandbox_of(lua_State *L) {
    void *ud = NULL;
    lua_Alloc f = lua_getallocf(L, &ud);
    return f == flua_sandbox_alloc ? (flua_Sandbox *)ud : NULL;
}

/* ------------------------------------------------------- instruction and time budget */

#define SB_HOOK_COUNT 1000 /* instructions between two looks at the budget */

static double flua_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The mark of a coroutine the hook stopped: the kind of limit (1 instructions, 2 time), 0
 * for none, kept in the thread's extra space. Lua runs the to-be-closed variables of such a
 * coroutine, when it is closed, with hooks off (the error left it so), so the sandbox never
 * closes it (sb_coclose, sb_auxwrap). */
static unsigned char *sb_mark(lua_State *co) { return (unsigned char *)lua_getextraspace(co); }

/* Pushes the message of the spent budget `kind` (as sb->exceeded). */
static void sb_push_limit(lua_State *L, flua_Sandbox *sb, int kind) {
    if (kind == 1)
        lua_pushfstring(L, "sandbox: instruction limit exceeded (%I instructions)", (LUAI_UACINT)sb->instructionLimit);
    else {
        char buf[64];
        snprintf(buf, sizeof buf, "%g", sb->timeLimit);
        lua_pushfstring(L, "sandbox: time limit exceeded (%s s)", buf);
    }
}

/* Raises the error of the spent budget `kind` (as sb->exceeded), with the position of the
 * function at `level`. */
static int sb_raise_limit(lua_State *L, flua_Sandbox *sb, int kind, int level) {
    luaL_where(L, level);
    sb_push_limit(L, sb, kind);
    lua_concat(L, 2);
    return lua_error(L);
}

int flua_sandbox_spent(lua_State *L, flua_Sandbox *sb) {
    if (sb->exceeded == 0) return 0;
    sb_push_limit(L, sb, sb->exceeded);
    return 1;
}

#define SB_PACE 0.005 /* seconds between two looks at the clock, about */

/* The most instructions between two looks: SB_HOOK_COUNT, fewer under a time limit while
 * the state holds long strings (a comparison of two is one instruction, longstrings.c). */
static int sb_most(flua_Sandbox *sb) {
    return sb->timeLimit > 0 ? flua_longstrings_pace(&sb->longStrings, SB_HOOK_COUNT) : SB_HOOK_COUNT;
}

static void flua_sandbox_hook(lua_State *L, lua_Debug *ar);
static const char sb_running_key = 0; /* the registry's key of sb->L */

/* Makes the thread at stack index idx of L the running one (sb->L, which the allocator
 * reaches), kept alive in the registry while it is. */
static void sb_running(lua_State *L, int idx) {
    flua_Sandbox *sb = flua_sandbox_of(L);
    lua_State *co = lua_tothread(L, idx);
    if (sb == NULL || co == NULL) return;
    lua_pushvalue(L, idx);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &sb_running_key); /* the key exists: no allocation */
    sb->L = co;
    /* its pace may be older than the long strings another thread made */
    if (sb->timeLimit > 0 && lua_gethookcount(co) > sb_most(sb)) sb_look_soon(co);
}

/* Runs the original resume (upvalue 1) with the coroutine (argument 1) as the running
 * thread, the caller again once it returns. */
static int sb_coresume(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    sb_running(L, 1);
    int n = original(L);
    lua_pushthread(L);
    sb_running(L, -1);
    lua_pop(L, 1);
    return n;
}

/* Makes the hook of thread L (when it is the sandbox's: not an interrupt's) run at the
 * next instruction. */
static void sb_look_soon(lua_State *L) {
    if (lua_gethook(L) == flua_sandbox_hook && lua_gethookcount(L) > 1)
        lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, 1);
}

/* Under a time limit the hook looks at the clock every SB_HOOK_COUNT instructions while
 * they are cheap (fewer while the state holds long strings: sb_most). When the `count`
 * instructions since the last look took longer than SB_PACE (each copying a long string,
 * say, or sorting a long table), the next look comes after proportionally fewer, down to
 * every instruction: a run ends about one costly instruction past its deadline. Big
 * allocations (the allocator) and big table and collector calls (sb_heavy) make the hook
 * look at the next instruction. */
static void sb_pace(lua_State *L, flua_Sandbox *sb, double now, int count) {
    int most = sb_most(sb);
    double spent = now - sb->lastLook, want = spent > 0 ? count * SB_PACE / spent : most;
    sb->lastLook = now;
    sb->grownSinceLook = 0;
    int next = want >= most ? most : want < 1 ? 1 : (int)want;
    if (next != count) lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, next);
}

/* The count hook. Once a budget is spent it looks at every instruction and raises each
 * time until the run ends, so a script that catches the error with pcall cannot go on
 * (with a count of 1000 the hook would always fire inside the protected loop again). */
static void flua_sandbox_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    flua_Sandbox *sb = flua_sandbox_of(L);
    if (sb == NULL) return;
    int count = lua_gethookcount(L);
    if (sb->instructionLimit > 0) {
        sb->instructionsLeft -= count;
        if (sb->instructionsLeft <= 0 && sb->exceeded == 0) sb->exceeded = 1;
    }
    if (sb->timeLimit > 0 && sb->exceeded == 0) {
        double now = flua_now();
        if (now > sb->deadline) sb->exceeded = 2;
        else sb_pace(L, sb, now, count);
    }
    if (sb->exceeded == 0) return;
    lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, 1);
    if (!lua_pushthread(L)) *sb_mark(L) = (unsigned char)sb->exceeded; /* a coroutine */
    lua_pop(L, 1);
    sb_raise_limit(L, sb, sb->exceeded, 0);
}

void flua_sandbox_afterswift(lua_State *L) {
    flua_Sandbox *sb = flua_sandbox_of(L);
    if (sb == NULL) return;
    if (sb->exceeded != 0) { /* a Swift call ran past the time limit (its WorkLimit) */
        lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, 1);
        sb_raise_limit(L, sb, sb->exceeded, 1);
    }
    if (flua_in_lua && sb->memoryLimit != 0 && sb->memoryUsed + sb->externalUsed > sb->memoryLimit) {
        /* refused: Lua collects garbage and raises its memory error if that is not enough */
        lua_newuserdatauv(L, 0, 0);
        lua_pop(L, 1);
    }
}

void flua_sandbox_begin(lua_State *L, flua_Sandbox *sb) {
    sb->instructionsLeft = sb->instructionLimit;
    sb->lastLook = flua_now();
    sb->deadline = sb->lastLook + sb->timeLimit;
    sb->grownSinceLook = 0;
    sb->L = L;
    sb->exceeded = 0;
    if (sb->instructionLimit > 0 || sb->timeLimit > 0)
        lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, sb_most(sb));
    else
        lua_sethook(L, NULL, 0, 0);
}

void flua_sandbox_release(flua_Sandbox *sb) { flua_longstrings_free(&sb->longStrings); }

/* The bound of flua_pattern_cost, computing no runs once their scan alone passes `limit`
 * (patterncost.c). */
double flua_pattern_cost_within(const char *s, size_t n, size_t init, const char *p, size_t pl, int plain, double limit);

/* ------------------------------------------------------------- library wrappers */

/* Each wrapper checks its arguments, then runs the original C function (upvalue 1) in its
 * own frame, so errors name the function the script called. */
static int sb_call_original(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    return original(L);
}

/* The 0-based start of a find/match/gmatch call whose `init` argument is at `arg`, as
 * str_find_aux and gmatch compute it; 0 when `init` is not a number the function accepts
 * (it then raises its own argument error). Every form counts: nil, an integer, a float
 * with an integer value, a string that converts to one. */
static int sb_init(lua_State *L, int arg, size_t n, size_t *init) {
    *init = 0;
    if (lua_isnoneornil(L, arg)) return 1;
    int isnum;
    lua_Integer k = lua_tointegerx(L, arg, &isnum);
    if (!isnum) return 0;
    if (k > 0) *init = (size_t)k - 1 > n ? n + 1 : (size_t)k - 1;
    else if (k < 0) *init = (size_t)(-k) > n ? 0 : n - (size_t)(-k);
    return 1;
}

static int sb_heavy(lua_State *L);

/* How many bytes c the string at `arg` holds. */
static size_t sb_count(lua_State *L, int arg, char c) {
    size_t len, k = 0;
    const char *r = lua_tolstring(L, arg, &len);
    for (size_t j = 0; j < len; j++) k += r[j] == c;
    return k;
}

/* string.find (kind 0), match (1), gmatch (2), gsub (3). The subject and the pattern may be
 * strings or numbers (converted in place, as the functions do). */
static int sb_pattern(lua_State *L) {
    static const char *const names[] = {"find", "match", "gmatch", "gsub"};
    int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
    flua_Sandbox *sb = flua_sandbox_of(L);
    size_t n, pl, init = 0;
    if (sb != NULL && sb->patternLimit > 0 && lua_isstring(L, 1) && lua_isstring(L, 2)) {
        const char *s = lua_tolstring(L, 1, &n);
        const char *p = lua_tolstring(L, 2, &pl);
        if (kind != 3 && !sb_init(L, 3, n, &init)) return sb_call_original(L);
        int plain = kind == 0 && lua_toboolean(L, 4);
        if (!plain && kind < 2 && strpbrk(p, "^$*+?.([%-") == NULL && strlen(p) == pl) plain = 1;
        double cost = flua_pattern_cost_within(s, n, init, p, pl, plain, sb->patternLimit);
        if (kind == 2 && pl > 0 && p[0] == '^') /* gmatch: '^' anchors nothing */
            cost = cost * ((double)(n - (init > n ? n : init)) + 1);
        if (kind == 3 && lua_type(L, 3) == LUA_TSTRING) /* gsub: a '%' of the replacement */
            cost += ((double)n + 1) * (double)sb_count(L, 3, '%'); /* may add nothing to the result */
        if (cost > sb->patternLimit) {
            char buf[200];
            snprintf(buf, sizeof buf,
                     "%s: pattern too costly for the sandbox (up to %.3g steps on a subject of %zu bytes; "
                     "the limit is %.3g)",
                     names[kind], cost, n, sb->patternLimit);
            luaL_where(L, 1);
            lua_pushstring(L, buf);
            lua_concat(L, 2);
            return lua_error(L);
        }
    }
    return sb_heavy(L); /* a long subject: the clock at the next instruction */
}

/* Raises the limit error once a budget is spent, from a library function (`steps` of its
 * work are counted as instructions, and the clock is read): the hook then raises at every
 * instruction, as after any limit. */
static void sb_charge(lua_State *L, long long steps) {
    flua_Sandbox *sb = flua_sandbox_of(L);
    if (sb == NULL) return;
    if (sb->instructionLimit > 0) {
        sb->instructionsLeft -= steps;
        if (sb->instructionsLeft <= 0 && sb->exceeded == 0) sb->exceeded = 1;
    }
    if (sb->timeLimit > 0 && sb->exceeded == 0 && flua_now() > sb->deadline) sb->exceeded = 2;
    if (sb->exceeded == 0) return;
    lua_sethook(L, flua_sandbox_hook, LUA_MASKCOUNT, 1);
    sb_raise_limit(L, sb, sb->exceeded, 1);
}

/* string.rep: of an empty string with an empty separator, "" at once (Lua would copy
 * nothing n times, as long as n says: string.rep("", 1e15) never ended). */
static int sb_rep(lua_State *L) {
    size_t l, lsep;
    luaL_checklstring(L, 1, &l);
    luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (l == 0 && lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    return sb_call_original(L);
}

#define SB_MOVE_PIECE 4096 /* elements table.move moves between two looks at the budget */

/* table.move: a long move (one element an instruction) looks at the budget every
 * SB_MOVE_PIECE elements (Lua's moves them in one C loop: table.move({}, 1, 1e12, 1) never
 * ended). Moves as the original does, element by element, forwards unless the ranges
 * overlap with the destination above the source; short moves are the original's. */
static int sb_tmove(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3), t = luaL_checkinteger(L, 4);
    if (e < f || (lua_Unsigned)e - (lua_Unsigned)f < SB_MOVE_PIECE) return sb_call_original(L);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    /* the original checks the tables, with nothing to move */
    lua_pushinteger(L, 1);
    lua_replace(L, 2);
    lua_pushinteger(L, 0);
    lua_replace(L, 3);
    sb_call_original(L);
    lua_settop(L, tt);
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    lua_Integer n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    int forward = t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ));
    for (lua_Integer k = 0; k < n; k++) {
        lua_Integer i = forward ? k : n - 1 - k;
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
        if (k % SB_MOVE_PIECE == SB_MOVE_PIECE - 1) sb_charge(L, SB_MOVE_PIECE);
    }
    lua_pushvalue(L, tt);
    return 1;
}

/* setmetatable: no metatable with __gc. Lua runs finalizers with hooks off (no instruction
 * or time limit), also in lua_close, where no memory cap holds either. */
static int sb_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int t = lua_rawget(L, 2);
        lua_pop(L, 1);
        if (t != LUA_TNIL)
            return luaL_argerror(L, 2, "a metatable without __gc expected (finalizers run outside the sandbox's limits)");
    }
    return sb_call_original(L);
}

/* getmetatable: nil for the binding's objects (every full userdata a script sees), so their
 * metatables (and finalizers) stay out of reach; a __metatable field still answers. */
static int sb_getmetatable(lua_State *L) {
    int n = sb_call_original(L);
    if (lua_type(L, 1) == LUA_TUSERDATA && lua_type(L, -1) == LUA_TTABLE) {
        lua_pushnil(L);
        return 1;
    }
    return n;
}

/* The message handler xpcall gets in a sandbox: the script's handler (upvalue 1), skipped
 * once a budget is spent or an interrupt is unwinding. Lua calls a handler where the error
 * was raised, for the limit errors inside the hook, where hooks are off: the handler
 * would run unchecked. The error then passes unchanged. */
static int sb_msgh(lua_State *L) {
    flua_Sandbox *sb = flua_sandbox_of(L);
    if ((sb != NULL && sb->exceeded != 0) || flua_interrupt_pending()) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sb_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_msgh, 1);
    lua_replace(L, 2);
    return sb_call_original(L);
}

/* coroutine.close: a coroutine a limit stopped is not closed (its to-be-closed variables
 * would run with hooks off): the limit error instead. */
static int sb_coclose(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    if (co != NULL && *sb_mark(co) != 0) return sb_raise_limit(L, flua_sandbox_of(L), *sb_mark(co), 1);
    return sb_call_original(L);
}

#if LUA_VERSION_RELEASE_NUM >= 50406
#define sb_closethread(co, L) lua_closethread(co, L)
#else
#define sb_closethread(co, L) lua_resetthread(co)
#endif

/* The function coroutine.wrap returns (lcorolib's auxwrap), except that a coroutine a limit
 * stopped is not closed: its error passes on as it is. Upvalue 1: the coroutine. */
static int sb_auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int narg = lua_gettop(L), nres;
    if (!lua_checkstack(co, narg)) return luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, narg);
    sb_running(L, lua_upvalueindex(1));
    int status = lua_resume(co, L, narg, &nres);
    lua_pushthread(L);
    sb_running(L, -1);
    lua_pop(L, 1);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            return luaL_error(L, "too many results to resume");
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1); /* the error */
    if (*sb_mark(co) != 0) return lua_error(L);
    int stat = lua_status(co);
    if (stat != LUA_OK && stat != LUA_YIELD) { /* an error in the coroutine: close it */
        stat = sb_closethread(co, L);
        lua_xmove(co, L, 1);
    }
    if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* coroutine.wrap: coroutine.create (upvalue 1), then sb_auxwrap. */
static int sb_cowrap(lua_State *L) {
    lua_CFunction create = lua_tocfunction(L, lua_upvalueindex(1));
    create(L); /* checks the function, pushes the coroutine */
    lua_pushcclosure(L, sb_auxwrap, 1);
    return 1;
}

/* load: text chunks only (the mode argument is always "t"). Compiling is C work that
 * need not allocate much (a long sum folds into one constant): the hook looks at the
 * clock at the next instruction. */
static int sb_load(lua_State *L) {
    if (lua_gettop(L) < 3) lua_settop(L, 3);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    int n = sb_call_original(L);
    sb_look_soon(L);
    return n;
}

/* collectgarbage: only the options that leave the collector running as it is; after a
 * collection the hook looks at the clock at the next instruction (a full collection of a
 * big heap is long, and a loop of them is a few instructions a collection). */
static int sb_collectgarbage(lua_State *L) {
    static const char *const allowed[] = {"collect", "count", "step", "isrunning", NULL};
    const char *opt = luaL_optstring(L, 1, "collect");
    for (int i = 0; allowed[i] != NULL; i++) {
        if (strcmp(opt, allowed[i]) != 0) continue;
        int n = sb_call_original(L);
        if (i == 0 || i == 2) sb_look_soon(L);
        return n;
    }
    return luaL_error(L, "collectgarbage: option '%s' is not allowed in the sandbox", opt);
}

/* Whether argument 1 is a table of 1,024 entries or more, or a string of 64 kB or more:
 * what a library function works through in C then takes long enough to look at the clock
 * after it. */
static int sb_long(lua_State *L) {
    int t = lua_type(L, 1);
    return (t == LUA_TTABLE && lua_rawlen(L, 1) >= 1024) || (t == LUA_TSTRING && lua_rawlen(L, 1) >= 65536);
}

/* table.insert, table.remove, table.sort, and the string and utf8 functions that work
 * through a string without making one as long (utf8.len, string.packsize, ...): on a long
 * table or string, the hook looks at the clock at the next instruction. */
static int sb_heavy(lua_State *L) {
    int heavy = sb_long(L);
    int n = sb_call_original(L);
    if (heavy) sb_look_soon(L);
    return n;
}

static void sb_wrap(lua_State *L, const char *name, lua_CFunction wrapper, int kind);

/* Wraps the functions `names` of the table on top of the stack with sb_heavy. */
static void sb_wrap_heavy(lua_State *L, const char *const *names) {
    for (int i = 0; names[i] != NULL; i++) sb_wrap(L, names[i], sb_heavy, 0);
}

/* Replaces t[name] (t on top of the stack) by a closure of `wrapper` whose upvalue 1 is the
 * original and upvalue 2 the integer `kind`. */
static void sb_wrap(lua_State *L, const char *name, lua_CFunction wrapper, int kind) {
    lua_getfield(L, -1, name);
    lua_pushinteger(L, kind);
    lua_pushcclosure(L, wrapper, 2);
    lua_setfield(L, -2, name);
}

static int sb_restrict_k(lua_State *L) {
    lua_pushthread(L); /* the key exists from now on: sb_running sets it allocating nothing */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &sb_running_key);
    lua_pushglobaltable(L);
    static const char *const removed[] = {"io", "package", "require", "debug", "dofile", "loadfile", NULL};
    for (int i = 0; removed[i] != NULL; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, removed[i]);
    }
    /* os: clock, time, date only */
    lua_getfield(L, -1, "os");
    lua_createtable(L, 0, 3);
    static const char *const kept[] = {"clock", "time", "date", NULL};
    for (int i = 0; kept[i] != NULL; i++) {
        lua_getfield(L, -2, kept[i]);
        lua_setfield(L, -2, kept[i]);
    }
    lua_setfield(L, -3, "os");
    lua_pop(L, 1);
    sb_wrap(L, "load", sb_load, 0);
    sb_wrap(L, "collectgarbage", sb_collectgarbage, 0);
    sb_wrap(L, "setmetatable", sb_setmetatable, 0);
    sb_wrap(L, "getmetatable", sb_getmetatable, 0);
    sb_wrap(L, "xpcall", sb_xpcall, 0);
    lua_getfield(L, -1, "table");
    sb_wrap(L, "move", sb_tmove, 0);
    static const char *const table_heavy[] = {"insert", "remove", "sort", "concat", "unpack", NULL};
    sb_wrap_heavy(L, table_heavy);
    lua_pop(L, 1);
    lua_getfield(L, -1, "coroutine");
    sb_wrap(L, "close", sb_coclose, 0);
    sb_wrap(L, "resume", sb_coresume, 0);
    lua_getfield(L, -1, "create");
    lua_pushcclosure(L, sb_cowrap, 1);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
    /* the string table is also the __index of the strings' metatable */
    lua_getfield(L, -1, "string");
    sb_wrap(L, "find", sb_pattern, 0);
    sb_wrap(L, "match", sb_pattern, 1);
    sb_wrap(L, "gmatch", sb_pattern, 2);
    sb_wrap(L, "gsub", sb_pattern, 3);
    sb_wrap(L, "rep", sb_rep, 0);
    static const char *const string_heavy[] = {"byte", "lower", "upper", "reverse", "sub", "format",
                                               "pack", "packsize", "unpack", NULL};
    sb_wrap_heavy(L, string_heavy);
    lua_pop(L, 1);
    lua_getfield(L, -1, "utf8");
    static const char *const utf8_heavy[] = {"len", "codepoint", "offset", NULL};
    sb_wrap_heavy(L, utf8_heavy);
    return 0;
}

int flua_sandbox_restrict(lua_State *L, flua_Sandbox *sb) {
    (void)sb;
    lua_pushcfunction(L, sb_restrict_k);
    return lua_pcall(L, 0, 0, 0);
}
