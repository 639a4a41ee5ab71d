/*
 * The loadable module's lifetime: `lua_close` unloads the C modules a state required
 * (dlclose), while threads the module started may still run its code.
 */
#ifndef FLOW_MODULELIFE_H
#define FLOW_MODULELIFE_H

/* Marks the shared object that holds this function as never to be unloaded (it reopens
 * itself with RTLD_NODELETE | RTLD_NOLOAD), so that it, and the libraries it uses, stay
 * mapped until the process ends. Returns 1 when done, 0 when the object was not found. */
int flua_stay_loaded(void);

/* The same for the shared object that holds `address` (a loadable module of its own, such
 * as flow/workspace.so, whose threads outlive its state). */
int flua_keep_loaded(const void *address);

/* The entry point of the module `flow.workspace`, defined (@_cdecl) by the FlowLuaWorkspace
 * target. Declared here so that a host that links that target registers it in
 * package.preload without importing it (and with it Foundation) into its own sources. */
struct lua_State;
int luaopen_flow_workspace(struct lua_State *L);

/* Opens the shared object `file` from the directory of the running executable
 * (/proc/self/exe), RTLD_NOW | RTLD_LOCAL, never to be closed: flowrepl's modules, loaded on
 * first use. NULL on failure, with the reason in `why` (at most `size` bytes). */
void *flua_dlopen_beside(const char *file, char *why, unsigned long size);

#endif
