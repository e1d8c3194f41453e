/* prompt_vars.c: the prompts of a run as sent (prompt_vars.h), with
 * {{last_answer}} read from the store; the text itself: prompt_text.c. */
#include <stdlib.h>
#include <string.h>

#include "prompt_vars.h"
#include "store.h"
#include "task.h"
#include "utf8.h"

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
