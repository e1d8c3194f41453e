/* One model call: the request over HTTP (http.c), server-sent events,
 * retries with backoff, and errors a person can act on.  The two wire
 * formats live in llm_openai.c and llm_anthropic.c, the providers' table
 * and the messages in llm_provider.c, what both formats use in llm_wire.c.
 *
 * Retried: HTTP 408, 429, 500, 502, 503, 504, 529 and failures to connect
 * or to get a whole reply, honouring Retry-After (seconds or a date) and
 * retry-after-ms; else exponential backoff with jitter.  Not retried: other
 * 4xx, a timeout once connected (the time is spent), and a stream whose text
 * has already been shown. */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "llm_impl.h"
#include "task_json.h"

#define REPLY_MAX (64L * 1024 * 1024)
#define USER_AGENT "agentcron-llm-call/0.1.0"

#define MAX_HEADERS 8

struct llm {
	const struct llm_config *c;
	const struct llm_ops *ops;
	struct http *http;
	struct http *own;           /* made here when the caller gave none */
	char *url;
	char *headers[MAX_HEADERS + 1];
};

/* One attempt's state, filled by the HTTP callbacks. */
struct attempt {
	struct llm *l;
	struct llm_stream *s;
	long status;
	char reason[64];            /* the status line's reason phrase */
	int sse;                    /* the reply is text/event-stream */
	long retry_after_ms;        /* -1: none given */
	size_t received;
	struct buf body;            /* a plain reply */
	struct buf line;            /* the SSE line being read */
	struct buf data;            /* the SSE event's data lines */
	char event[64];
	int failed;                 /* a callback stopped the transfer; message in err */
	struct err err;
	int too_big;
};

static void
stream_free(struct llm_stream *s)
{
	for (size_t i = 0; i < s->r->ncalls; i++)
		buf_free(&s->args[i]);
	free(s->args);
	free(s->index);
	buf_free(&s->text);
}

/* ---- the exchange ---- */

int
llm_new(const struct llm_config *c, struct llm **out, struct err *e)
{
	if (c->provider < 0 || c->provider >= LLM_PROVIDER_COUNT)
		return err_set(e, ST_INVALID, "unknown provider");
	struct http *own = NULL;
	if (llm_ops_of(c->provider)->answer) {
		struct llm *l = xcalloc(1, sizeof *l);
		l->c = c;
		l->ops = llm_ops_of(c->provider);
		*out = l;
		return ST_OK;
	}
	if (!c->http) {
		int rc = http_new(&own, e);
		if (rc)
			return rc;
	}
	struct llm *l = xcalloc(1, sizeof *l);
	l->c = c;
	l->http = c->http ? c->http : own;
	l->own = own;
	l->ops = llm_ops_of(c->provider);
	const char *base = c->base_url && *c->base_url ? c->base_url : l->ops->url;
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	l->url = xasprintf("%.*s%s", (int)n, base, l->ops->path);
	int i = 0;
	l->headers[i++] = xstrdup("Content-Type: application/json");
	l->headers[i++] = xstrdup(c->stream ? "Accept: text/event-stream" : "Accept: application/json");
	l->headers[i++] = xstrdup("User-Agent: " USER_AGENT);
	/* No "Expect: 100-continue" round trip before a large body. */
	l->headers[i++] = xstrdup("Expect:");
	if (l->ops->header)
		l->headers[i++] = xstrdup(l->ops->header);
	if (c->api_key && *c->api_key)
		l->headers[i++] = xasprintf("%s%s", l->ops->auth, c->api_key);
	*out = l;
	return ST_OK;
}

void
llm_free(struct llm *l)
{
	if (!l)
		return;
	/* One of the headers holds the key: clear them before freeing. */
	for (int i = 0; l->headers[i]; i++) {
		explicit_bzero(l->headers[i], strlen(l->headers[i]));
		free(l->headers[i]);
	}
	free(l->url);
	http_free(l->own);
	free(l);
}

static int
is_space_only(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* One server-sent event: "data: [DONE]" ends OpenAI's streams. */
static int
sse_dispatch(struct attempt *a)
{
	if (!a->data.len && !a->event[0])
		return 0;
	int rc = 0;
	if (a->data.len && strcmp(a->data.data, "[DONE]") == 0) {
		a->s->done = 1;
	} else if (a->data.len) {
		/* cJSON would end a string at a NUL: the text keeps going. */
		json_mask_nul(a->data.data, a->data.len);
		cJSON *root = cJSON_ParseWithLength(a->data.data, a->data.len);
		if (!root) {
			err_set(&a->err, ST_ERR, "%s: a streamed event is not JSON: '%.60s'",
			    a->l->ops->name, a->data.data);
			rc = -1;
		} else {
			rc = a->l->ops->event(a->s, a->event, root, &a->err) ? -1 : 0;
			cJSON_Delete(root);
		}
	}
	a->data.len = 0;
	if (a->data.data)
		a->data.data[0] = 0;
	a->event[0] = 0;
	return rc;
}

static int
sse_line(struct attempt *a, char *line, size_t n)
{
	if (n && line[n - 1] == '\r')
		line[--n] = 0;
	if (n == 0)
		return sse_dispatch(a);
	if (line[0] == ':')
		return 0;
	char *colon = memchr(line, ':', n);
	const char *field = line, *value = "";
	if (colon) {
		*colon = 0;
		value = colon + 1;
		if (*value == ' ')
			value++;
	}
	if (strcmp(field, "data") == 0) {
		if (a->data.len)
			buf_add(&a->data, "\n", 1);
		buf_puts(&a->data, value);
	} else if (strcmp(field, "event") == 0) {
		snprintf(a->event, sizeof a->event, "%s", value);
	}
	return 0;
}

static int
sse_feed(struct attempt *a, const char *p, size_t n)
{
	buf_add(&a->line, p, n);
	size_t start = 0;
	for (size_t i = 0; i < a->line.len; i++) {
		if (a->line.data[i] != '\n')
			continue;
		a->line.data[i] = 0;
		if (sse_line(a, a->line.data + start, i - start))
			return -1;
		start = i + 1;
	}
	memmove(a->line.data, a->line.data + start, a->line.len - start + 1);
	a->line.len -= start;
	return 0;
}

static size_t
on_write(const char *p, size_t n, void *arg)
{
	struct attempt *a = arg;
	a->received += n;
	if (a->received > REPLY_MAX) {
		a->too_big = 1;
		return 0;
	}
	if (a->sse && a->status >= 200 && a->status < 300) {
		if (sse_feed(a, p, n)) {
			a->failed = 1;
			return 0;
		}
	} else {
		buf_add(&a->body, p, n);
	}
	return n;
}

/* A wait the provider asks for, kept in range: a huge value still reads as
 * "too long to wait", never wraps to a negative (none) or overflows. */
static void
set_wait(struct attempt *a, double ms)
{
	static const double cap = 1e15; /* ms: some 30,000 years */
	a->retry_after_ms = ms > cap ? (long)cap : ms > 0 ? (long)ms : 0;
}

static void
on_header(const char *p, size_t n, void *arg)
{
	struct attempt *a = arg;
	struct http_line l;
	int kind = http_line_read(p, n, &l);
	if (kind == HTTP_LINE_STATUS) {
		/* A new response (after 100 Continue): forget the last one's. */
		a->status = l.status;
		snprintf(a->reason, sizeof a->reason, "%.*s", (int)l.nvalue, l.value);
		a->sse = 0;
		a->retry_after_ms = -1;
		return;
	}
	if (http_line_is(&l, "content-type")) {
		a->sse = l.nvalue >= 17 && strncasecmp(l.value, "text/event-stream", 17) == 0;
		return;
	}
	int ms = http_line_is(&l, "retry-after-ms");
	if (!ms && !(http_line_is(&l, "retry-after") && a->retry_after_ms < 0))
		return;
	char *v = http_line_value(&l), *end;
	if (ms) {
		double w = strtod(v, &end);
		if (end != v && w >= 0)
			set_wait(a, w);
	} else {
		int64_t secs = http_retry_after(v, (int64_t)time(NULL));
		if (secs >= 0)
			set_wait(a, (double)secs * 1000);
	}
	free(v);
}

/* A one-line excerpt of a body that is not what it should be. */
static void
excerpt(const char *s, size_t n, char *out, size_t outn)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 4 < outn && i < 80; i++)
		out[j++] = isprint((unsigned char)s[i]) ? s[i] : ' ';
	if (n > 80 && j + 4 < outn) {
		memcpy(out + j, "...", 3);
		j += 3;
	}
	out[j] = 0;
}

int
llm_status_permanent(long st)
{
	static const long codes[] = {400, 401, 403, 404, 413, 422};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (codes[i] == st)
			return 1;
	return 0;
}

int
llm_model_gone(long st, const cJSON *body)
{
	if (st == 404 || st == 410)
		return 1;
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(body, "error");
	const char *code = llm_json_str(err, "code"), *msg = llm_json_str(err, "message");
	if (code && (strcmp(code, "model_not_found") == 0 || strstr(code, "decommissioned")
	    || strstr(code, "deprecated")))
		return 1;
	if (st != 400 || !msg)
		return 0;
	char low[300];
	size_t n = 0;
	for (; msg[n] && n + 1 < sizeof low; n++)
		low[n] = (char)tolower((unsigned char)msg[n]);
	low[n] = 0;
	static const char *const words[] = {"deprecated", "decommissioned", "retired"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(low, words[i]) && strstr(low, "model"))
			return 1;
	return 0;
}

static int
retryable_status(long st)
{
	static const long codes[] = {408, 429, 500, 502, 503, 504, 529};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (codes[i] == st)
			return 1;
	return 0;
}

/* The error of an HTTP reply that is not 2xx. */
static void
http_error(struct llm *l, struct attempt *a, struct err *e)
{
	const char *msg = NULL;
	cJSON *root = a->body.len ? cJSON_ParseWithLength(a->body.data, a->body.len) : NULL;
	if (root)
		msg = l->ops->error_text(root);
	a->s->r->model_gone = llm_model_gone(a->status, root);
	char text[300] = "";
	if (msg) {
		snprintf(text, sizeof text, "%s", msg);
	} else if (a->body.len && !is_space_only(a->body.data, a->body.len)) {
		/* A proxy's or load balancer's page rather than the API's JSON. */
		const char *p = a->body.data;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '<') {
			snprintf(text, sizeof text, "%s (an HTML page, not the API's JSON)",
			    a->reason[0] ? a->reason : "error");
		} else {
			char ex[100];
			excerpt(a->body.data, a->body.len, ex, sizeof ex);
			snprintf(text, sizeof text, "%s%s'%s'", a->reason, a->reason[0] ? ": " : "", ex);
		}
	} else {
		snprintf(text, sizeof text, "%s", a->reason);
	}
	for (char *q = text; *q; q++)
		if (*q == '\n' || *q == '\r' || *q == '\t')
			*q = ' ';
	str_trim(text);
	llm_redact(text, sizeof text, l->c->api_key);
	char hint[128] = "";
	if (a->status == 401 || a->status == 403)
		snprintf(hint, sizeof hint, " (check %s)", l->c->key_hint ? l->c->key_hint : l->ops->key_env);
	else if (a->status == 404)
		snprintf(hint, sizeof hint, " (check the model name and the base URL)");
	const char *reason = a->status == 429 ? "rate limited" : a->status >= 500 ? "server error"
	    : "request refused";
	err_set(e, ST_ERR, "%s: %ld %s%s", l->ops->name, a->status, *text ? text : reason, hint);
	cJSON_Delete(root);
}

/* An exchange that failed below HTTP: e says how; 1 when trying again
 * may help. */
static int
transport_error(struct llm *l, const struct attempt *a, int hc, const char *detail,
    struct err *e)
{
	const char *name = l->ops->name;
	long timeout_ms = l->c->timeout_ms > 0 ? l->c->timeout_ms : 300000L;
	switch (hc) {
	case HTTP_TIMEOUT:
		if (l->c->deadline_ms && l->c->deadline_ms - mono_ms() < 100)
			err_set(e, ST_ERR, "%s: no complete reply", name);   /* cut by the deadline */
		else
			err_set(e, ST_ERR, "%s: no complete reply within %.3g s (--timeout)", name,
			    timeout_ms / 1000.0);
		return 0;
	case HTTP_CONNECT:
		err_set(e, ST_ERR, "%s: cannot connect to %s: %s", name, l->url, detail);
		return 1;
	case HTTP_NOTHING:
		err_set(e, ST_ERR, "%s: the server closed the connection without a reply", name);
		return 1;
	case HTTP_CUT:
		err_set(e, ST_ERR, "%s: the reply was cut off (HTTP %ld, %zu bytes): %s", name,
		    a->status, a->received, detail);
		return 1;
	case HTTP_CERT:
		err_set(e, ST_ERR, "%s: cannot trust %s: %s (CURL_CA_BUNDLE names the CA "
		    "certificates to use)", name, l->url, detail);
		return 0;
	default:
		err_set(e, ST_ERR, "%s: %s: %s", name, l->url, detail);
		return 0;
	}
}

/* A 2xx reply that is one JSON body, into the stream's reply. */
static int
json_reply(struct llm *l, struct attempt *a, int *retry, struct err *e)
{
	const struct llm_config *c = l->c;
	struct llm_stream *s = a->s;
	const char *name = l->ops->name;
	if (a->body.len == 0 || is_space_only(a->body.data, a->body.len)) {
		*retry = 1;
		return err_set(e, ST_ERR, "%s: empty reply (HTTP %ld, no body)", name, a->status);
	}
	json_mask_nul(a->body.data, a->body.len);
	cJSON *root = cJSON_ParseWithLength(a->body.data, a->body.len);
	if (!root) {
		char ex[100];
		excerpt(a->body.data, a->body.len, ex, sizeof ex);
		return err_set(e, ST_ERR, "%s: the reply is not JSON (HTTP %ld): '%s'", name, a->status,
		    ex);
	}
	int rc = l->ops->reply(s, root, e);
	cJSON_Delete(root);
	if (rc)
		return rc;
	/* Asked for a stream, given one JSON body: show it all now. */
	if (c->on_text && !s->delivered && s->text.len) {
		c->on_text(s->text.data, s->text.len, c->arg);
		s->delivered = 1;
	}
	return ST_OK;
}

/* A 2xx stream's last line without its newline, and its last event. */
static void
sse_end(struct attempt *a)
{
	if (!a->sse)
		return;
	if (a->status >= 200 && a->status < 300 && a->line.len) {
		if (sse_line(a, a->line.data, a->line.len))
			a->failed = 1;
		a->line.len = 0;
	}
	if (!a->failed)
		sse_dispatch(a);
}

/* A callback stopped the transfer (e says why): 1, else 0. */
static int
attempt_stopped(const struct llm *l, const struct attempt *a, struct err *e)
{
	if (a->failed) {
		*e = a->err;
		return 1;
	}
	if (a->too_big) {
		err_set(e, ST_ERR, "%s: the reply is larger than %ld MiB", l->ops->name, REPLY_MAX >> 20);
		return 1;
	}
	return 0;
}

/* A reply received whole, with status: its error, or the stream's reply
 * complete. */
static int
reply_end(struct llm *l, struct attempt *a, long status, long *wait_ms, int *retry,
    struct err *e)
{
	struct llm_stream *s = a->s;
	a->status = status;
	s->r->http_status = status;
	if (status < 200 || status >= 300) {
		http_error(l, a, e);
		*retry = retryable_status(status);
		*wait_ms = a->retry_after_ms;
		return ST_ERR;
	}
	if (!a->sse)
		return json_reply(l, a, retry, e);
	if (!s->done) {
		*retry = !s->delivered;
		return err_set(e, ST_ERR, "%s: the stream ended before the reply was complete",
		    l->ops->name);
	}
	return ST_OK;
}

static void
attempt_free(struct attempt *a)
{
	buf_free(&a->body);
	buf_free(&a->line);
	buf_free(&a->data);
}

/* Runs one attempt.  Returns 0 on success; else fills e and sets *retry
 * when another attempt may succeed. */
static int
attempt_once(struct llm *l, const char *body, struct llm_stream *s, long *wait_ms, int *retry,
    struct err *e)
{
	struct attempt a = {.l = l, .s = s, .retry_after_ms = -1};
	const struct llm_config *c = l->c;
	*retry = 0;
	*wait_ms = -1;
	long timeout_ms = c->timeout_ms > 0 ? c->timeout_ms : 300000L;
	if (c->deadline_ms && c->deadline_ms - mono_ms() < timeout_ms)
		timeout_ms = c->deadline_ms - mono_ms() > 1 ? (long)(c->deadline_ms - mono_ms()) : 1;
	struct http_request rq = {
		.url = l->url, .headers = (const char *const *)l->headers, .body = body,
		.len = strlen(body), .timeout_ms = timeout_ms,
		.connect_timeout_ms = c->connect_timeout_ms > 0 ? c->connect_timeout_ms : 10000L,
		.on_header = on_header, .on_data = on_write, .arg = &a,
	};
	struct http_result hr;
	int hc = http_perform(l->http, &rq, &hr);
	int rc = ST_ERR;
	if (hc == HTTP_OK)
		sse_end(&a);
	if (attempt_stopped(l, &a, e)) {
		/* e says why */
	} else if (hc != HTTP_OK) {
		/* Text already shown cannot be taken back by trying again. */
		*retry = transport_error(l, &a, hc, hr.error, e) && !s->delivered;
	} else {
		rc = reply_end(l, &a, hr.status, wait_ms, retry, e);
	}
	attempt_free(&a);
	return rc;
}

/* The reply a stream put together, whole: every call with an id, a name
 * and arguments. */
static void
stream_take(struct llm_stream *s, struct llm_result *r)
{
	for (size_t i = 0; i < r->ncalls; i++) {
		r->calls[i].args = s->args[i].data ? xstrdup(s->args[i].data) : xstrdup("{}");
		if (!r->calls[i].id)
			r->calls[i].id = xasprintf("call_%zu", i);
		if (!r->calls[i].name)
			r->calls[i].name = xstrdup("");
	}
	r->text = s->text.data ? xstrdup(s->text.data) : xstrdup("");
}

int
llm_reply_read(const struct llm_config *c, long status, int sse, const char *body, size_t n,
    const size_t *cuts, size_t ncuts, struct llm_result *res, struct err *e)
{
	memset(res, 0, sizeof *res);
	struct llm l = {.c = c, .ops = llm_ops_of(c->provider)};
	if (l.ops->answer)
		return err_set(e, ST_INVALID, "%s: no replies over HTTP to read", l.ops->name);
	struct llm_result r = {.input_tokens = -1, .output_tokens = -1};
	struct llm_stream s = {.c = c, .r = &r};
	struct attempt a = {.l = &l, .s = &s, .status = status, .sse = sse, .retry_after_ms = -1};
	/* As the transfer would: a piece refused ends it. */
	int whole = 1;
	for (size_t k = 0, at = 0; k <= ncuts && whole; k++) {
		size_t end = k < ncuts && cuts[k] >= at && cuts[k] <= n ? cuts[k] : n;
		whole = end == at || on_write(body + at, end - at, &a) == end - at;
		at = end;
	}
	if (whole)
		sse_end(&a);
	long wait_ms;
	int retry, rc = ST_ERR;
	if (!attempt_stopped(&l, &a, e))
		rc = reply_end(&l, &a, status, &wait_ms, &retry, e);
	attempt_free(&a);
	if (rc == ST_OK)
		stream_take(&s, &r);
	stream_free(&s);
	if (rc == ST_OK) {
		*res = r;
	} else {
		res->http_status = r.http_status;
		res->model_gone = r.model_gone;
		llm_result_free(&r);
	}
	if (rc)
		llm_redact(e->msg, sizeof e->msg, c->api_key);
	return rc;
}

static unsigned
random_u32(void)
{
	unsigned v;
	if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v)
		return v;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned)ts.tv_nsec * 2654435761u;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
llm_send(struct llm *l, const cJSON *messages, const cJSON *tools, struct llm_result *res, struct err *e)
{
	const struct llm_config *c = l->c;
	memset(res, 0, sizeof *res);
	if (l->ops->answer)
		return l->ops->answer(c, messages, tools, res, e);
	cJSON *body = l->ops->body(c, messages, tools);
	char *text = cJSON_PrintUnformatted(body);
	cJSON_Delete(body);
	if (!text)
		return err_set(e, ST_ERR, "out of memory");
	long base = c->retry_base_ms > 0 ? c->retry_base_ms : 500;
	long max_wait = c->retry_max_wait_ms > 0 ? c->retry_max_wait_ms : 60000;
	int rc = ST_ERR;
	for (int attempt = 0;; attempt++) {
		struct llm_result r = {.input_tokens = -1, .output_tokens = -1};
		struct llm_stream s = {.c = c, .r = &r};
		long wait_ms;
		int retry;
		rc = attempt_once(l, text, &s, &wait_ms, &retry, e);
		if (rc == ST_OK) {
			stream_take(&s, &r);
			r.attempts = attempt + 1;
			stream_free(&s);
			*res = r;
			break;
		}
		stream_free(&s);
		res->http_status = r.http_status;
		res->model_gone = r.model_gone;
		res->attempts = attempt + 1;
		llm_result_free(&r);
		if (!retry || attempt >= c->retries) {
			if (attempt > 0) {
				size_t n = strlen(e->msg);
				snprintf(e->msg + n, sizeof e->msg - n, " (after %d attempts)", attempt + 1);
			}
			break;
		}
		if (wait_ms > max_wait) {
			size_t n = strlen(e->msg);
			snprintf(e->msg + n, sizeof e->msg - n, " (the provider asks to wait %ld s)",
			    (wait_ms + 999) / 1000);
			break;
		}
		if (wait_ms < 0) {
			long d = base << (attempt < 10 ? attempt : 10);
			if (d > 30000)
				d = 30000;
			/* Jitter: somewhere in [d/2, d]. */
			wait_ms = d / 2 + (long)(random_u32() % (unsigned long)(d / 2 + 1));
		}
		if (c->deadline_ms && mono_ms() + wait_ms >= c->deadline_ms) {
			size_t n = strlen(e->msg);
			snprintf(e->msg + n, sizeof e->msg - n, " (no time for another attempt)");
			break;
		}
		if (c->wait)
			c->wait(wait_ms, c->wait_arg);
		else
			sleep_ms(wait_ms);
	}
	free(text);
	llm_redact(e->msg, sizeof e->msg, c->api_key);
	return rc;
}
