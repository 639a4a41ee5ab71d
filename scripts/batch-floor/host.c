/* The floor of the batch adds' shapes in plain Lua 5.4 (issue #42): a Lua host whose
 * `toggle()` switches callgrind's collection, and C readers of a list of entry tables and
 * of columns, each written with the fewest Lua API calls for its shape. See ./run. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <string.h>
#include <valgrind/callgrind.h>

static volatile double sinknum;
static volatile size_t sinklen;

/* Keeps value -1 (a string's length or a number) so the read is not optimised away. */
static void take(lua_State *L, int type) {
    if (type == LUA_TSTRING) {
        size_t len;
        lua_tolstring(L, -1, &len);
        sinklen = len;
    } else {
        int ok;
        sinknum = lua_tonumberx(L, -1, &ok);
    }
}

static int toggle(lua_State *L) {
    (void)L;
    CALLGRIND_TOGGLE_COLLECT;
    return 0;
}

/* fetch(list): each entry pushed and popped (lua_rawgeti), nothing read. */
static int fetch(lua_State *L) {
    lua_settop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_settop(L, 1);
    }
    return 0;
}

/* walk(list): each entry's keys visited by lua_next, nothing read. */
static int walk(lua_State *L) {
    lua_settop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_pushnil(L);
        while (lua_next(L, 2) != 0) lua_settop(L, 3);
        lua_settop(L, 1);
    }
    return 0;
}

/* read(list): as the batch adds' C reader: lua_next over each entry, each key matched by
 * identity after its first appearance, each value read. */
static int readentries(lua_State *L) {
    static const char *names[] = {"id", "x", "y", "width", "height", "sourceNodeID", "targetNodeID"};
    enum { K = sizeof names / sizeof *names };
    const void *seen[K] = {0};
    lua_settop(L, 1);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        lua_pushnil(L);
        while (lua_next(L, 2) != 0) {
            const void *p = lua_topointer(L, -2);
            int k = -1;
            for (int j = 0; j < K && k < 0; j++)
                if (seen[j] == p) k = j;
            for (int j = 0; j < K && k < 0; j++) {
                size_t len;
                const char *s = lua_tolstring(L, -2, &len);
                if (strlen(names[j]) == len && memcmp(names[j], s, len) == 0) seen[j] = p, k = j;
            }
            take(L, lua_type(L, -1));
            lua_settop(L, 3);
        }
        lua_settop(L, 1);
    }
    return 0;
}

/* get(list, key...): the given keys of each entry by lua_rawget (no check for others). */
static int get(lua_State *L) {
    int keys = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, i);
        for (int j = 2; j <= keys; j++) {
            lua_pushvalue(L, j);
            take(L, lua_rawget(L, keys + 1));
            lua_settop(L, keys + 1);
        }
        lua_settop(L, keys);
    }
    return 0;
}

/* columns(a, b, ...): item i is a[i], b[i], ... (lua_rawgeti). */
static int columns(lua_State *L) {
    int c = lua_gettop(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
    for (lua_Integer i = 1; i <= n; i++)
        for (int j = 1; j <= c; j++) {
            take(L, lua_rawgeti(L, j, i));
            lua_settop(L, c);
        }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    lua_register(L, "toggle", toggle);
    lua_register(L, "fetch", fetch);
    lua_register(L, "walk", walk);
    lua_register(L, "read", readentries);
    lua_register(L, "get", get);
    lua_register(L, "columns", columns);
    lua_newtable(L);
    for (int i = 2; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - 1);
    }
    lua_setglobal(L, "arg");
    if (luaL_dofile(L, argv[1])) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
    }
    return 0;
}
