/* http.h: HTTP through libcurl for llm-call: the model's requests, URL
 * attachments and remote MCP servers.  One handle per process serves every
 * request in turn, so retries, tool rounds and repeated MCP calls keep
 * their connection (and TLS session) instead of opening new ones.  Proxies
 * come from the environment as libcurl reads it (http_proxy, https_proxy,
 * ALL_PROXY, NO_PROXY); the CA certificates from CURL_CA_BUNDLE, else
 * SSL_CERT_FILE and SSL_CERT_DIR, as curl(1) reads them.  Nothing here
 * prints and the handle is never verbose: header lines carry keys. */
#ifndef AC_HTTP_H
#define AC_HTTP_H

#include <stddef.h>

#include "util.h"

/* The outcome of one exchange: HTTP_CERT is a server certificate that the
 * CA certificates in use do not vouch for (or CA certificates that cannot
 * be read). */
enum { HTTP_OK, HTTP_CONNECT, HTTP_TIMEOUT, HTTP_NOTHING, HTTP_CUT, HTTP_ABORTED, HTTP_CERT,
	HTTP_OTHER };

struct http_request {
	const char *url;
	const char *method;          /* NULL: POST with a body, else GET */
	const char *const *headers;  /* "Name: value" lines, NULL-terminated; "Name:" drops one */
	const char *body;            /* or NULL */
	size_t len;
	int follow;                  /* follow redirects (GET only) */
	long connect_timeout_ms;     /* name lookup, connect and TLS handshake */
	long timeout_ms;             /* the whole exchange */
	void (*on_header)(const char *line, size_t n, void *arg); /* status lines too */
	size_t (*on_data)(const char *p, size_t n, void *arg);    /* less than n stops; NULL drops */
	void *arg;
};

struct http_result {
	long status;                 /* of the last response */
	int sent;                    /* the request went out: a timeout is the server's */
	char error[256];             /* what went wrong, in libcurl's words */
};

struct http;

/* http.c */
int http_new(struct http **out, struct err *e);
void http_free(struct http *h);
int http_perform(struct http *h, const struct http_request *rq, struct http_result *res); /* HTTP_* */
long http_connections(const struct http *h);           /* connections opened so far */
/* A header line as on_header gets it, copied into line (size bytes) and
 * trimmed.  A status line ("HTTP/1.1 200 OK") returns 1 with *status set
 * and *reason pointing at its reason phrase inside line; else 0. */
int http_header_line(const char *p, size_t n, char *line, size_t size, long *status,
    const char **reason);

#endif
