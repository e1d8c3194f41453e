/* prompt_vars.h: the variables a prompt (and a system prompt) may name,
 * expanded when a run starts: {{now}} {{slot}} {{date}} {{task}}
 * {{attempt}} {{last_answer}} {{input}} {{gate}}, and {{{{ for a literal
 * {{.  Nothing else: no expressions, no environment, no files.  A value
 * goes in as text and is never read again, so an answer holding
 * "{{input}}" stays as it is. */
#ifndef AC_PROMPT_VARS_H
#define AC_PROMPT_VARS_H

#include <stdint.h>

#include "util.h"

struct store;
struct task;
struct zones;

/* The values of one run; NULL reads as empty. */
struct prompt_vals {
	const char *now, *slot, *date, *task, *attempt, *last_answer, *input, *gate;
};

/* prompt_vars.c */
/* ST_INVALID naming the first name text holds that is not a variable,
 * or a "{{" never closed; what names the text ("prompt"). */
int prompt_vars_check(const char *text, const char *what, struct err *e);
int prompt_vars_names(const char *text, const char *name); /* text names {{name}} */
char *prompt_vars_expand(const char *text, const struct prompt_vals *v); /* malloc'd */
/* The prompt and system prompt of a run of t as sent, malloc'd (*system
 * NULL when t has none): started and slot are the run's instants, shown
 * in t's zone; last_answer is read from st only when named; input and
 * gate (NULL: none) are the run's.  The gate's output, when no prompt
 * names {{gate}}, follows the prompt after a blank line. */
int prompt_vars_run(struct store *st, struct zones *zs, const struct task *t, int64_t started,
    int64_t slot, int attempt, const char *input, const char *gate, char **prompt, char **system,
    struct err *e);

#endif
