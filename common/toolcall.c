/* Reading tool calls as agents print them: a brace counter that knows
 * strings splits the input into calls, commas before a closing bracket are
 * dropped, and the object is searched for the names each agent family
 * uses for the tool and its arguments. */
#include <stdlib.h>
#include <string.h>

#include "task_json.h"
#include "toolcall.h"
#include "utf8.h"

void
toolcall_in_init(struct toolcall_in *in, FILE *f, size_t max)
{
	memset(in, 0, sizeof *in);
	in->f = f;
	in->max = max;
}

void
toolcall_in_free(struct toolcall_in *in)
{
	free(in->lbuf);
	in->lbuf = NULL;
	in->lcap = 0;
}

static int
fence(const char *p)
{
	return strncmp(p, "```", 3) == 0 || strncmp(p, "~~~", 3) == 0;
}

int
toolcall_next(struct toolcall_in *in, struct buf *text)
{
	int depth = 0, in_str = 0, esc = 0, started = 0;
	ssize_t got = 0;
	text->len = 0;
	buf_add(text, "", 0);
	in->too_long = 0;
	while (in->held || (got = getline(&in->lbuf, &in->lcap, in->f)) >= 0) {
		const char *line = in->lbuf, *p = line + strspn(line, " \t\r\n");
		/* A NUL goes into the text, to be refused there, not cut at. */
		size_t len = in->held ? in->hlen : (size_t)got;
		if (!in->held)
			in->line++;
		in->held = 0;
		in->hlen = len;
		if (!started && (!*p || fence(p)))
			continue;
		if (started && (fence(p) || *line == '{' || *line == '[')) {
			in->held = !fence(p);
			return 1;
		}
		if (!started)
			in->first = in->line;
		started = 1;
		for (p = line; p < line + len; p++) {
			if (esc)
				esc = 0;
			else if (in_str && *p == '\\')
				esc = 1;
			else if (*p == '"')
				in_str = !in_str;
			else if (!in_str && (*p == '{' || *p == '['))
				depth++;
			else if (!in_str && (*p == '}' || *p == ']'))
				depth--;
		}
		if (text->len + len <= in->max)
			buf_add(text, line, len);
		else
			in->too_long = 1;
		if (depth <= 0 && !in_str)
			return 1;
	}
	return started;
}

void
toolcall_relax(struct buf *b)
{
	size_t w = 0;
	int in_str = 0, esc = 0;
	for (size_t i = 0; i < b->len; i++) {
		char c = b->data[i];
		if (esc) {
			esc = 0;
		} else if (in_str && c == '\\') {
			esc = 1;
		} else if (c == '"') {
			in_str = !in_str;
		} else if (!in_str && c == ',') {
			size_t j = i + 1;
			while (j < b->len && strchr(" \t\r\n", b->data[j]))
				j++;
			if (j < b->len && (b->data[j] == '}' || b->data[j] == ']'))
				continue;
		}
		b->data[w++] = c;
	}
	b->len = w;
	if (b->data)
		b->data[w] = 0;
}

static const cJSON *
either(const cJSON *o, const char *const *keys)
{
	for (; *keys; keys++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, *keys);
		if (v)
			return v;
	}
	return NULL;
}

int
toolcall_parse(const char *text, size_t len, struct toolcall *c, struct err *e)
{
	static const char *const name_keys[] = {"tool_name", "name", "action", "tool", NULL};
	static const char *const arg_keys[] = {"tool_args", "arguments", "action_input", "input",
		"args", NULL};
	struct buf b = {0};
	memset(c, 0, sizeof *c);
	/* No JSON text holds a raw NUL, and no argument a \u0000: cJSON
	 * would stop reading at either. */
	if (memchr(text, 0, len))
		return err_set(e, ST_INVALID, "a NUL byte, which no call can hold");
	if (json_find_nul(text, len) >= 0)
		return err_set(e, ST_INVALID, "a string holds \\u0000 (a NUL character), which no "
		    "argument can hold");
	buf_add(&b, text, len);
	toolcall_relax(&b);
	c->root = cJSON_ParseWithLength(b.data, b.len);
	buf_free(&b);
	const cJSON *name = either(c->root, name_keys), *args = either(c->root, arg_keys);
	const char *bad = json_utf8_bad(args);
	if (!cJSON_IsObject(c->root)) {
		int rc = err_set(e, ST_INVALID, c->root ? "not a JSON object" : "invalid JSON");
		toolcall_free(c);
		return rc;
	}
	/* Arguments that are not UTF-8 are refused, as the command line
	 * refuses them; a name is only shown, as U+FFFD. */
	if (bad) {
		int rc = !*bad ? err_set(e, ST_INVALID, "the arguments are not UTF-8 text")
		    : !utf8_valid(bad, strlen(bad)) ? err_set(e, ST_INVALID, "an argument's name is not "
		    "UTF-8 text") : err_set(e, ST_INVALID, "argument '%.*s' is not UTF-8 text",
		    utf8_cut(bad, 64), bad);
		toolcall_free(c);
		return rc;
	}
	if (!cJSON_IsString(name)) {
		toolcall_free(c);
		return err_set(e, ST_INVALID, "no tool name (\"tool_name\" or \"name\")");
	}
	/* Arguments given as a JSON string (function calling does that) are
	 * read; a string that is not JSON goes to the tool as it is. */
	if (cJSON_IsString(args) && (c->parsed = cJSON_Parse(args->valuestring)) &&
	    cJSON_IsObject(c->parsed))
		args = c->parsed;
	char *clean = utf8_fix(name->valuestring);
	if (clean && !cJSON_SetValuestring((cJSON *)name, clean))
		abort(); /* cJSON fails only when out of memory */
	free(clean);
	c->name = name->valuestring;
	c->args = cJSON_IsNull(args) ? NULL : args;
	return ST_OK;
}

void
toolcall_free(struct toolcall *c)
{
	cJSON_Delete(c->parsed);
	cJSON_Delete(c->root);
	memset(c, 0, sizeof *c);
}
