/* prompt_text.h: the text of prompts, below the task model
 * (prompt_text.c).  The variables themselves: prompt_vars.h. */
#ifndef AC_PROMPT_TEXT_H
#define AC_PROMPT_TEXT_H

#include <stddef.h>

#include "util.h"

/* The values of one run; NULL reads as empty. */
struct prompt_vals {
	const char *now, *slot, *date, *task, *attempt, *last_answer, *input, *gate;
};

/* ST_INVALID naming the first name text holds that is not a variable,
 * or a "{{" never closed; what names the text ("prompt"). */
int prompt_vars_check(const char *text, const char *what, struct err *e);
int prompt_vars_names(const char *text, const char *name); /* text names {{name}} */
char *prompt_vars_expand(const char *text, const struct prompt_vals *v); /* malloc'd */
/* A task's default name: its prompt's first words. */
void task_default_name(const char *prompt, char *buf, size_t n);

#endif
