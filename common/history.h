/* history.h: what the model was told and said.  Named conversations
 * (contexts: `llm-call --context NAME`, a task's context) are messages in
 * order; every model call leaves one record (prompt, answer, model, usage,
 * duration, error) tied to its task run when there is one, for task-show
 * and task-log. */
#ifndef AC_HISTORY_H
#define AC_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "util.h"

struct history_msg {
	char *role;                 /* "user" or "assistant" */
	char *content;
	char *run_id;               /* the run that added it, or NULL */
	int64_t created_at;
};

struct llm_call {
	long long id;               /* set by the store */
	char *run_id, *task_id, *context;
	char *provider, *model;
	char *system_prompt, *prompt, *answer;
	long input_tokens, output_tokens; /* -1 unknown */
	char *finish_reason;
	long duration_ms;
	char *error;                /* NULL on success */
	int64_t created_at;
	char *tool_calls;           /* JSON array of the tool calls made, or NULL */
};
typedef int (*llm_call_fn)(const struct llm_call *c, void *arg); /* non-zero stops */

/* history.c */
/* The last max messages of context (0: all), oldest first, starting with a
 * user message; *out is NULL when there are none. */
int history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e);
void history_free(struct history_msg *m, size_t n);
/* One exchange: the prompt and the answer, added together. */
int history_append(struct store *st, const char *context, const char *prompt, const char *answer,
    const char *run_id, int64_t now, struct err *e);
int history_clear(struct store *st, const char *context, long *n, struct err *e);
int history_record(struct store *st, struct llm_call *c, struct err *e); /* sets c->id */
/* Records newest first: of one run (run_id), else of one task (task_id),
 * else all; limit 0: no limit. */
int history_calls(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e);
void llm_call_free(struct llm_call *c);
/* For a program that only appends records (llm-call): commits stop waiting
 * for the disk (WAL with synchronous=NORMAL: a power cut may lose the last
 * records, never consistency); the log is copied into the database once it
 * has grown, not at every close. */
void history_lazy_sync(struct store *st);

#endif
