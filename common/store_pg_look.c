/* What an idle pass of task-tick reads, in few statements.  In a new
 * session each statement's first plan loads the catalog entries of every
 * relation it touches, and each statement is a round trip: such a pass
 * paid more for that than for its reads.  So a statement that the pass
 * sends also reads what the calls after it will ask (the pause, the next
 * due task; pruning's settings and deliveries, store_pg_history.c), and
 * those calls take the answers read ahead instead of asking the server.
 * An answer is as good as a read at that moment only while nothing else is
 * sent on the connection: any later statement (a write of ours, another
 * read) voids them all, as do a transaction (its reads are its own) and
 * AHEAD_MS (a watcher sleeps between its looks). */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

/* ---- answers read ahead ---- */

#define AHEAD_MS 250      /* answers older than this are not taken */
#define AHEAD_MAX 8
#define AHEAD_VAL 128     /* longer answers are not kept: the call asks */

struct ahead {
	unsigned long sent;   /* pq_sent when they were read */
	int64_t at;           /* mono_ms */
	int n;
	struct {
		char key[24];
		char val[AHEAD_VAL];
		int null, taken;
	} a[AHEAD_MAX];
};

void
pq_ahead_start(struct store *st)
{
	struct ahead **h = (struct ahead **)pq_ahead(st);
	if (!*h)
		*h = xcalloc(1, sizeof **h);
	memset(*h, 0, sizeof **h);
	(*h)->sent = pq_sent(st);
	(*h)->at = mono_ms();
}

void
pq_ahead_put(struct store *st, const char *key, const PGresult *r, int col)
{
	const struct pq_lib *pq = pq_of(st);
	struct ahead *h = *pq_ahead(st);
	if (!h || h->n == AHEAD_MAX || strlen(key) >= sizeof h->a[0].key)
		return;
	const char *v = pq->getisnull(r, 0, col) ? NULL : pq->getvalue(r, 0, col);
	if (v && strlen(v) >= AHEAD_VAL)
		return;
	snprintf(h->a[h->n].key, sizeof h->a[0].key, "%s", key);
	snprintf(h->a[h->n].val, AHEAD_VAL, "%s", v ? v : "");
	h->a[h->n].null = !v;
	h->n++;
}

int
pq_ahead_take(struct store *st, const char *key, char **value)
{
	struct ahead *h = *pq_ahead(st);
	*value = NULL;
	if (!h || h->sent != pq_sent(st) || st->depth || mono_ms() - h->at > AHEAD_MS)
		return 0;
	for (int i = 0; i < h->n; i++)
		if (!h->a[i].taken && strcmp(h->a[i].key, key) == 0) {
			h->a[i].taken = 1;
			*value = h->a[i].null ? NULL : xstrdup(h->a[i].val);
			return 1;
		}
	return 0;
}

int
pq_ahead_take2(struct store *st, const char *k1, char **v1, const char *k2, char **v2)
{
	*v2 = NULL;
	if (pq_ahead_take(st, k1, v1) && pq_ahead_take(st, k2, v2))
		return 1;
	free(*v1);
	*v1 = NULL;
	return 0;
}

/* ---- a pass's first look ---- */

/* fsync or synchronous_commit off, unless the server is said to be meant
 * so: the settings themselves, not the pg_settings view, which builds
 * every setting of the server to show two (a millisecond at each pass).
 * Unknown standbys' states (sync_state hidden from a role without
 * pg_read_all_stats) say nothing; the function under pg_stat_replication,
 * read without the view, whose join cost a millisecond to plan. */
#define NONDURABLE_OK "coalesce(current_setting('agentcron.allow_nondurable', true), '') = 'on'"
#define CHECKS "(SELECT count(*) FROM pg_stat_get_wal_senders() HAVING count(*) > 0" \
	" AND count(sync_state) = count(*) AND bool_and(sync_state NOT IN ('sync', 'quorum'))" \
	" AND NOT " NONDURABLE_OK "), CASE WHEN NOT " NONDURABLE_OK " THEN nullif(concat_ws(" \
	"' and ', CASE WHEN current_setting('fsync') = 'off' THEN 'fsync' END, CASE WHEN" \
	" current_setting('synchronous_commit') = 'off' THEN 'synchronous_commit' END), '') END, "

/* store_sql.c's SQL_DUE_NEXT, but the earlier of two first rows by
 * least(), not min() over a union, which the planner plans twice (as an
 * aggregate, then as an index's first row), each plan of tasks weighing
 * its many indexes: a millisecond of each pass's new session. */
#define DUE_NEXT "least((SELECT due_at FROM tasks WHERE " STORE_SQL_DUE_WHERE " ORDER BY due_at" \
	" LIMIT 1), (SELECT due_at FROM tasks WHERE " STORE_SQL_OVERLAP_WHERE " ORDER BY due_at" \
	" LIMIT 1)), EXISTS (SELECT 1 FROM tasks WHERE " STORE_SQL_QUEUED_WHERE ")"

/* In flight, the pause ($1), the next due task; for an idle pass's note
 * (store_pg_idle.c), the snapshot they were read in: the next transaction
 * id, whether any was in progress, and the server's start. */
#define LOOK "EXISTS (SELECT 1 FROM tasks WHERE run_in_flight IS NOT NULL), (SELECT value" \
	" FROM settings WHERE key = $1), " DUE_NEXT ", txid_snapshot_xmax(txid_current_snapshot())," \
	" EXISTS (SELECT FROM txid_snapshot_xip(txid_current_snapshot()))," \
	" (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint"

/* The idle note's part of a look, its columns from c. */
static void
seen_read(struct store *st, const PGresult *r, int c)
{
	const struct pq_lib *pq = pq_of(st);
	struct pg_idle_seen *seen = pq_idle_seen(st);
	struct pg_idle_found found = seen->found;
	*seen = (struct pg_idle_seen){.looked = 1, .found = found, .in_flight = strcmp(pq->getvalue(r, 0, c), "t") == 0,
		.paused = !pq->getisnull(r, 0, c + 1), .due = pq_get_time(pq, r, 0, c + 2),
		.queued = strcmp(pq->getvalue(r, 0, c + 3), "t") == 0,
		.next_xid = pq_get_int(pq, r, 0, c + 4),
		.others = strcmp(pq->getvalue(r, 0, c + 5), "t") == 0,
		.started = pq_get_int(pq, r, 0, c + 6)};
}

int
pg_look_note(struct store *st, struct err *e)
{
	struct pq_params p = {.n = 0};
	pq_text(&p, STORE_SETTING_PAUSED);
	PGresult *r;
	int rc = pq_exec(st, "SELECT " LOOK ", EXISTS (SELECT 1 FROM receipts WHERE status = 'pending')",
	    &p, &r, "looking for work", e);
	if (rc)
		return rc;
	seen_read(st, r, 0);
	struct pg_idle_seen *seen = pq_idle_seen(st);
	seen->receipts = strcmp(pq_of(st)->getvalue(r, 0, 7), "t") == 0;
	/* The snapshot's next id is the first any write after it takes. */
	seen->note_xid = seen->next_xid;
	seen->sent = pq_sent(st);
	pq_of(st)->clear(r);
	return ST_OK;
}

int
pg_look(struct store *st, int checks, struct pg_look *out, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	struct pq_params p = {.n = 0};
	pq_text(&p, STORE_SETTING_PAUSED);
	PGresult *r;
	int rc = pq_exec(st, checks ? "SELECT " CHECKS LOOK : "SELECT " LOOK, &p, &r,
	    checks ? "reading the server's standbys" : "listing running runs", e);
	if (rc)
		return rc;
	int c = checks ? 2 : 0;
	*out = (struct pg_look){0};
	if (checks) {
		out->standbys = pq_get_int(pq, r, 0, 0);
		pq_get_copy(pq, r, 0, 1, out->durability, sizeof out->durability);
	}
	out->in_flight = strcmp(pq->getvalue(r, 0, c), "t") == 0;
	seen_read(st, r, c);
	pq_ahead_start(st);
	if (checks)
		pq_ahead_put(st, "durability", r, 1);
	pq_ahead_put(st, "in_flight", r, c);
	/* What runs in flight may change once they are recovered. */
	if (!out->in_flight) {
		pq_ahead_put(st, "setting:" STORE_SETTING_PAUSED, r, c + 1);
		pq_ahead_put(st, "due", r, c + 2);
		pq_ahead_put(st, "queued", r, c + 3);
	}
	pq->clear(r);
	return ST_OK;
}

/* task-tick asks for the standbys, then the durability, then the runs in
 * flight, the pause and the next due task: the first of them reads all. */
int
pg_async_standbys(struct store *st, long *n, struct err *e)
{
	struct pg_look look;
	int rc = pg_look(st, 1, &look, e);
	*n = rc ? 0 : look.standbys;
	return rc;
}

int
pg_durability(struct store *st, char *off, size_t n, struct err *e)
{
	char *ahead;
	struct pg_look look;
	if (pq_ahead_take(st, "durability", &ahead)) {
		snprintf(off, n, "%s", ahead ? ahead : "");
		free(ahead);
		return ST_OK;
	}
	int rc = pg_look(st, 1, &look, e);
	if (!rc)
		snprintf(off, n, "%s", look.durability);
	return rc;
}

int
pg_due_next(struct store *st, int64_t *due, int *queued, struct err *e)
{
	const struct pq_lib *pq = pq_of(st);
	char *d, *q;
	if (pq_ahead_take2(st, "due", &d, "queued", &q)) {
		*due = d ? strtoll(d, NULL, 10) : TIME_NONE;
		*queued = q && strcmp(q, "t") == 0;
		free(d);
		free(q);
		return ST_OK;
	}
	PGresult *r;
	int rc = pq_exec(st, "SELECT " DUE_NEXT, NULL, &r, "looking for due tasks", e);
	if (rc)
		return rc;
	*due = pq_get_time(pq, r, 0, 0);
	*queued = strcmp(pq->getvalue(r, 0, 1), "t") == 0;
	pq->clear(r);
	return ST_OK;
}
