/* The native tool set: task_create, task_list, task_show, task_run,
 * task_update, task_cancel, task_delete.  Their arguments are the fields of
 * task-add and task-edit, applied through taskargs, the very code behind
 * those commands' flags, so a tool and a flag never disagree. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chain.h"
#include "cron.h"
#include "idset.h"
#include "store.h"
#include "task_json.h"
#include "taskargs.h"
#include "tools_impl.h"

static const char *const statuses_all[] = {"pending", "running", "completed", "failed",
	"cancelled", "paused", "all", NULL};
static const char *const kinds_all[] = {"cron", "at", "plan", "manual", "heartbeat", "every", NULL};
static const char *const schedule_args[] = {"cron", "at", "plan", "daily", "weekly", "every",
	"manual", "heartbeat", NULL};

/* Not found: the seeds' wording, with the id the agent gave. */
static int
not_found(const char *id, int rc, struct buf *out, const struct err *e)
{
	if (rc == ST_NOTFOUND)
		buf_printf(out, "Task not found with ID '%.*s'.", utf8_cut(id, 64), id);
	else
		tools_sentence(out, e->msg);
	return rc;
}

static void
describe(struct tools *tl, const struct task *t, struct buf *out)
{
	char d[768];
	task_describe(t, tl->zs, d, sizeof d);
	if (t->kind != KIND_MANUAL && t->kind != KIND_HEARTBEAT) {
		size_t l = strlen(d);
		snprintf(d + l, sizeof d - l, " (%s)", t->tz);
	}
	/* "after 'Fetch news' succeeds", alone or after the schedule. */
	chain_describe_task(tl->st, t, d, sizeof d);
	buf_puts(out, d);
}

static void
next_run(struct tools *tl, const struct task *t, struct buf *out)
{
	char when[64];
	if (t->status != STATUS_PENDING)
		buf_printf(out, "none (%s)", task_status_name(t->status));
	else if (t->kind == KIND_MANUAL)
		buf_puts(out, "none (runs only when asked: task_run)");
	else if (t->kind == KIND_HEARTBEAT)
		buf_puts(out, "with every heartbeat");
	else if (!t->enabled)
		buf_puts(out, "none (disabled)");
	else if (t->next_run_at == TIME_NONE)
		buf_puts(out, "none");
	else {
		task_fmt_time(t, tl->zs, t->next_run_at, TIME_WALL_ZONE, when, sizeof when);
		buf_puts(out, when);
	}
	if (t->queued)
		buf_puts(out, t->status == STATUS_PENDING || t->status == STATUS_RUNNING
		    ? "; a manual run is queued" : "; queued to run once");
}

static void
last_run(struct tools *tl, const struct task *t, struct buf *out)
{
	char when[64];
	if (t->last_run_at == TIME_NONE) {
		buf_puts(out, "never");
		return;
	}
	task_fmt_time(t, tl->zs, t->last_run_at, TIME_WALL_ZONE, when, sizeof when);
	buf_printf(out, "%s, %s", when, t->last_status ? t->last_status : "unknown");
	if (t->last_error && *t->last_error)
		buf_printf(out, ": %.*s", utf8_cut(t->last_error, 200), t->last_error);
}

/* A recurrence that ends: when, and that the task is then completed. */
static void
end_line(struct tools *tl, const struct task *t, struct buf *out)
{
	char end[256];
	task_describe_end(t, tl->zs, end, sizeof end);
	if (!*end)
		return;
	int left = task_runs_left(t, tl->zs, 1001);
	buf_printf(out, "Ends: %s", end);
	if (left > 1000)
		buf_puts(out, "; over 1000 occurrences left");
	else if (left)
		buf_printf(out, "; %d occurrence%s left", left, left == 1 ? "" : "s");
	buf_puts(out, t->status == STATUS_PENDING ? ", then the task is completed.\n" : ".\n");
}

/* A JSON array of strings as "a, b". */
static void
list_field(struct buf *out, const char *label, const char *json)
{
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	const cJSON *it;
	int n = 0;
	cJSON_ArrayForEach(it, a)
		if (cJSON_IsString(it))
			buf_printf(out, "%s%s", n++ ? ", " : label, it->valuestring);
	if (n)
		buf_puts(out, "\n");
	cJSON_Delete(a);
}

static void
summary(struct tools *tl, const struct task *t, struct buf *out)
{
	buf_printf(out, "ID: %s\nSchedule: ", t->id);
	describe(tl, t, out);
	buf_printf(out, "\nStatus: %s, %s\nNext run: ", task_status_name(t->status),
	    t->paused ? t->paused : t->enabled ? "enabled" : "disabled");
	next_run(tl, t, out);
	buf_puts(out, "\n");
	end_line(tl, t, out);
}

/* What only the user may set: a task that never stops retrying, never
 * pauses or keeps its history forever outlives any mistake an agent makes. */
static int
agent_limits(const cJSON *args, struct buf *out)
{
	long v;
	const char *keep = tools_arg_str(args, "keep");
	if (tools_arg_int(args, "retries", &v) && (v < 0 || v > TASK_DEFAULT_RETRIES))
		buf_printf(out, "Refused: an agent may give retries from 0 to %d, not %ld; more is the "
		    "user's to set.", TASK_DEFAULT_RETRIES, v);
	else if (tools_arg_int(args, "pause_after", &v) && (v < 1 || v > TASK_DEFAULT_PAUSE_AFTER))
		buf_printf(out, "Refused: an agent may give pause_after from 1 to %d, not %ld; a task "
		    "that never pauses is the user's to make.", TASK_DEFAULT_PAUSE_AFTER, v);
	else if (keep && strcasecmp(keep, "forever") == 0)
		buf_puts(out, "Refused: an agent may not keep a task's history forever; give a duration "
		    "or a number of runs.");
	else
		return 0;
	return 1;
}

static int
seen_one(const struct task *t, void *arg)
{
	idset_add(arg, t->id);
	return 0;
}

/* The tasks t follows, resolved and free of loops (chain.h), each one
 * the agent may see: a run's input is its upstream's answer.  Nothing
 * here locks an upstream's row: the loop check holds the chains' lock
 * (store_chain.h) to the end of the call's unit, and a task-edit of an
 * upstream, holding its row, may be waiting for that lock. */
static int
native_after(struct tools *tl, const struct task_args *a, struct task *t, struct err *e)
{
	if (!a->nafter || !t->after)
		return ST_OK;
	int rc = chain_resolve(tl->st, t, e);
	if (rc || !t->after || !tl->ag.scope)
		return rc; /* unscoped, an agent sees every task */
	struct chain_link links[CHAIN_MAX];
	size_t n = 0;
	struct idset seen;
	struct task_filter f;
	idset_init(&seen);
	task_filter_init(&f);
	if (!(rc = chain_links(t->after, links, CHAIN_MAX, &n, e)))
		rc = tools_task_list(tl, &f, seen_one, &seen, e);
	for (size_t i = 0; !rc && i < n; i++)
		if (!idset_has(&seen, links[i].ref))
			rc = err_set(e, ST_INVALID, "after: no task '%.8s'", links[i].ref);
	idset_free(&seen);
	return rc;
}

/* JSON arguments to the fields task-add and task-edit take; *payload is
 * the payload's text and count the text of the count, which a borrows (the
 * caller frees the payload). */
static int
native_taskargs(struct tools *tl, const cJSON *args, struct task_args *a, char **payload,
    char count[24], struct buf *out)
{
	static const char *const arrays[] = {"plan", "attachments", "deliver", "after"};
	int n = 0, b;
	const char *given[8];
	for (const char *const *k = schedule_args; *k; k++) {
		const cJSON *v = tools_arg(args, *k);
		if (v && !(cJSON_IsBool(v) && cJSON_IsFalse(v)) && n < 8)
			given[n++] = *k;
	}
	if (n > 1) {
		buf_puts(out, "Give exactly one schedule, not ");
		for (int i = 0; i < n; i++)
			buf_printf(out, "%s%s", i ? (i == n - 1 ? " and " : ", ") : "", given[i]);
		buf_puts(out, ".");
		return ST_INVALID;
	}
	if (n == 1) {
		a->kinds[0] = given[0];
		a->nkinds = 1;
	}
	a->name = tools_arg_str(args, "name");
	a->prompt = tools_arg_str(args, "prompt");
	a->system_prompt = tools_arg_str(args, "system_prompt");
	a->cron = tools_arg_str(args, "cron");
	a->at = tools_arg_str(args, "at");
	a->daily = tools_arg_str(args, "daily");
	a->weekly = tools_arg_str(args, "weekly");
	a->tz = tools_arg_str(args, "tz");
	a->context = tools_arg_str(args, "context");
	a->intent = tools_arg_str(args, "intent");
	a->channel = tools_arg_str(args, "channel");
	a->model = tools_arg_str(args, "model");
	a->key = tools_arg_str(args, "key");
	a->until = tools_arg_str(args, "until");
	a->every = tools_arg_str(args, "every");
	a->from = tools_arg_str(args, "from");
	a->not_before = tools_arg_str(args, "not_before");
	a->when_flags = tl->when_flags;
	long v;
	if (tools_arg_int(args, "count", &v)) {
		snprintf(count, 24, "%ld", v);
		a->count = count;
	}
	/* The settings of task_inputs, by their MCP names (task_fields.h). */
	for (size_t i = 0; i < ntask_inputs; i++) {
		const struct task_input *in = &task_inputs[i];
		if (in->type && strcmp(in->type, "integer") == 0 && tools_arg_int(args, in->json, &v)) {
			snprintf(a->in_number[i], sizeof a->in_number[i], "%ld", v);
			a->in[i] = a->in_number[i];
		} else if (in->type) {
			a->in[i] = tools_arg_str(args, in->json);
		}
	}
	if (agent_limits(args, out))
		return ST_REFUSED;
	a->manual = tools_arg_bool(args, "manual", &b) && b;
	a->heartbeat = tools_arg_bool(args, "heartbeat", &b) && b;
	if (tools_arg_bool(args, "enabled", &b))
		a->enabled = b;
	/* The word lists follow, by their JSON names (task_fields.h). */
	const char ***lists[4 + WORD_LISTS] = {&a->plan, &a->attach, &a->deliver, &a->after};
	size_t *counts[4 + WORD_LISTS] = {&a->nplan, &a->nattach, &a->ndeliver, &a->nafter};
	for (int l = 0; l < WORD_LISTS; l++) {
		lists[4 + l] = &a->words[l];
		counts[4 + l] = &a->nwords[l];
	}
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
		const cJSON *v = tools_arg(args, i < 4 ? arrays[i] : word_lists[i - 4].json), *it;
		const char ***list = lists[i];
		size_t *nlist = counts[i];
		if (!v)
			continue;
		*list = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **list);
		if (cJSON_IsString(v)) {
			(*list)[(*nlist)++] = v->valuestring;
			continue;
		}
		cJSON_ArrayForEach(it, v) (*list)[(*nlist)++] = it->valuestring;
		/* An empty list clears the field (taskargs: --attach ''). */
		if (i && !*nlist)
			(*list)[(*nlist)++] = list == &a->after ? "none" : "";
	}
	const cJSON *p = tools_arg(args, "payload");
	if (p)
		a->payload = *payload = cJSON_PrintUnformatted(p);
	struct cron_list cl;
	struct err ce;
	if (a->cron && cron_list_count(a->cron) < 2 && tools_cron_check(a->cron, out))
		return ST_INVALID;
	if (a->cron && cron_list_parse(a->cron, &cl, &ce)) {
		buf_puts(out, "Invalid cron expressions: ");
		tools_sentence(out, ce.msg);
		return ST_INVALID;
	}
	if (a->nplan == 0 && n == 1 && strcmp(given[0], "plan") == 0) {
		buf_puts(out, "Argument 'plan' needs at least one time.");
		return ST_INVALID;
	}
	return ST_OK;
}

static int
native_create(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task_args a;
	struct task t;
	int rc, changed, force = 0, is_dup;
	char dup[37], *payload = NULL, count[24];
	taskargs_init(&a);
	a.creating = 1;
	task_init(&t);
	if ((rc = native_taskargs(tl, args, &a, &payload, count, out)))
		goto out;
	/* A task that only follows others runs when they end, as task-add makes it. */
	if (!a.nkinds && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(args, "after")) &&
	    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(args, "after")) > 0) {
		a.manual = 1;
		a.kinds[a.nkinds++] = "manual";
	}
	if (!a.nkinds) {
		buf_puts(out, "Give exactly one schedule: cron, at, plan, daily, weekly, manual or "
		    "heartbeat.");
		rc = ST_INVALID;
		goto out;
	}
	tools_arg_bool(args, "force", &force);
	if ((rc = taskargs_apply(&a, &t, tl->now, tl->zs, &changed, e)) ||
	    (rc = native_after(tl, &a, &t, e)) || (rc = tools_task_add(tl, &t, !force, &is_dup, dup, e)))
		goto out;
	if (is_dup) {
		struct task old;
		if ((rc = store_task_look(tl->st, dup, &old, e)))
			goto out;
		if (t.key)
			buf_printf(out, "A task with key '%s' already exists; nothing was added.\n",
			    tools_key_shown(tl, t.key));
		else
			buf_puts(out, "A pending task with the same prompt (or intent), schedule and channel "
			    "already exists; nothing was added (pass force: true to add another).\n");
		buf_printf(out, "Name: %s\n", old.name);
		summary(tl, &old, out);
		task_free(&old);
	} else {
		buf_printf(out, "Created task '%s'.\n", t.name);
		summary(tl, &t, out);
	}
out:
	taskargs_free(&a);
	free(payload);
	task_free(&t);
	return rc;
}

struct list_ctx {
	struct tools *tl;
	struct buf *out;
	long n, limit;
};

static int
list_one(const struct task *t, void *arg)
{
	struct list_ctx *c = arg;
	if (++c->n > c->limit)
		return 1;
	buf_printf(c->out, "\n%ld. %s\n   ID: %s\n   Schedule: ", c->n, t->name, t->id);
	describe(c->tl, t, c->out);
	buf_printf(c->out, "\n   Status: %s, %s\n   Next run: ", task_status_name(t->status),
	    t->paused ? t->paused : t->enabled ? "enabled" : "disabled");
	next_run(c->tl, t, c->out);
	buf_puts(c->out, "\n   Last run: ");
	last_run(c->tl, t, c->out);
	buf_puts(c->out, "\n");
	return 0;
}

static unsigned
name_bits(const cJSON *args, const char *arg, int (*parse)(const char *))
{
	const cJSON *v = tools_arg(args, arg), *it;
	unsigned bits = 0;
	if (cJSON_IsString(v))
		return strcasecmp(v->valuestring, "all") == 0 ? 0 : 1u << parse(v->valuestring);
	cJSON_ArrayForEach(it, v) {
		if (strcasecmp(it->valuestring, "all") == 0)
			return 0;
		bits |= 1u << parse(it->valuestring);
	}
	return bits;
}

/* A status, or "paused" (paused by failures) as the bit past them. */
static int
status_parse_ci(const char *s)
{
	for (int i = 0; i < STATUS_COUNT; i++)
		if (strcasecmp(s, task_status_name(i)) == 0)
			return i;
	return strcasecmp(s, "paused") == 0 ? STATUS_COUNT : 0;
}

static int
kind_parse_ci(const char *s)
{
	for (int i = 0; i < KIND_COUNT; i++)
		if (strcasecmp(s, task_kind_name(i)) == 0)
			return i;
	return 0;
}

static int
native_list(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	struct task_filter f;
	struct buf body = {0};
	struct list_ctx c = {tl, &body, 0, 20};
	int b, rc;
	task_filter_init(&f);
	f.now = tl->now;
	f.statuses = name_bits(args, "status", status_parse_ci);
	f.paused = (f.statuses >> STATUS_COUNT) & 1;
	f.statuses &= ~(1u << STATUS_COUNT);
	f.kinds = name_bits(args, "kind", kind_parse_ci);
	f.channel = tools_arg_str(args, "channel");
	if (tools_arg_bool(args, "enabled", &b))
		f.enabled = b;
	if ((rc = tools_arg_minutes(args, "due_within", &f.due_within, e)) ||
	    (rc = tools_arg_minutes(args, "due_after", &f.due_after, e)))
		return rc;
	if (tools_arg_int(args, "limit", &c.limit) && c.limit < 1)
		return err_set(e, ST_INVALID, "argument 'limit' must be at least 1");
	if (c.limit > 50)
		c.limit = 50;
	f.limit = c.limit + 1; /* one more tells whether the list was cut */
	if ((rc = tools_task_list(tl, &f, list_one, &c, e))) {
		buf_free(&body);
		return rc;
	}
	long shown = c.n > c.limit ? c.limit : c.n;
	if (!shown)
		buf_puts(out, "No tasks found.");
	else
		buf_printf(out, "Found %ld task%s:\n%s", shown, shown == 1 ? "" : "s", body.data);
	if (c.n > c.limit)
		buf_printf(out, "\nMore tasks match: raise limit (at most 50) or narrow the filters.\n");
	buf_free(&body);
	return ST_OK;
}

static int
show_run(const struct run *r, void *arg)
{
	struct list_ctx *c = arg;
	char when[64];
	time_fmt_utc(r->started_at, when, sizeof when);
	buf_printf(c->out, "  %s  %s  %s", when, run_trigger_name(r->trigger),
	    run_status_name(r->status));
	if (r->duration_ms >= 0)
		buf_printf(c->out, "  %.1f s", (double)r->duration_ms / 1000);
	buf_puts(c->out, "\n");
	c->n++;
	return 0;
}

static void
field(struct buf *out, const char *label, const char *v)
{
	if (v && *v)
		buf_printf(out, "%s: %s\n", label, v);
}

static int
native_show(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	char when[64], by[96];
	const char *id = tools_arg_str(args, "id");
	struct task t;
	int rc = tools_task_get(tl, id, &t, e);
	if (rc)
		return not_found(id, rc, out, e);
	buf_printf(out, "Task '%s'\n", t.name);
	summary(tl, &t, out);
	if (t.kind == KIND_CRON)
		buf_printf(out, "Cron: %s\n", t.cron);
	for (size_t i = 0; t.kind == KIND_PLAN && i < t.nplan; i++) {
		task_fmt_time(&t, tl->zs, t.plan[i], TIME_WALL_ZONE, when, sizeof when);
		buf_printf(out, "%s%s%s", i ? ", " : "Plan: ", when, i == t.nplan - 1 ? "\n" : "");
	}
	buf_puts(out, "Last run: ");
	last_run(tl, &t, out);
	buf_printf(out, "\nFailures in a row: %d\n", t.consecutive_failures);
	field(out, "Prompt", t.prompt);
	field(out, "System prompt", t.system_prompt);
	field(out, "Context", t.context);
	field(out, "Scope", t.scope);
	field(out, "Attachments", t.attachments);
	field(out, "Intent", t.intent);
	field(out, "Channel", t.channel);
	field(out, "Payload", t.payload);
	field(out, "Model", t.model);
	field(out, "Budget", t.budget);
	field(out, "Notify on", t.notify_on);
	list_field(out, "MCP servers: ", t.mcp);
	list_field(out, "MCP tools allowed: ", t.mcp_allow);
	field(out, "Key", tools_key_shown(tl, t.key));
	field(out, "Last result", t.last_result);
	task_origin_describe(&t, by, sizeof by);
	field(out, "Made by", by);
	task_fmt_time(&t, tl->zs, t.created_at, TIME_WALL_ZONE, when, sizeof when);
	buf_printf(out, "Created: %s\n", when);
	struct run_filter rf;
	struct list_ctx c = {tl, out, 0, 0};
	run_filter_init(&rf);
	rf.task_id = t.id;
	rf.limit = 5;
	buf_puts(out, "Recent runs (UTC):\n");
	if ((rc = store_run_list(tl->st, &rf, show_run, &c, e)) == ST_OK && c.n == 0)
		buf_puts(out, "  none\n");
	task_free(&t);
	return rc;
}

static int
native_run(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "id");
	struct task t;
	int rc = tools_task_get(tl, id, &t, e);
	if (rc)
		return not_found(id, rc, out, e);
	if ((rc = tools_task_queue(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been queued for execution; it runs at the next scheduler "
		    "pass.\nID: %s\n", t.name, t.id);
	task_free(&t);
	return rc;
}

static int
native_update(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "id");
	struct task_args a;
	struct task old, t;
	char *payload = NULL, count[24];
	int rc, changed;
	if ((rc = tools_task_get(tl, id, &old, e)))
		return not_found(id, rc, out, e);
	taskargs_init(&a);
	task_copy(&t, &old);
	if ((rc = native_taskargs(tl, args, &a, &payload, count, out)))
		goto out;
	if (old.status == STATUS_RUNNING) {
		rc = err_set(e, ST_REFUSED, "task '%s' is running now; update it when the run has "
		    "finished", old.name);
		goto out;
	}
	if ((rc = taskargs_apply(&a, &t, tl->now, tl->zs, &changed, e)) ||
	    (rc = native_after(tl, &a, &t, e)))
		goto out;
	/* A new schedule re-arms a finished task (taskargs_apply counts
	 * enabling one as a change of schedule). */
	if (changed && t.status != STATUS_PENDING) {
		t.status = STATUS_PENDING;
		t.consecutive_failures = 0;
	}
	if ((rc = tools_task_save(tl, &t, changed, e)))
		goto out;
	struct buf diff = {0};
	int n = task_diff(&old, &t, tl->zs, &diff);
	if (n)
		buf_printf(out, "Task '%s' updated. Changed fields:\n", t.name);
	else
		buf_printf(out, "Task '%s' unchanged: the values given are the current ones.\n", t.name);
	for (char *line = diff.data, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		buf_printf(out, "  %.*s\n", (int)(nl - line), line);
	}
	buf_free(&diff);
	buf_puts(out, "Next run: ");
	next_run(tl, &t, out);
	buf_puts(out, "\n");
	end_line(tl, &t, out);
out:
	taskargs_free(&a);
	free(payload);
	task_free(&old);
	task_free(&t);
	return rc;
}

static int
native_cancel(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "id");
	struct task t;
	int rc = tools_task_get(tl, id, &t, e);
	if (rc)
		return not_found(id, rc, out, e);
	if ((rc = tools_task_cancel(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been cancelled; it will not run again.\nID: %s\n", t.name,
		    t.id);
	task_free(&t);
	return rc;
}

static int
native_delete(struct tools *tl, const cJSON *args, struct buf *out, struct err *e)
{
	const char *id = tools_arg_str(args, "id");
	struct task t;
	int rc = tools_task_get(tl, id, &t, e);
	if (rc)
		return not_found(id, rc, out, e);
	if ((rc = tools_task_trash(tl, &t, e)) == ST_OK)
		buf_printf(out, "Task '%s' has been deleted; it will not run again (task-rm --undo "
		    "restores it).\nID: %s\n", t.name, t.id);
	task_free(&t);
	return rc;
}

#define ID_PARAM {"id", "string", "The task's ID as task_create or task_list gave it (a unique " \
	"prefix of 4 or more characters also works).", NULL, 1, NULL, NULL}

#define TASK_FIELDS(req) \
	{"name", "string", "Short human name of the task. Default: the prompt's first words.", \
	    NULL, 0, NULL, NULL}, \
	{"prompt", "string", "What the model is asked when the task runs, written as the " \
	    "instruction itself (e.g. 'Summarise my unread email').", NULL, req, NULL, NULL}, \
	{"system_prompt", "string", "Optional system prompt for the run.", NULL, 0, NULL, NULL}, \
	{"cron", "string", "Schedule: a 5-field cron expression (minute hour day-of-month month " \
	    "day-of-week) or @daily, @hourly...; e.g. '0 7 * * 1-5' is 07:00 on weekdays. Read " \
	    "in tz. Several separated by ';' fire at each one's times: '0 7 * * 1-5; 0 10 * * 6'.", \
	    NULL, 0, NULL, NULL}, \
	{"every", "string", "Schedule: a fixed interval in real time, e.g. '90m', '2h30m', '1d' " \
	    "(at least 1 minute), from the time in from (default: now, to the minute); DST does " \
	    "not shift it.", NULL, 0, NULL, NULL}, \
	{"from", "string", "With every: the first run, which the interval counts from (same " \
	    "forms as at; the past is fine).", NULL, 0, NULL, NULL}, \
	{"not_before", "string", "Optional start of a recurring schedule (cron, daily, weekly, " \
	    "every): no run before this time (same forms as at). In task_update, 'none' removes " \
	    "it.", NULL, 0, NULL, NULL}, \
	{"at", "string", "Schedule: run once at this time, ISO 8601 ('2026-03-02T07:00:00Z', or " \
	    "naive '2026-03-02T07:00' read in tz) or plain English ('in 2 hours', 'tomorrow at " \
	    "10am', 'next Friday at noon').", NULL, 0, NULL, NULL}, \
	{"plan", "array", "Schedule: run once at each of these times (same forms as at).", NULL, 0, \
	    NULL, NULL}, \
	{"daily", "string", "Schedule: every day at this time of day (e.g. '07:00', '7am', '6:30pm', " \
	    "'noon').", NULL, 0, \
	    NULL, NULL}, \
	{"weekly", "string", "Schedule: every week, 'DAY TIME' or 'DAY,DAY TIME' (e.g. " \
	    "'mon 09:00', 'mon,thu 6:30pm').", NULL, 0, NULL, NULL}, \
	{"manual", "boolean", "Schedule: true for a task that runs only when asked (task_run).", \
	    NULL, 0, NULL, NULL}, \
	{"heartbeat", "boolean", "Schedule: true to add the prompt to every heartbeat run (the user's " \
	    "alone: agents are refused).", NULL, 0, NULL, NULL}, \
	{"tz", "string", "IANA time zone the schedule is read in (e.g. 'Europe/London'). Default: " \
	    "the local zone.", NULL, 0, NULL, NULL}, \
	{"enabled", "boolean", "false keeps the task but stops it firing on its own.", NULL, 0, \
	    NULL, NULL}, \
	{"context", "string", "Name of a conversation the runs share (each run sees the earlier " \
	    "ones); omit for a fresh conversation every run.", NULL, 0, NULL, NULL}, \
	{"attachments", "array", "http(s) URLs or file paths handed to the model with the prompt; " \
	    "files only from the directories the user lets agents attach from.", NULL, 0, NULL, \
	    NULL}, \
	{"intent", "string", "Free routing label for whoever handles the result.", NULL, 0, NULL, \
	    NULL}, \
	{"channel", "string", "Channel the result belongs to.", NULL, 0, NULL, NULL}, \
	{"payload", "object", "Extra JSON data handed to the run.", NULL, 0, NULL, NULL}, \
	{"model", "string", "Model for this task's runs. Default: the configured one.", NULL, 0, \
	    NULL, NULL}, \
	{"fallback_models", "array", "Models to ask instead, in order, when the provider says the " \
	    "model does not exist or was retired. An empty list removes them.", NULL, 0, NULL, NULL}, \
	{"until", "string", "Optional end of a recurring schedule (cron, daily, weekly, every): no run " \
	    "after this time, then the task is completed. Same forms as at ('2026-12-31T17:00:00Z', " \
	    "'friday at 5pm', 'in 2 weeks'). In task_update, 'none' removes an end.", NULL, 0, NULL, NULL}, \
	{"count", "integer", "Optional end of a recurring schedule: this many occurrences in all, " \
	    "counted from its next one, then the task is completed (e.g. daily at 09:00 for a " \
	    "week: daily '09:00', count 7). With until too, whichever comes first. In task_update, 0 " \
	    "removes an end and a new count counts from now.", NULL, 0, NULL, NULL}, \
	{"mcp", "array", "Names of MCP servers whose tools the model may use when this task runs " \
	    "(e.g. ['github']): only servers this run may use itself. An empty list removes them.", \
	    NULL, 0, NULL, NULL}, \
	{"deliver", "array", "Where its answers are sent: named targets of the user's config " \
	    "('@NAME'; only those agent_deliver lists), or ['none'] to remove them.", NULL, 0, NULL, \
	    NULL}, \
	{"after", "array", "Tasks whose runs start this one, each 'TASK' or 'TASK:success', " \
	    "'TASK:failure', 'TASK:any' (TASK: an id, a prefix or an exact name): one run per " \
	    "upstream run that ends so, given that run's answer as input. ['none'] removes them.", \
	    NULL, 0, NULL, NULL}, \
	{"mcp_allow", "array", "Glob patterns on the full tool name mcp__SERVER__TOOL limiting " \
	    "which of those MCP tools the model may call (e.g. 'mcp__github__list_*'); within this " \
	    "run's own when it has some.", NULL, 0, NULL, NULL}, \
	TASK_INPUTS_PARAM

static const struct tool_param create_params[] = {
	TASK_FIELDS(1),
	{"key", "string", "Idempotency key: a create with a key that exists returns that task "
	    "instead of adding another (safe retries).", NULL, 0, NULL, NULL},
	{"force", "boolean", "true adds the task even when a pending one has the same prompt (or "
	    "intent), schedule and channel.", NULL, 0, NULL, NULL},
	{0},
};

static const struct tool_param list_params[] = {
	{"status", "array", "Only tasks in these states (paused: paused after failures in a row). "
	    "Default: all.", statuses_all, 0, NULL, NULL},
	{"kind", "array", "Only these schedule kinds.", kinds_all, 0, NULL, NULL},
	{"channel", "string", "Only tasks of this channel.", NULL, 0, NULL, NULL},
	{"enabled", "boolean", "Only enabled (true) or disabled (false) tasks.", NULL, 0, NULL, NULL},
	{"due_within", "integer", "Only tasks whose next run is within this many minutes from now.",
	    NULL, 0, NULL, NULL},
	{"due_after", "integer", "Only tasks whose next run is at least this many minutes from now.",
	    NULL, 0, NULL, NULL},
	{"limit", "integer", "At most this many tasks, ordered by next run (default 20, at most 50).",
	    NULL, 0, NULL, NULL},
	{0},
};

static const struct tool_param id_params[] = {ID_PARAM, {0}};
static const struct tool_param update_params[] = {ID_PARAM, TASK_FIELDS(0), {0}};

const struct tool_def tools_native_defs[] = {
	{"task_create", TOOLS_NATIVE, "Schedule a prompt to be run by the model later: once (at), at "
	    "several times (plan), on a recurring schedule (cron, daily, weekly, every), only when asked "
	    "(manual) or with every heartbeat. Give exactly one schedule. Returns the task's ID and "
	    "its next run.", create_params, native_create, 0},
	{"task_list", TOOLS_NATIVE, "List scheduled tasks, soonest next run first, with ID, "
	    "schedule, status, next and last run. Filters are optional.", list_params, native_list,
	    TOOL_READS},
	{"task_show", TOOLS_NATIVE, "Show one task in full: schedule, prompt, settings and its "
	    "recent runs.", id_params, native_show, TOOL_READS},
	{"task_run", TOOLS_NATIVE, "Queue a task to run now (at the scheduler's next pass), even a "
	    "disabled or manual one; its schedule is left as it is.", id_params, native_run, 0},
	{"task_update", TOOLS_NATIVE, "Change some fields of a task; the others keep their values. "
	    "An empty string clears an optional text field. A new schedule re-arms a finished task. "
	    "Returns each changed field as old -> new and the next run.", update_params,
	    native_update, 0},
	{"task_cancel", TOOLS_NATIVE, "Cancel a pending task: it stays listed as cancelled and never "
	    "runs again.", id_params, native_cancel, 0},
	{"task_delete", TOOLS_NATIVE, "Delete a task; it stops at once (the user can restore it "
	    "with task-rm --undo).", id_params, native_delete, 0},
	{0},
};
