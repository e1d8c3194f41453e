/* tools.h: the scheduler as tools an agent calls: the native set (task_create,
 * task_list, task_show, task_run, task_update, task_cancel, task_delete) and
 * one compatibility profile per seed system.  Served over MCP by task-mcp and
 * to the model by `llm-call --tools`.  A call that changes the store is one
 * transaction and wakes watching task-tick processes.  The bodies live in
 * tools_native.c and one file per profile: tools_oneclaw.c,
 * tools_agentzero.c, tools_kai.c, tools_toolpack.c and tools_wooster.c. */
#ifndef AC_TOOLS_H
#define AC_TOOLS_H

#include <cjson/cJSON.h>

#include "store.h"
#include "util.h"

enum {
	TOOLS_NATIVE = 1 << 0,
	TOOLS_ONECLAW = 1 << 1,
	TOOLS_AGENTZERO = 1 << 2,
	TOOLS_KAI = 1 << 3,
	TOOLS_TOOLPACK = 1 << 4,
	TOOLS_WOOSTER = 1 << 5,
};

struct tools;

/* tools.c */
int tools_profiles_parse(const char *list, unsigned *profiles, struct err *e); /* "native,kai", "all" */
/* st stays owned by the caller; each call reads "now" itself (now_get).
 * The user's config file is read once here for how time expressions are
 * read (date_order) and what agents may reach (agent.h); a bad one is its
 * error.  scope: the tasks the session sees and makes (NULL: a run's
 * TASK_SCOPE, else every task). */
int tools_open(struct store *st, unsigned profiles, const char *scope, struct tools **out,
    struct err *e);
void tools_close(struct tools *tl);
/* A JSON array of {"name", "description", "inputSchema"} (MCP's shape);
 * the caller frees it. */
cJSON *tools_list(struct tools *tl);
/* Run one tool.  Returns ST_OK with *text the plain-text result for the
 * model, valid UTF-8 (also for tool errors, an unknown tool included: then
 * *is_error = 1); other statuses are failures of the store itself.  *text
 * is malloc'd.  args may be NULL (no arguments); a tool's arguments are an
 * object, or for tools_takes_string ones also a string of JSON. */
int tools_call(struct tools *tl, const char *name, const cJSON *args, char **text, int *is_error,
    struct err *e);
int tools_has(const struct tools *tl, const char *name); /* 1 if name is a tool of tl */
/* 1 if the tool takes its arguments as one JSON string too, as Wooster's
 * scheduleAgentTask does (its document says so). */
int tools_takes_string(const struct tools *tl, const char *name);

#endif
