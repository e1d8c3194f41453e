/* tools_impl.h: what tools.c (the native set and the dispatch) shares with
 * tools_compat.c (the seed systems' profiles): the tool table, argument
 * checking and access, and the common steps of creating and changing a
 * task.  Not for cmd/: programs use tools.h. */
#ifndef AC_TOOLS_IMPL_H
#define AC_TOOLS_IMPL_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "store.h"
#include "task.h"
#include "tools.h"
#include "util.h"

struct tools {
	struct store *st;
	unsigned profiles;
	struct zones *zs;
	int64_t now;        /* read at each call */
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

/* A tool body: ST_OK with the result text in out; ST_INVALID, ST_NOTFOUND
 * or ST_REFUSED for a tool-level error, its text in out when out is not
 * empty, else in e; ST_ERR when the store failed (e). */
typedef int (*tool_fn)(struct tools *tl, const cJSON *args, struct buf *out, struct err *e);

enum {
	TOOL_RAW_ARGS = 1 << 0, /* the body checks its own arguments (Wooster's JSON string) */
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

/* Each table ends with a zeroed entry. */
extern const struct tool_def native_tools[];   /* tools_native.c */
extern const struct tool_def compat_tools[];   /* tools_compat.c */
extern const struct tool_def compat2_tools[];  /* tools_compat2.c */

/* tools.c: helpers for the bodies */
const cJSON *arg_get(const cJSON *args, const char *name);     /* NULL when absent or null */
/* Checked arguments have their declared types (args_check normalizes
 * "20" to 20 and so on); these read one, NULL or 0 when absent. */
const char *arg_str(const cJSON *args, const char *name);
int arg_int(const cJSON *args, const char *name, long *v);     /* 1 given, 0 absent */
int arg_bool(const cJSON *args, const char *name, int *v);     /* 1 given, 0 absent */
/* A window of minutes (0 to a century) into *secs when given; ST_INVALID when out of range. */
int arg_minutes(const cJSON *args, const char *name, int64_t *secs, struct err *e);
int arg_count(const cJSON *args, const char *const *names);    /* how many of names are given */
/* Check args against a tool's parameters: ST_OK with *norm a copy in the
 * declared types (the caller frees it), else ST_INVALID and a message. */
int args_check(const struct tool_def *d, const cJSON *args, cJSON **norm, struct buf *out);

/* Resolve an id or prefix among live tasks and read the task (t is
 * initialised only on ST_OK); ST_NOTFOUND and ST_REFUSED carry the store's
 * message. */
int tool_task_get(struct tools *tl, const char *id, struct task *t, struct err *e);
/* Finalize and insert a new task; with dedup a pending twin's id lands in
 * dup_id and *is_dup is set. */
int tool_task_add(struct tools *tl, struct task *t, int dedup, int *is_dup, char dup_id[37],
    struct err *e);
/* Store an edited copy of a task: re-validates, recomputes the next run when
 * reschedule, and wakes the ticker. */
int tool_task_save(struct tools *tl, struct task *t, int reschedule, struct err *e);
int tool_task_queue(struct tools *tl, struct task *t, struct err *e);  /* refuses a running one */
int tool_task_cancel(struct tools *tl, struct task *t, struct err *e); /* only a pending one */
int tool_task_trash(struct tools *tl, const struct task *t, struct err *e);
/* "Invalid cron expression '...': bad hour field ..." in out, or ST_OK. */
int tool_cron_check(const char *expr, struct buf *out);
int tool_zone(struct tools *tl, const char *name, const struct tz **z, struct err *e);
void tool_local_zone(char *buf, size_t n);                       /* the machine's zone name */
/* Times in the task's zone: "2026-03-02 07:00", RFC 3339 with the offset. */
void fmt_local(struct tools *tl, const struct task *t, int64_t when, char *buf, size_t n);
void fmt_rfc3339(struct tools *tl, const struct task *t, int64_t when, char *buf, size_t n);
/* Read an ISO 8601 date-time (offset, Z, or naive in zone z); -1 if the
 * text is not one. */
int iso_parse(const char *s, const struct tz *z, int64_t *out);
/* A library message as a sentence for a model: capital first, full stop. */
void sentence(struct buf *out, const char *msg);

#endif
