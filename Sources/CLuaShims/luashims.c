/* CLuaShims: see include/luashims.h. Only this file and interrupts.c raise Lua errors. */
#define _GNU_SOURCE /* ppoll */
#include "luashims.h"
#include "luasandbox.h"
#include "modulelife.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ------------------------------------------------------------------ trampoline */

#define FLUA_NAMES "flua.names"

void flua_namefunction(lua_State *L, const char *name) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, FLUA_NAMES) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 64);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode"); /* weak keys: a name never keeps a function alive */
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, FLUA_NAMES);
    }
    lua_pushvalue(L, -2);
    lua_pushstring(L, name);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

int flua_pushfunctionname(lua_State *L) {
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) return 0;
    lua_getinfo(L, "n", &ar);
    if (ar.name != NULL) {
        lua_pushstring(L, ar.name);
        return 1;
    }
    lua_getinfo(L, "f", &ar); /* pushes the running function */
    if (lua_getfield(L, LUA_REGISTRYINDEX, FLUA_NAMES) == LUA_TTABLE) {
        lua_pushvalue(L, -2);
        if (lua_rawget(L, -2) == LUA_TSTRING) {
            lua_replace(L, -3);
            lua_pop(L, 1);
            return 1;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return 0;
}

/* luaL_argerror, except that a bound function called without a name Lua can find (e.g.
 * `pcall(store.moveNode, store, ...)`, where luaL_argerror says '?') is named by the name
 * it was registered under. */
static int flua_argerror(lua_State *L, int arg, const char *extramsg) {
    lua_Debug ar;
    if (lua_getstack(L, 0, &ar)) {
        lua_getinfo(L, "n", &ar);
        if (ar.name == NULL) {
            lua_getinfo(L, "f", &ar); /* pushes the running function */
            if (lua_getfield(L, LUA_REGISTRYINDEX, FLUA_NAMES) == LUA_TTABLE) {
                lua_pushvalue(L, -2);
                if (lua_rawget(L, -2) == LUA_TSTRING)
                    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, lua_tostring(L, -1), extramsg);
            }
        }
    }
    return luaL_argerror(L, arg, extramsg);
}

/* 1 while the innermost code running on this thread is Lua code that Swift started with
 * flua_pcall_swift; 0 while a Swift function of the binding (trampolined, or a fast entry)
 * runs, and in the host's own Swift code outside any call. Only while it is 1 may a
 * sandbox's allocator refuse memory: anywhere else the memory error would unwind through a
 * Swift frame, or reach no protected call at all (see sandbox.c). */
_Thread_local int flua_in_lua = 0;
/* The state (thread) whose Swift function runs innermost on this thread, NULL outside one:
 * where a sandbox may collect garbage for Swift (flua_sandbox_collect). */
_Thread_local lua_State *flua_swift_L = NULL;

static inline int flua_callswift(lua_State *L, flua_SwiftFunction f) {
    int saved = flua_in_lua;
    lua_State *savedL = flua_swift_L;
    flua_in_lua = 0;
    flua_swift_L = L;
    int n = f(L);
    flua_in_lua = saved;
    flua_swift_L = savedL;
    return n;
}

int flua_pcall_swift(lua_State *L, int nargs, int nresults, int msgh) {
    int saved = flua_in_lua;
    flua_in_lua = 1;
    int status = lua_pcall(L, nargs, nresults, msgh);
    flua_in_lua = saved;
    return status;
}

/* Interprets the code `n` returned by a Swift function running in the current C frame. */
static int flua_finish(lua_State *L, int n) {
    flua_sandbox_afterswift(L); /* a sandbox's time or memory limit the call went past */
    if (n >= 0) return n;
    if (n == FLUA_ERROR) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (n < FLUA_ARGERROR_BASE) return flua_argerror(L, FLUA_ARGERROR_BASE - n, lua_tostring(L, -1));
    return lua_error(L); /* FLUA_RAISE */
}

int flua_trampoline(lua_State *L) {
    flua_SwiftFunction f = (flua_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    return flua_finish(L, flua_callswift(L, f)); /* the Swift frame is gone once f returns */
}

/* The Swift function behind the trampolined function at `idx` when it has no extra
 * upvalues (so it can run in the caller's frame), else NULL. */
static flua_SwiftFunction flua_swiftfunction(lua_State *L, int idx) {
    if (lua_tocfunction(L, idx) != flua_trampoline) return NULL;
    if (lua_getupvalue(L, idx, 2) != NULL) {
        lua_pop(L, 1);
        return NULL;
    }
    lua_getupvalue(L, idx, 1);
    flua_SwiftFunction f = (flua_SwiftFunction)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return f;
}

void flua_pushswiftfunction(lua_State *L, flua_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, flua_trampoline, 1);
}

void flua_pushswiftclosure(lua_State *L, flua_SwiftFunction f, int n) {
    lua_pushlightuserdata(L, (void *)f);
    lua_insert(L, -(n + 1));
    lua_pushcclosure(L, flua_trampoline, n + 1);
}

/* What a method whose arguments C reads (an SNN or a fields method) knows: the userdata block of the
 * receiver it is bound to (NULL before flua_bind_instance binds it), its Swift function, and
 * for a fields method the identities of its keys (the strings are the info's user values,
 * which anchor them). Kept in a userdata of its own, so that a call reads one upvalue. */
typedef struct {
    void *self;
    union {
        flua_SNNFunction snn;
        flua_FieldsFunction fields;
    } fast;
    int nkeys;
    int strings; /* keys 1... take strings (flua_pushfieldsmethod with `strings`), not numbers */
    const void *keys[FLUA_FIELDS_MAX];
} flua_FastInfo;

/* Pushes a new flua_FastInfo for `self`. With `from` (a stack index, or 0) its entry and
 * keys are copied from the info there, the keys' anchors included. */
static flua_FastInfo *flua_pushfastinfo(lua_State *L, void *self, int from, int nkeys) {
    const flua_FastInfo *old = NULL;
    if (from != 0) {
        from = lua_absindex(L, from);
        old = (const flua_FastInfo *)lua_touserdata(L, from);
        nkeys = old->nkeys;
    }
    flua_FastInfo *info = (flua_FastInfo *)lua_newuserdatauv(L, sizeof(flua_FastInfo), nkeys);
    memset(info, 0, sizeof *info);
    info->self = self;
    info->nkeys = nkeys;
    if (old != NULL) {
        info->fast = old->fast;
        info->strings = old->strings;
        memcpy(info->keys, old->keys, sizeof info->keys);
        for (int i = 1; i <= nkeys; i++) {
            lua_getiuservalue(L, from, i);
            lua_setiuservalue(L, -2, i);
        }
    }
    return info;
}

/* Runs the Swift function of an SNN or fields method with what C read (`read`, or NULL),
 * then interprets its code once its frame is gone. */
static int flua_runmethod(lua_State *L, const flua_FastInfo *info, void *object, const void *read, int snn) {
    int saved = flua_in_lua;
    lua_State *savedL = flua_swift_L;
    flua_in_lua = 0;
    flua_swift_L = L;
    int r = snn ? info->fast.snn(L, object, (const flua_SNN *)read)
                : info->fast.fields(L, object, (const flua_Fields *)read);
    flua_in_lua = saved;
    flua_swift_L = savedL;
    return flua_finish(L, r); /* the Swift frame is gone */
}

/* An SNN method (flua_pushsnnmethod). Upvalues: 1 its Swift function (a pointer), 2 the
 * receiver it is bound to (flua_bind_instance; before that, the class metatable), 3 its
 * flua_FastInfo. */
static int flua_snnmethod(lua_State *L) {
    void *self = lua_touserdata(L, 1);
    const flua_FastInfo *info = (const flua_FastInfo *)lua_touserdata(L, lua_upvalueindex(3));
    void *object = NULL;
    flua_SNN args;
    const flua_SNN *read = NULL;
    if (self != NULL && self == info->self) object = *(void **)self; /* NULL once closed */
    if (object != NULL && lua_type(L, 2) == LUA_TSTRING) {
        int isa, isb;
        args.a = lua_tonumberx(L, 3, &isa);
        args.b = lua_tonumberx(L, 4, &isb);
        if (isa && isb) {
            args.s = lua_tolstring(L, 2, &args.len);
            read = &args;
        }
    }
    return flua_runmethod(L, info, object, read, 1);
}

void flua_pushsnnmethod(lua_State *L, flua_SNNFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_insert(L, -2);
    flua_pushfastinfo(L, NULL, 0, 0)->fast.snn = f;
    lua_pushcclosure(L, flua_snnmethod, 3);
}

/* Reads the table at index 2 for a fields method: 1 when it names only the info's keys,
 * with a string for key 0 (copied to slot 3, pushed here) and numbers for the others
 * (strings when `info->strings`); 0 as soon as anything else turns up (the caller then
 * restores the stack). */
static int flua_readfields(lua_State *L, const flua_FastInfo *info, flua_Fields *f) {
    f->s = NULL;
    f->len = 0;
    f->given = 0;
    lua_pushnil(L); /* slot 3: the string of key 0 */
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
        /* a key's identity: short strings are interned; numbers and booleans give NULL */
        const void *k = lua_topointer(L, -2);
        int i = 0;
        while (i < info->nkeys && info->keys[i] != k) i++;
        if (i == info->nkeys) return 0;
        if (i == 0) {
            if (lua_type(L, -1) != LUA_TSTRING) return 0;
            f->s = lua_tolstring(L, -1, &f->len);
            lua_replace(L, 3); /* the bytes stay valid: the string stays on the stack */
        } else if (info->strings) {
            if (lua_type(L, -1) != LUA_TSTRING) return 0;
            f->strs[i - 1] = lua_tolstring(L, -1, &f->lens[i - 1]); /* the table holds it */
            lua_pop(L, 1);
        } else {
            int ok;
            f->v[i - 1] = lua_tonumberx(L, -1, &ok);
            if (!ok) return 0;
            lua_pop(L, 1);
        }
        f->given |= 1u << i;
    }
    return 1;
}

/* A fields method (flua_pushfieldsmethod); upvalues as flua_snnmethod's, upvalue 1
 * holding the same Swift function as the info. Every call runs that one function: with the
 * receiver's object when the receiver is the bound instance and open, and with the fields
 * when the call's table could be read here. */
static int flua_fieldsmethod(lua_State *L) {
    void *self = lua_touserdata(L, 1);
    const flua_FastInfo *info = (const flua_FastInfo *)lua_touserdata(L, lua_upvalueindex(3));
    void *object = NULL;
    flua_Fields fields;
    const flua_Fields *read = NULL;
    if (self != NULL && self == info->self) object = *(void **)self; /* NULL once closed */
    if (object != NULL && lua_gettop(L) == 2 && lua_type(L, 2) == LUA_TTABLE) {
        if (flua_readfields(L, info, &fields)) {
            read = &fields;
        } else {
            lua_settop(L, 2);
        }
    }
    return flua_runmethod(L, info, object, read, 0);
}

void flua_pushfieldsmethod(lua_State *L, flua_FieldsFunction f, int n, int strings) {
    int first = lua_gettop(L) - n + 1; /* the keys; the receiver slot right below them */
    int m = n > FLUA_FIELDS_MAX ? FLUA_FIELDS_MAX : n; /* tables naming the others are not read here */
    flua_FastInfo *info = flua_pushfastinfo(L, NULL, 0, m);
    info->fast.fields = f;
    info->strings = strings;
    for (int i = 0; i < m; i++) {
        lua_pushvalue(L, first + i);
        info->keys[i] = lua_topointer(L, -1);
        lua_setiuservalue(L, -2, i + 1); /* anchors the string, so its identity holds */
    }
    lua_replace(L, first);
    lua_settop(L, first); /* receiver slot, info */
    lua_pushlightuserdata(L, (void *)f);
    lua_insert(L, first - 1);
    lua_pushcclosure(L, flua_fieldsmethod, 3);
}

const char *flua_pushtypemessage(lua_State *L, int arg, const char *expected) {
    const char *actual;
    int tt = luaL_getmetafield(L, arg, "__name"); /* pushes nothing when absent */
    if (tt == LUA_TSTRING)
        actual = lua_tostring(L, -1);
    else {
        if (tt != LUA_TNIL) lua_pop(L, 1);
        actual = lua_type(L, arg) == LUA_TLIGHTUSERDATA ? "light userdata" : luaL_typename(L, arg);
    }
    lua_pushfstring(L, "%s expected, got %s", expected, actual);
    if (tt == LUA_TSTRING) lua_remove(L, -2); /* the __name value */
    return lua_tostring(L, -1);
}

/* ----------------------------------------------------------- bound-type fields */

/* The names a misspelt key is compared with are at most this long (longer keys get no
 * suggestion). */
#define FLUA_SUGGEST_MAX 48

/* Edit distance between a and b, ignoring case, where swapping two neighbouring letters
 * counts as one edit (optimal string alignment). Both at most FLUA_SUGGEST_MAX long. */
static int flua_editdistance(const char *a, size_t n, const char *b, size_t m) {
    int d[FLUA_SUGGEST_MAX + 1][FLUA_SUGGEST_MAX + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (ai != bj);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == bj && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* The largest distance at which a name of n bytes is taken as a misspelling of another. */
static int flua_suggestlimit(size_t n) { return n >= 6 ? 2 : 1; }

/* How far `key` is from the field name `name`: its edit distance, or that of `key` without
 * a leading get/set/is (`getNode` for `node`), whichever is smaller; a key of 4 or more
 * bytes that begins `name` counts as the largest distance still suggested. */
static int flua_namedistance(const char *key, size_t n, const char *name, size_t m) {
    int best = flua_editdistance(key, n, name, m);
    static const char *const prefixes[] = {"get", "set", "is"};
    for (int p = 0; p < 3; p++) {
        size_t k = strlen(prefixes[p]);
        if (n > k && strncmp(key, prefixes[p], k) == 0 && isupper((unsigned char)key[k])) {
            int d = flua_editdistance(key + k, n - k, name, m);
            if (d < best) best = d;
        }
    }
    /* the start of a longer name (`source` for `sourceNodeID`): a match, the weakest kind */
    if (n >= 4 && n < m && strncasecmp(key, name, n) == 0 && flua_suggestlimit(n) < best)
        best = flua_suggestlimit(n);
    return best;
}

/* The string key of the table at `t` (0: none) nearest to `key`, if near enough to be
 * what was meant (at most one edit for short names, two for longer ones), into *best
 * (ties go to the name first in byte order, so the message does not depend on table
 * order). */
static void flua_nearestkey(lua_State *L, int t, const char *key, size_t n, const char **best, int *bestd) {
    if (t == 0 || lua_type(L, t) != LUA_TTABLE || n > FLUA_SUGGEST_MAX) return;
    t = lua_absindex(L, t);
    int limit = flua_suggestlimit(n);
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) continue;
        size_t m;
        const char *name = lua_tolstring(L, -1, &m);
        if (m > FLUA_SUGGEST_MAX || (m >= 2 && name[0] == '_' && name[1] == '_')) continue;
        int d = flua_namedistance(key, n, name, m);
        if (d > limit || d > *bestd || (d == *bestd && *best && strcmp(name, *best) >= 0)) continue;
        *best = name; /* the table holds the key, so the string outlives this loop */
        *bestd = d;
    }
}

const char *flua_nearestword(const char *key, size_t n, const char *words, size_t *len) {
    const char *best = NULL;
    int bestd = INT_MAX;
    size_t bestm = 0;
    if (n > FLUA_SUGGEST_MAX) return NULL;
    int limit = flua_suggestlimit(n);
    for (const char *w = words; *w;) {
        size_t m = strcspn(w, " ");
        if (m > 0 && m <= FLUA_SUGGEST_MAX) {
            int d = flua_namedistance(key, n, w, m);
            /* ties: the first in the list, so the caller's order decides */
            if (d <= limit && d < bestd) { best = w; bestd = d; bestm = m; }
        }
        w += m;
        while (*w == ' ') w++;
    }
    if (best && len) *len = bestm;
    return best;
}

/* "T has no field 'k'", with "(did you mean 'x'?)" when a name in the tables at `t1` or
 * `t2` (0: none) is a likely misspelling of 'k'. */
static int flua_nofield(lua_State *L, int typename_up, int t1, int t2) {
    const char *tname = lua_tostring(L, lua_upvalueindex(typename_up));
    size_t n;
    const char *key = luaL_tolstring(L, 2, &n);
    const char *best = NULL;
    int bestd = INT_MAX;
    if (lua_type(L, 2) == LUA_TSTRING) {
        flua_nearestkey(L, t1, key, n, &best, &bestd);
        flua_nearestkey(L, t2, key, n, &best, &bestd);
    }
    if (best)
        return luaL_error(L, "%s has no field '%s' (did you mean '%s'?)", tname ? tname : "object", key, best);
    return luaL_error(L, "%s has no field '%s'", tname ? tname : "object", key);
}

int flua_index_dispatch(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1; /* method */
    lua_pop(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) { /* getter(self) */
        flua_SwiftFunction f = flua_swiftfunction(L, 3);
        if (f) { /* run it in this frame: its errors get the position of the Lua code */
            lua_settop(L, 1);
            return flua_finish(L, flua_callswift(L, f)) > 0 ? 1 : (lua_pushnil(L), 1);
        }
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        return 1;
    }
    lua_pop(L, 1);
    if (lua_toboolean(L, lua_upvalueindex(4)))
        return flua_nofield(L, 3, lua_upvalueindex(1), lua_upvalueindex(2)); /* methods, getters */
    lua_pushnil(L);
    return 1;
}

int flua_newindex_dispatch(lua_State *L) {
    lua_settop(L, 3);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) { /* setter(self, value) */
        flua_SwiftFunction f = flua_swiftfunction(L, 4);
        if (f) { /* run it in this frame, with the stack (self, value) */
            lua_settop(L, 3);
            lua_remove(L, 2);
            flua_finish(L, flua_callswift(L, f));
            return 0;
        }
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 3);
        lua_call(L, 2, 0);
        return 0;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TSTRING) /* a hint for this name */
        return luaL_error(L, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    int known = 0;
    lua_pushvalue(L, 2);
    known = lua_rawget(L, lua_upvalueindex(4)) != LUA_TNIL;
    lua_pop(L, 1);
    if (!known) {
        lua_pushvalue(L, 2);
        known = lua_rawget(L, lua_upvalueindex(5)) != LUA_TNIL;
        lua_pop(L, 1);
    }
    if (known) return luaL_error(L, "field '%s' is read-only", luaL_tolstring(L, 2, NULL));
    return flua_nofield(L, 3, lua_upvalueindex(1), 0); /* a setter it may have meant */
}

/* ------------------------------------------------------- instance metatables */

static char flua_k_bound_self; /* key of the receiver in an instance's method table */

/* __index of an instance method table (a name the table does not hold): the getter of that
 * name called with the receiver, else "T has no field 'k'". Upvalues: getters, type name,
 * strict. Stack: (methods table, key). */
static int flua_bound_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) { /* getter(self) */
        lua_rawgetp(L, 1, &flua_k_bound_self);         /* stack: t, key, getter, self */
        flua_SwiftFunction f = flua_swiftfunction(L, 3);
        if (f) {
            lua_replace(L, 1);
            lua_settop(L, 1);
            return flua_finish(L, flua_callswift(L, f)) > 0 ? 1 : (lua_pushnil(L), 1);
        }
        lua_call(L, 1, 1);
        return 1;
    }
    if (lua_toboolean(L, lua_upvalueindex(3))) return flua_nofield(L, 2, 1, lua_upvalueindex(1)); /* methods, getters */
    lua_pushnil(L);
    return 1;
}

void flua_bind_instance(lua_State *L, int ud, int classmt, const void *marker) {
    ud = lua_absindex(L, ud);
    classmt = lua_absindex(L, classmt);
    int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, FLUA_NAMES);
    int names = lua_gettop(L);
    /* the method table */
    lua_getfield(L, classmt, "__methods");
    int methods = lua_gettop(L);
    lua_createtable(L, 0, 160);
    int bound = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, methods) != 0) { /* key at -2, method at -1 */
        lua_CFunction cf = lua_tocfunction(L, -1);
        if (cf == flua_trampoline || cf == flua_snnmethod || cf == flua_fieldsmethod) {
            lua_getupvalue(L, -1, 1);         /* the Swift function (its pointer) */
            lua_pushvalue(L, ud);
            if (cf != flua_trampoline) {
                lua_getupvalue(L, -3, 3);     /* its flua_FastInfo */
                flua_pushfastinfo(L, lua_touserdata(L, ud), -1, 0);
                lua_remove(L, -2);
                lua_pushcclosure(L, cf, 3);
            } else {
                lua_pushcclosure(L, cf, 2);
            }
            if (lua_type(L, names) == LUA_TTABLE) { /* name it like the original */
                lua_pushvalue(L, -2);
                if (lua_rawget(L, names) == LUA_TSTRING) {
                    lua_pushvalue(L, -2);
                    lua_insert(L, -2);
                    lua_rawset(L, names);
                } else {
                    lua_pop(L, 1);
                }
            }
            lua_remove(L, -2);                /* the original */
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, bound);
    }
    lua_pushvalue(L, ud);
    lua_rawsetp(L, bound, &flua_k_bound_self);
    /* its metatable: getters of the class */
    lua_createtable(L, 0, 1);
    lua_getfield(L, classmt, "__fields");
    lua_getfield(L, classmt, "__name");
    lua_pushboolean(L, 1);
    lua_pushcclosure(L, flua_bound_index, 3);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, bound);
    /* the instance metatable: a copy of the class one with __index = the bound table */
    lua_createtable(L, 0, 16);
    int mt = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, classmt) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, mt);
    }
    lua_pushvalue(L, bound);
    lua_setfield(L, mt, "__index");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, mt, marker);
    lua_setmetatable(L, ud);
    lua_settop(L, top);
}

/* ----------------------------------------------------------------------- misc */

static int flua_openlibs_k(lua_State *L) {
    lua_CFunction flowopen = (lua_CFunction)lua_touserdata(L, 1);
    int stdlibs = lua_toboolean(L, 2), global = lua_toboolean(L, 3);
    if (stdlibs) luaL_openlibs(L);
    if (flowopen) {
        luaL_requiref(L, "flow", flowopen, global);
        lua_pop(L, 1);
    }
    return 0;
}

int flua_openlibs(lua_State *L, int stdlibs, lua_CFunction flowopen, int global) {
    lua_pushcfunction(L, flua_openlibs_k);
    lua_pushlightuserdata(L, (void *)flowopen);
    lua_pushboolean(L, stdlibs);
    lua_pushboolean(L, global);
    return lua_pcall(L, 3, 0, 0);
}

static int flua_print(lua_State *L) {
    flua_Writer w = (flua_Writer)lua_touserdata(L, lua_upvalueindex(1));
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    w(L, s, len);
    return 0;
}

/* The lazy function: requires upvalue 1 (a module name), then calls field upvalue 2 of
 * what it returns with the arguments, returning its results. C only, so that the errors of
 * require and of the call pass through no Swift frame. */
static int flua_lazy(lua_State *L) {
    int n = lua_gettop(L);
    lua_getglobal(L, "require");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 1, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_gettable(L, -2);
    lua_replace(L, -2);
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

void flua_pushlazy(lua_State *L, const char *module, const char *field) {
    lua_pushstring(L, module);
    lua_pushstring(L, field);
    lua_pushcclosure(L, flua_lazy, 2);
}

void flua_pushprint(lua_State *L, flua_Writer w) {
    lua_pushlightuserdata(L, (void *)w);
    lua_pushcclosure(L, flua_print, 1);
}

static const char flua_k_context = 'c', flua_k_cache = 'u', flua_k_types = 't', flua_k_null = 'n';
const void *flua_key_context(void) { return &flua_k_context; }
const void *flua_key_cache(void) { return &flua_k_cache; }
const void *flua_key_types(void) { return &flua_k_types; }
const void *flua_key_null(void) { return &flua_k_null; }

const char *flua_copyright(void) { return LUA_COPYRIGHT; }
const char *flua_release(void) { return LUA_RELEASE; }

int flua_open_repl_workspace(lua_State *L) {
    char why[1024];
    void *handle = flua_dlopen_beside("flowrepl-workspace.so", why, sizeof why);
    lua_CFunction open = handle ? (lua_CFunction)dlsym(handle, "luaopen_flow_workspace") : NULL;
    if (open == NULL) {
        return luaL_error(L, "flow.workspace: cannot load workspaces (%s); scripts/build-flowrepl builds them",
                          handle ? "flowrepl-workspace.so has no luaopen_flow_workspace" : why);
    }
    return open(L);
}
