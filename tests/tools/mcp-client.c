/* mcp-client: drives an MCP server over pipes, one request at a time as a
 * real client does, and prints a transcript the tests compare whole.
 *
 * usage: mcp-client [-t SECONDS] SCRIPT COMMAND [ARG...]
 *
 * Script lines ('#' comments and blank lines skipped; ${NAME} is replaced
 * by a captured id):
 *   init VERSION          initialize with that protocolVersion, then
 *                         notifications/initialized
 *   call TOOL [ARGS]      tools/call (ARGS a JSON object)
 *   @NAME call TOOL ...   the same, and capture the first id in the result
 *   huge BYTES            a tools/call of task_create with a prompt that long
 *                         (past the server's limit too: the reply has its id)
 *   send LINE             LINE verbatim; a reply is expected
 *   notify LINE           LINE verbatim; no reply is expected
 *   run COMMAND           a shell command between two messages
 *
 * Each reply must come within the timeout, be one line of JSON-RPC 2.0 and
 * carry the request's id.  A tool result prints as "[ID] ok" or "[ID] error"
 * and its text; any other reply as its JSON.  Ids print as ${NAME} or
 * <uuid>.  At the end the client closes the server's input, reports any
 * output nobody asked for, and prints "exit N".  Exit 1 on any protocol
 * fault. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util.h"

#define NVARS 64

struct client {
	int in, out;          /* the server's stdin (we write), stdout (we read) */
	struct buf pending;   /* bytes read past the last line */
	int timeout_ms;
	long next_id;
	int faults;
	char names[NVARS][32], ids[NVARS][37];
	int nvars;
};

static int
is_uuid(const char *p)
{
	for (int i = 0; i < 36; i++) {
		int dash = i == 8 || i == 13 || i == 18 || i == 23;
		if (dash ? p[i] != '-' : !strchr("0123456789abcdef", p[i]) || !p[i])
			return 0;
	}
	return 1;
}

/* Ids in text as ${NAME} when captured, else <uuid>. */
static void
print_subst(struct client *c, const char *s)
{
	while (*s) {
		if (is_uuid(s)) {
			int i;
			for (i = 0; i < c->nvars && strncmp(c->ids[i], s, 36) != 0; i++)
				;
			if (i < c->nvars)
				printf("${%s}", c->names[i]);
			else
				fputs("<uuid>", stdout);
			s += 36;
		} else {
			putchar(*s++);
		}
	}
}

static char *
expand(struct client *c, const char *line)
{
	struct buf b = {0};
	buf_add(&b, "", 0);
	while (*line) {
		const char *end;
		if (line[0] == '$' && line[1] == '{' && (end = strchr(line, '}'))) {
			size_t n = (size_t)(end - line - 2);
			int i;
			for (i = 0; i < c->nvars; i++)
				if (strlen(c->names[i]) == n && strncmp(c->names[i], line + 2, n) == 0)
					break;
			if (i < c->nvars) {
				buf_puts(&b, c->ids[i]);
				line = end + 1;
				continue;
			}
		}
		buf_add(&b, line++, 1);
	}
	return b.data;
}

static int
send_line(struct client *c, const char *s)
{
	size_t n = strlen(s), off = 0;
	while (off <= n) {
		const char *p = off < n ? s + off : "\n";
		size_t len = off < n ? n - off : 1;
		ssize_t w = write(c->in, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			printf("!! cannot write to the server: %s\n", strerror(errno));
			c->faults++;
			return -1;
		}
		off += (size_t)w;
		if (off > n)
			break;
	}
	return 0;
}

/* One line from the server: 1 got, 0 end of output, -1 timeout. */
static int
read_line(struct client *c, struct buf *line, int timeout_ms)
{
	for (;;) {
		char *nl = c->pending.len ? memchr(c->pending.data, '\n', c->pending.len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - c->pending.data);
			line->len = 0;
			buf_add(line, c->pending.data, n);
			memmove(c->pending.data, nl + 1, c->pending.len - n - 1);
			c->pending.len -= n + 1;
			return 1;
		}
		struct pollfd p = {c->out, POLLIN, 0};
		int r = poll(&p, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		char tmp[65536];
		ssize_t got = read(c->out, tmp, sizeof tmp);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (c->pending.len) { /* a last line without its newline */
				printf("!! output ends without a newline\n");
				c->faults++;
				line->len = 0;
				buf_add(line, c->pending.data, c->pending.len);
				c->pending.len = 0;
				return 1;
			}
			return 0;
		}
		buf_add(&c->pending, tmp, (size_t)got);
	}
}

static void
report(struct client *c, const cJSON *reply, const char *capture)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(reply, "result");
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(res, "content");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(content, 0), "text");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(reply, "id");
	if (capture && cJSON_IsString(text)) {
		const char *p = text->valuestring;
		while (*p && !is_uuid(p))
			p++;
		if (*p && c->nvars < NVARS) {
			snprintf(c->names[c->nvars], sizeof c->names[0], "%s", capture);
			snprintf(c->ids[c->nvars], sizeof c->ids[0], "%.36s", p);
			c->nvars++;
		} else {
			printf("!! nothing to capture as %s\n", capture);
			c->faults++;
		}
	}
	if (cJSON_IsString(text)) {
		printf("[%d] %s\n", cJSON_IsNumber(id) ? id->valueint : -1,
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "isError")) ? "error" : "ok");
		print_subst(c, text->valuestring);
		size_t n = strlen(text->valuestring);
		if (!n || text->valuestring[n - 1] != '\n')
			putchar('\n');
	} else {
		char *s = cJSON_PrintUnformatted(reply);
		print_subst(c, s);
		putchar('\n');
		free(s);
	}
}

static int
valid_message(const cJSON *j)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "jsonrpc");
	return cJSON_IsObject(j) && cJSON_IsString(v) && strcmp(v->valuestring, "2.0") == 0 &&
	    (cJSON_GetObjectItemCaseSensitive(j, "result") != NULL) !=
	    (cJSON_GetObjectItemCaseSensitive(j, "error") != NULL);
}

/* Send a request and print its reply; want_id NULL: the reply's id must be
 * null (the request could not be read). */
static void
exchange(struct client *c, const char *msg, const cJSON *want_id, const char *capture)
{
	struct buf line = {0};
	if (send_line(c, msg))
		return;
	int r = read_line(c, &line, c->timeout_ms);
	if (r <= 0) {
		printf("!! %s\n", r ? "no reply within the timeout" : "the server closed its output");
		c->faults++;
		buf_free(&line);
		return;
	}
	cJSON *reply = cJSON_Parse(line.data);
	int ok = valid_message(reply);
	if (cJSON_IsArray(reply)) { /* a batch: every member a message */
		const cJSON *it;
		ok = cJSON_GetArraySize(reply) > 0;
		cJSON_ArrayForEach(it, reply) ok &= valid_message(it);
		want_id = NULL;
	} else if (ok) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(reply, "id");
		ok = want_id ? cJSON_Compare(id, want_id, 1) : cJSON_IsNull(id);
	}
	if (!ok) {
		printf("!! not the JSON-RPC reply expected: %s\n", line.data);
		c->faults++;
	} else {
		report(c, reply, capture);
	}
	cJSON_Delete(reply);
	buf_free(&line);
}

static void
request(struct client *c, const char *method, cJSON *params, const char *capture)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	cJSON *id = cJSON_AddNumberToObject(m, "id", (double)c->next_id++);
	cJSON_AddStringToObject(m, "method", method);
	if (params)
		cJSON_AddItemToObject(m, "params", params);
	char *s = cJSON_PrintUnformatted(m);
	exchange(c, s, id, capture);
	free(s);
	cJSON_Delete(m);
}

static void
step(struct client *c, char *line)
{
	char *capture = NULL, *arg;
	if (line[0] == '@') {
		capture = line + 1;
		line = strchr(line, ' ');
		if (!line)
			return;
		*line++ = 0;
	}
	arg = line + strcspn(line, " ");
	if (*arg)
		*arg++ = 0;
	if (strcmp(line, "init") == 0) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "protocolVersion", arg);
		cJSON_AddObjectToObject(p, "capabilities");
		cJSON *info = cJSON_AddObjectToObject(p, "clientInfo");
		cJSON_AddStringToObject(info, "name", "mcp-client");
		cJSON_AddStringToObject(info, "version", "1");
		request(c, "initialize", p, NULL);
		send_line(c, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
	} else if (strcmp(line, "call") == 0) {
		char *args = arg + strcspn(arg, " ");
		if (*args)
			*args++ = 0;
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "name", arg);
		if (*args) {
			cJSON *a = cJSON_Parse(args);
			if (!a) {
				printf("!! bad arguments in the script: %s\n", args);
				c->faults++;
				cJSON_Delete(p);
				return;
			}
			cJSON_AddItemToObject(p, "arguments", a);
		}
		request(c, "tools/call", p, capture);
	} else if (strcmp(line, "huge") == 0) {
		long n = atol(arg);
		char *prompt = xmalloc((size_t)n + 1);
		memset(prompt, 'x', (size_t)n);
		prompt[n] = 0;
		cJSON *p = cJSON_CreateObject(), *a = cJSON_AddObjectToObject(p, "arguments");
		cJSON_AddStringToObject(p, "name", "task_create");
		cJSON_AddStringToObject(a, "prompt", prompt);
		cJSON_AddBoolToObject(a, "manual", 1);
		free(prompt);
		request(c, "tools/call", p, NULL);
	} else if (strcmp(line, "send") == 0) {
		cJSON *j = cJSON_Parse(arg);
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
		int readable = cJSON_IsObject(j) && (cJSON_IsString(id) || cJSON_IsNumber(id));
		exchange(c, arg, readable ? id : NULL, capture);
		cJSON_Delete(j);
	} else if (strcmp(line, "notify") == 0) {
		send_line(c, arg);
	} else if (strcmp(line, "run") == 0) {
		fflush(stdout);
		int rc = system(arg);
		if (rc != 0) {
			printf("!! '%s' failed (%d)\n", arg, rc);
			c->faults++;
		}
	} else {
		printf("!! unknown script step: %s\n", line);
		c->faults++;
	}
}

int
main(int argc, char **argv)
{
	struct client c = {.timeout_ms = 30000, .next_id = 1};
	int opt;
	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			return 2;
		c.timeout_ms = atoi(optarg) * 1000;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: mcp-client [-t SECONDS] SCRIPT COMMAND [ARG...]\n");
		return 2;
	}
	FILE *script = fopen(argv[optind], "r");
	if (!script) {
		fprintf(stderr, "mcp-client: cannot open '%s': %s\n", argv[optind], strerror(errno));
		return 2;
	}
	int to[2], from[2];
	if (pipe(to) || pipe(from))
		return 2;
	signal(SIGPIPE, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execvp(argv[optind + 1], argv + optind + 1);
		fprintf(stderr, "mcp-client: cannot run '%s': %s\n", argv[optind + 1], strerror(errno));
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c.in = to[1];
	c.out = from[0];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, script)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (!*line || *line == '#')
			continue;
		char *expanded = expand(&c, line);
		step(&c, expanded);
		free(expanded);
		fflush(stdout);
	}
	free(line);
	fclose(script);
	close(c.in);
	struct buf extra = {0};
	int r;
	while ((r = read_line(&c, &extra, c.timeout_ms)) == 1) {
		printf("!! output nobody asked for: %s\n", extra.data);
		c.faults++;
	}
	if (r < 0) {
		printf("!! the server did not exit at the end of its input\n");
		c.faults++;
		kill(pid, SIGKILL);
	}
	int status;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		printf("exit %d\n", WEXITSTATUS(status));
	else
		printf("killed by signal %d\n", WTERMSIG(status));
	buf_free(&extra);
	buf_free(&c.pending);
	return c.faults ? 1 : 0;
}
