/* llm-call: send a prompt to a model and print the answer.
 *
 * The prompt comes from the arguments, else standard input (task-tick's
 * way).  Settings come from flags, then the environment (TASK_* from
 * task-tick, the providers' own *_API_KEY and *_BASE_URL), then the config
 * file, so a job started by cron with an almost empty environment still
 * finds its key.  Keys are only ever put in request headers.  Every call is
 * recorded in the store; with --context the conversation's earlier messages
 * are sent along and this exchange is added to them.  With --tools the
 * model may call the scheduler's own tools, with --mcp (else TASK_MCP) the
 * tools of MCP servers, in rounds, until it answers; every tool call goes
 * into the record.  A conversation is bounded by --max-rounds,
 * --max-run-tokens and what the run's budget leaves (TASK_BUDGET_LEFT,
 * from task-tick): each is checked before each request.  The record has
 * the call's cost at the model's configured price, the model asked for
 * and the one the provider says answered.  A model the provider says is
 * gone (llm_model_gone) is replaced by its fallback (--fallback-model,
 * else TASK_FALLBACK_MODELS, else the config's fallback.MODEL) and asked
 * again; with none left the call fails for good, naming the model. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "exec.h"
#include "http.h"
#include "llm.h"
#include "llm_answer.h"
#include "llm_input.h"
#include "llm_request.h"
#include "llm_options.h"
#include "llm_session.h"
#include "mcp_client.h"
#include "opt.h"
#include "outcome.h"
#include "proc.h"
#include "scrub.h"
#include "prog.h"
#include "spend.h"
#include "store.h"
#include "task_json.h"
#include "utf8.h"
#include "util.h"


/* What streaming output needs to end on a newline. */
struct sink {
	char last;
	int any;
	struct scrub_stream ss;     /* the answer's text, without the secrets */
};

static const char *prog = "llm-call";

static int
fail(int status, const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	return status;
}

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Each piece is a whole string of the provider's JSON, so making it valid
 * UTF-8 on its own never splits a character. */
static void
on_text(const char *text, size_t n, void *arg)
{
	struct sink *s = arg;
	struct buf out = {0};
	scrub_stream_put(&s->ss, text, n, &out);
	if (out.len) {
		char *shown = utf8_clean(out.data, out.len);
		fputs(shown, stdout);
		fflush(stdout);
		free(shown);
		s->last = out.data[out.len - 1];
		s->any = 1;
	}
	buf_free(&out);
}

/* What the stream held back, in case it began a secret. */
static void
sink_end(struct sink *s)
{
	struct buf out = {0};
	scrub_stream_end(&s->ss, &out);
	if (out.len) {
		char *shown = utf8_clean(out.data, out.len);
		fputs(shown, stdout);
		free(shown);
		s->last = out.data[out.len - 1];
		s->any = 1;
	}
	buf_free(&out);
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

static void
print_json(const struct llm_session *s, const struct llm_result *r, long latency, long long id,
    double cost, const char *fallback_from)
{
	cJSON *j = llm_answer_json(s, r, latency, id, cost, fallback_from);
	char *out = json_print_line(j);
	puts(out);
	free(out);
	cJSON_Delete(j);
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: llm-call [-s SYSTEM] [-m MODEL] [-a FILE|URL]... [-o KEY=VALUE]...\n"
	    "                [--provider openai|anthropic|echo] [--base-url URL] [--key-file FILE]\n"
	    "                [--context NAME] [--tools[=PROFILES]] [--mcp NAME]... [--mcp-allow GLOB]...\n"
	    "                [--mcp-timeout SECONDS] [--max-rounds N] [--max-run-tokens N] [--json]\n"
	    "                [--stream | --no-stream] [--timeout SECONDS] [--connect-timeout SECONDS]\n"
	    "                [--deadline SECONDS] [--retries N] [--fallback-model MODEL]... [-n]\n"
	    "                [PROMPT ...]\n"
	    "       llm-call --mcp NAME... [--mcp-allow GLOB]... --list-tools\n"
	    "Send PROMPT (else standard input) to a model and print the answer.\n"
	    "  -s, --system TEXT        system prompt (default $TASK_SYSTEM_PROMPT)\n"
	    "  -m, --model NAME         model (default $TASK_MODEL, config, %s or %s)\n"
	    "  -a, --attach FILE|URL    text file, image (PNG, JPEG, GIF, WebP) or URL; repeatable\n"
	    "  -o, --option KEY=VALUE   request field such as temperature=0.2 or max_tokens=500\n"
	    "  -p, --provider NAME      openai, anthropic, or echo (local, no key) (default: from\n"
	    "                           the model name)\n"
	    "      --base-url URL       provider URL (default $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL)\n"
	    "      --key-file FILE      read the API key from FILE (mode 600)\n"
	    "  -c, --context NAME       continue the named conversation (default $TASK_CONTEXT)\n"
	    "      --tools[=PROFILES]   let the model use the scheduler tools (native,kai,...)\n"
	    "      --mcp NAME           offer the tools of MCP server NAME of mcp.json, or all;\n"
	    "                           repeatable (default $TASK_MCP)\n"
	    "      --mcp-allow GLOB     only the MCP tools whose mcp__SERVER__TOOL name matches;\n"
	    "                           repeatable (default $TASK_MCP_ALLOW)\n"
	    "      --mcp-timeout SECONDS  for each MCP request (default 60)\n"
	    "      --list-tools         print the tools of the --mcp servers (names that\n"
	    "                           --mcp-allow matches) and their descriptions; no call\n"
	    "      --max-rounds N       tool-call rounds before giving up (default %d)\n"
	    "      --max-run-tokens N   stop before a request once the conversation used N tokens\n"
	    "      --json               print one JSON object with answer, model, usage, latency\n"
	    "      --stream, --no-stream  print the answer as it arrives (default on a terminal)\n"
	    "      --timeout SECONDS    for each attempt (default 300)\n"
	    "      --deadline SECONDS   for the whole call, every attempt, wait and tool round\n"
	    "                           (default: in a run, its timeout less a margin; else %d)\n"
	    "      --connect-timeout SECONDS  (default 10)\n"
	    "      --retries N          further attempts on 429, 5xx and network errors (default %d)\n"
	    "      --fallback-model MODEL  asked instead when the provider says the model does\n"
	    "                           not exist or is retired; repeatable, in order (default\n"
	    "                           $TASK_FALLBACK_MODELS, else the config's fallback.MODEL)\n"
	    "  -n, --no-log             do not record the call in the store\n"
	    "A run's budget: what is left in $TASK_BUDGET_LEFT (task-tick sets it).\n"
	    "Keys: OPENAI_API_KEY, ANTHROPIC_API_KEY or the config file %s.\n",
	    LLM_OPENAI_MODEL, LLM_ANTHROPIC_MODEL, LLM_DEFAULT_ROUNDS, LLM_SESSION_DEADLINE, LLM_SESSION_RETRIES,
	    "$XDG_CONFIG_HOME/agentcron/config");
}

/* Options into o.  Returns ST_OK to go on, -1 when done (--help,
 * --version), else the exit status, the message printed. */
static int
parse_options(int argc, char **argv, struct llm_options *o)
{
	struct err e = {""};
	int rc = llm_options_parse(argc, argv, o, &e);
	switch (rc) {
	case LLM_OPTIONS_HELP: usage(stdout); return -1;
	case LLM_OPTIONS_VERSION: printf("llm-call (agentcron) %s\n", AC_VERSION); return -1;
	case LLM_OPTIONS_USAGE: return usage_error(prog, "%s", e.msg);
	}
	return rc ? fail(rc, e.msg) : ST_OK;
}

/* One call from its options to its answer, and what it leaves behind. */
struct call {
	struct llm_options o;
	struct config *cf;
	struct store *st;
	struct llm *l;
	struct buf prompt;
	struct llm_result r;
	struct sink sink;
	struct scrub scrub;         /* the secrets kept out of what is printed and stored */
	struct timespec t0;
	int64_t now;
	int called, answered;
	char *fallback_from;        /* the model asked first, refused as gone */
	char *tried;                /* the models asked so far, comma-separated */
	char *model_own;            /* the fallback asked, which lc.model points to */
	long latency;
	long long id;               /* the record's */
	double cost;                /* dollars, -1: no price */
	double ledger_dollars;      /* what the requests wrote to the spend ledger */
	long long ledger_tokens;
};

/* The model's price and what the run's budget leaves.  A price line that
 * does not read fails every run alike: EXEC_EXIT_PERMANENT. */
static int
limits_set(struct call *k, struct err *e)
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
	struct call *k = arg;
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

/* Everything before the first request: settings, the prompt, the store,
 * the conversation, tools and MCP servers.  A setting that cannot work
 * (no key, a config or key file that cannot be used) is EXEC_EXIT_PERMANENT:
 * a scheduled run would fail the same way every time. */
static int
prepare(struct call *k, int argc, char **argv, struct err *e)
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
	scrub_stream_init(&k->sink.ss, &k->scrub);
	if (env("LLM_CALL_TEST_WAITS")) {
		lc->wait = wait_logged;
		lc->wait_arg = (void *)env("LLM_CALL_TEST_WAITS");
	}
	lc->stream = o->stream >= 0 ? o->stream : !o->json && isatty(1);
	if (lc->stream && !o->json) {
		lc->on_text = on_text;
		lc->arg = &k->sink;
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
tried(const struct call *k, const char *model)
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
next_fallback(struct call *k, const char *model, char *buf, size_t n)
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

/* The requests, until the model answers.  A reply that no retry can
 * change (llm_status_permanent) is EXEC_EXIT_PERMANENT; so is a model the
 * provider says is gone when no fallback is left. */
static int
ask(struct call *k, struct err *e)
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
		fprintf(stderr, "%s: the model '%s' does not exist or was retired; asking '%s'\n",
		    prog, lc->model, next);
		if (!k->fallback_from)
			k->fallback_from = xstrdup(lc->model);
		free(k->model_own);
		lc->model = k->model_own = xstrdup(next);
		struct err pe;
		int priced = price_of(k->cf, lc->model, &k->o.lim.price_in, &k->o.lim.price_out, &pe);
		k->o.lim.priced = priced > 0;
	}
	k->latency = elapsed_ms(&k->t0);
	if (k->o.s.lc.on_text)
		sink_end(&k->sink);
	if (k->sink.any && k->sink.last != '\n')
		putchar('\n');
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

/* The call into the store, and the exchange into its context: one
 * transaction, one sync of the store per call. */
static int
record(struct call *k, int rc, struct err *e)
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

/* --list-tools: the tools the MCP servers offer, as the model would get
 * them (--mcp-allow applied), a line each: the name --mcp-allow patterns
 * match, then the description's first line.  No key, prompt or store. */
static int
list_mcp_tools(struct call *k, struct err *e)
{
	struct llm_options *o = &k->o;
	const char *mcp = o->mcp.len ? o->mcp.data : env("TASK_MCP");
	const char *allow = o->allow.len ? o->allow.data : env("TASK_MCP_ALLOW");
	int rc;
	if (!mcp || !*mcp)
		return err_set(e, ST_INVALID, "--list-tools lists the tools of MCP servers: give --mcp NAME");
	if ((rc = http_new(&o->s.http, e)) || (rc = llm_session_mcp(&o->s, mcp, allow, e)))
		return rc;
	const cJSON *t;
	cJSON_ArrayForEach(t, o->s.offered) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
		const char *desc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "description"));
		char *line = utf8_clean(desc ? desc : "", desc ? strcspn(desc, "\n") : 0);
		printf("%s\t%s\n", name ? name : "?", line);
		free(line);
	}
	return ST_OK;
}

/* What the run reported beyond its answer: into TASK_OUTCOME_FILE for
 * the scheduler; blocked and failed also said on stderr and in the exit
 * status, for a person or a script that runs llm-call itself. */
static int
outcome_end(struct call *k, struct err *e)
{
	const struct llm_session *s = &k->o.s;
	int rc;
	if (s->outcome == OUTCOME_NONE)
		return ST_OK;
	if (env(OUTCOME_ENV) && (rc = outcome_file_write(env(OUTCOME_ENV), s->outcome,
	    s->outcome_summary, e)))
		return fail(rc, e->msg);
	if (s->outcome != OUTCOME_BLOCKED && s->outcome != OUTCOME_FAILED)
		return ST_OK;
	fprintf(stderr, "%s: %s%s%s\n", prog, outcome_name(s->outcome), s->outcome_summary ? ": " : "",
	    s->outcome_summary ? s->outcome_summary : "");
	return ST_ERR;
}

/* The answer, unless it was streamed as it came. */
static void
print_answer(struct call *k)
{
	if (k->answered && !k->o.s.lc.on_text) {
		if (k->o.json) {
			print_json(&k->o.s, &k->r, k->latency, k->id, k->cost, k->fallback_from);
		} else {
			size_t n = strlen(k->r.text);
			/* Blocked before the model said anything: nothing to print. */
			if (!n && k->o.s.outcome > OUTCOME_DONE)
				return;
			fwrite(k->r.text, 1, n, stdout);
			if (!n || k->r.text[n - 1] != '\n')
				putchar('\n');
		}
	}
}

static int
llm_call(int argc, char **argv)
{
	struct call k = {.cost = -1, .o = {.s = {.retries = -1}, .stream = -1,
		.lim = {.max_rounds = LLM_DEFAULT_ROUNDS, .left_dollars = -1, .left_tokens = -1}}};
	struct err e = {""};
	k.o.s.options = cJSON_CreateObject();
	k.o.s.attach = xcalloc((size_t)argc + 1, sizeof *k.o.s.attach);
	k.o.fallback = xcalloc((size_t)argc + 1, sizeof *k.o.fallback);
	int rc = parse_options(argc, argv, &k.o);
	/* What a stdio MCP server starts, even in a session of its own, is
	 * ours to end: it is reparented here when the server goes. */
	int reaper = rc == ST_OK && (k.o.mcp.len || env("TASK_MCP")) && proc_subreaper() == 0;
	if (rc == ST_OK) {
		/* A server that dies while it is written to is an error to
		 * report, not a reason to die. */
		signal(SIGPIPE, SIG_IGN);
		if (k.o.list_tools) {
			if ((rc = list_mcp_tools(&k, &e)))
				fail(rc, e.msg);
			goto done;
		}
		rc = prepare(&k, argc - optind, argv + optind, &e);
		if (!rc)
			rc = ask(&k, &e);
		rc = record(&k, rc, &e);
		/* Printed even when recording failed: the answer is not lost. */
		print_answer(&k);
		if (rc)
			fail(rc, e.msg);
		else
			rc = outcome_end(&k, &e);
	}
done:
	llm_result_free(&k.r);
	buf_free(&k.o.mcp);
	buf_free(&k.o.allow);
	llm_free(k.l);
	llm_session_free(&k.o.s);   /* the tools before the store they use */
	free(k.o.fallback);
	free(k.fallback_from);
	free(k.tried);
	free(k.model_own);
	if (reaper)
		proc_end_children(MCPC_GRACE_MS);
	store_close(k.st);
	config_free(k.cf);
	scrub_free(&k.scrub);
	buf_free(&k.prompt);
	return rc < 0 ? 0 : rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : llm_call(argc, argv));
}
