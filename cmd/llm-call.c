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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "llm_answer.h"
#include "llm_ask.h"
#include "outcome.h"
#include "proc.h"
#include "prog.h"
#include "task_json.h"
#include "utf8.h"
#include "util.h"

/* What streaming output needs to end on a newline. */
struct sink {
	char last;
	int any;
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

/* Each piece comes without the secrets (llm_ask.h). */
static void
on_text(const char *text, size_t n, void *arg)
{
	struct sink *s = arg;
	char *shown = utf8_clean(text, n);
	fputs(shown, stdout);
	fflush(stdout);
	free(shown);
	s->last = text[n - 1];
	s->any = 1;
}

/* What the stream held back, in case it began a secret. */
static void
sink_end(struct llm_ask *k, struct sink *s)
{
	struct buf out = {0};
	llm_ask_stream_end(k, &out);
	if (out.len) {
		char *shown = utf8_clean(out.data, out.len);
		fputs(shown, stdout);
		free(shown);
		s->last = out.data[out.len - 1];
		s->any = 1;
	}
	buf_free(&out);
}

static void
on_fallback(const char *gone, const char *next, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s: the model '%s' does not exist or was retired; asking '%s'\n",
	    prog, gone, next);
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
	    "      --help, --version\n"
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
	if (rc)
		return fail(rc, e.msg);
	/* Sent and kept in the store as text, as task-add keeps them. */
	const struct { const char *flag, *v; } text[] = {{"--system", o->s.system},
		{"--model", o->s.model}, {"--context", o->s.context}};
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		if (text[i].v && !utf8_valid(text[i].v, strlen(text[i].v))) {
			snprintf(e.msg, sizeof e.msg, "%s is not UTF-8 text", text[i].flag);
			return fail(ST_INVALID, e.msg);
		}
	for (size_t i = 0; i < o->nfallback; i++)
		if (!utf8_valid(o->fallback[i], strlen(o->fallback[i])))
			return fail(ST_INVALID, "--fallback-model is not UTF-8 text");
	return ST_OK;
}

/* --list-tools: the tools the MCP servers offer, as the model would get
 * them (--mcp-allow applied), a line each: the name --mcp-allow patterns
 * match, then the description's first line.  No key, prompt or store. */
static int
list_mcp_tools(struct llm_ask *k, struct err *e)
{
	int rc = llm_ask_list_tools(k, e);
	if (rc)
		return rc;
	const cJSON *t;
	cJSON_ArrayForEach(t, k->o.s.offered) {
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
outcome_end(struct llm_ask *k, struct err *e)
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
print_answer(struct llm_ask *k)
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
	struct llm_ask k;
	struct sink sink = {0};
	struct err e = {""};
	llm_ask_init(&k, argc);
	k.on_text = on_text;
	k.on_fallback = on_fallback;
	k.arg = &sink;
	int rc = parse_options(argc, argv, &k.o);
	/* What a stdio MCP server starts, even in a session of its own, is
	 * ours to end: it is reparented here when the server goes. */
	k.reaper = rc == ST_OK && (k.o.mcp.len || env("TASK_MCP")) && proc_subreaper() == 0;
	if (rc == ST_OK) {
		/* A server that dies while it is written to is an error to
		 * report, not a reason to die. */
		signal(SIGPIPE, SIG_IGN);
		if (k.o.list_tools) {
			if ((rc = list_mcp_tools(&k, &e)))
				fail(rc, e.msg);
			goto done;
		}
		rc = llm_ask_prepare(&k, argc - optind, argv + optind, &e);
		if (!rc) {
			rc = llm_ask_run(&k, &e);
			if (k.o.s.lc.on_text)
				sink_end(&k, &sink);
			if (sink.any && sink.last != '\n')
				putchar('\n');
		}
		rc = llm_ask_record(&k, rc, &e);
		/* Printed even when recording failed: the answer is not lost. */
		print_answer(&k);
		if (rc)
			fail(rc, e.msg);
		else
			rc = outcome_end(&k, &e);
	}
done:
	llm_ask_free(&k);
	return rc < 0 ? 0 : rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : llm_call(argc, argv));
}
