/* The echo provider: a model that needs no network and no key, to try
 * schedules, budgets, chains, delivery and tools before choosing a real
 * one.  It answers "MODEL: " and the last user text (the model's name is
 * "echo" unless one is given), or, after tool results, "tool results: "
 * and them joined by " | ".  Directives in the text ask for tool calls
 * as the test provider's do, when tools are offered:
 *   [[call NAME {ARGS}]]  call tool NAME with ARGS (JSON), one a round
 *                         in order; [[parallel]]: all in one round
 * Tokens are counted as words: every word sent in, every word answered
 * (at least 1).  The same conversation always gets the same answer.
 * Conversations are kept in OpenAI's message format. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "llm_impl.h"

#define ECHO_CALLS_MAX 16

static long
count_words(const char *s)
{
	long n = 0;
	int in = 0;
	for (; s && *s; s++) {
		if (isspace((unsigned char)*s))
			in = 0;
		else if (!in++)
			n++;
	}
	return n;
}

/* The text of a message's content: a string, or its text parts joined. */
static void
content_text(const cJSON *content, struct buf *out, int *has_text)
{
	const cJSON *p, *parts = cJSON_IsArray(content) ? content : NULL;
	*has_text = 0;
	if (cJSON_IsString(content)) {
		buf_puts(out, content->valuestring);
		*has_text = 1;
		return;
	}
	cJSON_ArrayForEach(p, parts) {
		const char *type = llm_json_str(p, "type"), *t = llm_json_str(p, "text");
		if (type && strcmp(type, "text") == 0 && t) {
			buf_puts(out, t);
			*has_text = 1;
		}
	}
}

/* The last user text, the tool results after it, and every word sent. */
struct talk {
	struct buf text, results;
	int nresults;
	long words;
};

static void
read_talk(const struct llm_config *c, const cJSON *messages, struct talk *t)
{
	const cJSON *m;
	t->words = count_words(c->system);
	cJSON_ArrayForEach(m, messages) {
		const char *role = llm_json_str(m, "role");
		struct buf one = {0};
		int has_text;
		content_text(cJSON_GetObjectItemCaseSensitive(m, "content"), &one, &has_text);
		t->words += count_words(one.data);
		if (role && strcmp(role, "tool") == 0) {
			if (t->nresults++)
				buf_puts(&t->results, " | ");
			buf_puts(&t->results, one.data ? one.data : "");
		} else if (role && strcmp(role, "user") == 0 && has_text) {
			t->text.len = 0;
			buf_puts(&t->text, one.data ? one.data : "");
			t->results.len = 0;
			t->nresults = 0;
		}
		buf_free(&one);
	}
	buf_add(&t->text, "", 0);
	buf_add(&t->results, "", 0);
}

/* The [[call NAME ARGS]] directives of text, in order, as name and args
 * pairs; ARGS not JSON are sent as they are (the model's mistake to show). */
static size_t
parse_calls(const char *text, char *names[], char *args[], size_t max)
{
	size_t n = 0;
	for (const char *p = strstr(text, "[[call "); p && n < max; p = strstr(p + 1, "[[call ")) {
		const char *q = p + 7, *end = strstr(q, "]]");
		if (!end)
			break;
		const char *sp = q;
		while (sp < end && *sp != ' ')
			sp++;
		if (sp == q)
			continue;
		/* ARGS may hold "]]": take the shortest end that leaves valid JSON. */
		const char *a = sp < end ? sp + 1 : NULL, *stop = end;
		for (const char *e2 = end; a && e2; e2 = strstr(e2 + 1, "]]")) {
			cJSON *j = cJSON_ParseWithLength(a, (size_t)(e2 - a));
			cJSON_Delete(j);
			if (j) {
				stop = e2;
				break;
			}
		}
		names[n] = xstrndup(q, (size_t)(sp - q));
		args[n] = a ? xstrndup(a, (size_t)(stop - a)) : xstrdup("{}");
		n++;
	}
	return n;
}

/* Whether tools (in OpenAI's format) offer a function of this name. */
static int
offered(const cJSON *tools, const char *name)
{
	const cJSON *t;
	cJSON_ArrayForEach(t, tools) {
		const char *n = llm_json_str(cJSON_GetObjectItemCaseSensitive(t, "function"), "name");
		if (n && strcmp(n, name) == 0)
			return 1;
	}
	return 0;
}

static int
answer(const struct llm_config *c, const cJSON *messages, const cJSON *tools,
    struct llm_result *r, struct err *e)
{
	(void)e;
	struct talk t;
	memset(&t, 0, sizeof t);
	char *names[ECHO_CALLS_MAX], *args[ECHO_CALLS_MAX];
	read_talk(c, messages, &t);
	size_t want = parse_calls(t.text.data, names, args, ECHO_CALLS_MAX);
	int parallel = strstr(t.text.data, "[[parallel]]") != NULL;
	size_t from = (size_t)t.nresults, to = from;
	if (tools && cJSON_GetArraySize(tools) > 0 && from < want && !(parallel && from))
		to = parallel ? want : from + 1;
	/* A tool the model was not offered is not called. */
	for (size_t i = from; i < to; i++)
		if (!offered(tools, names[i]))
			to = from;
	r->model = xstrdup(c->model && *c->model ? c->model : "echo");
	r->http_status = 200;
	r->attempts = 1;
	if (to > from) {
		r->calls = xcalloc(to - from, sizeof *r->calls);
		for (size_t i = from; i < to; i++) {
			struct llm_tool_call *k = &r->calls[r->ncalls];
			k->id = xasprintf("call_echo_%zu", i);
			k->name = names[i];
			k->args = args[i];
			names[i] = args[i] = NULL;
			r->ncalls++;
		}
		r->text = xstrdup("");
		r->finish_reason = xstrdup("tool_calls");
	} else {
		r->text = t.nresults ? xasprintf("tool results: %s", t.results.data)
		    : xasprintf("%s: %s", r->model, t.text.data);
		r->finish_reason = xstrdup("stop");
	}
	for (size_t i = 0; i < want; i++) {
		free(names[i]);
		free(args[i]);
	}
	r->input_tokens = t.words;
	r->output_tokens = r->ncalls ? (long)r->ncalls : count_words(r->text);
	if (r->output_tokens < 1)
		r->output_tokens = 1;
	if (c->on_text && *r->text)
		c->on_text(r->text, strlen(r->text), c->arg);
	buf_free(&t.text);
	buf_free(&t.results);
	return ST_OK;
}

/* The conversation is OpenAI's format: its helpers build it. */
static void
msg_user(cJSON *messages, const char *text, const struct llm_image *img, size_t nimg)
{
	llm_openai_ops.msg_user(messages, text, img, nimg);
}

static void
msg_assistant(cJSON *messages, const struct llm_result *r)
{
	llm_openai_ops.msg_assistant(messages, r);
}

static void
msg_tool_results(cJSON *messages, const struct llm_result *r, const struct llm_tool_result *res)
{
	llm_openai_ops.msg_tool_results(messages, r, res);
}

static cJSON *
tool(const char *name, const char *description, const cJSON *schema)
{
	return llm_openai_ops.tool(name, description, schema);
}

const struct llm_ops llm_echo_ops = {
	.name = "echo",
	.model = "echo",
	.url = "",
	.answer = answer,
	.msg_user = msg_user,
	.msg_assistant = msg_assistant,
	.msg_tool_results = msg_tool_results,
	.tool = tool,
};
