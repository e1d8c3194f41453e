/* store.h: the persistent store of tasks, runs, conversations and settings.
 * This is the whole interface cmd/ sees; the SQLite file is the embedded
 * default and another backend would implement the same functions.  Every
 * function returns an ST_* status and fills *e on failure. */
#ifndef AC_STORE_H
#define AC_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "task.h"
#include "util.h"

struct store;

/* A listing filter; zeroed fields (and -1 where noted) mean "any". */
struct task_filter {
	unsigned statuses;       /* bit (1 << STATUS_*) */
	unsigned kinds;          /* bit (1 << KIND_*) */
	const char *channel;
	const char *intent;
	int enabled;             /* -1 any, 0 disabled, 1 enabled */
	int64_t now;             /* reference for the two windows below */
	int64_t due_within;      /* seconds, -1 any: next run <= now + due_within */
	int64_t due_after;       /* seconds, -1 any: next run >= now + due_after */
	long limit;              /* 0: no limit */
	int trashed;             /* list the trash instead */
};
void task_filter_init(struct task_filter *f);

typedef int (*task_fn)(const struct task *t, void *arg); /* non-zero stops */

/* store.c */
const char *store_default_path(char *buf, size_t n);  /* TASK_DB, else XDG data dir */
int store_open(const char *path, struct store **out, struct err *e); /* NULL: default; creates and migrates */
void store_close(struct store *st);
const char *store_path(const struct store *st);
int store_begin(struct store *st, struct err *e);     /* an immediate (write) transaction */
int store_commit(struct store *st, struct err *e);
void store_rollback(struct store *st);
/* Insert t (id generated when empty); with dedup, a pending twin (same key,
 * or same intent-or-prompt, schedule and channel) is returned in *dup_id and
 * ST_REFUSED is not an error: *is_dup = 1, nothing written.  A task with
 * deleted_at set goes straight into the trash, without that check. */
int store_task_add(struct store *st, struct task *t, int dedup, int *is_dup, char dup_id[37], struct err *e);
/* Resolve an id or unique prefix (4+ chars) to a full id.  ST_NOTFOUND: "no
 * task 'x'"; ST_REFUSED: ambiguous, the message lists candidates. */
int store_task_resolve(struct store *st, const char *prefix, int trashed, char id[37], struct err *e);
int store_task_get(struct store *st, const char *id, struct task *t, struct err *e); /* t uninitialised on entry */
int store_task_put(struct store *st, const struct task *t, struct err *e);  /* write every field by id */
int store_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e);
int store_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e);
int store_task_trash(struct store *st, const char *id, int64_t now, struct err *e); /* stops firing at once */
int store_trash_restore(struct store *st, const char *id, char restored[37], struct err *e); /* id NULL: latest */
int store_trash_purge(struct store *st, long *n, struct err *e);
int store_setting_get(struct store *st, const char *key, char **value, struct err *e); /* *value NULL if unset */
int store_setting_set(struct store *st, const char *key, const char *value, struct err *e); /* NULL deletes */
void store_wake(struct store *st);                   /* nudge watching task-tick processes */
const char *store_wake_path(const struct store *st); /* the file store_wake() touches */

#endif
