/* llm_session.c: settings, the user's message, the conversation and the
 * rounds of tool calls of llm-call's model call (llm_session.h). */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "config.h"
#include "guard.h"
#include "http.h"
#include "llm_session.h"
#include "mcp_client.h"
#include "opt.h"
#include "outcome.h"
#include "run_deadline.h"
#include "spend.h"
#include "store.h"
#include "task.h"
#include "task_json.h"
#include "tools.h"
#include "utf8.h"

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

int
llm_session_option(cJSON *options, const char *kv, struct err *e)
{
	static const char *const reserved[] = {"model", "messages", "system", "stream",
		"stream_options", "tools"};
	/* It goes into the request as it is: text, as every other option. */
	if (!utf8_valid(kv, strlen(kv)))
		return err_set(e, ST_INVALID, "-o is not UTF-8 text");
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return err_set(e, ST_INVALID, "-o wants KEY=VALUE, not '%s'", kv);
	char key[64];
	if ((size_t)(eq - kv) >= sizeof key)
		return err_set(e, ST_INVALID, "-o key too long in '%s'", kv);
	snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
	for (const char *p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '_' || *p == '-' || *p == '.'))
			return err_set(e, ST_INVALID, "-o key '%s' is not a plain name", key);
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(key, reserved[i]) == 0)
			return err_set(e, ST_INVALID, "-o %s is set by llm-call itself%s", key,
			    strcmp(key, "model") == 0 ? "; use -m" : strcmp(key, "system") == 0 ? "; use -s"
			    : strcmp(key, "tools") == 0 ? "; use --tools" : "");
	if (json_find_nul(eq + 1, strlen(eq + 1)) >= 0)
		return err_set(e, ST_INVALID, "-o %s: a string holds \\u0000 (NUL), which cannot be sent", key);
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithOpts(eq + 1, &end, 1);
	if (!v)
		v = cJSON_CreateString(eq + 1);
	cJSON_DeleteItemFromObjectCaseSensitive(options, key);
	cJSON_AddItemToObject(options, key, v);
	return ST_OK;
}

int
llm_session_env(struct llm_session *s, struct err *e)
{
	const char *scope = env("TASK_SCOPE");
	int rc;
	if (!s->system)
		s->system = env("TASK_SYSTEM_PROMPT");
	if (!s->context)
		s->context = env("TASK_CONTEXT");
	/* A scope's conversations are its own: "notes" of one is not another's. */
	if (scope && (rc = task_scope_check(scope, e)))
		return rc;
	if (scope && s->context)
		s->context = s->scoped_context = xasprintf("%s/%s", scope, s->context);
	const char *v = env("TASK_ATTACHMENTS");
	if (s->nattach || !v)
		return ST_OK;
	cJSON *a = json_find_nul(v, strlen(v)) >= 0 ? NULL : cJSON_Parse(v);
	const cJSON *it;
	int bad = !cJSON_IsArray(a);
	cJSON_ArrayForEach(it, a)
		bad |= !cJSON_IsString(it);
	if (bad) {
		cJSON_Delete(a);
		return err_set(e, ST_INVALID, "TASK_ATTACHMENTS is not a JSON array of strings");
	}
	free(s->attach);
	s->attach = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *s->attach);
	cJSON_ArrayForEach(it, a)
		s->attach[s->nattach++] = it->valuestring;
	cJSON_Delete(s->env_attach);
	s->env_attach = a;
	return ST_OK;
}

/* Provider, model, URL and key: flags, then environment, then config. */
static int
resolve(struct llm_session *s, const struct config *cf, struct err *e)
{
	struct llm_config *lc = &s->lc;
	char ck[64];
	const char *model = s->model ? s->model : env("TASK_MODEL");
	int p = -1;
	if (s->provider && (p = llm_provider_parse(s->provider)) < 0)
		return err_set(e, ST_INVALID, "unknown provider '%s' (openai, anthropic or echo)", s->provider);
	if (p < 0 && model)
		p = llm_provider_for_model(model);
	const char *cprov = config_get(cf, "provider");
	if (p < 0 && cprov && *cprov && (p = llm_provider_parse(cprov)) < 0)
		return err_set(e, ST_INVALID, "%s: unknown provider '%s' (openai, anthropic or echo)",
		    config_path(cf), cprov);
	if (p < 0 && !model) {
		const char *cm = config_get(cf, "model");
		p = cm ? llm_provider_for_model(cm) : -1;
	}
	if (p < 0)
		p = !env("OPENAI_API_KEY") && !config_get(cf, "openai_api_key") &&
		    (env("ANTHROPIC_API_KEY") || config_get(cf, "anthropic_api_key")) ? LLM_ANTHROPIC
		    : LLM_OPENAI;
	const char *name = llm_provider_name(p);
	if (!model) {
		snprintf(ck, sizeof ck, "%s_model", name);
		model = config_get(cf, ck);
	}
	if (!model) {
		/* The general model only where it fits this provider. */
		const char *cm = config_get(cf, "model");
		int mp = cm ? llm_provider_for_model(cm) : -1;
		if (cm && *cm && (mp < 0 || mp == p))
			model = cm;
	}
	lc->provider = p;
	lc->model = model && *model ? model : llm_default_model(p);
	if (p == LLM_ECHO)
		return ST_OK;   /* answers here: no URL, no key */

	const char *url = s->base_url;
	if (!url)
		url = env(p == LLM_ANTHROPIC ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL");
	snprintf(ck, sizeof ck, "%s_base_url", name);
	if (!url)
		url = config_get(cf, ck);
	lc->base_url = url && *url ? url : llm_default_url(p);
	if (str_casecmp_prefix(lc->base_url, "http://") && str_casecmp_prefix(lc->base_url, "https://"))
		return err_set(e, ST_INVALID, "base URL '%s' is not an http or https URL", lc->base_url);

	const char *kenv = llm_key_env(p), *k;
	char *hint = s->hint;
	size_t hintn = sizeof s->hint;
	snprintf(ck, sizeof ck, "%s_api_key", name);
	if (s->key_file) {
		int rc = llm_key_file_read(s->key_file, &s->key, e);
		if (rc)
			return rc;
		snprintf(hint, hintn, "the key in %s", s->key_file);
	} else if ((k = env(kenv))) {
		s->key = xstrdup(k);
		snprintf(hint, hintn, "%s", kenv);
	} else if ((k = config_get(cf, ck)) && *k) {
		s->key = xstrdup(k);
		snprintf(hint, hintn, "%s in %s", ck, config_path(cf));
	} else if (strcmp(lc->base_url, llm_default_url(p)) == 0) {
		/* Only the provider's own service surely needs one; a local or
		 * self-hosted server may not. */
		return err_set(e, ST_INVALID, "no API key for %s: set %s, or %s in %s", name, kenv, ck,
		    config_path(cf));
	} else {
		snprintf(hint, hintn, "%s", kenv);
	}
	if (s->key && !llm_key_clean(s->key))
		return err_set(e, ST_INVALID, "the %s key (%s) holds spaces or control characters", name,
		    hint);
	lc->api_key = s->key;
	lc->key_hint = hint;
	return ST_OK;
}

/* What is left of the call's deadline, in ms (never below 1). */
static long
left_ms(const struct llm_session *s)
{
	if (!s->lc.deadline_ms)
		return 86400000;
	int64_t left = s->lc.deadline_ms - mono_ms();
	return left > 1 ? (long)(left < 86400000 ? left : 86400000) : 1;
}

/* Settings of the call itself: timeouts and retries. */
static int
resolve_limits(struct llm_session *s, const struct config *cf, struct err *e)
{
	struct llm_config *lc = &s->lc;
	double t = s->timeout, ct = s->connect_timeout;
	long retries = s->retries, history = LLM_SESSION_HISTORY;
	const char *v;
	struct err sub;
	if ((t <= 0 && (v = config_get(cf, "timeout")) && opt_seconds("timeout", v, 86400, &t, &sub)) ||
	    (ct <= 0 && (v = config_get(cf, "connect_timeout")) &&
	    opt_seconds("connect_timeout", v, 86400, &ct, &sub)) ||
	    (retries < 0 && (v = config_get(cf, "retries")) &&
	    opt_number("retries", v, NULL, 0, 20, &retries, &sub)) ||
	    ((v = config_get(cf, "context_messages")) &&
	    opt_number("context_messages", v, NULL, 1, LONG_MAX, &history, &sub)))
		return err_set(e, ST_INVALID, "%s: %s", config_path(cf), sub.msg);
	s->history_max = history;
	lc->timeout_ms = t > 0 ? (long)(t * 1000) : 300000;
	lc->connect_timeout_ms = ct > 0 ? (long)(ct * 1000) : 10000;
	if (lc->connect_timeout_ms > lc->timeout_ms)
		lc->connect_timeout_ms = lc->timeout_ms;
	lc->retries = retries >= 0 ? (int)retries : LLM_SESSION_RETRIES;
	double d = s->deadline;
	int64_t left_ms = -1;
	/* In a run, end in time to say why and be recorded before task-tick
	 * ends the run at its timeout. */
	if (d <= 0 && !run_deadline(&d, &left_ms))
		d = LLM_SESSION_DEADLINE;
	s->deadline = d;
	lc->deadline_ms = mono_ms() + (left_ms >= 0 ? left_ms : (int64_t)(d * 1000));
	return agent_max_calls(cf, &s->max_calls, e);
}

/* An agent's task (TASK_ORIGIN, from task-tick) reaches what the config
 * lets agents reach as it is now, not as it was when the task was saved. */
static int
resolve_rules(struct llm_session *s, const struct config *cf, struct err *e)
{
	struct llm_attach_rules *r = &s->rules;
	const char *origin = env("TASK_ORIGIN");
	int rc;
	if (!origin || strcmp(origin, "agent") != 0)
		return ST_OK;
	r->agent_made = 1;
	if ((rc = agent_attach_dirs(cf, &r->dirs, &r->ndirs, e)))
		return rc;
	r->allow = str_words(config_get(cf, "agent_url_allow"), &r->nallow);
	for (size_t i = 0; i < r->nallow; i++)
		if (!llm_attach_allow_ok(r->allow[i]))
			return err_set(e, ST_INVALID, "%s: agent_url_allow: '%.80s' is not an address, "
			    "ADDR/BITS or ADDR:PORT", config_path(cf), r->allow[i]);
	return ST_OK;
}

int
llm_session_resolve(struct llm_session *s, const struct config *cf, struct err *e)
{
	int rc;
	if ((rc = resolve(s, cf, e)) || (rc = resolve_limits(s, cf, e)) ||
	    (rc = resolve_rules(s, cf, e)))
		return rc;
	char store[PATH_MAX];
	struct err we;
	const char *db = env("TASK_DB");
	scrub_free(&s->secrets);
	scrub_load(&s->secrets, cf, db ? db : store_where(store, sizeof store, &we) == ST_OK ? store
	    : NULL, s->key_file);
	scrub_add(&s->secrets, s->key);
	s->lc.system = s->system;
	s->lc.options = s->options;
	if (!s->http && (rc = http_new(&s->http, e)))
		return rc;
	s->lc.http = s->http;
	return ST_OK;
}

/* Text attachments inlined with their names, then the prompt; images go
 * alongside as image parts. */
int
llm_session_message(struct llm_session *s, const char *prompt, struct err *e)
{
	char store[PATH_MAX];
	struct guard g;
	int rc = ST_OK;
	s->natts = s->nattach;
	s->atts = xcalloc(s->nattach ? s->nattach : 1, sizeof *s->atts);
	s->imgs = xcalloc(s->nattach ? s->nattach : 1, sizeof *s->imgs);
	s->nimg = 0;
	if (s->nattach) {
		/* Whatever asks for them, these never go to a provider. */
		if ((rc = store_where(store, sizeof store, e)))
			return rc;
		guard_init(&g, store, s->key_file);
	}
	for (size_t i = 0; i < s->nattach && !rc; i++) {
		struct llm_attachment *a = &s->atts[i];
		if ((rc = llm_attach_load(s->http, s->attach[i], left_ms(s) < s->lc.timeout_ms ? left_ms(s)
		    : s->lc.timeout_ms, &g, &s->rules, a, e)))
			break;
		if (a->mime) {
			s->imgs[s->nimg++] = (struct llm_image){a->mime, a->data, a->len};
		} else {
			buf_printf(&s->text, "<attachment name=\"%s\">\n", a->name);
			buf_add(&s->text, (const char *)a->data, a->len);
			if (a->len && a->data[a->len - 1] != '\n')
				buf_puts(&s->text, "\n");
			buf_puts(&s->text, "</attachment>\n\n");
		}
	}
	if (s->nattach)
		guard_free(&g);
	if (!rc)
		buf_puts(&s->text, prompt);
	return rc;
}

int
llm_session_conversation(struct llm_session *s, struct store *st, struct err *e)
{
	int p = s->lc.provider;
	if (!s->messages)
		s->messages = cJSON_CreateArray();
	if (s->context) {
		struct history_msg *h;
		size_t nh;
		size_t max = s->history_max > 0 ? (size_t)s->history_max : LLM_SESSION_HISTORY;
		int rc = store_history_load(st, s->context, max, &h, &nh, e);
		if (rc)
			return rc;
		if (!s->history)
			s->history = cJSON_CreateArray();
		for (size_t i = 0; i < nh; i++) {
			cJSON *m = cJSON_CreateObject();
			cJSON_AddStringToObject(m, "role", h[i].role);
			cJSON_AddStringToObject(m, "content", h[i].content);
			cJSON_AddItemToArray(s->history, m);
			if (strcmp(h[i].role, "user") == 0)
				llm_msg_user(p, s->messages, h[i].content, NULL, 0);
			else
				llm_msg_assistant_text(p, s->messages, h[i].content);
		}
		history_free(h, nh);
	}
	llm_msg_user(p, s->messages, s->text.data, s->imgs, s->nimg);
	return ST_OK;
}

/* s->tools and s->names again from everything offered so far. */
static void
offer(struct llm_session *s)
{
	cJSON_Delete(s->tools);
	cJSON_Delete(s->names);
	s->tools = llm_tools_convert(s->lc.provider, s->offered, &s->names);
}

static void
add_offered(struct llm_session *s, cJSON *tool)
{
	if (!s->offered)
		s->offered = cJSON_CreateArray();
	cJSON_AddItemToArray(s->offered, tool);
}

int
llm_session_tools(struct llm_session *s, struct store *st, const char *profiles, struct err *e)
{
	unsigned set;
	int rc = tools_profiles_parse(profiles, &set, e);
	if (!rc)
		rc = tools_open(st, set, NULL, &s->tl, e);
	if (rc)
		return rc;
	cJSON *list = tools_list(s->tl), *t;
	while ((t = cJSON_DetachItemFromArray(list, 0)))
		add_offered(s, t);
	cJSON_Delete(list);
	offer(s);
	return ST_OK;
}

static int
mcp_start(struct llm_session *s, const struct mcpc_server *sv, const char *const *allow,
    size_t nallow, struct err *e)
{
	struct mcpc *c;
	cJSON *list;
	long each = s->mcp_timeout_ms > 0 ? s->mcp_timeout_ms : MCPC_TIMEOUT_MS;
	int rc = mcpc_open(sv, s->http, left_ms(s) < each ? left_ms(s) : each, &c, e);

	if (rc)
		return rc;
	s->mcp = xrealloc(s->mcp, (s->nmcp + 1) * sizeof *s->mcp);
	size_t idx = s->nmcp++;
	s->mcp[idx] = c;
	if ((rc = mcpc_tools(c, &list, e)))
		return rc;
	const cJSON *t;
	cJSON_ArrayForEach(t, list) {
		const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
		char *full = xasprintf("mcp__%s__%s", sv->name, tool);
		int ok = mcpc_allowed(allow, nallow, full);
		cJSON *where = cJSON_CreateArray();
		cJSON_AddItemToArray(where, cJSON_CreateNumber((double)idx));
		cJSON_AddItemToArray(where, cJSON_CreateString(tool));
		cJSON_AddItemToArray(where, cJSON_CreateBool(ok));
		cJSON_AddItemToArray(where, cJSON_CreateBool(mcpc_needs_confirm(sv, tool)));
		cJSON_DeleteItemFromObjectCaseSensitive(s->mcp_map, full);
		cJSON_AddItemToObject(s->mcp_map, full, where);
		if (ok) {
			cJSON *o = cJSON_Duplicate(t, 1);
			cJSON_ReplaceItemInObjectCaseSensitive(o, "name", cJSON_CreateString(full));
			add_offered(s, o);
		}
		free(full);
	}
	cJSON_Delete(list);
	return ST_OK;
}

int
llm_session_mcp(struct llm_session *s, const char *servers, const char *allow, struct err *e)
{
	size_t nsv, nallow;
	char **sv = str_words(servers, &nsv), **al = str_words(allow, &nallow);
	int rc = ST_OK;
	if (!s->mcp_map)
		s->mcp_map = cJSON_CreateObject();
	if (!s->mcp_cfg)
		rc = mcpc_config_load(NULL, &s->mcp_cfg, e);
	int all = nsv == 1 && strcmp(sv[0], "all") == 0;
	if (!rc && all && !s->mcp_cfg->n)
		rc = err_set(e, ST_INVALID, "--mcp all: %s names no servers", s->mcp_cfg->path);
	for (size_t i = 0; !rc && !all && i < nsv; i++)
		if (!mcpc_config_find(s->mcp_cfg, sv[i]))
			rc = err_set(e, ST_INVALID, "no MCP server '%s' in %s", sv[i], s->mcp_cfg->path);
	for (size_t i = 0; !rc && i < (all ? s->mcp_cfg->n : nsv); i++)
		rc = mcp_start(s, all ? &s->mcp_cfg->servers[i] : mcpc_config_find(s->mcp_cfg, sv[i]),
		    (const char *const *)al, nallow, e);
	str_words_free(sv, nsv);
	str_words_free(al, nallow);
	if (!rc)
		offer(s);
	return rc;
}

static double
since_ms(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* At most n bytes of s, not cutting a character. */
static cJSON *
excerpt(const char *s, size_t n)
{
	if (strlen(s) <= n)
		return cJSON_CreateString(s);
	char *t = xasprintf("%.*s...", utf8_cut(s, n), s);
	cJSON *v = cJSON_CreateString(t);
	free(t);
	return v;
}

/* A failure at the deadline says so first: the step that failed only
 * ran out of the time the deadline left it. */
static int
past_deadline(const struct llm_session *s, int rc, struct err *e)
{
	if (s->lc.deadline_ms && s->lc.deadline_ms - mono_ms() < 100) {
		char was[ERR_MAX];
		snprintf(was, sizeof was, "%s", e->msg);
		return err_set(e, rc ? rc : ST_ERR, "no answer within the deadline of %.3g s (--deadline)%s%s",
		    s->deadline, was[0] ? ": " : "", was);
	}
	return rc;
}

/* One entry of the record of tool calls. */
static void
log_call(struct llm_session *s, const char *server, const char *tool, const char *args,
    const char *text, int is_error, double ms, const char *failure)
{
	if (!s->call_log)
		s->call_log = cJSON_CreateArray();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "server", server ? cJSON_CreateString(server) : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "tool", tool);
	cJSON *a = cJSON_Parse(args);
	cJSON_AddItemToObject(o, "arguments", a ? a : cJSON_CreateString(args));
	cJSON_AddItemToObject(o, "result", text && !is_error ? excerpt(text, LLM_SESSION_EXCERPT)
	    : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "duration_ms", (double)(long)(ms * 1000 + 0.5) / 1000);
	cJSON_AddItemToObject(o, "error", failure ? excerpt(failure, LLM_SESSION_EXCERPT)
	    : is_error && text ? excerpt(text, LLM_SESSION_EXCERPT) : cJSON_CreateNull());
	cJSON_AddItemToArray(s->call_log, o);
}

void
llm_session_outcome_tool(struct llm_session *s)
{
	static const char def[] = "{\"name\":\"report_outcome\",\"description\":\"Report what this"
	    " scheduled run achieved when it is not simply done: nothing_to_do when there was"
	    " nothing to do, blocked when a person is needed (a permission, a login, a decision),"
	    " failed when it could not be done; done otherwise. Give a one-line summary.\","
	    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"status\":{\"type\":"
	    "\"string\",\"enum\":[\"done\",\"nothing_to_do\",\"blocked\",\"failed\"]},"
	    "\"summary\":{\"type\":\"string\",\"description\":\"One line: what was done, or"
	    " what is needed and from whom.\"}},\"required\":[\"status\",\"summary\"]}}";
	cJSON *t = cJSON_Parse(def);
	if (!t)
		abort();
	add_offered(s, t);
	s->report_outcome = 1;
	offer(s);
}

/* report_outcome: the model's word on the run, kept as untrusted text. */
static char *
call_outcome(struct llm_session *s, const cJSON *args, int *is_error)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(args, "status");
	const cJSON *sm = cJSON_GetObjectItemCaseSensitive(args, "summary");
	int o = cJSON_IsString(st) ? outcome_parse(st->valuestring) : -1;
	if (o < 0 || (sm && !cJSON_IsString(sm))) {
		*is_error = 1;
		return xstrdup("Not recorded: status must be one of done, nothing_to_do, blocked or"
		    " failed, and summary a string.");
	}
	s->outcome = o;
	free(s->outcome_summary);
	s->outcome_summary = cJSON_IsString(sm) ? outcome_summary(sm->valuestring,
	    strlen(sm->valuestring)) : NULL;
	return xasprintf("Recorded: %s.", outcome_name(o));
}

/* Something wanted a person: the run is blocked, the first want its reason
 * (why is freed). */
static void
blocked(struct llm_session *s, char *why)
{
	if (!s->asked) {
		s->asked = 1;
		s->outcome = OUTCOME_BLOCKED;
		free(s->outcome_summary);
		s->outcome_summary = outcome_summary(why, strlen(why));
	}
	free(why);
}

/* An MCP server asked for a person's input (an elicitation). */
static void
asked(struct llm_session *s, const struct mcpc *c)
{
	const char *said = mcpc_declined(c);
	char *what = outcome_summary(said, strlen(said));
	blocked(s, xasprintf("MCP server '%s' asked for input that no one is there to give%s%s",
	    mcpc_name(c), what ? ": " : "", what ? what : ""));
	free(what);
}

/* One MCP tool call: ST_OK with the result for the model, else the server
 * failed. */
static int
call_mcp(struct llm_session *s, const cJSON *where, const char *full, const cJSON *args,
    struct llm_tool_result *out, struct llm_image **imgs, char **text, struct err *e)
{
	size_t idx = (size_t)cJSON_GetArrayItem(where, 0)->valuedouble;
	const char *tool = cJSON_GetArrayItem(where, 1)->valuestring;
	if (!cJSON_IsTrue(cJSON_GetArrayItem(where, 2))) {
		*text = xasprintf("Refused: '%s' is not among the tools allowed for this call "
		    "(--mcp-allow).", full);
		out->is_error = 1;
		return ST_OK;
	}
	if (cJSON_IsTrue(cJSON_GetArrayItem(where, 3))) {
		blocked(s, xasprintf("tool '%s' needs a person's confirmation (\"confirm\" in mcp.json), "
		    "which no one is there to give", full));
		*text = xasprintf("Refused: '%s' needs a person's confirmation and no one is there to "
		    "give it; it was not called.", full);
		out->is_error = 1;
		return ST_OK;
	}
	cJSON *result;
	char *rpc_error;
	long each = s->mcp_timeout_ms > 0 ? s->mcp_timeout_ms : MCPC_TIMEOUT_MS;
	mcpc_set_timeout(s->mcp[idx], left_ms(s) < each ? left_ms(s) : each);
	int rc = mcpc_call(s->mcp[idx], tool, args, &result, &rpc_error, e);
	if (!s->asked && mcpc_declined(s->mcp[idx]))
		asked(s, s->mcp[idx]);
	if (rc)
		return rc;
	if (rpc_error) {
		*text = rpc_error;
		out->is_error = 1;
		return ST_OK;
	}
	mcpc_result(result, LLM_SESSION_RESULT_MAX, text, &out->is_error, imgs, &out->nimg);
	out->img = *imgs;
	cJSON_Delete(result);
	return ST_OK;
}

/* The model's tool calls of one round, answered through the scheduler's
 * tools and the MCP servers; ST_OK unless the store or a server fails. */
static int
run_tools(struct llm_session *s, const struct llm_result *r, struct err *e)
{
	struct llm_tool_result *res = xcalloc(r->ncalls, sizeof *res);
	char **texts = xcalloc(r->ncalls, sizeof *texts);
	struct llm_image **imgs = xcalloc(r->ncalls, sizeof *imgs);
	int rc = ST_OK;
	for (size_t i = 0; i < r->ncalls && !rc; i++) {
		const char *tool = llm_tool_name(s->names, r->calls[i].name);
		/* A tool held back by --mcp-allow is not offered, but known. */
		if (!tool && cJSON_GetObjectItemCaseSensitive(s->mcp_map, r->calls[i].name))
			tool = r->calls[i].name;
		const cJSON *where = tool ? cJSON_GetObjectItemCaseSensitive(s->mcp_map, tool) : NULL;
		cJSON *args = cJSON_Parse(r->calls[i].args);
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if ((long)i >= s->max_calls) {
			/* A model that asks for thousands at once gets the first few. */
			texts[i] = xasprintf("Refused: at most %ld tool calls are answered in one round "
			    "(agent_max_calls); make this one again in a later round.", s->max_calls);
			res[i].is_error = 1;
		} else if (!tool) {
			texts[i] = xasprintf("Unknown tool '%s'.", r->calls[i].name);
			res[i].is_error = 1;
		} else if (!cJSON_IsObject(args)) {
			texts[i] = xasprintf("The arguments of '%s' are not a JSON object.", r->calls[i].name);
			res[i].is_error = 1;
		} else if (where) {
			rc = call_mcp(s, where, tool, args, &res[i], &imgs[i], &texts[i], e);
		} else if (s->report_outcome && strcmp(tool, "report_outcome") == 0) {
			texts[i] = call_outcome(s, args, &res[i].is_error);
		} else if (s->tl) {
			rc = tools_call(s->tl, tool, args, &texts[i], &res[i].is_error, e);
		} else {
			texts[i] = xasprintf("Unknown tool '%s'.", r->calls[i].name);
			res[i].is_error = 1;
		}
		/* Before the model, the record and the screen see it. */
		scrub_in_place(&s->secrets, &texts[i]);
		double ms = since_ms(&t0);
		const char *server = where ? mcpc_name(s->mcp[(size_t)cJSON_GetArrayItem(where, 0)->valuedouble])
		    : NULL;
		const char *name = where ? cJSON_GetArrayItem(where, 1)->valuestring : tool ? tool
		    : r->calls[i].name;
		log_call(s, server, name, r->calls[i].args, texts[i], res[i].is_error, ms, rc ? e->msg : NULL);
		res[i].text = texts[i];
		cJSON_Delete(args);
	}
	if (!rc)
		llm_msg_tool_results(s->lc.provider, s->messages, r, res);
	for (size_t i = 0; i < r->ncalls; i++) {
		free(texts[i]);
		mcpc_images_free(imgs[i], res[i].nimg);
	}
	free(texts);
	free(imgs);
	free(res);
	return rc;
}

char *
llm_session_call_log(const struct llm_session *s)
{
	return s->call_log ? cJSON_PrintUnformatted(s->call_log) : NULL;
}

/* Is a further request past one of lim's bounds?  The message says so. */
static int
past_limit(const struct llm_limits *lim, int request, long in, long out, struct err *e)
{
	long used = (in > 0 ? in : 0) + (out > 0 ? out : 0);
	if (lim->max_tokens > 0 && used >= lim->max_tokens)
		return err_set(e, ST_ERR, "stopped before model request %d: the conversation used %ld"
		    " tokens, its bound is %ld (--max-run-tokens)", request, used, lim->max_tokens);
	if (lim->left_tokens >= 0 && (double)used >= lim->left_tokens)
		return err_set(e, ST_ERR, "stopped before model request %d: the run's budget is spent"
		    " (%ld tokens used, %.0f were left)", request, used, lim->left_tokens);
	double cost = lim->priced ? price_cost(lim->price_in, lim->price_out, in, out) : 0;
	if (lim->left_dollars >= 0 && lim->priced && cost >= lim->left_dollars) {
		char used_s[32], left_s[32];
		money_fmt(cost, used_s, sizeof used_s);
		money_fmt(lim->left_dollars, left_s, sizeof left_s);
		return err_set(e, ST_ERR, "stopped before model request %d: the run's budget is spent"
		    " (%s used, %s was left)", request, used_s, left_s);
	}
	return ST_OK;
}

int
llm_session_run(struct llm_session *s, struct llm *l, const struct llm_limits *lim,
    struct llm_result *r, struct err *e)
{
	long in_total = -1, out_total = -1;
	int rc, max_rounds = lim->max_rounds;
	for (int round = 0;; round++) {
		llm_result_free(r);
		e->msg[0] = 0;
		if ((rc = past_deadline(s, ST_OK, e)) ||
		    (rc = past_limit(lim, round + 1, in_total, out_total, e)))
			break;
		if ((rc = llm_send(l, s->messages, s->tools, r, e))) {
			rc = past_deadline(s, rc, e);
			break;
		}
		if (r->input_tokens >= 0)
			in_total = (in_total > 0 ? in_total : 0) + r->input_tokens;
		if (r->output_tokens >= 0)
			out_total = (out_total > 0 ? out_total : 0) + r->output_tokens;
		if (s->on_reply)
			s->on_reply(r, s->on_reply_arg);
		if (!s->tools || !r->ncalls)
			break;
		if (round >= max_rounds) {
			rc = err_set(e, ST_ERR, "the model still calls tools after %d rounds (--max-rounds)",
			    max_rounds);
			break;
		}
		s->tool_calls += (int)r->ncalls;
		llm_msg_assistant(s->lc.provider, s->messages, r);
		rc = run_tools(s, r, e);
		/* Whatever the server made of the "no", the run waits for a person. */
		if (s->asked) {
			rc = ST_OK;
			break;
		}
		if (rc) {
			rc = past_deadline(s, rc, e);
			break;
		}
	}
	r->input_tokens = in_total;
	r->output_tokens = out_total;
	return rc;
}

void
llm_session_free(struct llm_session *s)
{
	for (size_t i = 0; s->atts && i < s->natts; i++)
		llm_attach_free(&s->atts[i]);
	free(s->atts);
	free(s->imgs);
	buf_free(&s->text);
	cJSON_Delete(s->messages);
	tools_close(s->tl);
	for (size_t i = 0; i < s->nmcp; i++)
		mcpc_close(s->mcp[i]);
	free(s->mcp);
	mcpc_config_free(s->mcp_cfg);
	cJSON_Delete(s->mcp_map);
	cJSON_Delete(s->offered);
	cJSON_Delete(s->call_log);
	cJSON_Delete(s->tools);
	cJSON_Delete(s->names);
	cJSON_Delete(s->env_attach);
	cJSON_Delete(s->options);
	cJSON_Delete(s->history);
	cJSON_Delete(s->replay);
	free(s->scoped_context);
	free(s->outcome_summary);
	str_words_free(s->rules.dirs, s->rules.ndirs);
	str_words_free(s->rules.allow, s->rules.nallow);
	http_free(s->http);
	free(s->attach);
	if (s->key) {
		explicit_bzero(s->key, strlen(s->key));
		free(s->key);
	}
	scrub_free(&s->secrets);
	memset(s, 0, sizeof *s);
}
