/* replay.h: what task-run --replay sends again: the request a past run's
 * model conversation began with (llm_request.h), kept with its first
 * model call, on another model or provider if asked. */
#ifndef AC_REPLAY_H
#define AC_REPLAY_H

#include "store.h"
#include "util.h"

/* replay.c */
/* Run run_prefix's request (*request, malloc'd JSON text), its full id
 * and its task's id, with model and provider (NULL: as it was) put in its place; a
 * provider without a model drops the model (llm-call takes that
 * provider's own).  ST_NOTFOUND: no such run; ST_INVALID: no request on
 * record (not an llm-call run, or one from before requests were kept),
 * or an unknown provider. */
int replay_request(struct store *st, const char *run_prefix, const char *model,
    const char *provider, char task_id[37], char run_id[37], char **request, struct err *e);

struct fire;

/* task-run --replay RUN: its request sent again by f as a new run of its
 * task (trigger replay), once may_run lets it (a budget), then waited for;
 * its id printed on standard output when print_id. */
struct replay {
	struct store *st;
	struct fire *f;
	const char *model, *provider;   /* NULL: as it was */
	int print_id;
	int (*may_run)(void *arg, const char *task_id, struct err *e);
	int (*wait)(void *arg, const char *run_id, struct err *e);
	void *arg;
};
int replay_run(const struct replay *rp, const char *run, struct err *e);

#endif
