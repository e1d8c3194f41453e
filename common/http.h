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
#include <stdint.h>
#include <sys/socket.h>

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
	/* When set, asked before every connection (a redirect's too) with the
	 * address about to be connected to: 0 refuses it, with why in the
	 * result's error.  Such a request makes its own connections, direct,
	 * never a proxy's or a reused one. */
	int (*may_connect)(const struct sockaddr *sa, char *why, size_t n, void *arg);
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
/* A header line as on_header gets it, read where it is, whatever its
 * length: a status line ("HTTP/1.1 200 OK") is HTTP_LINE_STATUS with
 * status and its reason phrase as value; "Name: value" is HTTP_LINE_FIELD;
 * anything else (the blank line that ends the headers) HTTP_LINE_OTHER.
 * name and value are slices of the line, trimmed, not NUL-terminated. */
enum { HTTP_LINE_OTHER, HTTP_LINE_STATUS, HTTP_LINE_FIELD };
struct http_line {
	long status;
	const char *name, *value;
	size_t nname, nvalue;
};
int http_line_read(const char *p, size_t n, struct http_line *l);
int http_line_is(const struct http_line *l, const char *name); /* the name, in any case */
char *http_line_value(const struct http_line *l);             /* the value, malloc'd */
/* Retry-After (RFC 9110 10.2.3) at now: delay-seconds (INT32_MAX past
 * what a long long holds), or an HTTP-date in any of its three forms as
 * the seconds from now to it (0 once it has passed); -1 when neither. */
int64_t http_retry_after(const char *v, int64_t now);

#endif
