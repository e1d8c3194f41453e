/* How runs ended: recorded as their owner with the rules of fire_rules.h
 * (alone, or riding on the next claim's commit), then reported and told
 * to the notify hook; a result the store cannot take waits and is tried
 * again. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "fire_env.h"
#include "fire_owner.h"
#include "fire_rules.h"
#include "notify.h"
#include "outcome.h"
#include "proc.h"
#include "run_diff.h"
#include "store_audit.h"
#include "store_deliver.h"
#include "utf8.h"

/* The task after one of ctx's jobs ended: the rules, and what to announce. */
int
fire_after_end(struct task *t, const struct run *r, int *write, void *arg, struct err *e)
{
	struct end_ctx *x = arg;
	struct job *j = NULL;
	for (size_t i = 0; i < x->n && !j; i++)
		if (&x->jobs[i]->run == r)
			j = x->jobs[i];
	/* What the hook hears of is decided on the task as the run found it. */
	unsigned mask = x->f->notify_on;
	struct err pe;
	char hash[17];
	if (t->notify_on && notify_on_parse(t->notify_on, &mask, &pe))
		mask = x->f->notify_on;
	int event = j && j->no_resources ? -1 : notify_run_event(t, r, mask, hash);
	if (hash[0] && !(j && j->no_resources))
		set_str(&t->output_hash, hash);
	int was_paused = t->paused != NULL, was_enabled = t->enabled;
	int queued = 0, rc = ST_OK;
	if (j && j->no_resources)
		rules_unstarted(t, x->f->zs, r, x->now);
	else
		rules_after_run(t, x->f->zs, r, x->now);
	/* A pause after failures is a change to the task: on the audit trail. */
	if (!was_paused && t->paused && (rc = store_audit_auto_pause(x->f->st, t, was_enabled, e)))
		return rc;
	/* Its followers' inputs, in the unit of work that records the end. */
	if (!(j && j->no_resources) && (rc = chain_fire(x->f->st, x->f->zs, t, r, x->now, &queued, e)))
		return rc;
	x->f->chained |= queued > 0;
	/* A retry cut short: the attempt that failed before it was the last. */
	if (rules_retry_cut(t, r) &&
	    (rc = chain_fire_given_up(x->f->st, x->f->zs, t, r->slot, x->now, &queued, e)))
		return rc;
	x->f->chained |= queued > 0;
	/* A run longer than the span an idle look for runs to deliver reads
	 * (task-run in the foreground) is named to it. */
	if ((rc = store_deliver_late(x->f->st, r, e)))
		return rc;
	/* More inputs wait behind the one this run took: this pass runs them. */
	x->f->chained |= t->queued && (r->trigger == TRIGGER_AFTER || r->trigger == TRIGGER_EVENT);
	if (j && !was_paused && t->paused)
		set_str(&j->paused, t->paused);
	if (j) {
		set_str(&j->name, t->name);
		set_str(&j->notify, !str_empty(t->notify) ? t->notify : x->f->o.notify);
		/* A pause is told whatever the policy, as its own event. */
		j->event = j->paused ? EV_PAUSED : event;
	}
	*write = 1;
	return ST_OK;
}

/* A late success of one of ctx's jobs: does it complete its occurrence? */
static int
task_late(struct task *t, const struct run *r, void *arg)
{
	const struct end_ctx *x = arg;
	return rules_late_success(t, x->f->zs, r);
}

/* Hand an event to a notify hook (in the background, like a run). */
static void
notify(struct fire *f, const struct hook_event *ev, const char *hook)
{
	struct job *j = xcalloc(1, sizeof *j);
	j->is_hook = 1;
	j->hook = xstrdup(hook);
	snprintf(j->run.id, sizeof j->run.id, "%s", ev->run ? ev->run->id : "");
	snprintf(j->run.task_id, sizeof j->run.task_id, "%s", ev->task_id);
	j->input = fire_hook_event(ev);
	f->nhooks++;
	struct err e;
	if (exec_split(hook, &j->argv, &e)) {
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, e.msg);
		return;
	}
	j->envp = fire_hook_env(ev, f->db);
	fire_env_password(&j->envp, f->db_password);
	struct exec_cmd c = fire_job_cmd(f, j, FIRE_HOOK_TIMEOUT * 1000);
	c.cap = 64 * 1024;
	exec_pool_start(f->pool, &c, j);
}

static void
hook_done(struct fire *f, struct job *j, const struct exec_result *x)
{
	f->nhooks--;
	if (x->how != EXEC_EXITED || x->code != 0) {
		const char *err = x->err ? x->err + strspn(x->err, " \t\n") : "";
		int n = (int)strcspn(err, "\n");
		char about[64];
		snprintf(about, sizeof about, j->run.id[0] ? "run %.8s" : "task '%.8s'",
		    j->run.id[0] ? j->run.id : j->run.task_id);
		fire_warn(f, "notify hook '%s' failed for %s: %s%s%.*s", j->hook, about,
		    x->why[0] ? x->why : "failed", n ? ": " : "", n < 200 ? n : 200, err);
	}
	fire_job_free(j);
}

void
fire_notify(struct fire *f, const struct task *t, int event, const struct run *r,
    const char *reason)
{
	const char *hook = !str_empty(t->notify) ? t->notify : f->o.notify;
	struct hook_event ev = {event, t->id, t->name, r, reason, NULL};
	if (hook)
		notify(f, &ev, hook);
}

/* Report a recorded run and pass it to its hook, as its policy says.
 * Events beside the run's own (an auto-pause) go through fire_notify. */
/* A change's diff from the answer before (NULL: none, or unreadable:
 * the hook is told all the same). */
static char *
change_diff(struct fire *f, const struct run *r)
{
	struct run prev;
	struct err e;
	int found = 0;
	if (run_diff_base(f->st, r, &prev, &found, &e) || !found)
		return NULL;
	struct buf out = {0};
	run_diff(&prev, r, 0, &out);
	run_free(&prev);
	return out.data;
}

void
fire_announce(struct fire *f, struct job *j)
{
	const char *hook = j->no_resources || j->event < 0 ? NULL : j->notify;
	struct fire_report rep = {.run = &j->run, .name = j->name ? j->name : "", .hook = hook,
	    .told = j->idle_told};
	if (f->cb.report)
		f->cb.report(&rep, f->cb.arg);
	char *diff = hook && j->event == EV_CHANGE ? change_diff(f, &j->run) : NULL;
	struct hook_event ev = {j->event, j->run.task_id, j->name, &j->run,
		j->event == EV_PAUSED ? j->paused : NULL, diff};
	if (j->paused)
		fire_warn(f, "task '%s' (%.8s) is %s; task-edit --enable %.8s resumes it",
		    j->name ? j->name : "", j->run.task_id, j->paused, j->run.task_id);
	if (hook)
		notify(f, &ev, hook);
	/* A fallback is told once a task and day, whatever the policy: the day
	 * of the config's zone (else the local one), as the global budget's. */
	char reason[300];
	int64_t now = now_of(f), day = now - (now % 86400 + 86400) % 86400;
	const struct tz *z;
	struct err ze;
	if (j->notify && !zones_get(f->zs, f->spend.tz ? f->spend.tz : zones_local(f->zs), &z, &ze))
		day = budget_window(PERIOD_DAY, z, now);
	if (j->notify && !j->no_resources && notify_fallback_first(f->st, j->run.task_id, j->run.id,
	    day, reason, sizeof reason)) {
		struct hook_event fb = {EV_FALLBACK, j->run.task_id, j->name, &j->run, reason, NULL};
		notify(f, &fb, j->notify);
	}
	free(diff);
}

/* A run recorded: announced if its end was ours, else kept as a late
 * result (said); let go. */
static void
tell_end(struct fire *f, struct job *j, int ours, int completed)
{
	if (ours)
		fire_announce(f, j);
	else
		fire_warn(f, "run %.8s of task '%.8s' had been recovered as interrupted before it"
		    " ended; its result (%s) is kept as the run's note%s", j->run.id, j->run.task_id,
		    run_status_name(j->run.status), completed
		    ? ", and completed its occurrence: the retry armed at recovery is cancelled" : "");
	fire_job_free(j);
}

/* The retry of n's occurrence was given up by a committed claim: the
 * attempt that failed fires the followers it held back, in a unit of its
 * own (once per run, however often: its inputs are keyed by it). */
static void
given_up(struct fire *f, struct notice *n)
{
	struct err e;
	int queued = 0, rc = store_begin(f->st, &e);
	if (!rc)
		rc = chain_fire_given_up(f->st, f->zs, &n->task, n->given_up, now_of(f), &queued, &e);
	if (!rc)
		rc = store_commit(f->st, &e);
	if (rc) {
		store_rollback(f->st);
		fire_warn(f, "task '%.8s': the followers of its failed occurrence were not told: %s",
		    n->task.id, e.msg);
	}
	f->chained |= !rc && queued > 0;
}

/* A skip or a pause of a committed claim told: a pause as its own event,
 * a skip once a window (a streak), as the hook hears of a budget skip: a
 * line in the pass's output (tick.log), and cron's mail without a hook.
 * Other skips have no hook event. */
static void
tell_notice(struct fire *f, struct notice *n)
{
	if (n->given_up) {
		given_up(f, n);
		return;
	}
	if (n->event == EV_PAUSED) {
		fire_warn(f, "task '%s' (%.8s) is %s; task-edit --enable %.8s resumes it",
		    n->task.name ? n->task.name : "", n->task.id, n->task.paused, n->task.id);
		fire_notify(f, &n->task, EV_PAUSED, NULL, n->task.paused);
		return;
	}
	const char *hook = n->event != EV_BUDGET ? NULL : !str_empty(n->task.notify)
	    ? n->task.notify : f->o.notify;
	struct fire_report rep = {.run = &n->run, .name = n->task.name, .hook = hook};
	if (f->cb.report)
		f->cb.report(&rep, f->cb.arg);
	if (n->event == EV_BUDGET)
		fire_notify(f, &n->task, EV_BUDGET, &n->run, n->run.error);
}

static void
notice_free(struct notice *n)
{
	task_free(&n->task);
	run_free(&n->run);
	free(n);
}

/* n (a chain) to tell after the claims, in its order. */
static void
tell_later(struct fire *f, struct notice *n)
{
	if (!f->told)
		f->told_end = &f->told;
	*f->told_end = n;
	while (*f->told_end)
		f->told_end = &(*f->told_end)->next;
}

void
fire_notices_keep(struct fire *f, struct claim_ctx *x, int committed)
{
	struct notice *n = x->notices;
	x->notices = NULL;
	if (committed) {
		tell_later(f, n);
		return;
	}
	while (n) {
		struct notice *next = n->next;
		notice_free(n);
		n = next;
	}
}

void
fire_tell(struct fire *f)
{
	while (f->told) {
		struct notice *n = f->told;
		f->told = n->next;
		if (n->ended)
			tell_end(f, n->ended, n->ours, n->completed);
		else
			tell_notice(f, n);
		notice_free(n);
	}
}

/* jobs[0..n) were recorded (ends says how): told now. */
static void
recorded(struct fire *f, struct job **jobs, const struct run_end *ends, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tell_end(f, jobs[i], ends[i].ours, ends[i].completed);
}

/* Record jobs[0..n) as their owner, in one transaction. */
static int
record(struct fire *f, struct job **jobs, size_t n, struct err *e)
{
	struct run_end ends[WAIT_BATCH];
	struct end_ctx x = {.f = f, .now = now_of(f), .jobs = jobs, .n = n};
	for (size_t i = 0; i < n; i++)
		ends[i] = (struct run_end){.run = &jobs[i]->run, .owner = jobs[i]->owner};
	int rc = store_runs_end(f->st, ends, n, fire_after_end, task_late, &x, e);
	if (!rc)
		recorded(f, jobs, ends, n);
	return rc;
}

/* The pending runs ride along with a claim (req): one commit records them
 * and claims more.  Not while recording waits out a failure. */
void
fire_ride_attach(struct fire *f, struct claim_req *q, struct ride *rd, int64_t now)
{
	rd->n = 0;
	if (!f->npending || mono_ms() < f->retry_at)
		return;
	rd->n = f->npending;
	rd->ends = xcalloc(rd->n, sizeof *rd->ends);
	rd->x = (struct end_ctx){.f = f, .now = now, .jobs = f->pending, .n = rd->n};
	for (size_t i = 0; i < rd->n; i++)
		rd->ends[i] = (struct run_end){.run = &f->pending[i]->run, .owner = f->pending[i]->owner};
	q->ends = rd->ends;
	q->nends = rd->n;
	q->end = fire_after_end;
	q->late = task_late;
	q->end_arg = &rd->x;
}

/* After the claim that carried them: done if it committed, else they wait. */
void
fire_ride_settle(struct fire *f, struct claim_req *q, struct ride *rd, int committed)
{
	if (!rd->n)
		return;
	q->ends = NULL;
	q->nends = 0;
	if (committed) {
		/* Told after the claims, with what they made true. */
		for (size_t i = 0; i < rd->n; i++) {
			struct notice *n = xcalloc(1, sizeof *n);
			n->ended = f->pending[i];
			n->ours = rd->ends[i].ours;
			n->completed = rd->ends[i].completed;
			tell_later(f, n);
		}
		memmove(f->pending, f->pending + rd->n, (f->npending - rd->n) * sizeof *f->pending);
		f->npending -= rd->n;
		f->retry_ms = RECORD_RETRY_MIN;
	}
	free(rd->ends);
	rd->n = 0;
}

/* Record what waits to be recorded; what fails again waits longer. */
int
fire_record_pending(struct fire *f, struct err *e)
{
	int status = ST_OK;
	size_t done = 0;
	while (done < f->npending) {
		size_t n = f->npending - done < WAIT_BATCH ? f->npending - done : WAIT_BATCH;
		struct err e1;
		if (record(f, f->pending + done, n, &e1) == ST_OK) {
			done += n;
			continue;
		}
		/* One by one, so one run that cannot be written holds no other. */
		size_t kept = 0;
		for (size_t i = 0; i < n; i++) {
			struct job *j = f->pending[done + i];
			if (record(f, &j, 1, &e1) != ST_OK) {
				*e = e1;
				status = ST_ERR;
				f->pending[kept++] = j;
			}
		}
		memmove(f->pending + kept, f->pending + done + n,
		    (f->npending - done - n) * sizeof *f->pending);
		f->npending -= done + n - kept;
		done = kept;
		if (status)
			break;
	}
	if (!status) {
		f->npending = 0;
		f->retry_ms = RECORD_RETRY_MIN;
		fire_store_up(f);
		return ST_OK;
	}
	f->retry_at = mono_ms() + f->retry_ms;
	f->retry_ms = f->retry_ms * 2 < RECORD_RETRY_MAX ? f->retry_ms * 2 : RECORD_RETRY_MAX;
	fire_store_down(f, e);
	return status;
}

/* A run in flight asked to end (its note), by a replacement or a person, is ended. */
int
fire_cancel_if_asked(void *tag, void *arg)
{
	struct fire *f = arg;
	struct job *j = tag;
	struct run r;
	struct err e;
	if (j->is_hook || !j->replaceable || j->cancel || store_run_get(f->st, j->run.id, &r, &e))
		return 0;
	size_t l = strlen(STORE_CANCEL_NOTE);
	if (r.status == RUN_RUNNING && r.note && strncmp(r.note, STORE_CANCEL_NOTE, l) == 0) {
		j->cancel = xstrdup(r.note + l);
		exec_pool_stop_tag(f->pool, j);
	}
	run_free(&r);
	return 0;
}

/* How a run asked to end ended: cancelled, with why. */
static void
job_cancelled(struct job *j)
{
	if (!j->cancel || j->no_resources || j->run.status == RUN_SUCCESS)
		return;
	char *why = xasprintf("%s; ended by SIGTERM%s%s", j->cancel, j->run.error ? ": " : "",
	    j->run.error ? j->run.error : "");
	free(j->run.error);
	j->run.error = why;
	j->run.status = RUN_CANCELLED;
}

/* What an ended job leaves: a hook is done; a run waits to be recorded. */
static int
in_pool(pid_t pid, void *arg)
{
	return exec_pool_has_pid(arg, pid);
}

/* Every process the run started ends with it: those left to us as
 * subreaper that carry its TASK_RUN_ID, whatever session they made or
 * signal they ignore; without the subreaper, a scan of this user's
 * processes when the run was ended by us or left its group behind. */
static void
end_left_behind(struct fire *f, struct job *j, const struct exec_result *x)
{
	int n = f->reaper ? proc_end_left_children("TASK_RUN_ID", j->run.id, x->pid, in_pool,
	    f->pool)
	    : x->stopped || x->leftovers || x->how == EXEC_TIMEOUT
	    ? proc_kill_tagged("TASK_RUN_ID", j->run.id) : 0;
	if (!n)
		return;
	char *why = xasprintf("%s%s%d process%s it started outside its group outlived it and %s killed",
	    j->run.error ? j->run.error : "", j->run.error ? "; " : "", n, n == 1 ? "" : "es",
	    n == 1 ? "was" : "were");
	free(j->run.error);
	j->run.error = why;
}

/* The gate of run j ended as x says: 0, the run goes on (its executor
 * started, 1 returned); 1, nothing to do: a skip, no model called; else a
 * failure of the run, as an executor's would be. */
static int
gate_ended(struct fire *f, struct job *j, struct exec_result *x, int64_t now)
{
	struct task *t = j->waits;
	char *base = j->base;
	j->waits = NULL;
	j->base = NULL;
	exec_argv_free(j->argv);
	exec_argv_free(j->envp);
	free(j->input);
	j->argv = j->envp = NULL;
	j->input = NULL;
	int exited = x->how == EXEC_EXITED && !x->stopped;
	int go = exited && x->code == 0 && !j->cancel;
	if (go) {
		char *out = utf8_clean(x->out ? x->out : "", x->out ? strlen(x->out) : 0);
		fire_run_executor(f, j, t, base, out);
		free(out);
	} else if (exited && x->code == 1) {
		/* Told once per streak of them, as other skips are. */
		j->idle_told = !(t->last_status && !strcmp(t->last_status, "skipped") && t->last_error &&
		    !strncmp(t->last_error, STORE_GATE_IDLE, strlen(STORE_GATE_IDLE)));
		const char *o = x->out ? x->out + strspn(x->out, " \t\r\n") : "";
		int n = utf8_cut(o, strcspn(o, "\r\n") < 300 ? strcspn(o, "\r\n") : 300);
		j->run.status = RUN_SKIPPED;
		free(j->run.error);
		j->run.error = n ? xasprintf(STORE_GATE_IDLE ": %.*s", n, o) : xstrdup(STORE_GATE_IDLE);
		j->run.exit_code = -1;
		j->run.ended_at = now;
		j->run.duration_ms = x->duration_ms;
		free(base);
	} else {
		j->no_resources = rules_run_ended(&j->run, x, now);
		/* Passed, but the run was asked to end meanwhile: it ends here. */
		if (j->run.status == RUN_SUCCESS)
			j->run.status = RUN_FAILED;
		const char *was = j->run.error ? j->run.error : "failed";
		/* The exec layer names what it could not find an executor. */
		int cmd = strncmp(was, "executor '", 10) == 0;
		char *why = xasprintf("gate: %s%s", cmd ? "command " : "", was + (cmd ? 9 : 0));
		free(j->run.error);
		j->run.error = why;
		/* What the gate printed is not the run's answer. */
		free(j->run.output);
		j->run.output = NULL;
		j->run.exit_code = -1;
		free(base);
	}
	task_free(t);
	free(t);
	return go;
}

void
fire_job_ended(struct fire *f, struct exec_result *x, int64_t now)
{
	struct job *j = x->tag;
	if (j->is_hook) {
		hook_done(f, j, x);
	} else if (j->waits && gate_ended(f, j, x, now)) {
		/* Its executor runs now. */
	} else {
		if (j->run.status == RUN_RUNNING) {
			j->no_resources = rules_run_ended(&j->run, x, now);
			outcome_apply(&j->run, x, j->outcome_file);
		}
		end_left_behind(f, j, x);
		/* A task that prints the config stores no key. */
		scrub_in_place(&f->scrub, &j->run.output);
		scrub_in_place(&f->scrub, &j->run.error);
		job_cancelled(j);
		if (f->fencing && x->stopped && j->run.status == RUN_INTERRUPTED) {
			char *why = xasprintf("ended on this host, whose sign of life the store had not"
			    " taken for %d s (3/4 of owner_timeout), before others could recover it%s%s",
			    (int)(FENCE_AFTER_MS(f->o.owner_timeout) / 1000), j->run.error ? "; " : "",
			    j->run.error ? j->run.error : "");
			free(j->run.error);
			j->run.error = why;
		}
		f->nruns--;
		f->nreplace -= j->replaceable != 0;
		fire_bound_waits(f);
		fire_keep_pending(f, j);
	}
	exec_result_free(x);
}
