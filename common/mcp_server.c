/* The MCP server's message handling.  A message is a JSON-RPC 2.0 request
 * (an id: always answered), a notification (no id: never answered) or a
 * response (ignored: this server sends no requests).  Two eras share the
 * loop: a handshake client sends initialize first and gets the version it
 * asked for when we speak it; a stateless (2026-07-28) client puts the
 * version in every request's params._meta and needs no handshake.  Requests
 * before initialize are served too: being lenient costs nothing here.
 * Every reply is valid UTF-8: bytes of a request that are not are printed
 * as U+FFFD, and so are those of names and outputs in the store; a tool's
 * arguments that are not are refused. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mcp_server.h"
#include "task_json.h"
#include "tz.h"
#include "utf8.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"

/* Newest first; the handshake negotiates among these only. */
static const char *const legacy_versions[] = {MCP_LEGACY_LATEST, "2025-06-18", "2025-03-26",
	"2024-11-05", NULL};

struct mcp_server {
	struct tools *tl;
	char version[16]; /* settled by initialize, "" before */
	int store_failed;
	struct err err;
};

struct mcp_server *
mcp_server_new(struct tools *tl)
{
	struct mcp_server *m = xcalloc(1, sizeof *m);
	m->tl = tl;
	return m;
}

void
mcp_server_free(struct mcp_server *m)
{
	free(m);
}

const char *
mcp_server_version(const struct mcp_server *m)
{
	return m->version[0] ? m->version : NULL;
}

static int
legacy_version(const char *v)
{
	for (const char *const *p = legacy_versions; *p; p++)
		if (strcmp(*p, v) == 0)
			return 1;
	return 0;
}

static cJSON *
supported_versions(void)
{
	cJSON *a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, cJSON_CreateString(MCP_MODERN_VERSION));
	for (const char *const *p = legacy_versions; *p; p++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*p));
	return a;
}

static cJSON *
server_info(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", "agentcron");
	cJSON_AddStringToObject(o, "version", AC_VERSION);
	return o;
}

static cJSON *
capabilities(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(cJSON_AddObjectToObject(o, "tools"), "listChanged", 0);
	return o;
}

static char *
instructions(void)
{
	char zone[128];
	tz_local_name(zone, sizeof zone);
	return xasprintf("Tools to schedule prompts that a model runs later: once, on a cron "
	    "schedule, at planned times or on demand. Times without an offset or zone are read in "
	    "this machine's zone, %s. IDs in results are complete; pass them back as given.", zone);
}

static cJSON *
error_reply(const cJSON *id, int code, const char *msg, cJSON *data)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	cJSON_AddItemToObject(r, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
	cJSON *err = cJSON_AddObjectToObject(r, "error");
	cJSON_AddNumberToObject(err, "code", code);
	cJSON_AddStringToObject(err, "message", msg);
	if (data)
		cJSON_AddItemToObject(err, "data", data);
	return r;
}

static cJSON *
result_reply(const cJSON *id, cJSON *result)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	cJSON_AddItemToObject(r, "id", cJSON_Duplicate(id, 1));
	cJSON_AddItemToObject(r, "result", result);
	return r;
}

static cJSON *
do_initialize(struct mcp_server *m, const cJSON *params, const cJSON *id)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
	if (!cJSON_IsString(v))
		return error_reply(id, MCP_INVALID_PARAMS, "initialize needs params.protocolVersion, a "
		    "string", NULL);
	/* The client's version when we speak it, else our latest handshake one
	 * (never the stateless revision: it has no handshake). */
	snprintf(m->version, sizeof m->version, "%s",
	    legacy_version(v->valuestring) ? v->valuestring : MCP_LEGACY_LATEST);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "protocolVersion", m->version);
	cJSON_AddItemToObject(r, "capabilities", capabilities());
	cJSON_AddItemToObject(r, "serverInfo", server_info());
	char *text = instructions();
	cJSON_AddStringToObject(r, "instructions", text);
	free(text);
	return result_reply(id, r);
}

static cJSON *
do_discover(const cJSON *id)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddItemToObject(r, "supportedVersions", supported_versions());
	cJSON_AddItemToObject(r, "capabilities", capabilities());
	cJSON_AddItemToObject(r, "serverInfo", server_info());
	char *text = instructions();
	cJSON_AddStringToObject(r, "instructions", text);
	free(text);
	/* A stateless-era method: its result is in that era's shape always. */
	cJSON_AddStringToObject(r, "resultType", "complete");
	cJSON_AddNumberToObject(r, "ttlMs", 0);
	cJSON_AddStringToObject(r, "cacheScope", "public");
	cJSON_AddItemToObject(cJSON_AddObjectToObject(r, "_meta"), "io.modelcontextprotocol/serverInfo",
	    server_info());
	return result_reply(id, r);
}

static cJSON *
do_tools_list(struct mcp_server *m, const cJSON *params, const cJSON *id)
{
	const cJSON *cursor = cJSON_GetObjectItemCaseSensitive(params, "cursor");
	if (cursor && !cJSON_IsString(cursor) && !cJSON_IsNull(cursor))
		return error_reply(id, MCP_INVALID_PARAMS, "Invalid cursor: expected a string", NULL);
	/* One page holds every tool, so a cursor only ever restarts the list. */
	cJSON *r = cJSON_CreateObject();
	cJSON_AddItemToObject(r, "tools", tools_list(m->tl));
	return result_reply(id, r);
}

static cJSON *
do_tools_call(struct mcp_server *m, const cJSON *params, const cJSON *id)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	char *text, msg[160];
	int is_error;
	if (!cJSON_IsString(name))
		return error_reply(id, MCP_INVALID_PARAMS, "tools/call needs params.name, the tool's "
		    "name", NULL);
	if (!tools_has(m->tl, name->valuestring)) {
		snprintf(msg, sizeof msg, "Unknown tool: %.*s", utf8_cut(name->valuestring, 100),
		    name->valuestring);
		return error_reply(id, MCP_INVALID_PARAMS, msg, NULL);
	}
	/* Wooster's tool takes its arguments as one JSON string too. */
	int string_ok = cJSON_IsString(args) && tools_takes_string(m->tl, name->valuestring);
	if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args) && !string_ok)
		return error_reply(id, MCP_INVALID_PARAMS, "tools/call params.arguments must be an "
		    "object", NULL);
	struct err e;
	/* As on the command line: text, not bytes read as U+FFFD and stored. */
	const char *bad = json_utf8_bad(args);
	if (bad) {
		text = *bad ? xasprintf("Argument '%.*s' must be UTF-8 text.", utf8_cut(bad, 64), bad)
		    : xstrdup("The arguments must be UTF-8 text.");
		is_error = 1;
	} else if (tools_call(m->tl, name->valuestring, cJSON_IsObject(args) || string_ok ? args : NULL,
	    &text, &is_error, &e) != ST_OK) {
		/* The model sees the failure and may retry; the caller logs it. */
		m->store_failed = 1;
		m->err = e;
		text = xasprintf("Error: %s", e.msg);
		is_error = 1;
	}
	cJSON *r = cJSON_CreateObject();
	cJSON *item = cJSON_CreateObject();
	cJSON_AddStringToObject(item, "type", "text");
	cJSON_AddStringToObject(item, "text", text);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "content"), item);
	cJSON_AddBoolToObject(r, "isError", is_error);
	free(text);
	return result_reply(id, r);
}

/* The stateless revision: every result says what it is and who made it. */
static void
modern_result(cJSON *reply, const char *method)
{
	cJSON *r = cJSON_GetObjectItemCaseSensitive(reply, "result");
	if (!r)
		return;
	cJSON_AddStringToObject(r, "resultType", "complete");
	if (strcmp(method, "tools/list") == 0) {
		cJSON_AddNumberToObject(r, "ttlMs", 0);
		cJSON_AddStringToObject(r, "cacheScope", "public");
	}
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(r, "_meta");
	if (!meta)
		meta = cJSON_AddObjectToObject(r, "_meta");
	cJSON_AddItemToObject(meta, "io.modelcontextprotocol/serverInfo", server_info());
}

static cJSON *
handle_one(struct mcp_server *m, const cJSON *msg, int in_batch)
{
	if (!cJSON_IsObject(msg))
		return error_reply(NULL, MCP_INVALID_REQUEST, "Invalid Request: expected a JSON-RPC "
		    "object", NULL);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
	const cJSON *jsonrpc = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
	int valid_id = cJSON_IsString(id) || cJSON_IsNumber(id);
	if (id && !valid_id)
		return error_reply(NULL, MCP_INVALID_REQUEST, "Invalid Request: id must be a string or "
		    "a number", NULL);
	if (!cJSON_IsString(jsonrpc) || strcmp(jsonrpc->valuestring, "2.0") != 0)
		return error_reply(id, MCP_INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"",
		    NULL);
	if (!method && (cJSON_GetObjectItemCaseSensitive(msg, "result") ||
	    cJSON_GetObjectItemCaseSensitive(msg, "error")))
		return NULL; /* a response; we never asked anything */
	if (!cJSON_IsString(method))
		return error_reply(id, MCP_INVALID_REQUEST, "Invalid Request: method must be a string",
		    NULL);
	if (params && !cJSON_IsObject(params) && !cJSON_IsNull(params))
		return id ? error_reply(id, cJSON_IsArray(params) ? MCP_INVALID_PARAMS
		    : MCP_INVALID_REQUEST, "params must be an object", NULL) : NULL;
	const char *name = method->valuestring;
	if (!id)
		return NULL; /* notifications: initialized, cancelled, ... need no answer */

	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
	const cJSON *pv = cJSON_GetObjectItemCaseSensitive(meta, META_VERSION);
	int modern = 0;
	if (pv) {
		if (!cJSON_IsString(pv))
			return error_reply(id, MCP_INVALID_PARAMS, "_meta." META_VERSION " must be a string",
			    NULL);
		modern = strcmp(pv->valuestring, MCP_MODERN_VERSION) == 0;
		if (!modern && !legacy_version(pv->valuestring)) {
			cJSON *data = cJSON_CreateObject();
			cJSON_AddItemToObject(data, "supported", supported_versions());
			cJSON_AddStringToObject(data, "requested", pv->valuestring);
			return error_reply(id, MCP_UNSUPPORTED_VERSION, "Unsupported protocol version",
			    data);
		}
	}

	cJSON *reply;
	if (strcmp(name, "initialize") == 0) {
		if (in_batch)
			return error_reply(id, MCP_INVALID_REQUEST, "initialize must not be part of a batch",
			    NULL);
		return do_initialize(m, params, id);
	}
	if (strcmp(name, "ping") == 0)
		reply = result_reply(id, cJSON_CreateObject());
	else if (strcmp(name, "server/discover") == 0)
		return do_discover(id);
	else if (strcmp(name, "tools/list") == 0)
		reply = do_tools_list(m, params, id);
	else if (strcmp(name, "tools/call") == 0)
		reply = do_tools_call(m, params, id);
	else {
		char text[160];
		snprintf(text, sizeof text, "Method not found: %.*s", utf8_cut(name, 100), name);
		return error_reply(id, MCP_METHOD_NOT_FOUND, text, NULL);
	}
	if (modern)
		modern_result(reply, name);
	return reply;
}

static char *
print(cJSON *reply)
{
	char *s = cJSON_PrintUnformatted(reply), *fixed;
	if (!s)
		abort(); /* cJSON fails only when out of memory */
	cJSON_Delete(reply);
	/* A request's bytes echoed (a method, a tool's name, an id) and what
	 * the store gives back (a task's name, a run's output). */
	if ((fixed = utf8_fix(s))) {
		free(s);
		s = fixed;
	}
	return s;
}

int
mcp_server_handle(struct mcp_server *m, const char *msg, size_t len, char **reply,
    struct err *e)
{
	*reply = NULL;
	m->store_failed = 0;
	size_t i = 0;
	while (i < len && (msg[i] == ' ' || msg[i] == '\t' || msg[i] == '\r'))
		i++;
	if (i == len)
		return ST_OK; /* a blank line is no message */
	const char *end = NULL;
	/* No JSON text holds a raw NUL; cJSON would read it as a blank. */
	cJSON *j = memchr(msg, 0, len) ? NULL : cJSON_ParseWithLengthOpts(msg, len, &end, 0);
	cJSON *r = NULL;
	while (j && end < msg + len && strchr(" \t\r", *end))
		end++;
	if (j && end < msg + len) { /* one message a line: nothing may follow it */
		cJSON_Delete(j);
		j = NULL;
	}
	if (!j) {
		r = error_reply(NULL, MCP_PARSE_ERROR, "Parse error: the message is not valid JSON", NULL);
	} else if (json_find_nul(msg, len) >= 0) {
		/* cJSON would cut the string there: no field may hold a NUL. */
		r = error_reply(cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "id") : NULL,
		    MCP_INVALID_PARAMS, "Invalid params: a string holds \\u0000 (a NUL character),"
		    " which no argument can hold", NULL);
	} else if (cJSON_IsArray(j)) {
		/* Batches exist only in 2025-03-26; the others refuse them. */
		if (strcmp(m->version, "2025-03-26") != 0) {
			r = error_reply(NULL, MCP_INVALID_REQUEST, "Invalid Request: batches are not "
			    "supported by this protocol version", NULL);
		} else if (!cJSON_GetArraySize(j)) {
			r = error_reply(NULL, MCP_INVALID_REQUEST, "Invalid Request: empty batch", NULL);
		} else {
			r = cJSON_CreateArray();
			const cJSON *it;
			cJSON_ArrayForEach(it, j) {
				cJSON *one = handle_one(m, it, 1);
				if (one)
					cJSON_AddItemToArray(r, one);
			}
			if (!cJSON_GetArraySize(r)) {
				cJSON_Delete(r);
				r = NULL;
			}
		}
	} else {
		r = handle_one(m, j, 0);
	}
	cJSON_Delete(j);
	if (r)
		*reply = print(r);
	if (m->store_failed) {
		*e = m->err;
		return ST_ERR;
	}
	return ST_OK;
}

char *
mcp_server_too_large(const char *id)
{
	char text[96];
	cJSON *j = id && *id ? cJSON_Parse(id) : NULL;
	snprintf(text, sizeof text, "Invalid Request: message longer than %u bytes", MCP_LINE_MAX);
	cJSON *r = error_reply(cJSON_IsString(j) || cJSON_IsNumber(j) ? j : NULL, MCP_INVALID_REQUEST,
	    text, NULL);
	cJSON_Delete(j);
	return print(r);
}

/* The id of a request too long to keep, read as its bytes go by: the
 * value of the key "id" at the top level of an object, wherever it comes,
 * as JSON text.  A tokenizer that knows strings and nesting is enough; the
 * text found is parsed for real by mcp_server_too_large. */
enum { CAP_NONE, CAP_KEY, CAP_ID };
struct idscan {
	int depth, in_str, esc, failed, found;
	int value;            /* at the top level, after a ':' */
	int cap;              /* what the bytes go to: CAP_* */
	char key[4];          /* the top-level key being read, cut */
	size_t klen;
	struct buf id;
};

static void
id_end(struct idscan *sc)
{
	sc->cap = CAP_NONE;
	sc->found = sc->id.len <= 128; /* longer is no id a client would send */
}

static void
id_feed(struct idscan *sc, char c)
{
	if (sc->failed || sc->depth < 0)
		return;
	if (sc->in_str) {
		int closing = c == '"' && !sc->esc;
		sc->esc = !sc->esc && c == '\\';
		if (sc->cap == CAP_KEY && !closing && sc->klen < sizeof sc->key)
			sc->key[sc->klen++] = c;
		else if (sc->cap == CAP_KEY && !closing)
			sc->klen = sizeof sc->key + 1; /* too long to be "id" */
		else if (sc->cap == CAP_ID && sc->id.len <= 128)
			buf_add(&sc->id, &c, 1);
		if (closing) {
			sc->in_str = 0;
			if (sc->cap == CAP_ID)
				id_end(sc);
			sc->cap = CAP_NONE;
		}
		return;
	}
	if (sc->cap == CAP_ID) { /* a number, or a literal */
		if (!strchr(" \t\r\n,}]", c)) {
			if (sc->id.len <= 128)
				buf_add(&sc->id, &c, 1);
			return;
		}
		id_end(sc);
	}
	if (strchr(" \t\r\n", c))
		return;
	if (sc->depth == 0) {
		sc->failed = c != '{'; /* a batch, or no JSON: no id to read */
		sc->depth = 1;
		return;
	}
	int want = sc->depth == 1 && sc->value && !sc->found && sc->klen == 2 &&
	    memcmp(sc->key, "id", 2) == 0;
	switch (c) {
	case '"':
		sc->in_str = 1;
		if (sc->depth == 1 && !sc->value) {
			sc->cap = CAP_KEY;
			sc->klen = 0;
		} else if (want) {
			sc->cap = CAP_ID;
			buf_add(&sc->id, &c, 1);
		}
		break;
	case '{': case '[':
		sc->depth++;
		break;
	case '}': case ']':
		sc->depth--;
		if (sc->depth == 0)
			sc->depth = -1; /* the object is over */
		break;
	case ':':
		sc->value |= sc->depth == 1;
		break;
	case ',':
		if (sc->depth == 1)
			sc->value = 0;
		break;
	default:
		if (want) {
			sc->cap = CAP_ID;
			buf_add(&sc->id, &c, 1);
		}
	}
}

int
mcp_server_read_line(FILE *f, struct buf *b, size_t max, int *too_long)
{
	/* Byte by byte, not fgets: a NUL inside a line must not hide its
	 * newline and swallow the next message. */
	struct idscan sc = {0};
	char chunk[4096];
	size_t n = 0;
	int c, got = 0;
	b->len = 0;
	buf_add(b, "", 0);
	*too_long = 0;
	flockfile(f);
	while ((c = getc_unlocked(f)) != EOF) {
		got = 1;
		if (c == '\n')
			break;
		if (*too_long) {
			id_feed(&sc, (char)c);
			continue;
		}
		if (b->len + n >= max) {
			/* Too long to keep: look for its id in what came so far
			 * and in the rest as it goes by. */
			*too_long = 1;
			for (size_t i = 0; i < b->len; i++)
				id_feed(&sc, b->data[i]);
			for (size_t i = 0; i < n; i++)
				id_feed(&sc, chunk[i]);
			id_feed(&sc, (char)c);
			b->len = n = 0;
			continue;
		}
		chunk[n++] = (char)c;
		if (n == sizeof chunk) {
			buf_add(b, chunk, n);
			n = 0;
		}
	}
	funlockfile(f);
	if (n)
		buf_add(b, chunk, n);
	if (*too_long) {
		if (sc.cap == CAP_ID) /* a number last on a line cut short */
			id_end(&sc);
		b->len = 0;
		buf_add(b, sc.found ? sc.id.data : "", sc.found ? sc.id.len : 0);
		buf_free(&sc.id);
	}
	if (c == EOF && ferror(f))
		return -1;
	return got;
}
