/* task_import.h: tasks read from a stream of JSON objects (or arrays of
 * them), the import format of task-add --json - (task_json.h), each
 * finished and handed on with where it was read. */
#ifndef AC_TASK_IMPORT_H
#define AC_TASK_IMPORT_H

#include <stdint.h>

#include "store.h"
#include "task.h"
#include "util.h"

/* Called with each task as read and finished (task_finalize), and
 * "stdin:LINE" for messages; the task is freed after it returns.  A
 * status other than ST_OK stops the import with that status and e. */
typedef int (*task_import_fn)(struct task *t, const char *where, void *arg, struct err *e);

/* ST_INVALID, saying where, unless in is UTF-8 text and no string of it
 * holds a NUL (which cJSON would cut it at: a key could then match another
 * task's). */
int task_import_check(const struct buf *in, struct err *e);
/* Every task of in (passed by task_import_check), read at now with
 * when_flags (task_from_json); *count the tasks read.  A task
 * exported mid-run reads as pending: no run here would finish it. */
int task_import(const struct buf *in, int64_t now, struct zones *zs, unsigned when_flags,
    task_import_fn fn, void *arg, long *count, struct err *e);

/* The links (`after`) of the tasks imported, set once all are in, so a
 * task may follow one further down the input. */
struct task_import_links {
	struct task_import_link {
		char id[37];
		char *after;
		char where[32];
	} *v;
	size_t n;
};
/* Keep *after (taken: set to NULL) for task id, read at where. */
void task_import_defer(struct task_import_links *l, const char *id, char **after,
    const char *where);
/* Each kept list resolved and checked for loops (chain_resolve) and set,
 * in the caller's unit of work; errors say where the task was read. */
int task_import_link(struct store *st, struct task_import_links *l, struct err *e);
void task_import_links_free(struct task_import_links *l);

#endif
