/* CLuaShims: the list reader of the batch adds (store:addNodes, store:addEdges). It reads
 * only with functions that cannot raise (lua_rawgeti, lua_next over keys it was given,
 * lua_tolstring of strings, lua_tonumberx), so Swift may call it directly. */
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

/* The key index of the string key on top-1 of the stack, or -1. */
static int flua_entrykey(lua_State *L, const flua_EntryKeys *keys) {
    if (lua_type(L, -2) != LUA_TSTRING) return -1;
    size_t len;
    const char *k = lua_tolstring(L, -2, &len);
    for (int i = 0; i < keys->n; i++) {
        const char *name = keys->names[i];
        if (name[0] == k[0] && strlen(name) == len && memcmp(name, k, len) == 0) return i;
    }
    return -1;
}

/* Reads one entry table (on top of the stack) into `e`; 0 when it holds anything else. */
static int flua_readentry(lua_State *L, const flua_EntryKeys *keys, flua_Entry *e) {
    e->given = 0;
    int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        int i = flua_entrykey(L, keys);
        if (i < 0) {
            lua_settop(L, t);
            return 0;
        }
        if (keys->strings & (1u << i)) {
            if (lua_type(L, -1) != LUA_TSTRING) {
                lua_settop(L, t);
                return 0;
            }
            /* the entry holds the string while the list holds the entry */
            e->str[i] = lua_tolstring(L, -1, &e->len[i]);
        } else {
            int ok;
            e->num[i] = lua_tonumberx(L, -1, &ok);
            if (!ok) {
                lua_settop(L, t);
                return 0;
            }
        }
        e->given |= 1u << i;
        lua_pop(L, 1);
    }
    return 1;
}

int flua_readentries(lua_State *L, int list, lua_Integer from, int count, int kind, flua_Entry *out) {
    const flua_EntryKeys *keys = kind == FLUA_EDGE_ENTRY ? &flua_edgekeys : &flua_nodekeys;
    list = lua_absindex(L, list);
    int top = lua_gettop(L);
    int k = 0;
    for (; k < count; k++) {
        if (lua_rawgeti(L, list, from + k) != LUA_TTABLE || !flua_readentry(L, keys, &out[k])) break;
        lua_settop(L, top);
    }
    lua_settop(L, top);
    return k;
}
