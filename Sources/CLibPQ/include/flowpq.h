#ifndef FLOWPQ_H
#define FLOWPQ_H
// libpq (Debian's libpq5), loaded with dlopen the first time a PostgreSQL workspace is
// opened: a process that never opens one maps no libpq (nor the TLS and Kerberos
// libraries it brings). Connections and results are opaque pointers.

/// Loads libpq; NULL when it is there, else a message saying what is missing.
const char *fpq_load(void);

void *fpq_connect(const char *conninfo);
/// 1 when the connection is up.
int fpq_ok(void *conn);
const char *fpq_error(void *conn);
void fpq_finish(void *conn);
/// Reconnects with the same parameters; 1 when the connection is up again.
int fpq_reset(void *conn);
/// Runs one statement with text parameters (NULL: SQL NULL).
void *fpq_exec(void *conn, const char *sql, int count, const char *const *values);
/// 0: command done, 1: rows, 2: failed.
int fpq_status(void *result);
const char *fpq_result_error(void *result);
/// The SQLSTATE of a failed result ("" when there is none, as for a lost connection).
const char *fpq_sqlstate(void *result);
int fpq_rows(void *result);
int fpq_columns(void *result);
const char *fpq_value(void *result, int row, int column);
int fpq_is_null(void *result, int row, int column);
void fpq_clear(void *result);
/// The connection's socket (for poll), -1 when there is none.
int fpq_socket(void *conn);
/// Reads what the server sent and counts (and frees) the notifications received;
/// -1 when the connection is broken.
int fpq_notifications(void *conn);

/// 1 when libpq has pipeline mode (libpq 14 and later).
int fpq_can_pipeline(void);
/// Sends `n` statements (`sqls[i]` with `counts[i]` text parameters `values[i]`) at once,
/// then a sync, and reads their results: one round trip. `results[i]` gets statement i's
/// result (NULL when none came: the connection broke); a statement after a failed one comes
/// back aborted. 0 when every result and the sync came back, -1 otherwise.
int fpq_pipeline(void *conn, int n, const char *const *sqls, const int *counts, const char *const *const *values, void **results);
/// 1 when the result is a statement skipped because an earlier one in its pipeline failed.
int fpq_aborted(void *result);

#endif
