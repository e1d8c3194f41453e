/* store_pg_conn.h: the PostgreSQL backend's connection (store_pg_conn.c):
 * statements, transactions, wake-ups.  Below the backend's other files,
 * its schema's among them.  Not for cmd/. */
#ifndef AC_STORE_PG_CONN_H
#define AC_STORE_PG_CONN_H

#include "store_pg_params.h"

/* The libpq of st, loaded when it was opened. */
const struct pq_lib *pq_of(struct store *st);

/* Run sql (a string literal or a statement of pq_sql: prepared once per
 * connection, keyed by pointer) with p; *res is the result to PQclear.  ST_ERR says what failed
 * and where, never with a password; a unique violation is ST_REFUSED. */
int pq_exec(struct store *st, const char *sql, struct pq_params *p, PGresult **res,
    const char *what, struct err *e);
int pq_exec_dynamic(struct store *st, const char *sql, struct pq_params *p, PGresult **res,
    const char *what, struct err *e);      /* built at run time: not prepared */
int pq_do(struct store *st, const char *sql, struct pq_params *p, long *rows, const char *what,
    struct err *e);                        /* no rows wanted; *rows affected (may be NULL) */
/* The first n columns of the first row as integers (0 for NULL, and for
 * every column when no row came back). */
int pq_ints(struct store *st, const char *sql, struct pq_params *p, long long *out, int n,
    const char *what, struct err *e);
/* Statements with no parameters and no rows, several at once allowed
 * (the schema's steps), by the simple protocol. */
int pq_simple(struct store *st, const char *sql, const char *what, struct err *e);
void pq_abort(struct store *st);           /* ROLLBACK, whatever became of the connection */
int pq_connected(struct store *st);        /* the connection is up */

/* the statements of store_sql.h */
struct store_sql *pq_sql(struct store *st);
/* Pruning's memory of the bounds it read (store_pg_history.c), freed with
 * the connection's state. */
void **pq_bounds(struct store *st);
/* What was read ahead (store_pg_look.c), freed with the connection's
 * state, and the statements sent on the connection so far, which tell
 * whether anything came between. */
void **pq_ahead(struct store *st);
/* n tasks added: many in one unit bring the planner's statistics up to
 * date at its commit. */
void pq_tasks_added(struct store *st, long n);
unsigned long pq_sent(struct store *st);
/* Rows of a query, a batch at a time through a cursor, so fn may use the
 * store between rows and a big listing is never all in memory; a query of
 * at most FETCH_ROWS rows (limit) in one trip.  fn's non-zero stops. */
int pq_each_row(struct store *st, const char *sql, struct pq_params *p, long limit,
    int (*fn)(const struct pq_lib *pq, const PGresult *r, int row, void *arg), void *arg,
    const char *what, struct err *e);

/* store_pg_look.c: answers a statement read beside its own for the calls
 * that follow (each key once), good while nothing else is sent on the
 * connection, outside a transaction, for a moment.  start after the
 * statement, then put column col of its first row under key; take says
 * 1 with *value (NULL for SQL NULL) when it has the answer, else 0 and
 * the call asks the server. */
void pq_ahead_start(struct store *st);
void pq_ahead_put(struct store *st, const char *key, const PGresult *r, int col);
int pq_ahead_take(struct store *st, const char *key, char **value);
/* Both answers, or neither (1: both taken; 0: *v1 and *v2 NULL). */
int pq_ahead_take2(struct store *st, const char *k1, char **v1, const char *k2, char **v2);

/* The note a pass from cron found (had) when it opened the connection,
 * whether the id it named was taken (missed), and whether asking
 * recorded the pass (recorded: the pass records itself no more). */
struct pg_idle_found {
	int had, missed, recorded;
	long long misses, retry_at;
};

/* What a pass from cron read that its idle note needs (store_pg_idle.c),
 * on the connection: from one snapshot (the pass's first look, or a look
 * for the note), what it saw and the next transaction id then. */
struct pg_idle_seen {
	int looked;
	long long started;        /* the postmaster's start, microseconds */
	long long next_xid;       /* the snapshot's next transaction id */
	int others;               /* a transaction was in progress then */
	int in_flight, paused, queued;
	int64_t due;
	int receipts;             /* a receipt was pending (the record's read) */
	/* The id the note names, when the record of the pass took next_xid:
	 * nothing was written between; 0: none.  It holds while nothing else
	 * is sent after the record (sent, pq_sent then). */
	long long note_xid;
	unsigned long sent;
	struct pg_idle_found found;
};
struct pg_idle_seen *pq_idle_seen(struct store *st);

/* The schema version (0: none of ours) and the server's clock minus ours
 * (st->skew_ms): read again at every reconnection. */
int pg_schema_version(struct store *st, int *version, struct err *e);
/* store_pg_look.c: the look again with the receipts, for an idle note. */
int pg_look_note(struct store *st, struct err *e);

/* The connection's state in st, connected (pg_close frees it, whatever
 * became of the opening), and the store_ops it serves. */
int pg_conn_open(struct store *st, const char *uri, struct err *e);
const char *pg_uri_of(struct store *st);   /* as the store was opened with */
void pg_close(struct store *st);
int pg_refresh(struct store *st, char *what, size_t n, struct err *e);
int pg_begin(struct store *st, int of_runs, struct err *e);
int pg_commit(struct store *st, struct err *e);
void pg_rollback(struct store *st);
void pg_wake(struct store *st);
int pg_wake_fd(struct store *st, struct err *e);
int pg_wake_take(struct store *st);

#endif
