/* The text of prompts (prompt_text.h): the variables a prompt may name,
 * checked and expanded, and a task's name from its prompt's first words.
 *
 *   text = { literal | "{{{{" | "{{" name "}}" }
 *   name = one of the names below, blanks around it allowed
 *
 * "{{{{" is a literal "{{"; any other "{{" opens a name. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prompt_text.h"
#include "utf8.h"

static const char *const names[] = {"now", "slot", "date", "task", "attempt", "last_answer",
	"input", "gate"};
#define NNAMES (sizeof names / sizeof names[0])

/* The variable text opens at s ("{{" at s): its index in names, -1 for
 * none; *len is how much of s it spans, 0 when "{{" is never closed;
 * *name and *nlen the name as written. */
static int
var_at(const char *s, size_t *len, const char **name, size_t *nlen)
{
	const char *end = strstr(s + 2, "}}");
	*len = 0;
	*name = s + 2;
	*nlen = 0;
	if (!end)
		return -1;
	*len = (size_t)(end + 2 - s);
	const char *a = s + 2, *b = end;
	while (a < b && (*a == ' ' || *a == '\t'))
		a++;
	while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
		b--;
	*name = a;
	*nlen = (size_t)(b - a);
	for (size_t i = 0; i < NNAMES; i++)
		if (strlen(names[i]) == *nlen && strncmp(names[i], a, *nlen) == 0)
			return (int)i;
	return -1;
}

int
prompt_vars_check(const char *text, const char *what, struct err *e)
{
	for (const char *p = text ? strstr(text, "{{") : NULL; p; p = strstr(p, "{{")) {
		if (strncmp(p, "{{{{", 4) == 0) {
			p += 4;
			continue;
		}
		size_t len, nlen;
		const char *name;
		if (var_at(p, &len, &name, &nlen) >= 0) {
			p += len;
			continue;
		}
		if (!len)
			return err_set(e, ST_INVALID, "%s: '{{' is not closed by '}}' (write '{{{{' for a "
			    "literal '{{')", what);
		int n = utf8_cut(name, nlen < 40 ? nlen : 40);
		return err_set(e, ST_INVALID, "%s: unknown variable '{{%.*s}}'; known: {{now}} {{slot}}"
		    " {{date}} {{task}} {{attempt}} {{last_answer}} {{input}} {{gate}} ('{{{{' writes "
		    "'{{')", what, n, name);
	}
	return ST_OK;
}

int
prompt_vars_names(const char *text, const char *name)
{
	for (const char *p = text ? strstr(text, "{{") : NULL; p; p = strstr(p, "{{")) {
		if (strncmp(p, "{{{{", 4) == 0) {
			p += 4;
			continue;
		}
		size_t len, nlen;
		const char *nm;
		int i = var_at(p, &len, &nm, &nlen);
		if (i >= 0 && strcmp(names[i], name) == 0)
			return 1;
		p += len ? len : 2;
	}
	return 0;
}

char *
prompt_vars_expand(const char *text, const struct prompt_vals *v)
{
	const char *vals[NNAMES] = {v->now, v->slot, v->date, v->task, v->attempt, v->last_answer,
		v->input, v->gate};
	struct buf b = {0};
	const char *p = text ? text : "";
	for (const char *q; (q = strstr(p, "{{"));) {
		buf_add(&b, p, (size_t)(q - p));
		if (strncmp(q, "{{{{", 4) == 0) {
			buf_puts(&b, "{{");
			p = q + 4;
			continue;
		}
		size_t len, nlen;
		const char *name;
		int i = var_at(q, &len, &name, &nlen);
		if (i < 0) {
			/* Refused when the task was made; kept as written if it
			 * was stored before. */
			size_t keep = len ? len : 2;
			buf_add(&b, q, keep);
			p = q + keep;
			continue;
		}
		if (vals[i])
			buf_puts(&b, vals[i]);
		p = q + len;
	}
	buf_puts(&b, p);
	return b.data ? b.data : xstrdup("");
}

void
task_default_name(const char *prompt, char *buf, size_t n)
{
	/* The first six words, at most 48 bytes, cut at a word boundary. */
	size_t len = 0, words = 0;
	const char *p = prompt ? prompt : "";
	while (isspace((unsigned char)*p))
		p++;
	buf[0] = 0;
	while (*p && words < 6) {
		const char *w = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		size_t wl = (size_t)(p - w);
		if (len + wl + (len ? 1 : 0) > 48 || len + wl + 2 > n) {
			p = w;
			break;
		}
		if (len)
			buf[len++] = ' ';
		memcpy(buf + len, w, wl);
		len += wl;
		buf[len] = 0;
		words++;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (len == 0 && *p && n > 1)
		snprintf(buf, n < 49 ? n : 49, "%s", p);
}
