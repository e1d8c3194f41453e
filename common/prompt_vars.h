/* prompt_vars.h: the variables a prompt (and a system prompt) may name,
 * expanded when a run starts: {{now}} {{slot}} {{date}} {{task}}
 * {{attempt}} {{last_answer}} {{input}} {{gate}}, and {{{{ for a literal
 * {{.  Nothing else: no expressions, no environment, no files.  A value
 * goes in as text and is never read again, so an answer holding
 * "{{input}}" stays as it is. */
#ifndef AC_PROMPT_VARS_H
#define AC_PROMPT_VARS_H

#include <stdint.h>

#include "prompt_text.h"
#include "util.h"

struct store;
struct task;
struct zones;

/* The prompt and system prompt of a run of t as sent, malloc'd (*system
 * NULL when t has none): started and slot are the run's instants, shown
 * in t's zone; last_answer is read from st only when named; input and
 * gate (NULL: none) are the run's.  The gate's output, when no prompt
 * names {{gate}}, follows the prompt after a blank line. */
int prompt_vars_run(struct store *st, struct zones *zs, const struct task *t, int64_t started,
    int64_t slot, int attempt, const char *input, const char *gate, char **prompt, char **system,
    struct err *e);

#endif
