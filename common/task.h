/* task.h: the task model of DESIGN.md: fields, kinds, statuses, validation,
 * the next firing instant and the human description of a schedule. */
#ifndef AC_TASK_H
#define AC_TASK_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "prompt_text.h"
#include "util.h"

/* KIND_EVERY: a fixed interval in real time (--every) from an anchor. */
enum task_kind { KIND_CRON, KIND_AT, KIND_PLAN, KIND_MANUAL, KIND_HEARTBEAT, KIND_EVERY,
	KIND_COUNT };
enum task_status { STATUS_PENDING, STATUS_RUNNING, STATUS_COMPLETED, STATUS_FAILED,
	STATUS_CANCELLED, STATUS_COUNT };
/* How a run ended, or that it has not: unstarted is a run that could not
 * start for lack of resources and leaves its task due. */
enum run_status { RUN_RUNNING, RUN_SUCCESS, RUN_FAILED, RUN_TIMEOUT, RUN_INTERRUPTED,
	RUN_SKIPPED, RUN_UNSTARTED, RUN_MISSED, RUN_CANCELLED, RUN_BLOCKED, RUN_STATUS_COUNT };
/* What started a run: its slot on time, a person, a retry of a failed
 * slot, a slot caught up late, a heartbeat pass, a past slot replayed,
 * the end of a run it follows (chain.h), an event with a payload, a past
 * run's request sent again (task-run --replay: no occurrence). */
enum run_trigger { TRIGGER_SCHEDULE, TRIGGER_MANUAL, TRIGGER_RETRY, TRIGGER_CATCHUP,
	TRIGGER_HEARTBEAT, TRIGGER_BACKFILL, TRIGGER_AFTER, TRIGGER_EVENT, TRIGGER_REPLAY,
	TRIGGER_COUNT };
enum missed_policy { MISSED_ONCE, MISSED_SKIP, MISSED_ALL, MISSED_COUNT };
/* An occurrence due while its task still runs: waits for it, is skipped,
 * or ends it. */
enum overlap_policy { OVERLAP_QUEUE, OVERLAP_SKIP, OVERLAP_REPLACE, OVERLAP_COUNT };

#define TIME_NONE INT64_MIN /* an instant that is not set */
#define TASK_DEFAULT_RETRIES 3
#define TASK_DEFAULT_RECURRING_RETRIES 2 /* retries of a recurring task's failed occurrence */
#define TASK_DEFAULT_PAUSE_AFTER 5 /* failed occurrences in a row that pause a task */
#define TASK_DEADLINE_MAX (366 * 86400)
#define TASK_COUNT_MAX 100000 /* --count at most */
#define TASK_EVERY_MIN 60        /* --every at least a minute, */
#define TASK_EVERY_MAX (366 * 86400) /* at most a year */
#define TASK_SCOPE_MAX 64
#define TASK_GATE_TIMEOUT 60     /* seconds a gate may take, when its task does not say */
#define TASK_GATE_TIMEOUT_MAX 86400
#define TASK_COMMENT_MAX 500   /* bytes of a comment */
/* Bytes of the fields a run's environment carries (TASK_INTENT, ...), where
 * one variable holds at most 128 KiB: words, and JSON lists and objects. */
#define TASK_ENV_WORD_MAX 4096
#define TASK_ENV_JSON_MAX (64 * 1024)
/* Retries past any count of failures: a one-shot that backs off until it
 * succeeds, as Kai's do.  A plain number, so the firing rule "attempt <=
 * retries" needs no case of its own. */
#define TASK_RETRIES_FOREVER INT_MAX

struct task {
	char id[37];
	char *name, *prompt, *system_prompt;
	int kind;                  /* KIND_* */
	char *cron;                /* KIND_CRON: the expression as given; several "E1; E2" (cron.h) */
	int every;                 /* KIND_EVERY: seconds between occurrences, else -1 */
	int64_t anchor;            /* KIND_EVERY: the instant the occurrences count from */
	int64_t not_before;        /* cron, every: no occurrence before this, or TIME_NONE */
	int stagger;               /* -1: the config's stagger applies; 0: not (--jitter 0) */
	int64_t *plan;             /* KIND_AT: one instant; KIND_PLAN: ascending */
	size_t nplan;
	char *tz;                  /* IANA zone the schedule is read in */
	int enabled;
	int status;                /* STATUS_* */
	int64_t next_run_at;       /* nominal next slot, or TIME_NONE */
	int64_t due_at;            /* next_run_at plus jitter, or TIME_NONE (derived) */
	int64_t last_run_at;       /* or TIME_NONE */
	char *last_status;         /* success, failed, timeout, interrupted */
	char *last_error, *last_result;
	int consecutive_failures;
	char *context;             /* NULL: a fresh conversation each run */
	char *attachments;         /* JSON array of strings, or NULL */
	char *model, *exec, *notify;
	char *gate;                /* a command run before the executor (--gate), or NULL */
	int gate_timeout;          /* its seconds; -1: TASK_GATE_TIMEOUT */
	int timeout;               /* seconds; 0: the default */
	int retries;               /* -1: the default; or TASK_RETRIES_FOREVER */
	char *intent, *channel;
	char *payload;             /* JSON object, or NULL */
	char *key;                 /* idempotency key, or NULL */
	int missed;                /* MISSED_* */
	int jitter;                /* seconds of randomized delay, 0 none */
	int overlap;               /* OVERLAP_* */
	int deadline;              /* seconds after its instant an occurrence may still start;
	                              0: the configuration's, else on time within FIRE_GRACE */
	int pause_after;           /* failed occurrences in a row that pause it; -1 the
	                              default, 0 never */
	char *paused;              /* why it was paused (disabled), or NULL: by failures, or a person on task-web */
	int queued;                /* a run was asked for (task-run --queue) */
	int64_t until_at;          /* recurring: no occurrence after this, or TIME_NONE */
	int count;                 /* recurring: this many occurrences in all, 0 no limit */
	int64_t ends_at;           /* the last instant an occurrence may have (derived from
	                              until_at and count when armed), or TIME_NONE */
	char *mcp;                 /* JSON array of MCP server names its runs may use, or NULL */
	char *mcp_allow;           /* JSON array of tool patterns those runs may call, or NULL */
	char *fallback_models;     /* JSON array of the models asked, in order, when the
	                              provider says the model is gone, or NULL */
	char *origin;              /* who made it: "user", "agent:run:ID", "agent:session:ID";
	                              NULL reads as the user */
	char *scope;               /* the scope agents see it in, or NULL */
	char *notify_on;           /* the events its hook hears of (notify.h), NULL: the default */
	char *deliver;             /* JSON array of delivery targets (deliver.h), or NULL: the config's */
	char *deliver_on;          /* which runs are delivered (notify.h's words), NULL: every end */
	char *after;               /* JSON array of "ID:ON": the runs it follows (chain.h), or NULL */
	char *budget;              /* AMOUNT/PERIOD (spend.h), NULL: none */
	int64_t budget_noticed;    /* the budget window its hook last heard of, or TIME_NONE */
	char *output_hash;         /* of its last successful run's output, for `change` */
	char *keep;                /* how much history it keeps (history.h: "30d", "500",
	                              "forever"), or NULL: the configured default */
	char *comment;             /* for people: why it exists, who asked (one line), or NULL */
	int arming;                /* bumped each time the schedule is set again: an instant
	                              that already ran is a new occurrence in a new arming */
	int64_t last_success_at;   /* when its last successful run ended, or TIME_NONE */
	char run_in_flight[37];    /* the id of its run in flight, or "": one at a time */
	int run_in_flight_set;     /* written only when set: other writes keep the store's */
	int64_t created_at, updated_at, deleted_at;
};

/* A small cache of loaded zones, so that scheduling many tasks reads each
 * zone file once.  Functions taking one accept NULL (load every time). */
struct zones;
struct tz;

/* Runs a function's zone lookups through zs, or a temporary cache when zs
 * is NULL (free tmp with zones_free). */
#define WITH_ZONES(zs, tmp) struct zones *tmp = (zs) ? NULL : zones_new(); if (!(zs)) (zs) = tmp

/* zones.c */
struct zones *zones_new(void);
void zones_free(struct zones *zs);
int zones_get(struct zones *zs, const char *name, const struct tz **z, struct err *e); /* zs owns *z */
const char *zones_local(struct zones *zs);     /* the local zone's name, looked up once */
/* The config's stagger, for the schedules computed through zs: each
 * occurrence of a fixed-time cron expression waits a fixed offset per task
 * within secs (0: off). */
void zones_set_stagger(struct zones *zs, int secs);
int zones_stagger(const struct zones *zs);

/* task.c */
void task_init(struct task *t);                 /* empty task with defaults */
/* task_fields.c: by the table of fields, so no member is missed */
void task_free(struct task *t);                 /* frees members, keeps t */
void task_copy(struct task *dst, const struct task *src); /* deep copy into an uninitialised dst */
/* task.c */
const char *task_kind_name(int kind);           /* "cron", "at", "plan", "manual", "heartbeat" */
int task_kind_parse(const char *s);             /* -1 if unknown */
const char *task_status_name(int status);
int task_status_parse(const char *s);
const char *run_status_name(int status);        /* "running", "success", ... */
int run_status_parse(const char *s);            /* -1 if unknown */
const char *run_trigger_name(int trigger);      /* "schedule", "manual", ... */
int run_trigger_parse(const char *s);           /* -1 if unknown */
const char *task_missed_name(int missed);
int task_missed_parse(const char *s);
const char *task_overlap_name(int overlap);    /* "queue", "skip", "replace" */
int task_overlap_parse(const char *s);
/* The retries of a failed occurrence and the failures in a row that pause
 * the task, defaults applied (TASK_RETRIES_FOREVER: -1). */
int task_retries(const struct task *t);
int task_pause_after(const struct task *t);
/* The reason a pause after failures in a row starts with, and whether t's
 * pause is one (task-web's pause by a person gives its own reason). */
#define TASK_PAUSED_FAILURES "paused after "
int task_paused_by_failures(const struct task *t);
int task_is_recurring(const struct task *t);    /* cron, every or heartbeat */
int task_repeats(const struct task *t);         /* a schedule of its own that recurs: cron, every */
/* Who made it, for people: "the user", "an agent, in run ID", "an agent, in session ID". */
void task_origin_describe(const struct task *t, char *buf, size_t n);
/* A scope's name: 1 to TASK_SCOPE_MAX letters, digits, '.', '_', '-'. */
int task_scope_check(const char *name, struct err *e);
/* The first slot strictly after `after` (TIME_NONE when there is none). */
int task_next_slot(const struct task *t, struct zones *zs, int64_t after, int64_t *slot, struct err *e);
/* Recompute next_run_at and due_at from `now` for a pending task. */
int task_schedule_from(struct task *t, struct zones *zs, int64_t now, struct err *e);
int64_t task_jitter_delay(const char *id, int64_t slot, int jitter); /* fixed per (task, slot) */
int64_t task_stagger_offset(const char *id, int window); /* 0 .. window-1, fixed per task */
int task_staggered(const struct task *t, struct zones *zs, int64_t slot); /* of a fixed-time expression */
/* How long after slot the task is due: its jitter when it has one (> 0),
 * else the stagger zs has, unless the task opted out (stagger 0). */
int64_t task_delay(const struct task *t, struct zones *zs, int64_t slot);

/* task_describe.c */
void task_describe(const struct task *t, struct zones *zs, char *buf, size_t n); /* "Daily at 07:00", ... */
/* task.c: an instant in the task's zone, the one formatter of times for people and
 * models: "none" when unset; UTC RFC 3339 when the zone cannot be read. */
enum time_style {
	TIME_WALL,      /* 2026-11-23 07:00 (seconds only when not zero) */
	TIME_WALL_ZONE, /* 2026-11-23 07:00 GMT */
	TIME_RFC3339,   /* 2026-11-23T07:00:00+00:00 */
};
void task_fmt_time(const struct task *t, struct zones *zs, int64_t when, int style, char *buf,
    size_t n);
/* The same in a zone given by name (NULL: the local zone), for listings
 * that show every row in one zone. */
void zone_fmt_time(struct zones *zs, const char *zone, int64_t when, int style, char *buf,
    size_t n);
/* task_describe.c: the end for people: "2026-11-24 17:00 GMT (until)", "... (after 7 occurrences)";
 * empty when the task has none. */
void task_describe_end(const struct task *t, struct zones *zs, char *buf, size_t n);

/* task.c */
/* Two pending tasks with the same key are twins (DESIGN.md, deduplication):
 * intent (else prompt), schedule with its ends, zone, channel and scope; 16 hex
 * digits. */
void task_dedup_key(const struct task *t, char out[17]);
char *task_plan_text(const struct task *t);    /* "i1,i2,..." for storage; NULL when no instants */
void task_plan_parse(struct task *t, const char *s); /* back into t->plan; none when unreadable */
/* ST_INVALID: "cron expression '...' never fires again", or its schedule's. */
int task_never_again(const struct task *t, struct err *e);
/* task_validate.c */
/* Check every field; ST_INVALID with a message naming the field. */
int task_validate(const struct task *t, struct zones *zs, struct err *e);
/* The fields a run's environment carries within TASK_ENV_WORD_MAX and
 * TASK_ENV_JSON_MAX, the payload too unless !payload_too: ST_INVALID
 * "FIELD is longer than N bytes". */
int task_env_fields_check(const struct task *t, int payload_too, struct err *e);
/* Make a new or edited task ready to store: default name (the prompt's first
 * words) and zone (the local one), validation, updated_at (and created_at
 * for a new one), and, when `reschedule`, next_run_at from now.  A pending
 * one-shot whose time is gone is refused. */
int task_finalize(struct task *t, int is_new, int reschedule, int64_t now, struct zones *zs,
    struct err *e);
/* task.c */
/* Arm a recurrence's end (--until, --count) from now: ends_at is the
 * earlier of until_at and the count-th occurrence after now.  An until in
 * the past or before the first occurrence is ST_INVALID. */
int task_arm_end(struct task *t, struct zones *zs, int64_t now, struct err *e);
/* The occurrences from next_run_at to ends_at, counting up to cap; 0 when
 * the task has no end or is not pending. */
int task_runs_left(const struct task *t, struct zones *zs, int cap);
/* Schedule sugar to cron: "07:00" -> "0 7 * * *"; "mon,fri 09:30" -> "30 9 * * 1,5". */
int sched_daily_cron(const char *hhmm, char *out, size_t n, struct err *e);
int sched_weekly_cron(const char *days_hhmm, char *out, size_t n, struct err *e);
int sched_day_parse(const char *name);          /* "mon", "Monday", "7" -> 0-6, -1 unknown */

#endif
