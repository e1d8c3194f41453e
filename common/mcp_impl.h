/* mcp_impl.h: what the MCP client's files share (mcp_client.c the
 * requests and the stdio transport, mcp_http.c Streamable HTTP,
 * mcp_message.c the messages both transports meet): the client's state. */
#ifndef AC_MCP_IMPL_H
#define AC_MCP_IMPL_H

#include <sys/types.h>

#include "mcp_client.h"
#include "util.h"

#define STDERR_KEEP 2048

struct mcpc {
	char *name;
	char version[16];
	long timeout_ms;
	long next_id;
	double startup_ms;
	/* stdio */
	pid_t pid;
	int in, out, errfd;         /* our ends; -1 when closed */
	struct buf rd;              /* read from the server, not yet used */
	char errtail[STDERR_KEEP];  /* the end of its standard error */
	size_t nerr;
	int status;                 /* from waitpid, once reaped */
	int reaped;
	/* Streamable HTTP */
	struct http *http;
	struct http *answers;       /* its own handle: answers go out while a reply streams in */
	char *url;
	char **headers;             /* "Name: value", NULL-terminated */
	char *session;
	char *declined;             /* what an elicitation asked for, the first one */
};

/* mcp_message.c */
long mcp_msg_id(const cJSON *m);           /* a whole-number id, or -1 */
/* A message from a server, its bytes that are not UTF-8 made U+FFFD
 * first: what it says reaches the model's request and the store. */
cJSON *mcp_msg_parse(const char *s, size_t n);
int mcp_is_response(const cJSON *m);
int mcp_is_request(const cJSON *m);        /* a method and an id */
/* The answer to a request of the server's, as JSON text (malloc'd): pings
 * answered, elicitation declined (what it asked kept), the rest refused. */
char *mcp_server_answer(struct mcpc *c, const cJSON *m);

/* mcp_http.c */
/* POST one message; with id, *resp the response (its requests in the reply
 * answered on the way). */
int mcp_post_http(struct mcpc *c, const char *text, const char *method, long id, cJSON **resp,
    struct err *e);

#endif
