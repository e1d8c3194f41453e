/* The Kai profile, after Kai's tasks (seeds/kai-tasks.txt): schedule_task
 * with exactly one of execute_at, cron and on_heartbeat, list_tasks with
 * its PENDING and COMPLETED, and cancel_task.  Kai's failure rule holds:
 * a one-time task backs off until it succeeds, however often it fails. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools_impl.h"

static const char *const kai_statuses[] = {"PENDING", "COMPLETED", NULL};

/* Kai knows PENDING and COMPLETED only; a task that gave up (which Kai's
 * own one-time tasks never do) must not read as done. */
static const char *
kai_status(const struct task *t)
{
	return t->status == STATUS_PENDING || t->status == STATUS_RUNNING ? "PENDING"
	    : t->status == STATUS_FAILED ? "FAILED" : "COMPLETED";
}

static const char *
kai_trigger(const struct task *t)
{
	return t->kind == KIND_CRON ? "CRON" : t->kind == KIND_HEARTBEAT ? "HEARTBEAT"
	    : t->kind == KIND_MANUAL ? "MANUAL" : "TIME";
}

static int
kai_schedule(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const triggers[] = {"execute_at", "cron", NULL};
	char when[64], nowbuf[64];
	const char *at = tools_arg_str(args, "execute_at"), *cron = tools_arg_str(args, "cron");
	const struct tz *z;
	struct task t;
	int hb = 0, rc, dup;
	char dup_id[37];
	tools_arg_bool(args, "on_heartbeat", &hb);
	if (tools_arg_count(args, triggers) + hb != 1) {
		buf_puts(out, "Exactly one of execute_at (ISO 8601), cron, or on_heartbeat: true must be "
		    "provided; they are mutually exclusive.");
		return ST_INVALID;
	}
	task_init(&t);
	set_str(&t.name, tools_arg_str(args, "description"));
	set_str(&t.prompt, tools_arg_str(args, "prompt"));
	/* Kai's one-time tasks back off until they succeed (60 s doubling,
	 * at most an hour): they never give up. */
	t.retries = TASK_RETRIES_FOREVER;
	if ((rc = tools_local_zone(tl, &t, &z, e)))
		goto out;
	if (at) {
		t.kind = KIND_AT;
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		rc = ST_INVALID;
		if (tz_parse_iso(z, at, &t.plan[0])) {
			buf_printf(out, "execute_at must be an ISO 8601 date-time such as "
			    "2026-04-22T22:32:39+02:00 (preferred) or 2026-04-22T22:32:39 in local time, "
			    "not '%.*s'.", utf8_cut(at, 64), at);
			goto out;
		}
		if (t.plan[0] < tl->now - 60) {
			/* Most often a UTC/local sign flip the model can fix. */
			task_fmt_time(&t, tl->zs, t.plan[0], TIME_WALL, when, sizeof when);
			task_fmt_time(&t, tl->zs, tl->now, TIME_WALL, nowbuf, sizeof nowbuf);
			buf_printf(out, "execute_at '%.*s' is in the past: it is %s in %s, and the local "
			    "time is now %s (see the Local time line of the ## Context block). Naive values "
			    "are read in local time; check for a UTC/local mix-up and retry, preferably with "
			    "an offset such as +02:00.", utf8_cut(at, 64), at, when, tz_name(z), nowbuf);
			goto out;
		}
	} else if (cron) {
		t.kind = KIND_CRON;
		if ((rc = tools_cron_check(cron, out)))
			goto out;
		set_str(&t.cron, cron);
	} else {
		t.kind = KIND_HEARTBEAT;
	}
	tools_seed_rules(&t);
	if ((rc = tools_task_add(tl, &t, 0, &dup, dup_id, e)))
		goto out;
	buf_printf(out, "Task scheduled.\nid: %s\ndescription: %s\ntrigger: %s\nscheduled_at: ",
	    t.id, t.name, kai_trigger(&t));
	if (t.kind == KIND_HEARTBEAT) {
		buf_puts(out, "none (runs with every heartbeat)");
	} else {
		task_fmt_time(&t, tl->zs, t.next_run_at, TIME_RFC3339, when, sizeof when);
		task_fmt_time(&t, tl->zs, t.next_run_at, TIME_WALL, nowbuf, sizeof nowbuf);
		buf_printf(out, "%s (%s local time, %s)", when, nowbuf, t.tz);
	}
	buf_printf(out, "\ncron: %s\n", t.cron ? t.cron : "none");
out:
	task_free(&t);
	return rc;
}

struct kai_list {
	struct tools *tl;
	struct buf *out;
	const char *status;
	long n;
};

static int
kai_list_one(const struct task *t, void *arg)
{
	struct kai_list *c = arg;
	char d[256], when[64];
	const char *last;
	if (c->status && strcasecmp(c->status, kai_status(t)) != 0)
		return 0;
	if (++c->n > TOOLS_LIST_CAP)
		return 0;
	buf_printf(c->out, "- id: %s\n  description: %s\n  status: %s\n  trigger: %s\n", t->id,
	    t->name, kai_status(t), kai_trigger(t));
	if (t->kind == KIND_CRON) {
		task_describe(t, c->tl->zs, d, sizeof d);
		/* Kai writes hours without a leading zero: "Daily at 9:00". */
		for (char *p = d; (p = strstr(p, " at 0")) && p[5] >= '0' && p[5] <= '9' && p[6] == ':';)
			memmove(p + 4, p + 5, strlen(p + 5) + 1);
		buf_printf(c->out, "  schedule: %s (cron: %s)\n", d, t->cron);
	} else if (t->kind == KIND_AT || t->kind == KIND_PLAN) {
		task_fmt_time(t, c->tl->zs, t->nplan ? t->plan[t->nplan - 1] : TIME_NONE, TIME_WALL,
		    when, sizeof when);
		buf_printf(c->out, "  scheduled_at: %s (%s)\n", when, t->tz);
	}
	/* A one-time task's next run differs from its time only while it
	 * backs off after a failure. */
	if (t->status == STATUS_PENDING && t->next_run_at != TIME_NONE &&
	    (t->kind != KIND_AT || t->next_run_at != t->plan[0])) {
		task_fmt_time(t, c->tl->zs, t->next_run_at, TIME_WALL, when, sizeof when);
		buf_printf(c->out, "  next: %s (%s)\n", when, t->tz);
	}
	if (t->consecutive_failures)
		buf_printf(c->out, "  consecutive_failures: %d\n", t->consecutive_failures);
	if ((last = t->last_error && *t->last_error ? t->last_error : t->last_result))
		buf_printf(c->out, "  last_result: %.*s\n", utf8_cut(last, 200), last);
	return 0;
}

static int
kai_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task_filter f;
	struct buf body = {0};
	struct kai_list c = {tl, &body, tools_arg_str(args, "status"), 0};
	int rc;
	task_filter_init(&f);
	if ((rc = tools_task_list(tl, &f, kai_list_one, &c, e)) == ST_OK) {
		if (!c.n)
			buf_printf(out, "No %s%stasks.", c.status ? c.status : "", c.status ? " " : "");
		else
			buf_printf(out, "%ld task%s:\n%s", c.n, c.n == 1 ? "" : "s", body.data);
		if (c.n > TOOLS_LIST_CAP)
			buf_printf(out, "(the first %d are shown)\n", TOOLS_LIST_CAP);
	}
	buf_free(&body);
	return rc;
}

static int
kai_cancel(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "id");
	struct task t;
	int rc = tools_task_get(tl, id, &t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "No task found with id '%.*s'.", utf8_cut(id, 64), id);
	if (rc)
		return rc;
	if ((rc = tools_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task cancelled and removed: %s (%s).", t.id, t.name);
	task_free(&t);
	return rc;
}

/* ---- the tools ---- */

static const struct tool_param kai_schedule_params[] = {
	{"description", "string", "Short human-readable description of the task.", NULL, 1,
	    "description is required.", NULL},
	{"prompt", "string", "The prompt to execute when the task fires.", NULL, 1,
	    "prompt is required.", NULL},
	{"execute_at", "string", "One-time trigger: ISO 8601 date-time, offset-qualified "
	    "(2026-04-22T22:32:39+02:00, ...Z; preferred) or naive (2026-04-22T22:32:39, read in the "
	    "user's local time, see the Local time line).", NULL, 0, NULL, NULL},
	{"cron", "string", "Recurring trigger: 5-field cron expression (minute hour day-of-month "
	    "month day-of-week; 0 = Sunday).", NULL, 0, NULL, NULL},
	{"on_heartbeat", "boolean", "true: a standing addition to every heartbeat self-check.", NULL,
	    0, NULL, NULL},
	{0},
};
static const struct tool_param kai_list_params[] = {
	{"status", "string", "Only tasks with this status.", kai_statuses, 0, NULL, NULL},
	{0},
};
static const struct tool_param kai_cancel_params[] = {
	{"id", "string", "The task's id.", NULL, 1, "id is required.", NULL},
	{0},
};

const struct tool_def tools_kai_defs[] = {
	{"schedule_task", TOOLS_KAI, "Schedule a one-time or recurring task: a description, a "
	    "prompt, and exactly one trigger: execute_at (ISO 8601), cron, or on_heartbeat: true.",
	    kai_schedule_params, kai_schedule, 0},
	{"list_tasks", TOOLS_KAI, "List all tasks, optionally filtered by status (PENDING or "
	    "COMPLETED).", kai_list_params, kai_list, TOOL_READS},
	{"cancel_task", TOOLS_KAI, "Remove a task by its id.", kai_cancel_params, kai_cancel, 0},
	{0},
};
