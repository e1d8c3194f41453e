/* llm_session.h: everything around one model call as llm-call makes it.
 * Settings come from flags, then the environment (TASK_* from task-tick,
 * the providers' own *_API_KEY and *_BASE_URL), then the config file; the
 * user's message is the text attachments, then the prompt, with images
 * alongside; a named context's earlier messages go first; with tools the
 * model is answered through the scheduler's tools, in rounds, until it
 * stops calling them.  Nothing here prints; the messages name llm-call's
 * flags (-o, --max-rounds), as its users see them. */
#ifndef AC_LLM_SESSION_H
#define AC_LLM_SESSION_H

#include <limits.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "llm.h"
#include "scrub.h"
#include "util.h"

struct config;
struct mcpc;
struct mcpc_config;
struct store;
struct tools;

#define LLM_SESSION_RETRIES 3         /* further attempts unless told otherwise */
#define LLM_SESSION_HISTORY 100       /* messages of a context sent along (context_messages) */
#define LLM_SESSION_RESULT_MAX 100000 /* bytes of an MCP tool's result given to the model */
#define LLM_SESSION_EXCERPT 500       /* bytes of a result or error in the record */
#define LLM_SESSION_DEADLINE 1800     /* seconds for a whole call outside a run */

/* One call being set up.  The caller fills the flags' fields (NULL, 0 or
 * -1 when not given; attach and options allocated, then owned here), the
 * functions below the rest, in their order; llm_session_free releases all of
 * it, also when a step failed. */
struct llm_session {
	const char *system, *model, *provider, *context, *base_url, *key_file;
	const char **attach;        /* nattach of them */
	size_t nattach;
	cJSON *options;             /* an object of request fields (llm_session_option) */
	double timeout, connect_timeout; /* seconds; 0: not given */
	double deadline;            /* seconds for the whole call; 0: not given */
	int retries;                /* -1: not given */

	struct llm_config lc;       /* points into this and the config, which must outlive it */
	struct http *http;          /* every request of the call: the model's, attachments' */
	struct buf text;            /* the user's message */
	struct llm_image *imgs;     /* and its images */
	size_t nimg;
	cJSON *messages;            /* the conversation to send */
	struct tools *tl;           /* the scheduler's tools, or NULL */
	struct mcpc_config *mcp_cfg;
	struct mcpc **mcp;          /* the MCP servers started */
	size_t nmcp;
	long mcp_timeout_ms;        /* each MCP request; 0: MCPC_TIMEOUT_MS */
	cJSON *mcp_map;             /* {"mcp__S__T": [server index, "T", allowed]} */
	cJSON *offered;             /* every tool offered, MCP's shape */
	cJSON *tools, *names;       /* offered, for the provider (llm_tools_convert) */
	cJSON *call_log;            /* every tool call answered, for the record */
	int tool_calls;             /* calls answered */
	long max_calls;             /* calls answered in one round (agent_max_calls) */
	long history_max;           /* messages of a context sent along (context_messages) */
	char *key;
	char hint[PATH_MAX + 64];   /* where the key comes from */
	struct scrub secrets;       /* kept out of every tool result the model is sent */
	struct llm_attachment *atts;
	size_t natts;
	cJSON *env_attach;          /* TASK_ATTACHMENTS, which attach points into */
	char *scoped_context;       /* "SCOPE/NAME" in a scoped run, which context points to */
	struct llm_attach_rules rules; /* an agent's task's limits (TASK_ORIGIN=agent) */
	cJSON *history;             /* the context's messages sent, [{role, content}] */
	cJSON *replay;              /* the request sent again (llm_request.h), or NULL */
	/* Called with each request's reply (its own tokens) as it arrives,
	 * before the next request is sent, so its spend can be written at
	 * once; or NULL. */
	void (*on_reply)(const struct llm_result *r, void *arg);
	void *on_reply_arg;
	int report_outcome;         /* report_outcome is offered */
	int outcome;                /* OUTCOME_* (outcome.h) the run reported, or OUTCOME_NONE */
	char *outcome_summary;      /* its summary, cleaned, or NULL */
	int asked;                  /* an MCP server asked for a person: the run is blocked */
};

/* llm_key.c */
/* The key in path, a private file: its first line, trimmed, in *key
 * (malloc'd); ST_INVALID when the file cannot be used or holds none. */
int llm_key_file_read(const char *path, char **key, struct err *e);
int llm_key_clean(const char *k);     /* no spaces or control characters */

/* llm_session.c */
/* -o KEY=VALUE into options: VALUE is JSON when it reads as JSON (numbers,
 * true, an object ...), else a string. */
int llm_session_option(cJSON *options, const char *kv, struct err *e);
/* TASK_SYSTEM_PROMPT, TASK_CONTEXT and TASK_ATTACHMENTS (a JSON array of
 * strings) where the flags gave none; in a scoped run (TASK_SCOPE) the
 * context is the scope's own, "SCOPE/NAME". */
int llm_session_env(struct llm_session *s, struct err *e);
/* Provider, model, URL, key, timeouts, the deadline (--deadline, else
 * in a run TASK_TIMEOUT less a margin, else LLM_SESSION_DEADLINE, from
 * now) and retries into s->lc; the key from
 * --key-file, else the environment, else cf; s->http, the call's one HTTP
 * handle; s->secrets: those scrub_load knows (the store TASK_DB, else the
 * default one) and the key. */
int llm_session_resolve(struct llm_session *s, const struct config *cf, struct err *e);
/* s->text and s->imgs: the attachments, loaded within lc.timeout_ms, and
 * the prompt. */
int llm_session_message(struct llm_session *s, const char *prompt, struct err *e);
/* s->messages: the context's last LLM_SESSION_HISTORY messages (from st,
 * when s->context is set), then the user's message. */
int llm_session_conversation(struct llm_session *s, struct store *st, struct err *e);
/* s->tl, s->tools and s->names: the profiles' tools ("native,kai", "all"). */
int llm_session_tools(struct llm_session *s, struct store *st, const char *profiles, struct err *e);
/* The MCP servers of mcp.json named in servers (comma-separated, or
 * "all") started, their tools offered as mcp__SERVER__TOOL: those whose
 * full name matches a glob of allow (comma-separated; NULL or empty: all). */
int llm_session_mcp(struct llm_session *s, const char *servers, const char *allow, struct err *e);
/* Offer the model report_outcome: what the run achieved, beside its
 * answer (s->outcome, s->outcome_summary). */
void llm_session_outcome_tool(struct llm_session *s);
/* The tool calls answered so far as a JSON array (malloc'd), or NULL. */
char *llm_session_call_log(const struct llm_session *s);
/* What one conversation may use.  Each bound is checked before each
 * request, so a conversation goes past one by at most one request. */
struct llm_limits {
	int max_rounds;             /* rounds of tool calls (--max-rounds) */
	long max_tokens;            /* tokens in and out of all requests; 0: no bound */
	double left_dollars;        /* what the run's budget leaves; < 0: no bound */
	double left_tokens;         /* the same in tokens; < 0: no bound */
	int priced;                 /* dollars are counted at these prices (per million) */
	double price_in, price_out;
};
/* Requests until the model answers without calling tools; with tools its
 * calls are answered, at most lim->max_rounds rounds of them, each result
 * (ours, an MCP server's text, structured content or error) without
 * s->secrets: a server that reads the config would hand its keys on.  An MCP
 * server that asks for a person (elicitation, declined) ends it there,
 * ST_OK with s->asked set and s->outcome blocked, saying what it wanted.  r is the
 * last reply with the tokens of all of them; ST_OK or the status of the
 * failure (then r may still hold a reply); a request that a bound of lim
 * stops is not made, and the message says which bound and by how much. */
int llm_session_run(struct llm_session *s, struct llm *l, const struct llm_limits *lim,
    struct llm_result *r, struct err *e);
void llm_session_free(struct llm_session *s);             /* the key is scrubbed */

#endif
