/* prompt_vars.c: the variables of a prompt (prompt_vars.h).
 *
 *   text = { literal | "{{{{" | "{{" name "}}" }
 *   name = one of the names below, blanks around it allowed
 *
 * "{{{{" is a literal "{{"; any other "{{" opens a name. */
#include <stdlib.h>
#include <string.h>

#include "prompt_vars.h"
#include "store.h"
#include "task.h"
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

struct answer_look {
	char *out;
	char last[37];   /* the last run seen, to page on from */
	long seen;
};

/* A replay's answer is no answer of the task's own. */
static int
take_output(const struct run *r, void *arg)
{
	struct answer_look *l = arg;
	memcpy(l->last, r->id, sizeof l->last);
	l->seen++;
	if (r->trigger == TRIGGER_REPLAY)
		return 0;
	l->out = xstrdup(r->output ? r->output : "");
	return 1;
}

/* The output of t's last successful run (NULL: none). */
static int
last_answer(struct store *st, const struct task *t, char **out, struct err *e)
{
	struct run_filter rf;
	run_filter_init(&rf);
	rf.task_id = t->id;
	rf.status = RUN_SUCCESS;
	rf.with_output = 1;
	rf.limit = 8;
	struct answer_look l = {0};
	int rc;
	do {
		l.seen = 0;
		rc = store_run_list(st, &rf, take_output, &l, e);
		rf.before = l.last;
	} while (!rc && !l.out && l.seen == rf.limit);
	*out = l.out;
	return rc;
}

int
prompt_vars_run(struct store *st, struct zones *zs, const struct task *t, int64_t started,
    int64_t slot, int attempt, const char *input, const char *gate, char **prompt, char **system,
    struct err *e)
{
	char now[64], at[64], date[16], n[16];
	char *answer = NULL;
	*prompt = *system = NULL;
	int rc;
	if ((prompt_vars_names(t->prompt, "last_answer") ||
	    prompt_vars_names(t->system_prompt, "last_answer")) &&
	    (rc = last_answer(st, t, &answer, e)))
		return rc;
	task_fmt_time(t, zs, started, TIME_RFC3339, now, sizeof now);
	task_fmt_time(t, zs, slot != TIME_NONE ? slot : started, TIME_RFC3339, at, sizeof at);
	snprintf(date, sizeof date, "%.10s", now);
	snprintf(n, sizeof n, "%d", attempt > 0 ? attempt : 1);
	struct prompt_vals v = {now, at, date, t->name, n, answer, input, gate};
	*prompt = prompt_vars_expand(t->prompt, &v);
	if (t->system_prompt)
		*system = prompt_vars_expand(t->system_prompt, &v);
	if (gate && *gate && !prompt_vars_names(t->prompt, "gate") &&
	    !prompt_vars_names(t->system_prompt, "gate")) {
		char *both = xasprintf("%s\n\n%s", *prompt, gate);
		free(*prompt);
		*prompt = both;
	}
	free(answer);
	return ST_OK;
}
