/* This process as the store knows it: registered before its first claim,
 * its signs of life, the store said down and back; and what every part of
 * firing shares (warnings, a job's end, the list of ends to record). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fire_owner.h"

void
fire_warn(struct fire *f, const char *fmt, ...)
{
	if (!f->cb.warn)
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	f->cb.warn(msg, f->cb.arg);
}

void
fire_job_free(struct job *j)
{
	if (!j)
		return;
	run_free(&j->run);
	free(j->name);
	free(j->hook);
	free(j->notify);
	free(j->paused);
	free(j->cancel);
	exec_argv_free(j->argv);
	exec_argv_free(j->envp);
	free(j->input);
	if (j->input_file)
		unlink(j->input_file);
	free(j->input_file);
	if (j->outcome_file)
		unlink(j->outcome_file);
	free(j->outcome_file);
	free(j->gate);
	if (j->waits)
		task_free(j->waits);
	free(j->waits);
	free(j->base);
	free(j);
}

/* How long a statement may wait for the store: while runs are in flight,
 * no later than they would be fenced; never more than a third of
 * owner_timeout (at least 20 s, beyond a lock wait). */
void
fire_bound_waits(struct fire *f)
{
	int64_t op = f->o.owner_timeout * 1000 / 3;
	store_deadline(f->st, f->nruns && f->registered ? f->fence_at : 0, op > 20000 ? op : 20000);
}

/* The store failed: say so once, and once more when it is back. */
void
fire_store_down(struct fire *f, const struct err *e)
{
	if (!f->down && f->o.watch)
		fire_warn(f, "%s; firing nothing until it is back", e->msg);
	f->down = 1;
}

void
fire_store_up(struct fire *f)
{
	if (f->down && f->o.watch)
		fire_warn(f, "store '%s' is back", store_name(f->st));
	f->down = 0;
}

/* A sign of life sent at sent was taken: others may recover this
 * process's runs owner_timeout after it at the earliest. */
static void
alive_since(struct fire *f, int64_t sent)
{
	f->fence_at = sent + FENCE_AFTER_MS(f->o.owner_timeout);
	f->fencing = 0;
	fire_bound_waits(f);
}

/* The process shown to the store, before its first claim: a pass with
 * nothing to run writes nothing (on PostgreSQL, no commit to wait for). */
int
fire_enlist(struct fire *f, struct err *e)
{
	if (f->registered)
		return ST_OK;
	int64_t sent = mono_ms();
	int rc = store_owner_start(f->st, &f->self, e);
	if (rc)
		return rc;
	f->registered = f->alive = 1;
	f->beat_at = mono_ms() + BEAT_EVERY_MS(f->o.owner_timeout);
	alive_since(f, sent);
	return ST_OK;
}

/* Sign of life, when due.  A process declared dead (silent too long: its
 * runs were recovered by others) takes a new identity; what it still runs
 * is recorded as a late result. */
void
fire_beat(struct fire *f, int force)
{
	if (!f->registered || (!force && mono_ms() < f->beat_at))
		return;
	f->beat_at = mono_ms() + BEAT_EVERY_MS(f->o.owner_timeout);
	struct err e;
	int renewed;
	int64_t sent = mono_ms();
	int rc = store_owner_sign(f->st, &f->self, &renewed, &e);
	if (renewed)
		fire_warn(f, "this process was silent for more than %d s and others recovered its runs;"
		    " going on under a new identity", f->o.owner_timeout);
	if (rc) {
		f->alive = 0;
		fire_store_down(f, &e);
		return;
	}
	f->alive = 1;
	alive_since(f, sent);
	/* Back means writable: a full disk still answers reads, and a file
	 * store's beat writes nothing (one machine needs none). */
	if (f->server)
		fire_store_up(f);
}

/* Fit to claim what is due (due: something is due or queued): registered
 * before the first claim, and its last sign of life taken.  1 yes, 0 no,
 * else the error, negated. */
int
fire_fit(struct fire *f, int due, struct err *e)
{
	/* An unregistered process only reads: a read that works is the store back. */
	if (!f->registered)
		fire_store_up(f);
	if (!due)
		return 0;
	if (!f->registered) {
		int rc = fire_enlist(f, e);
		if (rc) {
			fire_store_down(f, e);
			return -rc;
		}
	} else if (!f->alive) {
		fire_beat(f, 1);
	}
	return f->alive;
}

void
fire_keep_pending(struct fire *f, struct job *j)
{
	if (f->npending == f->cappending) {
		f->cappending = f->cappending ? 2 * f->cappending : 16;
		f->pending = xrealloc(f->pending, f->cappending * sizeof *f->pending);
	}
	f->pending[f->npending++] = j;
}
