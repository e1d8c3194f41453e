/* agent.h: the authority an agent's tool calls act with, never more than
 * that of the run (or interactive session) that makes them.  Inside a run
 * (task-tick sets TASK_RUN_ID) it is the run's own: its MCP servers and
 * tool patterns (TASK_MCP, TASK_MCP_ALLOW) and its task's scope
 * (TASK_SCOPE).  Outside one it is what the user's config grants agents:
 *   agent_mcp = NAME,...         MCP servers agents may give tasks (default none)
 *   agent_attach_dirs = DIR,...  where attached files may be (default none), also
 *                                when llm-call opens them for an agent's task
 *   agent_url_allow = ADDR,...   inside addresses an agent's URLs may reach (llm-call)
 *   agent_edit = all             change any task, not only llm-call tasks agents made
 *   agent_max_create = N         tasks one run or session may create (default 10)
 *   agent_max_tasks = N          active agent-made tasks in all (default 100)
 *   agent_max_calls = N          tool calls answered per model round (default 16)
 *   agent_deliver = @NAME,...    named delivery targets agents may give tasks (default none)
 * The checks return ST_OK, or ST_REFUSED with a sentence a model can read
 * and act on. */
#ifndef AC_AGENT_H
#define AC_AGENT_H

#include <stddef.h>

#include "util.h"

struct config;
struct store;
struct task;

#define AGENT_MAX_CREATE 10
#define AGENT_MAX_TASKS 100
#define AGENT_MAX_CALLS 16

struct agent {
	char origin[64];            /* "agent:run:ID" or "agent:session:ID" */
	char *scope;                /* NULL: unscoped, the user's own view */
	int in_run;
	char **servers;             /* MCP servers it may give tasks */
	size_t nservers;
	int any_server;             /* the run has all of mcp.json */
	char **allow;               /* the run's tool patterns; none: any tool */
	size_t nallow;
	char **dirs;                /* agent_attach_dirs, resolved */
	size_t ndirs;
	int edit_all;
	long max_create, max_tasks, max_calls;
	char *exec;                 /* the default executor's command line */
	char **deliver;             /* agent_deliver: the named targets it may give tasks */
	size_t ndeliver;
	char *store;                /* the store's path or URI, which is never attached */
};

/* agent.c */
/* From the environment and the config.  scope: the
 * --scope of task-mcp, or NULL; a run's TASK_SCOPE wins and a different
 * --scope is ST_INVALID, as are bad values of the keys (the config named). */
int agent_load(struct agent *a, const struct config *cf, const char *store, const char *scope,
    struct err *e);
void agent_free(struct agent *a);
/* agent_attach_dirs, each resolved ("~/" is the home directory), into a
 * list to free with str_words_free. */
int agent_attach_dirs(const struct config *cf, char ***dirs, size_t *ndirs, struct err *e);
/* The config's agent_max_calls: tool calls answered in one model round. */
int agent_max_calls(const struct config *cf, long *n, struct err *e);
/* A task's MCP servers and tool patterns (JSON arrays of strings, or NULL)
 * within the agent's own. */
int agent_check_mcp(const struct agent *a, const char *mcp, const char *allow, struct err *e);
/* When a run of task t uses the MCP servers mcp (a comma list): a task an
 * agent made outside a run holds only those the config's agent_mcp lets
 * agents give as it is now, as its attachments are held to
 * agent_attach_dirs (ST_REFUSED says which and what to do).  Other tasks
 * pass. */
int agent_check_held(const struct config *cf, const struct task *t, const char *mcp,
    struct err *e);
/* When a run of t, which an agent made in a run of task X, uses the MCP
 * servers mcp and tool patterns allow (comma lists): only what X grants
 * now (its executor line's --mcp and --mcp-allow, else its own), and when
 * X is deleted or its run is gone from the history, only what the config's
 * agent_mcp lets agents give (ST_REFUSED says which and what to do).
 * Other tasks pass. */
int agent_check_granted(struct store *st, const struct config *cf, const struct task *t,
    const char *mcp, const char *allow, struct err *e);
/* A task's delivery targets (a JSON array, or NULL): only @NAMEs the
 * config's agent_deliver lists, so an injected prompt cannot send answers
 * to an address of its choosing. */
int agent_check_deliver(const struct agent *a, const char *deliver, struct err *e);
/* A task's attachments (a JSON array, or NULL): http(s) URLs, and files
 * under agent_attach_dirs, which *out gets resolved (malloc'd JSON, or NULL
 * when there were none). */
int agent_check_attachments(const struct agent *a, const char *attachments, char **out,
    struct err *e);
/* May the agent change, run, cancel or delete t (as stored)? */
int agent_may_change(const struct agent *a, const struct task *t, struct err *e);
/* Is t within the agent's scope (to read)? */
int agent_sees(const struct agent *a, const struct task *t);

/* agent_deliver.c */
/* When a delivery to target (as the task names it) of task task_id is
 * sent: a task an agent made, whose own targets an agent set last (its
 * audit trail says who; pruned past it, its maker did), delivers only to
 * the @NAMEs the config's agent_deliver lists now: ST_REFUSED, with a
 * sentence naming the target, for one it no longer does.  A person's
 * task, targets a person set, and the config's `deliver` for a task with
 * none of its own pass.  Other errors are the store's. */
int agent_deliver_held(struct store *st, const struct config *cf, const char *task_id,
    const char *target, struct err *e);

#endif
