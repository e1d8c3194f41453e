/* Firing: the pass and the public API of fire.h.
 *
 * A claim is one atomic operation of the store (store_claim): the task is
 * read and held, what it does decided (claim_decide.h, fire_claim.c), a
 * run row inserted (unique per task, instant and arming; one in flight per
 * task) and the task marked running with its next run moved on.  Executors
 * start only after it commits (fire_run.c), so a crash before fires nothing
 * and a crash after leaves a running row that recovery ends
 * (fire_recover.c).  How a run ended is recorded by another atomic
 * operation, as the run's owner (store_runs_end, fire_end.c); a result the
 * store cannot take yet is kept and tried again, never dropped. */
#define _GNU_SOURCE
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fire.h"
#include "fire_owner.h"
#include "notify.h"
#include "proc.h"

/* How many executors the open-file limit leaves room for. */
static int
jobs_allowed(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return INT_MAX;
	long room = ((long)rl.rlim_cur - FDS_RESERVED) / FDS_PER_RUN;
	return room < 1 ? 1 : room > INT_MAX ? INT_MAX : (int)room;
}

int
fire_new(struct store *st, const struct fire_opts *o, const struct fire_cb *cb, struct fire **out,
    struct err *e)
{
	struct fire *f = xcalloc(1, sizeof *f);
	f->st = st;
	f->o = *o;
	/* The store's facts that every child is told, read once. */
	f->db = xstrdup(store_locator(st));
	f->db_password = store_password(st) ? xstrdup(store_password(st)) : NULL;
	f->server = store_is_uri(f->db);
	scrub_load(&f->scrub, o->cf, NULL, NULL);
	scrub_add(&f->scrub, store_password(st));
	if (cb)
		f->cb = *cb;
	if (f->o.jobs < 1)
		f->o.jobs = 1;
	int allowed = jobs_allowed();
	if (f->o.jobs > allowed) {
		fire_warn(f, "-j %d needs more open files than the limit allows (ulimit -n); running at most"
		    " %d at once", f->o.jobs, allowed);
		f->o.jobs = allowed;
	}
	if (f->o.timeout <= 0)
		f->o.timeout = FIRE_DEFAULT_TIMEOUT;
	if (f->o.kill_grace_ms <= 0)
		f->o.kill_grace_ms = EXEC_KILL_GRACE_MS;
	if (f->o.owner_timeout <= 0)
		f->o.owner_timeout = FIRE_OWNER_TIMEOUT;
	f->zs = zones_new();
	zones_set_stagger(f->zs, f->o.stagger);
	f->pool = exec_pool_new();
	/* A run's processes that leave its group (setsid) and outlive its
	 * executor come here, not to init, so its end can end them too. */
	f->reaper = proc_subreaper() == 0;
	struct err pe;
	if (notify_on_parse(o->notify_on ? o->notify_on : NOTIFY_DEFAULT, &f->notify_on, &pe))
		notify_on_parse(NOTIFY_DEFAULT, &f->notify_on, &pe);
	struct budget *g = &f->spend.global;
	if (o->budget && budget_parse(o->budget, g, &pe))
		g->set = 0;
	f->spend.tz = o->budget_tz;
	spend_check_fresh(&f->spend);
	f->retry_ms = RECORD_RETRY_MIN;
	int rc = owner_self(&f->self, e);
	if (rc) {
		fire_free(f);
		return rc;
	}
	due_cursor_init(&f->cur);
	*out = f;
	return ST_OK;
}

void
fire_free(struct fire *f)
{
	if (!f)
		return;
	exec_pool_free(f->pool);
	for (size_t i = 0; i < f->npending; i++)
		fire_job_free(f->pending[i]);
	free(f->pending);
	for (size_t i = 0; i < f->ngated; i++)
		fire_job_free(f->gated[i]);
	free(f->gated);
	zones_free(f->zs);
	idset_free(&f->fired);
	scrub_free(&f->scrub);
	free(f->db);
	if (f->db_password) {
		explicit_bzero(f->db_password, strlen(f->db_password));
		free(f->db_password);
	}
	free(f);
}

int
fire_jobs(const struct fire *f)
{
	return f->o.jobs;
}

size_t
fire_running(const struct fire *f)
{
	return f->nruns;
}

size_t
fire_busy(const struct fire *f)
{
	return f->nruns + f->nhooks;
}

size_t
fire_unrecorded(const struct fire *f)
{
	return f->npending;
}

void
fire_pass_begin(struct fire *f)
{
	due_cursor_init(&f->cur);
	idset_clear(&f->fired);
	f->overlap_at = 0;
	f->more_due = 0;
	f->scanned_due = 0;
}

int
fire_claim(struct fire *f, int *started, int *more, struct err *e)
{
	struct claimed *c;
	int rc = fire_claim_now(f, &c, started, more, e);
	/* What the claims made true is told, and the runs they took start,
	 * once they are done with the store (those of a claim that failed
	 * after them too: they were committed). */
	fire_tell(f);
	fire_start_claimed(f, c, *started);
	free(c);
	/* What no claim took along is recorded on its own. */
	struct err e1;
	if (f->npending && mono_ms() >= f->retry_at && fire_record_pending(f, &e1) && !rc)
		*e = e1;
	f->claimed = !rc && !f->npending;
	/* Followers queued by ends just recorded: the pass looks again. */
	if (f->chained) {
		f->chained = 0;
		f->more_due = 0;
		store_wake(f->st);
		*more = 1;
	}
	return rc;
}

int
fire_paused(struct fire *f, char **since, struct err *e)
{
	char *v = NULL;
	if (store_setting_get(f->st, STORE_SETTING_PAUSED, &v, e))
		return -1;
	if (since)
		*since = v;
	else
		free(v);
	return v != NULL;
}

int
fire_next_due(struct fire *f, int64_t *due, struct err *e)
{
	return fire_claim_next(f, due, e);
}

int
fire_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg), void *arg,
    struct err *e)
{
	return fire_claim_preview(f, fn, arg, e);
}

int
fire_wait(struct fire *f, int64_t timeout_ms, const int *fds, int nfds, struct err *e)
{
	int status = ST_OK, defer = f->claimed;
	f->claimed = 0;
	fire_fence(f);
	fire_beat(f, 0);
	fire_fence(f);
	if (f->npending && mono_ms() >= f->retry_at && fire_record_pending(f, e))
		status = ST_ERR;
	if (f->nreplace && mono_ms() >= f->cancel_at) {
		f->cancel_at = mono_ms() + CANCEL_POLL_MS;
		exec_pool_find(f->pool, fire_cancel_if_asked, f);
	}
	if (f->nreplace) {
		int64_t until = f->cancel_at - mono_ms();
		if (until < 0)
			until = 0;
		if (timeout_ms < 0 || until < timeout_ms)
			timeout_ms = until;
	}
	/* Wake for the next sign of life and the next try to record.  Before
	 * its first claim a process gives no sign of life and has nothing to
	 * record: it sleeps as long as its caller says. */
	if (f->registered) {
		int64_t until = f->beat_at - mono_ms();
		if (f->npending && f->retry_at - mono_ms() < until)
			until = f->retry_at - mono_ms();
		if (f->nruns && f->fence_at - mono_ms() < until)
			until = f->fence_at - mono_ms();
		if (until < 0)
			until = 0;
		if (timeout_ms < 0 || until < timeout_ms)
			timeout_ms = until;
	}
	/* Runs waiting for a slot look again every GATE_POLL_MS. */
	if (f->ngated && (timeout_ms < 0 || timeout_ms > GATE_POLL_MS))
		timeout_ms = GATE_POLL_MS;
	struct exec_result x;
	if (!exec_pool_wait(f->pool, timeout_ms, fds, nfds, &x)) {
		if (f->ngated)
			fire_gates_try(f);
		return status;
	}
	int64_t gather_until = mono_ms() + (f->server ? GATHER_SERVER_MS : GATHER_FILE_MS);
	size_t before = f->npending;
	for (;;) {
		fire_job_ended(f, &x, now_of(f));
		if (f->npending - before >= WAIT_BATCH)
			break;
		if (exec_pool_wait(f->pool, 0, NULL, 0, &x))
			continue;
		/* In a burst, more ends a moment later make one claim of several;
		 * not for a run that goes on long after the others ended. */
		int64_t left = gather_until - mono_ms();
		if (left > GATHER_GAP_MS)
			left = GATHER_GAP_MS;
		int enough = !f->nruns || (!f->server && 2 * (f->o.jobs - (int)f->nruns) >= f->o.jobs);
		if (!f->more_due || left <= 0 || enough || !exec_pool_wait(f->pool, left, NULL, 0, &x))
			break;
	}
	/* Recorded now unless earlier ones still wait for the store, or the
	 * claim that follows takes them along. */
	if (!defer && f->npending > before && (before == 0 || mono_ms() >= f->retry_at) &&
	    fire_record_pending(f, e))
		status = ST_ERR;
	return status;
}

int
fire_flush(struct fire *f, int64_t deadline_ms, struct err *e)
{
	while (f->npending) {
		if (fire_record_pending(f, e) == ST_OK)
			return ST_OK;
		int64_t wait = f->retry_at - mono_ms();
		if (mono_ms() + (wait > 0 ? wait : 0) > deadline_ms)
			return ST_ERR;
		if (wait > 0)
			poll(NULL, 0, (int)wait);
	}
	return ST_OK;
}

void
fire_stop(struct fire *f)
{
	for (size_t i = 0; i < f->ngated; i++)
		fire_gate_end(f, f->gated[i], RUN_INTERRUPTED, xstrdup("stopped while it waited for a "
		    "concurrency slot; not run"));
	f->ngated = 0;
	exec_pool_stop(f->pool);
}
