/* Fencing this process when the store stops taking its signs of life,
 * and recovering the runs of owners that died. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "fire.h"
#include "fire_owner.h"
#include "proc.h"
#include "run_file.h"

/* Partition fencing.  Others may recover this process's runs once the
 * store has had no sign of life from it for owner_timeout; three quarters
 * of that after the last one taken, its executors' groups get SIGTERM, then
 * SIGKILL within an eighth more, and are waited for here (the store cannot
 * be: it is not answering), so none runs when another host may start its
 * occurrence again.  Their results wait to be recorded as interrupted,
 * or as late notes if another host recovered them first. */
void
fire_fence(struct fire *f)
{
	/* A file store's owners share this machine: a live one is never
	 * taken for dead, however long the store kept it waiting. */
	if (!f->registered || !f->nruns || f->fencing || mono_ms() < f->fence_at ||
	    !f->server)
		return;
	f->fencing = 1;
	/* What ended meanwhile (while the store held this process) is not
	 * ended again: its end is read first, within the drain time. */
	struct exec_result x;
	for (int64_t wait = EXEC_DRAIN_MS + 50; f->nruns && exec_pool_wait(f->pool, wait, NULL, 0, &x);
	    wait = 0)
		fire_job_ended(f, &x, now_of(f));
	if (!f->nruns)
		return;
	int64_t grace = FENCE_KILL_MS(f->o.owner_timeout);
	fire_warn(f, "the store has not taken a sign of life from this process for %lld s; ending its"
	    " %zu run%s before others may recover them", (long long)((mono_ms() - f->fence_at) / 1000
	    + FENCE_AFTER_MS(f->o.owner_timeout) / 1000), f->nruns, f->nruns == 1 ? "" : "s");
	exec_pool_stop_within(f->pool, grace < f->o.kill_grace_ms ? grace : f->o.kill_grace_ms);
	int64_t until = mono_ms() + grace + EXEC_DRAIN_MS + 1000;
	while (f->nruns && mono_ms() < until && exec_pool_wait(f->pool, until - mono_ms(), NULL, 0, &x))
		fire_job_ended(f, &x, now_of(f));
}

struct recovery {
	struct fire *f;
	int64_t now;
	int n, rc;
	struct err *e;
};

static int
job_is_run(void *tag, void *arg)
{
	const struct job *j = tag;
	return !j->is_hook && strcmp(j->run.id, arg) == 0;
}

/* Is this run one this process still has (running, waiting for a slot or
 * to be recorded)? */
static int
still_ours(const struct fire *f, const char *run_id)
{
	for (size_t i = 0; i < f->npending; i++)
		if (strcmp(f->pending[i]->run.id, run_id) == 0)
			return 1;
	for (size_t i = 0; i < f->ngated; i++)
		if (strcmp(f->gated[i]->run.id, run_id) == 0)
			return 1;
	return exec_pool_find(f->pool, job_is_run, (void *)run_id);
}

static int
recover_one(const struct run_claim *c, void *arg)
{
	struct recovery *rv = arg;
	struct fire *f = rv->f;
	const struct owner *o = &c->owner;
	int here = strcmp(o->node, f->self.node) == 0;
	char why[512];
	int64_t start, stale = 0;
	why[0] = 0;
	if (strcmp(o->id, f->self.id) == 0) {
		if (still_ours(f, c->id))
			return 0;
		snprintf(why, sizeof why, "this process claimed it but lost track of it (a claim whose"
		    " commit was not confirmed)");
	} else if (here && (proc_start_time((pid_t)o->pid, &start) != 0 || start != o->start)) {
		snprintf(why, sizeof why, "the process running it (pid %lld) ended before the run finished",
		    o->pid);
	} else if (c->silent > f->o.owner_timeout) {
		stale = f->o.owner_timeout;
		snprintf(why, sizeof why, "the process running it (pid %lld on %s) stopped showing signs of"
		    " life %lld s ago", o->pid, o->host, (long long)c->silent);
	} else if (c->lease_until != TIME_NONE && c->lease_until < rv->now) {
		char when[40];
		time_fmt_utc(c->lease_until, when, sizeof when);
		snprintf(why, sizeof why, "its lease ran out at %s; the process running it (pid %lld on %s)"
		    " stopped answering", when, o->pid, o->host);
	}
	if (!why[0])
		return 0;
	if (here) {
		int killed = proc_kill_tagged("TASK_RUN_ID", c->id);
		size_t l = strlen(why);
		if (killed)
			snprintf(why + l, sizeof why - l, "; %d process%s it left behind %s killed", killed,
			    killed == 1 ? "" : "es", killed == 1 ? "was" : "were");
		/* The files its ticker made for it, which no one else removes. */
		run_files_remove(c->id);
	}
	struct job *j = xcalloc(1, sizeof *j);
	struct run *r = &j->run;
	*r = (struct run){.slot = c->slot, .started_at = c->started_at, .ended_at = rv->now,
		.exit_code = -1, .attempt = c->attempt, .arming = c->arming};
	memcpy(r->id, c->id, sizeof r->id);
	memcpy(r->task_id, c->task_id, sizeof r->task_id);
	memcpy(r->prev_status, c->prev_status, sizeof r->prev_status);
	r->trigger = c->trigger;
	r->status = RUN_INTERRUPTED;
	r->error = xstrdup(why);
	r->duration_ms = c->started_at != TIME_NONE && rv->now >= c->started_at
	    ? (rv->now - c->started_at) * 1000 : -1;
	struct end_ctx x = {.f = f, .now = rv->now, .jobs = &j, .n = 1};
	int done = 0;
	int rc = store_run_recover(f->st, c, stale, r, fire_after_end, &x, &done, rv->e);
	if (rc) {
		fire_job_free(j);
		rv->rc = rc;
		return 1;
	}
	if (done) {
		rv->n++;
		fire_announce(f, j);
	}
	fire_job_free(j);
	return 0;
}

int
fire_recover(struct fire *f, int *n, struct err *e)
{
	struct recovery rv = {.f = f, .now = now_of(f), .e = e};
	int rc = store_run_claims(f->st, recover_one, &rv, e);
	if (n)
		*n = rv.n;
	rc = rc ? rc : rv.rc;
	if (rc)
		fire_store_down(f, e);
	return rc;
}
