/* mcp-http: a Streamable HTTP MCP server on 127.0.0.1, for llm-call's
 * tests.  POST /mcp takes one JSON-RPC message: initialize answers JSON and
 * gives a session id; every later request must carry it and the
 * MCP-Protocol-Version agreed, else HTTP 400; notifications get 202;
 * tools/list and tools/call of "echo" answer as server-sent events (a
 * notification first, then the response), tools/call of "add" as JSON with
 * structured content; with -r a third tool, "ask": its tools/call opens an event stream that
 * first asks the client (sampling/createMessage, then ping) and waits up
 * to 5 s for both answers, each POSTed on a connection of its own while
 * the stream stays open (logged in DIR/answers.log), before it responds;
 * and a fourth, "ask_person", whose stream asks for a person
 * (elicitation/create) and waits the same way for that one answer;
 * DELETE /mcp ends the session.
 *
 *   mcp-http [-ar] [-d DIR] [-v VERSION] [-s LENGTH] [-i IDLE] [-t MAX]
 *
 * Starts in the background, prints its port and writes DIR/pid; -v answers
 * initialize with VERSION whatever was asked; -s gives a session id of
 * LENGTH bytes, as a JWT is (logged as <LENGTH bytes>, or <other N bytes>
 * when a request carries another one); -a answers every request HTTP
 * 401 with a WWW-Authenticate challenge, as a server wanting OAuth does.
 * DIR/requests.log: one line
 * per request (HTTP method, JSON-RPC method, session, version header);
 * DIR/errors.log: what was refused.  Exits after IDLE seconds without a
 * request (default 30) or MAX in all (default 300). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
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

#define SESSION "3f6c1d2e-session"

struct server {
	const char *dir, *force_version;
	char *session;
	char version[32];           /* agreed at initialize */
	int deleted;
	int auth;                   /* -a */
	int asks;                   /* -r */
	int ls;                     /* the listening socket */
	int answers;                /* answers to our requests received */
};

static void serve(struct server *sv, int fd);

static void
append(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "a");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void
respond(int fd, int status, const char *ctype, const char *extra, const char *body)
{
	struct buf b = {0};
	size_t n = body ? strlen(body) : 0;
	buf_printf(&b, "HTTP/1.1 %d %s\r\n%s%s%s%sContent-Length: %zu\r\nConnection: close\r\n\r\n",
	    status, status == 200 ? "OK" : status == 202 ? "Accepted" : "Error",
	    ctype ? "Content-Type: " : "", ctype ? ctype : "", ctype ? "\r\n" : "", extra ? extra : "", n);
	write_all(fd, b.data, b.len);
	if (n)
		write_all(fd, body, n);
	buf_free(&b);
}

static char *
result_msg(const cJSON *id, cJSON *result)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	cJSON_AddItemToObject(m, "id", cJSON_Duplicate(id, 1));
	cJSON_AddItemToObject(m, "result", result);
	char *s = cJSON_PrintUnformatted(m);
	cJSON_Delete(m);
	return s;
}

/* A tools/call response whose content is one text block. */
static char *
text_result(const cJSON *id, const char *text)
{
	cJSON *r = cJSON_CreateObject(), *c = cJSON_AddArrayToObject(r, "content");
	cJSON *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "type", "text");
	cJSON_AddStringToObject(t, "text", text);
	cJSON_AddItemToArray(c, t);
	return result_msg(id, r);
}

static void
sse(int fd, const char *msg)
{
	/* A log notification first: the client must look past it. */
	struct buf b = {0};
	buf_printf(&b, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
	    "\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n"
	    "event: message\nid: 1\ndata: %s\n\n", msg);
	respond(fd, 200, "text/event-stream", "Cache-Control: no-cache\r\n", b.data);
	buf_free(&b);
}

#define STREAM_HEAD "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" \
	"Cache-Control: no-cache\r\nConnection: close\r\n\r\n"

/* tools/call of "ask" (or "ask_person"): requests of ours in the stream,
 * the response once the client has answered them (or 5 s have passed). */
static void
ask(struct server *sv, int fd, const cJSON *id, int person)
{
	static const char sampling[] = STREAM_HEAD
	    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":"
	    "\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":10}}\n\n"
	    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}\n\n";
	static const char elicit[] = STREAM_HEAD
	    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":"
	    "\"elicitation/create\",\"params\":{\"message\":\"Approve the transfer?\","
	    "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}}}}}\n\n";
	if (person)
		write_all(fd, elicit, sizeof elicit - 1);
	else
		write_all(fd, sampling, sizeof sampling - 1);
	int before = sv->answers, want = person ? 1 : 2;
	time_t until = time(NULL) + 5;
	while (sv->answers < before + want && time(NULL) < until) {
		struct pollfd p = {.fd = sv->ls, .events = POLLIN};
		if (poll(&p, 1, 1000) <= 0)
			continue;
		int afd = accept4(sv->ls, NULL, NULL, SOCK_CLOEXEC);
		if (afd < 0)
			continue;
		serve(sv, afd);
		shutdown(afd, SHUT_WR);
		close(afd);
	}
	char *text = xasprintf("answered: %d", sv->answers - before);
	char *s = text_result(id, text);
	struct buf b = {0};
	buf_printf(&b, "event: message\ndata: %s\n\n", s);
	write_all(fd, b.data, b.len);
	buf_free(&b);
	free(s);
	free(text);
}

static cJSON *
tools(const struct server *sv)
{
	cJSON *t = cJSON_Parse("{\"tools\":["
	    "{\"name\":\"echo\",\"description\":\"Echoes a message back.\",\"inputSchema\":{\"type\":"
	    "\"object\",\"properties\":{\"message\":{\"type\":\"string\"}},\"required\":[\"message\"]}},"
	    "{\"name\":\"add\",\"description\":\"Adds two numbers.\",\"inputSchema\":{\"type\":\"object\","
	    "\"properties\":{\"a\":{\"type\":\"number\"},\"b\":{\"type\":\"number\"}},\"required\":[\"a\","
	    "\"b\"]},\"outputSchema\":{\"type\":\"object\",\"properties\":{\"sum\":{\"type\":\"number\"}}}}]}");
	if (sv->asks)
		cJSON_AddItemToArray(cJSON_GetObjectItem(t, "tools"), cJSON_Parse("{\"name\":\"ask\","
		    "\"description\":\"Asks the client first.\",\"inputSchema\":{\"type\":\"object\"}}"));
	if (sv->asks)
		cJSON_AddItemToArray(cJSON_GetObjectItem(t, "tools"), cJSON_Parse("{\"name\":\"ask_person\","
		    "\"description\":\"Asks for a person first.\",\"inputSchema\":{\"type\":\"object\"}}"));
	return t;
}

static void
handle(struct server *sv, int fd, const char *method, const char *sess, const char *ver,
    const char *body)
{
	char line[512], shown[64];
	cJSON *m = cJSON_Parse(body);
	const char *rpc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
	int ours = sess && strcmp(sess, sv->session) == 0;
	if (sess && strlen(sv->session) > 32)
		snprintf(shown, sizeof shown, "<%s%zu bytes>", ours ? "" : "other ", strlen(sess));
	else
		snprintf(shown, sizeof shown, "%.40s", sess ? sess : "-");
	snprintf(line, sizeof line, "%s %s session=%s version=%s\n", method, rpc ? rpc : "-",
	    shown, ver ? ver : "-");
	append(sv->dir, "requests.log", line);
	if (strcmp(method, "DELETE") == 0) {
		sv->deleted = ours;
		respond(fd, sv->deleted ? 200 : 404, NULL, NULL, NULL);
		goto out;
	}
	if (sv->auth) {
		respond(fd, 401, "application/json", "WWW-Authenticate: Bearer resource_metadata="
		    "\"http://127.0.0.1/.well-known/oauth-protected-resource\"\r\n",
		    "{\"error\":\"unauthorized\"}");
		goto out;
	}
	if (m && !rpc && id && (cJSON_GetObjectItemCaseSensitive(m, "result") ||
	    cJSON_GetObjectItemCaseSensitive(m, "error"))) {
		char *s = cJSON_PrintUnformatted(m);
		append(sv->dir, "answers.log", s);
		append(sv->dir, "answers.log", "\n");
		free(s);
		sv->answers++;
		respond(fd, 202, NULL, NULL, NULL);
		goto out;
	}
	if (!m || !rpc) {
		respond(fd, 400, "application/json", NULL, "{\"error\":\"not JSON-RPC\"}");
		goto out;
	}
	if (strcmp(rpc, "initialize") == 0) {
		sv->deleted = 0;
		const char *asked = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(m, "params"), "protocolVersion"));
		snprintf(sv->version, sizeof sv->version, "%s", sv->force_version ? sv->force_version
		    : asked && (!strcmp(asked, "2025-11-25") || !strcmp(asked, "2025-06-18")) ? asked
		    : "2025-06-18");
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "protocolVersion", sv->version);
		cJSON_AddItemToObject(cJSON_AddObjectToObject(r, "capabilities"), "tools", cJSON_CreateObject());
		cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
		cJSON_AddStringToObject(info, "name", "mcp-http");
		cJSON_AddStringToObject(info, "version", "1");
		char *s = result_msg(id, r), *h = xasprintf("Mcp-Session-Id: %s\r\n", sv->session);
		respond(fd, 200, "application/json", h, s);
		free(h);
		free(s);
		goto out;
	}
	if (!ours || sv->deleted) {
		append(sv->dir, "errors.log", "a request without the session id\n");
		respond(fd, sess ? 404 : 400, "application/json", NULL, "{\"error\":\"no session\"}");
		goto out;
	}
	if (!ver || strcmp(ver, sv->version)) {
		append(sv->dir, "errors.log", "a request without the agreed MCP-Protocol-Version\n");
		respond(fd, 400, "application/json", NULL, "{\"error\":\"bad protocol version\"}");
		goto out;
	}
	if (!id) {
		respond(fd, 202, NULL, NULL, NULL);
		goto out;
	}
	cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
	if (strcmp(rpc, "tools/list") == 0) {
		char *s = result_msg(id, tools(sv));
		sse(fd, s);
		free(s);
	} else if (strcmp(rpc, "tools/call") == 0 && tool && strcmp(tool, "echo") == 0) {
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "message"));
		char *text = xasprintf("Echo: %s", msg ? msg : "");
		char *s = text_result(id, text);
		sse(fd, s);
		free(s);
		free(text);
	} else if (strcmp(rpc, "tools/call") == 0 && tool && (strcmp(tool, "ask") == 0 ||
	    strcmp(tool, "ask_person") == 0)) {
		ask(sv, fd, id, strcmp(tool, "ask_person") == 0);
	} else if (strcmp(rpc, "tools/call") == 0 && tool && strcmp(tool, "add") == 0) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, "a");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(args, "b");
		cJSON *r = cJSON_CreateObject();
		cJSON_AddArrayToObject(r, "content");
		cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "structuredContent"), "sum",
		    (cJSON_IsNumber(a) ? a->valuedouble : 0) + (cJSON_IsNumber(b) ? b->valuedouble : 0));
		char *s = result_msg(id, r);
		respond(fd, 200, "application/json", NULL, s);
		free(s);
	} else {
		char *s = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":%d,\"error\":{\"code\":-32602,"
		    "\"message\":\"Unknown tool: %s\"}}", (int)cJSON_GetNumberValue(id), tool ? tool : "?");
		respond(fd, 200, "application/json", NULL, s);
		free(s);
	}
out:
	cJSON_Delete(m);
}

static void
serve(struct server *sv, int fd)
{
	struct buf in = {0};
	char tmp[65536], *end;
	while (!(end = in.data ? strstr(in.data, "\r\n\r\n") : NULL)) {
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n <= 0 || in.len > 65536)
			goto out;
		buf_add(&in, tmp, (size_t)n);
	}
	*end = 0;
	char method[16] = "", *sess = NULL, ver[64] = "";
	long len = 0;
	sscanf(in.data, "%15s", method);
	for (char *h = strstr(in.data, "\r\n"); h; h = strstr(h + 2, "\r\n")) {
		if (strncasecmp(h + 2, "content-length:", 15) == 0) {
			len = strtol(h + 17, NULL, 10);
		} else if (strncasecmp(h + 2, "mcp-session-id:", 15) == 0) {
			const char *v = h + 17 + strspn(h + 17, " ");
			free(sess);
			sess = xstrndup(v, strcspn(v, "\r\n"));
		} else if (strncasecmp(h + 2, "mcp-protocol-version:", 21) == 0) {
			sscanf(h + 23, " %63[^\r\n]", ver);
		}
	}
	size_t head = (size_t)(end - in.data) + 4;
	struct buf body = {0};
	buf_add(&body, in.data + head, in.len - head);
	while (body.len < (size_t)len) {
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n <= 0)
			break;
		buf_add(&body, tmp, (size_t)n);
	}
	buf_add(&body, "", 0);
	handle(sv, fd, method, sess && *sess ? sess : NULL, *ver ? ver : NULL, body.data);
	buf_free(&body);
	free(sess);
out:
	buf_free(&in);
}

int
main(int argc, char **argv)
{
	struct server sv = {.dir = "."};
	long idle = 30, max = 300, slen = 0;
	int c;
	while ((c = getopt(argc, argv, "ard:v:s:i:t:")) != -1) {
		switch (c) {
		case 'a': sv.auth = 1; break;
		case 'r': sv.asks = 1; break;
		case 'd': sv.dir = optarg; break;
		case 'v': sv.force_version = optarg; break;
		case 's': slen = strtol(optarg, NULL, 10); break;
		case 'i': idle = strtol(optarg, NULL, 10); break;
		case 't': max = strtol(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: mcp-http [-ar] [-d DIR] [-v VERSION] [-s LENGTH] [-i IDLE] [-t MAX]\n");
			return 2;
		}
	}
	sv.session = xstrdup(SESSION);
	if (slen > 0) {
		/* A JWT's alphabet: base64url and the dots between its parts. */
		static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		free(sv.session);
		sv.session = xcalloc((size_t)slen + 1, 1);
		for (long i = 0; i < slen; i++)
			sv.session[i] = i % 100 == 99 ? '.' : abc[(i * 7 + 3) % 64];
	}
	signal(SIGPIPE, SIG_IGN);
	mkdir(sv.dir, 0700);
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	sv.ls = ls;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof sa;
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) || listen(ls, 16) ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl)) {
		fprintf(stderr, "mcp-http: cannot listen on 127.0.0.1: %s\n", strerror(errno));
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0) {
		char path[4096];
		snprintf(path, sizeof path, "%s/pid", sv.dir);
		FILE *f = fopen(path, "w");
		if (f) {
			fprintf(f, "%d\n", (int)pid);
			fclose(f);
		}
		printf("%d\n", ntohs(sa.sin_port));
		free(sv.session);
		return 0;
	}
	setsid();
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	time_t start = time(NULL);
	for (;;) {
		struct pollfd p = {.fd = ls, .events = POLLIN};
		int n = poll(&p, 1, (int)(idle * 1000));
		if (n == 0 || time(NULL) - start > max)
			break;
		if (n < 0)
			continue;
		int fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		struct timeval tv = {5, 0};
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		serve(&sv, fd);
		shutdown(fd, SHUT_WR);
		close(fd);
	}
	free(sv.session);
	return 0;
}
