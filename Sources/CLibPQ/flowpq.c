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
    // pipeline mode (libpq 14 and later; NULL before)
    int (*enterPipelineMode)(PGconn *);
    int (*exitPipelineMode)(PGconn *);
    int (*pipelineSync)(PGconn *);
    int (*sendQueryParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    PGresult *(*getResult)(PGconn *);
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
    *(void **)&pq.enterPipelineMode = dlsym(h, "PQenterPipelineMode");
    *(void **)&pq.exitPipelineMode = dlsym(h, "PQexitPipelineMode");
    *(void **)&pq.pipelineSync = dlsym(h, "PQpipelineSync");
    *(void **)&pq.sendQueryParams = dlsym(h, "PQsendQueryParams");
    *(void **)&pq.getResult = dlsym(h, "PQgetResult");
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

int fpq_can_pipeline(void) {
    return pq.enterPipelineMode && pq.exitPipelineMode && pq.pipelineSync && pq.sendQueryParams && pq.getResult;
}

int fpq_pipeline(void *c, int n, const char *const *sqls, const int *counts, const char *const *const *values, void **results) {
    for (int i = 0; i < n; i++) results[i] = NULL;
    if (!c || !fpq_can_pipeline() || !pq.enterPipelineMode(c)) return -1;
    int sent = 0;
    while (sent < n && pq.sendQueryParams(c, sqls[sent], counts[sent], NULL, values[sent], NULL, NULL, 0)) sent++;
    int ok = sent == n && pq.pipelineSync(c);
    // each statement's results end with NULL (a failed statement's followers come back
    // PGRES_PIPELINE_ABORTED); the statement's first result is kept
    for (int i = 0; ok && i < sent; i++) {
        PGresult *r;
        while ((r = pq.getResult(c)) != NULL) {
            if (pq.resultStatus(r) == PGRES_PIPELINE_SYNC) {
                pq.clear(r);
                ok = 0;  // not expected before every statement came back
                break;
            }
            if (!results[i]) results[i] = r; else pq.clear(r);
        }
        if (!results[i]) ok = 0;  // the connection broke
    }
    if (ok) {
        PGresult *r = pq.getResult(c);
        if (!r || pq.resultStatus(r) != PGRES_PIPELINE_SYNC) ok = 0;
        if (r) pq.clear(r);
    }
    if (!pq.exitPipelineMode(c)) ok = 0;  // results left uncollected: only on a broken connection
    return ok ? 0 : -1;
}

int fpq_aborted(void *r) { return r && pq.resultStatus(r) == PGRES_PIPELINE_ABORTED; }
