/* CLuaShims: the readers of the batch adds (store:addNodes, store:addEdges), a list of
 * entry tables or a table of columns. They read only with functions that cannot raise
 * (lua_rawgeti, lua_next over keys it was given, lua_tolstring of strings, lua_tonumberx),
 * so Swift may call them directly. */
#include "luashims.h"

#include <string.h>

typedef struct {
    int n;
    const char *names[FLUA_ENTRY_KEYS];
    unsigned strings; /* bit i: key i takes a string (else a number) */
} flua_EntryKeys;

static const flua_EntryKeys flua_nodekeys = {
    6, {"id", "x", "y", "width", "height", "parentID"}, (1u << 0) | (1u << 5)};
static const flua_EntryKeys flua_edgekeys = {
    8,
    {"id", "sourceNodeID", "targetNodeID", "sourceHandleID", "targetHandleID", "label", "parentID", "pathType"},
    0xffu};

/* The key index of the key on top-1 of the stack, or -1. `seen[i]` is the string of key i
 * once met (NULL before): Lua interns short strings, so every entry names key i with that
 * same string, and it is matched by identity; only its first appearance is compared by
 * its bytes. (The list holds the string while the list is read.) */
static int flua_entrykey(lua_State *L, const flua_EntryKeys *keys, const void **seen) {
    if (lua_type(L, -2) != LUA_TSTRING) return -1;
    const void *p = lua_topointer(L, -2);
    for (int i = 0; i < keys->n; i++)
        if (seen[i] == p) return i;
    size_t len;
    const char *k = lua_tolstring(L, -2, &len);
    for (int i = 0; i < keys->n; i++) {
        const char *name = keys->names[i];
        if (strlen(name) == len && memcmp(name, k, len) == 0) {
            seen[i] = p;
            return i;
        }
    }
    return -1;
}

/* Reads the value on top of the stack as key i into `e`; 0 when it is of another type. */
static int flua_readvalue(lua_State *L, const flua_EntryKeys *keys, int i, flua_Entry *e) {
    if (keys->strings & (1u << i)) {
        if (lua_type(L, -1) != LUA_TSTRING) return 0;
        /* the entry (or the column) holds the string while the call reads it */
        e->str[i] = lua_tolstring(L, -1, &e->len[i]);
    } else {
        int ok;
        e->num[i] = lua_tonumberx(L, -1, &ok);
        if (!ok) return 0;
    }
    e->given |= 1u << i;
    return 1;
}

/* Reads one entry table (on top of the stack) into `e`; 0 when it holds anything else.
 * Leaves the stack above the entry for the caller to clear. */
static int flua_readentry(lua_State *L, const flua_EntryKeys *keys, const void **seen, flua_Entry *e) {
    e->given = 0;
    int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        int i = flua_entrykey(L, keys, seen);
        if (i < 0 || !flua_readvalue(L, keys, i, e)) return 0;
        lua_settop(L, t + 1); /* the key, for lua_next */
    }
    return 1;
}

static const flua_EntryKeys *flua_keysof(int kind) {
    return kind == FLUA_EDGE_ENTRY ? &flua_edgekeys : &flua_nodekeys;
}

int flua_readentries(lua_State *L, int list, lua_Integer from, int count, int kind, flua_Entry *out) {
    const flua_EntryKeys *keys = flua_keysof(kind);
    const void *seen[FLUA_ENTRY_KEYS] = {NULL};
    list = lua_absindex(L, list);
    int top = lua_gettop(L);
    int k = 0;
    for (; k < count; k++) {
        int ok = lua_rawgeti(L, list, from + k) == LUA_TTABLE && flua_readentry(L, keys, seen, &out[k]);
        lua_settop(L, top);
        if (!ok) break;
    }
    return k;
}

/* Reads item `item` of the columns into `e`: the keys of `scalars` from `same` (the values
 * that are not columns, read once per call), those of `columns` from their columns; 0 when
 * a value is of another type. */
static int flua_readitem(lua_State *L, const flua_EntryKeys *keys, const int *at, unsigned columns,
                         const flua_Entry *same, unsigned scalars, lua_Integer item, flua_Entry *e) {
    e->given = same->given;
    for (unsigned m = scalars; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        e->num[i] = same->num[i];
        e->str[i] = same->str[i];
        e->len[i] = same->len[i];
    }
    for (unsigned m = columns; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        lua_rawgeti(L, at[i], item); /* [.., value] */
        int ok = flua_readvalue(L, keys, i, e);
        lua_pop(L, 1);
        if (!ok) return 0;
    }
    return 1;
}

int flua_readcolumns(lua_State *L, const int *at, unsigned columns, lua_Integer from, int count, int kind,
                     flua_Entry *out) {
    const flua_EntryKeys *keys = flua_keysof(kind);
    /* a value that is not a column is the same for every item: read once (a string stays
     * on the stack while the call reads) */
    flua_Entry same = {0};
    unsigned scalars = 0;
    for (int i = 0; i < keys->n; i++) {
        if (at[i] == 0 || (columns & (1u << i))) continue;
        lua_pushvalue(L, at[i]); /* [.., value] */
        int ok = flua_readvalue(L, keys, i, &same);
        lua_pop(L, 1);
        if (!ok) return 0;
        scalars |= 1u << i;
    }
    int k = 0;
    while (k < count && flua_readitem(L, keys, at, columns, &same, scalars, from + k, &out[k])) k++;
    return k;
}
