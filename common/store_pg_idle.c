/* The PostgreSQL backend's idle note (idle_hint.h).  Every write on the
 * server, by any host or program, takes a transaction id.  A pass from
 * cron reads its first look in one snapshot, with the next id to be
 * given then and whether any transaction was in progress, and records
 * itself (a write: it takes an id).  When it took that very id, and found
 * nothing to do, nothing else was written between its look and its
 * record: it notes the id after its own with what it looked at.  The next
 * pass records itself first and, when it took the noted id, or the ids
 * between are other hosts' records of their passes, nothing was written
 * since: it notes the id after its own and exits without reading a task.
 * Any other id (a write since, by anyone) sends it the whole way; after
 * IDLE_MISS_MAX such passes in a row, passes ask again only after
 * IDLE_MISS_WAIT_S. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "idle_hint.h"
#include "store_pg.h"

int
pg_idle_look(struct store *st, struct claim_look *look)
{
	const struct pg_idle_seen *s = pq_idle_seen(st);
	struct err quiet;
	/* Anything sent after the record (a round of pruning, a read) may
	 * have taken an id: one look more, in a snapshot of its own. */
	if ((!s->note_xid || s->sent != pq_sent(st)) && pg_look_note(st, &quiet))
		return 0;
	/* A pending input keeps its task queued, or in flight. */
	if (!s->looked || !s->note_xid || s->others || s->in_flight || s->receipts)
		return 0;
	*look = (struct claim_look){.paused = s->paused, .next = s->due, .queued = s->queued};
	return 1;
}

int
pg_idle_mark(struct store *st, const char *cfg, int64_t due, int64_t written, int *marked,
    struct err *e)
{
	const struct pg_idle_seen *s = pq_idle_seen(st);
	const struct pg_idle_found *f = &s->found;
	struct idle_server srv = {s->started, s->note_xid, 0, 0};
	if (f->had && f->missed) {
		srv.misses = f->misses + 1;
		srv.retry_at = srv.misses >= IDLE_MISS_MAX ? written + IDLE_MISS_WAIT_S : 0;
	} else if (f->had) {
		srv.misses = f->misses;
		srv.retry_at = f->retry_at;
	}
	int rc = idle_hint_server_write(pg_uri_of(st), cfg, due, written, written, &srv, e);
	*marked = !rc;
	return rc;
}

/* The fast pass's one statement: the pass recorded (as pgh_pass_put does,
 * its commit not waiting for the disk), its time, the server's start, the
 * transaction id it took, and how many ids since the noted one (from) are
 * other hosts' records of their passes: the id each took is its row's
 * xmin, 32 bits of the 64 (a record is a transaction of its own; a host
 * that recorded twice since shows its last, and an id unaccounted for
 * sends the pass the whole way). */
static int
take_statement(struct store *st, int64_t fixed, long long from, struct idle_server *srv,
    long long *others, int64_t *at)
{
	static const char q[] = "WITH quiet AS (SELECT set_config('synchronous_commit', 'off', true)),"
	    " put AS (INSERT INTO passes (host, at, mode, pid, version) SELECT $1, coalesce($2::bigint,"
	    " floor(extract(epoch FROM clock_timestamp()))::bigint), 'cron', $3, $4 FROM quiet"
	    " ON CONFLICT (host) DO UPDATE SET at = excluded.at, mode = excluded.mode,"
	    " pid = excluded.pid, version = excluded.version RETURNING at)"
	    " SELECT (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint,"
	    " txid_current(), (SELECT at FROM put), (SELECT count(*) FROM passes WHERE host <> $1"
	    " AND ((xmin::text::bigint - $5::bigint % 4294967296) % 4294967296 + 4294967296)"
	    " % 4294967296 < txid_current() - $5::bigint)";
	const struct pq_lib *pq = pq_of(st);
	char host[256];
	history_host(host, sizeof host);
	struct pq_params p = {.n = 0};
	pq_text(&p, host);
	pq_time(&p, fixed);
	pq_int(&p, (long long)getpid());
	pq_text(&p, AC_VERSION);
	pq_int(&p, from);
	PGresult *r;
	struct err quiet;
	int rc = pq_exec_dynamic(st, q, &p, &r, "recording a pass", &quiet);
	pq_params_free(&p);
	if (rc)
		return rc;
	srv->started = pq_get_int(pq, r, 0, 0);
	srv->next_xid = pq_get_int(pq, r, 0, 1);
	*at = pq_get_int(pq, r, 0, 2);
	*others = pq_get_int(pq, r, 0, 3);
	pq->clear(r);
	return ST_OK;
}

int
pg_idle_take(struct store *st, const char *cfg, int64_t now)
{
	int64_t due, written, at;
	struct idle_server was, is = {0};
	struct pg_idle_found *f = &pq_idle_seen(st)->found;
	const char *uri = pg_uri_of(st);
	if (!idle_hint_server_read(uri, cfg, &due, &written, &was))
		return 0;
	*f = (struct pg_idle_found){.had = 1, .misses = was.misses, .retry_at = was.retry_at};
	const char *fixed = getenv("TASK_NOW");
	int64_t clock = fixed && *fixed ? now : TIME_NONE;
	if ((clock != TIME_NONE && !idle_hint_holds(due, written, clock)) ||
	    (was.retry_at && now < was.retry_at))
		return 0;
	long long others;
	if (take_statement(st, clock, was.next_xid, &is, &others, &at))
		return 0;
	/* Recorded once: a second record would be an id the other hosts'
	 * notes cannot account for, and theirs would never hold. */
	f->recorded = 1;
	/* Its id is the noted one, or the ids between are other hosts'
	 * records: nothing else was written. */
	if (is.started != was.started || is.next_xid < was.next_xid ||
	    is.next_xid - was.next_xid != others) {
		f->missed = 1;
		return 0;
	}
	if (!idle_hint_holds(due, written, at))
		return 0;
	is.next_xid++;
	/* Unwritten, the next pass finds the id taken and goes the whole way:
	 * this one is done either way. */
	struct err quiet;
	idle_hint_server_write(uri, cfg, due, written, at, &is, &quiet);
	return 1;
}
