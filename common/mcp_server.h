/* mcp_server.h: the Model Context Protocol server side, one JSON-RPC 2.0
 * message at a time, so that task-mcp is a read-write loop and every
 * protocol rule is testable without a process.  Speaks the handshake
 * revisions 2024-11-05 to 2025-11-25 (initialize, then requests) and the
 * stateless 2026-07-28 one (server/discover, the version in each request's
 * _meta, resultType). */
#ifndef AC_MCP_SERVER_H
#define AC_MCP_SERVER_H

#include <stddef.h>
#include <stdio.h>

#include "tools.h"
#include "util.h"

#define MCP_MODERN_VERSION "2026-07-28"
#define MCP_LEGACY_LATEST "2025-11-25"
#define MCP_LINE_MAX (4u << 20) /* bytes in one message */

/* JSON-RPC and MCP error codes. */
enum {
	MCP_PARSE_ERROR = -32700,
	MCP_INVALID_REQUEST = -32600,
	MCP_METHOD_NOT_FOUND = -32601,
	MCP_INVALID_PARAMS = -32602,
	MCP_INTERNAL_ERROR = -32603,
	MCP_UNSUPPORTED_VERSION = -32022,
};

struct mcp_server;

/* mcp_server.c */
struct mcp_server *mcp_server_new(struct tools *tl); /* tl stays the caller's */
void mcp_server_free(struct mcp_server *m);
/* Answer one message (a line without its newline).  *reply is the line to
 * send back (malloc'd, no newline) or NULL when none is due (notifications,
 * responses).  Returns ST_OK, or ST_ERR when the store failed under a tool
 * call: e says how, and *reply still holds the answer to send. */
int mcp_server_handle(struct mcp_server *m, const char *msg, size_t len, char **reply,
    struct err *e);
/* The reply to a message longer than MCP_LINE_MAX (malloc'd), to the
 * request whose id mcp_server_read_line found ("" or NULL: none, a null id). */
char *mcp_server_too_large(const char *id);
/* The protocol version initialize settled on, or NULL before one. */
const char *mcp_server_version(const struct mcp_server *m);
/* Read one line of at most max bytes into b (without the newline): 1 read,
 * 0 end of input, -1 read error.  A longer line is consumed whole and
 * *too_long set; b then holds its id, as JSON text ("7", "\"a\""), when
 * the line is an object with a top-level "id" of at most 128 bytes, else
 * nothing: a client waits for the answer to its id. */
int mcp_server_read_line(FILE *f, struct buf *b, size_t max, int *too_long);

#endif
