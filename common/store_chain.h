/* store_chain.h: the inputs of runs that something other than the clock
 * or a person started: the end of an upstream run (a chain, task-add
 * --after) or an event with a payload (task-run --payload).  An input is a
 * durable row, unique per (task, key): an upstream run's end writes one for
 * each follower in the same unit of work that records the end, and the
 * claim that starts the follower's run binds it to that run in its own, so
 * each input becomes exactly one run whatever crashes in between.  The
 * input's text is what the run is given (store_input_find by run id reads
 * it back for the executor and for prompt variables).  Each function
 * works inside the caller's unit of work when there is one. */
#ifndef AC_STORE_CHAIN_H
#define AC_STORE_CHAIN_H

#include <stdint.h>

#include "store.h"

/* A replay's input is the request it sends again (llm_request.h). */
enum input_kind { INPUT_AFTER, INPUT_EVENT, INPUT_REPLAY, INPUT_KIND_COUNT };

struct run_input {
	char id[37];
	char task_id[37];         /* the task it starts */
	int kind;                 /* INPUT_* */
	char *key;                /* after: the upstream run's id; event: its key (or its id) */
	char upstream_run[37];    /* after: the run whose end made it, else "" */
	int64_t slot;             /* after: that run's slot, else TIME_NONE */
	char *text;               /* the input: the upstream's answer or output, or the payload */
	int64_t created_at;
	char run_id[37];          /* the run it became, "" while pending */
};
void run_input_init(struct run_input *in);
void run_input_free(struct run_input *in);
const char *input_kind_name(int kind);      /* "after", "event", "replay" */
int input_kind_parse(const char *s);        /* INPUT_EVENT unless another's name */

enum { INPUT_BY_KEY, INPUT_OF_RUN, INPUT_NEXT };

/* store_chain.c */
/* Add in unless its (task, key) has one: *added says which. */
int store_input_add(struct store *st, const struct run_input *in, int *added, struct err *e);
/* INPUT_BY_KEY: task_id's input of key; INPUT_OF_RUN: the input run
 * `key` was started with; INPUT_NEXT: task_id's oldest pending one.
 * *found says whether *out was filled. */
int store_input_find(struct store *st, int by, const char *task_id, const char *key,
    struct run_input *out, int *found, struct err *e);
/* Bind pending input id to run_id: *got = 0 when it was no longer pending. */
int store_input_bind(struct store *st, const char *id, const char *run_id, int *got,
    struct err *e);
/* The tasks (not in the trash) that may follow upstream_id: each with its
 * `after` list (JSON array) and whether it is enabled. */
typedef int (*follower_fn)(const char *id, const char *after, int enabled, void *arg);
int store_followers(struct store *st, const char *upstream_id, follower_fn fn, void *arg,
    struct err *e);
/* Held to the end of the unit of work: one check of links for loops at a
 * time, with the write that follows it. */
int store_chain_lock(struct store *st, struct err *e);
/* Of task id (in the trash or not), what the loop check reads, locking
 * nothing (a lock there could wait on an edit waiting on the check's):
 * *found 0 when there is no such task, else u filled (free after and name). */
struct chain_upstream {
	char *after;      /* NULL when it follows none */
	char *name;       /* NULL when it has none */
	int trashed;
};
int store_chain_upstream(struct store *st, const char *id, struct chain_upstream *u, int *found,
    struct err *e);
/* The reason a follower is disabled with when the task it follows, named
 * name, is deleted (and, that reason still its own, enabled by its restore). */
char *store_orphaned_why(const char *name);

/* What a backend provides (store_sqlite_chain.c, store_pg_chain.c). */
struct chain_ops {
	int (*input_add)(struct store *st, const struct run_input *in, int *added, struct err *e);
	int (*input_find)(struct store *st, int by, const char *task_id, const char *key,
	    struct run_input *out, int *found, struct err *e);
	int (*input_bind)(struct store *st, const char *id, const char *run_id, int *got,
	    struct err *e);
	int (*followers)(struct store *st, const char *upstream_id, follower_fn fn, void *arg,
	    struct err *e);
	/* Whether any task (not in the trash) follows another. */
	int (*followed)(struct store *st, int *any, struct err *e);
	/* Held to the end of the unit of work by every check of `after` links
	 * for loops: two checks at once could each pass and make one. */
	int (*lock)(struct store *st, struct err *e);
	int (*upstream)(struct store *st, const char *id, struct chain_upstream *u, int *found,
	    struct err *e);
};
extern const struct chain_ops sq_chain_ops, pg_chain_ops;

#define INPUT_COLS "id, task_id, kind, key, upstream_run, slot, input, created_at, run_id"

#endif
