/* CLuaShims: the message handlers and the REPL's interrupts (SIGINT, the prompt's wait);
 * see include/luashims.h. With luashims.c, the only file that raises Lua errors (an
 * interrupt stops the running chunk with one). */
#define _GNU_SOURCE /* ppoll */
#include "luashims.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------- errors and tracebacks */

static volatile sig_atomic_t flua_pending = 0; /* an "interrupted!" is unwinding */

int flua_msghandler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) { /* error object is not a string */
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int flua_callback_msghandler(lua_State *L) {
    if (flua_pending) return 1; /* let the interrupt reach the top level as it is */
    return flua_msghandler(L);
}

static int flua_tostring_k(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

int flua_safetostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, flua_tostring_k);
    lua_pushvalue(L, idx);
    return lua_pcall(L, 1, 1, 0);
}

static int flua_prompt_k(lua_State *L) {
    if (lua_getglobal(L, lua_toboolean(L, 1) ? "_PROMPT" : "_PROMPT2") == LUA_TNIL)
        return 1;                   /* nil: the default */
    luaL_tolstring(L, -1, NULL);    /* [prompt value, string] */
    return 1;
}

int flua_getprompt(lua_State *L, int first) {
    lua_pushcfunction(L, flua_prompt_k);
    lua_pushboolean(L, first);
    return lua_pcall(L, 1, 1, 0);
}

/* ----------------------------------------------------------- interrupts, SIGINT */

static lua_State *volatile flua_globalL = NULL;
static volatile sig_atomic_t flua_prompt_flag = 0;
/* The prompt handler also writes a byte here, and the wait polls it: the kernel may run
 * the handler on any thread that does not block SIGINT, and then the main thread's ppoll
 * is not interrupted (seen as a Ctrl-C that did nothing until the next key). */
static int flua_prompt_pipe[2] = {-1, -1};

static void flua_drain_prompt_pipe(void) {
    char buf[64];
    if (flua_prompt_pipe[0] >= 0) {
        while (read(flua_prompt_pipe[0], buf, sizeof buf) > 0) {}
    }
}

static void flua_lstop(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0); /* reset hook */
    flua_pending = 1;
    luaL_error(L, "interrupted!");
}

void flua_interrupt(lua_State *L) {
    int flag = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;
    lua_sethook(L, flua_lstop, flag, 1);
}

int flua_interrupt_pending(void) { return flua_pending; }
void flua_interrupt_clear(void) { flua_pending = 0; }

static void flua_setsignal(int sig, void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = 0; /* no SA_RESTART: blocking calls return EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void flua_laction(int sig) {
    flua_setsignal(sig, SIG_DFL); /* if another SIGINT happens, terminate the process */
    if (flua_globalL) flua_interrupt(flua_globalL);
}

void flua_sigint_arm(lua_State *L) {
    flua_globalL = L;
    flua_setsignal(SIGINT, flua_laction);
}

void flua_sigint_disarm(void) { flua_setsignal(SIGINT, SIG_DFL); }

void flua_sigint_hold(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
}

void flua_sigint_release(void) { flua_sigint_unblock(); }

int flua_wait_input_or_wake(int fd, int wakefd) { return flua_wait_input_wake_or(fd, wakefd, NULL, 0, -1); }

int flua_wait_input_wake_or(int fd, int wakefd, const int *otherfds, int nother, int timeout_ms) {
    struct timespec limit = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    if (nother < 0 || !otherfds) nother = 0;
    for (;;) {
        if (flua_prompt_flag) {
            flua_prompt_flag = 0;
            flua_drain_prompt_pipe();
            return 0;
        }
        sigset_t during;
        sigprocmask(SIG_SETMASK, NULL, &during);
        sigdelset(&during, SIGINT);
        /* a negative fd is ignored by poll */
        struct pollfd p[3 + nother];
        p[0] = (struct pollfd){fd, POLLIN, 0};
        p[1] = (struct pollfd){flua_prompt_pipe[0], POLLIN, 0};
        p[2] = (struct pollfd){wakefd, POLLIN, 0};
        for (int i = 0; i < nother; i++) p[3 + i] = (struct pollfd){otherfds[i], POLLIN, 0};
        /* SIGINT can arrive in here */
        int r = ppoll(p, (nfds_t)(3 + nother), timeout_ms >= 0 ? &limit : NULL, &during);
        if (r < 0 && errno != EINTR) return -1;
        if (r == 0) return 3; /* the timeout */
        if (r <= 0 || p[1].revents) continue; /* a Ctrl-C: the flag is checked above */
        return p[0].revents ? 1 : p[2].revents ? 2 : 3;
    }
}

void flua_sigint_unblock(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void flua_promptaction(int sig) {
    (void)sig;
    int saved = errno;
    flua_prompt_flag = 1;
    if (flua_prompt_pipe[1] >= 0) (void)!write(flua_prompt_pipe[1], "", 1);
    errno = saved;
}

void flua_sigint_prompt(void) {
    if (flua_prompt_pipe[0] < 0 && pipe2(flua_prompt_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        flua_prompt_pipe[0] = flua_prompt_pipe[1] = -1;
    }
    flua_prompt_flag = 0;
    flua_drain_prompt_pipe();
    flua_setsignal(SIGINT, flua_promptaction);
}
