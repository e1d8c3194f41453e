/* store_sql.h: what the SQL backends (store_sqlite*.c, store_pg*.c) share:
 * their statements about tasks and runs, written once from the tables of
 * task_fields.c in each backend's dialect, and every other statement the
 * two spell alike but for placeholders, with the parameters each takes.
 * Which tasks are due, which run was a task's last attempt and what a
 * listing's filter means are said here, once.  Not for cmd/. */
#ifndef AC_STORE_SQL_H
#define AC_STORE_SQL_H

#include "store.h"
#include "task_fields.h"

/* The condition of the due tasks' partial index, spelled as the index
 * spells it, so the planner uses it. */
#define STORE_SQL_DUE_WHERE "status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL"
#define STORE_SQL_QUEUED_WHERE "queued <> 0 AND deleted_at IS NULL AND status <> 'running'"
/* Running tasks whose due occurrence their --overlap handles at once (the
 * status index leaves pending out: few rows, whatever the schedule; its
 * condition spelled out, as SQLite does not infer it from status =
 * 'running', else it walks every task at each look). */
#define STORE_SQL_OVERLAP_WHERE "status = 'running' AND status <> 'pending' AND overlap <> 'queue'" \
	" AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL"

/* The runs in flight, found from their tasks' rows (store.c keeps the
 * one of each there): no index of runs says which are running, so that a
 * run's end changes none. */
#define STORE_SQL_IN_FLIGHT "runs.id IN (SELECT run_in_flight FROM tasks WHERE run_in_flight IS" \
	" NOT NULL) AND runs.status = 'running'"

/* What one step of pruning takes, in placeholders P ("?" or "$"), for the
 * statements around it that each backend writes its own way: task P1's
 * runs started before P2 and not running, at most P3, oldest first;
 * conversation P1's messages but its last P2 + 1, at most P3; the model
 * calls of no run made before P1, at most P2. */
#define STORE_SQL_PRUNE_RUNS(P) "(SELECT id FROM runs WHERE task_id = " P "1 AND started_at < " \
	P "2 AND status <> 'running' ORDER BY started_at LIMIT " P "3)"
#define STORE_SQL_PRUNE_MESSAGES(P) "(SELECT id FROM messages WHERE context = " P "1 AND id <" \
	" (SELECT id FROM messages WHERE context = " P "1 ORDER BY id DESC LIMIT 1 OFFSET " P "2)" \
	" ORDER BY id LIMIT " P "3)"
#define STORE_SQL_PRUNE_CALLS(P) "(SELECT id FROM llm_calls WHERE run_id IS NULL AND created_at < " \
	P "1 ORDER BY created_at LIMIT " P "2)"

/* The audit trail's columns, as store_audit_row and store_audit_read
 * (store_audit.h) order them. */
#define STORE_SQL_AUDIT_COLS "seq, at, actor, action, task_id, before, after, prev, hash"

/* How a backend's SQL differs. */
struct sql_dialect {
	char param;             /* placeholders: '?' writes ?1, ?2, ...; '$' writes $1, $2, ... */
	const char *order_key;  /* next-run order, tasks without one last, as its index spells it */
	const char *seq;        /* the column of insertion order */
	const char *lock;       /* ends a read in a unit of work: the rows stay as read */
	const char *lock_skip;  /* the same, passing over rows another holds */
	const char *like;       /* a pattern match in any case */
	const char *scan;       /* after "FROM tasks": read the table itself, in its order */
	const char *text_table; /* names and prompts in a table of their own, indexed for
	                         * texts of 3 characters or more; NULL: none */
	int owners_apart;       /* a run records its owner's id alone: the owner's host,
	                         * node, pid and start are on its row of processes */
	int unique_by_read;     /* a run's insert reads its unique key first, instead of
	                         * ON CONFLICT (every insert of a run holds its task's row) */
	int arrays;             /* SQL_TASKS_UPDATE writes many rows, a parameter an array
	                         * of each column (unnest); else one row */
};

/* Statements a backend prepares once and keeps, with their parameters in
 * order and what they return: */
enum {
	SQL_TASK_INSERT,        /* row_task(t, 0) */
	SQL_TASK_UPDATE,        /* row_task(t, 1) */
	SQL_TASK_GET,           /* id; the columns of task_read */
	SQL_TASK_GET_LOCK,      /* the same, held (the dialect's lock) */
	SQL_TASK_PREFIX,        /* from, to (a struct id_range), trashed, max; ids */
	SQL_CLAIM_DUE,          /* store_sql_claim; the columns of task_read, then the last attempt */
	SQL_CLAIM_QUEUED,
	SQL_CLAIM_ONE,
	SQL_CLAIM_OVERLAP,
	SQL_DUE_NEXT,           /* none; the earliest due_at, whether a run is queued */
	SQL_RUN_INSERT,         /* store_sql_run_insert */
	SQL_RUN_FINISH,         /* store_sql_run_finish */
	SQL_RUN_PREFIX,         /* from, to; the columns of run_read with the large ones */
	SQL_GATE_COUNT,         /* model, run id; store_sql_gate's counts */
	SQL_AUDIT_LAST,         /* none; the last entry's seq and hash */
	SQL_AUDIT_APPEND,       /* store_audit_row */
	SQL_AUDIT_PRUNE,        /* the last seq to delete */
	/* tasks and settings */
	SQL_TASK_BY_KEY,        /* idempotency key; the live task's id */
	SQL_TASK_BY_DEDUP,      /* task_dedup_key; a pending live twin's id */
	SQL_TASK_TRASH,         /* id, now */
	SQL_TASK_RESTORE,       /* id; the id restored */
	SQL_TASK_RESTORE_LAST,  /* none; the id of the last one trashed, restored */
	SQL_TRASH_PURGE,        /* none */
	SQL_TASK_QUEUE,         /* id, now */
	SQL_SETTING_GET,        /* key; value */
	SQL_SETTING_SET,        /* key, value */
	SQL_SETTING_DEL,        /* key */
	/* runs, conversations and model calls */
	SQL_RUN_NOTE,           /* run id, note */
	SQL_HISTORY_LOAD,       /* context, max (none: -1 or NULL); role, content, run_id,
	                           created_at, newest first */
	SQL_HISTORY_ADD,        /* context, role, content, run id, now */
	SQL_HISTORY_CLEAR,      /* context */
	SQL_CALL_USAGE,         /* since; store_call_usage's columns */
	/* passes, figures and pruning (store_history.h) */
	SQL_PASS_PUT,           /* host, at, mode, pid, version */
	SQL_PASS_LIST,          /* none; the same, newest first */
	SQL_TASK_DUE_COUNT,     /* now, late; the tasks due (or asked to run), and those due
	                           before late */
	SQL_CALL_TOKENS,        /* since; the tokens in and out of the model calls since */
	SQL_LAST_SUCCESS,       /* none; each task's id, its name (NULL in the trash) and the
	                           end of its last successful run, in id order */
	SQL_BUDGET_TASKS,       /* none; ids of the live tasks with a budget */
	SQL_PRUNED_TOTALS,      /* none; key, n */
	SQL_PRUNE_TASKS,        /* after, max; task id, keep: the tasks with runs after after */
	SQL_PRUNE_CONTEXTS,     /* after, max; the conversations after after */
	SQL_PRUNE_BOUNDS,       /* task id, two offsets; its oldest run's start, and those
	                           of its runs at the offsets from the newest */
	/* delivery receipts (store_deliver.h) */
	SQL_RECEIPT_ADD,        /* id, run id, task id, target, kind, created_at, next_at */
	SQL_RECEIPT_DUE,        /* now, max; RECEIPT_COLS */
	SQL_RECEIPT_CLAIM,      /* id, owner, now, lease until */
	SQL_RECEIPT_FINISH,     /* id, owner, status, next_at, last_at, answer, error, parts */
	SQL_RECEIPT_COUNTS,     /* since; kind, status, count */
	/* inputs of chained runs (store_chain.h) */
	SQL_INPUT_ADD,          /* INPUT_COLS */
	SQL_INPUT_BY_KEY,       /* task id, key; INPUT_COLS */
	SQL_INPUT_BIND,         /* id, run id */
	/* task-web's tokens and triggers (store_web.h) */
	SQL_WEB_TOKEN_ADD,      /* name, hash, read_only, created_at */
	SQL_WEB_TOKEN_DEL,      /* name */
	SQL_WEB_TOKEN_LIST,     /* none; name, hash, read_only, created_at */
	SQL_WEB_HOOK_GET,       /* task id; token_hash, secret */
	SQL_WEB_HOOK_EVENT,     /* task id, key, at, body_sha256, the old raw form's hash: no row
	                           when the key was had, but in that form (taken over) */
	SQL_WEB_HOOK_FIND,      /* task id, key, body_sha256: a row when recorded so */
	SQL_WEB_HOOK_PRUNE,     /* before, limit: event keys recorded before, at most limit */
	/* PostgreSQL only: several rows in one statement, each parameter an
	 * array of one column's values (store_sql_arrays), row after row. */
	SQL_TASKS_UPDATE,       /* row_task(t, 1)'s columns as arrays */
	SQL_RUNS_FINISH,        /* store_sql_run_finish's columns as arrays; for each run
	                           ended, the columns of task_read of its task, held, then its id */
	SQL_RUNS_INSERT,        /* store_sql_run_insert's columns as arrays; the ids inserted */
	SQL_COUNT
};
#define SQL_SOME_MAX 16
struct store_sql {
	const struct sql_dialect *d;
	char *text[SQL_COUNT];  /* written at first use: a program uses a few */
	struct {                /* SQL_TASKS_UPDATE of some columns: claims and ends write few */
		unsigned char cols[ROW_MAX];
		char *text;
	} some[SQL_SOME_MAX];
	int nsome;
};
void store_sql_init(struct store_sql *q, const struct sql_dialect *d);
void store_sql_free(struct store_sql *q);
/* Statement which (SQL_*): the same pointer every time, for as long as q,
 * so a backend can key its prepared statements by it. */
const char *store_sql(struct store_sql *q, int which);

/* SQL_TASKS_UPDATE of only the columns set in cols (COLS_WRITE positions,
 * the id's 0 aside), the same pointer for the same columns (NULL when
 * SQL_SOME_MAX sets are kept already: write them all then); with its
 * parameters, row by row, from each task's full row (row_task(t, 1)).
 * store_sql_tasks_changed sets in cols the columns whose values (or keep
 * flags) differ between two such rows of a task, and says if any did. */
const char *store_sql_tasks_update(struct store_sql *q, const unsigned char *cols);
void store_sql_tasks_pick(struct row *out, const struct row *full, const unsigned char *cols);
int store_sql_tasks_changed(const struct row *before, const struct row *after, unsigned char *cols);

/* A run gate's decision from its counts (runs in flight holding a slot,
 * those of the run's model, whether the run is still running): 1 take a
 * slot, 0 wait, -1 the run is gone. */
int store_sql_gate(int64_t all, int64_t mine, int64_t alive, int max_all, int max_model);

/* The statement of a claim (an SQL_CLAIM_*) and its parameters. */
const char *store_sql_claim(struct store_sql *q, const struct claim_req *req, struct row *p);
/* Parameters of run_insert: the run's columns, then its owner's (NULL: none),
 * its id alone where the dialect keeps owners apart. */
void store_sql_run_insert(const struct sql_dialect *d, struct row *p, const struct run *r,
    const struct owner *o);
/* Parameters of run_finish: the run's id and end, then the owner it must have. */
void store_sql_run_finish(struct row *p, const struct run *r, const char *owner_id);

/* The rows' cells (rows[0..n), of one shape) as one parameter per column:
 * PostgreSQL array literals ("{1,NULL}", "{\"a\",NULL}"), malloc'd into
 * out[0..rows[0].n). */
void store_sql_arrays(const struct row *rows, size_t n, char **out);

/* Built for each listing, malloc'd, with p its parameters: the tasks a
 * filter selects, in its order (count: how many), and the runs. */
char *store_sql_task_list(const struct sql_dialect *d, const struct task_filter *f, int count,
    struct row *p);
/* The same, with how a text filter finds its tasks: */
enum {
	SQL_TEXT_SCAN,          /* read every task in the table's order (the dialect's scan) */
	SQL_TEXT_INDEX,         /* SQLite: only the tasks keys names (a JSON array of
	                           task_text_keys.n, the trigram index's candidates) */
	SQL_TEXT_WALK,          /* walk the listing's order until its limit: many match */
};
char *store_sql_task_list_text(const struct sql_dialect *d, const struct task_filter *f, int count,
    int text_how, const char *keys, struct row *p);
/* f->text as a phrase of the trigram index (malloc'd), or NULL when it is
 * shorter than the index can look for (three characters). */
char *store_sql_text_phrase(const char *text);
char *store_sql_run_list(const struct sql_dialect *d, const struct run_filter *f, struct row *p);

#endif
