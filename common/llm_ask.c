/* One llm-call from its options to its record (llm_ask.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "config.h"
#include "exec.h"
#include "http.h"
#include "llm_ask.h"
#include "llm_input.h"
#include "llm_request.h"
#include "mcp_client.h"
#include "outcome.h"
#include "proc.h"
#include "spend.h"
#include "store.h"
#include "task.h"
#include "utf8.h"

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Each piece is a whole string of the provider's JSON, so making it valid
 * UTF-8 on its own (the caller's part) never splits a character. */
static void
stream_text(const char *text, size_t n, void *arg)
{
	struct llm_ask *k = arg;
	struct buf out = {0};
	scrub_stream_put(&k->ss, text, n, &out);
	if (out.len)
		k->on_text(out.data, out.len, k->arg);
	buf_free(&out);
}

void
llm_ask_stream_end(struct llm_ask *k, struct buf *out)
{
	scrub_stream_end(&k->ss, out);
}

/* For tests (LLM_CALL_TEST_WAITS=FILE): each wait between attempts is
 * added to FILE as a line, in ms, instead of waited. */
static void
wait_logged(long ms, void *arg)
{
	FILE *f = fopen(arg, "a");
	if (f) {
		fprintf(f, "%ld\n", ms);
		fclose(f);
	}
}

static long
elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)((t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000);
}

void
llm_ask_init(struct llm_ask *k, int argc)
{
	*k = (struct llm_ask){.cost = -1, .o = {.s = {.retries = -1}, .stream = -1,
		.lim = {.max_rounds = LLM_DEFAULT_ROUNDS, .left_dollars = -1, .left_tokens = -1}}};
	k->o.s.options = cJSON_CreateObject();
	k->o.s.attach = xcalloc((size_t)argc + 1, sizeof *k->o.s.attach);
	k->o.fallback = xcalloc((size_t)argc + 1, sizeof *k->o.fallback);
}

/* The model's price and what the run's budget leaves.  A price line that
 * does not read fails every run alike: EXEC_EXIT_PERMANENT. */
static int
limits_set(struct llm_ask *k, struct err *e)
{
	struct llm_limits *lim = &k->o.lim;
	const char *left = env(SPEND_LEFT_ENV);
	if (left && spend_left_parse(left, &lim->left_dollars, &lim->left_tokens))
		return err_set(e, ST_INVALID, "bad %s '%.40s': expected what the run may still spend in"
		    " dollars ($0.37), tokens (12000) or both ($0.37,12000)", SPEND_LEFT_ENV, left);
	int priced = price_of(k->cf, k->o.s.lc.model, &lim->price_in, &lim->price_out, e);
	if (priced < 0)
		return EXEC_EXIT_PERMANENT;
	lim->priced = priced;
	return ST_OK;
}

/* Each request's spend into the ledger as its answer arrives, so budgets
 * count it while the call goes on, and count it though the call is then
 * killed, fenced or replaced before its record is written.  A write that
 * fails is left to the record, which adds what the ledger lacks. */
static void
spend_now(const struct llm_result *r, void *arg)
{
	struct llm_ask *k = arg;
	const struct llm_limits *lim = &k->o.lim;
	double pin = lim->price_in, pout = lim->price_out, dollars = 0;
	struct err e;
	long long tokens = (r->input_tokens > 0 ? r->input_tokens : 0) +
	    (r->output_tokens > 0 ? r->output_tokens : 0);
	if (lim->priced || price_of(k->cf, r->model, &pin, &pout, &e) > 0)
		dollars = price_cost(pin, pout, r->input_tokens, r->output_tokens);
	if (dollars < 0)
		dollars = 0;
	if ((tokens || dollars > 0) && store_spend_add(k->st, env("TASK_ID"), env("TASK_RUN_ID"),
	    k->now, dollars, tokens, &e) == ST_OK) {
		k->ledger_dollars += dollars;
		k->ledger_tokens += tokens;
	}
}

/* In a run, the MCP servers and tool patterns its tools may give tasks
 * (agent.h: TASK_MCP, TASK_MCP_ALLOW, also for the servers started here)
 * are those this call has: --mcp and --mcp-allow of the executor line
 * replace the task's, so a line that narrows them narrows what the
 * run's agent may hand on. */
static int
run_grants(const struct llm_options *o, struct err *e)
{
	if (!env("TASK_RUN_ID"))
		return ST_OK;
	if ((o->mcp.len && setenv("TASK_MCP", o->mcp.data, 1) != 0) ||
	    (o->allow.len && setenv("TASK_MCP_ALLOW", o->allow.data, 1) != 0))
		return err_set(e, ST_ERR, "cannot set the run's MCP grants: %s", strerror(errno));
	return ST_OK;
}

/* An agent's task uses MCP servers only as the config lets agents give
 * them now, or as the task whose run made it grants them now (agent.h),
 * which does not change between attempts. */
static int
held(struct llm_ask *k, const char *mcp, const char *allow, struct err *e)
{
	const char *origin = env("TASK_ORIGIN"), *id = env("TASK_ID");
	struct task t;
	int rc;
	if (!origin || strcmp(origin, "agent") != 0 || !id || !mcp || !*mcp)
		return ST_OK;
	if (!k->st && (rc = store_open(NULL, STORE_LOG, &k->st, e)))
		return rc;
	if ((rc = store_task_get(k->st, id, &t, e)))
		return rc == ST_NOTFOUND ? EXEC_EXIT_PERMANENT : rc;
	rc = agent_check_held(k->cf, &t, mcp, e);
	if (!rc)
		rc = agent_check_granted(k->st, k->cf, &t, mcp, allow, e);
	task_free(&t);
	return rc ? EXEC_EXIT_PERMANENT : ST_OK;
}

int
llm_ask_prepare(struct llm_ask *k, int argc, char **argv, struct err *e)
{
	struct llm_options *o = &k->o;
	struct llm_config *lc = &o->s.lc;
	int rc;
	if ((rc = llm_session_env(&o->s, e)) || (rc = llm_input_prompt(argc, argv, &k->prompt, e)) ||
	    (rc = now_get(&k->now, e)))
		return rc;
	/* The config and the key are in memory from here: no core dump and
	 * no ptrace by another process of the user holds them. */
	struct rlimit no_core = {0, 0};
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || setrlimit(RLIMIT_CORE, &no_core) != 0)
		return err_set(e, ST_ERR, "cannot keep the key out of core dumps: %s", strerror(errno));
	if ((rc = config_load(&k->cf, e)))
		return rc == ST_INVALID ? EXEC_EXIT_PERMANENT : rc;
	/* A replay (task-run --replay) sends a recorded request again: its
	 * prompt replaces the one on standard input. */
	const char *replay = env("TASK_REPLAY_FILE");
	if (replay && (rc = llm_input_replay(replay, k->cf, &o->s, &k->prompt, &o->stream, e)))
		return rc == ST_INVALID ? EXEC_EXIT_PERMANENT : rc;
	if ((rc = llm_session_resolve(&o->s, k->cf, e)))
		return rc == ST_INVALID ? EXEC_EXIT_PERMANENT : rc;
	if ((rc = limits_set(k, e)))
		return rc;
	char where[PATH_MAX];
	struct err we;
	scrub_load(&k->scrub, k->cf, env("TASK_DB") ? env("TASK_DB") : store_where(where, sizeof where,
	    &we) == ST_OK ? where : NULL, o->s.key_file);
	scrub_add(&k->scrub, o->s.key);
	scrub_stream_init(&k->ss, &k->scrub);
	if (env("LLM_CALL_TEST_WAITS")) {
		lc->wait = wait_logged;
		lc->wait_arg = (void *)env("LLM_CALL_TEST_WAITS");
	}
	lc->stream = o->stream >= 0 ? o->stream : !o->json && isatty(1);
	if (lc->stream && !o->json && k->on_text) {
		lc->on_text = stream_text;
		lc->arg = k;
	}
	if (!replay && (rc = llm_session_message(&o->s, k->prompt.data, e)))
		return rc;
	if ((o->s.context || o->tools || !o->no_log) && (rc = store_open(NULL, STORE_LOG, &k->st, e)))
		return rc;
	if (!o->no_log) {
		o->s.on_reply = spend_now;
		o->s.on_reply_arg = k;
	}
	const char *mcp = o->mcp.len ? o->mcp.data : env("TASK_MCP");
	const char *allow = o->allow.len ? o->allow.data : env("TASK_MCP_ALLOW");
	if ((rc = run_grants(o, e)) || (rc = held(k, mcp, allow, e)))
		return rc;
	if ((!replay && (rc = llm_session_conversation(&o->s, k->st, e))) ||
	    (o->tools && (rc = llm_session_tools(&o->s, k->st, o->tools, e))))
		return rc;
	/* A task's server that mcp.json does not name (TASK_MCP, no flag)
	 * fails every run alike: not worth a retry. */
	if (mcp && (rc = llm_session_mcp(&o->s, mcp, allow, e)))
		return rc == ST_INVALID && !o->mcp.len ? EXEC_EXIT_PERMANENT : rc;
	/* A scheduled run may say what it achieved, beside its answer. */
	if (env(OUTCOME_ENV))
		llm_session_outcome_tool(&o->s);
	if (replay && (rc = llm_request_conversation(&o->s, e)))
		return rc == ST_INVALID ? EXEC_EXIT_PERMANENT : rc;
	return llm_new(lc, &k->l, e);
}

static int
tried(const struct llm_ask *k, const char *model)
{
	size_t n = strlen(model);
	for (const char *p = k->tried; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		if (strcspn(p, ",") == n && strncmp(p, model, n) == 0)
			return 1;
	return 0;
}

/* The model to ask after `model` was refused as gone, or NULL: the next
 * --fallback-model, else the next of TASK_FALLBACK_MODELS, else the
 * config's fallback.MODEL; never one asked already (a loop of them). */
static const char *
next_fallback(struct llm_ask *k, const char *model, char *buf, size_t n)
{
	struct llm_options *o = &k->o;
	for (size_t i = 0; i < o->nfallback; i++)
		if (!tried(k, o->fallback[i]))
			return o->fallback[i];
	if (o->nfallback)
		return NULL;
	const char *list = env("TASK_FALLBACK_MODELS");
	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0)) {
		size_t len = strcspn(p, ",");
		snprintf(buf, n, "%.*s", (int)len, p);
		if (*buf && !tried(k, buf))
			return buf;
	}
	if (list)
		return NULL;
	char key[300];
	snprintf(key, sizeof key, "fallback.%s", model);
	const char *next = config_get(k->cf, key);
	return next && *next && !tried(k, next) ? next : NULL;
}

int
llm_ask_run(struct llm_ask *k, struct err *e)
{
	/* Latency is the model's part: from the first request to the answer. */
	clock_gettime(CLOCK_MONOTONIC, &k->t0);
	k->called = 1;
	struct llm_config *lc = &k->o.s.lc;
	int rc;
	char buf[256];
	for (;;) {
		rc = llm_session_run(&k->o.s, k->l, &k->o.lim, &k->r, e);
		if (!rc || !k->r.model_gone)
			break;
		char *was = k->tried;
		k->tried = xasprintf("%s%s%s", was ? was : "", was ? "," : "", lc->model);
		free(was);
		const char *next = next_fallback(k, lc->model, buf, sizeof buf);
		if (!next) {
			char why[sizeof e->msg];
			snprintf(why, sizeof why, "%s", e->msg);
			err_set(e, ST_ERR, "the model '%.200s' does not exist or was retired; give"
			    " --fallback-model, or fallback.%.200s in the config (%.500s)", lc->model,
			    lc->model, why);
			rc = EXEC_EXIT_PERMANENT;
			break;
		}
		if (k->on_fallback)
			k->on_fallback(lc->model, next, k->arg);
		if (!k->fallback_from)
			k->fallback_from = xstrdup(lc->model);
		free(k->model_own);
		lc->model = k->model_own = xstrdup(next);
		struct err pe;
		int priced = price_of(k->cf, lc->model, &k->o.lim.price_in, &k->o.lim.price_out, &pe);
		k->o.lim.priced = priced > 0;
	}
	k->latency = elapsed_ms(&k->t0);
	if (rc)
		return rc == EXEC_EXIT_PERMANENT || llm_status_permanent(k->r.http_status)
		    ? EXEC_EXIT_PERMANENT : rc;
	k->answered = 1;
	/* Printed, recorded and remembered as text. */
	const char *got = k->r.text ? k->r.text : "";
	char *text = utf8_clean(got, strlen(got));
	free(k->r.text);
	k->r.text = text;
	scrub_in_place(&k->scrub, &k->r.text);
	/* Nothing said is no success; an outcome the run reported (other
	 * than done) carries its own status. */
	int said = k->o.s.outcome > OUTCOME_DONE;
	if (!said && !k->r.text[strspn(k->r.text, " \t\r\n")]) {
		k->answered = 0;
		return err_set(e, ST_ERR, "the model gave an empty answer (finish reason: %.40s)",
		    k->r.finish_reason ? k->r.finish_reason : "none given");
	}
	return ST_OK;
}

/* One transaction, one sync of the store per call. */
int
llm_ask_record(struct llm_ask *k, int rc, struct err *e)
{
	struct llm_options *o = &k->o;
	const struct llm_config *lc = &o->s.lc;
	/* The price of the model asked for, else of the one that answered. */
	const struct llm_limits *lim = &o->lim;
	double pin = lim->price_in, pout = lim->price_out;
	struct err pe;
	if (k->called && (lim->priced || price_of(k->cf, k->r.model, &pin, &pout, &pe) > 0))
		k->cost = price_cost(pin, pout, k->r.input_tokens, k->r.output_tokens);
	if (!k->called || !k->st)
		return rc;
	struct err re = {""};
	char *tool_log = llm_session_call_log(&o->s);
	/* What the record keeps, without the secrets: the prompt may quote
	 * a file, a tool's result may be the config. */
	char *prompt = scrub_text(&k->scrub, k->prompt.data, k->prompt.len);
	char *system = o->s.system ? scrub_text(&k->scrub, o->s.system, strlen(o->s.system)) : NULL;
	char *said = scrub_text(&k->scrub, o->s.text.data, o->s.text.len);
	scrub_in_place(&k->scrub, &tool_log);
	if (rc) {
		char *msg = scrub_text(&k->scrub, e->msg, strlen(e->msg));
		snprintf(e->msg, sizeof e->msg, "%s", msg);
		free(msg);
	}
	/* The provider's word, untrusted: text of a bounded length. */
	char *answered = k->r.model ? utf8_clean(k->r.model, strnlen(k->r.model, 200)) : NULL;
	char *request = llm_request_save(&o->s, k->prompt.data);
	scrub_json_in_place(&k->scrub, &request);
	/* Tokens count also when the call failed: they were spent. */
	struct llm_call rec = {
		.run_id = (char *)env("TASK_RUN_ID"), .task_id = (char *)env("TASK_ID"),
		.context = (char *)o->s.context, .provider = (char *)llm_provider_name(lc->provider),
		.model = (char *)lc->model, .answered_model = answered,
		.fallback_from = k->fallback_from, .system_prompt = system, .prompt = prompt,
		.answer = rc ? NULL : k->r.text, .input_tokens = k->r.input_tokens,
		.output_tokens = k->r.output_tokens,
		.cost = k->cost,
		.finish_reason = rc ? NULL : k->r.finish_reason,
		.duration_ms = k->answered ? k->latency : elapsed_ms(&k->t0), .error = rc ? e->msg : NULL,
		.created_at = k->now, .tool_calls = tool_log, .request = request,
		.ledger_dollars = k->ledger_dollars, .ledger_tokens = k->ledger_tokens,
	};
	int wrc = store_begin(k->st, &re);
	if (!wrc && !rc && o->s.context)
		wrc = store_history_append(k->st, o->s.context, said, k->r.text, rec.run_id,
		    k->now, &re);
	if (!wrc && !o->no_log)
		wrc = store_call_add(k->st, &rec, &re);
	if (!wrc)
		wrc = store_commit(k->st, &re);
	else
		store_rollback(k->st);
	free(tool_log);
	free(request);
	free(prompt);
	free(system);
	free(said);
	free(answered);
	k->id = rec.id;
	if (wrc && !rc)
		return err_set(e, ST_ERR, "cannot record the call: %.400s", re.msg);
	return rc;
}

int
llm_ask_list_tools(struct llm_ask *k, struct err *e)
{
	struct llm_options *o = &k->o;
	const char *mcp = o->mcp.len ? o->mcp.data : env("TASK_MCP");
	const char *allow = o->allow.len ? o->allow.data : env("TASK_MCP_ALLOW");
	int rc;
	if (!mcp || !*mcp)
		return err_set(e, ST_INVALID, "--list-tools lists the tools of MCP servers: give --mcp NAME");
	if ((rc = http_new(&k->o.s.http, e)))
		return rc;
	return llm_session_mcp(&o->s, mcp, allow, e);
}

void
llm_ask_free(struct llm_ask *k)
{
	llm_result_free(&k->r);
	buf_free(&k->o.mcp);
	buf_free(&k->o.allow);
	llm_free(k->l);
	llm_session_free(&k->o.s);  /* the tools before the store they use */
	free(k->o.fallback);
	free(k->fallback_from);
	free(k->tried);
	free(k->model_own);
	/* What a stdio MCP server started, even in a session of its own, and
	 * left behind. */
	if (k->reaper)
		proc_end_children(MCPC_GRACE_MS);
	store_close(k->st);
	config_free(k->cf);
	scrub_free(&k->scrub);
	buf_free(&k->prompt);
}
