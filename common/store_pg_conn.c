/* The PostgreSQL backend's connection: statements, transactions and
 * wake-ups over one libpq connection.  libpq finds the server from the URI
 * and its own variables and files (PGHOST, PGSERVICE, ~/.pgpass); the
 * password never leaves libpq (names and locators drop it).  A lost
 * connection is reopened at the next operation outside a transaction.
 * Wake-ups are LISTEN/NOTIFY. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>

#include "pg_uri.h"
#include "store_pg_conn.h"

#define PREP_MAX 96
#define WAKE_CHANNEL "agentcron_wake"
#define FETCH_ROWS 256

struct pg {
	struct pq_lib pq;
	PGconn *conn;
	char *uri;                /* as given, password included: only for libpq */
	struct {
		const char *sql;
		char name[16];
	} prep[PREP_MAX];
	int nprep;
	int listening;
	/* The server this connection reached may no longer be the primary
	 * (it refused a write as read-only, said it is shutting down, or a
	 * commit failed): the next operation outside a transaction connects
	 * again through the host list.  libpq checks target_session_attrs
	 * only when it connects. */
	int find_primary;
	int64_t checked_at;       /* mono_ms of the last look at whether it still takes writes */
	/* Connected again by an operation, not by a refresh: the next refresh
	 * says so, and a watcher takes the new connection's wake-up. */
	int reconnected;
	unsigned cursors;
	/* The transaction's first error: a later statement would only say
	 * "current transaction is aborted" (25P02). */
	char first_err[ERR_MAX];
	struct store_sql sql;
	void *bounds;             /* pruning's (store_pg_history.c): one allocation */
	unsigned long sent;       /* statements sent on the connection, for what was read ahead */
	void *ahead;              /* what was read ahead (store_pg_look.c): one allocation */
	long added;               /* tasks added since the last commit, rollback or begin */
	struct pg_idle_seen idle;
};

/* Tasks added in one go (an import, a store copied) from which the
 * planner's statistics of tasks are brought up to date at commit. */
#define ANALYZE_AFTER_ADDED 1000

static const struct sql_dialect dialect = {
	.param = '$',
	.order_key = "coalesce(next_run_at, 9223372036854775807)",
	.seq = "seq",
	.lock = " FOR UPDATE",
	.lock_skip = " FOR UPDATE SKIP LOCKED",
	.like = "ILIKE",
	.scan = "",
	.text_table = "task_text",
	.owners_apart = 1,
	.unique_by_read = 1,
	.arrays = 1,
};

static struct pg *
pg(struct store *st)
{
	return st->be;
}

const struct pq_lib *
pq_of(struct store *st)
{
	return &pg(st)->pq;
}

struct store_sql *
pq_sql(struct store *st)
{
	return &pg(st)->sql;
}

void **
pq_bounds(struct store *st)
{
	return &pg(st)->bounds;
}

void **
pq_ahead(struct store *st)
{
	return &pg(st)->ahead;
}

struct pg_idle_seen *
pq_idle_seen(struct store *st)
{
	return &pg(st)->idle;
}

const char *
pg_uri_of(struct store *st)
{
	return pg(st)->uri;
}

void
pq_tasks_added(struct store *st, long n)
{
	pg(st)->added += n;
}

unsigned long
pq_sent(struct store *st)
{
	return pg(st)->sent;
}

/* ---- waiting for the server, within the store's deadline ---- */

/* The instant (mono_ms) past which what starts now may not wait; 0: none. */
static int64_t
wait_until(const struct store *st)
{
	int64_t until = st->op_ms > 0 ? mono_ms() + st->op_ms : 0;
	if (st->deadline_ms && (!until || st->deadline_ms < until))
		until = st->deadline_ms;
	return until;
}

/* Wait for fd to be ready for events until until (0: no end); 0 when it
 * is, -1 when the time is up. */
static int
wait_fd(int fd, short events, int64_t until)
{
	for (;;) {
		int64_t left = until ? until - mono_ms() : -1;
		if (until && left <= 0)
			return -1;
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, left < 0 ? -1 : left > 60000 ? 60000 : (int)left);
		if (n > 0 || (n < 0 && errno != EINTR))
			return 0;
	}
}

/* The result of what was just sent (sent: its PQsend* returned 1): the
 * first error, else the last result.  A server that does not answer by
 * the deadline has the connection cut under libpq, which then fails the
 * call as a lost connection.  NULL if nothing could be sent. */
static PGresult *
result_of(struct store *st, int sent)
{
	const struct pq_lib *pq = pq_of(st);
	PGconn *c = pg(st)->conn;
	if (!sent)
		return NULL;
	pg(st)->sent++;
	int64_t until = wait_until(st);
	PGresult *keep = NULL, *r;
	for (;;) {
		while (pq->isBusy(c)) {
			if (wait_fd(pq->socket(c), POLLIN, until) < 0) {
				shutdown(pq->socket(c), SHUT_RDWR);
				until = 0;
			}
			if (!pq->consumeInput(c))
				break;
		}
		if (!(r = pq->getResult(c)))
			break;
		ExecStatusType ks = keep ? pq->resultStatus(keep) : PGRES_COMMAND_OK;
		if (keep && ks != PGRES_COMMAND_OK && ks != PGRES_TUPLES_OK) {
			pq->clear(r);
		} else {
			pq->clear(keep);
			keep = r;
		}
	}
	return keep;
}

/* PQexec, within the deadline. */
static PGresult *
exec_simple(struct store *st, const char *sql)
{
	return result_of(st, pq_of(st)->sendQuery(pg(st)->conn, sql));
}

void
pq_abort(struct store *st)
{
	pq_of(st)->clear(exec_simple(st, "ROLLBACK"));
}

int
pq_connected(struct store *st)
{
	return pq_of(st)->status(pg(st)->conn) == CONNECTION_OK;
}

/* PQreset, within the deadline: 0 when connected. */
static int
reset_conn(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	PGconn *c = pg(st)->conn;
	int64_t until = wait_until(st);
	if (!pq->resetStart(c))
		return -1;
	for (;;) {
		PostgresPollingStatusType s = pq->resetPoll(c);
		if (s == PGRES_POLLING_OK)
			return 0;
		if (s == PGRES_POLLING_FAILED)
			return -1;
		if (wait_fd(pq->socket(c), s == PGRES_POLLING_WRITING ? POLLOUT : POLLIN, until) < 0) {
			shutdown(pq->socket(c), SHUT_RDWR);
			pq->resetPoll(c);
			return -1;
		}
	}
}

/* libpq's message, first line only (the rest is hints for psql users),
 * without the URI's secrets: libpq quotes a malformed URI whole. */
static const char *
first_line(const struct store *st, const char *msg, char *buf, size_t n)
{
	msg = msg ? msg : "";
	msg += strspn(msg, " \t\n");
	/* Scrubbed whole, then cut: a cut would leave part of a secret. */
	size_t len = strcspn(msg, "\n");
	char *line = xstrndup(msg, len);
	size_t cap = 2 * len + 2048;
	line = xrealloc(line, cap);
	pg_uri_scrub(line, cap, ((const struct pg *)st->be)->uri);
	snprintf(buf, n, "%s", line);
	free(line);
	return buf;
}

static int
conn_err(struct store *st, const char *what, const PGresult *res, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	char line[400];
	/* The server's own sentence, without its "ERROR:" and hints. */
	const char *msg = res ? pq->resultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	if (!msg || !*msg)
		msg = pq->errorMessage(pg(st)->conn);
	first_line(st, msg, line, sizeof line);
	struct pg *q = pg(st);
	const char *state = res ? pq->resultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	if (pq->status(q->conn) != CONNECTION_OK || (state && (strcmp(state, "25006") == 0 ||
	    strncmp(state, "57P0", 4) == 0 || strncmp(state, "08", 2) == 0)))
		q->find_primary = 1;
	if (pq->status(pg(st)->conn) != CONNECTION_OK)
		return err_set(e, ST_ERR, "store '%s': lost the connection to the server while %s: %s",
		    st->name, what, line);
	if (state && strcmp(state, "25P02") == 0 && q->first_err[0])
		return err_set(e, ST_ERR, "%s", q->first_err);
	int rc = err_set(e, state && strcmp(state, "23505") == 0 ? ST_REFUSED : ST_ERR,
	    "store '%s': %s: %s", st->name, what, line);
	if (!q->first_err[0])
		snprintf(q->first_err, sizeof q->first_err, "%s", e->msg);
	return rc;
}

static int pg_reconnect(struct store *st, struct err *e);

/* A statement outside a transaction that met a connection the server had
 * already ended (a restart: its last words, or nothing) is sent again once
 * on a new one, when that cannot do it twice: the server said it ended the
 * session before reading it (57P01-57P03), or it only reads or begins. */
static int
resend_ok(struct store *st, const char *sql, const PGresult *r)
{
	const struct pq_lib *pq = pq_of(st);
	if (st->depth || pq->status(pg(st)->conn) == CONNECTION_OK)
		return 0;
	const char *state = r ? pq->resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	return (state && strncmp(state, "57P0", 4) == 0) || strncmp(sql, "SELECT ", 7) == 0 ||
	    strncmp(sql, "BEGIN", 5) == 0 || strncmp(sql, "LISTEN ", 7) == 0;
}

/* The connection, reopened if it was lost outside a transaction. */
static int
ready(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	if (pq->status(pg(st)->conn) == CONNECTION_OK && (!pg(st)->find_primary || st->depth))
		return ST_OK;
	if (st->depth)
		return err_set(e, ST_ERR, "store '%s': lost the connection to the server", st->name);
	return pg_reconnect(st, e);
}

/* The name of sql prepared on this connection; NULL to run it unprepared.
 * A statement is prepared at its second use: a short-lived program pays
 * no extra round trip for what it runs once. */
static const char *
prepared(struct store *st, const char *sql, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	int i;
	for (i = 0; i < q->nprep && q->prep[i].sql != sql; i++)
		;
	if (i == q->nprep) {
		if (q->nprep == PREP_MAX)
			return NULL;
		q->prep[q->nprep].sql = sql;
		q->prep[q->nprep].name[0] = 0;
		q->nprep++;
		return NULL;
	}
	if (q->prep[i].name[0])
		return q->prep[i].name;
	char name[16];
	snprintf(name, sizeof name, "ac%d", i);
	PGresult *r = result_of(st, pq->sendPrepare(q->conn, name, sql, 0, NULL));
	int ok = pq->resultStatus(r) == PGRES_COMMAND_OK;
	if (!ok)
		conn_err(st, "preparing a query", r, e);
	pq->clear(r);
	if (!ok)
		return "";
	snprintf(q->prep[i].name, sizeof q->prep[i].name, "%s", name);
	return q->prep[i].name;
}

static int
exec_with(struct store *st, const char *sql, int prepare, struct pq_params *p, PGresult **res,
    const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params none = {.n = 0};
	if (!p)
		p = &none;
	*res = NULL;
	int rc;
	PGresult *r = NULL;
	for (int again = 1;; again = 0) {
		if ((rc = ready(st, e)))
			break;
		const char *name = prepare ? prepared(st, sql, e) : NULL;
		if (name && !*name) {
			rc = ST_ERR;
			break;
		}
		r = result_of(st, name ? pq->sendQueryPrepared(pg(st)->conn, name, p->n, p->v, NULL,
		    NULL, 0) : pq->sendQueryParams(pg(st)->conn, sql, p->n, NULL, p->v, NULL, NULL, 0));
		ExecStatusType s = pq->resultStatus(r);
		if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
			break;
		if (!again || !resend_ok(st, sql, r)) {
			rc = conn_err(st, what, r, e);
			pq->clear(r);
			r = NULL;
			break;
		}
		pq->clear(r);
	}
	pq_params_free(p);
	*res = r;
	return rc;
}

int
pq_exec(struct store *st, const char *sql, struct pq_params *p, PGresult **res, const char *what,
    struct err *e)
{
	return exec_with(st, sql, 1, p, res, what, e);
}

int
pq_exec_dynamic(struct store *st, const char *sql, struct pq_params *p, PGresult **res,
    const char *what, struct err *e)
{
	return exec_with(st, sql, 0, p, res, what, e);
}

int
pq_do(struct store *st, const char *sql, struct pq_params *p, long *rows, const char *what,
    struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, sql, p, &r, what, e);
	if (!rc && rows)
		*rows = strtol(pq->cmdTuples(r), NULL, 10);
	pq->clear(r);
	return rc;
}

int
pq_ints(struct store *st, const char *sql, struct pq_params *p, long long *out, int n,
    const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, sql, p, &r, what, e);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++)
		out[i] = pq_get_int(pq, r, 0, i);
	pq->clear(r);
	return ST_OK;
}

int
pq_simple(struct store *st, const char *sql, const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int rc = ready(st, e);
	if (rc)
		return rc;
	/* "BEGIN", or a unit's "BEGIN; SET LOCAL ...": a new transaction. */
	if (strncmp(sql, "BEGIN", 5) == 0)
		pg(st)->first_err[0] = 0;
	PGresult *r = exec_simple(st, sql);
	ExecStatusType s = pq->resultStatus(r);
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK && resend_ok(st, sql, r)) {
		pq->clear(r);
		if ((rc = ready(st, e)))
			return rc;
		r = exec_simple(st, sql);
		s = pq->resultStatus(r);
	}
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		rc = conn_err(st, what, r, e);
	pq->clear(r);
	return rc;
}

int
pq_each_row(struct store *st, const char *sql, struct pq_params *p, long limit,
    int (*fn)(const struct pq_lib *pq, const PGresult *r, int row, void *arg), void *arg,
    const char *what, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	int own = !st->depth, rc = ST_OK;
	/* A few rows come in one round trip; a cursor only for many. */
	if (limit > 0 && limit <= FETCH_ROWS) {
		PGresult *r;
		if ((rc = pq_exec_dynamic(st, sql, p, &r, what, e)))
			return rc;
		for (int i = 0, n = pq->ntuples(r); i < n && !fn(pq, r, i, arg); i++)
			;
		pq->clear(r);
		return ST_OK;
	}
	char cur[32], *declare = NULL, *fetch = NULL, *close_it = NULL;
	snprintf(cur, sizeof cur, "agentcron_c%u", q->cursors++);
	if (own && (rc = pq_simple(st, "BEGIN", what, e))) {
		pq_params_free(p);
		return rc;
	}
	declare = xasprintf("DECLARE %s NO SCROLL CURSOR FOR %s", cur, sql);
	fetch = xasprintf("FETCH %d FROM %s", FETCH_ROWS, cur);
	close_it = xasprintf("CLOSE %s", cur);
	PGresult *r;
	if (!(rc = pq_exec_dynamic(st, declare, p, &r, what, e))) {
		pq->clear(r);
		for (int stop = 0; !stop;) {
			if ((rc = pq_exec_dynamic(st, fetch, NULL, &r, what, e)))
				break;
			int n = pq->ntuples(r);
			for (int i = 0; i < n && !stop; i++)
				stop = fn(pq, r, i, arg);
			pq->clear(r);
			stop |= n < FETCH_ROWS;
		}
		if (!rc)
			rc = pq_simple(st, close_it, what, e);
	}
	free(declare);
	free(fetch);
	free(close_it);
	if (own) {
		if (!rc)
			rc = pq_simple(st, "COMMIT", what, e);
		else
			pq_abort(st);
	}
	return rc;
}

/* ---- connecting ---- */

/* After a reconnection: what the session had (listening), and the clock. */
static int
session(struct store *st, struct err *e)
{
	int version, rc;
	if (pg(st)->listening && (rc = pq_simple(st, "LISTEN " WAKE_CHANNEL, "listening for wake-ups", e)))
		return rc;
	return pg_schema_version(st, &version, e);
}

/* The server's notices ("already exists, skipping") are not for people:
 * libpq would print them on standard error. */
static void
no_notices(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int
pg_connect(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	const char *keys[10], *vals[10];
	int k = 0;
	/* Defaults first: the URI and libpq's variables may say otherwise. */
	if (!getenv("PGCONNECT_TIMEOUT")) {
		keys[k] = "connect_timeout";
		vals[k++] = "10";
	}
	keys[k] = "fallback_application_name";
	vals[k++] = "agentcron";
	/* Settings of the session, sent with the connection: no round trip.
	 * A writer waits for another's lock as long as on a file store; a
	 * program that only appends records (llm-call) does not wait for the
	 * server's disk (a crash of the server may lose the last few). */
	/* A session frozen inside a transaction (its host stopped or cut off)
	 * would hold its rows, its process's among them, from those that would
	 * declare it dead and recover its runs: the server ends it.  Our
	 * transactions wait on nothing but the server. */
	const char *env = getenv("PGOPTIONS");
	char *options = xasprintf("%s%s-c lock_timeout=%d -c idle_in_transaction_session_timeout=%d%s",
	    env ? env : "", env ? " " : "", STORE_LOCK_WAIT_MS, STORE_IDLE_TX_MS,
	    st->flags & STORE_LOG ? " -c synchronous_commit=off" : "");
	keys[k] = "options";
	vals[k++] = options;
	keys[k] = "keepalives_idle";
	vals[k++] = "10";
	keys[k] = "keepalives_interval";
	vals[k++] = "5";
	keys[k] = "keepalives_count";
	vals[k++] = "3";
	/* What was sent and never acknowledged (a peer gone mid-statement)
	 * fails the connection within this, as keepalives do an idle one. */
	keys[k] = "tcp_user_timeout";
	vals[k++] = "30000";
	keys[k] = "dbname";
	vals[k++] = q->uri;
	keys[k] = NULL;
	vals[k] = NULL;
	q->conn = pq->connectdbParams(keys, vals, 1);
	free(options);
	if (!q->conn)
		return err_set(e, ST_ERR, "store '%s': cannot connect: out of memory", st->name);
	pq->setNoticeProcessor(q->conn, no_notices, NULL);
	if (pq->status(q->conn) != CONNECTION_OK) {
		char line[400];
		first_line(st, pq->errorMessage(q->conn), line, sizeof line);
		return err_set(e, ST_ERR, "cannot connect to the PostgreSQL store '%s': %s", st->name, line);
	}
	q->nprep = 0;
	return ST_OK;
}

static int
pg_reconnect(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	int failed = reset_conn(st);
	q->nprep = 0;
	if (failed || pq->status(q->conn) != CONNECTION_OK) {
		char line[400];
		first_line(st, pq->errorMessage(q->conn), line, sizeof line);
		return err_set(e, ST_ERR, "cannot reach the PostgreSQL store '%s': %s", st->name, line);
	}
	q->find_primary = 0;
	q->checked_at = mono_ms();
	q->reconnected = 1;
	return session(st, e);
}

void
pg_close(struct store *st)
{
	struct pg *q = pg(st);
	if (!q)
		return;
	if (q->conn)
		q->pq.finish(q->conn);
	pq_lib_close(&q->pq);
	store_sql_free(&q->sql);
	free(q->bounds);
	free(q->ahead);
	free(q->uri);
	free(q);
	st->be = NULL;
}

/* Does the connection ask for a server that takes writes?  Then a server
 * switched to read-only under it (a switchover, a fencing script) is left
 * for the one that took over, which libpq finds by the host list. */
static int
wants_primary(const struct pg *q)
{
	const char *env = getenv("PGTARGETSESSIONATTRS");
	return strstr(q->uri, "target_session_attrs") || (env && *env);
}

#define WRITABLE_EVERY_MS 2000   /* how often a watcher asks whether its server still takes writes */

/* Does the server still take writes?  Asked of an idle connection at most
 * every WRITABLE_EVERY_MS: one that writes would hear it as 25006, but an
 * idle watcher's LISTEN would go on waiting on a demoted server. */
static void
check_writable(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	if (st->depth || q->find_primary || !wants_primary(q) || mono_ms() - q->checked_at < WRITABLE_EVERY_MS)
		return;
	q->checked_at = mono_ms();
	PGresult *r = exec_simple(st, "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'");
	if (pq->resultStatus(r) != PGRES_TUPLES_OK || pq->ntuples(r) != 1 ||
	    strcmp(pq->getvalue(r, 0, 0), "f") != 0)
		q->find_primary = 1;
	pq->clear(r);
}

int
pg_refresh(struct store *st, char *what, size_t n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	if (pq->status(q->conn) == CONNECTION_OK && !q->find_primary) {
		/* A dead server is only noticed when read from: ask. */
		if (pq->consumeInput(q->conn) && pq->status(q->conn) == CONNECTION_OK)
			check_writable(st);
		if (pq->status(q->conn) == CONNECTION_OK && !q->find_primary && !q->reconnected)
			return ST_OK;
	}
	int rc = q->reconnected && pq->status(q->conn) == CONNECTION_OK && !q->find_primary
	    ? ST_OK : pg_reconnect(st, e);
	if (!rc) {
		snprintf(what, n, "reconnected to the PostgreSQL store '%s'", st->name);
		q->reconnected = 0;
	}
	return rc;
}

/* A unit of work runs the same few statements again and again (claims,
 * ends of runs): their generic plans, made once, not a custom plan made
 * at every execution (what the planner keeps choosing for a claim's scan
 * and for statements over arrays).  Only within the unit; from
 * PostgreSQL 12, which has the setting.  Its lookups are a few rows, each
 * by an index: no bitmap scans (one reads every entry that versions
 * since ended left in its index, where a plain index scan marks them
 * dead: thousands in a burst).  A unit that claims or ends runs does
 * without sequential scans too: a plan of a group's end made while a
 * burst's runs looked like none read every run at each end. */
int
pg_begin(struct store *st, int of_runs, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int generic = pq->serverVersion(pg(st)->conn) >= 120000;
	char sql[160];
	snprintf(sql, sizeof sql, "BEGIN;%s SET LOCAL enable_bitmapscan = off%s",
	    generic ? " SET LOCAL plan_cache_mode = force_generic_plan;" : "",
	    of_runs ? "; SET LOCAL enable_seqscan = off" : "");
	pg(st)->added = 0;
	return pq_simple(st, sql, "starting a transaction", e);
}

/* A commit that fails sends the next operation to find the primary
 * again; one whose connection broke meanwhile may have been made or not
 * (commit_unknown): the caller reads back before it trusts either. */
int
pg_commit(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int rc = pq_simple(st, "COMMIT", "committing", e);
	st->commit_unknown = rc && pq->status(pg(st)->conn) != CONNECTION_OK;
	if (rc)
		pg(st)->find_primary = 1;
	/* Until autovacuum comes (a minute, or never where it is off), the
	 * planner takes the new tasks for a handful: a burst of them just
	 * imported then walked every task at each run's end, looking for
	 * the few that follow it.  A role that may not ANALYZE loses
	 * nothing but that. */
	struct err ignored;
	if (!rc && pg(st)->added >= ANALYZE_AFTER_ADDED)
		pq_simple(st, "ANALYZE tasks", "bringing the statistics of tasks up to date", &ignored);
	pg(st)->added = 0;
	return rc;
}

void
pg_rollback(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	pg(st)->added = 0;
	if (pq->status(pg(st)->conn) == CONNECTION_OK)
		pq->clear(exec_simple(st, "ROLLBACK"));
}

/* ---- wake-ups ---- */

void
pg_wake(struct store *st)
{
	struct err e;
	/* Inside a transaction it goes out at commit; a failure only delays
	 * watchers until their next planned look. */
	pq_simple(st, "NOTIFY " WAKE_CHANNEL, "waking watchers", &e);
}

int
pg_wake_fd(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	if (!q->listening) {
		q->listening = 1;
		if (pq_simple(st, "LISTEN " WAKE_CHANNEL, "listening for wake-ups", e))
			return -1;
	}
	return pq->status(q->conn) == CONNECTION_OK ? pq->socket(q->conn) : -1;
}

int
pg_wake_take(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	if (!q->listening || pq->status(q->conn) != CONNECTION_OK)
		return 0;
	/* A lost connection wakes the watcher too: it reconnects. */
	if (!pq->consumeInput(q->conn))
		return 1;
	int hit = 0;
	PGnotify *n;
	while ((n = pq->notifies(q->conn))) {
		hit = 1;
		pq->freemem(n);
	}
	return hit || pq->status(q->conn) != CONNECTION_OK;
}

/* The schema version (0 when the database has none of ours) and the
 * server's clock minus ours, in one round trip: the version table is read
 * only if it exists (query_to_xml runs its query when called), and the
 * clock is taken at the middle of the trip. */
int
pg_schema_version(struct store *st, int *version, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint,"
	    " CASE WHEN to_regclass('agentcron_schema') IS NULL THEN 0 ELSE coalesce((xpath('//v/text()',"
	    " query_to_xml('SELECT max(version) AS v FROM agentcron_schema', false, true, '')))[1]::text::int,"
	    " 0) END";
	struct timespec t0, t1;
	PGresult *r;
	clock_gettime(CLOCK_REALTIME, &t0);
	int rc = pq_exec_dynamic(st, q, NULL, &r, "reading the schema version", e);
	clock_gettime(CLOCK_REALTIME, &t1);
	if (rc)
		return rc;
	int64_t ms0 = (int64_t)t0.tv_sec * 1000 + t0.tv_nsec / 1000000;
	int64_t ms1 = (int64_t)t1.tv_sec * 1000 + t1.tv_nsec / 1000000;
	st->skew_ms = pq_get_int(pq, r, 0, 0) - (ms0 + ms1) / 2;
	*version = (int)pq_get_int(pq, r, 0, 1);
	pq->clear(r);
	return ST_OK;
}

/* A new connection's state in st, its libpq loaded and connected. */
int
pg_conn_open(struct store *st, const char *uri, struct err *e)
{
	struct pg *q = xcalloc(1, sizeof *q);
	q->uri = xstrdup(uri);
	store_sql_init(&q->sql, &dialect);
	st->be = q;
	int rc = pq_lib_open(&q->pq, e);
	if (!rc)
		rc = pg_connect(st, e);
	return rc;
}
