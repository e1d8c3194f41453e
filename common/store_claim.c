/* Units of work, and what store.h builds in one for both backends from
 * their primitives: claims (the ends a pass brings first, then the due
 * tasks scanned, decided by the caller, their runs inserted and the tasks
 * written together), ends of runs, recovery of another process's runs; a
 * claim whose commit went unanswered read back.  The rest of the store
 * (store.c) opens its units here. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_backend.h"

void
due_cursor_init(struct due_cursor *c)
{
	c->due = INT64_MIN;
	c->id[0] = 0;
}

void
claimed_free(struct claimed *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		task_free(&c[i].task);
		run_free(&c[i].run);
	}
}

/* ---- units of work ---- */

int
store_unit_begin(struct store *st, int of_runs, struct err *e)
{
	if (st->depth)
		return err_set(e, ST_ERR, "store '%s': a unit of work is already open", st->name);
	int rc = st->ops->begin(st, of_runs, e);
	if (!rc) {
		st->depth = 1;
		st->unit++;
	}
	return rc;
}

int
store_begin(struct store *st, struct err *e)
{
	return store_unit_begin(st, 0, e);
}

int
store_commit(struct store *st, struct err *e)
{
	int rc = st->ops->commit(st, e);
	if (!rc)
		st->depth = 0;
	return rc;
}

void
store_rollback(struct store *st)
{
	if (st->depth)
		st->ops->rollback(st);
	st->depth = 0;
}

/* A unit around fn's steps unless the caller already has one. */
int
store_own_begin(struct store *st, int *own, struct err *e)
{
	*own = !st->depth;
	return *own ? store_begin(st, e) : ST_OK;
}

int
store_own_end(struct store *st, int own, int rc, struct err *e)
{
	if (!own)
		return rc;
	if (!rc)
		rc = store_commit(st, e);
	if (rc)
		store_rollback(st);
	return rc;
}

/* A write of the scheduler's own (claims, ends of runs): never audited. */
int
store_task_put_plain(struct store *st, const struct task *t, struct err *e)
{
	int rc = st->ops->task_put(st, t, e);
	if (rc == ST_REFUSED)
		return err_set(e, rc, "another task already has key '%s'", t->key ? t->key : "");
	return rc == ST_NOTFOUND ? err_set(e, rc, "no task '%s'", t->id) : rc;
}

/* ---- claims and ends of runs ---- */

/* The run of that id (ST_NOTFOUND bare: none), read in the claim's unit. */
static int
run_by_id(struct store *st, const char *id, struct run *r, struct err *e)
{
	struct id_range ids;
	struct run two[2];
	int n = 0;
	/* '~' sorts after every character of an id: the id alone. */
	snprintf(ids.from, sizeof ids.from, "%s", id);
	snprintf(ids.to, sizeof ids.to, "%s~", id);
	int rc = st->ops->run_prefix(st, &ids, two, &n, e);
	if (rc || !n)
		return rc ? rc : ST_NOTFOUND;
	for (int i = 1; i < n; i++)
		run_free(&two[i]);
	*r = two[0];
	return ST_OK;
}

/* What becomes of a run's task when it ends, and of a late success's. */
struct end_rules {
	end_fn fn;
	late_fn late;
	void *arg;
};
/* The tasks a group of ends changed (w, each as read beside it in was),
 * when a claim writes them with its own: one statement for both. */
struct end_writes {
	struct task *t, *read;
	const struct task **w, **was;
	int *found;
	size_t n, nw;
};
static void end_writes_free(struct end_writes *ew);
static int ends_write(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *keep, struct err *e);
static int tasks_put_many(struct store *st, const struct task *const *t,
    const struct task *const *before, size_t n, struct err *e);

/* What a claim decided for each task it read (the first n), the task as read
 * beside it where the backend writes only what changed. */
struct decided {
	struct task *read;
	struct run *runs;
	int *decision, *dup;
	int n;
};

/* The one run in flight of a task is on its row, set by the claim that
 * starts it and cleared by the write that ends it, so that a run's end
 * changes no indexed column of runs. */
static void
in_flight_set(struct task *t, const char *run_id)
{
	snprintf(t->run_in_flight, sizeof t->run_in_flight, "%s", run_id);
	t->run_in_flight_set = 1;
}

/* The end of r on its task t (held): no longer its run in flight, and its
 * last success if r succeeded; whether t changed. */
static int
task_run_ended(struct task *t, const struct run *r)
{
	int changed = 0;
	if (r->status == RUN_SUCCESS && r->ended_at != TIME_NONE &&
	    (t->last_success_at == TIME_NONE || r->ended_at > t->last_success_at)) {
		t->last_success_at = r->ended_at;
		changed = 1;
	}
	if (strcmp(t->run_in_flight, r->id) == 0) {
		in_flight_set(t, "");
		changed = 1;
	}
	return changed;
}

static int
decide(struct store *st, claim_fn fn, void *arg, struct task *tasks, const int *last, int got,
    struct decided *d, struct err *e)
{
	int rc = ST_OK;
	for (d->n = 0; !rc && d->n < got; d->n++) {
		int i = d->n;
		run_init(&d->runs[i]);
		d->decision[i] = CLAIM_SKIP;
		if (d->read)
			task_copy(&d->read[i], &tasks[i]);
		rc = fn(&tasks[i], last[i], &d->runs[i], &d->decision[i], arg, e);
		if (!rc && d->decision[i] == CLAIM_FIRE && !st->has_owner)
			rc = err_set(e, ST_ERR, "store '%s': starting a run needs a registered owner",
			    st->name);
		if (d->decision[i] == CLAIM_WRITE)
			d->runs[i].lease_until = TIME_NONE; /* a record: nothing runs */
	}
	return rc;
}

/* The runs decided: those fired, running under this process, and the
 * records written; dup[i] set for those a unique key refused and for
 * those fired whose task has a run in flight (held: the claim locked it). */
static int
insert_runs(struct store *st, const struct task *tasks, struct decided *d, struct err *e)
{
	const struct run **r = xcalloc((size_t)d->n, sizeof *r);
	int *running = xcalloc((size_t)d->n, sizeof *running), *dup = xcalloc((size_t)d->n, sizeof *dup);
	int *at = xcalloc((size_t)d->n, sizeof *at), m = 0, rc = ST_OK;
	for (int i = 0; i < d->n; i++) {
		d->dup[i] = d->decision[i] == CLAIM_FIRE && tasks[i].run_in_flight[0];
		if (d->dup[i])
			continue;
		if (d->decision[i] == CLAIM_FIRE || (d->decision[i] == CLAIM_WRITE && d->runs[i].id[0])) {
			r[m] = &d->runs[i];
			running[m] = d->decision[i] == CLAIM_FIRE;
			at[m++] = i;
		}
	}
	if (m > 1 && st->ops->runs_insert_many)
		rc = st->ops->runs_insert_many(st, r, running, (size_t)m, dup, e);
	else
		for (int k = 0; !rc && k < m; k++)
			rc = st->ops->run_insert(st, r[k], running[k], &dup[k], e);
	for (int k = 0; !rc && k < m; k++)
		d->dup[at[k]] = dup[k];
	free(r);
	free(running);
	free(dup);
	free(at);
	return rc;
}

/* The tasks decided written, with those of the ends before them, the
 * runs fired handed out (out, *n). */
static int
write_decided(struct store *st, struct task *tasks, struct decided *d, const struct end_writes *ew,
    struct claimed *out, int *n, struct err *e)
{
	const struct task **w = xcalloc((size_t)d->n + ew->nw + 1, sizeof *w);
	const struct task **was = xcalloc((size_t)d->n + ew->nw + 1, sizeof *was);
	int rc = ST_OK, batch = d->read != NULL;
	size_t nw = ew->nw;
	for (size_t i = 0; i < ew->nw; i++) {
		w[i] = ew->w[i];
		was[i] = ew->was[i];
	}
	for (int i = 0; !rc && i < d->n; i++) {
		int fired = d->decision[i] == CLAIM_FIRE && !d->dup[i];
		/* A fired occurrence that already has its run changes nothing. */
		int put = d->decision[i] != CLAIM_SKIP && !(d->decision[i] == CLAIM_FIRE && d->dup[i]);
		if (fired)
			in_flight_set(&tasks[i], d->runs[i].id);
		if (put && !batch)
			rc = store_task_put_plain(st, &tasks[i], e);
		if (put && batch)
			was[nw] = &d->read[i];
		if (!rc && fired) {
			out[*n].task = tasks[i];
			out[*n].run = d->runs[i];
			run_init(&d->runs[i]);
			task_init(&tasks[i]);
			if (put && batch)
				w[nw++] = &out[*n].task;
			(*n)++;
		} else if (put && batch) {
			w[nw++] = &tasks[i];
		}
	}
	if (!rc && nw)
		rc = tasks_put_many(st, w, was, nw, e);
	/* Copies handed out: a later write of one keeps the store's marker. */
	for (int i = 0; i < *n; i++)
		out[i].task.run_in_flight_set = 0;
	free(w);
	free(was);
	return rc;
}

#define READ_BACK_MS 10000   /* how long a claim whose commit went unanswered looks for its outcome */

/* A claim's commit whose connection broke (the server died or was
 * demoted): made or not, it is read back on the server that answers now
 * (the primary again, through the host list) before anything starts, by
 * one of its runs; rc, the commit's failure, when none was inserted or the
 * outcome stays unknown (its runs, if made, are then recovered as this
 * process's lost ones). */
static int
claim_read_back(struct store *st, const struct claimed *out, int n, int rc)
{
	/* The runs inserted were handed to out by write_decided. */
	const char *id = NULL;
	for (int i = 0; i < n && !id; i++)
		if (out[i].run.id[0])
			id = out[i].run.id;
	store_rollback(st);
	if (!id)
		return rc;
	struct err e2;
	/* Never past the store's deadline: a ticker's runs in flight are
	 * fenced then, which waiting here would delay. */
	int64_t until = mono_ms() + READ_BACK_MS;
	if (st->deadline_ms && st->deadline_ms < until)
		until = st->deadline_ms;
	for (;;) {
		struct run r;
		int got = run_by_id(st, id, &r, &e2);
		if (got == ST_OK) {
			run_free(&r);
			return ST_OK;
		}
		if (got == ST_NOTFOUND || mono_ms() >= until)
			return rc;
		struct timespec ts = {0, 250 * 1000000L};
		nanosleep(&ts, NULL);
	}
}

int
store_claim(struct store *st, const struct claim_req *req, claim_fn fn, void *arg,
    struct claimed *out, int *n, struct err *e)
{
	*n = 0;
	int cap = req->what == CLAIM_ONE ? 1 : req->max, got = 0;
	if (cap < 1)
		return ST_OK;
	struct task *tasks = xcalloc((size_t)cap, sizeof *tasks);
	int *last = xcalloc((size_t)cap, sizeof *last);
	int rc = store_unit_begin(st, 1, e), alive = 1;
	/* A sign of life in the same transaction: a process others declared
	 * dead (its runs recovered) claims nothing.  A claim that only looks
	 * (a dry run) needs no owner. */
	if (!rc && st->has_owner && !(rc = st->ops->owner_beat(st, &alive, e)) && !alive)
		rc = err_set(e, ST_REFUSED, "store '%s': this process was silent too long and declared"
		    " dead; it claims nothing under that identity", st->name);
	/* Ends first.  Their tasks are written with the claim's when it
	 * claims due tasks: none of theirs (still running in the store until
	 * then), and a task whose run ended is due to the next claim. */
	struct end_writes ew = {0};
	if (!rc && req->nends)
		rc = ends_write(st, req->ends, req->nends,
		    &(struct end_rules){req->end, req->late, req->end_arg},
		    req->what == CLAIM_DUE ? &ew : NULL, e);
	if (!rc)
		rc = st->ops->claim_scan(st, req, tasks, last, &got, e);
	/* The cursor moves past every task looked at, as it was read. */
	if (!rc && req->what == CLAIM_DUE && got) {
		req->cur->due = tasks[got - 1].due_at;
		memcpy(req->cur->id, tasks[got - 1].id, sizeof req->cur->id);
	}
	/* Every task decided, then their runs inserted and the tasks written,
	 * together where the backend can (only what changed, from the tasks
	 * as read). */
	size_t k = got > 0 ? (size_t)got : 1;
	int batch = got > 0 && st->ops->tasks_put_many;
	struct decided d = {
		.read = batch ? xcalloc(k, sizeof *d.read) : NULL, .runs = xcalloc(k, sizeof *d.runs),
		.decision = xcalloc(k, sizeof *d.decision), .dup = xcalloc(k, sizeof *d.dup),
	};
	if (!rc)
		rc = decide(st, fn, arg, tasks, last, got, &d, e);
	if (!rc)
		rc = insert_runs(st, tasks, &d, e);
	if (!rc)
		rc = write_decided(st, tasks, &d, &ew, out, n, e);
	end_writes_free(&ew);
	if (!rc && (rc = store_commit(st, e)) && st->commit_unknown)
		rc = claim_read_back(st, out, *n, rc);
	if (rc) {
		store_rollback(st);
		claimed_free(out, (size_t)*n);
		*n = 0;
	}
	for (int i = 0; i < d.n; i++) {
		run_free(&d.runs[i]);
		if (d.read)
			task_free(&d.read[i]);
	}
	for (int i = 0; i < got; i++)
		task_free(&tasks[i]);
	free(d.read);
	free(d.runs);
	free(d.decision);
	free(d.dup);
	free(tasks);
	free(last);
	return rc;
}

int
store_run_gate(struct store *st, const char *run_id, const char *model, int max_all,
    int max_model, int64_t lease, int *got, struct err *e)
{
	int own, rc = store_own_begin(st, &own, e);
	*got = 0;
	if (!rc)
		rc = st->ops->run_gate(st, run_id, model, max_all, max_model, lease, got, e);
	return store_own_end(st, own, rc, e);
}

int
store_claim_look(struct store *st, struct claim_look *out, struct err *e)
{
	char *since = NULL;
	*out = (struct claim_look){.next = TIME_NONE};
	int rc = st->ops->setting_get(st, STORE_SETTING_PAUSED, &since, e);
	out->paused = since != NULL;
	free(since);
	if (rc || out->paused)
		return rc;
	return st->ops->due_next(st, &out->next, &out->queued, e);
}

/* What a late result looks like once recovery had ended its run. */
static char *
late_note(const struct run *r, int completed)
{
	char when[40];
	time_fmt_utc(r->ended_at, when, sizeof when);
	const char *err = r->error ? r->error : "";
	const char *out = r->output ? r->output : "";
	return xasprintf("late result, after the run had been recovered: %s at %s, exit %d, %lld ms%s%s%.*s%s%.*s",
	    run_status_name(r->status), when, r->exit_code, (long long)r->duration_ms,
	    completed ? "; it completed the occurrence, and the retry armed at recovery was cancelled" : "",
	    *err ? "; error: " : "", (int)strcspn(err, "\n"), err,
	    *out ? "; output: " : "", (int)(strlen(out) < 1024 ? strlen(out) : 1024), out);
}

/* The task of id read and held, with a copy as read (*was) where the
 * backend writes only what changed; ST_NOTFOUND bare: none. */
static int
task_held(struct store *st, const char *id, struct task *t, struct task *was, int *kept,
    struct err *e)
{
	int rc = st->ops->task_get(st, id, t, e);
	*kept = !rc && st->ops->tasks_put_many;
	if (*kept)
		task_copy(was, t);
	return rc;
}

/* t, held since it was read as was (kept), written back. */
static int
task_put_held(struct store *st, const struct task *t, const struct task *was, int kept,
    struct err *e)
{
	return kept ? tasks_put_many(st, &t, &was, 1, e) : store_task_put_plain(st, t, e);
}

/* After a run ended: its task as fn says, held and written. */
static int
task_after(struct store *st, const struct run *r, end_fn fn, void *arg, struct err *e)
{
	struct task t, was;
	int write = 0, kept, rc = task_held(st, r->task_id, &t, &was, &kept, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	rc = fn(&t, r, &write, arg, e);
	if (!rc && (task_run_ended(&t, r) || write))
		rc = task_put_held(st, &t, &was, kept, e);
	task_free(&t);
	if (kept)
		task_free(&was);
	return rc;
}

/* A late success whose recovery armed a retry that has not started (late
 * says, and puts the task back as the run found it): the occurrence did
 * run, so it completes as fn says of a success, and the retry is
 * cancelled.  *completed says whether it did. */
static int
late_success(struct store *st, const struct run *r, const struct end_rules *er, int *completed,
    struct err *e)
{
	struct task t, was;
	int kept;
	*completed = 0;
	if (!er->late)
		return ST_OK;
	int rc = task_held(st, r->task_id, &t, &was, &kept, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	if (er->late(&t, r, er->arg)) {
		int write = 0;
		rc = er->fn(&t, r, &write, er->arg, e);
		if (!rc && write)
			rc = task_put_held(st, &t, &was, kept, e);
		*completed = !rc;
	}
	task_free(&t);
	if (kept)
		task_free(&was);
	return rc;
}

/* A run found already ended: by this very end, when the answer to the
 * commit that recorded it was lost and the record is made again (all it
 * wrote is there), rather than by recovery. */
static int
ended_by_this(struct store *st, const struct run *r, int *same, struct err *e)
{
	struct run got;
	*same = 0;
	int rc = run_by_id(st, r->id, &got, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	*same = got.status == r->status && got.ended_at == r->ended_at &&
	    got.exit_code == r->exit_code && got.duration_ms == r->duration_ms;
	run_free(&got);
	return ST_OK;
}

/* A late result, once recovery had ended its run: a late success may
 * still complete its occurrence; either way it is kept as the run's note.
 * An end found already recorded by itself is ours after all. */
static int
late_result(struct store *st, struct run_end *end, const struct end_rules *er, struct err *e)
{
	int same, rc = ended_by_this(st, end->run, &same, e);
	if (rc || same) {
		end->ours = same;
		return rc;
	}
	rc = late_success(st, end->run, er, &end->completed, e);
	char *note = rc ? NULL : late_note(end->run, end->completed);
	if (note)
		rc = st->ops->run_note(st, end->run->id, note, e);
	free(note);
	return rc;
}

/* Tasks a claim or a group of ends wrote, together (the backend's batch). */
static int
tasks_put_many(struct store *st, const struct task *const *t, const struct task *const *before,
    size_t n, struct err *e)
{
	if (n == 1 && !(before && before[0]))
		return store_task_put_plain(st, t[0], e);
	int rc = n ? st->ops->tasks_put_many(st, t, before, n, e) : ST_OK;
	if (rc == ST_REFUSED)
		return err_set(e, rc, "store '%s': a task's key is already another's", st->name);
	return rc == ST_NOTFOUND ? err_set(e, rc, "store '%s': a task is gone", st->name) : rc;
}

/* Two ends of one task: their changes to it must be made one after the other. */
static int
same_task(const struct run_end *ends, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(ends[i].run->task_id, ends[j].run->task_id) == 0)
				return 1;
	return 0;
}

static void
end_writes_free(struct end_writes *ew)
{
	for (size_t i = 0; i < ew->n; i++) {
		if (ew->found[i])
			task_free(&ew->t[i]);
		task_free(&ew->read[i]);
	}
	free(ew->t);
	free(ew->read);
	free(ew->w);
	free(ew->was);
	free(ew->found);
	*ew = (struct end_writes){0};
}

/* ends_write in a few statements for the group: every run finished, and
 * the tasks of those still ours read and held, at once; fn on each, the
 * tasks it changed in ew, to write at once. */
static int
ends_write_many(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *ew, struct err *e)
{
	ew->n = n;
	ew->t = xcalloc(n, sizeof *ew->t);
	ew->read = xcalloc(n, sizeof *ew->read);
	ew->w = xcalloc(n, sizeof *ew->w);
	ew->was = xcalloc(n, sizeof *ew->was);
	ew->found = xcalloc(n, sizeof *ew->found);
	int rc = st->ops->runs_finish_many(st, ends, n, ew->t, ew->found, e);
	for (size_t i = 0; !rc && i < n; i++) {
		int write = 0;
		if (!ew->found[i])
			continue;
		task_copy(&ew->read[i], &ew->t[i]);
		if (!(rc = er->fn(&ew->t[i], ends[i].run, &write, er->arg, e)) &&
		    (task_run_ended(&ew->t[i], ends[i].run) || write)) {
			ew->was[ew->nw] = &ew->read[i];
			ew->w[ew->nw++] = &ew->t[i];
		}
	}
	/* Late results: tasks of their own (two ends of one task are never
	 * in one group). */
	for (size_t i = 0; !rc && i < n; i++) {
		if (!ends[i].ours)
			rc = late_result(st, &ends[i], er, e);
	}
	return rc;
}

/* The ends of runs, inside the caller's unit of work. */
static int
ends_write(struct store *st, struct run_end *ends, size_t n, const struct end_rules *er,
    struct end_writes *keep, struct err *e)
{
	if (!st->has_owner)
		return err_set(e, ST_ERR, "store '%s': ending runs needs a registered owner", st->name);
	if (n > 1 && st->ops->runs_finish_many && !same_task(ends, n)) {
		struct end_writes mine = {0}, *ew = keep ? keep : &mine;
		int rc = ends_write_many(st, ends, n, er, ew, e);
		if (!keep && !rc)
			rc = tasks_put_many(st, ew->w, ew->was, ew->nw, e);
		end_writes_free(&mine);
		return rc;
	}
	int rc = ST_OK;
	for (size_t i = 0; !rc && i < n; i++) {
		ends[i].ours = 0;
		const char *owner = ends[i].owner ? ends[i].owner : st->self.id;
		if ((rc = st->ops->run_finish(st, ends[i].run, owner, &ends[i].ours, e)))
			break;
		if (ends[i].ours) {
			rc = task_after(st, ends[i].run, er->fn, er->arg, e);
		} else {
			rc = late_result(st, &ends[i], er, e);
		}
	}
	return rc;
}

int
store_runs_end(struct store *st, struct run_end *ends, size_t n, end_fn fn, late_fn late,
    void *arg, struct err *e)
{
	int rc = store_unit_begin(st, 1, e);
	if (!rc)
		rc = ends_write(st, ends, n, &(struct end_rules){fn, late, arg}, NULL, e);
	return store_own_end(st, 1, rc, e);
}

int
store_run_claims(struct store *st, int (*fn)(const struct run_claim *c, void *arg), void *arg,
    struct err *e)
{
	struct run_claim *all = NULL;
	size_t n = 0;
	/* Read whole first: fn writes. */
	int rc = st->ops->run_claims(st, &all, &n, e);
	for (size_t i = 0; !rc && i < n; i++)
		if (fn(&all[i], arg))
			break;
	free(all);
	return rc;
}

int
store_run_recover(struct store *st, const struct run_claim *c, int64_t stale_after,
    struct run *r, end_fn fn, void *arg, int *done, struct err *e)
{
	int dead = 1;
	*done = 0;
	int rc = store_begin(st, e);
	if (!rc && stale_after > 0)
		rc = st->ops->owner_bury(st, c->owner.id, stale_after, &dead, e);
	if (!rc && dead)
		rc = st->ops->run_finish(st, r, c->owner.id, done, e);
	if (!rc && *done)
		rc = task_after(st, r, fn, arg, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc) {
		store_rollback(st);
		*done = 0;
	}
	return rc;
}

