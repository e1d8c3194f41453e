/* store_audit.h: the audit trail in the store (audit.h): appended to in
 * the unit of work of each change a known actor makes, never updated.
 * Retention removes its oldest entries only up to the last checkpoint a
 * verification recorded; where it cut is kept, so the rest still chains. */
#ifndef AC_STORE_AUDIT_H
#define AC_STORE_AUDIT_H

#include <stdint.h>

#include "audit.h"
#include "store.h"

/* Who makes the changes from now on (actor JSON, copied; NULL: nobody, as
 * the scheduler's own moves are not audited: a next run moved, a status a
 * run's end sets, a budget's skip).  It installs the trail's steps in the
 * store's writes (store_backend.h's store_audit_hooks). */
void store_audit_by(struct store *st, const char *actor);
/* The same for the user running this program (uid and host). */
void store_audit_by_user(struct store *st);
/* The action the next entry records instead of the one its change
 * amounts to ("rerun"); NULL clears it. */
void store_audit_action(struct store *st, const char *action);
/* Append an entry about task_id ("" none) inside the caller's unit of
 * work, when an actor is set. */
int store_audit_note(struct store *st, const char *action, const char *task_id,
    const char *before, const char *after, struct err *e);

/* The scheduler paused t (enabled before: was_enabled) by its own rule,
 * after failures in a row: an entry "pause" by audit_actor_scheduler(),
 * inside the caller's unit of work, whoever the store audits as. */
int store_audit_auto_pause(struct store *st, const struct task *t, int was_enabled,
    struct err *e);

typedef int (*audit_fn)(const struct audit_entry *a, void *arg); /* non-zero stops */
/* Entries in seq order (newest first with desc), of task_id alone unless NULL. */
int store_audit_list(struct store *st, const char *task_id, int desc, long limit, audit_fn fn,
    void *arg, struct err *e);

struct audit_check {
	long entries;          /* looked at */
	int64_t bad_seq;       /* the first entry changed or removed, 0: none */
	int removed;           /* it was removed (else changed) */
	int64_t head_seq;      /* the last entry */
	char head[65];         /* its hash */
	int64_t base_seq;      /* entries up to this one were pruned */
};
/* Recompute the chain; when it holds, record the last entry as the
 * checkpoint that retention may prune up to. */
int store_audit_verify(struct store *st, int64_t now, struct audit_check *c, struct err *e);
/* Remove entries older than before, at most up to the checkpoint. */
int store_audit_prune(struct store *st, int64_t before, int dry, long *n, struct err *e);

/* For the backends, written once: an entry as the parameters of its
 * append (SQL_AUDIT_APPEND of store_sql.h), and an entry read from a row
 * of STORE_SQL_AUDIT_COLS through cell (a cell_fn of task_fields.h). */
struct row;
struct cell;
void store_audit_row(struct row *p, const struct audit_entry *a);
void store_audit_read(struct audit_entry *a, struct cell (*cell)(void *src, int col, int is_int),
    void *src);

/* What a backend provides (store_backend.h's store_ops.audit). */
struct audit_ops {
	/* The last entry's seq and hash (0 and "" when none), taken under a
	 * lock held until the unit ends, so appends are one at a time. */
	int (*last)(struct store *st, int64_t *seq, char hash[65], struct err *e);
	int (*append)(struct store *st, const struct audit_entry *a, struct err *e);
	int (*list)(struct store *st, const char *task_id, int desc, int64_t from, long limit,
	    audit_fn fn, void *arg, struct err *e);
	/* Delete the entries with seq <= upto; *n of them. */
	int (*prune)(struct store *st, int64_t upto, long *n, struct err *e);
};

#endif
