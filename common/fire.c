/* Firing: claims, executors, records, recovery and notify (fire.h).
 *
 * A claim is one atomic operation of the store (store_claim): the task is
 * read and held, the occurrence to fire decided (fire_rules.c), a run row
 * inserted (unique per task, instant and arming; one in flight per task)
 * and the task marked running with its next run moved on.  Executors start
 * only after it commits, so a crash before fires nothing and a crash after
 * leaves a running row that recovery ends.  How a run ended is recorded by
 * another atomic operation, as the run's owner (store_runs_end); a result
 * the store cannot take yet is kept and tried again, never dropped. */
#define _GNU_SOURCE
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "scrub.h"
#include "exec.h"
#include "fire.h"
#include "fire_env.h"
#include "run_diff.h"
#include "fire_input.h"
#include "claim_decide.h"
#include "fire_rules.h"
#include "heartbeat.h"
#include "idset.h"
#include "notify.h"
#include "outcome.h"
#include "proc.h"
#include "prompt_vars.h"
#include "spend.h"
#include "store_chain.h"
#include "task_fields.h"
#include "utf8.h"

#define CLAIM_BATCH 64      /* due tasks looked at per claim */
#define CLAIM_BUDGET 256    /* due tasks looked at per fire_claim */
#define WAIT_BATCH 16       /* ended runs recorded per transaction */
#define GATE_POLL_MS 200    /* how often a run waiting for a concurrency slot looks again */
#define RECORD_RETRY_MIN 250   /* ms before recording again, doubling */
#define RECORD_RETRY_MAX 30000
#define FDS_PER_RUN 5       /* three pipes, a pidfd, and one to spare */
#define FDS_RESERVED 64     /* the store, inotify, signalfd, the hooks' */
#define CANCEL_POLL_MS 2000 /* how often runs in flight look for a request to end */
#define REPLACE_RECHECK 5   /* seconds before asking a run to end again */
#define OVERLAP_EVERY_MS 1000
/* While claims come back full, the next claim goes without looking first
 * whether anything is due, is queued or the ticker is paused: it looks at
 * most this long after the last look. */
#define LOOK_EVERY_MS 1000
/* Then a run that ended waits for others to end, so that their ends and
 * the claim after them go together: on a server up to GATHER_SERVER_MS,
 * until no run is left (each unit of work costs the server, which every
 * host shares, a round of statements); in a file up to GATHER_FILE_MS,
 * until half the slots are free (a longer wait there only idles slots). */
#define GATHER_SERVER_MS 20
#define GATHER_FILE_MS 3
#define GATHER_GAP_MS 10    /* and never longer than this for the next end */
/* Fencing, in parts of owner_timeout: a sign of life every twelfth of it;
 * runs in flight ended once the store has not taken one for three quarters,
 * killed within an eighth more, so gone before others may recover them.
 * A stall shorter than 3/4 - 1/12 = 2/3 of owner_timeout ends nothing. */
#define BEAT_EVERY_MS(ot) ((int64_t)(ot) * 1000 / 12)
#define FENCE_AFTER_MS(ot) ((int64_t)(ot) * 1000 * 3 / 4)
#define FENCE_KILL_MS(ot) ((int64_t)(ot) * 1000 / 8)

struct job {
	struct run run;
	char owner[37];          /* the identity that claimed it */
	char *name;
	int is_hook;
	int no_resources;        /* never started: the occurrence stays due */
	char *hook;              /* a hook job: its command line, for warnings */
	char *notify;            /* after recording: the hook it goes to */
	int event;               /* after recording: what the hook is told (EV_*), -1: nothing */
	char *paused;            /* after recording: why its end paused the task, or NULL */
	int replaceable;         /* a run (not a hook): it may be asked to end */
	char *cancel;            /* why it was asked to end, once it was */
	char **argv, **envp;
	char *input;
	char *input_file;        /* an event's payload file, removed with the job */
	char *outcome_file;      /* TASK_OUTCOME_FILE, read at its end, removed with the job */
	int64_t timeout_ms;
	char *gate;              /* waiting for a concurrency slot: the model it counts for */
	int64_t late_at;         /* past this when the slot frees, it is missed (its deadline) */
	struct task *waits;      /* its task's gate (--gate) runs: the task, started after it */
	char *base;              /* ... and the prompt it then starts from (a heartbeat's), or NULL */
	int idle_told;           /* its gate found nothing to do, first of a streak */
};

struct fire {
	struct store *st;
	struct zones *zs;
	struct fire_opts o;
	struct fire_cb cb;
	struct exec_pool *pool;
	int reaper;              /* what a run leaves behind is reparented here */
	struct owner self;
	int registered;          /* the store knows this process (before its first claim) */
	int alive;               /* this process's last sign of life was taken */
	int64_t beat_at;         /* mono_ms of the next sign of life */
	int64_t fence_at;        /* mono_ms: the last sign of life taken, sent at, + 3/4 owner_timeout */
	int fencing;             /* past fence_at: runs in flight ended, results waiting */
	int down;                /* the store failed: said once, quiet until it is back */
	size_t nruns, nhooks;
	struct due_cursor cur;
	struct idset fired;      /* tasks claimed in this pass */
	struct job **pending;    /* finished, not recorded yet */
	size_t npending, cappending;
	struct job **gated;      /* claimed, waiting for a concurrency slot, oldest first */
	size_t ngated;
	int claimed;             /* fire_claim ran since the last fire_wait: what ends next
	                            is recorded by the claim after it, in its commit */
	struct scrub scrub;      /* the secrets kept out of runs' output and errors */
	int64_t retry_at;        /* mono_ms of the next try to record them */
	int64_t retry_ms;
	size_t nreplace;         /* runs in flight that may be asked to end */
	int64_t overlap_at;      /* mono_ms of the next look at running tasks' due occurrences */
	int more_due;            /* the last claim took all it asked for: more may be due */
	int gather_all;          /* an end waits for every run (a server), not half the slots */
	int64_t look_at;         /* mono_ms of the next look (due tasks, queued runs, pause) */
	int64_t cancel_at;       /* mono_ms of the next look for such requests */
	struct spend_check spend; /* the global budget */
	unsigned notify_on;      /* the default notify policy */
	int chained;             /* an end queued followers: claim again before the pass ends */
};

/* A skip or a pause to tell once its claim is committed. */
struct notice {
	int event;               /* EV_BUDGET, EV_PAUSED (run unused), or -1: a skip, told in the output */
	struct task task;
	struct run run;
	struct notice *next;
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

static void
job_free(struct job *j)
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

/* ---- setup ---- */

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
	f->gather_all = store_is_uri(store_locator(st));
	scrub_load(&f->scrub, o->cf, NULL, NULL);
	scrub_add(&f->scrub, store_password(st));
	if (cb)
		f->cb = *cb;
	if (f->o.jobs < 1)
		f->o.jobs = 1;
	int allowed = jobs_allowed();
	if (f->o.jobs > allowed) {
		warnf(f, "-j %d needs more open files than the limit allows (ulimit -n); running at most"
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
		job_free(f->pending[i]);
	free(f->pending);
	for (size_t i = 0; i < f->ngated; i++)
		job_free(f->gated[i]);
	free(f->gated);
	zones_free(f->zs);
	idset_free(&f->fired);
	scrub_free(&f->scrub);
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

void
fire_pass_begin(struct fire *f)
{
	due_cursor_init(&f->cur);
	idset_clear(&f->fired);
	f->overlap_at = 0;
	f->more_due = 0;
}

/* How long a statement may wait for the store: while runs are in flight,
 * no later than they would be fenced; never more than a third of
 * owner_timeout (at least 20 s, beyond a lock wait). */
static void
bound_waits(struct fire *f)
{
	int64_t op = f->o.owner_timeout * 1000 / 3;
	store_deadline(f->st, f->nruns && f->registered ? f->fence_at : 0, op > 20000 ? op : 20000);
}

/* ---- starting a claimed run ---- */

/* What the run may still spend, for its executor (SPEND_LEFT_ENV). */
static void
budget_env(struct fire *f, struct job *j, const struct task *t)
{
	char why[256], left[96];
	int over;
	int64_t window;
	struct err e;
	if (str_empty(t->budget) && !f->spend.global.set)
		return;
	/* What others reserved is not left to this run; its own is. */
	f->spend.except_run = j->run.id;
	int rc = spend_check_task(&f->spend, f->st, t, f->zs, now_of(f), &over, why, sizeof why,
	    &window, NULL, left, sizeof left, &e);
	f->spend.except_run = NULL;
	if (rc) {
		warnf(f, "task '%.8s': what its budget leaves is not known (%s); its run is not bounded"
		    " by it", t->id, e.msg);
		return;
	}
	/* Over it, the run was let through on purpose (task-run --force). */
	if (left[0] && !over)
		fire_env_set(&j->envp, SPEND_LEFT_ENV, left);
}

/* Job j's command (a run's or a hook's), ended after timeout_ms. */
static struct exec_cmd
job_cmd(const struct fire *f, const struct job *j, int64_t timeout_ms)
{
	return (struct exec_cmd){
		.argv = j->argv,
		.envp = j->envp,
		.search_dir = f->o.search_dir,
		.input = j->input,
		.ninput = strlen(j->input),
		.timeout_ms = timeout_ms,
		.kill_grace_ms = f->o.kill_grace_ms,
	};
}

static void
launch(struct fire *f, struct job *j)
{
	struct exec_cmd c = job_cmd(f, j, j->timeout_ms);
	c.die_with_parent = 1;
	exec_pool_start(f->pool, &c, j);
}

static void gates_try(struct fire *f);

/* An llm-call run under max_concurrent or concurrency.MODEL waits for a
 * slot (f->gated) with the model it counts for: the task's, else the
 * config's.  Its deadline, if any, is checked when the slot frees. */
static int
gate_needed(struct fire *f, struct job *j, const struct task *t)
{
	const char *base = strrchr(j->argv[0], '/');
	base = base ? base + 1 : j->argv[0];
	const char *model = !str_empty(t->model) ? t->model
	    : f->o.cf && config_get(f->o.cf, "model") ? config_get(f->o.cf, "model") : "";
	if (strcmp(base, "llm-call") != 0 ||
	    (f->o.max_concurrent <= 0 && config_model_limit(f->o.cf, model) <= 0))
		return 0;
	j->gate = xstrdup(model);
	int dl = t->deadline > 0 ? t->deadline : f->o.deadline;
	int scheduled = j->run.trigger == TRIGGER_SCHEDULE || j->run.trigger == TRIGGER_CATCHUP;
	j->late_at = dl > 0 && scheduled && j->run.slot != TIME_NONE
	    ? j->run.slot + task_delay(t, f->zs, j->run.slot) + dl : TIME_NONE;
	f->gated = xrealloc(f->gated, (f->ngated + 1) * sizeof *f->gated);
	f->gated[f->ngated++] = j;
	return 1;
}

/* Executor, environment and input of a claimed run; start it.  The
 * prompt (base, else the task's; base is taken) is sent with its
 * variables (prompt_vars.h) expanded: {{input}} the run's input (a chain's
 * or an event's, from the store), gate its gate's output (NULL: none). */
static void
run_executor(struct fire *f, struct job *j, const struct task *t, char *base, const char *gate)
{
	const char *cmdline = !str_empty(t->exec) ? t->exec : f->o.exec;
	struct err e;
	struct task sent = *t;
	char *system = NULL;
	if (base)
		sent.prompt = base;
	/* A chained or event run's input: {{input}}, or on stdin after the prompt. */
	struct run_input in;
	int have_in = 0;
	if (fire_input_load(f->st, &j->run, &in, &have_in, &e)) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "its input could not be read: %s", e.msg);
		free(base);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	const char *input = have_in && in.text && in.kind != INPUT_REPLAY ? in.text : NULL;
	int named = prompt_vars_names(sent.prompt, "input") ||
	    (t->system_prompt && prompt_vars_names(t->system_prompt, "input"));
	if (prompt_vars_run(f->st, f->zs, &sent, j->run.started_at, fire_slot_of(t, &j->run),
	    j->run.attempt, input, gate, &j->input, &system, &e)) {
		warnf(f, "task '%.8s': its last answer could not be read (%s); {{last_answer}} is empty",
		    t->id, e.msg);
		struct prompt_vals none = {0};
		j->input = prompt_vars_expand(base ? base : t->prompt, &none);
		system = t->system_prompt ? prompt_vars_expand(t->system_prompt, &none) : NULL;
	}
	free(base);
	sent.system_prompt = system;
	if (exec_split(cmdline, &j->argv, &e)) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "bad executor command line: %s", e.msg);
		free(system);
		if (have_in)
			run_input_free(&in);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	j->envp = fire_exec_env(&sent, &j->run, store_locator(f->st));
	free(system);
	budget_env(f, j, t);
	fire_env_password(&j->envp, f->st);
	int rc = have_in ? fire_input_apply(&in, named, &j->input, &j->envp, &j->input_file, &e) : 0;
	if (have_in)
		run_input_free(&in);
	if (rc) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "its input could not be given: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	if (outcome_file_new(&j->outcome_file, &e)) {
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, e.msg);
		return;
	}
	fire_env_set(&j->envp, OUTCOME_ENV, j->outcome_file);
	int timeout = t->timeout > 0 ? t->timeout : f->o.timeout;
	char secs[24];
	snprintf(secs, sizeof secs, "%d", timeout);
	fire_env_set(&j->envp, "TASK_TIMEOUT", secs);
	j->timeout_ms = (int64_t)timeout * 1000;
	if (gate_needed(f, j, t))
		gates_try(f);
	else
		launch(f, j);
}

/* A task with a gate (--gate) runs it first, in the task's environment
 * with nothing on its input; gate_ended says what follows. */
static void
start_job(struct fire *f, struct job *j, const struct task *t, char *prompt)
{
	f->nruns++;
	bound_waits(f);
	/* A replay sends its request as it was: no gate decides again. */
	if (str_empty(t->gate) || j->run.trigger == TRIGGER_REPLAY) {
		run_executor(f, j, t, prompt, NULL);
		return;
	}
	struct err e;
	j->waits = xcalloc(1, sizeof *j->waits);
	task_copy(j->waits, t);
	j->base = prompt;
	j->input = xstrdup("");
	if (exec_split(t->gate, &j->argv, &e)) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "bad gate command line: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	j->envp = fire_exec_env(t, &j->run, store_locator(f->st));
	fire_env_password(&j->envp, f->st);
	j->timeout_ms = (int64_t)(t->gate_timeout > 0 ? t->gate_timeout : TASK_GATE_TIMEOUT) * 1000;
	launch(f, j);
}

/* Start what a claim returned: jobs from its runs, a heartbeat's prompt. */
static void
start_claimed(struct fire *f, struct claimed *c, int n)
{
	for (int i = 0; i < n; i++) {
		struct job *j = xcalloc(1, sizeof *j);
		j->run = c[i].run;
		memset(&c[i].run, 0, sizeof c[i].run);
		memcpy(j->owner, f->self.id, sizeof j->owner);
		j->name = xstrdup(c[i].task.name);
		/* Any run may be asked to end: by an occurrence replacing it
		 * (--overlap replace) or by a person (task-web's cancel). */
		j->replaceable = 1;
		f->nreplace++;
		char *prompt = NULL;
		struct err e;
		if (heartbeat_is(&c[i].task) && heartbeat_prompt(f->st, c[i].task.prompt, &prompt, &e))
			warnf(f, "heartbeat additions not read (%s); the beat runs its base prompt", e.msg);
		start_job(f, j, &c[i].task, prompt);
	}
	claimed_free(c, (size_t)n);
}

/* ---- claiming ---- */

/* Ended runs carried by a claim (ride_attach, ride_settle). */
struct end_ctx {
	struct fire *f;
	int64_t now;
	struct job **jobs;
	size_t n;
};
struct ride {
	struct run_end *ends;
	size_t n;
	struct end_ctx x;
};
static void ride_attach(struct fire *f, struct claim_req *q, struct ride *rd, int64_t now);
static void ride_settle(struct fire *f, struct claim_req *q, struct ride *rd, int committed);
static int record_pending(struct fire *f, struct err *e);

struct claim_ctx {
	struct fire *f;
	int64_t now;
	int manual, from_queue;
	/* An event fired now (fire_event): its payload and stored key; what it
	 * had become when its key had been seen. */
	const char *payload, *event_key;
	int event_dup;
	int replay;              /* the payload is a request to send again (fire_replay) */
	const char *replay_of;   /* the run it was the request of */
	char event_run[37];
	struct notice *notices;  /* skips and pauses to tell once committed */
	void (*preview)(const struct fire_preview *p, void *arg);
	void *preview_arg;
};

/* The run a claim fires: owned by us, leased for its timeout and more. */
static int
run_fill(struct fire *f, const struct task *t, int64_t slot, int trigger, int attempt,
    int64_t now, struct run *r, struct err *e)
{
	if (uuid4(r->id) != 0)
		return err_set(e, ST_ERR, "cannot make a run id: no randomness");
	memcpy(r->task_id, t->id, sizeof r->task_id);
	r->slot = slot;
	r->trigger = trigger;
	r->status = RUN_RUNNING;
	r->started_at = now;
	r->attempt = attempt;
	r->arming = t->arming;
	int timeout = t->timeout > 0 ? t->timeout : f->o.timeout;
	if (!str_empty(t->gate))
		timeout += t->gate_timeout > 0 ? t->gate_timeout : TASK_GATE_TIMEOUT;
	r->lease_until = now + timeout + (f->o.kill_grace_ms + 999) / 1000 + FIRE_LEASE_MARGIN;
	return ST_OK;
}

/* A task that cannot be computed is parked with the reason: one bad task
 * must not stop the others. */
static void
park(struct fire *f, struct task *t, int64_t now, const char *why)
{
	warnf(f, "task '%.8s' cannot be scheduled: %s", t->id, why);
	t->status = STATUS_FAILED;
	rules_set_next(t, NULL, TIME_NONE);
	char *msg = xasprintf("cannot compute the next run: %s", why);
	set_str(&t->last_error, msg);
	free(msg);
	t->updated_at = now;
}

/* The first words of a missed deadline's reason: its misses in a row are
 * one streak, told once. */
#define MISSED_WHY "could not start within its deadline"

/* Why an occurrence does not run: skipped (--missed skip) or missed (past
 * its deadline); malloc'd. */
static char *
unfired_why(struct fire *f, const struct task *t, const struct decision *d, int64_t now)
{
	char when[40], late[32], dl[32];
	time_fmt_utc(d->slot, when, sizeof when);
	duration_fmt((now - d->slot) * 1000, late, sizeof late);
	if (!d->missed)
		return xasprintf("missed its time (%s) by %lld s; skipped (--missed skip)", when,
		    (long long)(now - d->slot));
	int own = t->deadline > 0;
	duration_fmt((int64_t)(own ? t->deadline : f->o.deadline) * 1000, dl, sizeof dl);
	return xasprintf(MISSED_WHY " (%s%s) of %s: %s late; not run", dl, own ? ""
	    : ", from the configuration", when, late);
}

/* An occurrence that does not run, on record with why (taken) so the log
 * says it.  A skip the user did not choose in advance (a missed deadline,
 * --overlap skip, a gate) is told as a budget skip is: a line in the pass's
 * output and, without a hook, cron's mail; once per streak, not at every
 * occurrence: not when the task's last outcome was the same status with
 * the same first `same` bytes of reason (0: never told). */
static void
record_unfired(struct claim_ctx *x, struct task *t, const struct decision *d, struct run *r,
    int status, char *why, size_t same)
{
	if (uuid4(r->id) == 0) {
		memcpy(r->task_id, t->id, sizeof r->task_id);
		r->slot = d->slot;
		r->arming = t->arming;
		r->trigger = d->trigger;
		r->status = status;
		r->started_at = r->ended_at = x->now;
		r->duration_ms = 0;
		r->error = xstrdup(why);
	}
	int again = t->last_status && !strcmp(t->last_status, run_status_name(status)) &&
	    t->last_error && !strncmp(t->last_error, why, same);
	set_str(&t->last_status, run_status_name(status));
	set_str(&t->last_error, why);
	free(why);
	if (d->next == TIME_NONE)
		t->status = STATUS_COMPLETED;
	if (!same || again || !r->id[0])
		return;
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = -1;
	task_copy(&n->task, t);
	n->run = *r;
	fields_copy_text(&run_fields, &n->run);
	n->next = x->notices;
	x->notices = n;
}

/* An occurrence (or a queued run) over budget: skipped, on record with
 * the reason, told once per window; the task goes on at next. */
static void
skip_over_budget(struct claim_ctx *x, struct task *t, const struct decision *d, struct run *r,
    const char *why, int64_t window, int64_t next)
{
	if (uuid4(r->id) == 0) {
		memcpy(r->task_id, t->id, sizeof r->task_id);
		r->slot = d->slot;
		r->arming = t->arming;
		r->trigger = d->trigger;
		r->status = RUN_SKIPPED;
		r->started_at = r->ended_at = x->now;
		r->duration_ms = 0;
		r->error = xstrdup(why);
	}
	set_str(&t->last_status, "skipped");
	set_str(&t->last_error, why);
	rules_set_next(t, x->f->zs, next);
	t->queued = 0;
	t->updated_at = x->now;
	if (t->budget_noticed == window)
		return;
	t->budget_noticed = window;
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = EV_BUDGET;
	task_copy(&n->task, t);
	n->run = *r;
	fields_copy_text(&run_fields, &n->run);
	n->next = x->notices;
	x->notices = n;
}

static int
first_run(const struct run *r, void *arg)
{
	struct run *out = arg;
	*out = *r;
	fields_copy_text(&run_fields, out);
	return 1;
}

/* The run in flight of t, into cur (cur->id empty: none on record). */
static int
run_in_flight(struct fire *f, const struct task *t, struct run *cur, struct err *e)
{
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = t->id;
	rf.status = RUN_RUNNING;
	rf.limit = 1;
	rf.with_output = 1;
	return store_run_list(f->st, &rf, first_run, cur, e);
}

/* An occurrence due while its task runs (c->what REPLACE, SKIP_OVERLAP or
 * UNFIRED): skip records it skipped; replace asks the run in flight (cur)
 * to end (its owner, on any host, ends it within CANCEL_POLL_MS and the
 * grace) and looks again in a few seconds, the occurrence kept due to
 * start once the run is recorded cancelled. */
static int
claim_overlap(struct claim_ctx *x, struct task *t, const struct claim_choice *c,
    const struct run *cur, struct run *r, struct err *e)
{
	struct fire *f = x->f;
	const struct decision *d = &c->due;
	int64_t now = x->now;
	int rc = ST_OK;
	char since[40], when[40];
	time_fmt_utc(cur->started_at, since, sizeof since);
	time_fmt_utc(d->slot, when, sizeof when);
	if (c->what == CLAIM_DO_REPLACE) {
		if (!cur->note || strncmp(cur->note, STORE_CANCEL_NOTE, strlen(STORE_CANCEL_NOTE))) {
			char *note = xasprintf(STORE_CANCEL_NOTE "replaced by its occurrence of %s"
			    " (--overlap replace)", when);
			rc = store_run_note(f->st, cur->id, note, e);
			free(note);
		}
		rules_set_next(t, f->zs, d->slot);
		t->due_at = now + REPLACE_RECHECK;
	} else {
		int status = t->status;
		/* --overlap skip: on record with the run it gave way to, told
		 * once for that run. */
		if (c->what == CLAIM_DO_SKIP_OVERLAP)
			record_unfired(x, t, d, r, RUN_SKIPPED, xasprintf("still running since %s (run %.8s);"
			    " skipped (--overlap skip)", since, cur->id), SIZE_MAX);
		else
			record_unfired(x, t, d, r, d->missed ? RUN_MISSED : RUN_SKIPPED,
			    unfired_why(f, t, d, now), d->missed ? strlen(MISSED_WHY) : 0);
		t->status = status;
		rules_set_next(t, f->zs, d->next);
	}
	t->updated_at = now;
	return rc;
}

/* The retry t waited for was overtaken by a newer occurrence: counted
 * failed now.  1 if that paused t (told once committed). */
static int
retry_dropped(struct claim_ctx *x, struct task *t, const struct decision *d)
{
	t->updated_at = x->now;
	if (!rules_retry_dropped(t, x->f->zs, d))
		return 0;
	struct notice *n = xcalloc(1, sizeof *n);
	n->event = EV_PAUSED;
	task_copy(&n->task, t);
	run_init(&n->run);
	n->next = x->notices;
	x->notices = n;
	return 1;
}

/* A due task: the facts claim_decide asks for gathered, its decision
 * written into t and r. */
static int
claim_due(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	struct fire *f = x->f;
	*decision = CLAIM_SKIP;
	struct claim_facts in = {.t = t, .now = x->now, .deadline = f->o.deadline,
		.global_budget = f->spend.global.set, .last_attempt = last_attempt,
		.preview = x->preview != NULL,
		.fired_this_pass = idset_has(&f->fired, t->id)};
	struct claim_choice c;
	struct run cur;
	run_init(&cur);
	char why[256];
	int64_t window = TIME_NONE, until = TIME_NONE;
	int rc;
	while (!(rc = claim_decide(&in, f->zs, &c)) && c.what == CLAIM_DO_NEED) {
		if (c.need & CLAIM_NEED_IN_FLIGHT) {
			if ((rc = run_in_flight(f, t, &cur, e)))
				break;
			in.in_flight = cur.id[0] != 0;
		}
		if ((c.need & CLAIM_NEED_BUDGET) && (rc = spend_check_task(&f->spend, f->st, t, f->zs,
		    x->now, &in.over_budget, why, sizeof why, &window, &until, NULL, 0, e)))
			break;
		in.known |= c.need;
	}
	const struct decision *d = &c.due;
	if (rc || c.what == CLAIM_DO_NOTHING)
		goto done;
	if (x->preview) {
		struct fire_preview p = {t, d->slot, !d->fire ? "skip"
			: c.what == CLAIM_DO_BUDGET_SKIP ? "budget" : run_trigger_name(c.trigger)};
		x->preview(&p, x->preview_arg);
		goto done;
	}
	*decision = CLAIM_WRITE;
	if (c.what == CLAIM_DO_PARK) {
		park(f, t, x->now, c.why);
		goto done;
	}
	if (c.what == CLAIM_DO_REPLACE || c.what == CLAIM_DO_SKIP_OVERLAP || c.keep_status) {
		rc = claim_overlap(x, t, &c, &cur, r, e);
		goto done;
	}
	if (c.count_failure && (retry_dropped(x, t, d) || c.what == CLAIM_DO_PAUSE))
		goto done;
	if (c.what == CLAIM_DO_BUDGET_SKIP) {
		/* A last occurrence waits for the next window. */
		skip_over_budget(x, t, d, r, why, window, d->next != TIME_NONE ? d->next : until);
		goto done;
	}
	if (c.what == CLAIM_DO_START) {
		if (c.new_arming)
			t->arming++;
		rc = run_fill(f, t, d->slot, c.trigger, c.attempt, x->now, r, e);
		if (!rc)
			rc = spend_reserve(&f->spend, f->st, t, r->id, e);
		if (rc)
			goto done;
		t->status = STATUS_RUNNING;
		idset_add(&f->fired, t->id);
		*decision = CLAIM_FIRE;
	} else if (c.what == CLAIM_DO_UNFIRED) {
		record_unfired(x, t, d, r, d->missed ? RUN_MISSED : RUN_SKIPPED,
		    unfired_why(f, t, d, x->now), d->missed ? strlen(MISSED_WHY) : 0);
	}
	rules_set_next(t, f->zs, d->next);
	t->updated_at = x->now;
done:
	run_free(&cur);
	return rc;
}

/* Bind input in to r, the run (or skip) the claim makes of it; the task
 * stays queued while more inputs wait. */
static int
fire_take_input(struct claim_ctx *x, struct task *t, const struct run_input *in, struct run *r,
    int *decision, struct err *e)
{
	int got = 0, more = 0;
	struct run_input next;
	run_input_init(&next);
	int rc = store_input_bind(x->f->st, in->id, r->id, &got, e);
	if (!rc && !got)
		*decision = CLAIM_SKIP;
	if (!rc && got && !(rc = store_input_find(x->f->st, INPUT_NEXT, t->id, NULL, &next, &more, e)))
		t->queued = more;
	run_input_free(&next);
	return rc;
}

/* A manual run (task-run, or queued).  From the queue, a task that is
 * running or no longer queued is left alone. */
static int
claim_manual(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	struct manual_facts mf = {.t = t, .from_queue = x->from_queue, .preview = x->preview != NULL,
		.global_budget = x->f->spend.global.set};
	char why[256];
	int need, rc;
	int64_t window = TIME_NONE;
	enum claim_do what;
	while ((what = claim_decide_manual(&mf, &need)) == CLAIM_DO_NEED) {
		if ((rc = spend_check_task(&x->f->spend, x->f->st, t, x->f->zs, x->now, &mf.over_budget,
		    why, sizeof why, &window, NULL, NULL, 0, e)))
			return rc;
		mf.known |= need;
	}
	if (what == CLAIM_DO_NOTHING)
		return ST_OK;
	if (x->preview) {
		struct fire_preview p = {t, TIME_NONE, run_trigger_name(TRIGGER_MANUAL)};
		x->preview(&p, x->preview_arg);
		return ST_OK;
	}
	if (what == CLAIM_DO_REFUSE)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", t->id);
	int over = what == CLAIM_DO_BUDGET_SKIP;
	/* Asked for by an upstream's end or an event: the oldest input waiting. */
	struct run_input in;
	int found = 0;
	run_input_init(&in);
	if (x->from_queue && (rc = store_input_find(x->f->st, INPUT_NEXT, t->id, NULL, &in, &found, e)))
		return rc;
	int trigger = !found ? TRIGGER_MANUAL : in.kind == INPUT_AFTER ? TRIGGER_AFTER : TRIGGER_EVENT;
	int64_t slot = found ? in.slot : TIME_NONE;
	if (over) {
		struct decision d = {.slot = slot, .next = t->next_run_at, .trigger = trigger};
		skip_over_budget(x, t, &d, r, why, window, t->next_run_at);
		*decision = CLAIM_WRITE;
	} else {
		/* A slot of its own is the upstream's: a new arming, as a backfill's. */
		if (slot != TIME_NONE)
			t->arming++;
		if ((rc = run_fill(x->f, t, slot, trigger, 1, x->now, r, e)) ||
		    (rc = spend_reserve(&x->f->spend, x->f->st, t, r->id, e))) {
			run_input_free(&in);
			return rc;
		}
		snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
		t->status = STATUS_RUNNING;
		t->queued = 0;
		t->updated_at = x->now;
		*decision = CLAIM_FIRE;
	}
	/* The input becomes this run (or this skip), once: the task is held. */
	if (found)
		rc = fire_take_input(x, t, &in, r, decision, e);
	run_input_free(&in);
	return rc;
}

/* The store failed: say so once, and once more when it is back. */
static void
store_down(struct fire *f, const struct err *e)
{
	if (!f->down && f->o.watch)
		warnf(f, "%s; firing nothing until it is back", e->msg);
	f->down = 1;
}

static void
store_up(struct fire *f)
{
	if (f->down && f->o.watch)
		warnf(f, "store '%s' is back", store_name(f->st));
	f->down = 0;
}

/* A sign of life sent at sent was taken: others may recover this
 * process's runs owner_timeout after it at the earliest. */
static void
alive_since(struct fire *f, int64_t sent)
{
	f->fence_at = sent + FENCE_AFTER_MS(f->o.owner_timeout);
	f->fencing = 0;
	bound_waits(f);
}

/* The process shown to the store, before its first claim: a pass with
 * nothing to run writes nothing (on PostgreSQL, no commit to wait for). */
static int
enlist(struct fire *f, struct err *e)
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
static void
beat(struct fire *f, int force)
{
	if (!f->registered || (!force && mono_ms() < f->beat_at))
		return;
	f->beat_at = mono_ms() + BEAT_EVERY_MS(f->o.owner_timeout);
	struct err e;
	int alive;
	int64_t sent = mono_ms();
	if (store_owner_beat(f->st, &alive, &e)) {
		f->alive = 0;
		store_down(f, &e);
		return;
	}
	if (!alive) {
		warnf(f, "this process was silent for more than %d s and others recovered its runs;"
		    " going on under a new identity", f->o.owner_timeout);
		if (owner_self(&f->self, &e) || store_owner_start(f->st, &f->self, &e)) {
			f->alive = 0;
			store_down(f, &e);
			return;
		}
	}
	f->alive = 1;
	alive_since(f, sent);
	/* Back means writable: a full disk still answers reads. */
	store_up(f);
}

/* Is anything due or queued, and this process fit to claim it?  1 yes, 0
 * no, else the error. */
static int
claim_ready(struct fire *f, int64_t now, int64_t *next, int *queued, struct err *e)
{
	if (f->more_due && f->registered && f->alive && mono_ms() < f->look_at) {
		*next = now;
		*queued = 0;
		return 1;
	}
	f->more_due = 0;
	f->look_at = mono_ms() + LOOK_EVERY_MS;
	int paused = fire_paused(f, NULL, e), rc;
	if (paused < 0) {
		store_down(f, e);
		return -ST_ERR;
	}
	if (paused)
		return 0;
	/* Nothing due costs one read and no lock. */
	if ((rc = store_due_next(f->st, next, queued, e))) {
		store_down(f, e);
		return -rc;
	}
	/* An unregistered process only reads: a read that works is the store back. */
	if (!f->registered)
		store_up(f);
	if ((*next == TIME_NONE || *next > now) && !*queued)
		return 0;
	if (!f->registered) {
		if ((rc = enlist(f, e))) {
			store_down(f, e);
			return -rc;
		}
	} else if (!f->alive) {
		beat(f, 1);
		if (!f->alive)
			return 0;
	}
	return 1;
}

static void notices_flush(struct fire *f, struct claim_ctx *x, int committed);

/* Running tasks with an occurrence due (--overlap skip and replace): they
 * are looked at whether executor slots are free or not. */
static int
claim_overlaps(struct fire *f, int64_t now, struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now};
	struct claim_req q = {.what = CLAIM_OVERLAP, .now = now, .max = CLAIM_BATCH};
	int n = 0, rc = store_claim(f->st, &q, claim_due, &x, NULL, &n, e);
	notices_flush(f, &x, rc == ST_OK);
	if (rc == ST_REFUSED) {
		f->alive = 0;
		return ST_OK;
	}
	if (rc)
		store_down(f, e);
	return rc;
}

static int
claim_now(struct fire *f, int *started, int *more, struct err *e)
{
	*started = 0;
	*more = 0;
	int room = f->o.jobs - (int)f->nruns;
	int64_t now = now_of(f), next;
	int rc, queued;
	if ((rc = claim_ready(f, now, &next, &queued, e)) <= 0)
		return -rc;
	/* A transaction of its own: at the start of a pass, then once a
	 * second at most, so a drain of many runs does not pay it per run. */
	if (mono_ms() >= f->overlap_at) {
		f->overlap_at = mono_ms() + OVERLAP_EVERY_MS;
		if ((rc = claim_overlaps(f, now, e)))
			return rc;
	}
	if (room <= 0) {
		*more = 1;
		return ST_OK;
	}
	struct claimed *c = xcalloc((size_t)(room < CLAIM_BATCH ? CLAIM_BATCH : room), sizeof *c);
	struct claim_ctx x = {.f = f, .now = now, .from_queue = 1};
	struct claim_req q = {.what = CLAIM_QUEUED, .now = now, .max = room};
	int n = 0, looked = 0;
	size_t fired0 = f->fired.n;
	struct ride rd;
	ride_attach(f, &q, &rd, now);
	spend_check_fresh(&f->spend);
	rc = queued ? store_claim(f->st, &q, claim_manual, &x, c, &n, e) : ST_OK;
	if (queued)
		ride_settle(f, &q, &rd, !rc);
	notices_flush(f, &x, rc == ST_OK);
	if (!rc) {
		start_claimed(f, c, n);
		*started += n;
		room -= n;
	}
	x.from_queue = 0;
	q.what = CLAIM_DUE;
	q.cur = &f->cur;
	f->more_due = 0;
	while (!rc && room > 0 && next != TIME_NONE && next <= now) {
		if (looked >= CLAIM_BUDGET) {
			*more = 1;
			break;
		}
		q.max = room < CLAIM_BATCH ? room : CLAIM_BATCH;
		struct due_cursor before = f->cur;
		spend_check_fresh(&f->spend);
		rc = store_claim(f->st, &q, claim_due, &x, c, &n, e);
		ride_settle(f, &q, &rd, !rc);
		notices_flush(f, &x, rc == ST_OK);
		if (rc)
			break;
		if (!memcmp(&before, &f->cur, sizeof before))
			break; /* nothing left past the cursor */
		looked += q.max;
		start_claimed(f, c, n);
		*started += n;
		room -= n;
		fired0 = f->fired.n;
		f->more_due = n == q.max;
	}
	if (rc == ST_REFUSED) {
		/* Declared dead: a new identity at the next sign of life. */
		idset_truncate(&f->fired, fired0);
		f->alive = 0;
		rc = ST_OK;
	} else if (rc) {
		/* Forget what the failed claim meant to fire; rescan next time. */
		f->more_due = 0;
		idset_truncate(&f->fired, fired0);
		due_cursor_init(&f->cur);
		store_down(f, e);
	} else {
		store_up(f);
		if (room <= 0)
			*more = 1;
	}
	ride_settle(f, &q, &rd, 0);
	free(c);
	return rc;
}

int
fire_claim(struct fire *f, int *started, int *more, struct err *e)
{
	int rc = claim_now(f, started, more, e);
	/* What no claim took along is recorded on its own. */
	struct err e1;
	if (f->npending && mono_ms() >= f->retry_at && record_pending(f, &e1) && !rc)
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

/* Task id claimed alone as fn decides, by this process registered first;
 * *n says whether c holds a run. */
static int
claim_alone(struct fire *f, const char *id, claim_fn fn, void *arg, struct claimed *c, int *n,
    struct err *e)
{
	struct claim_req q = {.what = CLAIM_ONE, .id = id};
	*n = 0;
	int rc = enlist(f, e);
	return rc ? rc : store_claim(f->st, &q, fn, arg, c, n, e);
}

/* The run claim_alone claimed started; its id in run_id. */
static int
start_alone(struct fire *f, struct claimed *c, char run_id[37])
{
	memcpy(run_id, c->run.id, 37);
	start_claimed(f, c, 1);
	return ST_OK;
}

int
fire_manual(struct fire *f, const char *id, char run_id[37], struct err *e)
{
	struct claimed c;
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1};
	int n, rc = claim_alone(f, id, claim_manual, &x, &c, &n, e);
	if (rc)
		return rc;
	if (!n)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", id);
	return start_alone(f, &c, run_id);
}

/* An event fired now: its input (payload, key) and its run made in one
 * claim, unless its key was seen (x->event_dup: nothing changes). */
static int
claim_event(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct claim_ctx *x = arg;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	struct run_input in;
	int found = 0, added = 0;
	int rc = store_input_find(x->f->st, INPUT_BY_KEY, t->id, x->event_key, &in, &found, e);
	if (!rc && found) {
		x->event_dup = 1;
		memcpy(x->event_run, in.run_id, sizeof x->event_run);
	}
	run_input_free(&in);
	if (rc || found)
		return rc;
	if (t->status == STATUS_RUNNING)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", t->id);
	if ((rc = run_fill(x->f, t, TIME_NONE, x->replay ? TRIGGER_REPLAY : TRIGGER_EVENT, 1, x->now,
	    r, e)))
		return rc;
	if (uuid4(in.id) != 0)
		return err_set(e, ST_ERR, "cannot make an event's id: no randomness");
	memcpy(in.task_id, t->id, sizeof in.task_id);
	in.kind = x->replay ? INPUT_REPLAY : INPUT_EVENT;
	snprintf(in.upstream_run, sizeof in.upstream_run, "%s", x->replay ? x->replay_of : "");
	in.key = (char *)x->event_key;
	in.text = (char *)x->payload;
	in.created_at = x->now;
	memcpy(in.run_id, r->id, sizeof in.run_id);
	if ((rc = store_input_add(x->f->st, &in, &added, e)))
		return rc;
	snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
	t->status = STATUS_RUNNING;
	t->updated_at = x->now;
	*decision = CLAIM_FIRE;
	return ST_OK;
}

/* A run asked for by an event or a replay: claimed alone under the key
 * stored for it, then started. */
static int
claim_asked(struct fire *f, const char *id, struct claim_ctx *x, const char *key,
    char run_id[37], int *dup, struct err *e)
{
	struct claimed c;
	char *stored;
	int n, rc = fire_event_key(key, &stored, e);
	*dup = 0;
	run_id[0] = 0;
	if (rc)
		return rc;
	x->event_key = stored;
	rc = claim_alone(f, id, claim_event, x, &c, &n, e);
	free(stored);
	if (rc)
		return rc;
	if (x->event_dup) {
		*dup = 1;
		memcpy(run_id, x->event_run, 37);
		return ST_OK;
	}
	if (!n)
		return err_set(e, ST_REFUSED, "task '%.8s' is already running", id);
	return start_alone(f, &c, run_id);
}

int
fire_event(struct fire *f, const char *id, const char *payload, const char *key, char run_id[37],
    int *dup, struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1, .payload = payload};
	return claim_asked(f, id, &x, key, run_id, dup, e);
}

int
fire_replay(struct fire *f, const char *id, const char *of_run, const char *request, char run_id[37],
    struct err *e)
{
	struct claim_ctx x = {.f = f, .now = now_of(f), .manual = 1, .payload = request, .replay = 1,
		.replay_of = of_run};
	int dup;
	return claim_asked(f, id, &x, NULL, run_id, &dup, e);
}

/* ---- backfill ---- */

struct slot_look {
	int64_t slot;
	int ran;
};

static int
slot_look(const struct run *r, void *arg)
{
	struct slot_look *l = arg;
	if (r->slot == l->slot && r->status != RUN_SKIPPED && r->status != RUN_MISSED &&
	    r->status != RUN_UNSTARTED)
		l->ran = 1;
	return l->ran;
}

int
fire_slot_ran(struct fire *f, const char *id, int64_t slot, int *ran, struct err *e)
{
	/* A run of an occurrence starts at or after it. */
	struct slot_look l = {slot, 0};
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = id;
	rf.since = slot;
	int rc = store_run_list(f->st, &rf, slot_look, &l, e);
	*ran = l.ran;
	return rc;
}

struct backfill_ctx {
	struct fire *f;
	int64_t slot, now;
	int ran, busy;
};

static int
claim_backfill(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e)
{
	struct backfill_ctx *x = arg;
	struct fire *f = x->f;
	(void)last_attempt;
	*decision = CLAIM_SKIP;
	if ((x->busy = t->status == STATUS_RUNNING))
		return ST_OK;
	int rc = fire_slot_ran(f, t->id, x->slot, &x->ran, e);
	if (rc || x->ran)
		return rc;
	/* A new arming: a record of a skip or a miss may hold the slot's. */
	t->arming++;
	if ((rc = run_fill(f, t, x->slot, TRIGGER_BACKFILL, 1, x->now, r, e)))
		return rc;
	snprintf(r->prev_status, sizeof r->prev_status, "%s", task_status_name(t->status));
	/* An overdue occurrence taken here is not the pass's to fire. */
	if (t->next_run_at != TIME_NONE && t->next_run_at <= x->slot) {
		int64_t next;
		struct err ne;
		if (task_next_slot(t, f->zs, x->slot, &next, &ne) == ST_OK)
			rules_set_next(t, f->zs, next);
	}
	t->status = STATUS_RUNNING;
	t->updated_at = x->now;
	*decision = CLAIM_FIRE;
	return ST_OK;
}

int
fire_backfill(struct fire *f, const char *id, int64_t slot, char run_id[37], int *ran,
    struct err *e)
{
	struct claimed c;
	struct backfill_ctx x = {.f = f, .slot = slot, .now = now_of(f)};
	int n, rc = claim_alone(f, id, claim_backfill, &x, &c, &n, e);
	*ran = 0;
	if (rc)
		return rc;
	*ran = x.ran;
	if (x.busy)
		return err_set(e, ST_REFUSED, "task '%.8s' is running", id);
	if (!n) {
		/* Its occurrence had a run after all (the insert found it). */
		*ran = 1;
		return ST_OK;
	}
	return start_alone(f, &c, run_id);
}

/* ---- after a run ---- */

/* The task after one of ctx's jobs ended: the rules, and what to announce. */
static int
task_after_end(struct task *t, const struct run *r, int *write, void *arg, struct err *e)
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
	int was_paused = t->paused != NULL;
	int queued = 0, rc = ST_OK;
	if (j && j->no_resources)
		rules_unstarted(t, x->f->zs, r, x->now);
	else
		rules_after_run(t, x->f->zs, r, x->now);
	/* Its followers' inputs, in the unit of work that records the end. */
	if (!(j && j->no_resources) && (rc = chain_fire(x->f->st, x->f->zs, t, r, x->now, &queued, e)))
		return rc;
	x->f->chained |= queued > 0;
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
	j->envp = fire_hook_env(ev, store_locator(f->st));
	fire_env_password(&j->envp, f->st);
	struct exec_cmd c = job_cmd(f, j, FIRE_HOOK_TIMEOUT * 1000);
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
		warnf(f, "notify hook '%s' failed for %s: %s%s%.*s", j->hook, about,
		    x->why[0] ? x->why : "failed", n ? ": " : "", n < 200 ? n : 200, err);
	}
	job_free(j);
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

static void
announce(struct fire *f, struct job *j)
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
		warnf(f, "task '%s' (%.8s) is %s; task-edit --enable %.8s resumes it",
		    j->name ? j->name : "", j->run.task_id, j->paused, j->run.task_id);
	if (hook)
		notify(f, &ev, hook);
	/* A fallback is told once a task and (UTC) day, whatever the policy. */
	char reason[300];
	int64_t now = now_of(f);
	if (j->notify && !j->no_resources && notify_fallback_first(f->st, j->run.task_id, j->run.id,
	    now - (now % 86400 + 86400) % 86400, reason, sizeof reason)) {
		struct hook_event fb = {EV_FALLBACK, j->run.task_id, j->name, &j->run, reason, NULL};
		notify(f, &fb, j->notify);
	}
	free(diff);
}

/* Tell the budget skips of a committed claim; forget those of one that failed. */
static void
notices_flush(struct fire *f, struct claim_ctx *x, int committed)
{
	while (x->notices) {
		struct notice *n = x->notices;
		x->notices = n->next;
		if (committed && n->event == EV_PAUSED) {
			warnf(f, "task '%s' (%.8s) is %s; task-edit --enable %.8s resumes it",
			    n->task.name ? n->task.name : "", n->task.id, n->task.paused, n->task.id);
			fire_notify(f, &n->task, EV_PAUSED, NULL, n->task.paused);
		} else if (committed) {
			/* Once a window (a streak), as the hook hears of a budget
			 * skip: a line in the pass's output (tick.log), and cron's
			 * mail without a hook.  Other skips have no hook event. */
			const char *hook = n->event != EV_BUDGET ? NULL : !str_empty(n->task.notify)
			    ? n->task.notify : f->o.notify;
			struct fire_report rep = {.run = &n->run, .name = n->task.name, .hook = hook};
			if (f->cb.report)
				f->cb.report(&rep, f->cb.arg);
			if (n->event == EV_BUDGET)
				fire_notify(f, &n->task, EV_BUDGET, &n->run, n->run.error);
		}
		task_free(&n->task);
		run_free(&n->run);
		free(n);
	}
}

/* jobs[0..n) were recorded (ends says how): announce them, and let go. */
static void
recorded(struct fire *f, struct job **jobs, const struct run_end *ends, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (ends[i].ours)
			announce(f, jobs[i]);
		else
			warnf(f, "run %.8s of task '%.8s' had been recovered as interrupted before it"
			    " ended; its result (%s) is kept as the run's note%s", jobs[i]->run.id,
			    jobs[i]->run.task_id, run_status_name(jobs[i]->run.status), ends[i].completed
			    ? ", and completed its occurrence: the retry armed at recovery is cancelled" : "");
		job_free(jobs[i]);
	}
}

/* Record jobs[0..n) as their owner, in one transaction. */
static int
record(struct fire *f, struct job **jobs, size_t n, struct err *e)
{
	struct run_end ends[WAIT_BATCH];
	struct end_ctx x = {.f = f, .now = now_of(f), .jobs = jobs, .n = n};
	for (size_t i = 0; i < n; i++)
		ends[i] = (struct run_end){.run = &jobs[i]->run, .owner = jobs[i]->owner};
	int rc = store_runs_end(f->st, ends, n, task_after_end, task_late, &x, e);
	if (!rc)
		recorded(f, jobs, ends, n);
	return rc;
}

/* The pending runs ride along with a claim (req): one commit records them
 * and claims more.  Not while recording waits out a failure. */
static void
ride_attach(struct fire *f, struct claim_req *q, struct ride *rd, int64_t now)
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
	q->end = task_after_end;
	q->late = task_late;
	q->end_arg = &rd->x;
}

/* After the claim that carried them: done if it committed, else they wait. */
static void
ride_settle(struct fire *f, struct claim_req *q, struct ride *rd, int committed)
{
	if (!rd->n)
		return;
	q->ends = NULL;
	q->nends = 0;
	if (committed) {
		recorded(f, f->pending, rd->ends, rd->n);
		memmove(f->pending, f->pending + rd->n, (f->npending - rd->n) * sizeof *f->pending);
		f->npending -= rd->n;
		f->retry_ms = RECORD_RETRY_MIN;
	}
	free(rd->ends);
	rd->n = 0;
}

static void
keep_pending(struct fire *f, struct job *j)
{
	if (f->npending == f->cappending) {
		f->cappending = f->cappending ? 2 * f->cappending : 16;
		f->pending = xrealloc(f->pending, f->cappending * sizeof *f->pending);
	}
	f->pending[f->npending++] = j;
}

/* Record what waits to be recorded; what fails again waits longer. */
static int
record_pending(struct fire *f, struct err *e)
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
		store_up(f);
		return ST_OK;
	}
	f->retry_at = mono_ms() + f->retry_ms;
	f->retry_ms = f->retry_ms * 2 < RECORD_RETRY_MAX ? f->retry_ms * 2 : RECORD_RETRY_MAX;
	store_down(f, e);
	return status;
}

/* A run in flight asked to end (its note), by a replacement or a person, is ended. */
static int
cancel_if_asked(void *tag, void *arg)
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
		run_executor(f, j, t, base, out);
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

static void
job_ended(struct fire *f, struct exec_result *x, int64_t now)
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
		bound_waits(f);
		keep_pending(f, j);
	}
	exec_result_free(x);
}

/* Partition fencing.  Others may recover this process's runs once the
 * store has had no sign of life from it for owner_timeout; three quarters
 * of that after the last one taken, its executors' groups get SIGTERM, then
 * SIGKILL within an eighth more, and are waited for here (the store cannot
 * be: it is not answering), so none runs when another host may start its
 * occurrence again.  Their results wait to be recorded as interrupted,
 * or as late notes if another host recovered them first. */
static void
fence(struct fire *f)
{
	/* A file store's owners share this machine: a live one is never
	 * taken for dead, however long the store kept it waiting. */
	if (!f->registered || !f->nruns || f->fencing || mono_ms() < f->fence_at ||
	    !store_is_uri(store_locator(f->st)))
		return;
	f->fencing = 1;
	/* What ended meanwhile (while the store held this process) is not
	 * ended again: its end is read first, within the drain time. */
	struct exec_result x;
	for (int64_t wait = EXEC_DRAIN_MS + 50; f->nruns && exec_pool_wait(f->pool, wait, NULL, 0, &x);
	    wait = 0)
		job_ended(f, &x, now_of(f));
	if (!f->nruns)
		return;
	int64_t grace = FENCE_KILL_MS(f->o.owner_timeout);
	warnf(f, "the store has not taken a sign of life from this process for %lld s; ending its"
	    " %zu run%s before others may recover them", (long long)((mono_ms() - f->fence_at) / 1000
	    + FENCE_AFTER_MS(f->o.owner_timeout) / 1000), f->nruns, f->nruns == 1 ? "" : "s");
	exec_pool_stop_within(f->pool, grace < f->o.kill_grace_ms ? grace : f->o.kill_grace_ms);
	int64_t until = mono_ms() + grace + EXEC_DRAIN_MS + 1000;
	while (f->nruns && mono_ms() < until && exec_pool_wait(f->pool, until - mono_ms(), NULL, 0, &x))
		job_ended(f, &x, now_of(f));
}

int
fire_wait(struct fire *f, int64_t timeout_ms, const int *fds, int nfds, struct err *e)
{
	int status = ST_OK, defer = f->claimed;
	f->claimed = 0;
	fence(f);
	beat(f, 0);
	fence(f);
	if (f->npending && mono_ms() >= f->retry_at && record_pending(f, e))
		status = ST_ERR;
	if (f->nreplace && mono_ms() >= f->cancel_at) {
		f->cancel_at = mono_ms() + CANCEL_POLL_MS;
		exec_pool_find(f->pool, cancel_if_asked, f);
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
			gates_try(f);
		return status;
	}
	int64_t gather_until = mono_ms() + (f->gather_all ? GATHER_SERVER_MS : GATHER_FILE_MS);
	size_t before = f->npending;
	for (;;) {
		job_ended(f, &x, now_of(f));
		if (f->npending - before >= WAIT_BATCH)
			break;
		if (exec_pool_wait(f->pool, 0, NULL, 0, &x))
			continue;
		/* In a burst, more ends a moment later make one claim of several;
		 * not for a run that goes on long after the others ended. */
		int64_t left = gather_until - mono_ms();
		if (left > GATHER_GAP_MS)
			left = GATHER_GAP_MS;
		int enough = !f->nruns || (!f->gather_all && 2 * (f->o.jobs - (int)f->nruns) >= f->o.jobs);
		if (!f->more_due || left <= 0 || enough || !exec_pool_wait(f->pool, left, NULL, 0, &x))
			break;
	}
	/* Recorded now unless earlier ones still wait for the store, or the
	 * claim that follows takes them along. */
	if (!defer && f->npending > before && (before == 0 || mono_ms() >= f->retry_at) &&
	    record_pending(f, e))
		status = ST_ERR;
	return status;
}

int
fire_flush(struct fire *f, int64_t deadline_ms, struct err *e)
{
	while (f->npending) {
		if (record_pending(f, e) == ST_OK)
			return ST_OK;
		int64_t wait = f->retry_at - mono_ms();
		if (mono_ms() + (wait > 0 ? wait : 0) > deadline_ms)
			return ST_ERR;
		if (wait > 0)
			poll(NULL, 0, (int)wait);
	}
	return ST_OK;
}

/* A run that waited for a slot and never started: ended now, to record. */
static void
gate_end(struct fire *f, struct job *j, int status, char *why)
{
	int64_t now = now_of(f);
	j->run.status = status;
	j->run.ended_at = now;
	j->run.duration_ms = 0;
	free(j->run.error);
	j->run.error = why;
	f->nruns--;
	keep_pending(f, j);
}

/* Each waiting run, oldest first, takes a slot if one is free and starts;
 * one whose deadline went by while it waited is missed. */
static void
gates_try(struct fire *f)
{
	size_t kept = 0;
	for (size_t i = 0; i < f->ngated; i++) {
		struct job *j = f->gated[i];
		struct err e;
		int got, lim = config_model_limit(f->o.cf, j->gate);
		/* The lease runs from the start, and a long wait renews it. */
		int64_t now = now_of(f), span = j->timeout_ms / 1000 + (f->o.kill_grace_ms + 999) / 1000 +
		    FIRE_LEASE_MARGIN;
		int64_t lease = now + span;
		if (store_run_gate(f->st, j->run.id, j->gate, f->o.max_concurrent, lim, lease, &got, &e)) {
			store_down(f, &e);
			got = 0;
		}
		if (got == 0) {
			f->gated[kept++] = j;
			continue;
		}
		if (got < 0) {
			/* Recovered by another host meanwhile: not ours to run or end. */
			f->nruns--;
			job_free(j);
			continue;
		}
		j->run.lease_until = lease;
		if (j->late_at != TIME_NONE && now > j->late_at) {
			char at[40];
			time_fmt_utc(j->late_at, at, sizeof at);
			gate_end(f, j, RUN_MISSED, xasprintf("waited for a concurrency slot (max_concurrent, "
			    "concurrency.MODEL) past its deadline, %s; not run", at));
		} else {
			launch(f, j);
		}
	}
	f->ngated = kept;
}

void
fire_stop(struct fire *f)
{
	for (size_t i = 0; i < f->ngated; i++)
		gate_end(f, f->gated[i], RUN_INTERRUPTED, xstrdup("stopped while it waited for a "
		    "concurrency slot; not run"));
	f->ngated = 0;
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
	int rc = store_run_recover(f->st, c, stale, r, task_after_end, &x, &done, rv->e);
	if (rc) {
		job_free(j);
		rv->rc = rc;
		return 1;
	}
	if (done) {
		rv->n++;
		announce(f, j);
	}
	job_free(j);
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
		store_down(f, e);
	return rc;
}

/* ---- looking ahead ---- */

int
fire_next_due(struct fire *f, int64_t *due, struct err *e)
{
	/* Claims coming back full: due now, as the next look will say. */
	if (f->more_due && mono_ms() < f->look_at) {
		*due = now_of(f);
		return ST_OK;
	}
	int paused = fire_paused(f, NULL, e), queued = 0, rc;
	*due = TIME_NONE;
	if (paused)
		return paused < 0 ? ST_ERR : ST_OK;
	if ((rc = store_due_next(f->st, due, &queued, e)))
		return rc;
	if (queued)
		*due = now_of(f);
	return ST_OK;
}

int
fire_preview(struct fire *f, void (*fn)(const struct fire_preview *p, void *arg), void *arg,
    struct err *e)
{
	/* A claim that decides to change nothing: it sees what a pass would. */
	struct claim_ctx x = {.f = f, .now = now_of(f), .from_queue = 1, .preview = fn,
		.preview_arg = arg};
	struct due_cursor cur;
	due_cursor_init(&cur);
	struct claim_req q = {.what = CLAIM_QUEUED, .now = x.now, .cur = &cur, .max = CLAIM_BATCH};
	int n = 0, rc;
	if ((rc = store_claim(f->st, &q, claim_manual, &x, NULL, &n, e)))
		return rc;
	x.from_queue = 0;
	q.what = CLAIM_DUE;
	for (;;) {
		struct due_cursor before = cur;
		if ((rc = store_claim(f->st, &q, claim_due, &x, NULL, &n, e)))
			return rc;
		if (!memcmp(&before, &cur, sizeof cur))
			return ST_OK;
	}
}
