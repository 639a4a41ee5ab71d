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

#endif
