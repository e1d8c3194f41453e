/* The PostgreSQL backend: one database that any number of hosts share.
 * libpq finds the server from the URI and its own variables and files
 * (PGHOST, PGSERVICE, ~/.pgpass); the password never leaves libpq (names
 * and locators drop it).  The schema is created and upgraded by the first
 * program that opens the database, one step at a time under an advisory
 * lock, each step in the same transaction as its version (table
 * agentcron_schema), so hosts starting together migrate once and a failed
 * step leaves the old schema whole.  A unit of work is a transaction whose
 * task reads lock their rows (FOR UPDATE); claims lock due rows with SKIP
 * LOCKED, so tickers on several hosts claim side by side.  Every process
 * that claims is a row in `processes` with a heartbeat on the server's
 * clock.  Wake-ups are LISTEN/NOTIFY.  A lost connection is reopened at the
 * next operation outside a transaction.  Runs, claims and conversations:
 * store_pg_runs.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>

#include "pg_uri.h"
#include "store_pg.h"
#include "utf8.h"

#define PREP_MAX 96
#define SCHEMA_LOCK 7306115113L   /* pg_advisory_xact_lock key of migrations */
#define WAKE_CHANNEL "agentcron_wake"
#define FETCH_ROWS 256
#define STORE_PG_OP_MS 60000      /* how long a statement may wait for the server unless told */

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
};

static const struct sql_dialect dialect = {
	.param = '$',
	.order_key = "coalesce(next_run_at, 9223372036854775807)",
	.seq = "seq",
	.lock = " FOR UPDATE",
	.lock_skip = " FOR UPDATE SKIP LOCKED",
	.like = "ILIKE",
	.scan = "",
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

/* ---- statements ---- */

void
pq_text(struct pq_params *p, const char *s)
{
	if (p->n >= PQ_MAXPARAMS)
		abort();
	/* The server takes text only as valid UTF-8; what is not (an
	 * executor's raw bytes) is stored with U+FFFD in place. */
	char *fixed = s ? utf8_fix(s) : NULL;
	p->owned[p->n] = fixed;
	p->v[p->n++] = fixed ? fixed : s;
}

void
pq_int(struct pq_params *p, long long v)
{
	if (p->n >= PQ_MAXPARAMS)
		abort();
	snprintf(p->num[p->n], sizeof p->num[p->n], "%lld", v);
	p->owned[p->n] = NULL;
	p->v[p->n] = p->num[p->n];
	p->n++;
}

void
pq_time(struct pq_params *p, int64_t t)
{
	if (t == TIME_NONE)
		pq_text(p, NULL);
	else
		pq_int(p, t);
}

void
pq_bind(struct pq_params *p, const struct row *r)
{
	for (int i = 0; i < r->n; i++) {
		if (r->c[i].kind == CELL_INT)
			pq_int(p, r->c[i].i);
		else
			pq_text(p, r->c[i].kind == CELL_TEXT ? r->c[i].s : NULL);
	}
}

struct cell
pq_cell(void *row, int col, int is_int)
{
	const struct pq_row *x = row;
	if (x->pq->getisnull(x->res, x->row, col))
		return (struct cell){CELL_NULL, 0, NULL};
	const char *v = x->pq->getvalue(x->res, x->row, col);
	if (is_int)
		return (struct cell){CELL_INT, strtoll(v, NULL, 10), NULL};
	return (struct cell){CELL_TEXT, 0, v};
}

void
pq_params_free(struct pq_params *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->owned[i]);
	p->n = 0;
}

char *
pq_get_text(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? NULL : xstrdup(pq->getvalue(r, row, col));
}

int64_t
pq_get_time(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? TIME_NONE : strtoll(pq->getvalue(r, row, col), NULL, 10);
}

long long
pq_get_int(const struct pq_lib *pq, const PGresult *r, int row, int col)
{
	return pq->getisnull(r, row, col) ? 0 : strtoll(pq->getvalue(r, row, col), NULL, 10);
}

void
pq_get_copy(const struct pq_lib *pq, const PGresult *r, int row, int col, char *dst, size_t n)
{
	snprintf(dst, n, "%s", pq->getisnull(r, row, col) ? "" : pq->getvalue(r, row, col));
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

/* Statements with no parameters and no rows, several at once allowed
 * (the schema's steps), by the simple protocol. */
static int
simple(struct store *st, const char *sql, const char *what, struct err *e)
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
	if (own && (rc = simple(st, "BEGIN", what, e))) {
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
			rc = simple(st, close_it, what, e);
	}
	free(declare);
	free(fetch);
	free(close_it);
	if (own) {
		if (!rc)
			rc = simple(st, "COMMIT", what, e);
		else
			pq->clear(exec_simple(st, "ROLLBACK"));
	}
	return rc;
}

/* ---- the schema ---- */

/* Step i takes the database from schema version i to i + 1. */
static const char *const migrations[] = {
	/* 1 */
	"CREATE TABLE tasks ("
	" seq bigserial UNIQUE,"
	" id text COLLATE \"C\" PRIMARY KEY,"
	" name text NOT NULL,"
	" prompt text NOT NULL,"
	" system_prompt text,"
	" kind text NOT NULL,"
	" cron text,"
	" plan text,"
	" tz text NOT NULL,"
	" enabled integer NOT NULL DEFAULT 1,"
	" status text NOT NULL DEFAULT 'pending',"
	" next_run_at bigint,"
	" due_at bigint,"
	" last_run_at bigint,"
	" last_status text,"
	" last_error text,"
	" last_result text,"
	" consecutive_failures integer NOT NULL DEFAULT 0,"
	" context text,"
	" attachments text,"
	" model text,"
	" exec text,"
	" notify text,"
	" timeout integer NOT NULL DEFAULT 0,"
	" retries integer NOT NULL DEFAULT -1,"
	" intent text,"
	" channel text,"
	" payload text,"
	" idem_key text,"
	" missed text NOT NULL DEFAULT 'once',"
	" jitter integer NOT NULL DEFAULT 0,"
	" queued integer NOT NULL DEFAULT 0,"
	" created_at bigint NOT NULL,"
	" updated_at bigint NOT NULL,"
	" deleted_at bigint,"
	" until_at bigint,"
	" count integer NOT NULL DEFAULT 0,"
	" ends_at bigint,"
	" mcp text,"
	" mcp_allow text,"
	" arming integer NOT NULL DEFAULT 0,"
	" dedup text);"
	"CREATE INDEX tasks_order ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE deleted_at IS NULL;"
	"CREATE INDEX tasks_due ON tasks (due_at, id)"
	" WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL;"
	"CREATE INDEX tasks_queued ON tasks (queued) WHERE queued <> 0 AND deleted_at IS NULL;"
	"CREATE INDEX tasks_trash ON tasks (deleted_at) WHERE deleted_at IS NOT NULL;"
	"CREATE UNIQUE INDEX tasks_key ON tasks (idem_key)"
	" WHERE idem_key IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_dedup ON tasks (dedup) WHERE status = 'pending' AND deleted_at IS NULL;"
	"CREATE INDEX tasks_status ON tasks (status, (coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE deleted_at IS NULL AND status <> 'pending';"
	"CREATE INDEX tasks_channel ON tasks (channel, (coalesce(next_run_at, 9223372036854775807)),"
	" seq) WHERE deleted_at IS NULL AND channel IS NOT NULL;"
	"CREATE INDEX tasks_heartbeat ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE kind = 'heartbeat' AND status = 'pending' AND enabled = 1 AND deleted_at IS NULL;"
	"CREATE TABLE runs ("
	" seq bigserial UNIQUE,"
	" id text COLLATE \"C\" PRIMARY KEY,"
	" task_id text COLLATE \"C\" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,"
	" slot bigint,"
	" trigger text NOT NULL,"
	" status text NOT NULL,"
	" started_at bigint NOT NULL,"
	" ended_at bigint,"
	" exit_code integer,"
	" output text,"
	" error text,"
	" duration_ms bigint,"
	" attempt integer NOT NULL DEFAULT 0,"
	" arming integer NOT NULL DEFAULT 0,"
	" lease_until bigint,"
	" prev_status text,"
	" owner_id text,"
	" owner_host text,"
	" owner_node text,"
	" owner_pid bigint,"
	" owner_start bigint,"
	" note text,"
	" UNIQUE (task_id, slot, arming));"
	"CREATE INDEX runs_task ON runs (task_id, started_at, seq);"
	"CREATE INDEX runs_started ON runs (started_at, seq);"
	"CREATE UNIQUE INDEX runs_in_flight ON runs (task_id) WHERE status = 'running';"
	"CREATE TABLE settings (key text PRIMARY KEY, value text);"
	"CREATE TABLE messages ("
	" id bigserial PRIMARY KEY,"
	" context text NOT NULL,"
	" role text NOT NULL,"
	" content text NOT NULL,"
	" run_id text,"
	" created_at bigint NOT NULL);"
	"CREATE INDEX messages_context ON messages (context, id);"
	"CREATE TABLE llm_calls ("
	" id bigserial PRIMARY KEY,"
	" run_id text,"
	" task_id text,"
	" context text,"
	" provider text,"
	" model text,"
	" system_prompt text,"
	" prompt text,"
	" answer text,"
	" input_tokens bigint,"
	" output_tokens bigint,"
	" finish_reason text,"
	" duration_ms bigint,"
	" error text,"
	" created_at bigint NOT NULL,"
	" tool_calls text);"
	"CREATE INDEX llm_calls_run ON llm_calls (run_id);"
	"CREATE INDEX llm_calls_task ON llm_calls (task_id, id);"
	/* Every process that claims: its heartbeat on the server's clock. */
	"CREATE TABLE processes ("
	" id text PRIMARY KEY,"
	" host text,"
	" node text,"
	" pid bigint,"
	" start bigint,"
	" started_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
	" beat_at timestamptz NOT NULL DEFAULT clock_timestamp(),"
	" dead boolean NOT NULL DEFAULT false);",
	/* 2: who made a task (the user, or an agent with its run or session:
	 * those before were the user's) and the scope agents see it in. */
	"ALTER TABLE tasks ADD COLUMN scope text;"
	"ALTER TABLE tasks ADD COLUMN origin text DEFAULT 'user';"
	"CREATE INDEX tasks_origin ON tasks (origin);",
	/* 3: what an occurrence due during a run does, how late it may start,
	 * the failures in a row that pause a task and why one was paused. */
	"ALTER TABLE tasks ADD COLUMN overlap text NOT NULL DEFAULT 'queue';"
	"ALTER TABLE tasks ADD COLUMN deadline integer NOT NULL DEFAULT 0;"
	"ALTER TABLE tasks ADD COLUMN pause_after integer NOT NULL DEFAULT -1;"
	"ALTER TABLE tasks ADD COLUMN paused text;",
	/* 4: what each model call cost, budgets and notify policies of tasks,
	 * with what they need to notify once per window and on change; spend
	 * summed per window of a task or of all. */
	"ALTER TABLE llm_calls ADD COLUMN cost double precision;"
	"ALTER TABLE tasks ADD COLUMN budget text;"
	"ALTER TABLE tasks ADD COLUMN notify_on text;"
	"ALTER TABLE tasks ADD COLUMN budget_noticed bigint;"
	"ALTER TABLE tasks ADD COLUMN output_hash text;"
	"CREATE INDEX llm_calls_task_time ON llm_calls (task_id, created_at);"
	"CREATE INDEX llm_calls_time ON llm_calls (created_at);",
	/* 5: intervals (--every) from an anchor, --not-before, the opt-out of
	 * the config's stagger (--jitter 0), and the slot a run holds under
	 * max_concurrent (the model it counts for). */
	"ALTER TABLE tasks ADD COLUMN every integer;"
	"ALTER TABLE tasks ADD COLUMN anchor bigint;"
	"ALTER TABLE tasks ADD COLUMN not_before bigint;"
	"ALTER TABLE tasks ADD COLUMN stagger integer;"
	"ALTER TABLE runs ADD COLUMN gate text;",
	/* 6: history bounded: each host's last pass, how much of its history a
	 * task keeps, what pruning removed (so totals only grow), and indexes
	 * that let pruning and task-status read indexes, not rows. */
	"CREATE TABLE passes (host text PRIMARY KEY, at bigint NOT NULL, mode text NOT NULL,"
	" pid bigint, version text);"
	"ALTER TABLE tasks ADD COLUMN keep text;"
	"CREATE TABLE pruned (key text PRIMARY KEY, n bigint NOT NULL);"
	"CREATE INDEX runs_status ON runs (status, task_id, ended_at);"
	"CREATE INDEX llm_calls_created ON llm_calls (created_at, input_tokens, output_tokens);"
	"CREATE INDEX llm_calls_loose ON llm_calls (created_at) WHERE run_id IS NULL;",
	/* 7: indexes that only cost every write: seq orders, nothing looks a
	 * row up by it; tasks by origin only where an agent made them. */
	"ALTER TABLE tasks DROP CONSTRAINT IF EXISTS tasks_seq_key;"
	"ALTER TABLE runs DROP CONSTRAINT IF EXISTS runs_seq_key;"
	"DROP INDEX tasks_origin;"
	"CREATE INDEX tasks_origin ON tasks (origin) WHERE origin <> 'user';",
	/* 8: the one run in flight of a task, and its last success, on the
	 * task's row: a run's end then changes no indexed column of runs, and
	 * the server updates it in place (HOT) instead of adding an entry to
	 * each of its indexes. */
	"ALTER TABLE tasks ADD COLUMN last_success_at bigint;"
	"ALTER TABLE tasks ADD COLUMN run_in_flight text COLLATE \"C\";"
	"UPDATE tasks SET run_in_flight = r.id FROM runs r WHERE r.task_id = tasks.id"
	" AND r.status = 'running';"
	"UPDATE tasks SET last_success_at = s.at FROM (SELECT task_id, max(ended_at) AS at FROM runs"
	" WHERE status = 'success' GROUP BY task_id) AS s WHERE s.task_id = tasks.id;"
	"CREATE INDEX tasks_in_flight ON tasks (run_in_flight) WHERE run_in_flight IS NOT NULL;"
	"DROP INDEX runs_in_flight;"
	"DROP INDEX runs_status;",
	/* 9: the few tasks task-status lists (paused, failing, with a budget
	 * of their own), each from an index of them alone in the order they
	 * are listed: through a cursor, the server would rather walk every
	 * task in that order than sort.  A task enters one only in that state. */
	"CREATE INDEX tasks_paused ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE paused IS NOT NULL AND deleted_at IS NULL;"
	"CREATE INDEX tasks_failing ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted') AND deleted_at IS NULL;"
	"CREATE INDEX tasks_budget ON tasks (id) WHERE budget IS NOT NULL AND deleted_at IS NULL;",
	/* 10: task-web's access tokens (only their SHA-256), each task's HTTP
	 * trigger, and the events' keys that fired; shared by every host. */
	"CREATE TABLE IF NOT EXISTS web_tokens (name text COLLATE \"C\" PRIMARY KEY, hash text NOT NULL UNIQUE,"
	" read_only integer NOT NULL DEFAULT 0, created_at bigint NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hooks (task_id text COLLATE \"C\" PRIMARY KEY, token_hash text, secret text,"
	" created_at bigint NOT NULL);"
	"CREATE TABLE IF NOT EXISTS web_hook_events (task_id text COLLATE \"C\" NOT NULL, key text NOT NULL,"
	" at bigint NOT NULL, body_sha256 text, PRIMARY KEY (task_id, key));",
	/* 11: delivery: a task's targets and which runs go to them, and a
	 * receipt per (run, target) whose id is the idempotency key every
	 * attempt carries; a lease (owner, until) makes one sender at a time. */
	"ALTER TABLE tasks ADD COLUMN deliver text;"
	"ALTER TABLE tasks ADD COLUMN deliver_on text;"
	"CREATE TABLE receipts (id text COLLATE \"C\" PRIMARY KEY,"
	" run_id text COLLATE \"C\" NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" task_id text COLLATE \"C\" NOT NULL, target text NOT NULL, kind text NOT NULL,"
	" status text NOT NULL, attempts integer NOT NULL DEFAULT 0, created_at bigint NOT NULL,"
	" next_at bigint, last_at bigint, answer text, error text,"
	" parts_done integer NOT NULL DEFAULT 0, lease_owner text,"
	" lease_until bigint, UNIQUE (run_id, target));"
	"CREATE INDEX receipts_due ON receipts (next_at) WHERE status = 'pending';"
	"CREATE INDEX receipts_task ON receipts (task_id, created_at);"
	"CREATE INDEX tasks_deliver ON tasks (id) WHERE deliver IS NOT NULL;",
	/* 12: task-web's timeline: the tasks due in a window with what decides
	 * their fires, read from an index of them alone (store_web_herd). */
	"CREATE INDEX tasks_herd ON tasks (next_run_at, kind, cron, tz, every, anchor, not_before,"
	" ends_at) WHERE status = 'pending' AND enabled = 1 AND deleted_at IS NULL"
	" AND next_run_at IS NOT NULL;",
	/* 13: a task's gate, the command that says whether its run is needed. */
	"ALTER TABLE tasks ADD COLUMN gate text;"
	"ALTER TABLE tasks ADD COLUMN gate_timeout integer;",
	/* 14: chains and events: the tasks a task follows (--after), and
	 * the input of each run an upstream's end or an event starts, unique
	 * per (task, key), pending until the claim that starts its run binds
	 * it (store_chain.h). */
	"ALTER TABLE tasks ADD COLUMN after_tasks text;"
	"CREATE INDEX tasks_after ON tasks (id) WHERE after_tasks IS NOT NULL;"
	"CREATE TABLE run_inputs (seq bigserial, id text COLLATE \"C\" PRIMARY KEY,"
	" task_id text COLLATE \"C\" NOT NULL, kind text NOT NULL, key text NOT NULL,"
	" upstream_run text COLLATE \"C\", slot bigint, input text, created_at bigint NOT NULL,"
	" run_id text COLLATE \"C\", UNIQUE (task_id, key));"
	"CREATE INDEX run_inputs_pending ON run_inputs (task_id, created_at) WHERE run_id IS NULL;"
	"CREATE INDEX run_inputs_run ON run_inputs (run_id) WHERE run_id IS NOT NULL;",
	/* 15: spend that pruning does not touch: a ledger of what each task
	 * and all calls together spent by quarter-hour (the grain of every
	 * zone's midnight), filled from the calls on record; and what each
	 * task's last run reserved against its budgets, and has spent. */
	"CREATE TABLE spend (task_id text COLLATE \"C\" NOT NULL, at bigint NOT NULL,"
	" dollars double precision NOT NULL DEFAULT 0, tokens bigint NOT NULL DEFAULT 0,"
	" PRIMARY KEY (task_id, at));"
	"INSERT INTO spend SELECT task_id, created_at - created_at % 900, coalesce(sum(cost), 0),"
	" coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0) FROM llm_calls"
	" WHERE task_id IS NOT NULL AND task_id <> '' GROUP BY 1, 2;"
	"INSERT INTO spend SELECT '', created_at - created_at % 900, coalesce(sum(cost), 0),"
	" coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0) FROM llm_calls"
	" GROUP BY 2;"
	"CREATE TABLE reserves (task_id text COLLATE \"C\" PRIMARY KEY,"
	" run_id text COLLATE \"C\" NOT NULL UNIQUE,"
	" dollars double precision NOT NULL, tokens bigint NOT NULL,"
	" spent double precision NOT NULL DEFAULT 0, spent_tokens bigint NOT NULL DEFAULT 0);",
	/* 16: the audit trail (store_audit.h): append-only, each entry
	 * holding the hash of the one before; an update is refused. */
	"CREATE TABLE IF NOT EXISTS audit (seq bigint PRIMARY KEY, at bigint NOT NULL,"
	" actor text NOT NULL, action text NOT NULL, task_id text COLLATE \"C\", before text,"
	" after text, prev text NOT NULL, hash text NOT NULL);"
	"CREATE INDEX IF NOT EXISTS audit_task ON audit (task_id, seq) WHERE task_id IS NOT NULL;"
	"CREATE OR REPLACE FUNCTION agentcron_audit_append_only() RETURNS trigger LANGUAGE plpgsql"
	" AS $$BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END$$;"
	"CREATE OR REPLACE TRIGGER audit_append_only BEFORE UPDATE ON audit"
	" FOR EACH ROW EXECUTE FUNCTION agentcron_audit_append_only();",
	/* 17: model drift: the model the provider says answered each call,
	 * beside the one asked for (model), and the model a fallback
	 * replaced because the provider said it was gone; a task's fallbacks. */
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS answered_model text;"
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS fallback_from text;"
	"ALTER TABLE tasks ADD COLUMN IF NOT EXISTS fallback_models text;",
	/* 18: the request a conversation began with, in a form any provider
	 * can be sent again (task-run --replay). */
	"ALTER TABLE llm_calls ADD COLUMN IF NOT EXISTS request text;",
	/* 19: a blocked task (waiting for a person) is listed from the
	 * failing tasks' index, in the same walk. */
	"DROP INDEX IF EXISTS tasks_failing;"
	"CREATE INDEX tasks_failing ON tasks ((coalesce(next_run_at, 9223372036854775807)), seq)"
	" WHERE last_status IN ('failed', 'timeout', 'interrupted', 'blocked') AND deleted_at IS NULL;",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* The schema version (0 when the database has none of ours) and the
 * server's clock minus ours, in one round trip: the version table is read
 * only if it exists (query_to_xml runs its query when called), and the
 * clock is taken at the middle of the trip. */
static int
schema_version(struct store *st, int *version, struct err *e)
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

static int
migrate(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int version, rc;
	if ((rc = schema_version(st, &version, e)))
		return rc;
	if (version == SCHEMA_VERSION)
		return ST_OK;
	if (version > SCHEMA_VERSION)
		return store_schema_newer(st, version, SCHEMA_VERSION, e);
	if (st->flags & STORE_READ && version == 0)
		return ST_NOTFOUND;
	char lock[96];
	snprintf(lock, sizeof lock, "SELECT pg_advisory_xact_lock(%ld)", SCHEMA_LOCK);
	if ((rc = simple(st, "BEGIN", "creating the schema", e)))
		return rc;
	/* One host migrates; the others wait here, then find it done. */
	if ((rc = simple(st, lock, "waiting to create the schema", e)) ||
	    (rc = simple(st, "CREATE TABLE IF NOT EXISTS agentcron_schema (version integer NOT NULL)",
	    "creating the schema", e)) || (rc = schema_version(st, &version, e)))
		goto fail;
	for (; version < SCHEMA_VERSION; version++) {
		char bump[96];
		snprintf(bump, sizeof bump, "DELETE FROM agentcron_schema; INSERT INTO agentcron_schema"
		    " VALUES (%d)", version + 1);
		if ((rc = simple(st, migrations[version], "creating the schema", e)) ||
		    (rc = simple(st, bump, "creating the schema", e)))
			goto fail;
	}
	return simple(st, "COMMIT", "creating the schema", e);
fail:
	pq->clear(exec_simple(st, "ROLLBACK"));
	return rc;
}

/* ---- connecting ---- */

/* After a reconnection: what the session had (listening), and the clock. */
static int
session(struct store *st, struct err *e)
{
	int version, rc;
	if (pg(st)->listening && (rc = simple(st, "LISTEN " WAKE_CHANNEL, "listening for wake-ups", e)))
		return rc;
	return schema_version(st, &version, e);
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

static void
pg_close(struct store *st)
{
	struct pg *q = pg(st);
	if (!q)
		return;
	if (q->conn)
		q->pq.finish(q->conn);
	pq_lib_close(&q->pq);
	store_sql_free(&q->sql);
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

static int
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
static int
pg_begin(struct store *st, int of_runs, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int generic = pq->serverVersion(pg(st)->conn) >= 120000;
	char sql[160];
	snprintf(sql, sizeof sql, "BEGIN;%s SET LOCAL enable_bitmapscan = off%s",
	    generic ? " SET LOCAL plan_cache_mode = force_generic_plan;" : "",
	    of_runs ? "; SET LOCAL enable_seqscan = off" : "");
	return simple(st, sql, "starting a transaction", e);
}

/* A commit that fails sends the next operation to find the primary
 * again; one whose connection broke meanwhile may have been made or not
 * (commit_unknown): the caller reads back before it trusts either. */
static int
pg_commit(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	int rc = simple(st, "COMMIT", "committing", e);
	st->commit_unknown = rc && pq->status(pg(st)->conn) != CONNECTION_OK;
	if (rc)
		pg(st)->find_primary = 1;
	return rc;
}

static void
pg_rollback(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	if (pq->status(pg(st)->conn) == CONNECTION_OK)
		pq->clear(exec_simple(st, "ROLLBACK"));
}

/* ---- wake-ups ---- */

static void
pg_wake(struct store *st)
{
	struct err e;
	/* Inside a transaction it goes out at commit; a failure only delays
	 * watchers until their next planned look. */
	simple(st, "NOTIFY " WAKE_CHANNEL, "waking watchers", &e);
}

static int
pg_wake_fd(struct store *st, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg *q = pg(st);
	if (!q->listening) {
		q->listening = 1;
		if (simple(st, "LISTEN " WAKE_CHANNEL, "listening for wake-ups", e))
			return -1;
	}
	return pq->status(q->conn) == CONNECTION_OK ? pq->socket(q->conn) : -1;
}

static int
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

/* ---- tasks ---- */

static int
pg_task_find_twin(struct store *st, const struct task *t, int *found, char id[37], struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext($1))";
	static const char qkey[] = "SELECT id FROM tasks WHERE idem_key = $1 AND deleted_at IS NULL";
	static const char qdup[] = "SELECT id FROM tasks WHERE dedup = $1 AND status = 'pending'"
	    " AND deleted_at IS NULL LIMIT 1";
	char dedup[17], *which;
	struct pq_params p = {.n = 0};
	PGresult *r;
	*found = 0;
	task_dedup_key(t, dedup);
	/* Two hosts adding the same task at once: one of them finds the other's. */
	which = t->key ? xasprintf("key:%s", t->key) : xasprintf("dedup:%s", dedup);
	pq_text(&p, which);
	int rc = pq_do(st, lock, &p, NULL, "looking for a twin", e);
	free(which);
	if (rc)
		return rc;
	pq_text(&p, t->key ? t->key : dedup);
	if ((rc = pq_exec(st, t->key ? qkey : qdup, &p, &r, "looking for a twin", e)))
		return rc;
	if (pq->ntuples(r)) {
		*found = 1;
		pq_get_copy(pq, r, 0, 0, id, 37);
	}
	pq->clear(r);
	return ST_OK;
}

/* A task inserted or updated (row_task); *rows written. */
static int
task_write(struct store *st, const struct task *t, int update, long *rows, const char *what,
    struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row r;
	row_task(&r, t, update);
	pq_bind(&p, &r);
	int rc = pq_do(st, store_sql(&pg(st)->sql, update ? SQL_TASK_UPDATE : SQL_TASK_INSERT), &p,
	    rows, what, e);
	row_free(&r);
	return rc;
}

static int
pg_task_insert(struct store *st, const struct task *t, struct err *e)
{
	return task_write(st, t, 0, NULL, "adding a task", e);
}

static int
pg_task_put(struct store *st, const struct task *t, struct err *e)
{
	long rows = 0;
	int rc = task_write(st, t, 1, &rows, "updating a task", e);
	return !rc && rows == 0 ? ST_NOTFOUND : rc;
}

static int
pg_task_prefix(struct store *st, const struct id_range *ids, int trashed, char (*found)[37],
    int max, int *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* The ids are C-collated: a prefix is a range whatever the database's
	 * collation. */
	struct pq_params p = {.n = 0};
	pq_text(&p, ids->from);
	pq_text(&p, ids->to);
	pq_int(&p, trashed);
	pq_int(&p, max);
	PGresult *r;
	int rc = pq_exec(st, store_sql(&pg(st)->sql, SQL_TASK_PREFIX), &p, &r, "looking up a task",
	    e);
	if (rc)
		return rc;
	*n = pq->ntuples(r) < max ? pq->ntuples(r) : max;
	for (int i = 0; i < *n; i++)
		pq_get_copy(pq, r, i, 0, found[i], 37);
	pq->clear(r);
	return ST_OK;
}

static int
pg_task_get(struct store *st, const char *id, struct task *t, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	PGresult *r;
	const char *q = store_sql(&pg(st)->sql, st->depth ? SQL_TASK_GET_LOCK : SQL_TASK_GET);
	int rc = pq_exec(st, q, &p, &r, "reading a task", e);
	if (rc)
		return rc;
	if (!pq->ntuples(r)) {
		pq->clear(r);
		return ST_NOTFOUND;
	}
	task_read(t, pq_cell, &(struct pq_row){pq, r, 0});
	pq->clear(r);
	return ST_OK;
}

struct list_ctx {
	task_fn fn;
	void *arg;
};

static int
list_row(const struct pq_lib *pq, const PGresult *r, int row, void *arg)
{
	struct list_ctx *c = arg;
	struct task t;
	task_read(&t, pq_cell, &(struct pq_row){pq, r, row});
	int stop = c->fn(&t, c->arg);
	task_free(&t);
	return stop;
}

static int
pg_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	struct pq_params p = {.n = 0};
	struct row r;
	char *q = store_sql_task_list(&dialect, f, 0, &r);
	pq_bind(&p, &r);
	struct list_ctx c = {fn, arg};
	int rc = pq_each_row(st, q, &p, f->limit, list_row, &c, "listing tasks", e);
	free(q);
	row_free(&r);
	return rc;
}

static int
pg_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	struct row row;
	static const char lock[] = "SELECT pg_advisory_xact_lock(hashtext('agentcron task quota'))";
	if (f->serialize) {
		int rc = pq_do(st, lock, &p, NULL, "counting tasks", e);
		if (rc)
			return rc;
	}
	char *q = store_sql_task_list(&dialect, f, 1, &row);
	pq_bind(&p, &row);
	PGresult *r;
	int rc = pq_exec_dynamic(st, q, &p, &r, "counting tasks", e);
	free(q);
	row_free(&row);
	if (!rc) {
		*n = (long)pq_get_int(pq, r, 0, 0);
		pq->clear(r);
	}
	return rc;
}

/* An update of task id by one of its instants (now). */
static int
task_stamp(struct store *st, const char *sql, const char *id, int64_t now, const char *what,
    struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, id);
	pq_int(&p, now);
	long rows = 0;
	int rc = pq_do(st, sql, &p, &rows, what, e);
	return !rc && rows == 0 ? ST_NOTFOUND : rc;
}

static int
pg_task_trash(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET deleted_at = $2, updated_at = $2"
	    " WHERE id = $1 AND deleted_at IS NULL";
	return task_stamp(st, q, id, now, "deleting a task", e);
}

static int
pg_trash_restore(struct store *st, const char *id, char restored[37], struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char qid[] = "UPDATE tasks SET deleted_at = NULL WHERE id = $1"
	    " AND deleted_at IS NOT NULL RETURNING id";
	static const char qlast[] = "UPDATE tasks SET deleted_at = NULL WHERE id ="
	    " (SELECT id FROM tasks WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, seq DESC"
	    " LIMIT 1) RETURNING id";
	struct pq_params p = {.n = 0};
	if (id)
		pq_text(&p, id);
	PGresult *r;
	int rc = pq_exec(st, id ? qid : qlast, &p, &r, "restoring a task", e);
	if (rc)
		return rc;
	int found = pq->ntuples(r) > 0;
	if (found)
		pq_get_copy(pq, r, 0, 0, restored, 37);
	pq->clear(r);
	return found ? ST_OK : ST_NOTFOUND;
}

static int
pg_trash_purge(struct store *st, long *n, struct err *e)
{
	static const char q[] = "DELETE FROM tasks WHERE deleted_at IS NOT NULL";
	return pq_do(st, q, NULL, n, "emptying the trash", e);
}

static int
pg_task_queue(struct store *st, const char *id, int64_t now, struct err *e)
{
	static const char q[] = "UPDATE tasks SET queued = 1, updated_at = $2 WHERE id = $1"
	    " AND deleted_at IS NULL";
	return task_stamp(st, q, id, now, "queueing a run", e);
}

static int
pg_setting_get(struct store *st, const char *key, char **value, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "SELECT value FROM settings WHERE key = $1";
	struct pq_params p = {.n = 0};
	pq_text(&p, key);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "reading a setting", e);
	if (rc)
		return rc;
	if (pq->ntuples(r))
		*value = pq_get_text(pq, r, 0, 0);
	pq->clear(r);
	return ST_OK;
}

static int
pg_setting_set(struct store *st, const char *key, const char *value, struct err *e)
{
	static const char qset[] = "INSERT INTO settings (key, value) VALUES ($1, $2)"
	    " ON CONFLICT (key) DO UPDATE SET value = excluded.value";
	static const char qdel[] = "DELETE FROM settings WHERE key = $1";
	struct pq_params p = {.n = 0};
	pq_text(&p, key);
	if (value)
		pq_text(&p, value);
	return pq_do(st, value ? qset : qdel, &p, NULL, "writing a setting", e);
}

/* ---- owners ---- */

static int
pg_owner_start(struct store *st, struct err *e)
{
	static const char q[] = "INSERT INTO processes (id, host, node, pid, start) VALUES ($1, $2,"
	    " $3, $4, $5)";
	/* Long-gone processes: nothing refers to them once their runs ended. */
	static const char qold[] = "DELETE FROM processes WHERE beat_at < clock_timestamp() -"
	    " interval '7 days' AND NOT EXISTS (SELECT 1 FROM runs WHERE " STORE_SQL_IN_FLIGHT
	    " AND runs.owner_id = processes.id)";
	struct pq_params p = {.n = 0};
	const struct owner *o = &st->self;
	pq_text(&p, o->id);
	pq_text(&p, o->host);
	pq_text(&p, o->node);
	pq_int(&p, o->pid);
	pq_int(&p, o->start);
	int rc = pq_do(st, q, &p, NULL, "registering this process", e);
	return rc ? rc : pq_do(st, qold, NULL, NULL, "forgetting old processes", e);
}

static int
pg_owner_beat(struct store *st, int *alive, struct err *e)
{
	static const char q[] = "UPDATE processes SET beat_at = clock_timestamp() WHERE id = $1"
	    " AND NOT dead";
	struct pq_params p = {.n = 0};
	long rows = 0;
	pq_text(&p, st->self.id);
	int rc = pq_do(st, q, &p, &rows, "showing this process is alive", e);
	*alive = rows > 0;
	return rc;
}

static void
pg_owner_stop(struct store *st)
{
	const struct pq_lib *pq = pq_of(st);
	static const char q[] = "DELETE FROM processes WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM"
	    " runs WHERE " STORE_SQL_IN_FLIGHT " AND runs.owner_id = $1)";
	struct pq_params p = {.n = 0};
	struct err e;
	if (st->depth || pq->status(pg(st)->conn) != CONNECTION_OK)
		return;
	pq_text(&p, st->self.id);
	pq_do(st, q, &p, NULL, "leaving", &e);
}

static int
pg_owner_bury(struct store *st, const char *owner_id, int64_t stale_after, int *dead, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	/* Gone from the table counts as dead; a sign of life since does not. */
	static const char q[] = "WITH buried AS (UPDATE processes SET dead = true WHERE id = $1 AND"
	    " beat_at < clock_timestamp() - make_interval(secs => $2) RETURNING 1)"
	    " SELECT EXISTS (SELECT 1 FROM buried) OR NOT EXISTS (SELECT 1 FROM processes WHERE id = $1)";
	struct pq_params p = {.n = 0};
	pq_text(&p, owner_id);
	pq_int(&p, stale_after);
	PGresult *r;
	int rc = pq_exec(st, q, &p, &r, "declaring a silent process dead", e);
	if (rc)
		return rc;
	*dead = strcmp(pq->getvalue(r, 0, 0), "t") == 0;
	pq->clear(r);
	return ST_OK;
}

static const struct store_ops pg_ops = {
	.close = pg_close,
	.refresh = pg_refresh,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.task_find_twin = pg_task_find_twin,
	.task_insert = pg_task_insert,
	.task_prefix = pg_task_prefix,
	.task_get = pg_task_get,
	.task_put = pg_task_put,
	.task_list = pg_task_list,
	.task_count = pg_task_count,
	.task_trash = pg_task_trash,
	.trash_restore = pg_trash_restore,
	.trash_purge = pg_trash_purge,
	.task_queue = pg_task_queue,
	.setting_get = pg_setting_get,
	.setting_set = pg_setting_set,
	.run_list = pg_run_list,
	.run_prefix = pg_run_prefix,
	.owner_start = pg_owner_start,
	.owner_beat = pg_owner_beat,
	.owner_stop = pg_owner_stop,
	.owner_bury = pg_owner_bury,
	.claim_scan = pg_claim_scan,
	.run_insert = pg_run_insert,
	.run_finish = pg_run_finish,
	.tasks_put_many = pg_tasks_put_many,
	.runs_finish_many = pg_runs_finish_many,
	.runs_insert_many = pg_runs_insert_many,
	.run_note = pg_run_note,
	.run_gate = pg_run_gate,
	.due_next = pg_due_next,
	.run_claims = pg_run_claims,
	.wake = pg_wake,
	.wake_fd = pg_wake_fd,
	.wake_take = pg_wake_take,
	.history_load = pg_history_load,
	.history_add = pg_history_add,
	.history_clear = pg_history_clear,
	.call_add = pg_call_add,
	.call_list = pg_call_list,
	.call_spend = pg_call_spend,
	.spend_add = pg_spend_add,
	.spend_read = pg_spend_read,
	.reserve = pg_reserve,
	.run_cost = pg_run_cost,
	.call_usage = pg_call_usage,
	.history = &pg_history_ops,
	.web = &pg_web_ops,
	.audit = &pg_audit_ops,
	.deliver = &pg_deliver_ops,
	.chain = &pg_chain_ops,
};

int
store_pg_durability(struct store *st, char *off, size_t n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, "SELECT string_agg(name, ' and ' ORDER BY name) FROM pg_settings"
	    " WHERE name IN ('fsync', 'synchronous_commit') AND setting = 'off'"
	    " AND coalesce(current_setting('agentcron.allow_nondurable', true), '') <> 'on'",
	    NULL, &r, "reading the server's durability settings", e);
	if (rc)
		return rc;
	pq_get_copy(pq, r, 0, 0, off, n);
	pq->clear(r);
	return ST_OK;
}

/* Unknown (sync_state hidden from a role without pg_read_all_stats) says
 * nothing. */
int
store_pg_async_standbys(struct store *st, long *n, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	PGresult *r;
	int rc = pq_exec(st, "SELECT count(*) FROM pg_stat_replication HAVING count(*) > 0"
	    " AND count(sync_state) = count(*) AND bool_and(sync_state NOT IN ('sync', 'quorum'))"
	    " AND coalesce(current_setting('agentcron.allow_nondurable', true), '') <> 'on'",
	    NULL, &r, "reading the server's standbys", e);
	if (rc)
		return rc;
	*n = pq->ntuples(r) ? pq_get_int(pq, r, 0, 0) : 0;
	pq->clear(r);
	return ST_OK;
}

int
store_pg_open(struct store *st, const char *uri, struct err *e)
{
	char locator[2048];
	store_locator_of(uri, locator, sizeof locator);
	set_str(&st->name, locator);
	set_str(&st->locator, locator);
	if (!st->password)
		st->password = pg_uri_password(uri);
	struct pg *q = xcalloc(1, sizeof *q);
	q->uri = xstrdup(uri);
	store_sql_init(&q->sql, &dialect);
	st->be = q;
	st->ops = &pg_ops;
	int rc = pq_lib_open(&q->pq, e);
	if (!rc)
		rc = pg_connect(st, e);
	if (!rc)
		rc = migrate(st, e);
	/* A server that stops answering after login fails the statement
	 * (its connection cut) instead of holding the program forever;
	 * programs that know better set their own (store_deadline). */
	if (!rc && !st->op_ms)
		st->op_ms = STORE_PG_OP_MS;
	if (rc) {
		pg_close(st);
		st->ops = NULL;
	}
	return rc;
}
