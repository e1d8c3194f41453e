/* mcp_http.c: the MCP client's Streamable HTTP transport.  Each message
 * is POSTed; the reply is JSON, or server-sent events read until the
 * response arrives, the server's own requests inside them answered by a
 * POST of their own; the Mcp-Session-Id given at initialize goes with
 * every later request. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http.h"
#include "mcp_impl.h"

static const char **http_headers(const struct mcpc *c, struct buf *vh, struct buf *sh);

struct reply {
	struct mcpc *c;
	long id;                    /* the response wanted; 0: none */
	int sse;
	struct buf body;            /* a JSON reply, or the SSE line being read */
	struct buf data;            /* the SSE event's data */
	cJSON *found;
	int too_big, bad, bad_session;
	char *session;             /* the Mcp-Session-Id it gave */
	long status;
};

/* RFC 9110's visible ASCII, all an Mcp-Session-Id may hold. */
static int
session_id_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return n > 0;
}

static void
reply_header(const char *p, size_t n, void *arg)
{
	struct reply *r = arg;
	struct http_line l;
	if (http_line_read(p, n, &l) == HTTP_LINE_STATUS) {
		r->status = l.status;
		r->sse = 0;
	} else if (http_line_is(&l, "content-type")) {
		r->sse = l.nvalue >= 17 && strncasecmp(l.value, "text/event-stream", 17) == 0;
	} else if (http_line_is(&l, "mcp-session-id")) {
		free(r->session);
		r->session = http_line_value(&l);
		r->bad_session = !session_id_ok(l.value, l.nvalue);
	}
}


/* A request of the server's inside an event stream, answered at once by
 * a POST of its own (the server may wait for it before it responds);
 * its fate is the server's: the reply being read says what follows. */
static void
answer_http(struct mcpc *c, const cJSON *m)
{
	struct err e;
	if (!c->answers && http_new(&c->answers, &e))
		return;
	struct buf vh = {0}, sh = {0};
	const char **hl = http_headers(c, &vh, &sh);
	char *s = mcp_server_answer(c, m);
	struct http_request rq = {
		.url = c->url, .headers = hl, .body = s, .len = strlen(s),
		.connect_timeout_ms = c->timeout_ms < 10000 ? c->timeout_ms : 10000,
		.timeout_ms = c->timeout_ms < 10000 ? c->timeout_ms : 10000,
	};
	struct http_result hr;
	http_perform(c->answers, &rq, &hr);
	free(s);
	free(hl);
	buf_free(&vh);
	buf_free(&sh);
}

/* One message of a reply: kept when it is the response wanted; a request
 * of the server's is answered. */
static void
reply_msg(struct reply *r, const char *s, size_t n)
{
	cJSON *m = mcp_msg_parse(s, n);
	if (!m) {
		r->bad = 1;
		return;
	}
	cJSON *it = cJSON_IsArray(m) ? m->child : m;
	for (; it && !r->found; it = cJSON_IsArray(m) ? it->next : NULL) {
		if (cJSON_IsObject(it) && mcp_is_response(it) && mcp_msg_id(it) == r->id)
			r->found = cJSON_Duplicate(it, 1);
		else if (cJSON_IsObject(it) && mcp_is_request(it))
			answer_http(r->c, it);
		if (!cJSON_IsArray(m))
			break;
	}
	cJSON_Delete(m);
}

static size_t
reply_data(const char *p, size_t n, void *arg)
{
	struct reply *r = arg;
	if (r->body.len + r->data.len + n > (size_t)MCPC_MSG_MAX) {
		r->too_big = 1;
		return 0;
	}
	buf_add(&r->body, p, n);
	if (!r->sse || r->status < 200 || r->status >= 300)
		return n;
	size_t start = 0;
	for (size_t i = 0; i < r->body.len && !r->found; i++) {
		if (r->body.data[i] != '\n')
			continue;
		char *line = r->body.data + start;
		size_t len = i - start;
		start = i + 1;
		if (len && line[len - 1] == '\r')
			len--;
		if (len == 0) {
			if (r->data.len)
				reply_msg(r, r->data.data, r->data.len);
			r->data.len = 0;
		} else if (len >= 5 && strncmp(line, "data:", 5) == 0) {
			size_t skip = len > 5 && line[5] == ' ' ? 6 : 5;
			if (r->data.len)
				buf_add(&r->data, "\n", 1);
			buf_add(&r->data, line + skip, len - skip);
		}
	}
	memmove(r->body.data, r->body.data + start, r->body.len - start);
	r->body.len -= start;
	/* The response is in: the stream may stay open, llm-call need not. */
	return r->found ? 0 : n;
}

/* The headers of a POST to c (free the list; vh and sh hold two). */
static const char **
http_headers(const struct mcpc *c, struct buf *vh, struct buf *sh)
{
	size_t nh = 0;
	while (c->headers && c->headers[nh])
		nh++;
	const char **hl = xcalloc(nh + 6, sizeof *hl);
	size_t k = 0;
	hl[k++] = "Content-Type: application/json";
	hl[k++] = "Accept: application/json, text/event-stream";
	if (c->version[0]) {
		buf_printf(vh, "MCP-Protocol-Version: %s", c->version);
		hl[k++] = vh->data;
	}
	if (c->session) {
		buf_printf(sh, "Mcp-Session-Id: %s", c->session);
		hl[k++] = sh->data;
	}
	for (size_t i = 0; i < nh; i++)
		hl[k++] = c->headers[i];
	return hl;
}

int
mcp_post_http(struct mcpc *c, const char *text, const char *method, long id, cJSON **resp, struct err *e)
{
	struct buf vh = {0}, sh = {0};
	const char **hl = http_headers(c, &vh, &sh);
	struct reply r = {.c = c, .id = id};
	struct http_request rq = {
		.url = c->url, .headers = hl, .body = text, .len = strlen(text),
		.connect_timeout_ms = c->timeout_ms < 10000 ? c->timeout_ms : 10000,
		.timeout_ms = c->timeout_ms, .on_header = reply_header, .on_data = reply_data, .arg = &r,
	};
	struct http_result hr;
	int hc = http_perform(c->http, &rq, &hr);
	int rc = ST_OK;
	if (hc == HTTP_ABORTED && r.found)
		hc = HTTP_OK;
	if (r.too_big) {
		rc = err_set(e, ST_ERR, "MCP server '%s' sent a message larger than %ld MiB", c->name,
		    MCPC_MSG_MAX >> 20);
	} else if (r.bad_session && hc == HTTP_OK) {
		rc = err_set(e, ST_ERR, "MCP server '%s' sent a session id that is not visible ASCII",
		    c->name);
	} else if (hc == HTTP_TIMEOUT) {
		rc = err_set(e, ST_ERR, "MCP server '%s' did not answer %s within %.3g s (--mcp-timeout)",
		    c->name, method, c->timeout_ms / 1000.0);
	} else if (hc != HTTP_OK) {
		rc = err_set(e, ST_ERR, "MCP server '%s': %s: %s", c->name, c->url, hr.error);
	} else if (hr.status == 404 && c->session) {
		rc = err_set(e, ST_ERR, "MCP server '%s' ended the session", c->name);
	} else if (hr.status == 401) {
		/* Not worth a retry: the same request gets the same answer. */
		rc = err_set(e, ST_INVALID, "MCP server '%s' asks for authorization (HTTP 401), which"
		    " llm-call does not support; a static token can go in its \"headers\" in mcp.json",
		    c->name);
	} else if (hr.status < 200 || hr.status >= 300) {
		rc = err_set(e, ST_ERR, "MCP server '%s' answered %s with HTTP %ld", c->name, method,
		    hr.status);
	} else if (id) {
		if (!r.sse && r.body.len)
			reply_msg(&r, r.body.data, r.body.len);
		if (r.found)
			*resp = r.found;
		else if (r.bad)
			rc = err_set(e, ST_ERR, "MCP server '%s' sent what is not a JSON-RPC message",
			    c->name);
		else
			rc = err_set(e, ST_ERR, "MCP server '%s' sent no response to %s", c->name, method);
	}
	if (!rc && r.session && !c->session) {
		c->session = r.session;
		r.session = NULL;
	}
	free(r.session);
	if (rc)
		cJSON_Delete(r.found);
	buf_free(&r.body);
	buf_free(&r.data);
	buf_free(&vh);
	buf_free(&sh);
	free(hl);
	return rc;
}
