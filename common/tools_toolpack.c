/* The toolpack profile, after its SchedulerStore and createSchedulerTools
 * (seeds/toolpack-scheduler-store.txt): scheduler.create with its dedup on
 * (intent, schedule, channel), scheduler.list, .cancel and .update, with
 * its rules and messages.  Its failure rule holds: a one-shot job fails
 * for good at its first failure (markFailed). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools_impl.h"

static const char *const tp_statuses[] = {"pending", "running", "completed", "failed",
	"cancelled", "all", NULL};

static const char *
tp_type(const struct task *t)
{
	return t->kind == KIND_CRON ? "recurring" : t->kind == KIND_AT ? "one-shot"
	    : task_kind_name(t->kind);
}

static void
tp_next(struct tools *tl, const struct task *t, struct buf *out)
{
	char when[64];
	if (t->status != STATUS_PENDING || t->next_run_at == TIME_NONE) {
		buf_puts(out, "none");
		return;
	}
	task_fmt_time(t, tl->zs, t->next_run_at, TIME_RFC3339, when, sizeof when);
	buf_puts(out, when);
}

/* run_at: ISO 8601 only; "next Tuesday" is refused as toolpack does. */
static int
tp_run_at(const char *s, const struct tz *z, int64_t *at, struct buf *out)
{
	if (tz_parse_iso(z, s, at) == 0)
		return ST_OK;
	buf_printf(out, "Invalid run_at '%.*s': expected an ISO 8601 timestamp such as "
	    "2026-07-01T09:00:00Z (natural language is not accepted).", utf8_cut(s, 64), s);
	return ST_INVALID;
}

static int
tp_create(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	static const char *const when[] = {"cron", "run_at", NULL};
	char dup_id[37];
	const char *cron = tools_arg_str(args, "cron"), *run_at = tools_arg_str(args, "run_at");
	const char *msg = tools_arg_str(args, "message"), *intent = tools_arg_str(args, "intent");
	const cJSON *payload = tools_arg(args, "payload");
	const struct tz *z;
	struct task t;
	int rc, dup;
	if (tools_arg_count(args, when) != 1) {
		buf_puts(out, tools_arg_count(args, when) ? "Provide either cron or run_at, not both."
		    : "Provide either cron (a recurring job) or run_at (a one-shot job).");
		return ST_INVALID;
	}
	if (str_empty(msg) && str_empty(intent)) {
		buf_puts(out, "Provide a message (or at least an intent) for the job.");
		return ST_INVALID;
	}
	task_init(&t);
	set_str(&t.prompt, str_empty(msg) ? intent : msg);
	set_str(&t.intent, str_empty(intent) ? NULL : intent);
	const char *ch = tools_arg_str(args, "channel_name");
	set_str(&t.channel, str_empty(ch) ? NULL : ch);
	if (payload)
		t.payload = cJSON_PrintUnformatted(payload);
	/* markFailed: a one-shot job that fails is failed for good. */
	t.retries = 0;
	if ((rc = tools_local_zone(tl, &t, &z, e)))
		goto out;
	if (cron) {
		t.kind = KIND_CRON;
		if ((rc = tools_cron_check(cron, out)))
			goto out;
		set_str(&t.cron, cron);
	} else {
		t.kind = KIND_AT;
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		if ((rc = tp_run_at(run_at, z, &t.plan[0], out)))
			goto out;
	}
	tools_seed_rules(&t);
	if ((rc = tools_task_add(tl, &t, 1, &dup, dup_id, e)))
		goto out;
	if (dup) {
		struct task old;
		if ((rc = store_task_look(tl->st, dup_id, &old, e)))
			goto out;
		buf_printf(out, "A pending job with the same intent, schedule and channel already "
		    "exists: %s (no duplicate was created). Next run: ", old.id);
		tp_next(tl, &old, out);
		task_free(&old);
	} else {
		buf_printf(out, "Created %s job %s", tp_type(&t), t.id);
		if (t.cron)
			buf_printf(out, " (cron: %s)", t.cron);
		buf_puts(out, ". Next run: ");
		tp_next(tl, &t, out);
	}
	buf_puts(out, ".");
out:
	task_free(&t);
	return rc;
}

struct tp_list {
	struct tools *tl;
	struct buf *out;
	long n;
};

static int
tp_list_one(const struct task *t, void *arg)
{
	struct tp_list *c = arg;
	c->n++;
	buf_printf(c->out, "- %s | %s | %s", t->id, task_status_name(t->status), tp_type(t));
	if (t->cron)
		buf_printf(c->out, " (%s)", t->cron);
	buf_puts(c->out, " | next run: ");
	tp_next(c->tl, t, c->out);
	if (t->intent)
		buf_printf(c->out, " | intent: %s", t->intent);
	if (t->channel)
		buf_printf(c->out, " | channel: %s", t->channel);
	if (t->last_error && *t->last_error)
		buf_printf(c->out, " | last error: %.*s", utf8_cut(t->last_error, 200), t->last_error);
	buf_puts(c->out, "\n");
	return 0;
}

static int
tp_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *status = tools_arg_str(args, "status");
	struct task_filter f;
	struct buf body = {0};
	struct tp_list c = {tl, &body, 0};
	long limit = 10;
	int rc;
	task_filter_init(&f);
	if (!status)
		f.statuses = 1u << STATUS_PENDING;
	for (int i = 0; status && i < STATUS_COUNT; i++)
		if (strcasecmp(status, task_status_name(i)) == 0)
			f.statuses = 1u << i;
	f.channel = tools_arg_str(args, "channel_name");
	if (tools_arg_int(args, "limit", &limit) && limit < 1)
		return err_set(e, ST_INVALID, "limit must be at least 1");
	f.limit = limit > 50 ? 50 : limit;
	if ((rc = tools_task_list(tl, &f, tp_list_one, &c, e)) == ST_OK) {
		if (!c.n)
			buf_puts(out, "No jobs found.");
		else
			buf_printf(out, "%ld job%s:\n%s", c.n, c.n == 1 ? "" : "s", body.data);
	}
	buf_free(&body);
	return rc;
}

static int
tp_get(struct tools *tl, const cJSON *args, struct task *t, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "job_id");
	int rc = tools_task_get(tl, id, t, e);
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Job %.*s not found.", utf8_cut(id, 64), id);
	return rc;
}

static int
tp_cancel(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task t;
	int rc = tp_get(tl, args, &t, out, e);
	if (rc)
		return rc;
	if (t.status != STATUS_PENDING) {
		buf_printf(out, "Job %s cannot be cancelled: it is %s, and only pending jobs can be "
		    "cancelled.", t.id, task_status_name(t.status));
		rc = ST_REFUSED;
	} else if ((rc = tools_task_cancel(tl, &t, e)) == ST_OK) {
		buf_printf(out, "Job %s cancelled.", t.id);
	}
	task_free(&t);
	return rc;
}

static int
tp_update(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *cron = tools_arg_str(args, "cron"), *run_at = tools_arg_str(args, "run_at");
	const char *s;
	const cJSON *payload = tools_arg(args, "payload");
	const struct tz *z;
	struct task t;
	int rc;
	if (cron && run_at) {
		buf_puts(out, "Cannot provide both cron and run_at.");
		return ST_INVALID;
	}
	if ((rc = tp_get(tl, args, &t, out, e)))
		return rc;
	if (t.status != STATUS_PENDING) {
		buf_printf(out, "Cannot update job %s: it is %s, and only pending jobs can be updated.",
		    t.id, task_status_name(t.status));
		rc = ST_REFUSED;
		goto out;
	}
	if ((s = tools_arg_str(args, "message")))
		set_str(&t.prompt, s);
	if ((s = tools_arg_str(args, "intent")))
		set_str(&t.intent, *s ? s : NULL);
	if (payload) {
		free(t.payload);
		t.payload = cJSON_PrintUnformatted(payload); /* replaces the old one */
	}
	if (cron) {
		if ((rc = tools_cron_check(cron, out)))
			goto out;
		t.kind = KIND_CRON;
		set_str(&t.cron, cron);
		free(t.plan);
		t.plan = NULL;
		t.nplan = 0;
	} else if (run_at) {
		/* A one-shot time turns a recurring job into a one-shot one. */
		if ((rc = tools_zone(tl, t.tz, &z, e)))
			goto out;
		free(t.plan);
		t.plan = xcalloc(1, sizeof *t.plan);
		t.nplan = 1;
		if ((rc = tp_run_at(run_at, z, &t.plan[0], out)))
			goto out;
		t.kind = KIND_AT;
		set_str(&t.cron, NULL);
	}
	if ((rc = tools_task_save(tl, &t, cron || run_at, e)))
		goto out;
	buf_printf(out, "Job %s updated. Next run: ", t.id);
	tp_next(tl, &t, out);
	buf_puts(out, ".");
out:
	task_free(&t);
	return rc;
}

/* ---- the tools ---- */

static const struct tool_param tp_create_params[] = {
	{"cron", "string", "Cron expression for a recurring job. E.g. \"0 9 * * 1\" = 9am every "
	    "Monday.", NULL, 0, NULL, NULL},
	{"run_at", "string", "ISO 8601 timestamp for a one-shot job. E.g. \"2026-07-01T09:00:00Z\".",
	    NULL, 0, NULL, NULL},
	{"intent", "string", "Intent hint forwarded to the agent on trigger.", NULL, 0, NULL, NULL},
	{"message", "string", "Message forwarded to the agent on trigger.", NULL, 0, NULL, NULL},
	{"channel_name", "string", "Scope this job to a specific channel.", NULL, 0, NULL, NULL},
	{"payload", "object", "Extra data merged into the agent's input data on trigger.", NULL, 0,
	    NULL, NULL},
	{0},
};
static const struct tool_param tp_list_params[] = {
	{"status", "string", "Filter by status (default 'pending').", tp_statuses, 0, NULL, NULL},
	{"channel_name", "string", "Filter by channel name.", NULL, 0, NULL, NULL},
	{"limit", "integer", "Maximum number of results (default 10, capped at 50).", NULL, 0, NULL,
	    NULL},
	{0},
};
static const struct tool_param tp_cancel_params[] = {
	{"job_id", "string", "ID of the job to cancel.", NULL, 1, "job_id is required.", NULL},
	{0},
};
static const struct tool_param tp_update_params[] = {
	{"job_id", "string", "ID of the job to update.", NULL, 1, "job_id is required.", NULL},
	{"cron", "string", "New cron expression. Recalculates the next run.", NULL, 0, NULL, NULL},
	{"run_at", "string", "New one-shot run time (ISO 8601). Clears cron, converting recurring "
	    "to one-shot.", NULL, 0, NULL, NULL},
	{"intent", "string", "New intent.", NULL, 0, NULL, NULL},
	{"message", "string", "New message.", NULL, 0, NULL, NULL},
	{"payload", "object", "New payload (replaces the existing one).", NULL, 0, NULL, NULL},
	{0},
};

const struct tool_def tools_toolpack_defs[] = {
	{"scheduler.create", TOOLS_TOOLPACK, "Schedule a new recurring (cron) or one-shot (run_at) "
	    "agent invocation. Either cron or run_at must be provided, not both. A pending job with "
	    "the same intent, schedule and channel is returned instead of a duplicate.",
	    tp_create_params, tp_create, 0},
	{"scheduler.list", TOOLS_TOOLPACK, "List scheduled jobs with ID, status, type, next run "
	    "time and last error.", tp_list_params, tp_list, TOOL_READS},
	{"scheduler.cancel", TOOLS_TOOLPACK, "Cancel a pending job by ID.", tp_cancel_params,
	    tp_cancel, 0},
	{"scheduler.update", TOOLS_TOOLPACK, "Modify an existing pending job. Cannot provide both "
	    "cron and run_at.", tp_update_params, tp_update, 0},
	{0},
};
