/* tools_impl.h: what tools.c (the dispatch and the steps every tool
 * shares) and tools_schema.c (argument checking) give the tool sets:
 * tools_native.c and one file per seed system's profile, tools_oneclaw.c,
 * tools_agentzero.c, tools_kai.c, tools_toolpack.c and tools_wooster.c.
 * Not for cmd/: programs use tools.h. */
#ifndef AC_TOOLS_IMPL_H
#define AC_TOOLS_IMPL_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "config.h"
#include "scrub.h"
#include "store.h"
#include "task.h"
#include "tools.h"
#include "tz.h"
#include "utf8.h"
#include "util.h"

#define TOOLS_LIST_CAP 50 /* tasks a listing shows at most */

struct tools {
	struct store *st;
	unsigned profiles;
	struct zones *zs;
	int64_t now;        /* read at each call */
	unsigned when_flags; /* how time expressions are read (config_when_flags), once a session */
	struct agent ag;     /* what the calls may reach */
	struct scrub secrets; /* kept out of every result: a task's text may hold a key */
	struct config *cf;   /* the user's config, read once a session: prices and budget */
};

/* One argument of a tool: its JSON Schema and how it is checked. */
struct tool_param {
	const char *name;
	const char *type;                /* string, integer, boolean, object, array (of strings) */
	const char *desc;
	const char *const *enums;        /* NULL-terminated allowed values (any case), or NULL */
	int required;
	const char *missing;             /* the message when a required one is absent, or NULL */
	const struct tool_param *props;  /* an object's properties (schema only), or NULL */
};

/* A tool_param of this type stands for the MCP arguments of task_inputs
 * (task_fields.h), in their order. */
#define TOOL_TASK_INPUTS "task inputs"
#define TASK_INPUTS_PARAM {"task_inputs", TOOL_TASK_INPUTS, NULL, NULL, 0, NULL, NULL}

/* A tool body: ST_OK with the result text in out; ST_INVALID, ST_NOTFOUND
 * or ST_REFUSED for a tool-level error, its text in out when out is not
 * empty, else in e; ST_ERR when the store failed (e). */
typedef int (*tool_fn)(struct tools *tl, const cJSON *args, struct buf *out, struct err *e);

enum {
	TOOL_RAW_ARGS = 1 << 0, /* the body checks its own arguments, which may be a JSON string */
	TOOL_READS = 1 << 1,    /* reads only: no write transaction, no wake-up */
};

struct tool_def {
	const char *name;
	unsigned profile;                /* TOOLS_* */
	const char *desc;
	const struct tool_param *params; /* ends with a zeroed entry */
	tool_fn fn;
	int flags;
};

/* The tool sets, each ending with a zeroed entry. */
extern const struct tool_def tools_native_defs[];    /* tools_native.c */
extern const struct tool_def tools_oneclaw_defs[];   /* tools_oneclaw.c */
extern const struct tool_def tools_agentzero_defs[]; /* tools_agentzero.c */
extern const struct tool_def tools_kai_defs[];       /* tools_kai.c */
extern const struct tool_def tools_toolpack_defs[];  /* tools_toolpack.c */
extern const struct tool_def tools_wooster_defs[];   /* tools_wooster.c */

/* tools_schema.c: a tool's arguments.  Check args against d's parameters:
 * ST_OK with *norm a copy in the declared types (the caller frees it), else
 * ST_INVALID and a message in out.  tools_schema_add appends d, with its
 * JSON Schema, to a tools/list array. */
int tools_args_check(const struct tool_def *d, const cJSON *args, cJSON **norm, struct buf *out);
void tools_schema_add(cJSON *list, const struct tool_def *d);

/* tools_schema.c: reading checked arguments.  They have their declared types
 * (checking turns "20" into 20 and so on); each getter gives NULL or 0 when
 * the argument is absent or null. */
const cJSON *tools_arg(const cJSON *args, const char *name);
const char *tools_arg_str(const cJSON *args, const char *name);
int tools_arg_int(const cJSON *args, const char *name, long *v);  /* 1 given, 0 absent */
int tools_arg_bool(const cJSON *args, const char *name, int *v);  /* 1 given, 0 absent */
/* A window of minutes (0 to a century) into *secs when given; ST_INVALID when out of range. */
int tools_arg_minutes(const cJSON *args, const char *name, int64_t *secs, struct err *e);
int tools_arg_count(const cJSON *args, const char *const *names); /* how many of names are given */

/* tools.c: the steps tool bodies share.  Each is the same store or task
 * call the commands make, within what the agent may reach (agent.h): the
 * tasks of its scope to read, and to change only those agent_may_change
 * allows, each refusal a sentence in e. */
/* Resolve an id or prefix among the live tasks of the session's scope and
 * read the task (t is initialised only on ST_OK); ST_NOTFOUND and
 * ST_REFUSED carry the store's message. */
int tools_task_get(struct tools *tl, const char *id, struct task *t, struct err *e);
/* Listing and counting as store_task_list and store_task_count, in the
 * session's scope. */
int tools_task_list(struct tools *tl, struct task_filter *f, task_fn fn, void *arg,
    struct err *e);
int tools_task_count(struct tools *tl, struct task_filter *f, long *n, struct err *e);
/* A task made through a seed's profile keeps that seed's rules: a
 * recurring one is neither retried nor paused (its occurrences move on),
 * nor staggered (it fires at its instants). */
void tools_seed_rules(struct task *t);
/* Finalize and insert a new task, made by this agent in its scope, if its
 * MCP access and attachments are the agent's to give and the quotas allow;
 * with dedup a pending twin's id lands in dup_id and *is_dup is set. */
int tools_task_add(struct tools *tl, struct task *t, int dedup, int *is_dup, char dup_id[37],
    struct err *e);
/* Store an edited copy of a task: re-validates, recomputes the next run when
 * reschedule. */
int tools_task_save(struct tools *tl, struct task *t, int reschedule, struct err *e);
int tools_task_queue(struct tools *tl, struct task *t, struct err *e);  /* refuses a running one */
int tools_task_cancel(struct tools *tl, struct task *t, struct err *e); /* only a pending one */
int tools_task_trash(struct tools *tl, const struct task *t, struct err *e);
/* A stored key as the agent gave it (without its scope's "SCOPE:"). */
const char *tools_key_shown(const struct tools *tl, const char *key);
/* "Invalid cron expression '...': bad hour field ..." in out, or ST_OK. */
int tools_cron_check(const char *expr, struct buf *out);
int tools_zone(struct tools *tl, const char *name, const struct tz **z, struct err *e);
/* Set t's zone to the machine's, as the seeds read times, and load it. */
int tools_local_zone(struct tools *tl, struct task *t, const struct tz **z, struct err *e);
/* A library message as a sentence for a model: capital first, full stop. */
void tools_sentence(struct buf *out, const char *msg);

#endif
