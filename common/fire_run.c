/* Starting claimed runs: their executor, environment and input, a task's
 * gate (--gate) first, and the runs that wait for a concurrency slot. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fire_env.h"
#include "fire_input.h"
#include "fire_owner.h"
#include "heartbeat.h"
#include "outcome.h"
#include "prompt_vars.h"

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
		fire_warn(f, "task '%.8s': what its budget leaves is not known (%s); its run is not bounded"
		    " by it", t->id, e.msg);
		return;
	}
	/* Over it, the run was let through on purpose (task-run --force). */
	if (left[0] && !over)
		fire_env_set(&j->envp, SPEND_LEFT_ENV, left);
}

/* Job j's command (a run's or a hook's), ended after timeout_ms. */
struct exec_cmd
fire_job_cmd(const struct fire *f, const struct job *j, int64_t timeout_ms)
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
	/* The instant the run will be ended, from when it starts: an executor
	 * started late (a wrapper, a busy machine) still ends in time. */
	if (j->timeout_ms > 0) {
		int64_t end = wall_ms() + j->timeout_ms;
		char at[32];
		snprintf(at, sizeof at, "%" PRId64 ".%03d", end / 1000, (int)(end % 1000));
		fire_env_set(&j->envp, "TASK_DEADLINE", at);
	}
	struct exec_cmd c = fire_job_cmd(f, j, j->timeout_ms);
	c.die_with_parent = 1;
	exec_pool_start(f->pool, &c, j);
}

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

/* A task stored before its fields were bounded, one too long for the
 * environment ("Argument list too long"): its run fails to start, saying
 * which (a long payload goes in a file instead: fire_task_payload). */
static int
env_unfit(struct fire *f, struct job *j, const struct task *t)
{
	struct err e;
	if (!task_env_fields_check(t, 0, &e))
		return 0;
	char why[ERR_MAX + 64];
	snprintf(why, sizeof why, "the task cannot run: its %s; task-edit it", e.msg);
	exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
	return 1;
}

/* Executor, environment and input of a claimed run; start it.  The
 * prompt (base, else the task's; base is taken) is sent with its
 * variables (prompt_vars.h) expanded: {{input}} the run's input (a chain's
 * or an event's, from the store), gate its gate's output (NULL: none). */
void
fire_run_executor(struct fire *f, struct job *j, const struct task *t, char *base,
    const char *gate)
{
	const char *cmdline = !str_empty(t->exec) ? t->exec : f->o.exec;
	struct err e;
	if (env_unfit(f, j, t)) {
		free(base);
		return;
	}
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
		fire_warn(f, "task '%.8s': its last answer could not be read (%s); {{last_answer}} is empty",
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
	j->envp = fire_exec_env(&sent, &j->run, f->db);
	free(system);
	budget_env(f, j, t);
	fire_env_password(&j->envp, f->db_password);
	/* The gate's copy of the payload, its run over: the executor makes its own. */
	if (j->input_file) {
		unlink(j->input_file);
		free(j->input_file);
		j->input_file = NULL;
	}
	int rc = have_in ? fire_input_apply(&in, j->run.id, named, &j->input, &j->envp,
	    &j->input_file, &e) : 0;
	if (have_in)
		run_input_free(&in);
	/* An event's payload stands for the task's; else a long one in a file. */
	if (!rc && !j->input_file)
		rc = fire_task_payload(t, j->run.id, &j->envp, &j->input_file, &e);
	if (rc) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "its input could not be given: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	if (outcome_file_new(j->run.id, &j->outcome_file, &e)) {
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
		fire_gates_try(f);
	else
		launch(f, j);
}

/* A task with a gate (--gate) runs it first, in the executor's
 * environment with the run's input (TASK_PAYLOAD, TASK_PAYLOAD_FILE,
 * TASK_INPUT_RUN: a gate may filter events) and nothing on its standard
 * input; gate_ended says what follows. */
static void
start_job(struct fire *f, struct job *j, const struct task *t, char *prompt)
{
	f->nruns++;
	fire_bound_waits(f);
	/* A replay sends its request as it was: no gate decides again. */
	if (str_empty(t->gate) || j->run.trigger == TRIGGER_REPLAY) {
		fire_run_executor(f, j, t, prompt, NULL);
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
	if (env_unfit(f, j, t))
		return;
	struct run_input in;
	int have_in = 0;
	if (fire_input_load(f->st, &j->run, &in, &have_in, &e)) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "its input could not be read: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	j->envp = fire_exec_env(t, &j->run, f->db);
	fire_env_password(&j->envp, f->db_password);
	/* Named: the input goes in the environment, not on the gate's stdin. */
	int rc = have_in ? fire_input_apply(&in, j->run.id, 1, &j->input, &j->envp, &j->input_file,
	    &e) : ST_OK;
	if (have_in)
		run_input_free(&in);
	if (rc) {
		char why[ERR_MAX + 64];
		snprintf(why, sizeof why, "its input could not be given: %s", e.msg);
		exec_pool_fail(f->pool, j, EXEC_STARTFAIL, why);
		return;
	}
	j->timeout_ms = (int64_t)(t->gate_timeout > 0 ? t->gate_timeout : TASK_GATE_TIMEOUT) * 1000;
	launch(f, j);
}

/* Start what a claim returned: jobs from its runs, a heartbeat's prompt. */
void
fire_start_claimed(struct fire *f, struct claimed *c, int n)
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
			fire_warn(f, "heartbeat additions not read (%s); the beat runs its base prompt", e.msg);
		start_job(f, j, &c[i].task, prompt);
	}
	claimed_free(c, (size_t)n);
}

/* A run that waited for a slot and never started: ended now, to record. */
void
fire_gate_end(struct fire *f, struct job *j, int status, char *why)
{
	int64_t now = now_of(f);
	j->run.status = status;
	j->run.ended_at = now;
	j->run.duration_ms = 0;
	free(j->run.error);
	j->run.error = why;
	f->nruns--;
	fire_keep_pending(f, j);
}

/* Each waiting run, oldest first, takes a slot if one is free and starts;
 * one whose deadline went by while it waited is missed. */
void
fire_gates_try(struct fire *f)
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
			fire_store_down(f, &e);
			got = 0;
		}
		if (got == 0) {
			f->gated[kept++] = j;
			continue;
		}
		if (got < 0) {
			/* Recovered by another host meanwhile: not ours to run or end. */
			f->nruns--;
			fire_job_free(j);
			continue;
		}
		j->run.lease_until = lease;
		if (j->late_at != TIME_NONE && now > j->late_at) {
			char at[40];
			time_fmt_utc(j->late_at, at, sizeof at);
			fire_gate_end(f, j, RUN_MISSED, xasprintf("waited for a concurrency slot (max_concurrent, "
			    "concurrency.MODEL) past its deadline, %s; not run", at));
		} else {
			launch(f, j);
		}
	}
	f->ngated = kept;
}
