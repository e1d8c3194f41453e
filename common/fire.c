/* Firing: claims, the after-run rules, recovery, heartbeat and notify.
 *
 * A claim runs inside one BEGIN IMMEDIATE transaction: the task is read
 * again, the occurrence to fire is decided (missed-run policy), a run row is
 * inserted (UNIQUE(task_id, slot): a second claim of the same occurrence
 * inserts nothing), and the task is marked running with next_run_at moved
 * on.  Executors start only after the commit, so a crash before it fires
 * nothing and a crash after it leaves a running row that recovery ends. */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "exec.h"
#include "fire.h"
#include "json.h"

extern char **environ;

#define CLAIM_BATCH 64     /* due rows read per query */
#define CLAIM_BUDGET 256   /* rows looked at per transaction */
#define WAIT_BATCH 16      /* ended runs recorded per transaction */
#define NOTIFY_OUTPUT 4096 /* bytes of output a notify hook gets */

struct job {
	struct run run;
	char *name;
	int manual;
	char prev_status[16];
	int is_hook;
	char *hook;              /* a hook job: its command line, for warnings */
	char **argv, **envp;
	char *input;
};

struct fire {
	struct store *st;
	struct zones *zs;
	struct fire_opts o;
	struct fire_cb cb;
	struct exec_pool *pool;
	struct run_owner self;
	char *db;
	size_t nruns, nhooks;
	struct due_cursor cur;
	char (*fired)[37];       /* tasks claimed in this pass, sorted */
	size_t nfired, capfired;
	int claiming;            /* fire_claim was called and fire_hold was not */
};

/* What the rules say after a run, for notify and report. */
struct after {
	char *name, *notify;
};

static int64_t
now_of(struct fire *f)
{
	return f->o.clock(f->o.clock_arg);
}

static void
warnf(struct fire *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
warnf(struct fire *f, const char *fmt, ...)
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

/* A short single-line excerpt: blanks collapsed, cut on a character
 * boundary; NULL when there is nothing. */
static char *
excerpt(const char *s, size_t max)
{
	if (!s)
		return NULL;
	struct buf b = {0};
	int space = 0;
	for (const char *p = s; *p && b.len < max; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			space = b.len > 0;
			continue;
		}
		if (space)
			buf_add(&b, " ", 1);
		space = 0;
		buf_add(&b, p, 1);
	}
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	if (b.len >= max) {
		/* Drop a last character the cut left incomplete. */
		size_t n = b.len, i = n;
		while (i > 0 && ((unsigned char)b.data[i - 1] & 0xc0) == 0x80)
			i--;
		if (i > 0) {
			unsigned char lead = (unsigned char)b.data[i - 1];
			size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
			if (n - (i - 1) < need)
				n = i - 1;
		}
		b.len = n;
		b.data[n] = 0;
		buf_puts(&b, "...");
	}
	return b.data;
}

static void
job_free(struct job *j)
{
	if (!j)
		return;
	run_free(&j->run);
	free(j->name);
	free(j->hook);
	exec_argv_free(j->argv);
	exec_argv_free(j->envp);
	free(j->input);
	free(j);
}

/* ---- setup ---- */

int
fire_opts_config(struct fire_opts *o, const struct config *cf, struct err *e)
{
	const char *v = getenv("TASK_EXEC");
	if (v && *v)
		o->exec = v;
	else if (cf && (v = config_get(cf, "exec")) && *v)
		o->exec = v;
	else
		o->exec = "llm-call";
	v = getenv("TASK_NOTIFY");
	if (!(v && *v) && cf)
		v = config_get(cf, "notify");
	o->notify = v && *v ? v : NULL;
	if (cf && (v = config_get(cf, "run_timeout"))) {
		char *end;
		long t = strtol(v, &end, 10);
		if (end == v || *end || t <= 0 || t > 86400 * 7)
			return err_set(e, ST_INVALID, "config: run_timeout '%s' is not a number of seconds", v);
		o->timeout = (int)t;
	}
	return ST_OK;
}

int
fire_new(struct store *st, const struct fire_opts *o, const struct fire_cb *cb, struct fire **out,
    struct err *e)
{
	struct fire *f = xcalloc(1, sizeof *f);
	f->st = st;
	f->o = *o;
	if (f->o.jobs < 1)
		f->o.jobs = 1;
	if (f->o.timeout <= 0)
		f->o.timeout = FIRE_DEFAULT_TIMEOUT;
	if (f->o.kill_grace_ms <= 0)
		f->o.kill_grace_ms = EXEC_KILL_GRACE_MS;
	if (cb)
		f->cb = *cb;
	f->zs = zones_new();
	f->pool = exec_pool_new();
	if (gethostname(f->self.host, sizeof f->self.host - 1) != 0)
		snprintf(f->self.host, sizeof f->self.host, "localhost");
	if (proc_boot_id(f->self.boot) != 0)
		f->self.boot[0] = 0;
	f->self.pid = getpid();
	int64_t start;
	if (proc_start_time(getpid(), &start) != 0) {
		fire_free(f);
		return err_set(e, ST_ERR, "cannot read this process's start time from /proc");
	}
	f->self.start = start;
	char abs[PATH_MAX];
	f->db = xstrdup(realpath(store_path(st), abs) ? abs : store_path(st));
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
	zones_free(f->zs);
	free(f->db);
	free(f->fired);
	free(f);
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

int
fire_paused(struct fire *f, char **since, struct err *e)
{
	char *v = NULL;
	int rc = store_setting_get(f->st, "paused", &v, e);
	if (rc)
		return -1;
	if (since)
		*since = v;
	else
		free(v);
	return v != NULL;
}

void
fire_pass_begin(struct fire *f)
{
	due_cursor_init(&f->cur);
	f->nfired = 0;
}

static int
cmp_id(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int
fired_has(const struct fire *f, const char *id)
{
	return f->nfired && bsearch(id, f->fired, f->nfired, sizeof *f->fired, cmp_id) != NULL;
}

static void
fired_add(struct fire *f, const char *id)
{
	if (f->nfired == f->capfired) {
		f->capfired = f->capfired ? f->capfired * 2 : 64;
		f->fired = xrealloc(f->fired, f->capfired * sizeof *f->fired);
	}
	size_t i = f->nfired;
	while (i > 0 && strcmp(f->fired[i - 1], id) > 0) {
		memcpy(f->fired[i], f->fired[i - 1], 37);
		i--;
	}
	size_t l = strnlen(id, 36);
	memcpy(f->fired[i], id, l);
	f->fired[i][l] = 0;
	f->nfired++;
}

/* ---- deciding what a due task fires ---- */

struct decision {
	int fire;
	int64_t slot, next;
	const char *trigger;
};

static int
plan_has(const struct task *t, int64_t s)
{
	for (size_t i = 0; i < t->nplan; i++)
		if (t->plan[i] == s)
			return 1;
	return 0;
}

static int
next_slot(struct fire *f, const struct task *t, int64_t after, int64_t *s, struct err *e)
{
	return task_next_slot(t, f->zs, after, s, e);
}

/* The newest slot at or before now, knowing the first after `from` is.
 * Binary search on "the first slot after x is <= now": log2(now - from)
 * schedule computations however many were missed. */
static int
newest_slot(struct fire *f, const struct task *t, int64_t from, int64_t now, int64_t *out,
    struct err *e)
{
	int64_t lo = from, hi = now, s;
	int rc;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if ((rc = next_slot(f, t, mid, &s, e)))
			return rc;
		if (s != TIME_NONE && s <= now)
			lo = mid;
		else
			hi = mid;
	}
	return next_slot(f, t, lo, out, e);
}

/* How many slots lie in (x, now], counting up to cap. */
static int
count_slots(struct fire *f, const struct task *t, int64_t x, int64_t now, int cap, int *n,
    struct err *e)
{
	int rc;
	*n = 0;
	for (int64_t s = x; *n < cap; (*n)++) {
		if ((rc = next_slot(f, t, s, &s, e)))
			return rc;
		if (s == TIME_NONE || s > now)
			break;
	}
	return ST_OK;
}

/* --missed all: the oldest missed slot, but no older than the newest
 * FIRE_ALL_MAX.  A binary search for the x with exactly that many slots in
 * (x, now]: bounded work however long the gap. */
static int
decide_all(struct fire *f, const struct task *t, int64_t now, struct decision *d, struct err *e)
{
	int n, rc;
	if ((rc = count_slots(f, t, d->slot - 1, now, FIRE_ALL_MAX + 1, &n, e)) || n <= FIRE_ALL_MAX)
		return rc;
	int64_t lo = d->slot - 1, hi = now;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if ((rc = count_slots(f, t, mid, now, FIRE_ALL_MAX, &n, e)))
			return rc;
		if (n >= FIRE_ALL_MAX)
			lo = mid;
		else
			hi = mid;
	}
	return next_slot(f, t, lo, &d->slot, e);
}

static int64_t
due_of(const struct task *t, int64_t slot)
{
	return slot + task_jitter_delay(t->id, slot, t->jitter);
}

static int
decide(struct fire *f, const struct task *t, int64_t now, struct decision *d, struct err *e)
{
	int rc;
	int64_t n1;
	d->fire = 0;
	d->slot = t->next_run_at != TIME_NONE ? t->next_run_at : t->due_at;
	d->next = TIME_NONE;
	d->trigger = "schedule";
	if (t->kind != KIND_CRON && t->kind != KIND_AT && t->kind != KIND_PLAN)
		return ST_OK;
	/* A one-shot's (or a plan's last) retry: its own instant, never skipped. */
	if (t->kind != KIND_CRON && !plan_has(t, d->slot)) {
		d->fire = 1;
		d->trigger = "retry";
		return next_slot(f, t, d->slot, &d->next, e);
	}
	if ((rc = next_slot(f, t, d->slot, &n1, e)))
		return rc;
	/* Lateness counts from the due instant: jitter is not lateness. */
	if (n1 == TIME_NONE || due_of(t, n1) > now) {
		/* One occurrence due, on time or late. */
		d->next = n1;
		if (now - due_of(t, d->slot) > FIRE_GRACE) {
			d->trigger = "catchup";
			d->fire = t->missed != MISSED_SKIP;
		} else {
			d->fire = 1;
		}
		return ST_OK;
	}
	/* Several occurrences went by. */
	if (t->missed == MISSED_ALL) {
		if ((rc = decide_all(f, t, now, d, e)))
			return rc;
		d->fire = 1;
		d->trigger = "catchup";
		return next_slot(f, t, d->slot, &d->next, e);
	}
	if ((rc = newest_slot(f, t, d->slot, now, &d->slot, e)) ||
	    (rc = next_slot(f, t, now, &d->next, e)))
		return rc;
	if (t->missed == MISSED_SKIP) {
		d->fire = now - due_of(t, d->slot) <= FIRE_GRACE;
		d->trigger = d->fire ? "schedule" : "catchup";
	} else {
		d->fire = 1;
		d->trigger = "catchup";
	}
	return ST_OK;
}

static void
set_next(struct task *t, int64_t next)
{
	t->next_run_at = next;
	t->due_at = next == TIME_NONE ? TIME_NONE : due_of(t, next);
}

static int
is_heartbeat_task(const struct task *t)
{
	return t->intent && strcmp(t->intent, FIRE_HEARTBEAT_INTENT) == 0;
}

/* ---- preparing a run ---- */

struct hb {
	struct buf *b;
	int n;
};

static int
hb_add(const struct task *t, void *arg)
{
	struct hb *h = arg;
	if (!h->n++)
		buf_puts(h->b, "\n\n## Heartbeat Additions\n");
	buf_puts(h->b, "\n- ");
	for (const char *p = t->prompt; p && *p; p++) {
		buf_add(h->b, p, 1);
		if (*p == '\n' && p[1])
			buf_puts(h->b, "  ");
	}
	return 0;
}

int
fire_heartbeat_prompt(struct store *st, const char *base, char **out, struct err *e)
{
	struct buf b = {0};
	buf_puts(&b, base ? base : "");
	struct hb h = {&b, 0};
	int rc = store_heartbeat_tasks(st, hb_add, &h, e);
	if (rc) {
		buf_free(&b);
		return rc;
	}
	if (h.n)
		buf_puts(&b, "\n");
	*out = b.data;
	return ST_OK;
}

static char **
make_env(const char *const *names, const char *const *values, size_t n)
{
	size_t ne = 0;
	for (char **p = environ; *p; p++)
		ne++;
	char **env = xcalloc(ne + n + 1, sizeof *env);
	size_t k = 0;
	for (char **p = environ; *p; p++) {
		int ours = 0;
		for (size_t i = 0; i < n && !ours; i++) {
			size_t l = strlen(names[i]);
			ours = strncmp(*p, names[i], l) == 0 && (*p)[l] == '=';
		}
		if (!ours)
			env[k++] = xstrdup(*p);
	}
	for (size_t i = 0; i < n; i++)
		env[k++] = xasprintf("%s=%s", names[i], values[i] ? values[i] : "");
	env[k] = NULL;
	return env;
}

/* Executor, environment and input of a claimed run; start it. */
static void
start_job(struct fire *f, struct job *j, const struct task *t, char *prompt)
{
	static const char *const names[] = {"TASK_ID", "TASK_NAME", "TASK_RUN_ID", "TASK_TRIGGER",
		"TASK_SYSTEM_PROMPT", "TASK_CONTEXT", "TASK_MODEL", "TASK_ATTACHMENTS", "TASK_INTENT",
		"TASK_CHANNEL", "TASK_PAYLOAD", "TASK_DB"};
	const char *values[] = {t->id, t->name, j->run.id, j->run.trigger, t->system_prompt,
		t->context, t->model, t->attachments ? t->attachments : "[]", t->intent, t->channel,
		t->payload ? t->payload : "{}", f->db};
	j->input = prompt ? prompt : xstrdup(t->prompt ? t->prompt : "");
	const char *cmdline = !str_empty(t->exec) ? t->exec : f->o.exec;
	struct err e;
	f->nruns++;
	if (exec_split(cmdline, &j->argv, &e)) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "bad executor command line: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	j->envp = make_env(names, values, sizeof names / sizeof names[0]);
	int timeout = t->timeout > 0 ? t->timeout : f->o.timeout;
	struct exec_cmd c = {
		.argv = j->argv,
		.envp = j->envp,
		.search_dir = f->o.search_dir,
		.input = j->input,
		.ninput = strlen(j->input),
		.timeout_ms = (int64_t)timeout * 1000,
		.kill_grace_ms = f->o.kill_grace_ms,
		.die_with_parent = 1,
	};
	exec_pool_start(f->pool, &c, j);
}

/* A claimed run: its row, then the task's new state.  *prompt gets the
 * heartbeat's composed prompt. */
static int
begin_run(struct fire *f, struct task *t, int64_t slot, const char *trigger, int manual,
    int64_t now, struct job **out, char **prompt, struct err *e)
{
	struct job *j = xcalloc(1, sizeof *j);
	int rc = ST_OK, dup = 0;
	*out = NULL;
	*prompt = NULL;
	if (uuid4(j->run.id) != 0) {
		free(j);
		return err_set(e, ST_ERR, "cannot make a run id: no randomness");
	}
	snprintf(j->run.task_id, sizeof j->run.task_id, "%s", t->id);
	j->run.slot = slot;
	j->run.trigger = xstrdup(is_heartbeat_task(t) && !manual ? "heartbeat" : trigger);
	j->run.status = xstrdup("running");
	j->run.started_at = now;
	j->run.ended_at = TIME_NONE;
	j->run.exit_code = -1;
	j->run.duration_ms = -1;
	j->run.attempt = 1;
	/* A retry is the next attempt at the same occurrence. */
	if (strcmp(trigger, "retry") == 0 &&
	    (rc = store_run_last_attempt(f->st, t->id, &j->run.attempt, e)) == ST_OK)
		j->run.attempt++;
	if (rc) {
		job_free(j);
		return rc;
	}
	j->manual = manual;
	j->name = xstrdup(t->name);
	if (manual)
		snprintf(j->prev_status, sizeof j->prev_status, "%s", task_status_name(t->status));
	int timeout = t->timeout > 0 ? t->timeout : f->o.timeout;
	int64_t lease = now + timeout + (f->o.kill_grace_ms + 999) / 1000 + FIRE_LEASE_MARGIN;
	if ((rc = store_run_begin(f->st, &j->run, &f->self, lease, manual ? j->prev_status : NULL,
	    &dup, e)) || dup) {
		job_free(j);
		return rc;
	}
	if (is_heartbeat_task(t) && (rc = fire_heartbeat_prompt(f->st, t->prompt, prompt, e))) {
		job_free(j);
		return rc;
	}
	*out = j;
	return ST_OK;
}

/* A due task: decide, record, move its schedule on.  *j NULL when nothing
 * is to run (skipped, already fired, or changed meanwhile). */
static int
claim_due(struct fire *f, const char *id, int64_t now, struct job **j, char **prompt,
    struct task *keep, struct err *e)
{
	struct task t;
	*j = NULL;
	int rc = store_task_get(f->st, id, &t, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	if (t.status != STATUS_PENDING || !t.enabled || t.deleted_at != TIME_NONE ||
	    t.due_at == TIME_NONE || t.due_at > now) {
		task_free(&t);
		return ST_OK;
	}
	struct decision d;
	struct err de;
	if (decide(f, &t, now, &d, &de)) {
		/* One bad task must not stop the others: park it with the reason. */
		warnf(f, "task '%.8s' cannot be scheduled: %s", t.id, de.msg);
		t.status = STATUS_FAILED;
		set_next(&t, TIME_NONE);
		char *msg = xasprintf("cannot compute the next run: %s", de.msg);
		set_str(&t.last_error, msg);
		free(msg);
		t.updated_at = now;
		rc = store_task_put(f->st, &t, e);
		task_free(&t);
		return rc;
	}
	if (d.fire && (rc = begin_run(f, &t, d.slot, d.trigger, 0, now, j, prompt, e))) {
		task_free(&t);
		return rc;
	}
	if (!d.fire && (t.kind == KIND_CRON || t.kind == KIND_AT || t.kind == KIND_PLAN)) {
		/* --missed skip: on record, so the log says why nothing ran. */
		struct run r = {.slot = d.slot, .trigger = "catchup", .status = "skipped",
			.started_at = now, .ended_at = now, .exit_code = -1, .duration_ms = 0};
		char when[40];
		time_fmt_utc(d.slot, when, sizeof when);
		char *msg = xasprintf("missed its time (%s) by %lld s; skipped (--missed skip)", when,
		    (long long)(now - d.slot));
		r.error = msg;
		int dup;
		snprintf(r.task_id, sizeof r.task_id, "%s", t.id);
		if (uuid4(r.id) == 0)
			rc = store_run_begin(f->st, &r, NULL, TIME_NONE, NULL, &dup, e);
		set_str(&t.last_status, "skipped");
		set_str(&t.last_error, msg);
		free(msg);
		if (rc) {
			task_free(&t);
			return rc;
		}
	}
	set_next(&t, d.next);
	if (*j)
		t.status = STATUS_RUNNING;
	else if (d.next == TIME_NONE && (t.kind == KIND_CRON || t.kind == KIND_AT || t.kind == KIND_PLAN))
		t.status = STATUS_COMPLETED;
	t.updated_at = now;
	if ((rc = store_task_put(f->st, &t, e)) && *j) {
		job_free(*j);
		*j = NULL;
		free(*prompt);
		*prompt = NULL;
	}
	if (*j && !rc)
		*keep = t;
	else
		task_free(&t);
	return rc;
}

/* A manual run (task-run, or queued).  From the queue, a task that is
 * running or no longer queued is left alone. */
static int
claim_manual(struct fire *f, const char *id, int from_queue, int64_t now, struct job **j,
    char **prompt, struct task *keep, struct err *e)
{
	struct task t;
	*j = NULL;
	int rc = store_task_get(f->st, id, &t, e);
	if (rc)
		return from_queue && rc == ST_NOTFOUND ? ST_OK : rc;
	if (from_queue && (!t.queued || t.deleted_at != TIME_NONE || t.status == STATUS_RUNNING)) {
		task_free(&t);
		return ST_OK;
	}
	if (t.status == STATUS_RUNNING) {
		task_free(&t);
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", id);
	}
	if ((rc = begin_run(f, &t, TIME_NONE, "manual", 1, now, j, prompt, e)) || !*j) {
		task_free(&t);
		return rc;
	}
	t.status = STATUS_RUNNING;
	t.queued = 0;
	t.updated_at = now;
	if ((rc = store_task_put(f->st, &t, e))) {
		job_free(*j);
		*j = NULL;
		free(*prompt);
		*prompt = NULL;
		task_free(&t);
		return rc;
	}
	*keep = t;
	return ST_OK;
}

struct claimed {
	struct job *job;
	struct task task;
	char *prompt;
};

static void
start_claimed(struct fire *f, struct claimed *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		start_job(f, c[i].job, &c[i].task, c[i].prompt);
		task_free(&c[i].task);
	}
}

static void
drop_claimed(struct claimed *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		job_free(c[i].job);
		task_free(&c[i].task);
		free(c[i].prompt);
	}
}

/* Claim queued, then due tasks for up to room executors, inside the
 * caller's transaction.  The claimed runs go to c (room entries). */
static int
claim_some(struct fire *f, int64_t now, int room, struct claimed *c, size_t *n, int *more,
    struct err *e)
{
	char ids[CLAIM_BATCH][37];
	int looked = 0, got, rc;
	size_t fired0 = f->nfired;
	*n = 0;
	int paused = fire_paused(f, NULL, e);
	if (paused)
		return paused < 0 ? ST_ERR : ST_OK;
	if ((rc = store_queued_scan(f->st, ids, room < CLAIM_BATCH ? room : CLAIM_BATCH, &got, e)))
		goto fail;
	for (int i = 0; i < got; i++) {
		if ((rc = claim_manual(f, ids[i], 1, now, &c[*n].job, &c[*n].prompt, &c[*n].task, e)))
			goto fail;
		*n += c[*n].job != NULL;
	}
	while ((int)*n < room) {
		if (looked >= CLAIM_BUDGET) {
			*more = 1;
			break;
		}
		int want = room - (int)*n;
		if (want > CLAIM_BATCH)
			want = CLAIM_BATCH;
		if ((rc = store_due_scan(f->st, now, &f->cur, ids, want, &got, e)))
			goto fail;
		if (got == 0)
			break;
		looked += got;
		for (int i = 0; i < got; i++) {
			if (fired_has(f, ids[i]))
				continue;
			if ((rc = claim_due(f, ids[i], now, &c[*n].job, &c[*n].prompt, &c[*n].task, e)))
				goto fail;
			if (c[*n].job) {
				fired_add(f, ids[i]);
				(*n)++;
			}
		}
	}
	if ((int)*n == room)
		*more = 1;
	return ST_OK;
fail:
	/* The caller rolls back: forget what this claimed. */
	drop_claimed(c, *n);
	*n = 0;
	f->nfired = fired0;
	due_cursor_init(&f->cur);
	return rc;
}

int
fire_claim(struct fire *f, int *started, int *more, struct err *e)
{
	*started = 0;
	*more = 0;
	f->claiming = 1;
	int room = f->o.jobs - (int)f->nruns;
	if (room <= 0) {
		*more = 1;
		return ST_OK;
	}
	int64_t now = now_of(f), next;
	int paused = fire_paused(f, NULL, e), rc, nq = 0;
	if (paused)
		return paused < 0 ? ST_ERR : ST_OK;
	/* Nothing due costs two index lookups and no write lock. */
	char ids[1][37];
	if ((rc = store_due_next(f->st, &next, e)) || (rc = store_queued_scan(f->st, ids, 1, &nq, e)))
		return rc;
	if ((next == TIME_NONE || next > now) && nq == 0)
		return ST_OK;
	if ((rc = store_begin(f->st, e)))
		return rc;
	struct claimed *c = xcalloc((size_t)room, sizeof *c);
	size_t n = 0;
	if ((rc = claim_some(f, now, room, c, &n, more, e)) || (rc = store_commit(f->st, e))) {
		store_rollback(f->st);
		drop_claimed(c, n);
		free(c);
		return rc;
	}
	start_claimed(f, c, n);
	free(c);
	*started = (int)n;
	return ST_OK;
}

void
fire_hold(struct fire *f)
{
	f->claiming = 0;
}

int
fire_manual(struct fire *f, const char *id, char run_id[37], struct err *e)
{
	int rc = store_begin(f->st, e);
	if (rc)
		return rc;
	struct claimed c = {0};
	if ((rc = claim_manual(f, id, 0, now_of(f), &c.job, &c.prompt, &c.task, e)) || !c.job ||
	    (rc = store_commit(f->st, e))) {
		if (!rc)
			rc = err_set(e, ST_ERR, "task '%.8s' could not be claimed", id);
		store_rollback(f->st);
		drop_claimed(&c, c.job ? 1 : 0);
		return rc;
	}
	snprintf(run_id, 37, "%s", c.job->run.id);
	start_claimed(f, &c, 1);
	return ST_OK;
}

/* ---- after a run ---- */

static int64_t
backoff(int failures)
{
	int64_t d = FIRE_BACKOFF_BASE;
	for (int i = 1; i < failures && d < FIRE_BACKOFF_MAX; i++)
		d *= 2;
	return d < FIRE_BACKOFF_MAX ? d : FIRE_BACKOFF_MAX;
}

/* The task's new state after run r ended (DESIGN.md, "Firing"). */
static int
after_run(struct fire *f, const struct run *r, int manual, const char *prev_status, int64_t now,
    struct after *a, struct err *e)
{
	struct task t;
	int rc = store_task_get(f->st, r->task_id, &t, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	int ok = strcmp(r->status, "success") == 0;
	t.last_run_at = r->started_at;
	set_str(&t.last_status, r->status);
	char *x = ok ? NULL : excerpt(r->error, FIRE_EXCERPT);
	free(t.last_error);
	t.last_error = x;
	free(t.last_result);
	t.last_result = excerpt(r->output, FIRE_EXCERPT);
	t.updated_at = now;
	/* Someone changed a running task (task-rm --cancel): theirs stands. */
	if (t.status == STATUS_RUNNING) {
		int prev = prev_status ? task_status_parse(prev_status) : -1;
		int last_instant = t.kind == KIND_AT || (t.kind == KIND_PLAN && t.next_run_at == TIME_NONE);
		if (manual) {
			t.status = prev >= 0 && prev != STATUS_RUNNING ? prev : STATUS_PENDING;
		} else if (ok) {
			t.consecutive_failures = 0;
			t.status = last_instant ? STATUS_COMPLETED : STATUS_PENDING;
			if (last_instant)
				set_next(&t, TIME_NONE);
		} else {
			t.consecutive_failures++;
			t.status = STATUS_PENDING;
			if (last_instant) {
				int retries = t.retries >= 0 ? t.retries : TASK_DEFAULT_RETRIES;
				int attempt = r->attempt > 0 ? r->attempt : 1;
				if (attempt <= retries) {
					t.next_run_at = t.due_at = now + backoff(attempt);
				} else {
					t.status = STATUS_FAILED;
					set_next(&t, TIME_NONE);
				}
			}
		}
	}
	if (a) {
		a->name = xstrdup(t.name);
		a->notify = xstrdup(!str_empty(t.notify) ? t.notify : f->o.notify);
	}
	rc = store_task_put(f->st, &t, e);
	task_free(&t);
	return rc;
}

static int
outside_kill(int sig)
{
	return sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

/* Fill j->run from how its executor ended. */
static void
run_from_result(struct job *j, struct exec_result *x, int64_t now)
{
	const char *status;
	int clean = x->how == EXEC_EXITED && x->code == 0;
	if (x->how == EXEC_TIMEOUT)
		status = "timeout";
	else if (x->stopped && !clean)
		status = "interrupted";
	else if (clean)
		status = "success";
	else if (x->how == EXEC_SIGNALED && outside_kill(x->code))
		status = "interrupted";
	else
		status = "failed";
	struct buf err = {0};
	buf_puts(&err, x->why);
	if (x->stopped && !clean)
		buf_printf(&err, "%sstopped before the run finished", err.len ? "; " : "");
	if (x->nerr)
		buf_printf(&err, "%s%s", err.len ? "\n" : "", x->err);
	set_str(&j->run.status, status);
	free(j->run.output);
	j->run.output = x->out;
	x->out = NULL;
	free(j->run.error);
	j->run.error = err.len ? err.data : NULL;
	if (!err.len)
		buf_free(&err);
	j->run.exit_code = x->how == EXEC_EXITED ? x->code : -1;
	j->run.ended_at = now;
	j->run.duration_ms = x->duration_ms;
}

static char **
hook_env(struct fire *f, const struct run *r, const char *name)
{
	static const char *const names[] = {"TASK_ID", "TASK_NAME", "TASK_RUN_ID", "TASK_STATUS",
		"TASK_DB"};
	const char *values[] = {r->task_id, name, r->id, r->status, f->db};
	return make_env(names, values, sizeof names / sizeof names[0]);
}

/* Hand a finished run to the notify hook (in the background, like a run). */
static void
notify(struct fire *f, const struct run *r, const char *name, const char *hook)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "task_id", r->task_id);
	cJSON_AddStringToObject(o, "name", name ? name : "");
	cJSON_AddStringToObject(o, "run_id", r->id);
	cJSON_AddStringToObject(o, "trigger", r->trigger ? r->trigger : "");
	cJSON_AddStringToObject(o, "status", r->status);
	cJSON_AddItemToObject(o, "exit_code", r->exit_code < 0 ? cJSON_CreateNull()
	    : cJSON_CreateNumber(r->exit_code));
	cJSON_AddItemToObject(o, "slot", json_time(r->slot));
	cJSON_AddItemToObject(o, "started_at", json_time(r->started_at));
	cJSON_AddItemToObject(o, "ended_at", json_time(r->ended_at));
	cJSON_AddNumberToObject(o, "duration_ms", (double)(r->duration_ms > 0 ? r->duration_ms : 0));
	size_t nout = r->output ? strlen(r->output) : 0;
	char *out = xstrndup(r->output ? r->output : "", NOTIFY_OUTPUT);
	cJSON_AddStringToObject(o, "output", out);
	cJSON_AddBoolToObject(o, "output_truncated", nout > NOTIFY_OUTPUT);
	free(out);
	cJSON_AddItemToObject(o, "error", r->error ? cJSON_CreateString(r->error) : cJSON_CreateNull());
	char *text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	struct job *j = xcalloc(1, sizeof *j);
	j->is_hook = 1;
	j->hook = xstrdup(hook);
	snprintf(j->run.id, sizeof j->run.id, "%s", r->id);
	j->input = xasprintf("%s\n", text ? text : "{}");
	free(text);
	f->nhooks++;
	struct err e;
	if (exec_split(hook, &j->argv, &e)) {
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, e.msg);
		return;
	}
	j->envp = hook_env(f, r, name);
	struct exec_cmd c = {
		.argv = j->argv,
		.envp = j->envp,
		.search_dir = f->o.search_dir,
		.input = j->input,
		.ninput = strlen(j->input),
		.timeout_ms = FIRE_HOOK_TIMEOUT * 1000,
		.kill_grace_ms = f->o.kill_grace_ms,
		.cap = 64 * 1024,
	};
	exec_pool_start(f->pool, &c, j);
}

static void
hook_done(struct fire *f, struct job *j, const struct exec_result *x)
{
	f->nhooks--;
	if (x->how != EXEC_EXITED || x->code != 0) {
		char *err = excerpt(x->err, 200);
		warnf(f, "notify hook '%s' failed for run %.8s: %s%s%s", j->hook, j->run.id,
		    x->why[0] ? x->why : "failed", err ? ": " : "", err ? err : "");
		free(err);
	}
	job_free(j);
}

/* Report a recorded run and pass it to its hook. */
static void
announce(struct fire *f, const struct run *r, struct after *a)
{
	struct fire_report rep = {.run = r, .name = a->name ? a->name : "", .hook = a->notify};
	if (f->cb.report)
		f->cb.report(&rep, f->cb.arg);
	if (a->notify)
		notify(f, r, a->name, a->notify);
	free(a->name);
	free(a->notify);
	a->name = a->notify = NULL;
}

/* Record runs in one transaction; ours[i] says which were still ours.
 * When claiming, the slots they free are claimed in the same transaction
 * (one commit, one fsync, less): into c, room entries. */
static int
record(struct fire *f, struct job **jobs, size_t n, int64_t now, int *ours, struct after *a,
    struct claimed *c, size_t *nc, struct err *e)
{
	int rc = store_begin(f->st, e), more = 0;
	*nc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if ((rc = store_run_end(f->st, &jobs[i]->run, &ours[i], e)))
			break;
		if (ours[i])
			rc = after_run(f, &jobs[i]->run, jobs[i]->manual, jobs[i]->prev_status, now,
			    &a[i], e);
	}
	int room = f->o.jobs - (int)f->nruns;
	if (!rc && c && f->claiming && room > 0)
		rc = claim_some(f, now, room, c, nc, &more, e);
	if (!rc)
		rc = store_commit(f->st, e);
	if (rc) {
		drop_claimed(c, *nc);
		*nc = 0;
		store_rollback(f->st);
		for (size_t i = 0; i < n; i++) {
			free(a[i].name);
			free(a[i].notify);
			a[i].name = a[i].notify = NULL;
		}
	}
	return rc;
}

int
fire_wait(struct fire *f, int64_t timeout_ms, const int *fds, int nfds, struct err *e)
{
	struct exec_result x[WAIT_BATCH];
	struct job *jobs[WAIT_BATCH];
	size_t n = 0;
	int status = ST_OK;
	if (!exec_pool_wait(f->pool, timeout_ms, fds, nfds, &x[0]))
		return ST_OK;
	int got = 1;
	while (got) {
		struct job *j = x[n].tag;
		if (j->is_hook) {
			hook_done(f, j, &x[n]);
			exec_result_free(&x[n]);
		} else {
			jobs[n++] = j;
		}
		got = n < WAIT_BATCH && exec_pool_wait(f->pool, 0, NULL, 0, &x[n]);
	}
	if (!n)
		return ST_OK;
	int64_t now = now_of(f);
	int ours[WAIT_BATCH];
	struct after a[WAIT_BATCH];
	memset(a, 0, sizeof a);
	for (size_t i = 0; i < n; i++) {
		run_from_result(jobs[i], &x[i], now);
		exec_result_free(&x[i]);
		f->nruns--;
	}
	struct claimed *c = xcalloc((size_t)f->o.jobs, sizeof *c);
	size_t nc = 0, none;
	if (record(f, jobs, n, now, ours, a, c, &nc, e)) {
		/* Retry one by one, so one run that cannot be written loses no other. */
		for (size_t i = 0; i < n; i++) {
			struct err e1;
			if (record(f, &jobs[i], 1, now, &ours[i], &a[i], NULL, &none, &e1)) {
				warnf(f, "cannot record run %.8s of task '%.8s': %s", jobs[i]->run.id,
				    jobs[i]->run.task_id, e1.msg);
				*e = e1;
				status = ST_ERR;
				ours[i] = 0;
			}
		}
	}
	start_claimed(f, c, nc);
	free(c);
	for (size_t i = 0; i < n; i++) {
		if (ours[i])
			announce(f, &jobs[i]->run, &a[i]);
		else if (!status)
			warnf(f, "run %.8s of task '%.8s' was no longer marked running (recovered as"
			    " interrupted, or its task purged); its result (%s) is not recorded",
			    jobs[i]->run.id, jobs[i]->run.task_id, jobs[i]->run.status);
		job_free(jobs[i]);
	}
	return status;
}

void
fire_stop(struct fire *f)
{
	exec_pool_stop(f->pool);
}

/* ---- recovery ---- */

struct recovery {
	struct fire *f;
	int64_t now;
	int n, rc;
	struct err *e;
};

static int
recover_one(const struct run_claim *c, void *arg)
{
	struct recovery *rv = arg;
	struct fire *f = rv->f;
	const struct run_owner *o = &c->owner;
	int here = strcmp(o->host, f->self.host) == 0;
	int same_boot = !o->boot[0] || !f->self.boot[0] || strcmp(o->boot, f->self.boot) == 0;
	if (here && same_boot && o->pid == f->self.pid && o->start == f->self.start)
		return 0;
	char why[512];
	why[0] = 0;
	int64_t start;
	if (here && !same_boot)
		snprintf(why, sizeof why, "the machine restarted before the run finished");
	else if (here && (proc_start_time((pid_t)o->pid, &start) != 0 || start != o->start))
		snprintf(why, sizeof why, "the process running it (pid %lld) ended before the run finished",
		    o->pid);
	else if (c->lease_until != TIME_NONE && c->lease_until < rv->now) {
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
	}
	struct run r = {.slot = c->slot, .started_at = c->started_at, .ended_at = rv->now,
		.exit_code = -1, .attempt = c->attempt};
	snprintf(r.id, sizeof r.id, "%s", c->id);
	snprintf(r.task_id, sizeof r.task_id, "%s", c->task_id);
	r.trigger = xstrdup(c->trigger);
	r.status = xstrdup("interrupted");
	r.error = xstrdup(why);
	r.duration_ms = c->started_at != TIME_NONE && rv->now >= c->started_at
	    ? (rv->now - c->started_at) * 1000 : -1;
	struct after a = {0};
	int ours = 0;
	int rc = store_begin(f->st, rv->e);
	if (!rc)
		rc = store_run_end(f->st, &r, &ours, rv->e);
	if (!rc && ours)
		rc = after_run(f, &r, c->prev_status[0] != 0, c->prev_status[0] ? c->prev_status : NULL,
		    rv->now, &a, rv->e);
	if (!rc)
		rc = store_commit(f->st, rv->e);
	if (rc) {
		store_rollback(f->st);
		free(a.name);
		free(a.notify);
		run_free(&r);
		rv->rc = rc;
		return 1;
	}
	if (ours) {
		rv->n++;
		announce(f, &r, &a);
	}
	run_free(&r);
	return 0;
}

int
fire_recover(struct fire *f, int *n, struct err *e)
{
	struct recovery rv = {.f = f, .now = now_of(f), .e = e};
	int rc = store_run_claims(f->st, recover_one, &rv, e);
	if (n)
		*n = rv.n;
	return rc ? rc : rv.rc;
}

/* ---- looking ahead ---- */

int
fire_next_due(struct fire *f, int64_t *due, struct err *e)
{
	int paused = fire_paused(f, NULL, e), nq = 0, rc;
	char id[1][37];
	*due = TIME_NONE;
	if (paused)
		return paused < 0 ? ST_ERR : ST_OK;
	if ((rc = store_due_next(f->st, due, e)) || (rc = store_queued_scan(f->st, id, 1, &nq, e)))
		return rc;
	if (nq)
		*due = now_of(f);
	return ST_OK;
}

int
fire_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg), void *arg,
    struct err *e)
{
	int64_t now = now_of(f);
	char ids[CLAIM_BATCH][37];
	int got, rc;
	struct due_cursor cur;
	due_cursor_init(&cur);
	if ((rc = store_queued_scan(f->st, ids, CLAIM_BATCH, &got, e)))
		return rc;
	for (int i = 0; i < got; i++) {
		struct task t;
		if (store_task_get(f->st, ids[i], &t, e) == ST_OK) {
			struct fire_preview p = {&t, TIME_NONE, "manual"};
			fn(&p, arg);
			task_free(&t);
		}
	}
	for (;;) {
		if ((rc = store_due_scan(f->st, now, &cur, ids, CLAIM_BATCH, &got, e)))
			return rc;
		if (!got)
			break;
		for (int i = 0; i < got; i++) {
			struct task t;
			if ((rc = store_task_get(f->st, ids[i], &t, e)))
				return rc;
			struct decision d;
			struct err de;
			if (decide(f, &t, now, &d, &de) == ST_OK) {
				struct fire_preview p = {&t, d.slot,
					!d.fire ? "skip" : is_heartbeat_task(&t) ? "heartbeat" : d.trigger};
				fn(&p, arg);
			}
			task_free(&t);
		}
	}
	return ST_OK;
}

/* ---- the heartbeat task ---- */

static int
find_heartbeat(const struct task *t, void *arg)
{
	task_copy(arg, t);
	return 1;
}

int
fire_heartbeat_set(struct store *st, const char *cron, const char *prompt, int64_t now,
    struct task *out, int *created, struct err *e)
{
	struct task_filter flt;
	task_filter_init(&flt);
	flt.intent = FIRE_HEARTBEAT_INTENT;
	flt.limit = 1;
	struct task t;
	task_init(&t);
	t.id[0] = 0;
	int rc = store_begin(st, e);
	if (!rc)
		rc = store_task_list(st, &flt, find_heartbeat, &t, e);
	if (rc)
		goto out;
	*created = t.id[0] == 0;
	int off = strcmp(cron, "off") == 0;
	if (*created && off) {
		rc = err_set(e, ST_NOTFOUND, "there is no heartbeat to turn off");
		goto out;
	}
	if (!*created && t.status == STATUS_RUNNING) {
		rc = err_set(e, ST_REFUSED, "the heartbeat is running; change it when the run has finished");
		goto out;
	}
	if (off) {
		t.enabled = 0;
		t.updated_at = now;
		rc = store_task_put(st, &t, e);
	} else {
		if (*created) {
			set_str(&t.name, "Heartbeat");
			set_str(&t.intent, FIRE_HEARTBEAT_INTENT);
			set_str(&t.prompt, FIRE_HEARTBEAT_PROMPT);
		}
		if (prompt)
			set_str(&t.prompt, prompt);
		t.kind = KIND_CRON;
		set_str(&t.cron, cron);
		t.enabled = 1;
		t.status = STATUS_PENDING;
		int is_dup;
		char dup[37];
		struct zones *zs = zones_new();
		rc = task_finalize(&t, *created, 1, now, zs, e);
		zones_free(zs);
		if (!rc)
			rc = *created ? store_task_add(st, &t, 0, &is_dup, dup, e) : store_task_put(st, &t, e);
	}
	if (!rc)
		rc = store_commit(st, e);
out:
	if (rc) {
		store_rollback(st);
		task_free(&t);
		return rc;
	}
	*out = t;
	return ST_OK;
}

/* ---- installing ---- */

/* s for a shell (crontab: '%' escaped, which cron turns into newlines);
 * quoted when it needs it, or always. */
static void
put_sh(struct buf *b, const char *s, int always)
{
	if (!always && *s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/._+-,:@=")]) {
		buf_puts(b, s);
		return;
	}
	buf_puts(b, "'");
	for (; *s; s++)
		buf_puts(b, *s == '\'' ? "'\\''" : *s == '%' ? "\\%" : (char[2]){*s, 0});
	buf_puts(b, "'");
}

/* s in a systemd unit: specifiers escaped; for ExecStart= also variables,
 * and quoted when it needs it; else it goes inside Environment="...". */
static void
put_unit(struct buf *b, const char *s, int exec)
{
	int quote = !exec || s[strcspn(s, " \t\"'\\%$;")];
	if (exec && quote)
		buf_puts(b, "\"");
	for (; *s; s++)
		buf_puts(b, *s == '%' ? "%%" : *s == '$' && exec ? "$$" : *s == '"' && quote ? "\\\""
		    : *s == '\\' && quote ? "\\\\" : (char[2]){*s, 0});
	if (exec && quote)
		buf_puts(b, "\"");
}

void
fire_install_cron(struct buf *b, const char *self, const char *db)
{
	buf_puts(b, "# agentcron: fire due tasks every minute.  Install with\n"
	    "#   (crontab -l 2>/dev/null; task-tick --print-cron) | crontab -\n"
	    "# Runs (JSON lines) go to the log; failures go to stderr, which cron mails.\n"
	    "# Cron gives jobs an almost empty environment: put API keys in\n"
	    "# ~/.config/agentcron/config (chmod 600), not in your shell profile.\n"
	    "* * * * * mkdir -p \"$HOME/.local/state/agentcron\" && ");
	if (db) {
		buf_puts(b, "TASK_DB=");
		put_sh(b, db, 1);
		buf_puts(b, " ");
	}
	put_sh(b, self, 0);
	buf_puts(b, " >>\"$HOME/.local/state/agentcron/tick.log\"\n");
}

void
fire_install_systemd(struct buf *b, const char *self, const char *db, int watch)
{
	buf_printf(b, "# agentcron: a systemd user %s for task-tick.  Install with\n"
	    "#   task-tick --print-systemd%s | sh\n"
	    "# (runs while you are logged out after: loginctl enable-linger \"$USER\").\n"
	    "# API keys belong in ~/.config/agentcron/config (chmod 600): units do not\n"
	    "# read your shell profile.\n"
	    "set -e\n"
	    "dir=\"${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user\"\n"
	    "mkdir -p \"$dir\"\n"
	    "cat >\"$dir/agentcron-tick.service\" <<'EOF'\n"
	    "[Unit]\n"
	    "Description=agentcron: fire due tasks\n\n"
	    "[Service]\n",
	    watch ? "service" : "service and timer", watch ? " --watch" : "");
	if (db) {
		buf_puts(b, "Environment=\"TASK_DB=");
		put_unit(b, db, 0);
		buf_puts(b, "\"\n");
	}
	buf_printf(b, "Type=%s\nExecStart=", watch ? "notify" : "oneshot");
	put_unit(b, self, 1);
	if (watch)
		buf_puts(b, " --watch\nRestart=on-failure\nRestartSec=5\n"
		    "TimeoutStopSec=60\n\n[Install]\nWantedBy=default.target\nEOF\n"
		    "systemctl --user daemon-reload\n"
		    "systemctl --user enable --now agentcron-tick.service\n");
	else
		buf_puts(b, "\nEOF\n"
		    "cat >\"$dir/agentcron-tick.timer\" <<'EOF'\n"
		    "[Unit]\n"
		    "Description=agentcron: fire due tasks every minute\n\n"
		    "[Timer]\n"
		    "OnCalendar=minutely\n"
		    "Persistent=true\n"
		    "AccuracySec=1s\n\n"
		    "[Install]\n"
		    "WantedBy=timers.target\n"
		    "EOF\n"
		    "systemctl --user daemon-reload\n"
		    "systemctl --user enable --now agentcron-tick.timer\n");
}
