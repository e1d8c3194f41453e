/* The agent tools: profile selection, the dispatch (arguments are checked
 * against their JSON Schemas by tools_schema.c), and the steps every tool body shares.  A body
 * (tools_native.c and one file per profile, tools_oneclaw.c ...) builds a
 * struct task from its arguments and hands it to the same task_finalize and
 * store calls the commands use; nothing here re-implements validation or
 * scheduling.  Every result text is valid UTF-8 whatever the store holds. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "cron.h"
#include "scrub.h"
#include "spend.h"
#include "store_audit.h"
#include "tools_impl.h"
#include "tools_stands.h"
#include "tz.h"

#define TEXT_MAX_LEN 100000 /* prompt and system prompt, in bytes */

static const struct {
	const char *name;
	unsigned bit;
} profile_names[] = {
	{"native", TOOLS_NATIVE}, {"oneclaw", TOOLS_ONECLAW}, {"agent-zero", TOOLS_AGENTZERO},
	{"agentzero", TOOLS_AGENTZERO}, {"agent_zero", TOOLS_AGENTZERO}, {"kai", TOOLS_KAI},
	{"toolpack", TOOLS_TOOLPACK}, {"wooster", TOOLS_WOOSTER},
	{"all", TOOLS_NATIVE | TOOLS_ONECLAW | TOOLS_AGENTZERO | TOOLS_KAI | TOOLS_TOOLPACK |
	    TOOLS_WOOSTER},
};

int
tools_profiles_parse(const char *list, unsigned *profiles, struct err *e)
{
	*profiles = 0;
	const char *p = list ? list : "";
	while (*p) {
		size_t n = strcspn(p, ", ");
		if (n) {
			size_t i, count = sizeof profile_names / sizeof profile_names[0];
			for (i = 0; i < count; i++)
				if (strlen(profile_names[i].name) == n &&
				    str_casecmp_prefix(p, profile_names[i].name) == 0)
					break;
			if (i == count)
				return err_set(e, ST_INVALID, "unknown profile '%.*s' (use native, oneclaw, "
				    "agent-zero, kai, toolpack, wooster or all)", (int)(n > 64 ? 64 : n), p);
			*profiles |= profile_names[i].bit;
		}
		p += n;
		p += strspn(p, ", ");
	}
	if (!*profiles)
		return err_set(e, ST_INVALID, "no profile given (use native, oneclaw, agent-zero, kai, "
		    "toolpack, wooster or all)");
	return ST_OK;
}

int
tools_open(struct store *st, unsigned profiles, const char *scope, struct tools **out,
    struct err *e)
{
	struct config *cf = NULL;
	unsigned flags = 0;
	int rc;
	if (!st)
		return err_set(e, ST_ERR, "tools need an open store");
	int stagger = 0;
	if ((rc = config_when_flags(&flags, e)) || (rc = config_load(&cf, e)))
		return rc;
	if ((rc = config_stagger(cf, &stagger, e))) {
		config_free(cf);
		return rc;
	}
	struct tools *tl = xcalloc(1, sizeof *tl);
	rc = agent_load(&tl->ag, cf, store_locator(st), scope, e);
	scrub_init(&tl->secrets);
	scrub_load(&tl->secrets, cf, store_locator(st), NULL);
	tl->cf = cf;
	if (rc) {
		agent_free(&tl->ag);
		scrub_free(&tl->secrets);
		config_free(cf);
		free(tl);
		return rc;
	}
	tl->when_flags = flags;
	tl->st = st;
	/* Every change its calls make is on the audit trail as this agent's. */
	const char *o = tl->ag.origin, *run_id = strncmp(o, "agent:run:", 10) == 0 ? o + 10 : NULL;
	struct run r;
	struct err ignored;
	run_init(&r);
	/* The run's task as the store has it (a run not there names none). */
	if (run_id && store_run_get(st, run_id, &r, &ignored) != ST_OK)
		r.task_id[0] = 0;
	char *who = audit_actor_agent(o, run_id, r.task_id, tl->ag.scope);
	run_free(&r);
	store_audit_by(st, who);
	free(who);
	tl->profiles = profiles ? profiles : TOOLS_NATIVE;
	tl->zs = zones_new();
	zones_set_stagger(tl->zs, stagger);
	*out = tl;
	return ST_OK;
}

void
tools_close(struct tools *tl)
{
	if (!tl)
		return;
	zones_free(tl->zs);
	agent_free(&tl->ag);
	scrub_free(&tl->secrets);
	config_free(tl->cf);
	free(tl);
}

/* ---- shared steps ---- */

void
tools_sentence(struct buf *out, const char *msg)
{
	size_t start = out->len;
	/* Command-line spellings ("--at: ...") read as argument names. */
	for (const char *p = msg; *p; p++) {
		if (p[0] == '-' && p[1] == '-' && isalpha((unsigned char)p[2]) &&
		    (p == msg || !isalnum((unsigned char)p[-1])))
			p += 2;
		buf_add(out, p, 1);
	}
	if (out->len > start) {
		/* Not an argument name: "day_of_week is required" and "at: ..."
		 * stay as they are. */
		size_t word = strcspn(out->data + start, " ");
		if (!memchr(out->data + start, '_', word) && out->data[start + word - 1] != ':')
			out->data[start] = (char)toupper((unsigned char)out->data[start]);
		if (!strchr(".!?", out->data[out->len - 1]))
			buf_puts(out, ".");
	}
}

int
tools_cron_check(const char *expr, struct buf *out)
{
	struct cron c;
	struct err ce;
	if (cron_parse(expr, &c, &ce) == ST_OK)
		return ST_OK;
	size_t n = strlen(ce.msg);
	buf_printf(out, "Invalid cron expression '%.*s': %s%s", utf8_cut(expr, 100), expr, ce.msg,
	    n && ce.msg[n - 1] == '.' ? "" : ".");
	return ST_INVALID;
}

int
tools_zone(struct tools *tl, const char *name, const struct tz **z, struct err *e)
{
	return zones_get(tl->zs, name, z, e);
}

int
tools_local_zone(struct tools *tl, struct task *t, const struct tz **z, struct err *e)
{
	set_str(&t->tz, zones_local(tl->zs));
	return zones_get(tl->zs, t->tz, z, e);
}

int
tools_task_list(struct tools *tl, struct task_filter *f, task_fn fn, void *arg, struct err *e)
{
	f->scope = tl->ag.scope;
	return store_task_list(tl->st, f, fn, arg, e);
}

int
tools_task_count(struct tools *tl, struct task_filter *f, long *n, struct err *e)
{
	f->scope = tl->ag.scope;
	return store_task_count(tl->st, f, n, e);
}

struct prefix_ctx {
	char lower[37];
	char found[6][37];
	int n;
};

static int
prefix_one(const struct task *t, void *arg)
{
	struct prefix_ctx *c = arg;
	if (strncmp(t->id, c->lower, strlen(c->lower)) == 0 && c->n < 6)
		memcpy(c->found[c->n++], t->id, 37);
	return 0;
}

/* An id or prefix to a full id.  A prefix that is ambiguous among all
 * tasks may not be among the scope's, whose ids alone may be named. */
static int
resolve(struct tools *tl, const char *id, char full[37], struct err *e)
{
	struct prefix_ctx c = {{0}, {{0}}, 0};
	struct task_filter f;
	int rc = store_task_resolve(tl->st, id, 0, full, e);
	if (rc != ST_REFUSED || !tl->ag.scope)
		return rc;
	for (size_t i = 0; id[i] && i < 36; i++)
		c.lower[i] = (char)tolower((unsigned char)id[i]);
	task_filter_init(&f);
	if ((rc = tools_task_list(tl, &f, prefix_one, &c, e)))
		return rc;
	if (c.n == 1) {
		memcpy(full, c.found[0], 37);
		return ST_OK;
	}
	if (!c.n)
		return err_set(e, ST_NOTFOUND, "no task '%s'", id);
	struct buf b = {0};
	for (int i = 0; i < c.n && i < 5; i++)
		buf_printf(&b, "%s%.13s", i ? ", " : "", c.found[i]);
	err_set(e, ST_REFUSED, "id prefix '%s' is ambiguous: %s%s; give more characters", id, b.data,
	    c.n > 5 ? ", ..." : "");
	buf_free(&b);
	return ST_REFUSED;
}

int
tools_task_get(struct tools *tl, const char *id, struct task *t, struct err *e)
{
	char full[37];
	int rc = resolve(tl, id, full, e);
	if (rc || (rc = store_task_get(tl->st, full, t, e)))
		return rc;
	if (agent_sees(&tl->ag, t))
		return ST_OK;
	task_free(t);
	return err_set(e, ST_NOTFOUND, "no task '%s'", id);
}

/* The prompts, and the fields a run's environment carries (task.h). */
static int
text_limits(const struct task *t, struct err *e)
{
	if ((t->prompt && strlen(t->prompt) > TEXT_MAX_LEN) ||
	    (t->system_prompt && strlen(t->system_prompt) > TEXT_MAX_LEN))
		return err_set(e, ST_INVALID, "the prompt is longer than %d bytes", TEXT_MAX_LEN);
	return task_env_fields_check(t, 1, e);
}

/* The task's scope: the session's, which an agent cannot leave. */
static int
scope_keep(struct tools *tl, struct task *t, struct err *e)
{
	const char *mine = tl->ag.scope;
	if (mine && t->scope && strcmp(t->scope, mine) != 0)
		return err_set(e, ST_REFUSED, "Refused: %s sees and makes only tasks of scope '%s'",
		    tl->ag.in_run ? "this run" : "this session", mine);
	if (mine)
		set_str(&t->scope, mine);
	return ST_OK;
}

/* Attachments checked and resolved in place. */
static int
attachments_check(struct tools *tl, struct task *t, struct err *e)
{
	char *resolved;
	int rc = agent_check_attachments(&tl->ag, t->attachments, &resolved, e);
	if (!rc) {
		free(t->attachments);
		t->attachments = resolved;
	}
	return rc;
}

/* agent_max_tasks: active agent-made tasks in all.  Counted under a lock
 * all connections take in turn (serialize), so parallel sessions cannot
 * each see room for one more and all add it. */
static int
quota_active(struct tools *tl, struct err *e)
{
	struct task_filter f;
	long n;
	int rc;
	task_filter_init(&f);
	f.agent_made = 1;
	f.serialize = 1;
	f.statuses = 1u << STATUS_PENDING | 1u << STATUS_RUNNING;
	if ((rc = store_task_count(tl->st, &f, &n, e)))
		return rc;
	if (n >= tl->ag.max_tasks)
		return err_set(e, ST_REFUSED, "Refused: agents have %ld active tasks, the most the user "
		    "allows (agent_max_tasks); cancel or delete some first", n);
	return ST_OK;
}

/* agent_max_create for this run or session, agent_max_tasks for all. */
static int
quotas(struct tools *tl, struct err *e)
{
	struct task_filter f;
	long n;
	int rc;
	task_filter_init(&f);
	f.origin = tl->ag.origin;
	f.trashed = -1;
	f.serialize = 1;
	if ((rc = store_task_count(tl->st, &f, &n, e)))
		return rc;
	if (!tl->ag.max_create)
		return err_set(e, ST_REFUSED, "Refused: the user's config lets agents create no tasks "
		    "(agent_max_create = 0)");
	if (n >= tl->ag.max_create)
		return err_set(e, ST_REFUSED, "Refused: %s has created %ld task%s, the most one %s may "
		    "create (agent_max_create)", tl->ag.in_run ? "this run" : "this session", n,
		    n == 1 ? "" : "s", tl->ag.in_run ? "run" : "session");
	return quota_active(tl, e);
}

/* A heartbeat addition runs inside the user's heartbeat, with its MCP
 * servers and no scope: more than any agent was given. */
static int
no_heartbeat(struct tools *tl, const struct task *t, struct err *e)
{
	if (t->kind != KIND_HEARTBEAT)
		return ST_OK;
	return err_set(e, ST_REFUSED, "Refused: agents may not make heartbeat additions (they would "
	    "run with the heartbeat's authority, not %s's); give the task a schedule instead",
	    tl->ag.in_run ? "this run" : "this session");
}

struct name_ctx {
	int users;
	const char *id;
};

static int
name_one(const struct task *t, void *arg)
{
	struct name_ctx *c = arg;
	if (strcmp(t->id, c->id) != 0 && (!t->origin || strncmp(t->origin, "agent:", 6) != 0))
		c->users++;
	return 0;
}

/* A name the user's task has would make the user's `task-run NAME`
 * ambiguous: agents choose others. */
static int
name_free(struct tools *tl, const struct task *t, struct err *e)
{
	struct task_filter f;
	struct name_ctx c = {0, t->id};
	int rc;
	task_filter_init(&f);
	f.name = t->name;
	if ((rc = store_task_list(tl->st, &f, name_one, &c, e)))
		return rc;
	return c.users ? err_set(e, ST_REFUSED, "Refused: the user has a task named '%.*s'; choose "
	    "another name", utf8_cut(t->name, 100), t->name) : ST_OK;
}

static int
same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The conversation a task's runs share: its context, within its scope. */
static char *
convo_key(const char *scope, const char *context)
{
	return scope ? xasprintf("%s/%s", scope, context) : xstrdup(context);
}

struct convo_ctx {
	const struct agent *ag;
	const char *key, *id;
	int theirs;
};

static int
convo_one(const struct task *u, void *arg)
{
	struct convo_ctx *c = arg;
	struct err e;
	if (str_empty(u->context) || strcmp(u->id, c->id) == 0)
		return 0;
	char *k = convo_key(u->scope, u->context);
	c->theirs = strcmp(k, c->key) == 0 && agent_may_change(c->ag, u, &e) != ST_OK;
	free(k);
	return c->theirs;
}

/* What an agent's task says in a conversation, the other tasks of it read
 * as their own history: it joins one only if each of those is a task the
 * agent may change, or the conversation is the run's own (TASK_CONTEXT:
 * agent-zero's tasks run in the chat that made them).  old: the task as
 * stored, whose conversation stays; NULL when creating. */
static int
convo_free(struct tools *tl, const struct task *t, const struct task *old, struct err *e)
{
	const char *own = getenv("TASK_CONTEXT"), *scope = getenv("TASK_SCOPE");
	if (str_empty(t->context) || (old && same(old->context, t->context) &&
	    same(old->scope, t->scope)))
		return ST_OK;
	char *key = convo_key(t->scope, t->context);
	if (tl->ag.in_run && !str_empty(own)) {
		char *k = convo_key(str_empty(scope) ? NULL : scope, own);
		int mine = strcmp(k, key) == 0;
		free(k);
		if (mine) {
			free(key);
			return ST_OK;
		}
	}
	struct convo_ctx c = {&tl->ag, key, t->id, 0};
	struct task_filter f;
	task_filter_init(&f);
	int rc = store_task_list(tl->st, &f, convo_one, &c, e);
	free(key);
	if (!rc && c.theirs)
		rc = err_set(e, ST_REFUSED, "Refused: conversation '%.*s' is shared with a task agents "
		    "may not change, whose runs would read what this task's runs say; give the task a "
		    "context of its own", utf8_cut(t->context, 100), t->context);
	return rc;
}

/* A key given in a scope is that scope's own ("SCOPE:KEY" in the store),
 * so "taken" never tells of another scope's tasks. */
static void
key_scope(struct tools *tl, struct task *t)
{
	if (t->key && tl->ag.scope) {
		char *k = xasprintf("%s:%s", tl->ag.scope, t->key);
		free(t->key);
		t->key = k;
	}
}

const char *
tools_key_shown(const struct tools *tl, const char *key)
{
	size_t n = tl->ag.scope ? strlen(tl->ag.scope) : 0;
	if (key && n && strncmp(key, tl->ag.scope, n) == 0 && key[n] == ':')
		return key + n + 1;
	return key;
}

/* A twin found by key or by dedup must be one the session may see. */
static int
twin_visible(struct tools *tl, const struct task *t, const char *dup_id, struct err *e)
{
	struct task twin;
	int rc = store_task_look(tl->st, dup_id, &twin, e);
	if (rc)
		return rc;
	if (!agent_sees(&tl->ag, &twin))
		rc = err_set(e, ST_REFUSED, "Refused: the key '%s' is taken; choose another",
		    t->key ? t->key : "");
	task_free(&twin);
	return rc;
}

/* A dollar budget counts only the calls whose model has a price: a model
 * an agent names without one (as the model or a fallback) would run past
 * the cap that holds it, the task's or the config's.  old: the task as
 * stored, whose models stay as they are; NULL when creating. */
static int
models_priced(struct tools *tl, const struct task *t, const struct task *old, struct err *e)
{
	struct budget b;
	struct err pe;
	int global = 0;
	const char *g = config_get(tl->cf, "budget");
	if (str_empty(t->budget) || budget_parse(t->budget, &b, &pe) || !b.set || !b.dollars) {
		global = 1;
		if (str_empty(g) || budget_parse(g, &b, &pe) || !b.set || !b.dollars)
			return ST_OK;
	}
	cJSON *fb = NULL;
	if (!old || !same(old->fallback_models, t->fallback_models))
		fb = t->fallback_models ? cJSON_Parse(t->fallback_models) : NULL;
	const cJSON *it = cJSON_IsArray(fb) ? fb->child : NULL;
	const char *m = !old || !same(old->model, t->model) ? t->model : NULL;
	int rc = ST_OK;
	for (;;) {
		double in, out;
		if (!str_empty(m) && price_of(tl->cf, m, &in, &out, &pe) != 1) {
			char said[64];
			budget_describe(&b, said, sizeof said);
			rc = err_set(e, ST_REFUSED, "Refused: model '%.*s' has no price in the user's config "
			    "(price.%.*s), so the budget of %s%s could not count what its runs spend; name a "
			    "model that has one", utf8_cut(m, 80), m, utf8_cut(m, 80), m, said,
			    global ? " (all tasks)" : "");
			break;
		}
		if (!it)
			break;
		m = cJSON_GetStringValue(it);
		it = it->next;
	}
	cJSON_Delete(fb);
	return rc;
}

void
tools_seed_rules(struct task *t)
{
	if (!task_repeats(t))
		return;
	t->retries = 0;
	t->pause_after = 0;
	t->stagger = 0;
}

int
tools_task_add(struct tools *tl, struct task *t, int dedup, int *is_dup, char dup_id[37],
    struct err *e)
{
	int rc;
	*is_dup = 0;
	set_str(&t->origin, tl->ag.origin);
	key_scope(tl, t);
	if ((rc = scope_keep(tl, t, e)) || (rc = text_limits(t, e)) ||
	    (rc = task_finalize(t, 1, 1, tl->now, tl->zs, e)) || (rc = no_heartbeat(tl, t, e)) ||
	    (rc = agent_check_mcp(&tl->ag, t->mcp, t->mcp_allow, e)) ||
	    (rc = agent_check_deliver(&tl->ag, t->deliver, e)) ||
	    (rc = models_priced(tl, t, NULL, e)) || (rc = convo_free(tl, t, NULL, e)) ||
	    (rc = attachments_check(tl, t, e)) || (rc = quotas(tl, e)) || (rc = name_free(tl, t, e)) ||
	    (rc = store_task_add(tl->st, t, dedup, is_dup, dup_id, e)))
		return rc;
	return *is_dup ? twin_visible(tl, t, dup_id, e) : ST_OK;
}

int
tools_task_save(struct tools *tl, struct task *t, int reschedule, struct err *e)
{
	struct task old;
	int rc = store_task_get(tl->st, t->id, &old, e);
	if (rc)
		return rc;
	set_str(&t->origin, old.origin);
	if ((rc = agent_may_change(&tl->ag, &old, e)) || (rc = stop_stands(tl, &old, t, e)) ||
	    (rc = notify_stands(tl, &old, t, e)) ||
	    (rc = scope_keep(tl, t, e)) ||
	    (rc = text_limits(t, e)) || (rc = task_finalize(t, 0, reschedule, tl->now, tl->zs, e)) ||
	    (rc = no_heartbeat(tl, t, e)))
		goto out;
	if (!same(old.name, t->name) && (rc = name_free(tl, t, e)))
		goto out;
	/* Re-arming a finished or cancelled task adds an active one, as a
	 * creation does. */
	if (old.status != STATUS_PENDING && old.status != STATUS_RUNNING &&
	    (t->status == STATUS_PENDING || t->status == STATUS_RUNNING) &&
	    (rc = quota_active(tl, e)))
		goto out;
	/* What it had stays: only what the agent gives it is held to its own. */
	if ((!same(old.mcp, t->mcp) || !same(old.mcp_allow, t->mcp_allow)) &&
	    (rc = agent_check_mcp(&tl->ag, t->mcp, t->mcp_allow, e)))
		goto out;
	if (!same(old.attachments, t->attachments) && (rc = attachments_check(tl, t, e)))
		goto out;
	if (!same(old.deliver, t->deliver) && (rc = agent_check_deliver(&tl->ag, t->deliver, e)))
		goto out;
	/* A cap on spending holds the agent too: it may give one, not lift it. */
	if (old.budget && !same(old.budget, t->budget)) {
		rc = err_set(e, ST_REFUSED, "Refused: task '%.80s' has a budget (%s); only the user may"
		    " change or remove it", old.name, old.budget);
		goto out;
	}
	if ((rc = models_priced(tl, t, &old, e)) || (rc = convo_free(tl, t, &old, e)))
		goto out;
	rc = store_task_put(tl->st, t, e);
out:
	task_free(&old);
	return rc;
}

int
tools_task_queue(struct tools *tl, struct task *t, struct err *e)
{
	int rc;
	if ((rc = agent_may_change(&tl->ag, t, e)))
		return rc;
	if (t->status == STATUS_RUNNING)
		return err_set(e, ST_REFUSED, "task '%s' is running now; run it again when it has finished",
		    t->name);
	t->queued = 1;
	t->updated_at = tl->now;
	return store_task_put(tl->st, t, e);
}

int
tools_task_cancel(struct tools *tl, struct task *t, struct err *e)
{
	int rc;
	if ((rc = agent_may_change(&tl->ag, t, e)))
		return rc;
	if (t->status != STATUS_PENDING)
		return err_set(e, ST_REFUSED, "task '%s' is %s; only pending tasks can be cancelled",
		    t->name, task_status_name(t->status));
	t->status = STATUS_CANCELLED;
	t->next_run_at = t->due_at = TIME_NONE;
	t->queued = 0;
	t->updated_at = tl->now;
	return store_task_put(tl->st, t, e);
}

int
tools_task_trash(struct tools *tl, const struct task *t, struct err *e)
{
	int rc = agent_may_change(&tl->ag, t, e);
	return rc ? rc : store_task_trash(tl->st, t->id, tl->now, e);
}

/* ---- the tool list ---- */

static const struct tool_def *const tables[] = {tools_native_defs, tools_oneclaw_defs,
	tools_agentzero_defs, tools_kai_defs, tools_toolpack_defs, tools_wooster_defs};
#define NTABLES (sizeof tables / sizeof tables[0])

cJSON *
tools_list(struct tools *tl)
{
	cJSON *list = cJSON_CreateArray();
	for (size_t i = 0; i < NTABLES; i++)
		for (const struct tool_def *d = tables[i]; d->name; d++)
			if (tl->profiles & d->profile)
				tools_schema_add(list, d);
	return list;
}

static const struct tool_def *
tool_find(const struct tools *tl, const char *name)
{
	for (size_t i = 0; i < NTABLES && name; i++)
		for (const struct tool_def *d = tables[i]; d->name; d++)
			if ((tl->profiles & d->profile) && strcmp(d->name, name) == 0)
				return d;
	return NULL;
}

int
tools_has(const struct tools *tl, const char *name)
{
	return tool_find(tl, name) != NULL;
}

int
tools_takes_string(const struct tools *tl, const char *name)
{
	const struct tool_def *d = tool_find(tl, name);
	return d && (d->flags & TOOL_RAW_ARGS);
}

/* Runs a found tool's body; ST_ERR only when the store failed. */
static int
run_body(struct tools *tl, const struct tool_def *d, const cJSON *args, struct buf *out,
    int *trc, struct err *e)
{
	struct err te = {{0}};
	int rc;
	if (d->flags & TOOL_READS) {
		*trc = d->fn(tl, args, out, &te);
	} else {
		/* One write transaction per change: reading a task and writing
		 * it back cannot interleave with task-tick claiming it. */
		if ((rc = store_writable(tl->st, e)) || (rc = store_begin(tl->st, e)))
			return rc;
		*trc = d->fn(tl, args, out, &te);
		if (*trc == ST_OK && (rc = store_commit(tl->st, e)) != ST_OK) {
			store_rollback(tl->st);
			return rc;
		}
		if (*trc != ST_OK)
			store_rollback(tl->st);
		else
			store_wake(tl->st);
	}
	if (*trc == ST_ERR) {
		*e = te;
		return ST_ERR;
	}
	if (*trc != ST_OK && !out->len)
		tools_sentence(out, te.msg);
	return ST_OK;
}

int
tools_call(struct tools *tl, const char *name, const cJSON *args, char **text, int *is_error,
    struct err *e)
{
	const struct tool_def *d = tool_find(tl, name);
	struct buf out = {0}, valid = {0};
	cJSON *empty = args ? NULL : cJSON_CreateObject(), *norm = NULL;
	int rc = ST_OK, trc = ST_INVALID;
	*text = NULL;
	if (empty)
		args = empty;
	if (!name)
		name = "";
	if (!d)
		buf_printf(&out, "Unknown tool '%.*s'.", utf8_cut(name, 64), name);
	else if ((rc = now_get(&tl->now, e)))
		goto out;
	else if ((d->flags & TOOL_RAW_ARGS) || tools_args_check(d, args, &norm, &out) == ST_OK)
		if ((rc = run_body(tl, d, norm ? norm : args, &out, &trc, e)))
			goto out;
	*is_error = trc != ST_OK;
	/* Names, prompts and outputs in the store may hold any bytes, and a
	 * user's prompt or a run's output a key the agent must not read. */
	char *clean = scrub_text(&tl->secrets, out.data ? out.data : "", out.len);
	utf8_sanitize(&valid, clean, strlen(clean));
	free(clean);
	*text = valid.data;
out:
	buf_free(&out);
	cJSON_Delete(norm);
	cJSON_Delete(empty);
	return rc;
}
