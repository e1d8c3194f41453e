/* llm_wire.c: what the two wire formats share: reading JSON, merging
 * options, building a streamed reply's text and tool calls, and keys kept
 * out of messages. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "llm_impl.h"

const char *
llm_json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A provider's counts and indexes, far below where a long would overflow
 * (converting a larger double is undefined) or a sum of three would. */
#define JSON_LONG_MAX 1e15

long
llm_json_long(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= JSON_LONG_MAX
	    ? (long)v->valuedouble : -1;
}

void
llm_merge_options(cJSON *body, const cJSON *options)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, options) {
		cJSON *copy = cJSON_Duplicate(o, 1);
		if (!copy)
			abort();
		if (cJSON_GetObjectItemCaseSensitive(body, o->string))
			cJSON_ReplaceItemInObjectCaseSensitive(body, o->string, copy);
		else
			cJSON_AddItemToObject(body, o->string, copy);
	}
}

void
llm_stream_text(struct llm_stream *s, const char *text, size_t n)
{
	if (!n)
		return;
	buf_add(&s->text, text, n);
	if (s->c->on_text) {
		s->c->on_text(text, n, s->c->arg);
		s->delivered = 1;
	}
}

size_t
llm_stream_call(struct llm_stream *s, long idx, const char *id, const char *name)
{
	struct llm_result *r = s->r;
	for (size_t i = 0; i < r->ncalls; i++) {
		if (s->index[i] == idx) {
			if (id && !r->calls[i].id)
				r->calls[i].id = xstrdup(id);
			if (name && !r->calls[i].name)
				r->calls[i].name = xstrdup(name);
			return i;
		}
	}
	if (r->ncalls == s->ncap) {
		s->ncap = s->ncap ? 2 * s->ncap : 4;
		r->calls = xrealloc(r->calls, s->ncap * sizeof *r->calls);
		s->args = xrealloc(s->args, s->ncap * sizeof *s->args);
		s->index = xrealloc(s->index, s->ncap * sizeof *s->index);
	}
	size_t i = r->ncalls++;
	r->calls[i] = (struct llm_tool_call){xstrdup(id), xstrdup(name), NULL};
	s->args[i] = (struct buf){0};
	s->index[i] = idx;
	return i;
}

void
llm_stream_args(struct llm_stream *s, size_t call, const char *piece)
{
	if (piece)
		buf_puts(&s->args[call], piece);
}

void
llm_stream_finish(struct llm_stream *s, const char *reason)
{
	if (reason)
		set_str(&s->r->finish_reason, reason);
}

void
llm_result_free(struct llm_result *r)
{
	free(r->text);
	free(r->finish_reason);
	free(r->model);
	for (size_t i = 0; i < r->ncalls; i++) {
		free(r->calls[i].id);
		free(r->calls[i].name);
		free(r->calls[i].args);
	}
	free(r->calls);
	memset(r, 0, sizeof *r);
}

/* Key-like words: a secret that a provider echoes back, even masked. */
static int
keyish(const char *p)
{
	return (strncmp(p, "sk-", 3) == 0 || strncmp(p, "sk_", 3) == 0) &&
	    (p[3] && !isspace((unsigned char)p[3]));
}

void
llm_redact(char *s, size_t cap, const char *key)
{
	static const char mark[] = "[redacted]";
	struct buf b = {0};
	size_t klen = key ? strlen(key) : 0;
	for (const char *p = s; *p;) {
		int word_start = p == s || isspace((unsigned char)p[-1]) || strchr("\"':=(", p[-1]);
		if (klen >= 4 && strncmp(p, key, klen) == 0) {
			buf_puts(&b, mark);
			p += klen;
		} else if (word_start && keyish(p)) {
			/* "provided: sk-ab***cd." reads as "provided." */
			if (b.len >= 2 && memcmp(b.data + b.len - 2, ": ", 2) == 0)
				b.data[b.len -= 2] = 0;
			else
				buf_puts(&b, mark);
			while (*p && !isspace((unsigned char)*p) && !strchr("\"',;)", *p))
				p++;
			/* Keep a sentence's full stop, drop the key's own dots. */
			if (p[-1] == '.')
				buf_puts(&b, ".");
		} else {
			buf_add(&b, p++, 1);
		}
	}
	if (b.data && cap)
		snprintf(s, cap, "%s", b.data);
	buf_free(&b);
}
