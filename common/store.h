/* store.h: the store of tasks, runs, conversations and settings: the one
 * interface every backend provides, and all that the rest of agentcron
 * sees of them.  The backend is chosen when the store is opened: an SQLite
 * file (the embedded default, store_sqlite*.c) or a PostgreSQL database
 * that several hosts share (a postgres:// or postgresql:// URI,
 * store_pg*.c).
 *
 * Atomicity is part of the contract, not a side effect of one lock:
 * - Every function is atomic on its own.
 * - store_begin .. store_commit is one unit of work: a task read in it with
 *   store_task_get stays as read until it ends (SQLite takes the file's
 *   write lock; PostgreSQL locks the rows read), so a read-modify-write is
 *   safe against every other writer.
 * - Claiming an occurrence, starting a manual or queued run (store_claim)
 *   and ending a run as its owner (store_runs_end, store_run_recover) are
 *   each one operation, correct under any number of concurrent writers on
 *   any number of hosts.  A run is unique per (task, scheduled instant,
 *   arming) and a task has at most one run in flight: unique indexes of the
 *   database enforce both, never timing.  Claimers skip the tasks another
 *   claimer holds instead of queueing behind it.
 * - A run ends once: a late result for a run that recovery already ended is
 *   kept as that run's note; only a late success whose retry (armed at
 *   recovery) has not started changes its task, in the same unit of work:
 *   the occurrence completes and the retry is cancelled (late_fn).
 *
 * Every function returns an ST_* status and fills *e on failure. */
#ifndef AC_STORE_H
#define AC_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store_run.h"
#include "task.h"
#include "util.h"

struct store;

/* ---- opening ---- */

enum {
	STORE_READ = 1 << 0, /* read only: create nothing; no store reads as an empty one */
	STORE_LOG = 1 << 1,  /* appends records (llm-call): a crash may lose the last ones */
};

/* The store to open: TASK_DB, else the configuration file's `db` key, else
 * $XDG_DATA_HOME/agentcron/tasks.db.  ST_INVALID when the configuration
 * file cannot be used (its message). */
int store_where(char *buf, size_t n, struct err *e);
const char *store_default_path(char *buf, size_t n); /* TASK_DB, else the XDG path */
int store_is_uri(const char *where);                 /* a postgres:// URI or a "key=value" connection string */
/* Open where (NULL: the default), creating and upgrading the schema unless
 * STORE_READ.  A schema newer than this program's is refused. */
int store_open(const char *where, int flags, struct store **out, struct err *e);
/* Open the store cf names (TASK_DB first; cf already loaded) for a pass of
 * task-tick.  From cron (cron set), while the last idle pass's note holds
 * (idle_hint.h) the pass is done: *out is NULL (on a server it recorded
 * itself, on the connection it would have opened the store on).  Else
 * *out is the store, opened. */
struct config;
int store_open_pass(const struct config *cf, int cron, int64_t now, struct store **out,
    struct err *e);
void store_close(struct store *st);
/* A store opened STORE_READ where there was none reads as an empty one and
 * creates nothing; before its first write, this makes the real one. */
int store_writable(struct store *st, struct err *e);
int store_absent(const struct store *st);           /* read as such a stand-in: no store there */
const char *store_name(const struct store *st);     /* for messages; never holds a password */
/* What another program's TASK_DB should say to open this store: an
 * absolute path, or the URI without its password. */
const char *store_locator(const struct store *st);
void store_locator_of(const char *where, char *buf, size_t n); /* the same, unopened */
/* The password the store's URI holds, which store_locator leaves out,
 * for an executor's PGPASSWORD; NULL if none. */
const char *store_password(const struct store *st);
/* No statement waits for the server past deadline_ms (mono_ms(); 0: no
 * such bound) nor longer than op_ms (0: no bound); one that would has its
 * connection cut and fails as a lost connection (a partition: a server
 * that holds the connection open and never answers).  Reconnecting is
 * bounded alike.  Only a server's store waits; a file store never does. */
void store_deadline(struct store *st, int64_t deadline_ms, int64_t op_ms);
/* In off, the server's settings that let a crash lose commits it has
 * acknowledged ("fsync and synchronous_commit"), "" when none does (a
 * file store; a server whose agentcron.allow_nondurable is on). */
int store_durability(struct store *st, char *off, size_t n, struct err *e);
/* *n: the server's standbys when none of them is synchronous (a failover
 * may lose what it acknowledged), else 0; 0 for a file. */
int store_async_standbys(struct store *st, long *n, struct err *e);
/* The store's clock minus ours in ms, measured at open (0 for a file).
 * "Now" for firing is the store's: the clock plus this, unless TASK_NOW. */
int64_t store_clock_skew_ms(const struct store *st);
int store_now(const struct store *st, int64_t *now, struct err *e); /* TASK_NOW, else the store's clock */
/* Is this still the store it was?  A file replaced or deleted at its path
 * is reopened (*what says what happened; "" when nothing did); a lost
 * server connection is tried again.  ST_ERR when it cannot be reached. */
int store_refresh(struct store *st, char *what, size_t n, struct err *e);

/* ---- units of work ---- */

int store_begin(struct store *st, struct err *e);
int store_commit(struct store *st, struct err *e);
void store_rollback(struct store *st);              /* harmless outside a unit of work */

/* ---- tasks ---- */

/* A listing filter; zeroed fields (and -1 where noted) mean "any". */
struct task_filter {
	unsigned statuses;       /* bit (1 << STATUS_*) */
	unsigned kinds;          /* bit (1 << KIND_*) */
	const char *channel;
	const char *intent;
	const char *scope;       /* only the tasks of this scope */
	const char *origin;      /* only the tasks it made ("agent:run:ID", ...) */
	int agent_made;          /* only the tasks agents made */
	const char *name;        /* exactly this name */
	const char *text;        /* name or prompt holds it, in any case (a scan of the tasks) */
	unsigned last;           /* bit (1 << RUN_*): how the last run ended */
	int paused;              /* also (with statuses: or) the tasks paused by failures */
	int enabled;             /* -1 any, 0 disabled, 1 enabled */
	int64_t now;             /* reference for the two windows below */
	int64_t due_within;      /* seconds, -1 any: next run <= now + due_within, or queued */
	int64_t due_after;       /* seconds, -1 any: next run >= now + due_after */
	long limit;              /* 0: no limit */
	int trashed;             /* list the trash instead; -1: both (counting only) */
	int serialize;           /* counting in a unit of work: one such count at a time
	                            across connections, until the unit ends (quotas) */
};
void task_filter_init(struct task_filter *f);

typedef int (*task_fn)(const struct task *t, void *arg); /* non-zero stops */

/* Insert t (id generated when empty); with dedup, a pending twin (same key,
 * or same task_dedup_key) is returned in dup_id with *is_dup = 1 and
 * nothing written.  A task with deleted_at set goes straight into the
 * trash, nobody's twin.  ST_REFUSED: the id or key is taken. */
int store_task_add(struct store *st, struct task *t, int dedup, int *is_dup, char dup_id[37],
    struct err *e);
/* An id, a unique prefix (4+ characters, any case) or an exact unique name
 * to a full id.  ST_NOTFOUND: "no task 'x'"; ST_REFUSED: ambiguous, the
 * candidates listed. */
int store_task_resolve(struct store *st, const char *prefix, int trashed, char id[37], struct err *e);
int store_task_get(struct store *st, const char *id, struct task *t, struct err *e); /* t uninitialised on entry */
/* store_task_get for a unit that only looks at the task and writes it not
 * (another's twin): on PostgreSQL its row is not locked, or a claim on
 * another host would pass over it, due, until the unit ends. */
int store_task_look(struct store *st, const char *id, struct task *t, struct err *e);
int store_task_put(struct store *st, const struct task *t, struct err *e);  /* every field, by id */
/* In next-run order (tasks without one last), ties in insertion order;
 * the trash newest deletion first. */
int store_task_list(struct store *st, const struct task_filter *f, task_fn fn, void *arg, struct err *e);
int store_task_count(struct store *st, const struct task_filter *f, long *n, struct err *e);
int store_task_trash(struct store *st, const char *id, int64_t now, struct err *e); /* stops firing at once */
int store_trash_restore(struct store *st, const char *id, char restored[37], struct err *e); /* id NULL: latest */
int store_trash_purge(struct store *st, long *n, struct err *e);
int store_task_queue(struct store *st, const char *id, int64_t now, struct err *e); /* ask for a run */

/* ---- settings ---- */

#define STORE_SETTING_PAUSED "paused"  /* since when firing is paused (RFC 3339) */
int store_setting_get(struct store *st, const char *key, char **value, struct err *e); /* NULL if unset */
int store_setting_set(struct store *st, const char *key, const char *value, struct err *e); /* NULL deletes */

/* ---- runs ---- */

/* struct run, run_init, run_free: store_run.h */

struct run_filter {
	const char *task_id;   /* NULL: every task */
	int status;            /* RUN_*, -1: any */
	int64_t since;         /* TIME_NONE: any; else started_at >= since */
	long limit;            /* 0: no limit */
	int with_output;       /* also read output, error and note (they can be large) */
	const char *before;    /* a run's full id: only those listed after it (keyset paging) */
	int gate_skips;        /* only runs skipped by their gate (STORE_GATE_IDLE) */
};
/* The reason a run its gate found nothing to do for starts with. */
#define STORE_GATE_IDLE "gate: nothing to do"
void run_filter_init(struct run_filter *f);
typedef int (*run_fn)(const struct run *r, void *arg); /* non-zero stops */

int store_run_list(struct store *st, const struct run_filter *f, run_fn fn, void *arg, struct err *e); /* newest first */
int store_run_count(struct store *st, const struct run_filter *f, long *n, struct err *e);
int store_run_get(struct store *st, const char *id_or_prefix, struct run *r, struct err *e); /* any case */
/* Set a run's note: a run in flight asked to end (--overlap replace)
 * carries "cancel: WHY" until its owner ends it. */
int store_run_note(struct store *st, const char *id, const char *note, struct err *e);
#define STORE_CANCEL_NOTE "cancel: "

/* ---- owners: who runs what ---- */

/* A process that claims runs.  Its id is new at every start; node tells
 * where its pid means something (the machine's boot and pid namespace, or
 * TASK_HOST_ID), so a dead owner on this node is recognised at once. */
struct owner {
	char id[37];
	char host[256];        /* the hostname, for people */
	char node[128];
	long long pid;
	long long start;       /* clock ticks after boot (field 22 of /proc/PID/stat) */
};
int owner_self(struct owner *o, struct err *e);    /* this process, with a new id */

/* Register o as the owner of this store's claims from now on.  A backend
 * that tracks liveness (PostgreSQL) records a heartbeat on its own clock. */
int store_owner_start(struct store *st, const struct owner *o, struct err *e);
/* A sign of life.  An owner others declared dead (it was silent too long
 * and its runs were recovered) must claim nothing more under its identity:
 * it goes on under a new one, written to *self and registered, and
 * *renewed says so (also when taking it failed: the error). */
int store_owner_sign(struct store *st, struct owner *self, int *renewed, struct err *e);
void store_owner_stop(struct store *st);            /* leaves, as a clean exit */

/* ---- claims ---- */

/* Where a pass has got to among the due tasks, in (due_at, id) order. */
struct due_cursor {
	int64_t due;
	char id[37];
};
void due_cursor_init(struct due_cursor *c);

/* OVERLAP: the running tasks whose next occurrence is due at now and whose
 * --overlap is skip or replace (what is due while they run). */
enum { CLAIM_DUE, CLAIM_QUEUED, CLAIM_ONE, CLAIM_OVERLAP };
struct run_end;
typedef int (*end_fn)(struct task *t, const struct run *r, int *write, void *arg, struct err *e);
/* A late success (a run recovery had ended succeeded after all): if *t
 * waits for the retry recovery armed of r's occurrence, not started, put
 * *t back as it stood while r ran and return 1 (end_fn then completes the
 * occurrence); else leave it, 0. */
typedef int (*late_fn)(struct task *t, const struct run *r, void *arg);
struct claim_req {
	int what;              /* CLAIM_* */
	int64_t now;           /* DUE: due at or before now */
	struct due_cursor *cur; /* DUE: moves past every task looked at */
	const char *id;        /* ONE: the task, waited for if another holds it */
	int max;               /* DUE, QUEUED: tasks looked at, at most */
	/* Runs that ended, recorded first in the claim's own transaction (as
	 * store_runs_end would, with end and end_arg): one commit for both. */
	struct run_end *ends;
	size_t nends;
	end_fn end;
	late_fn late;
	void *end_arg;
};

/* What a claim decides for one task, handed the task as stored and held
 * (last_attempt: the attempt number of its latest non-manual run, 0 if
 * none).  It may edit *t and fill *r, and sets *decision; a status other
 * than ST_OK stops the claim with that error. */
enum {
	CLAIM_SKIP,            /* change nothing */
	CLAIM_WRITE,           /* write t, and insert r when r->id is set (a record, not a run) */
	CLAIM_FIRE,            /* insert r (running, owned by the registered owner) and write t */
};
typedef int (*claim_fn)(struct task *t, int last_attempt, struct run *r, int *decision, void *arg,
    struct err *e);

/* A run started by a claim, and its task as written. */
struct claimed {
	struct task task;
	struct run run;
};
void claimed_free(struct claimed *c, size_t n);

/* Claim: DUE, the enabled pending tasks due at req->now past the cursor,
 * skipping those another claimer holds; QUEUED, the tasks asked to run that
 * are not running; ONE, req->id.  req->ends are recorded first; then fn
 * decides each task; a fired run whose
 * occurrence already has a run, or whose task has one in flight, is not
 * inserted and its task not written.  Everything is one transaction: on
 * success the runs started are out[0..*n) (out has room for max, or 1),
 * on failure nothing is written.  Starting a run needs a registered owner
 * (store_owner_start); a claim that only skips or writes (a dry run) does
 * not. */
int store_claim(struct store *st, const struct claim_req *req, claim_fn fn, void *arg,
    struct claimed *out, int *n, struct err *e);
/* What a claimer looks at before it claims, read at once: whether firing
 * is paused and, when not, the earliest due_at of an enabled pending task
 * (TIME_NONE: none) and whether a run is queued.  Nothing is locked. */
struct claim_look {
	int paused;
	int64_t next;
	int queued;
};
int store_claim_look(struct store *st, struct claim_look *out, struct err *e);
/* Concurrency (max_concurrent, concurrency.MODEL): run run_id, in flight,
 * takes a slot if fewer than max_all runs in flight hold one (0: no limit)
 * and fewer than max_model of model's do (0: none; model "" counts in all
 * only).  One unit of work, serialized with every other host's: *got is 1
 * when taken, 0 when full, -1 when the run is no longer in flight (its
 * owner was declared dead and it was recovered).  lease, unless TIME_NONE,
 * is the run's new lease (a run that waits long keeps its claim). */
int store_run_gate(struct store *st, const char *run_id, const char *model, int max_all,
    int max_model, int64_t lease, int *got, struct err *e);

/* end_fn (above): the task's new state after run r ended: edit *t (held)
 * and set *write. */

struct run_end {
	struct run *run;       /* status, ended_at, exit_code, output, error, duration_ms */
	const char *owner;     /* the owner it was claimed by; NULL: the registered one */
	int ours;              /* out: 1 recorded; 0 it had been ended (recovered): kept as its note */
	int completed;         /* out, when not ours: a late success that completed its occurrence */
};
/* End runs as their owner, each with fn's change to its task, in one
 * transaction; a late success as late says (NULL: kept as a note only). */
int store_runs_end(struct store *st, struct run_end *ends, size_t n, end_fn fn, late_fn late,
    void *arg, struct err *e);

/* A run in flight, as recovery sees it. */
struct run_claim {
	char id[37], task_id[37];
	struct owner owner;
	int64_t slot, started_at, lease_until;
	int trigger;           /* TRIGGER_*, -1 when not known */
	char prev_status[16];
	int attempt, arming;
	int64_t silent;        /* seconds since its owner's last sign of life on the store's
	                          clock; -1 when the backend does not track it */
};
int store_run_claims(struct store *st, int (*fn)(const struct run_claim *c, void *arg), void *arg,
    struct err *e);
/* End c's run as r says (interrupted) if it is still in flight under the
 * same owner and, when stale_after > 0, that owner is still silent for that
 * many seconds; then declare the owner dead.  *done = 0 when it was not. */
int store_run_recover(struct store *st, const struct run_claim *c, int64_t stale_after,
    struct run *r, end_fn fn, void *arg, int *done, struct err *e);

/* ---- idle passes ---- */

/* At the end of a pass from cron that did nothing: if nothing is queued,
 * due at now, in flight or to deliver and firing is not paused (looked at
 * in one unit holding the write lock; on a server, in the snapshot the
 * pass itself read), leave the note that lets the next
 * passes skip reading the store until the next due instant (idle_hint.h;
 * cfg the config file read, may be NULL; written, the time the pass
 * recorded).  *marked says if it did.  Nothing is written to the store:
 * the last call on it before store_close. */
int store_idle_mark(struct store *st, const char *cfg, int64_t now, int64_t written, int *marked,
    struct err *e);
/* The passes such notes record (host, at: the last that took it, mode
 * "cron", version): the standing note's and the one a commit retired,
 * p[0..n) and the pass record each was written with, written[0..n) (room
 * for 2 each), n returned. */
struct pass;
int store_idle_passes(struct store *st, struct pass *p, int64_t *written);

/* ---- wake-ups ---- */

void store_wake(struct store *st);                  /* the schedule changed: watchers look again */
/* A descriptor that polls readable when another process called store_wake
 * (-1 while the store cannot be reached); store_wake_take then says whether
 * it was a wake-up, and drains it. */
int store_wake_fd(struct store *st, struct err *e);
int store_wake_take(struct store *st);

/* ---- conversations and model calls ---- */

struct history_msg {
	char *role;            /* "user" or "assistant" */
	char *content;
	char *run_id;          /* the run that added it, or NULL */
	int64_t created_at;
};
void history_free(struct history_msg *m, size_t n);

struct llm_call {
	long long id;          /* set by the store */
	char *run_id, *task_id, *context;
	char *provider, *model; /* model: the one asked for */
	char *answered_model;  /* the provider's word for who answered, or NULL */
	char *fallback_from;   /* the model asked first, refused as gone, or NULL */
	char *system_prompt, *prompt, *answer;
	long input_tokens, output_tokens; /* -1 unknown */
	double cost;           /* dollars; -1 when the model has no price */
	char *finish_reason;
	long duration_ms;
	char *error;           /* NULL on success */
	char *tool_calls;      /* JSON array of the tool calls made, or NULL */
	int64_t created_at;
	char *request;         /* the first request, as llm_request.h keeps it, or NULL */
	/* Of cost and tokens, what is in the spend ledger already (written
	 * as each request's answer came): store_call_add adds the rest. */
	double ledger_dollars;
	long long ledger_tokens;
};
void llm_call_free(struct llm_call *c);
typedef int (*llm_call_fn)(const struct llm_call *c, void *arg); /* non-zero stops */

/* The last max messages of context (0: all), oldest first, starting with a
 * user message; *out is NULL when there are none. */
int store_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e);
/* One exchange, the prompt and the answer together. */
int store_history_append(struct store *st, const char *context, const char *prompt,
    const char *answer, const char *run_id, int64_t now, struct err *e);
int store_history_clear(struct store *st, const char *context, long *n, struct err *e);
int store_call_add(struct store *st, struct llm_call *c, struct err *e); /* sets c->id */
/* Newest first: of one run (run_id), else of one task (task_id), else all;
 * limit 0: no limit. */
int store_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e);
/* What the calls of task_id (NULL: of every task, and of none) recorded at
 * or after since cost: dollars (a call without a price: 0) and tokens, in
 * and out. */
int store_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e);
/* A number that changes when another connection commits to the store
 * (SQLite's data_version), so what was read is known to be unchanged
 * while it stays; -1 when the store cannot tell (PostgreSQL). */
int store_others_wrote(struct store *st, int64_t *version, struct err *e);
/* A call as spending sees it; name is its task's, NULL when it has none. */
struct call_usage {
	char *task_id, *name, *model;
	char *answered_model;  /* NULL: not said, or the same */
	int64_t created_at;
	long input_tokens, output_tokens; /* -1 unknown */
	double cost;           /* -1: no price */
};
typedef int (*call_usage_fn)(const struct call_usage *u, void *arg); /* non-zero stops */
/* Every call recorded at or after since (TIME_NONE: all), oldest first. */
int store_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e);

/* The spend ledger: what each task (task_id) and every call together
 * spent, by quarter-hour, kept whatever pruning removes; store_call_add
 * adds to it.  store_spend_add adds spend without a record (one request
 * of a call, as its answer arrives), and to its run's reservation
 * (run_id, may be NULL). */
int store_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e);
/* Spent since (a quarter-hour: an instant inside one counts all of it) by
 * task_id (NULL: by all), plus what the runs in flight (of task_id, or
 * all) reserved and have not spent yet, except_run's (may be NULL) left out. */
int store_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e);
/* Run run_id of task_id, starting, reserves what it is expected to spend,
 * counted against budgets while it is in flight, less what it has spent (a
 * task keeps one reservation, its last run's): what the task's last
 * reserved run spent, else the most of its last runs whose calls are on
 * record (read only if it ran before: ran), else what *dollars and
 * *tokens hold on the call.  They hold what was reserved on return. */
int store_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e);
/* What a run of any task spent lately: the mean of the last runs whose
 * calls are on record; *known 0 when none is. */
int store_run_cost(struct store *st, double *dollars, long long *tokens, int *known,
    struct err *e);
#define STORE_SPEND_BUCKET 900 /* seconds: the ledger's quarter-hours */

#endif
