/*
 * CLuaShims: the C side of the FlowScript Lua binding.
 *
 *  - static inline shims for the Lua macros Swift cannot import (prefix flua_);
 *  - the trampoline convention: every Lua-callable Swift function is called through
 *    flua_trampoline, which turns a negative return code into a Lua error AFTER the Swift
 *    frame has returned (see docs/binding-internals.md);
 *  - helpers that must raise (field dispatch for bound types), the traceback message
 *    handler, lua.c's SIGINT scheme, and a print that writes through a host callback.
 *
 * Nothing here is FlowScript-specific except the names; it uses only the public Lua API.
 */
#ifndef FLOW_LUASHIMS_H
#define FLOW_LUASHIMS_H

#include <stdbool.h>
#include <stddef.h>
#include "../../CLua/shim.h"

/* ---------------------------------------------------------------- constants */

static const int FLUA_REGISTRYINDEX = LUA_REGISTRYINDEX;

/* Return codes of a trampolined Swift function (n >= 0 means n results). */
#define FLUA_RAISE (-1)          /* raise the value on top of the stack, unchanged        */
#define FLUA_ERROR (-2)          /* message string on top: prefix luaL_where(L, 1), raise */
#define FLUA_ARGERROR_BASE (-16) /* FLUA_ARGERROR_BASE - k: luaL_argerror(L, k, top)      */

/* The code for "argument error #k, message on top of the stack" (k >= 1). */
static inline int flua_argerror_code(int arg) { return FLUA_ARGERROR_BASE - arg; }

/* ---------------------------------------------------------- macro shims (lua.h) */

static inline int flua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void flua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void flua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *flua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number flua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline lua_Integer flua_tointeger(lua_State *L, int i) { return lua_tointeger(L, i); }
static inline int flua_pcall(lua_State *L, int na, int nr, int mh) { return lua_pcall(L, na, nr, mh); }
static inline bool flua_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline bool flua_isnone(lua_State *L, int i) { return lua_isnone(L, i); }
static inline bool flua_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); }
static inline bool flua_istable(lua_State *L, int i) { return lua_istable(L, i); }
static inline bool flua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
static inline void flua_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void flua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void flua_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline void flua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline void flua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline void *flua_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }

/* ------------------------------------------------------ macro shims (lauxlib.h) */

static inline int fluaL_getmetatable(lua_State *L, const char *name) { return luaL_getmetatable(L, name); }
static inline const char *fluaL_typename(lua_State *L, int i) { return luaL_typename(L, i); }
static inline int fluaL_loadbuffer(lua_State *L, const char *s, size_t n, const char *name) {
    return luaL_loadbuffer(L, s, n, name);
}
static inline int fluaL_loadfile(lua_State *L, const char *fname) { return luaL_loadfile(L, fname); }

/* lua_gc is variadic: the calls lua.c makes. */
static inline void flua_gc_stop(lua_State *L) { lua_gc(L, LUA_GCSTOP); }
static inline void flua_gc_restart(lua_State *L) { lua_gc(L, LUA_GCRESTART); }
static inline void flua_gc_generational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }
/* A collection step as if `kb` kilobytes had been allocated. */
static inline void flua_gc_step(lua_State *L, int kb) { lua_gc(L, LUA_GCSTEP, kb); }

/* luaL_checkversion (raises on a mismatch: call it first, before any Swift value exists). */
static inline void fluaL_checkversion(lua_State *L) { luaL_checkversion(L); }

/* Opens the standard libraries (if `stdlibs`) and `luaL_requiref(L, "flow", flowopen,
 * global)` (if `flowopen`), in protected mode. Returns the lua_pcall status; on error the
 * message is on top of the stack. */
int flua_openlibs(lua_State *L, int stdlibs, lua_CFunction flowopen, int global);

/* ------------------------------------------------------------------ trampoline */

/* A Lua-callable Swift function: same C signature as lua_CFunction, but it returns a code
 * (see above) instead of raising. Never register one directly; push it with
 * flua_pushswiftfunction / flua_pushswiftclosure. */
typedef int (*flua_SwiftFunction)(lua_State *L);

/* The C function Lua actually calls: upvalue 1 is the Swift function pointer. */
int flua_trampoline(lua_State *L);

/* lua_pcall for Swift code: what Swift calls to run Lua code (a callback, a chunk). The
 * Lua code it runs is under a sandbox's memory cap; Swift code never is (see flua_in_lua
 * in luashims.c, and sandbox.c). */
int flua_pcall_swift(lua_State *L, int nargs, int nresults, int msgh);

/* Pushes the name of the running C function (the name Lua calls it by, else the one it was
 * registered under) and returns 1; returns 0 and pushes nothing when neither is known. */
int flua_pushfunctionname(lua_State *L);

/* Pushes `f` as a Lua function (a C closure of flua_trampoline). */
void flua_pushswiftfunction(lua_State *L, flua_SwiftFunction f);

/* Records `name` for the function on top of the stack (left there), for argument errors
 * raised when Lua cannot name the call itself ("bad argument #3 to 'setViewport'"). */
void flua_namefunction(lua_State *L, const char *name);

/* Like flua_pushswiftfunction, with the `n` values on top of the stack as extra upvalues.
 * Inside `f` they are at flua_upvalueindex(2) ... flua_upvalueindex(n + 1). */
void flua_pushswiftclosure(lua_State *L, flua_SwiftFunction f, int n);

/* The arguments C read for a call `obj:m(string, number, number)`: the string's bytes
 * (valid while the call runs: the string is on the stack) and the two numbers. */
typedef struct {
    const char *s;
    size_t len;
    double a;
    double b;
} flua_SNN;

/* The one Swift function of a method called in hot loops as `obj:m(string, number,
 * number)`, like `store:moveNode(id, x, y)`: every call of the method runs it. `object` is
 * the receiver's object pointer when the receiver is the instance the method is bound to
 * and is open, else NULL (the function checks the receiver itself, and raises its errors).
 * `args` is what C read when the call has that shape (numbers, or strings Lua converts),
 * else NULL (the function reads its arguments itself). Returns what a trampolined function
 * returns; it must not raise. */
typedef int (*flua_SNNFunction)(lua_State *L, void *object, const flua_SNN *args);

/* Pushes an SNN method: like flua_pushswiftclosure(L, f, 1), the value on top of the stack
 * becoming upvalue 2 (the receiver slot of flua_bind_instance). Once bound to an instance,
 * a call whose receiver is that instance, with a string and two numbers, reaches `f` with
 * the arguments read in C (no trampoline, no Swift argument reading). */
void flua_pushsnnmethod(lua_State *L, flua_SNNFunction f);

/* The fields C read from the argument table of a fields method (see flua_FieldsFunction):
 * the string field (key 0) as bytes, valid while the call runs (a copy of the string is kept
 * in stack slot 3), and the numbers of keys 1... (or, for a method of string keys, their
 * strings' bytes in `strs`/`lens`, valid while the table holds them); bit i of `given` is set
 * when key i was present. */
#define FLUA_FIELDS_MAX 8
typedef struct {
    const char *s;
    size_t len;
    unsigned given;
    double v[FLUA_FIELDS_MAX - 1];
    const char *strs[FLUA_FIELDS_MAX - 1];
    size_t lens[FLUA_FIELDS_MAX - 1];
} flua_Fields;

/* The one Swift function of a method whose argument is a table of known keys, like
 * `store:addNode{...}`: every call of the method runs it. `object` is the receiver's object
 * pointer when the receiver is the instance the method is bound to and is open, else NULL
 * (the function checks the receiver itself, and raises its errors). `fields` is what C read
 * when the call is `obj:m(t)` on that instance with a table naming only the method's keys,
 * key 0 with a string and the others with numbers (or strings Lua converts; strings only for
 * a method of string keys); the stack then holds the receiver (1), the table (2) and the
 * string of key 0 or nil (3). Else it is NULL and the function reads the table itself.
 * Returns what a trampolined function returns; it must not raise. */
typedef int (*flua_FieldsFunction)(lua_State *L, void *object, const flua_Fields *fields);

/* Pushes a fields method: the `n` short strings on top of the stack are its keys (at most
 * FLUA_FIELDS_MAX are read in C; the first is the string field, the others take numbers, or
 * strings when `strings`), above the receiver-slot value (upvalue 2, as for
 * flua_pushsnnmethod); all are replaced by the method. The keys are matched by identity
 * (their interned strings are anchored with the method). */
void flua_pushfieldsmethod(lua_State *L, flua_FieldsFunction f, int n, int strings);

/* ------------------------------------------------------------- batch lists */

/* One entry of a store:addNodes / store:addEdges list, read by flua_readentries: bit i of
 * `given` is set when key i is present; a string key's bytes are in str/len (valid while the
 * list holds the entry), a number key's value in num. Keys, in order:
 *   FLUA_NODE_ENTRY: id, x, y, width, height, parentID (id and parentID strings)
 *   FLUA_EDGE_ENTRY: id, sourceNodeID, targetNodeID, sourceHandleID, targetHandleID, label,
 *                    parentID, pathType (all strings) */
#define FLUA_ENTRY_KEYS 8
#define FLUA_NODE_ENTRY 0
#define FLUA_EDGE_ENTRY 1
typedef struct {
    unsigned given;
    double num[FLUA_ENTRY_KEYS];
    const char *str[FLUA_ENTRY_KEYS];
    size_t len[FLUA_ENTRY_KEYS];
} flua_Entry;

/* The bytes of string key `k` of an entry and their length; NULL when the key is absent. */
static inline const char *flua_entrystring(const flua_Entry *e, int k, size_t *len) {
    if (!(e->given & (1u << k))) return NULL;
    *len = e->len[k];
    return e->str[k];
}

/* Whether number key `k` of an entry is present; its value in `*v`. */
static inline int flua_entrynumber(const flua_Entry *e, int k, double *v) {
    if (!(e->given & (1u << k))) return 0;
    *v = e->num[k];
    return 1;
}

/* Reads the entries list[from], list[from + 1], ... (at most `count`) of the table at
 * `list` into out[0...], each a table naming only keys of `kind` with values of their type
 * (a number key also takes a string Lua converts). Stops at the first entry that is
 * anything else (not a table, another key, a value of another type: the caller reads that
 * one itself) and returns how many it read. Never raises (Swift may call it directly) and
 * leaves the stack as it was. */
int flua_readentries(lua_State *L, int list, lua_Integer from, int count, int kind, flua_Entry *out);

/* The column form of the same calls (store:addNodes{id = ids, x = xs, ...}): reads items
 * from, from + 1, ... (at most `count`) into out[0...]. `at[i]` is the stack index of key
 * i's value (0: absent); bit i of `columns` is set when that value is a column (a table
 * whose element `from + k` is item from + k's value), else it is the same for every item.
 * Values are taken as flua_readentries takes them; stops at the first item with a value of
 * another type (nil, flow.null: the caller reads that item itself) and returns how many it
 * read. Never raises and leaves the stack as it was. */
int flua_readcolumns(lua_State *L, const int *at, unsigned columns, lua_Integer from, int count, int kind,
                     flua_Entry *out);

/* Pushes the argument-type message luaL_typeerror would raise ("number expected, got
 * string"; it honours __name and light userdata) without raising. */
const char *flua_pushtypemessage(lua_State *L, int arg, const char *expected);

/* The word of `words` (names separated by spaces) that `key` (n bytes) most likely
 * misspells, or NULL: ignoring case, a swap of two neighbouring letters counted as one
 * edit, a get/set/is prefix dropped, at most one edit for names under 6 bytes and two for
 * longer ones, or the first 4 or more bytes of a longer name; ties go to the earlier word.
 * *len gets its length. Pure C: never raises. The binding's "has no field" errors use the
 * same measure. */
const char *flua_nearestword(const char *key, size_t n, const char *words, size_t *len);

/* ----------------------------------------------------------- bound-type fields */

/* __index for bound types. Upvalues: 1 methods table, 2 getters table (name -> function
 * called as getter(self)), 3 type name (string), 4 strict flag (boolean).
 * Looks up methods, then getters; an unknown key raises "<Type> has no field 'k'" when
 * strict, else returns nil. A trampolined getter/setter without extra upvalues runs in the
 * dispatcher's own frame (no extra call), so its FLUA_ERROR messages carry the position of
 * the Lua code that read or assigned the field. */
int flua_index_dispatch(lua_State *L);

/* __newindex for bound types. Upvalues: 1 setters table (name -> function called as
 * setter(self, value)), 2 read-only hints (name -> message), 3 type name, 4 getters table,
 * 5 methods table. Unknown keys raise "<Type> has no field 'k'"; methods, getters without
 * a setter and hinted names raise the hint or "field 'k' is read-only". */
int flua_newindex_dispatch(lua_State *L);

/* Instance metatables (for a type whose methods are called in hot loops, like Store): gives
 * the userdata at `ud` a metatable of its own, a copy of the class metatable at `classmt`
 * (plus `mt[marker] = true`) whose __index is a table holding every method of the class's
 * `__methods` rebound to this userdata: a trampolined method becomes a closure of the same
 * Swift function with the userdata as its extra upvalue (so the method recognises its
 * receiver with one rawequal), named as the original for argument errors; a method whose
 * arguments C reads (flua_pushsnnmethod, flua_pushfieldsmethod) keeps its reader. The class's
 * `__fields` getters are reached through that table's metatable (`flua_bound_index`):
 * method look-up is a plain table look-up, with no C __index call. Leaves the stack as it
 * was. */
void flua_bind_instance(lua_State *L, int ud, int classmt, const void *marker);

/* ------------------------------------------------------- errors and tracebacks */

/* lua.c's message handler: string messages (or values with __tostring) get a traceback;
 * other values become "(error object is a <type> value)" plus a traceback. */
int flua_msghandler(lua_State *L);

/* Calls luaL_tolstring on the value at `idx` in protected mode (it may run __tostring).
 * On success pushes the string and returns LUA_OK; on error pushes the error value. */
int flua_safetostring(lua_State *L, int idx);

/* lua.c's get_prompt in protected mode: reads the global _PROMPT (first != 0) or _PROMPT2
 * and pushes it converted by luaL_tolstring (__tostring and __name apply), or nil when the
 * global is nil (the default prompt). Returns the lua_pcall status; on error the error value
 * is pushed instead. */
int flua_getprompt(lua_State *L, int first);

/* Like flua_msghandler, for callbacks that Swift calls: an interrupt passes through
 * unchanged (so the top level reports it once, with its own traceback). */
int flua_callback_msghandler(lua_State *L);

/* ----------------------------------------------------------- interrupts, SIGINT */

/* Asks the running Lua code of `L` to stop: the next hook event raises "interrupted!".
 * Safe to call from a signal handler or another thread (lua_sethook is). */
void flua_interrupt(lua_State *L);

/* Non-zero while an "interrupted!" error raised by the hook is unwinding. Callbacks use it
 * to propagate an interrupt instead of reporting it. Hosts clear it at top level. */
int flua_interrupt_pending(void);
void flua_interrupt_clear(void);

/* lua.c's scheme around a protected call: arm installs a SIGINT handler that interrupts
 * `L` (the handler resets SIGINT to the default, so a second ^C kills); disarm restores
 * the default action. */
void flua_sigint_arm(lua_State *L);
void flua_sigint_disarm(void);

/* flowrepl's package.preload["flow.workspace"]: opens flowrepl-workspace.so beside the
 * executable (flua_dlopen_beside, modulelife.h) and returns what its luaopen_flow_workspace
 * returns; raises when the module cannot be loaded. */
int flua_open_repl_workspace(lua_State *L);

/* The prompt's scheme: a SIGINT handler that only sets a flag and writes a byte to a pipe
 * that flua_wait_input_or_wake polls, so the wait ends whichever thread the kernel runs the
 * handler on. Installed without SA_RESTART; clears the flag and the pipe. */
void flua_sigint_prompt(void);

/* Blocks / unblocks SIGINT for the calling thread. The prompt holds SIGINT while it is not
 * waiting, so a Ctrl-C can only be delivered inside flua_wait_input_or_wake and is never lost. */
void flua_sigint_hold(void);
void flua_sigint_release(void);

/* Waits until `fd` is readable (1), `wakefd` is readable (2: the live preview's wake pipe,
 * a page sent a request; -1 for none) or a Ctrl-C arrives with the prompt handler installed
 * (0; the flag is consumed); -1 on error. SIGINT must be held by the caller: it is unblocked
 * only atomically inside ppoll. Other signals (SIGWINCH) just continue the wait. */
int flua_wait_input_or_wake(int fd, int wakefd);

/* flua_wait_input_or_wake that also returns 3 when one of the `nother` descriptors at
 * `otherfds` is readable (the shared workspaces' database connections: another session
 * committed; NULL and 0 for none) or when `timeout_ms` passed (-1: no timeout). */
int flua_wait_input_wake_or(int fd, int wakefd, const int *otherfds, int nother, int timeout_ms);

/* Unblocks SIGINT for the calling thread: a parent may have spawned us with it blocked
 * (e.g. from a thread of a thread pool), which would make Ctrl-C / kill -INT do nothing. */
void flua_sigint_unblock(void);

/* ----------------------------------------------------------------------- misc */

/* The writer a host gives print: receives the whole line (tabs and '\n' included). */
typedef void (*flua_Writer)(lua_State *L, const char *s, size_t len);

/* Pushes a `print` replacement that formats like luaB_print and hands each line to `w`. */
void flua_pushprint(lua_State *L, flua_Writer w);

/* Pushes a function that, when called, does `require(module)` and calls its field `field`
 * with the arguments, returning its results (`flow.workspace` loads the module
 * `flow.workspace` on its first call). Errors are raised in C, past no Swift frame. */
void flua_pushlazy(lua_State *L, const char *module, const char *field);

/* stdio streams (Swift 6 rejects the C globals as shared mutable state). */
#include <stdio.h>
static inline FILE *flua_stdout(void) { return stdout; }
static inline FILE *flua_stderr(void) { return stderr; }
static inline FILE *flua_stdin(void) { return stdin; }

/* A unique address for lua_rawgetp keys in the registry. */
const void *flua_key_context(void);
const void *flua_key_cache(void);
const void *flua_key_types(void);
const void *flua_key_null(void);

/* LUA_COPYRIGHT / LUA_RELEASE (string macros Swift cannot import). */
const char *flua_copyright(void);
const char *flua_release(void);

#endif
