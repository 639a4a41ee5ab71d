#include "flowpq.h"
#include <dlfcn.h>
#include <stddef.h>
#include <postgresql/libpq-fe.h>

// The libpq functions used, looked up once.
static struct {
    PGconn *(*connectdb)(const char *);
    ConnStatusType (*status)(const PGconn *);
    char *(*errorMessage)(const PGconn *);
    void (*finish)(PGconn *);
    void (*reset)(PGconn *);
    PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*resultStatus)(const PGresult *);
    char *(*resultErrorMessage)(const PGresult *);
    char *(*resultErrorField)(const PGresult *, int);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*getvalue)(const PGresult *, int, int);
    int (*getisnull)(const PGresult *, int, int);
    void (*clear)(PGresult *);
    int (*socket)(const PGconn *);
    int (*consumeInput)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
    PQnoticeProcessor (*setNoticeProcessor)(PGconn *, PQnoticeProcessor, void *);
} pq;
static int loaded = 0;

const char *fpq_load(void) {
    if (loaded) return NULL;
    void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) return "libpq (libpq5) is not installed; PostgreSQL workspaces need it";
#define LOOK(field, name) if (!(*(void **)&pq.field = dlsym(h, name))) return "libpq lacks " name;
    LOOK(connectdb, "PQconnectdb") LOOK(status, "PQstatus") LOOK(errorMessage, "PQerrorMessage")
    LOOK(finish, "PQfinish") LOOK(reset, "PQreset") LOOK(execParams, "PQexecParams")
    LOOK(resultStatus, "PQresultStatus") LOOK(resultErrorMessage, "PQresultErrorMessage")
    LOOK(resultErrorField, "PQresultErrorField") LOOK(ntuples, "PQntuples") LOOK(nfields, "PQnfields") LOOK(getvalue, "PQgetvalue")
    LOOK(getisnull, "PQgetisnull") LOOK(clear, "PQclear") LOOK(socket, "PQsocket")
    LOOK(consumeInput, "PQconsumeInput") LOOK(notifies, "PQnotifies") LOOK(freemem, "PQfreemem")
    LOOK(setNoticeProcessor, "PQsetNoticeProcessor")
#undef LOOK
    loaded = 1;
    return NULL;
}

// The server's notices ("terminating connection due to administrator command") are not
// printed: the workspace says what happens to the session's changes itself.
static void quiet(void *arg, const char *message) { (void)arg; (void)message; }

void *fpq_connect(const char *conninfo) {
    PGconn *c = pq.connectdb(conninfo);
    if (c) pq.setNoticeProcessor(c, quiet, NULL);
    return c;
}
int fpq_ok(void *c) { return c && pq.status(c) == CONNECTION_OK; }
const char *fpq_error(void *c) { return c ? pq.errorMessage(c) : "out of memory"; }
void fpq_finish(void *c) { if (c) pq.finish(c); }
int fpq_reset(void *c) { pq.reset(c); return pq.status(c) == CONNECTION_OK; }

void *fpq_exec(void *c, const char *sql, int count, const char *const *values) {
    return pq.execParams(c, sql, count, NULL, values, NULL, NULL, 0);
}

int fpq_status(void *r) {
    if (!r) return 2;
    switch (pq.resultStatus(r)) {
    case PGRES_COMMAND_OK: return 0;
    case PGRES_TUPLES_OK: return 1;
    default: return 2;
    }
}
const char *fpq_result_error(void *r) { return r ? pq.resultErrorMessage(r) : "no result (out of memory or the connection was lost)"; }
const char *fpq_sqlstate(void *r) {
    const char *s = r ? pq.resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return s ? s : "";
}
int fpq_rows(void *r) { return pq.ntuples(r); }
int fpq_columns(void *r) { return pq.nfields(r); }
const char *fpq_value(void *r, int row, int column) { return pq.getvalue(r, row, column); }
int fpq_is_null(void *r, int row, int column) { return pq.getisnull(r, row, column); }
void fpq_clear(void *r) { if (r) pq.clear(r); }
int fpq_socket(void *c) { return c ? pq.socket(c) : -1; }

int fpq_notifications(void *c) {
    if (!c || !pq.consumeInput(c)) return -1;
    int n = 0;
    PGnotify *note;
    while ((note = pq.notifies(c)) != NULL) {
        n++;
        pq.freemem(note);
    }
    return n;
}
