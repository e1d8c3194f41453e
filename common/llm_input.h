/* llm_input.h: what llm-call is asked: a prompt, from its operands
 * joined by blanks or from standard input, or a request recorded by an
 * earlier call (task-run --replay) that replaces it. */
#ifndef AC_LLM_INPUT_H
#define AC_LLM_INPUT_H

#include "llm_session.h"
#include "util.h"

struct config;

#define LLM_PROMPT_MAX (16L * 1024 * 1024)   /* bytes of a prompt */

/* argv's words (argc of them), else standard input when it is no
 * terminal, into prompt: ST_INVALID when there is none, it is empty,
 * too large, or not UTF-8 text. */
int llm_input_prompt(int argc, char **argv, struct buf *prompt, struct err *e);
/* The request in file replaces prompt_out, s's system prompt, context,
 * attachments and options, and *stream_opt when it is unset (-1); s
 * without a model of its own (a replay on another provider) gets the
 * provider's from cf. */
int llm_input_replay(const char *file, const struct config *cf, struct llm_session *s,
    struct buf *prompt_out, int *stream_opt, struct err *e);

#endif
