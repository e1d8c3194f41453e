/* fake-provider: a local stand-in for the model providers, for tests, the
 * benchmark and `make demo`.  An HTTP/1.1 server on 127.0.0.1 speaking
 * OpenAI chat completions (POST /v1/chat/completions) and Anthropic
 * messages (POST /v1/messages), plain JSON and server-sent events, with
 * tool calls.  It checks every request strictly and answers anything
 * malformed with HTTP 400 and a line in DIR/errors.log.
 *
 *   fake-provider [-fq] [-d DIR] [-i IDLE] [-t MAX]
 *
 * Without -f it starts in the background, prints its port once it listens
 * and writes DIR/port and DIR/pid; it exits after IDLE seconds without a
 * request (default 30) or MAX seconds in all (default 300), so a test can
 * never hang on it.  The expected key is FAKE_PROVIDER_KEY (unset: requests
 * must carry none); it is never written anywhere: the logs say only whether
 * the key matched.  Each request is logged as DIR/N.req: the request line,
 * the headers that matter and the JSON body flattened to one `path = value`
 * line per leaf (DIR/last.req: the latest), and the body as it came as
 * DIR/N.body; DIR/requests.log has one line
 * per request.  -q logs nothing (for benchmarks).
 *
 * The answer is "echo: " and the last user text.  Directives in that text
 * script failures and tool calls:
 *   [[CODE]] [[CODExN]]   answer HTTP CODE (always / to the first N requests
 *                         with this text) with the provider's error JSON;
 *                         add " ra=S", " rad=S" (as a date), " rad850=S" (as
 *                         RFC 850's obsolete date) or " ram=MS"
 *                         for Retry-After, Retry-After as a date, retry-after-ms
 *                         (" pad=N": N zeros before MS, a long header line)
 *   [[html502]]           502 with an HTML body, as a proxy sends
 *   [[truncated]] [[empty]] [[nonjson]]  broken 200 replies
 *   [[slow=MS]]           wait before answering
 *   [[hold=PATH]]         once tool results came, wait until the file
 *                         PATH exists (at most 120 s) before answering
 *   [[cut]] [[error-event]] [[split]]  streams: closed early, an error
 *                         event, events split into pieces sent apart
 *   [[jsonstream]]        a plain JSON reply to a stream request
 *   [[errornull]]         a plain reply that also carries "error": null
 *   [[call NAME {ARGS}]]  call tool NAME, one per round, then answer with
 *                         the tool results; [[parallel]]: all in one round
 *   [[loop]]              call the first tool, every round
 *   [[as MODEL]]          the reply names MODEL as the model that answered
 *   [[retired MODEL]]     a request for MODEL is refused as the provider
 *                         refuses a retired model: OpenAI 404 model_not_found
 *                         ("has been deprecated"), Anthropic 404 not_found_error;
 *                         [[decommissioned MODEL]]: 400 model_decommissioned
 *                         (as Groq and others say it); both may repeat
 *   [[silent]]            answer with no text at all (once tools are done)
 * GET /files/NAME serves DIR/files/NAME; /redirect/NAME redirects there;
 * /redirect-to/PORT/NAME to /files/NAME on 127.0.0.1:PORT.
 *
 * Connections are kept open between requests (HTTP/1.1 keep-alive) unless
 * the client asks otherwise or a scripted failure breaks the connection;
 * DIR/connections holds the number accepted so far, so a test can tell
 * whether a client reused its connection.  A request in absolute form
 * (`POST http://HOST/v1/...`, as clients send to a proxy) is answered as if
 * it had reached HOST, and logged with a `proxied for HOST` line. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util.h"

#define MAX_HEADERS 64
#define BODY_MAX (48L * 1024 * 1024)
#define MAX_SEEN 256
#define MAX_CONNS 64                /* kept open at once */

enum { OPENAI, ANTHROPIC };

struct server {
	const char *dir;
	const char *key;            /* expected, or NULL */
	int quiet;                  /* no request logs (benchmarks) */
	int nreq;
	int nconn;                  /* connections accepted */
	struct {
		unsigned long hash;
		int count;
	} seen[MAX_SEEN];
	int nseen;
};

struct req {
	char method[16], path[512];
	char *names[MAX_HEADERS], *values[MAX_HEADERS];
	int nh;
	char *body;
	size_t blen;
	int fd;
	struct buf log;
	char invalid[300];
	int forked;                 /* a child answers this one */
	int keep;                   /* the connection stays open after the reply */
	char proxied[256];          /* the host of an absolute-form request */
	int child;                  /* this process is that child */
	struct server *sv;
	int logged;
};

static void commit_log(struct req *r);

static int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void
append_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		write_all(fd, text, strlen(text));
		close(fd);
	}
}

static const char *
header(const struct req *r, const char *name)
{
	for (int i = 0; i < r->nh; i++)
		if (strcasecmp(r->names[i], name) == 0)
			return r->values[i];
	return NULL;
}

/* ---- request log: flattened JSON ---- */

static void
flatten(struct buf *b, const char *path, const cJSON *v)
{
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		if (!v->child) {
			buf_printf(b, "%s = %s\n", path, cJSON_IsObject(v) ? "{}" : "[]");
			return;
		}
		int i = 0;
		for (const cJSON *c = v->child; c; c = c->next, i++) {
			char sub[1024];
			if (cJSON_IsObject(v))
				snprintf(sub, sizeof sub, "%s.%s", path, c->string);
			else
				snprintf(sub, sizeof sub, "%s[%d]", path, i);
			flatten(b, sub, c);
		}
		return;
	}
	char *s = cJSON_PrintUnformatted(v);
	buf_printf(b, "%s = %s\n", path, s ? s : "?");
	free(s);
}

/* ---- strict checks ---- */

static int
invalid(struct req *r, const char *fmt, ...)
{
	if (r->invalid[0])
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->invalid, sizeof r->invalid, fmt, ap);
	va_end(ap);
	return -1;
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 64)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

static int
base64_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n % 4)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '+' && s[i] != '/' &&
		    !(s[i] == '=' && i >= n - 2))
			return 0;
	return 1;
}

static int
image_type_ok(const char *m)
{
	static const char *const ok[] = {"image/png", "image/jpeg", "image/gif", "image/webp"};
	for (size_t i = 0; i < 4; i++)
		if (strcmp(m, ok[i]) == 0)
			return 1;
	return 0;
}

static int
only_keys(struct req *r, const cJSON *o, const char *where, const char *const *keys)
{
	for (const cJSON *c = o->child; c; c = c->next) {
		int ok = 0;
		for (size_t i = 0; keys[i]; i++)
			ok |= strcmp(c->string, keys[i]) == 0;
		if (!ok)
			return invalid(r, "%s: unexpected field '%s'", where, c->string);
	}
	return 0;
}

static const char *
str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int
check_tools(struct req *r, const cJSON *tools, int provider)
{
	if (!cJSON_IsArray(tools) || !cJSON_GetArraySize(tools))
		return invalid(r, "tools: not a non-empty array");
	const cJSON *t;
	cJSON_ArrayForEach(t, tools) {
		const cJSON *fn = t, *schema;
		if (provider == OPENAI) {
			if (!str(t, "type") || strcmp(str(t, "type"), "function"))
				return invalid(r, "tools[]: type must be \"function\"");
			fn = cJSON_GetObjectItemCaseSensitive(t, "function");
			schema = cJSON_GetObjectItemCaseSensitive(fn, "parameters");
		} else {
			schema = cJSON_GetObjectItemCaseSensitive(t, "input_schema");
		}
		if (!str(fn, "name") || !name_ok(str(fn, "name")))
			return invalid(r, "tools[]: name must match ^[a-zA-Z0-9_-]{1,64}$");
		if (!cJSON_IsObject(schema) || !str(schema, "type") || strcmp(str(schema, "type"), "object"))
			return invalid(r, "tools[] '%s': the schema must be an object schema", str(fn, "name"));
	}
	return 0;
}

static int
has_id(const cJSON *ids, const char *id)
{
	const cJSON *i;
	cJSON_ArrayForEach(i, ids)
		if (cJSON_IsString(i) && strcmp(i->valuestring, id) == 0)
			return 1;
	return 0;
}

/* The content of OpenAI user message i: text, or text and image parts. */
static int
check_openai_user(struct req *r, const cJSON *content, int i)
{
	if (cJSON_IsString(content))
		return *content->valuestring ? 0 : invalid(r, "messages[%d]: empty content", i);
	if (!cJSON_IsArray(content) || !cJSON_GetArraySize(content))
		return invalid(r, "messages[%d]: content must be text or parts", i);
	const cJSON *p;
	cJSON_ArrayForEach(p, content) {
		const char *type = str(p, "type");
		if (type && strcmp(type, "text") == 0 && str(p, "text"))
			continue;
		const char *url = str(cJSON_GetObjectItemCaseSensitive(p, "image_url"), "url");
		if (!type || strcmp(type, "image_url") || !url)
			return invalid(r, "messages[%d]: a part is neither text nor image_url", i);
		char mime[64];
		const char *semi = strchr(url, ';');
		if (strncmp(url, "data:", 5) || !semi || (size_t)(semi - url - 5) >= sizeof mime ||
		    strncmp(semi, ";base64,", 8))
			return invalid(r, "messages[%d]: image_url is not a base64 data URL", i);
		snprintf(mime, sizeof mime, "%.*s", (int)(semi - url - 5), url + 5);
		if (!image_type_ok(mime) || !base64_ok(semi + 8))
			return invalid(r, "messages[%d]: bad image data URL (%s)", i, mime);
	}
	return 0;
}

static int
check_openai(struct req *r, const cJSON *b)
{
	static const char *const keys[] = {"model", "messages", "stream", "stream_options",
		"temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "seed", "tools",
		"tool_choice", "presence_penalty", "frequency_penalty", "n", "user", "response_format",
		NULL};
	if (only_keys(r, b, "body", keys))
		return -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, "temperature");
	if (v && (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 2))
		return invalid(r, "temperature: a number from 0 to 2");
	v = cJSON_GetObjectItemCaseSensitive(b, "max_tokens");
	if (v && (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != (long)v->valuedouble))
		return invalid(r, "max_tokens: a positive integer");
	const cJSON *stream = cJSON_GetObjectItemCaseSensitive(b, "stream");
	if (stream && !cJSON_IsBool(stream))
		return invalid(r, "stream: a boolean");
	v = cJSON_GetObjectItemCaseSensitive(b, "stream_options");
	if (v && (!cJSON_IsTrue(stream) || !cJSON_IsObject(v) ||
	    !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(v, "include_usage"))))
		return invalid(r, "stream_options: only with stream, {\"include_usage\": bool}");
	v = cJSON_GetObjectItemCaseSensitive(b, "tools");
	if (v && check_tools(r, v, OPENAI))
		return -1;
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(b, "messages"), *m;
	cJSON *ids = cJSON_CreateArray();
	int i = 0, rc = 0;
	const char *last = NULL;
	cJSON_ArrayForEach(m, msgs) {
		const char *role = str(m, "role");
		const cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
		static const char *const mkeys[] = {"role", "content", "tool_calls", "tool_call_id", "name", NULL};
		if (!cJSON_IsObject(m) || !role || only_keys(r, m, "messages[]", mkeys)) {
			rc = invalid(r, "messages[%d]: an object with a role", i);
			break;
		}
		last = role;
		if (strcmp(role, "system") == 0) {
			if (i != 0 || !cJSON_IsString(content) || !*content->valuestring)
				rc = invalid(r, "messages[%d]: a system message comes first, with text", i);
		} else if (strcmp(role, "user") == 0) {
			rc = check_openai_user(r, content, i);
		} else if (strcmp(role, "assistant") == 0) {
			const cJSON *calls = cJSON_GetObjectItemCaseSensitive(m, "tool_calls"), *tc;
			if (!(cJSON_IsString(content) || (cJSON_IsNull(content) && calls)))
				rc = invalid(r, "messages[%d]: assistant content must be text (or null with tool_calls)", i);
			cJSON_ArrayForEach(tc, calls) {
				const cJSON *fn = cJSON_GetObjectItemCaseSensitive(tc, "function");
				const char *args = str(fn, "arguments");
				cJSON *parsed = args ? cJSON_Parse(args) : NULL;
				if (!str(tc, "id") || !str(tc, "type") || strcmp(str(tc, "type"), "function") ||
				    !str(fn, "name") || !cJSON_IsObject(parsed))
					rc = invalid(r, "messages[%d]: a malformed tool call", i);
				else
					cJSON_AddItemToArray(ids, cJSON_CreateString(str(tc, "id")));
				cJSON_Delete(parsed);
			}
		} else if (strcmp(role, "tool") == 0) {
			const char *id = str(m, "tool_call_id");
			if (!id || !has_id(ids, id) || !cJSON_IsString(content))
				rc = invalid(r, "messages[%d]: a tool result must answer an earlier tool call", i);
		} else {
			rc = invalid(r, "messages[%d]: unknown role '%s'", i, role);
		}
		if (rc)
			break;
		i++;
	}
	cJSON_Delete(ids);
	if (!rc && last && strcmp(last, "user") && strcmp(last, "tool"))
		rc = invalid(r, "messages: the last message must be from the user or a tool");
	return rc;
}

static int
check_anthropic(struct req *r, const cJSON *b)
{
	static const char *const keys[] = {"model", "messages", "max_tokens", "system", "stream",
		"temperature", "top_p", "top_k", "stop_sequences", "tools", "tool_choice", "metadata", NULL};
	if (only_keys(r, b, "body", keys))
		return -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, "max_tokens");
	if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != (long)v->valuedouble)
		return invalid(r, "max_tokens: Field required (a positive integer)");
	v = cJSON_GetObjectItemCaseSensitive(b, "temperature");
	if (v && (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1))
		return invalid(r, "temperature: a number from 0 to 1");
	v = cJSON_GetObjectItemCaseSensitive(b, "system");
	if (v && (!cJSON_IsString(v) || !*v->valuestring))
		return invalid(r, "system: a non-empty string");
	v = cJSON_GetObjectItemCaseSensitive(b, "stream");
	if (v && !cJSON_IsBool(v))
		return invalid(r, "stream: a boolean");
	v = cJSON_GetObjectItemCaseSensitive(b, "tools");
	if (v && check_tools(r, v, ANTHROPIC))
		return -1;
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(b, "messages"), *m;
	cJSON *ids = cJSON_CreateArray();
	int i = 0, rc = 0;
	const char *prev = NULL;
	cJSON_ArrayForEach(m, msgs) {
		const char *role = str(m, "role");
		const cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
		static const char *const mkeys[] = {"role", "content", NULL};
		if (!cJSON_IsObject(m) || !role || only_keys(r, m, "messages[]", mkeys) ||
		    (strcmp(role, "user") && strcmp(role, "assistant"))) {
			rc = invalid(r, "messages[%d]: role must be user or assistant", i);
			break;
		}
		if (i == 0 && strcmp(role, "user"))
			rc = invalid(r, "messages: the first message must use the \"user\" role");
		else if (prev && strcmp(prev, role) == 0)
			rc = invalid(r, "messages[%d]: roles must alternate between user and assistant", i);
		prev = role;
		if (rc)
			break;
		if (cJSON_IsString(content)) {
			if (!*content->valuestring)
				rc = invalid(r, "messages[%d]: content must be non-empty", i);
		} else if (cJSON_IsArray(content) && cJSON_GetArraySize(content)) {
			const cJSON *p;
			cJSON_ArrayForEach(p, content) {
				const char *type = str(p, "type");
				if (!type) {
					rc = invalid(r, "messages[%d]: a block without a type", i);
				} else if (strcmp(type, "text") == 0) {
					if (!str(p, "text") || !*str(p, "text"))
						rc = invalid(r, "messages[%d]: text content blocks must be non-empty", i);
				} else if (strcmp(type, "image") == 0 && !strcmp(role, "user")) {
					const cJSON *src = cJSON_GetObjectItemCaseSensitive(p, "source");
					if (!str(src, "type") || strcmp(str(src, "type"), "base64") ||
					    !str(src, "media_type") || !image_type_ok(str(src, "media_type")) ||
					    !str(src, "data") || !base64_ok(str(src, "data")))
						rc = invalid(r, "messages[%d]: a malformed image block", i);
				} else if (strcmp(type, "tool_use") == 0 && !strcmp(role, "assistant")) {
					if (!str(p, "id") || !str(p, "name") ||
					    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(p, "input")))
						rc = invalid(r, "messages[%d]: a malformed tool_use block", i);
					else
						cJSON_AddItemToArray(ids, cJSON_CreateString(str(p, "id")));
				} else if (strcmp(type, "tool_result") == 0 && !strcmp(role, "user")) {
					const cJSON *ie = cJSON_GetObjectItemCaseSensitive(p, "is_error");
					const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "content"), *q;
					if (!str(p, "tool_use_id") || !has_id(ids, str(p, "tool_use_id")) ||
					    (ie && !cJSON_IsBool(ie)))
						rc = invalid(r, "messages[%d]: a tool_result must answer an earlier tool_use", i);
					cJSON_ArrayForEach(q, (cJSON_IsArray(c) ? c : NULL)) {
						const char *qt = str(q, "type");
						const cJSON *src = cJSON_GetObjectItemCaseSensitive(q, "source");
						if (!qt || (strcmp(qt, "text") && strcmp(qt, "image")) ||
						    (!strcmp(qt, "image") && (!str(src, "media_type") ||
						    !image_type_ok(str(src, "media_type")) || !str(src, "data") ||
						    !base64_ok(str(src, "data")))))
							rc = invalid(r, "messages[%d]: a tool_result block is neither text nor a base64 image", i);
					}
				} else {
					rc = invalid(r, "messages[%d]: block type '%s' not allowed for %s", i, type, role);
				}
				if (rc)
					break;
			}
		} else {
			rc = invalid(r, "messages[%d]: content must be a string or blocks", i);
		}
		if (rc)
			break;
		i++;
	}
	cJSON_Delete(ids);
	if (!rc && prev && strcmp(prev, "user"))
		rc = invalid(r, "messages: the last message must be from the user");
	return rc;
}

/* ---- conversation facts the answer depends on ---- */

struct talk {
	struct buf text;            /* the last user text */
	int tool_results;           /* results after that text */
	struct buf results;         /* their contents, " | " between */
	int words;                  /* every word sent, for usage */
	int images;
};

static int
count_words(const char *s)
{
	int n = 0, in = 0;
	for (; *s; s++) {
		if (isspace((unsigned char)*s))
			in = 0;
		else if (!in++)
			n++;
	}
	return n;
}

static void
add_result(struct talk *t, const char *s)
{
	if (t->results.len)
		buf_puts(&t->results, " | ");
	buf_puts(&t->results, s ? s : "");
	t->tool_results++;
}

static void
read_talk(const cJSON *b, int provider, struct talk *t)
{
	const char *sys = str(b, "system");
	if (sys)
		t->words += count_words(sys);
	const cJSON *m;
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "messages")) {
		const char *role = str(m, "role");
		const cJSON *content = cJSON_GetObjectItemCaseSensitive(m, "content");
		if (cJSON_IsString(content))
			t->words += count_words(content->valuestring);
		if (provider == OPENAI && role && strcmp(role, "tool") == 0) {
			add_result(t, cJSON_IsString(content) ? content->valuestring : "");
			continue;
		}
		if (!role || strcmp(role, "user"))
			continue;
		if (cJSON_IsString(content)) {
			t->text.len = 0;
			buf_puts(&t->text, content->valuestring);
			t->results.len = 0;
			buf_puts(&t->results, "");
			t->tool_results = 0;
			t->images = 0;
			continue;
		}
		int has_text = 0;
		const cJSON *p;
		cJSON_ArrayForEach(p, content) {
			const char *type = str(p, "type");
			if (type && strcmp(type, "text") == 0) {
				if (!has_text++) {
					t->text.len = 0;
					buf_puts(&t->text, "");
					t->results.len = 0;
					buf_puts(&t->results, "");
					t->tool_results = 0;
					t->images = 0;
				}
				buf_puts(&t->text, str(p, "text"));
				t->words += count_words(str(p, "text"));
			} else if (type && strcmp(type, "tool_result") == 0) {
				/* Text, or blocks of text and images. */
				const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "content"), *q;
				struct buf joined = {0};
				buf_puts(&joined, cJSON_IsString(c) ? c->valuestring : "");
				cJSON_ArrayForEach(q, (cJSON_IsArray(c) ? c : NULL)) {
					if (str(q, "type") && !strcmp(str(q, "type"), "image"))
						t->images++;
					else if (str(q, "text"))
						buf_printf(&joined, "%s%s", joined.len ? " " : "", str(q, "text"));
				}
				add_result(t, joined.data);
				buf_free(&joined);
			}
		}
		/* Images alone after tool results: the tools' (OpenAI's way). */
		cJSON_ArrayForEach(p, content) {
			const char *type = str(p, "type");
			if (type && (!strcmp(type, "image") || !strcmp(type, "image_url")))
				t->images++;
		}
	}
	buf_add(&t->text, "", 0);
	buf_add(&t->results, "", 0);
}

/* The text of directive NAME ("[[NAME" up to "]]"), or NULL. */
static const char *
directive(const char *text, const char *name, char *out, size_t n)
{
	char open[64];
	snprintf(open, sizeof open, "[[%s", name);
	for (const char *p = strstr(text, open); p; p = strstr(p + 1, open)) {
		const char *end = strstr(p, "]]");
		char c = p[strlen(open)];
		if (!end || !(c == ']' || c == ' ' || c == '=' || c == 'x'))
			continue;
		snprintf(out, n, "%.*s", (int)(end - p - 2), p + 2);
		return out;
	}
	return NULL;
}

static unsigned long
hash(const char *s)
{
	unsigned long h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

static int
seen_count(struct server *sv, const char *text)
{
	unsigned long h = hash(text);
	for (int i = 0; i < sv->nseen; i++)
		if (sv->seen[i].hash == h)
			return ++sv->seen[i].count;
	if (sv->nseen < MAX_SEEN) {
		sv->seen[sv->nseen].hash = h;
		sv->seen[sv->nseen++].count = 1;
	}
	return 1;
}

/* ---- replies ---- */

static void
reply(struct req *r, int status, const char *reason, const char *ctype, const char *extra,
    const char *body)
{
	struct buf h = {0};
	size_t n = body ? strlen(body) : 0;
	buf_printf(&h, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%s\r\n",
	    status, reason, ctype, n, extra ? extra : "", r->keep ? "" : "Connection: close\r\n");
	/* Logged before it is sent: a client may look the moment it has it. */
	buf_printf(&r->log, "-> %d\n", status);
	commit_log(r);
	write_all(r->fd, h.data, h.len);
	if (n)
		write_all(r->fd, body, n);
	buf_free(&h);
}

static const char *
reason_of(int code)
{
	switch (code) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 408: return "Request Timeout";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	case 529: return "Overloaded";
	default: return "Error";
	}
}

/* An error in the provider's own JSON shape. */
static void
reply_error(struct req *r, int provider, int code, const char *msg, const char *extra)
{
	cJSON *j = cJSON_CreateObject(), *err;
	const char *type;
	switch (code) {
	case 400: type = "invalid_request_error"; break;
	case 401: type = "authentication_error"; break;
	case 403: type = "permission_error"; break;
	case 404: type = "not_found_error"; break;
	case 429: type = "rate_limit_error"; break;
	case 529: type = "overloaded_error"; break;
	default: type = "api_error"; break;
	}
	if (provider == ANTHROPIC) {
		cJSON_AddStringToObject(j, "type", "error");
		err = cJSON_AddObjectToObject(j, "error");
		cJSON_AddStringToObject(err, "type", type);
		cJSON_AddStringToObject(err, "message", msg);
	} else {
		err = cJSON_AddObjectToObject(j, "error");
		cJSON_AddStringToObject(err, "message", msg);
		cJSON_AddStringToObject(err, "type", code == 429 ? "requests" : code >= 500 ? "server_error"
		    : "invalid_request_error");
		cJSON_AddNullToObject(err, "param");
		cJSON_AddStringToObject(err, "code", code == 401 ? "invalid_api_key" : code == 429
		    ? "rate_limit_exceeded" : code == 404 ? "model_not_found" : "error");
	}
	char *s = cJSON_PrintUnformatted(j);
	reply(r, code, reason_of(code), "application/json", extra, s);
	free(s);
	cJSON_Delete(j);
}

static const char *
error_message(int provider, int code, const char *model)
{
	static char buf[256];
	switch (code) {
	case 429:
		return provider == OPENAI ? "Rate limit reached for requests"
		    : "Number of request tokens has exceeded your per-minute rate limit";
	case 529: return "Overloaded";
	case 404:
		snprintf(buf, sizeof buf, provider == OPENAI
		    ? "The model `%s` does not exist or you do not have access to it." : "model: %s", model);
		return buf;
	case 400: return "Invalid request";
	case 401: return provider == OPENAI ? "Incorrect API key provided." : "invalid x-api-key";
	case 403: return "Your API key does not have permission to use the specified resource.";
	default:
		return code >= 500 ? provider == OPENAI
		    ? "The server had an error while processing your request. Sorry about that!"
		    : "Internal server error" : "Error";
	}
}

static void
send_chunk(struct req *r, const char *s, size_t n, int split)
{
	char head[32];
	if (!split) {
		int hn = snprintf(head, sizeof head, "%zx\r\n", n);
		write_all(r->fd, head, (size_t)hn);
		write_all(r->fd, s, n);
		write_all(r->fd, "\r\n", 2);
		return;
	}
	/* Each half its own chunk, a moment apart: the reader must join them. */
	size_t half = n / 2;
	send_chunk(r, s, half, 0);
	sleep_ms(5);
	send_chunk(r, s + half, n - half, 0);
	sleep_ms(5);
}

static void
sse(struct req *r, const char *event, cJSON *data, int split)
{
	char *s = cJSON_PrintUnformatted(data);
	struct buf b = {0};
	if (event)
		buf_printf(&b, "event: %s\n", event);
	buf_printf(&b, "data: %s\n\n", s);
	send_chunk(r, b.data, b.len, split);
	free(s);
	buf_free(&b);
	cJSON_Delete(data);
}

struct answer {
	const char *model;
	const char *text;           /* NULL when calling tools */
	struct {
		char name[80];
		char *args;
	} calls[8];
	int ncalls;
	int in, out;
	int serial;
};

static cJSON *
openai_chunk(const struct answer *a)
{
	cJSON *c = cJSON_CreateObject();
	char id[32];
	snprintf(id, sizeof id, "chatcmpl-%d", a->serial);
	cJSON_AddStringToObject(c, "id", id);
	cJSON_AddStringToObject(c, "object", "chat.completion.chunk");
	cJSON_AddNumberToObject(c, "created", 1767225600);
	cJSON_AddStringToObject(c, "model", a->model);
	return c;
}

static cJSON *
openai_delta(const struct answer *a, cJSON **delta, const char *finish)
{
	cJSON *c = openai_chunk(a);
	cJSON *ch = cJSON_AddArrayToObject(c, "choices"), *choice = cJSON_CreateObject();
	cJSON_AddNumberToObject(choice, "index", 0);
	*delta = cJSON_AddObjectToObject(choice, "delta");
	if (finish)
		cJSON_AddStringToObject(choice, "finish_reason", finish);
	else
		cJSON_AddNullToObject(choice, "finish_reason");
	cJSON_AddItemToArray(ch, choice);
	return c;
}

static void
call_id(const struct answer *a, int provider, int i, char *out, size_t n)
{
	snprintf(out, n, provider == OPENAI ? "call_%d_%d" : "toolu_%d_%d", a->serial, i);
}

static void
stream_openai(struct req *r, const struct answer *a, int include_usage, int split, int cut, int errev)
{
	cJSON *d, *c = openai_delta(a, &d, NULL);
	cJSON_AddStringToObject(d, "role", "assistant");
	if (a->text)
		cJSON_AddStringToObject(d, "content", "");
	else
		cJSON_AddNullToObject(d, "content");
	sse(r, NULL, c, split);
	if (errev) {
		c = cJSON_Parse("{\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\"}}");
		sse(r, NULL, c, 0);
		return;
	}
	if (a->text) {
		/* Three pieces: the reader must join them in order. */
		size_t n = strlen(a->text), cuts[4] = {0, n / 3, 2 * n / 3, n};
		for (int i = 0; i < 3; i++) {
			if (cuts[i + 1] == cuts[i])
				continue;
			char *piece = xstrndup(a->text + cuts[i], cuts[i + 1] - cuts[i]);
			c = openai_delta(a, &d, NULL);
			cJSON_AddStringToObject(d, "content", piece);
			free(piece);
			sse(r, NULL, c, split);
			if (cut && i == 0)
				return;
		}
	}
	for (int i = 0; i < a->ncalls; i++) {
		char id[48];
		call_id(a, OPENAI, i, id, sizeof id);
		c = openai_delta(a, &d, NULL);
		cJSON *tcs = cJSON_AddArrayToObject(d, "tool_calls"), *tc = cJSON_CreateObject();
		cJSON_AddNumberToObject(tc, "index", i);
		cJSON_AddStringToObject(tc, "id", id);
		cJSON_AddStringToObject(tc, "type", "function");
		cJSON *fn = cJSON_AddObjectToObject(tc, "function");
		cJSON_AddStringToObject(fn, "name", a->calls[i].name);
		cJSON_AddStringToObject(fn, "arguments", "");
		cJSON_AddItemToArray(tcs, tc);
		sse(r, NULL, c, split);
		/* The arguments in two pieces. */
		size_t n = strlen(a->calls[i].args);
		for (int k = 0; k < 2; k++) {
			char *piece = k ? xstrdup(a->calls[i].args + n / 2) : xstrndup(a->calls[i].args, n / 2);
			c = openai_delta(a, &d, NULL);
			tcs = cJSON_AddArrayToObject(d, "tool_calls");
			tc = cJSON_CreateObject();
			cJSON_AddNumberToObject(tc, "index", i);
			fn = cJSON_AddObjectToObject(tc, "function");
			cJSON_AddStringToObject(fn, "arguments", piece);
			cJSON_AddItemToArray(tcs, tc);
			free(piece);
			sse(r, NULL, c, split);
		}
	}
	c = openai_delta(a, &d, a->text ? "stop" : "tool_calls");
	sse(r, NULL, c, split);
	if (include_usage) {
		c = openai_chunk(a);
		cJSON_AddArrayToObject(c, "choices");
		cJSON *u = cJSON_AddObjectToObject(c, "usage");
		cJSON_AddNumberToObject(u, "prompt_tokens", a->in);
		cJSON_AddNumberToObject(u, "completion_tokens", a->out);
		cJSON_AddNumberToObject(u, "total_tokens", a->in + a->out);
		sse(r, NULL, c, split);
	}
	send_chunk(r, "data: [DONE]\n\n", 14, split);
}

static void
stream_anthropic(struct req *r, const struct answer *a, int split, int cut, int errev)
{
	char buf[256];
	snprintf(buf, sizeof buf, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_%d\",\"type\":\"message\","
	    "\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
	    "\"usage\":{\"input_tokens\":%d,\"output_tokens\":1}}}", a->serial, a->in);
	cJSON *c = cJSON_Parse(buf);
	cJSON_AddStringToObject(cJSON_GetObjectItem(c, "message"), "model", a->model);
	sse(r, "message_start", c, split);
	if (errev) {
		sse(r, "error", cJSON_Parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"), 0);
		return;
	}
	sse(r, "ping", cJSON_Parse("{\"type\":\"ping\"}"), split);
	int idx = 0;
	if (a->text) {
		sse(r, "content_block_start", cJSON_Parse("{\"type\":\"content_block_start\",\"index\":0,"
		    "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"), split);
		size_t n = strlen(a->text), cuts[4] = {0, n / 3, 2 * n / 3, n};
		for (int i = 0; i < 3; i++) {
			if (cuts[i + 1] == cuts[i])
				continue;
			c = cJSON_Parse("{\"type\":\"content_block_delta\",\"index\":0}");
			cJSON *d = cJSON_AddObjectToObject(c, "delta");
			cJSON_AddStringToObject(d, "type", "text_delta");
			char *piece = xstrndup(a->text + cuts[i], cuts[i + 1] - cuts[i]);
			cJSON_AddStringToObject(d, "text", piece);
			free(piece);
			sse(r, "content_block_delta", c, split);
			if (cut && i == 0)
				return;
		}
		sse(r, "content_block_stop", cJSON_Parse("{\"type\":\"content_block_stop\",\"index\":0}"), split);
		idx++;
	}
	for (int i = 0; i < a->ncalls; i++, idx++) {
		char id[48];
		call_id(a, ANTHROPIC, i, id, sizeof id);
		c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "type", "content_block_start");
		cJSON_AddNumberToObject(c, "index", idx);
		cJSON *b = cJSON_AddObjectToObject(c, "content_block");
		cJSON_AddStringToObject(b, "type", "tool_use");
		cJSON_AddStringToObject(b, "id", id);
		cJSON_AddStringToObject(b, "name", a->calls[i].name);
		cJSON_AddObjectToObject(b, "input");
		sse(r, "content_block_start", c, split);
		size_t n = strlen(a->calls[i].args);
		for (int k = 0; k < 2; k++) {
			char *piece = k ? xstrdup(a->calls[i].args + n / 2) : xstrndup(a->calls[i].args, n / 2);
			c = cJSON_CreateObject();
			cJSON_AddStringToObject(c, "type", "content_block_delta");
			cJSON_AddNumberToObject(c, "index", idx);
			cJSON *d = cJSON_AddObjectToObject(c, "delta");
			cJSON_AddStringToObject(d, "type", "input_json_delta");
			cJSON_AddStringToObject(d, "partial_json", piece);
			free(piece);
			sse(r, "content_block_delta", c, split);
		}
		c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "type", "content_block_stop");
		cJSON_AddNumberToObject(c, "index", idx);
		sse(r, "content_block_stop", c, split);
	}
	snprintf(buf, sizeof buf, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"%s\","
	    "\"stop_sequence\":null},\"usage\":{\"output_tokens\":%d}}", a->text ? "end_turn" : "tool_use", a->out);
	sse(r, "message_delta", cJSON_Parse(buf), split);
	sse(r, "message_stop", cJSON_Parse("{\"type\":\"message_stop\"}"), split);
}

static char *
plain_reply(const struct answer *a, int provider)
{
	cJSON *j = cJSON_CreateObject();
	char id[48];
	if (provider == OPENAI) {
		snprintf(id, sizeof id, "chatcmpl-%d", a->serial);
		cJSON_AddStringToObject(j, "id", id);
		cJSON_AddStringToObject(j, "object", "chat.completion");
		cJSON_AddNumberToObject(j, "created", 1767225600);
		cJSON_AddStringToObject(j, "model", a->model);
		cJSON *choice = cJSON_CreateObject();
		cJSON_AddNumberToObject(choice, "index", 0);
		cJSON *m = cJSON_AddObjectToObject(choice, "message");
		cJSON_AddStringToObject(m, "role", "assistant");
		if (a->text)
			cJSON_AddStringToObject(m, "content", a->text);
		else
			cJSON_AddNullToObject(m, "content");
		if (a->ncalls) {
			cJSON *tcs = cJSON_AddArrayToObject(m, "tool_calls");
			for (int i = 0; i < a->ncalls; i++) {
				cJSON *tc = cJSON_CreateObject();
				call_id(a, OPENAI, i, id, sizeof id);
				cJSON_AddStringToObject(tc, "id", id);
				cJSON_AddStringToObject(tc, "type", "function");
				cJSON *fn = cJSON_AddObjectToObject(tc, "function");
				cJSON_AddStringToObject(fn, "name", a->calls[i].name);
				cJSON_AddStringToObject(fn, "arguments", a->calls[i].args);
				cJSON_AddItemToArray(tcs, tc);
			}
		}
		cJSON_AddStringToObject(choice, "finish_reason", a->text ? "stop" : "tool_calls");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(j, "choices"), choice);
		cJSON *u = cJSON_AddObjectToObject(j, "usage");
		cJSON_AddNumberToObject(u, "prompt_tokens", a->in);
		cJSON_AddNumberToObject(u, "completion_tokens", a->out);
		cJSON_AddNumberToObject(u, "total_tokens", a->in + a->out);
	} else {
		snprintf(id, sizeof id, "msg_%d", a->serial);
		cJSON_AddStringToObject(j, "id", id);
		cJSON_AddStringToObject(j, "type", "message");
		cJSON_AddStringToObject(j, "role", "assistant");
		cJSON_AddStringToObject(j, "model", a->model);
		cJSON *content = cJSON_AddArrayToObject(j, "content");
		if (a->text) {
			cJSON *b = cJSON_CreateObject();
			cJSON_AddStringToObject(b, "type", "text");
			cJSON_AddStringToObject(b, "text", a->text);
			cJSON_AddItemToArray(content, b);
		}
		for (int i = 0; i < a->ncalls; i++) {
			cJSON *b = cJSON_CreateObject();
			call_id(a, ANTHROPIC, i, id, sizeof id);
			cJSON_AddStringToObject(b, "type", "tool_use");
			cJSON_AddStringToObject(b, "id", id);
			cJSON_AddStringToObject(b, "name", a->calls[i].name);
			cJSON *input = cJSON_Parse(a->calls[i].args);
			cJSON_AddItemToObject(b, "input", input ? input : cJSON_CreateObject());
			cJSON_AddItemToArray(content, b);
		}
		cJSON_AddStringToObject(j, "stop_reason", a->text ? "end_turn" : "tool_use");
		cJSON_AddNullToObject(j, "stop_sequence");
		cJSON *u = cJSON_AddObjectToObject(j, "usage");
		cJSON_AddNumberToObject(u, "input_tokens", a->in);
		cJSON_AddNumberToObject(u, "output_tokens", a->out);
	}
	char *s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return s;
}

/* The [[call NAME ARGS]] directives of text, in order. */
static int
parse_calls(const char *text, struct answer *a)
{
	for (const char *p = strstr(text, "[[call "); p && a->ncalls < 8; p = strstr(p + 1, "[[call ")) {
		const char *q = p + 7, *end = strstr(q, "]]");
		if (!end)
			break;
		/* ARGS is JSON and may hold "]]"; take the last "]]" that leaves valid JSON. */
		const char *sp = q;
		while (sp < end && *sp != ' ')
			sp++;
		snprintf(a->calls[a->ncalls].name, sizeof a->calls[0].name, "%.*s", (int)(sp - q), q);
		const char *args = sp < end ? sp + 1 : "{}";
		size_t alen = sp < end ? (size_t)(end - args) : 2;
		a->calls[a->ncalls].args = xstrndup(args, alen);
		a->ncalls++;
	}
	return a->ncalls;
}

/* The request's key, headers and body checked; NULL when it was answered
 * already (a wrong key, a malformed request). */
static cJSON *
checked_body(struct server *sv, struct req *r, int provider)
{
	const char *auth = header(r, "authorization"), *xkey = header(r, "x-api-key");
	const char *ver = header(r, "anthropic-version"), *ctype = header(r, "content-type");
	const char *keyhdr = provider == OPENAI ? auth : xkey;
	int key_ok;
	if (provider == OPENAI) {
		char want[512];
		snprintf(want, sizeof want, "Bearer %s", sv->key ? sv->key : "");
		key_ok = sv->key ? auth && strcmp(auth, want) == 0 : !auth;
		if (xkey || ver)
			invalid(r, "an OpenAI request with Anthropic headers");
	} else {
		key_ok = sv->key ? xkey && strcmp(xkey, sv->key) == 0 : !xkey;
		if (auth)
			invalid(r, "an Anthropic request with an Authorization header");
		if (!ver || strcmp(ver, "2023-06-01"))
			invalid(r, "anthropic-version: header is required (2023-06-01)");
	}
	if (keyhdr)
		buf_printf(&r->log, "header %s: <key %s>\n", provider == OPENAI ? "authorization" : "x-api-key",
		    key_ok ? "ok" : "WRONG");
	if (ver)
		buf_printf(&r->log, "header anthropic-version: %s\n", ver);
	if (ctype)
		buf_printf(&r->log, "header content-type: %s\n", ctype);
	if (!ctype || strcmp(ctype, "application/json"))
		invalid(r, "Content-Type must be application/json");
	cJSON *b = cJSON_ParseWithLength(r->body, r->blen);
	if (!cJSON_IsObject(b)) {
		invalid(r, "the body is not a JSON object");
	} else {
		flatten(&r->log, "body", b);
		const char *model = str(b, "model");
		const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(b, "messages");
		if (!model || !*model)
			invalid(r, "model: a non-empty string is required");
		else if (!cJSON_IsArray(msgs) || !cJSON_GetArraySize(msgs))
			invalid(r, "messages: a non-empty array is required");
		else
			provider == OPENAI ? check_openai(r, b) : check_anthropic(r, b);
	}
	if (!key_ok && !r->invalid[0]) {
		/* OpenAI echoes the key masked; clients must not repeat even that. */
		char msg[300];
		const char *k = keyhdr ? (provider == OPENAI ? keyhdr + (strncmp(keyhdr, "Bearer ", 7) ? 0 : 7) : keyhdr) : "";
		size_t kl = strlen(k);
		if (provider == OPENAI)
			snprintf(msg, sizeof msg, "Incorrect API key provided: %.3s****%s. You can find your API key at https://platform.openai.com/account/api-keys.",
			    k, kl > 4 ? k + kl - 4 : "");
		reply_error(r, provider, 401, provider == OPENAI ? msg : "invalid x-api-key", NULL);
		cJSON_Delete(b);
		return NULL;
	}
	if (r->invalid[0]) {
		char line[400];
		snprintf(line, sizeof line, "%d: %s\n", sv->nreq, r->invalid);
		append_file(sv->dir, "errors.log", line);
		reply_error(r, provider, 400, r->invalid, NULL);
		cJSON_Delete(b);
		return NULL;
	}
	return b;
}

/* [[CODE]] and [[CODExN]] with their Retry-After: answered, 1; else 0.
 * " pad=N" writes N zeros before a retry-after-ms value: a long header
 * line that must be read whole. */
static int
scripted_error(struct req *r, int provider, const char *text, int count, const char *model)
{
	for (const char *p = strstr(text, "[["); p; p = strstr(p + 2, "[[")) {
		if (!isdigit((unsigned char)p[2]))
			continue;
		char *end;
		long code = strtol(p + 2, &end, 10), times = -1;
		if (*end == 'x')
			times = strtol(end + 1, &end, 10);
		if (times >= 0 && count > times)
			continue;
		struct buf extra = {0};
		const char *close = strstr(end, "]]");
		const char *ra = strstr(end, " ra="), *rad = strstr(end, " rad="), *ram = strstr(end, " ram=");
		const char *rad850 = strstr(end, " rad850=");
		const char *pad = strstr(end, " pad=");
		if (ra && ra < close) {
			buf_printf(&extra, "Retry-After: %ld\r\n", strtol(ra + 4, NULL, 10));
		} else if (ram && ram < close) {
			buf_puts(&extra, "retry-after-ms: ");
			for (long i = pad && pad < close ? strtol(pad + 5, NULL, 10) : 0; i > 0; i--)
				buf_puts(&extra, "0");
			buf_printf(&extra, "%ld\r\n", strtol(ram + 5, NULL, 10));
		} else if ((rad && rad < close) || (rad850 && rad850 < close)) {
			int old = rad850 && rad850 < close;
			time_t when = time(NULL) + strtol(old ? rad850 + 8 : rad + 5, NULL, 10);
			struct tm tm;
			char date[64];
			gmtime_r(&when, &tm);
			strftime(date, sizeof date, old ? "%A, %d-%b-%y %H:%M:%S GMT" : "%a, %d %b %Y %H:%M:%S GMT",
			    &tm);
			buf_printf(&extra, "Retry-After: %s\r\n", date);
		}
		reply_error(r, provider, (int)code, error_message(provider, (int)code, model), extra.data);
		buf_free(&extra);
		return 1;
	}
	return 0;
}

/* [[retired MODEL]] or [[decommissioned MODEL]] naming the model asked
 * for: refused in the provider's words for a model taken away, 1; else 0. */
static int
retired_model(struct req *r, int provider, const char *text, const char *model)
{
	static const char *const kinds[] = {"[[retired ", "[[decommissioned "};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t kl = strlen(kinds[k]);
		for (const char *p = strstr(text, kinds[k]); p; p = strstr(p + 1, kinds[k])) {
			const char *name = p + kl, *end = strstr(name, "]]");
			if (!end || strlen(model) != (size_t)(end - name) || strncmp(name, model, strlen(model)))
				continue;
			cJSON *j = cJSON_CreateObject(), *err;
			char msg[400];
			int code = k == 0 ? 404 : 400;
			if (provider == ANTHROPIC) {
				snprintf(msg, sizeof msg, k == 0 ? "model: %s" : "model %s is deprecated", model);
				cJSON_AddStringToObject(j, "type", "error");
				err = cJSON_AddObjectToObject(j, "error");
				cJSON_AddStringToObject(err, "type", k == 0 ? "not_found_error" : "invalid_request_error");
				cJSON_AddStringToObject(err, "message", msg);
			} else {
				snprintf(msg, sizeof msg, k == 0 ? "The model `%s` has been deprecated, learn more"
				    " here: https://platform.openai.com/docs/deprecations" : "The model `%s` has been"
				    " decommissioned and is no longer supported.", model);
				err = cJSON_AddObjectToObject(j, "error");
				cJSON_AddStringToObject(err, "message", msg);
				cJSON_AddStringToObject(err, "type", "invalid_request_error");
				cJSON_AddNullToObject(err, "param");
				cJSON_AddStringToObject(err, "code", k == 0 ? "model_not_found" : "model_decommissioned");
			}
			char *s = cJSON_PrintUnformatted(j);
			reply(r, code, reason_of(code), "application/json", NULL, s);
			free(s);
			cJSON_Delete(j);
			return 1;
		}
	}
	return 0;
}

/* [[slow=MS]], [[html502]], [[empty]], [[nonjson]]: answered (or left to
 * a child that waits), 1; else 0 (also in the child once it waited). */
static int
scripted_reply(struct req *r, const char *text, int tool_results)
{
	char d[256];
	/* A barrier for tests: the conversation is held in its later rounds
	 * until the test lets it go, whatever the machine's speed. */
	if (tool_results && directive(text, "hold", d, sizeof d)) {
		r->keep = 0;
		pid_t pid = fork();
		if (pid > 0) {
			r->forked = 1;
			buf_printf(&r->log, "-> (held until %s)\n", d + 5);
			return 1;
		}
		if (pid == 0) {
			r->child = 1;
			for (int i = 0; i < 12000 && access(d + 5, F_OK) != 0; i++)
				sleep_ms(10);
		}
	}
	if (directive(text, "slow", d, sizeof d)) {
		/* The wait happens in a child, so other clients are not held up;
		 * the child's reply ends the connection. */
		r->keep = 0;
		pid_t pid = fork();
		if (pid > 0) {
			r->forked = 1;
			buf_printf(&r->log, "-> (answered after %ld ms)\n", strtol(d + 5, NULL, 10));
			return 1;
		}
		if (pid == 0) {
			r->child = 1;
			sleep_ms(strtol(d + 5, NULL, 10));
		}
	}
	if (directive(text, "html502", d, sizeof d)) {
		reply(r, 502, "Bad Gateway", "text/html", NULL,
		    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n");
		return 1;
	}
	if (directive(text, "empty", d, sizeof d)) {
		reply(r, 200, "OK", "application/json", NULL, "");
		return 1;
	}
	if (directive(text, "nonjson", d, sizeof d)) {
		reply(r, 200, "OK", "text/html", NULL, "<html><body>Welcome to the proxy</body></html>");
		return 1;
	}
	return 0;
}

/* What the model says: tool calls ([[call]], [[parallel]], [[loop]]) while
 * results are due, else "echo: " and the text (answer holds it). */
static void
compose(struct answer *a, const struct talk *t, const cJSON *tools, int provider,
    struct buf *answer)
{
	const char *text = t->text.data;
	char d[256];
	int calls_wanted = parse_calls(text, a), calling = 0;
	int parallel = directive(text, "parallel", d, sizeof d) != NULL;
	if (tools && directive(text, "loop", d, sizeof d)) {
		const cJSON *t0 = cJSON_GetArrayItem(tools, 0);
		const char *name = provider == OPENAI ? str(cJSON_GetObjectItem(t0, "function"), "name") : str(t0, "name");
		for (int i = 0; i < a->ncalls; i++)
			free(a->calls[i].args);
		a->ncalls = 1;
		snprintf(a->calls[0].name, sizeof a->calls[0].name, "%s", name ? name : "tool");
		a->calls[0].args = xstrdup("{}");
		calling = 1;
	} else if (tools && calls_wanted && t->tool_results < calls_wanted &&
	    !(parallel && t->tool_results)) {
		if (!parallel) {
			/* One call per round: keep call number tool_results. */
			int k = t->tool_results;
			for (int i = 0; i < a->ncalls; i++)
				if (i != k)
					free(a->calls[i].args);
			a->calls[0] = a->calls[k];
			a->ncalls = 1;
		}
		calling = 1;
	}
	if (!calling) {
		for (int i = 0; i < a->ncalls; i++)
			free(a->calls[i].args);
		a->ncalls = 0;
		int silent = directive(text, "silent", d, sizeof d) != NULL;
		if (silent)
			;
		else if (t->tool_results)
			buf_printf(answer, "tool results: %s", t->results.data);
		else
			buf_printf(answer, "echo: %s", text);
		if (t->images && !silent)
			buf_printf(answer, " [%d image%s]", t->images, t->images == 1 ? "" : "s");
		a->text = answer->data ? answer->data : "";
	}
	a->in = t->words;
	a->out = a->text ? count_words(a->text) : 1;
}

/* The answer on the wire: plain JSON, a stream, or broken as asked. */
static void
send_answer(struct req *r, const struct answer *a, int provider, const cJSON *b,
    const char *text)
{
	char d[256];
	int stream = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "stream"));
	if (directive(text, "truncated", d, sizeof d)) {
		char *s = plain_reply(a, provider);
		char head[256];
		size_t n = strlen(s);
		r->keep = 0;
		int hn = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
		    "Content-Length: %zu\r\nConnection: close\r\n\r\n", n);
		buf_printf(&r->log, "-> 200 (cut at %zu of %zu bytes)\n", n / 2, n);
		commit_log(r);
		write_all(r->fd, head, (size_t)hn);
		write_all(r->fd, s, n / 2);
		free(s);
	} else if (stream && !directive(text, "jsonstream", d, sizeof d)) {
		int split = directive(text, "split", d, sizeof d) != NULL;
		int cut = directive(text, "cut", d, sizeof d) != NULL;
		if (cut)
			r->keep = 0;
		char head[256];
		snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
		    "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n%s\r\n",
		    r->keep ? "" : "Connection: close\r\n");
		int errev = directive(text, "error-event", d, sizeof d) != NULL;
		buf_printf(&r->log, "-> 200 (stream%s)\n", cut ? ", cut" : "");
		commit_log(r);
		write_all(r->fd, head, strlen(head));
		if (provider == OPENAI) {
			const cJSON *so = cJSON_GetObjectItemCaseSensitive(b, "stream_options");
			stream_openai(r, a, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(so, "include_usage")),
			    split, cut, errev);
		} else {
			stream_anthropic(r, a, split, cut, errev);
		}
		if (!cut)
			write_all(r->fd, "0\r\n\r\n", 5);
	} else {
		char *s = plain_reply(a, provider);
		if (directive(text, "errornull", d, sizeof d)) {
			/* Some OpenAI-compatible servers send "error": null on success. */
			char *with = xasprintf("{\"error\":null,%s", s + 1);
			free(s);
			s = with;
		}
		reply(r, 200, "OK", "application/json", NULL, s);
		free(s);
	}
}

static void
handle_model(struct server *sv, struct req *r, int provider)
{
	cJSON *b = checked_body(sv, r, provider);
	if (!b)
		return;
	struct talk t = {0};
	read_talk(b, provider, &t);
	const char *text = t.text.data;
	struct answer a = {.model = str(b, "model"), .serial = sv->nreq};
	char as[256];
	int refused = retired_model(r, provider, text, a.model);
	if (directive(text, "as", as, sizeof as) && as[2] == ' ')
		a.model = as + 3;
	/* Scripted failures first. */
	if (!refused && !scripted_error(r, provider, text, seen_count(sv, text), a.model) &&
	    !scripted_reply(r, text, t.tool_results)) {
		struct buf answer = {0};
		compose(&a, &t, cJSON_GetObjectItemCaseSensitive(b, "tools"), provider, &answer);
		send_answer(r, &a, provider, b, text);
		for (int i = 0; i < a.ncalls; i++)
			free(a.calls[i].args);
		buf_free(&answer);
	}
	buf_free(&t.text);
	buf_free(&t.results);
	cJSON_Delete(b);
}

static void
handle_file(struct server *sv, struct req *r)
{
	const char *name = strrchr(r->path, '/') + 1;
	if (strncmp(r->path, "/redirect-to/", 13) == 0) {
		char extra[600];
		snprintf(extra, sizeof extra, "Location: http://127.0.0.1:%d/files/%s\r\n",
		    atoi(r->path + 13), name);
		reply(r, 302, "Found", "text/plain", extra, "moved\n");
		return;
	}
	if (strncmp(r->path, "/redirect/", 10) == 0) {
		char extra[600];
		snprintf(extra, sizeof extra, "Location: /files/%s\r\n", name);
		reply(r, 302, "Found", "text/plain", extra, "moved\n");
		return;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/files/%s", sv->dir, name);
	struct buf b = {0};
	int fd = strstr(name, "..") ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || buf_read_fd(&b, fd, BODY_MAX) != 0) {
		if (fd >= 0)
			close(fd);
		buf_free(&b);
		reply(r, 404, "Not Found", "text/plain", NULL, "no such file\n");
		return;
	}
	close(fd);
	char head[256];
	int hn = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
	    "Content-Length: %zu\r\n%s\r\n", b.len, r->keep ? "" : "Connection: close\r\n");
	buf_printf(&r->log, "-> 200 (%zu bytes)\n", b.len);
	commit_log(r);
	write_all(r->fd, head, (size_t)hn);
	write_all(r->fd, b.data, b.len);
	buf_free(&b);
}

/* Writes the request's log: DIR/N.req, DIR/last.req, a line in
 * DIR/requests.log.  Once per request, and never from a child. */
static void
commit_log(struct req *r)
{
	struct server *sv = r->sv;
	if (r->logged || r->child || sv->quiet)
		return;
	r->logged = 1;
	char name[64];
	snprintf(name, sizeof name, "%d.req", sv->nreq);
	append_file(sv->dir, name, r->log.data);
	/* N.body: the body as it came, byte for byte (a replay is compared so). */
	if (r->body) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%d.body", sv->dir, sv->nreq);
		int bf = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (bf >= 0) {
			write_all(bf, r->body, r->blen);
			close(bf);
		}
	}
	/* last.req: the latest request alone, for tests that look at one. */
	char last[4096];
	snprintf(last, sizeof last, "%s/last.req", sv->dir);
	int lf = open(last, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (lf >= 0) {
		write_all(lf, r->log.data, r->log.len);
		close(lf);
	}
	char summary[700];
	const char *status = strstr(r->log.data, "\n-> ");
	snprintf(summary, sizeof summary, "%d %s %s %.40s", sv->nreq, r->method, r->path,
	    status ? status + 4 : "-> ?\n");
	append_file(sv->dir, "requests.log", summary);
}

/* Reads one request; -1 when the connection is unusable. */
static int
read_request(int fd, struct req *r, struct buf *in)
{
	char tmp[65536];
	char *end = NULL;
	while (!(end = in->data ? strstr(in->data, "\r\n\r\n") : NULL)) {
		if (in->len > 65536)
			return -1;
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n <= 0)
			return -1;
		buf_add(in, tmp, (size_t)n);
		/* Not HTTP (a TLS hello, say): hang up at once. */
		if (!isupper((unsigned char)in->data[0]))
			return -1;
	}
	*end = 0;
	char *line = in->data, *save;
	char *first = strtok_r(line, "\r\n", &save);
	char version[16];
	if (!first || sscanf(first, "%15s %511s %15s", r->method, r->path, version) != 3 ||
	    strcmp(version, "HTTP/1.1"))
		return -1;
	if (strncmp(r->path, "http://", 7) == 0) {
		const char *slash = strchr(r->path + 7, '/');
		snprintf(r->proxied, sizeof r->proxied, "%.*s",
		    (int)(slash ? slash - r->path - 7 : (long)strlen(r->path + 7)), r->path + 7);
		memmove(r->path, slash ? slash : "/", strlen(slash ? slash : "/") + 1);
	}
	for (char *h = strtok_r(NULL, "\r\n", &save); h && r->nh < MAX_HEADERS; h = strtok_r(NULL, "\r\n", &save)) {
		char *colon = strchr(h, ':');
		if (!colon)
			return -1;
		*colon = 0;
		r->names[r->nh] = h;
		r->values[r->nh++] = str_trim(colon + 1);
	}
	size_t head = (size_t)(end - in->data) + 4;
	const char *cl = header(r, "content-length");
	long want = cl ? strtol(cl, NULL, 10) : 0;
	if (want < 0 || want > BODY_MAX)
		return -1;
	const char *expect = header(r, "expect");
	if (expect && strcasecmp(expect, "100-continue") == 0)
		write_all(fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
	struct buf body = {0};
	buf_add(&body, in->data + head, in->len - head);
	while (body.len < (size_t)want) {
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n <= 0) {
			buf_free(&body);
			return -1;
		}
		buf_add(&body, tmp, (size_t)n);
	}
	buf_add(&body, "", 0);
	r->body = body.data;
	r->blen = (size_t)want;
	if (header(r, "transfer-encoding"))
		invalid(r, "chunked request bodies are not expected");
	const char *conn = header(r, "connection");
	r->keep = !(conn && strcasecmp(conn, "close") == 0);
	return 0;
}

/* Answers one request on fd: 1 the connection stays open for more, 0 it
 * is done, -1 a child answers on it (closed here, never shut down). */
static int
serve(struct server *sv, int fd)
{
	struct req r = {.fd = fd, .sv = sv};
	struct buf in = {0};
	if (read_request(fd, &r, &in) != 0) {
		buf_free(&in);
		free(r.body);
		return 0;
	}
	sv->nreq++;
	buf_printf(&r.log, "%s %s\n", r.method, r.path);
	if (r.proxied[0])
		buf_printf(&r.log, "proxied for %s\n", r.proxied);
	if (strcmp(r.method, "POST") == 0 && strcmp(r.path, "/v1/chat/completions") == 0) {
		handle_model(sv, &r, OPENAI);
		if (r.child)
			_exit(0);
	} else if (strcmp(r.method, "POST") == 0 && strcmp(r.path, "/v1/messages") == 0) {
		handle_model(sv, &r, ANTHROPIC);
		if (r.child)
			_exit(0);
	} else if (strcmp(r.method, "GET") == 0 && (strncmp(r.path, "/files/", 7) == 0 ||
	    strncmp(r.path, "/redirect/", 10) == 0 || strncmp(r.path, "/redirect-to/", 13) == 0)) {
		handle_file(sv, &r);
	} else {
		char line[700];
		snprintf(line, sizeof line, "%d: no such endpoint: %s %s\n", sv->nreq, r.method, r.path);
		append_file(sv->dir, "errors.log", line);
		reply(&r, 404, "Not Found", "application/json", NULL,
		    "{\"error\":{\"message\":\"Unknown request URL\",\"type\":\"invalid_request_error\"}}");
	}
	commit_log(&r);
	buf_free(&r.log);
	buf_free(&in);
	free(r.body);
	return r.forked ? -1 : r.keep;
}

static void
count_connection(struct server *sv)
{
	char path[4096], line[32];
	snprintf(path, sizeof path, "%s/connections", sv->dir);
	snprintf(line, sizeof line, "%d\n", ++sv->nconn);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		write_all(fd, line, strlen(line));
		close(fd);
	}
}

static void
hang_up(int fd, int how)
{
	if (how == 0)
		shutdown(fd, SHUT_WR);
	close(fd);
}

/* One request at a time; open connections wait their turn in poll.  Until
 * idle seconds pass without one, or max in all. */
static void
serve_all(struct server *sv, int ls, long idle, long max)
{
	struct pollfd p[MAX_CONNS + 1];
	int nc = 0, one = 1;
	time_t start = time(NULL);
	for (;;) {
		p[0] = (struct pollfd){.fd = ls, .events = POLLIN};
		for (int i = 0; i < nc; i++)
			p[i + 1].events = POLLIN;
		int n = poll(p, (nfds_t)nc + 1, (int)(idle * 1000));
		if (n == 0 || time(NULL) - start > max)
			break;
		if (n < 0)
			continue;
		for (int i = nc; i >= 1; i--) {
			if (!p[i].revents)
				continue;
			int k = p[i].revents & POLLIN ? serve(sv, p[i].fd) : 0;
			if (k != 1) {
				hang_up(p[i].fd, k);
				p[i] = p[nc--];
			}
		}
		if (!(p[0].revents & POLLIN))
			continue;
		int fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		count_connection(sv);
		struct timeval tv = {5, 0};
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		int k = serve(sv, fd);
		if (k == 1 && nc < MAX_CONNS)
			p[++nc] = (struct pollfd){.fd = fd, .events = POLLIN};
		else
			hang_up(fd, k);
	}
	for (int i = 1; i <= nc; i++)
		close(p[i].fd);
}

int
main(int argc, char **argv)
{
	int c, fg = 0;
	long idle = 30, max = 300;
	struct server sv = {.dir = "."};
	while ((c = getopt(argc, argv, "fqd:i:t:")) != -1) {
		switch (c) {
		case 'f': fg = 1; break;
		case 'q': sv.quiet = 1; break;
		case 'd': sv.dir = optarg; break;
		case 'i': idle = strtol(optarg, NULL, 10); break;
		case 't': max = strtol(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: fake-provider [-fq] [-d DIR] [-i IDLE] [-t MAX]\n");
			return 2;
		}
	}
	const char *k = getenv("FAKE_PROVIDER_KEY");
	sv.key = k && *k ? k : NULL;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);
	mkdir(sv.dir, 0700);
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof sa;
	int one = 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) || listen(ls, 64) ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl)) {
		fprintf(stderr, "fake-provider: cannot listen on 127.0.0.1: %s\n", strerror(errno));
		return 1;
	}
	int port = ntohs(sa.sin_port);
	if (!fg) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid > 0) {
			/* The port is known before the fork; the socket listens already. */
			char path[4096], line[32];
			snprintf(path, sizeof path, "%s/pid", sv.dir);
			snprintf(line, sizeof line, "%d\n", (int)pid);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd >= 0) {
				write_all(fd, line, strlen(line));
				close(fd);
			}
			printf("%d\n", port);
			return 0;
		}
		setsid();
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	char path[4096], line[32];
	snprintf(path, sizeof path, "%s/port", sv.dir);
	snprintf(line, sizeof line, "%d\n", port);
	int pf = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (pf >= 0) {
		write_all(pf, line, strlen(line));
		close(pf);
	}
	if (fg) {
		printf("%d\n", port);
		fflush(stdout);
	}
	serve_all(&sv, ls, idle, max);
	close(ls);
	return 0;
}
