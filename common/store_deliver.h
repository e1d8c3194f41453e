/* store_deliver.h: delivery receipts, one per (run, target).  A receipt's
 * id is the idempotency key every attempt of it carries.  A sender claims
 * a due receipt with a lease (an owner and an expiry) in one statement, so
 * across processes and hosts one sender at a time attempts it; a sender
 * killed mid-send leaves a lease that expires, and the next one sends the
 * same key again.  Each function is atomic on its own. */
#ifndef AC_STORE_DELIVER_H
#define AC_STORE_DELIVER_H

#include <stdint.h>

#include "store.h"

enum receipt_status { RECEIPT_PENDING, RECEIPT_DELIVERED, RECEIPT_FAILED, RECEIPT_STATUS_COUNT };

struct receipt {
	char id[37];              /* the idempotency key */
	char run_id[37], task_id[37];
	char *target;             /* as the task names it (secrets in it: mask when printed) */
	char kind[16];            /* webhook, slack, ... */
	int status;               /* RECEIPT_* */
	int attempts;
	int64_t created_at;
	int64_t next_at;          /* pending: not before this */
	int64_t last_at;          /* the last attempt's end, or TIME_NONE */
	char *answer;             /* delivered: what the receiver said */
	char *error;              /* the last attempt's error, or NULL */
	int parts_done;           /* of a message sent in parts, those the receiver has */
	char *task_name;          /* read only, NULL when the task is gone */
};
void receipt_init(struct receipt *r);
void receipt_free(struct receipt *r);
const char *receipt_status_name(int status);   /* "pending", "delivered", "failed" */
int receipt_status_parse(const char *s);       /* -1 if unknown */

struct receipt_filter {
	int status;               /* RECEIPT_*, -1: any */
	const char *task_id;      /* NULL: any */
	const char *run_id;       /* NULL: any */
	long limit;               /* 0: no limit */
};
typedef int (*receipt_fn)(const struct receipt *r, void *arg); /* non-zero stops */

/* For printing, the target masked (deliver.h): a JSON object, or one
 * line of tab-separated fields (created, status, kind, target, attempts,
 * answer or error, run, task) without its newline. */
struct cJSON *receipt_to_json(const struct receipt *r);
/* What a receiver said (a receipt's answer or error) as it is shown, in
 * either form: valid UTF-8, control characters as '?' or a blank, as
 * task-deliver keeps it now; what an older version kept may hold them.
 * Malloc'd; NULL for NULL. */
char *receipt_said_shown(const char *s);
void receipt_line(const struct receipt *r, struct buf *b);

/* store_deliver.c */
/* Add r unless (run, target) has one: *added says which. */
int store_receipt_add(struct store *st, const struct receipt *r, int *added, struct err *e);
/* Newest first. */
int store_receipt_list(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg,
    struct err *e);
/* Pending receipts due at now and not leased, soonest first, up to max. */
int store_receipt_due(struct store *st, int64_t now, long max, receipt_fn fn, void *arg,
    struct err *e);
/* Take receipt id for owner until lease_until, counting an attempt, if it
 * is still pending, due at now and not leased: *got says if it was. */
int store_receipt_claim(struct store *st, const char *id, const char *owner, int64_t now,
    int64_t lease_until, int *got, struct err *e);
/* Record an attempt's outcome (status, next_at, last_at, answer, error of
 * r) and release the lease, if owner still holds it: *ours says if so. */
int store_receipt_finish(struct store *st, const struct receipt *r, const char *owner, int *ours,
    struct err *e);
/* The receiver has parts_done parts of receipt id's message, and owner
 * goes on sending until lease_until (a lease is never shortened), if
 * owner still holds it: *ours says if so.  A sender killed between parts
 * leaves on record those it sent. */
int store_receipt_progress(struct store *st, const char *id, const char *owner, int parts_done,
    int64_t lease_until, int *ours, struct err *e);
/* Receipts made at or after since (INT64_MIN: all kept) by kind and
 * status: fn(kind, status, n). */
int store_receipt_counts(struct store *st, int64_t since, void (*fn)(const char *kind,
    const char *status, long long n, void *arg), void *arg, struct err *e);

/* The runs that ended at or after since among those started within
 * DELIVER_RUN_SPAN before it, and those of long_ids (a JSON array of run
 * ids) that ended, the earliest end first: fn(id, ended_at, arg),
 * non-zero stops. */
int store_runs_ended(struct store *st, int64_t since, const char *long_ids, int (*fn)(const char *id,
    int64_t ended_at, void *arg), void *arg, struct err *e);
/* The runs in flight that started before before: fn(id, arg). */
int store_runs_long(struct store *st, int64_t before, int (*fn)(const char *id, void *arg),
    void *arg, struct err *e);
/* Set DELIVER_LONG (was: its value, or NULL) to the runs in flight at now
 * for longer than DELIVER_RUN_SPAN, which the next look's span would miss
 * when they end. */
int store_runs_long_keep(struct store *st, int64_t now, const char *was, struct err *e);

/* What a delivery pass reads and leaves: the setting of the latest run
 * end it has looked at; without one it looks this far back. */
#define DELIVER_CURSOR "deliver_cursor"
#define DELIVER_FIRST_LOOK 3600
/* A pass reads the runs that ended among those started this long before
 * its look (runs_started); of one in flight longer, it keeps the id in
 * the setting DELIVER_LONG (a JSON array) for the pass that sees it end. */
#define DELIVER_RUN_SPAN 86400
#define DELIVER_LONG "deliver_long_runs"
/* store_deliver_work looks for runs that no pass ended (task-run in the
 * foreground) among those started this long before the cursor: a span
 * an idle pass reads cheaply in a busy store. */
#define DELIVER_FRESH_SPAN 3600
/* A longer run's end, written when it ends (the latest such): past the
 * cursor, it is work for store_deliver_work too, and the delivery pass it
 * starts reads the runs that ended (store_runs_ended). */
#define DELIVER_LATE_END "deliver_late_end"
/* Note run r's end in DELIVER_LATE_END when it came too late for the span
 * store_deliver_work reads; nothing for a shorter run. */
int store_deliver_late(struct store *st, const struct run *r, struct err *e);

/* Whether a delivery pass has work: *due, a pending receipt due at now;
 * *targets, a task (not in the trash) with targets of its own; *fresh
 * (looked for only when neither due nor targets and any say there is
 * nothing), a run that ended after the last pass looked, of a task with
 * targets, or of any task when any (the config has default targets):
 * one that no pass of task-tick ended (task-run in the foreground). */
int store_deliver_work(struct store *st, int64_t now, int any, int *due, int *targets, int *fresh,
    struct err *e);

/* What a backend provides (store_sqlite_deliver.c, store_pg_deliver.c). */
struct deliver_ops {
	int (*add)(struct store *st, const struct receipt *r, int *added, struct err *e);
	int (*list)(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg,
	    struct err *e);
	int (*due)(struct store *st, int64_t now, long max, receipt_fn fn, void *arg, struct err *e);
	int (*claim)(struct store *st, const char *id, const char *owner, int64_t now,
	    int64_t lease_until, int *got, struct err *e);
	int (*finish)(struct store *st, const struct receipt *r, const char *owner, int *ours,
	    struct err *e);
	int (*progress)(struct store *st, const char *id, const char *owner, int parts_done,
	    int64_t lease_until, int *ours, struct err *e);
	int (*counts)(struct store *st, int64_t since, void (*fn)(const char *kind,
	    const char *status, long long n, void *arg), void *arg, struct err *e);
	int (*work)(struct store *st, int64_t now, int any, int *due, int *targets, int *fresh,
	    struct err *e);
	int (*ended)(struct store *st, int64_t since, const char *long_ids, int (*fn)(const char *id,
	    int64_t ended_at, void *arg), void *arg, struct err *e);
	int (*running)(struct store *st, int64_t before, int (*fn)(const char *id, void *arg),
	    void *arg, struct err *e);
};
extern const struct deliver_ops sq_deliver_ops, pg_deliver_ops;

/* The columns every read of a receipt selects, in struct receipt's order. */
#define RECEIPT_COLS "r.id, r.run_id, r.task_id, r.target, r.kind, r.status, r.attempts," \
	" r.created_at, r.next_at, r.last_at, r.answer, r.error, t.name, r.parts_done"
#define RECEIPT_FROM " FROM receipts r LEFT JOIN tasks t ON t.id = r.task_id"

#endif
