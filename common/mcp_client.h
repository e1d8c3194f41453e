/* mcp_client.h: llm-call's side of the Model Context Protocol: the servers
 * configured in $XDG_CONFIG_HOME/agentcron/mcp.json (the "mcpServers" shape
 * other clients use), started over stdio or reached over Streamable HTTP,
 * the handshake (2025-11-25 asked for; 2025-06-18, 2025-03-26 and
 * 2024-11-05 accepted), tools/list and tools/call.  Every wait is bounded
 * by a timeout; a server that fails (does not start, exits, hangs, sends
 * what is not JSON-RPC or a message over MCPC_MSG_MAX) is an ST_ERR with
 * one line naming it; a stdio server's process group never outlives
 * mcpc_close.  Nothing here prints. */
#ifndef AC_MCP_CLIENT_H
#define AC_MCP_CLIENT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util.h"

#define MCPC_MSG_MAX (4L << 20)       /* bytes in one message from a server */
#define MCPC_TIMEOUT_MS 60000L         /* each request, unless told */
#define MCPC_GRACE_MS 1000L            /* from closing stdin to SIGTERM, then to SIGKILL */
#define MCPC_VERSION "2025-11-25"      /* asked for in initialize */

struct http;
struct llm_image;

/* One server of the file, ${VAR} and ${VAR:-default} not yet expanded. */
struct mcpc_server {
	char *name;
	char *command;              /* stdio, or NULL */
	char **args;                /* NULL-terminated */
	char **env;                 /* NAME, value pairs, NULL-terminated */
	char *url;                  /* Streamable HTTP, or NULL */
	char **headers;             /* name, value pairs, NULL-terminated */
	/* Tools that need a person's confirmation ("confirm" in mcp.json):
	 * never called, since no one is there to give it. */
	int confirm_all;
	char **confirm;             /* the server's own tool names, NULL-terminated */
};

struct mcpc_config {
	char *path;
	struct mcpc_server *servers;
	size_t n;
};

struct mcpc;

/* mcp_config.c */
const char *mcpc_config_path(char *buf, size_t n);
/* The file at path (NULL: the default).  A missing file has no servers.
 * ST_INVALID for a file that is not JSON of the right shape, not a regular
 * file (refused without opening it for long: a FIFO does not block),
 * writable by group or others, or readable by them while it holds env or
 * headers values. */
int mcpc_config_load(const char *path, struct mcpc_config **out, struct err *e);
void mcpc_config_free(struct mcpc_config *c);
const struct mcpc_server *mcpc_config_find(const struct mcpc_config *c, const char *name);
void mcpc_strv_free(char **v);                  /* a NULL-terminated list of strings */
/* Does the server's tool (its own name) need a person's confirmation? */
int mcpc_needs_confirm(const struct mcpc_server *sv, const char *tool);

/* mcp_client.c */

/* Start or reach sv and shake hands; h carries the HTTP requests. */
int mcpc_open(const struct mcpc_server *sv, struct http *h, long timeout_ms, struct mcpc **out,
    struct err *e);
const char *mcpc_name(const struct mcpc *c);
/* What the first elicitation the server sent asked for (it was declined
 * at once: a run has no one to answer), or NULL when none came. */
const char *mcpc_declined(const struct mcpc *c);
void mcpc_set_timeout(struct mcpc *c, long timeout_ms);  /* for the requests from now on */
const char *mcpc_version(const struct mcpc *c);          /* the protocol version agreed */
double mcpc_startup_ms(const struct mcpc *c);           /* start and handshake */
/* Every tool, all pages: a JSON array of {name, description, inputSchema}. */
int mcpc_tools(struct mcpc *c, cJSON **tools, struct err *e);
/* tools/call.  ST_OK with *result the result object, or with *result NULL
 * and *rpc_error the server's JSON-RPC error as text (malloc'd); other
 * statuses: the server failed (e says how) and is of no further use. */
int mcpc_call(struct mcpc *c, const char *tool, const cJSON *args, cJSON **result, char **rpc_error,
    struct err *e);
/* Shut down: a stdio server's stdin is closed, then its group gets SIGTERM
 * and SIGKILL after MCPC_GRACE_MS each; an HTTP session is deleted. */
void mcpc_close(struct mcpc *c);

/* A tools/call result for the model: the text blocks (structured content
 * as JSON when there is no text, resources and links described), cut at
 * cap bytes with a note saying so; up to 4 images (PNG, JPEG, GIF, WebP) in
 * *imgs (their data malloc'd; free with mcpc_images_free). */
void mcpc_result(const cJSON *result, size_t cap, char **text, int *is_error,
    struct llm_image **imgs, size_t *nimg);
void mcpc_images_free(struct llm_image *imgs, size_t n);
/* name (mcp__SERVER__TOOL) matches one of the globs, or there are none. */
int mcpc_allowed(const char *const *patterns, size_t n, const char *name);

#endif
