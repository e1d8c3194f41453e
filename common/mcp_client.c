/* The MCP client: the few requests llm-call makes, and the stdio
 * transport (mcp_http.c is Streamable HTTP, mcp_config.c reads mcp.json,
 * mcp_result.c makes a result into what the model is given).  Both
 * transports end in one place: rpc() sends a request and reads messages
 * until its response, answering the server's pings and declining
 * elicitation at once (no person is there to answer: the request is kept
 * for mcpc_declined) and refusing its other requests (llm-call offers no
 * roots or sampling), skipping notifications.
 *
 * stdio: the server runs without a shell in a process group of its own,
 * with a short list of the caller's variables (as the MCP SDKs pass) plus
 * its own "env"; one JSON-RPC message per line each way; its standard
 * error is kept (the last line goes into failure messages).  The HTTP
 * session is deleted at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "exec.h"
#include "http.h"
#include "llm.h"
#include "mcp_client.h"
#include "mcp_impl.h"
#include "pg_uri.h"
#include "store.h"
#include "task_json.h"

#define MAX_PAGES 100

extern char **environ;

/* Passed from llm-call's environment to a stdio server, as the MCP SDKs
 * do, so keys in the environment reach no server that was not given them;
 * TASK_DB and TASK_NOW let agentcron's own task-mcp see the same store and
 * clock as the run, and the run's id, MCP grants and scope bound what its
 * tools may do (agent.h). */
static const char *const passed_env[] = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
	"LANG", "TZ", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
	"XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "TASK_DB", "TASK_NOW", "TASK_ID", "TASK_RUN_ID",
	"TASK_MCP", "TASK_MCP_ALLOW", "TASK_SCOPE", NULL};

static const char *const versions[] = {MCPC_VERSION, "2025-06-18", "2025-03-26", "2024-11-05",
	NULL};


static int
expand(const char *server, const char *s, char **out, struct err *e)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (const char *p = s; *p;) {
		const char *end;
		if (p[0] != '$' || p[1] != '{' || !(end = strchr(p + 2, '}'))) {
			buf_add(&b, p++, 1);
			continue;
		}
		char name[256];
		const char *def = NULL;
		size_t n = (size_t)(end - p - 2);
		const char *dash = memmem(p + 2, n, ":-", 2);
		if (dash) {
			def = dash + 2;
			n = (size_t)(dash - p - 2);
		}
		if (n == 0 || n >= sizeof name) {
			buf_free(&b);
			return err_set(e, ST_INVALID, "MCP server '%s': a bad ${...} reference", server);
		}
		snprintf(name, sizeof name, "%.*s", (int)n, p + 2);
		const char *v = getenv(name);
		if (v && *v)
			buf_puts(&b, v);
		else if (def)
			buf_add(&b, def, (size_t)(end - def));
		else {
			buf_free(&b);
			return err_set(e, ST_INVALID, "MCP server '%s' uses ${%s}, which is not set", server,
			    name);
		}
		p = end + 1;
	}
	*out = b.data;
	return ST_OK;
}

/* ---- messages ---- */

static void
one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

/* The last line of what the server said on standard error, or "". */
static void
err_tail(const struct mcpc *c, char *out, size_t n)
{
	size_t len = c->nerr;
	while (len && (c->errtail[len - 1] == '\n' || c->errtail[len - 1] == '\r'))
		len--;
	size_t start = len;
	while (start && c->errtail[start - 1] != '\n')
		start--;
	snprintf(out, n, "%.*s", (int)(len - start), c->errtail + start);
	one_line(out);
}

static void
keep_stderr(struct mcpc *c, const char *p, size_t n)
{
	if (n >= STDERR_KEEP) {
		p += n - (STDERR_KEEP - 1);
		n = STDERR_KEEP - 1;
	}
	if (c->nerr + n >= STDERR_KEEP) {
		size_t drop = c->nerr + n - (STDERR_KEEP - 1);
		memmove(c->errtail, c->errtail + drop, c->nerr - drop);
		c->nerr -= drop;
	}
	memcpy(c->errtail + c->nerr, p, n);
	c->nerr += n;
	c->errtail[c->nerr] = 0;
}

static long
left_ms(long deadline)
{
	long l = deadline - (long)mono_ms();
	return l > 0 ? l : 0;
}

/* Reaps the server within wait_ms; 1 if it has ended. */
static int
reap(struct mcpc *c, long wait_ms)
{
	if (c->reaped || c->pid <= 0)
		return 1;
	long deadline = (long)mono_ms() + wait_ms;
	for (;;) {
		pid_t r = waitpid(c->pid, &c->status, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR)) {
			c->reaped = 1;
			return 1;
		}
		if (left_ms(deadline) == 0)
			return 0;
		struct timespec ts = {0, 5000000};
		nanosleep(&ts, NULL);
	}
}

/* What is left in the server's standard error pipe, without waiting: a
 * server that wrote its reason and exited has it there, though its exit
 * may be seen first (a broken pipe on its input, its output's end). */
static void
drain_stderr(struct mcpc *c)
{
	char tmp[4096];
	while (c->errfd >= 0) {
		ssize_t k = read(c->errfd, tmp, sizeof tmp);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		keep_stderr(c, tmp, (size_t)k);
	}
}

static int
gone(struct mcpc *c, struct err *e)
{
	reap(c, 500);
	drain_stderr(c);
	char tail[300], how[64] = "stopped";
	err_tail(c, tail, sizeof tail);
	if (c->reaped && WIFEXITED(c->status))
		snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(c->status));
	else if (c->reaped && WIFSIGNALED(c->status))
		snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(c->status));
	else
		snprintf(how, sizeof how, "closed its output");
	return err_set(e, ST_ERR, "MCP server '%s' %s%s%s", c->name, how, *tail ? ": " : "", tail);
}

static int
send_stdio(struct mcpc *c, const char *text, long deadline, struct err *e)
{
	struct buf b = {0};
	buf_printf(&b, "%s\n", text);
	size_t off = 0;
	int rc = ST_OK;
	while (off < b.len) {
		ssize_t w = c->in < 0 ? -1 : write(c->in, b.data + off, b.len - off);
		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd p = {.fd = c->in, .events = POLLOUT};
			if (poll(&p, 1, (int)left_ms(deadline)) > 0)
				continue;
			rc = err_set(e, ST_ERR, "MCP server '%s' takes no input for %.3g s (--mcp-timeout)",
			    c->name, c->timeout_ms / 1000.0);
		} else {
			rc = gone(c, e);
		}
		break;
	}
	buf_free(&b);
	return rc;
}

/* The next line from the server's standard output, as JSON. */
static int
read_stdio(struct mcpc *c, const char *method, long deadline, cJSON **msg, struct err *e)
{
	for (;;) {
		char *nl = c->rd.len ? memchr(c->rd.data, '\n', c->rd.len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - c->rd.data);
			cJSON *m = mcp_msg_parse(c->rd.data, n);
			int blank = 1;
			for (size_t i = 0; i < n; i++)
				blank &= c->rd.data[i] == ' ' || c->rd.data[i] == '\r' || c->rd.data[i] == '\t';
			char ex[64];
			snprintf(ex, sizeof ex, "%.*s", (int)(n < 40 ? n : 40), c->rd.data);
			memmove(c->rd.data, nl + 1, c->rd.len - n - 1);
			c->rd.len -= n + 1;
			c->rd.data[c->rd.len] = 0;
			if (blank)
				continue;
			if (!cJSON_IsObject(m)) {
				cJSON_Delete(m);
				one_line(ex);
				return err_set(e, ST_ERR, "MCP server '%s' sent what is not a JSON-RPC "
				    "message: '%s%s'", c->name, ex, n > 40 ? "..." : "");
			}
			*msg = m;
			return ST_OK;
		}
		if (c->rd.len > (size_t)MCPC_MSG_MAX)
			return err_set(e, ST_ERR, "MCP server '%s' sent a message larger than %ld MiB",
			    c->name, MCPC_MSG_MAX >> 20);
		long left = left_ms(deadline);
		if (left == 0)
			return err_set(e, ST_ERR, "MCP server '%s' did not answer %s within %.3g s "
			    "(--mcp-timeout)", c->name, method, c->timeout_ms / 1000.0);
		struct pollfd p[2] = {{.fd = c->out, .events = POLLIN}, {.fd = c->errfd, .events = POLLIN}};
		int n = poll(p, c->errfd >= 0 ? 2 : 1, (int)(left > 60000 ? 60000 : left));
		if (n < 0 && errno != EINTR)
			return err_set(e, ST_ERR, "MCP server '%s': %s", c->name, strerror(errno));
		char tmp[65536];
		if (n > 0 && c->errfd >= 0 && p[1].revents) {
			ssize_t r = read(c->errfd, tmp, sizeof tmp);
			if (r > 0) {
				keep_stderr(c, tmp, (size_t)r);
			} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
				close(c->errfd);
				c->errfd = -1;
			}
		}
		if (n > 0 && p[0].revents) {
			ssize_t r = read(c->out, tmp, sizeof tmp);
			if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
				return gone(c, e);
			}
			if (r > 0)
				buf_add(&c->rd, tmp, (size_t)r);
		}
	}
}

/* ---- requests ---- */

static char *
message(long id, const char *method, cJSON *params)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "jsonrpc", "2.0");
	if (id)
		cJSON_AddNumberToObject(m, "id", (double)id);
	cJSON_AddStringToObject(m, "method", method);
	if (params)
		cJSON_AddItemToObject(m, "params", params);
	char *s = cJSON_PrintUnformatted(m);
	cJSON_Delete(m);
	if (!s)
		abort();
	return s;
}

static int
notify(struct mcpc *c, const char *method, struct err *e)
{
	char *s = message(0, method, NULL);
	int rc = c->url ? mcp_post_http(c, s, method, 0, NULL, e)
			: send_stdio(c, s, (long)mono_ms() + c->timeout_ms, e);
	free(s);
	return rc;
}

/* A request of the server's, on stdio: pings answered, the rest refused. */
static int
answer_server(struct mcpc *c, const cJSON *m, long deadline, struct err *e)
{
	char *s = mcp_server_answer(c, m);
	int rc = send_stdio(c, s, deadline, e);
	free(s);
	return rc;
}

/* One request: ST_OK with *result, or with *rpc_error; else a failure. */
static int
rpc(struct mcpc *c, const char *method, cJSON *params, cJSON **result, char **rpc_error,
    struct err *e)
{
	*result = NULL;
	if (rpc_error)
		*rpc_error = NULL;
	long id = ++c->next_id, deadline = (long)mono_ms() + c->timeout_ms;
	char *s = message(id, method, params);
	cJSON *resp = NULL;
	int rc;
	if (c->url) {
		rc = mcp_post_http(c, s, method, id, &resp, e);
	} else {
		rc = send_stdio(c, s, deadline, e);
		while (!rc && !resp) {
			cJSON *m = NULL;
			if ((rc = read_stdio(c, method, deadline, &m, e)))
				break;
			if (mcp_is_response(m) && mcp_msg_id(m) == id)
				resp = m;
			else if (cJSON_GetObjectItemCaseSensitive(m, "method") &&
			    cJSON_GetObjectItemCaseSensitive(m, "id"))
				rc = answer_server(c, m, deadline, e);
			if (m != resp)
				cJSON_Delete(m);
		}
	}
	free(s);
	if (rc)
		return rc;
	cJSON *res = cJSON_GetObjectItemCaseSensitive(resp, "result");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(resp, "error");
	if (cJSON_IsObject(res)) {
		*result = cJSON_DetachItemViaPointer(resp, res);
	} else if (err && rpc_error) {
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message"));
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
		/* A server's number, converted only where a long holds it. */
		long c = cJSON_IsNumber(code) && code->valuedouble > -1e15 && code->valuedouble < 1e15
		    ? (long)code->valuedouble : 0L;
		*rpc_error = xasprintf("MCP error %ld: %s", c, msg ? msg : "(no message)");
	} else if (err) {
		const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message"));
		char text[200];
		snprintf(text, sizeof text, "%s", msg ? msg : "(no message)");
		one_line(text);
		rc = err_set(e, ST_ERR, "MCP server '%s' refused %s: %s", c->name, method, text);
	} else {
		rc = err_set(e, ST_ERR, "MCP server '%s' answered %s with neither result nor error",
		    c->name, method);
	}
	cJSON_Delete(resp);
	return rc;
}

/* ---- opening and closing ---- */

/* Is command agentcron's own task-mcp: the one beside this program? */
static int
own_task_mcp(const char *command)
{
	char self[PATH_MAX], *slash, *found = NULL, *mine;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	const char *base = strrchr(command, '/');
	if (n <= 0 || strcmp(base ? base + 1 : command, "task-mcp") != 0)
		return 0;
	self[n] = 0;
	if (!(slash = strrchr(self, '/')))
		return 0;
	slash[1] = 0;
	if (base) {
		found = realpath(command, NULL);
	} else {
		const char *path = getenv("PATH");
		char *dirs = xstrdup(path ? path : ""), *save = NULL;
		for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
			char *cand = xasprintf("%s/%s", *d ? d : ".", command);
			if (access(cand, X_OK) == 0)
				found = realpath(cand, NULL);
			free(cand);
		}
		free(dirs);
	}
	mine = xasprintf("%stask-mcp", self);
	char *real = realpath(mine, NULL);
	int yes = found && real && strcmp(found, real) == 0;
	free(found);
	free(real);
	free(mine);
	return yes;
}

/* TASK_DB without its password for every server; the password, as
 * PGPASSWORD, for agentcron's own task-mcp alone, which needs it to open
 * the store. */
static void
store_env(char **env, size_t *k, const char *command)
{
	const char *db = getenv("TASK_DB");
	if (!db || !store_is_uri(db)) {
		if (db)
			env[(*k)++] = xasprintf("TASK_DB=%s", db);
		return;
	}
	size_t n = strlen(db) + 1;
	char *masked = xcalloc(1, n);
	pg_uri_mask(db, masked, n);
	env[(*k)++] = xasprintf("TASK_DB=%s", masked);
	free(masked);
	if (!own_task_mcp(command))
		return;
	char *pw = pg_uri_password(db);
	const char *given = getenv("PGPASSWORD");
	if (pw || given)
		env[(*k)++] = xasprintf("PGPASSWORD=%s", pw ? pw : given);
	if (pw) {
		explicit_bzero(pw, strlen(pw));
		free(pw);
	}
}

static char **
server_env(const struct mcpc_server *sv, char **expanded, const char *command)
{
	size_t n = 0, k = 0;
	while (sv->env && sv->env[2 * n])
		n++;
	char **env = xcalloc(sizeof passed_env / sizeof passed_env[0] + n + 2, sizeof *env);
	for (const char *const *p = passed_env; *p; p++) {
		int own = 0;
		for (size_t i = 0; i < n; i++)
			own |= strcmp(sv->env[2 * i], *p) == 0;
		const char *v = getenv(*p);
		if (own || !v)
			continue;
		if (strcmp(*p, "TASK_DB") == 0)
			store_env(env, &k, command);
		else
			env[k++] = xasprintf("%s=%s", *p, v);
	}
	for (size_t i = 0; i < n; i++)
		env[k++] = xasprintf("%s=%s", sv->env[2 * i], expanded[i]);
	return env;
}

static int
start_stdio(struct mcpc *c, const struct mcpc_server *sv, struct err *e)
{
	char **argv = NULL, **vals = NULL, **env = NULL;
	size_t na = 0, nv = 0;
	while (sv->args[na])
		na++;
	while (sv->env && sv->env[2 * nv])
		nv++;
	argv = xcalloc(na + 2, sizeof *argv);
	vals = xcalloc(nv + 1, sizeof *vals);
	int rc = expand(sv->name, sv->command, &argv[0], e);
	for (size_t i = 0; !rc && i < na; i++)
		rc = expand(sv->name, sv->args[i], &argv[i + 1], e);
	for (size_t i = 0; !rc && i < nv; i++)
		rc = expand(sv->name, sv->env[2 * i + 1], &vals[i], e);
	if (!rc) {
		struct exec_proc p;
		struct err se;
		int no_resources;
		env = server_env(sv, vals, argv[0]);
		if (exec_spawn("command", argv, env, NULL, 0, &p, &no_resources, &se)) {
			rc = err_set(e, ST_ERR, "MCP server '%s': %s", sv->name, se.msg);
		} else {
			c->pid = p.pid;
			c->in = p.in;
			c->out = p.out;
			c->errfd = p.err;
		}
	}
	mcpc_strv_free(argv);
	mcpc_strv_free(vals);
	mcpc_strv_free(env);
	return rc;
}

static int
start_http(struct mcpc *c, const struct mcpc_server *sv, struct err *e)
{
	int rc = expand(sv->name, sv->url, &c->url, e);
	size_t n = 0;
	while (sv->headers && sv->headers[2 * n])
		n++;
	c->headers = xcalloc(n + 1, sizeof *c->headers);
	for (size_t i = 0; !rc && i < n; i++) {
		char *v;
		if ((rc = expand(sv->name, sv->headers[2 * i + 1], &v, e)))
			break;
		c->headers[i] = xasprintf("%s: %s", sv->headers[2 * i], v);
		free(v);
	}
	return rc;
}

static int
handshake(struct mcpc *c, struct err *e)
{
	cJSON *p = cJSON_CreateObject(), *res;
	cJSON_AddStringToObject(p, "protocolVersion", MCPC_VERSION);
	/* Elicitation is declared to be declined: a server that needs a person
	 * says so, and the run ends blocked rather than failing obscurely. */
	cJSON_AddObjectToObject(cJSON_AddObjectToObject(p, "capabilities"), "elicitation");
	cJSON *info = cJSON_AddObjectToObject(p, "clientInfo");
	cJSON_AddStringToObject(info, "name", "agentcron-llm-call");
	cJSON_AddStringToObject(info, "version", AC_VERSION);
	int rc = rpc(c, "initialize", p, &res, NULL, e);
	if (rc)
		return rc;
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "protocolVersion"));
	int ok = 0;
	for (const char *const *q = versions; v && *q; q++)
		ok |= strcmp(*q, v) == 0;
	if (ok)
		snprintf(c->version, sizeof c->version, "%s", v);
	else
		rc = err_set(e, ST_ERR, "MCP server '%s' speaks protocol version '%.20s', which llm-call "
		    "does not (%s to 2024-11-05)", c->name, v ? v : "?", MCPC_VERSION);
	cJSON_Delete(res);
	return rc ? rc : notify(c, "notifications/initialized", e);
}

void
mcpc_set_timeout(struct mcpc *c, long timeout_ms)
{
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
}

int
mcpc_open(const struct mcpc_server *sv, struct http *h, long timeout_ms, struct mcpc **out,
    struct err *e)
{
	struct timespec ts0;
	clock_gettime(CLOCK_MONOTONIC, &ts0);
	struct mcpc *c = xcalloc(1, sizeof *c);
	c->name = xstrdup(sv->name);
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : MCPC_TIMEOUT_MS;
	c->in = c->out = c->errfd = -1;
	c->http = h;
	int rc = sv->url ? start_http(c, sv, e) : start_stdio(c, sv, e);
	if (!rc)
		rc = handshake(c, e);
	if (rc) {
		mcpc_close(c);
		return rc;
	}
	struct timespec ts1;
	clock_gettime(CLOCK_MONOTONIC, &ts1);
	c->startup_ms = (double)(ts1.tv_sec - ts0.tv_sec) * 1e3 + (double)(ts1.tv_nsec - ts0.tv_nsec) / 1e6;
	*out = c;
	return ST_OK;
}

const char *
mcpc_name(const struct mcpc *c)
{
	return c->name;
}

const char *
mcpc_declined(const struct mcpc *c)
{
	return c->declined;
}

const char *
mcpc_version(const struct mcpc *c)
{
	return c->version;
}

double
mcpc_startup_ms(const struct mcpc *c)
{
	return c->startup_ms;
}

void
mcpc_close(struct mcpc *c)
{
	if (!c)
		return;
	if (c->url && c->session) {
		/* Ending the session is a courtesy: a short wait, no error. */
		struct buf sh = {0}, vh = {0};
		buf_printf(&sh, "Mcp-Session-Id: %s", c->session);
		buf_printf(&vh, "MCP-Protocol-Version: %s", c->version);
		const char *hl[] = {sh.data, vh.data, NULL};
		struct http_request rq = {.url = c->url, .method = "DELETE", .headers = hl,
			.connect_timeout_ms = 2000, .timeout_ms = 2000};
		struct http_result hr;
		http_perform(c->http, &rq, &hr);
		buf_free(&sh);
		buf_free(&vh);
	}
	if (c->in >= 0)
		close(c->in);
	if (c->pid > 0) {
		/* End of input asks it to go; then the group is told, then made. */
		if (!reap(c, MCPC_GRACE_MS)) {
			kill(-c->pid, SIGTERM);
			if (!reap(c, MCPC_GRACE_MS)) {
				kill(-c->pid, SIGKILL);
				reap(c, 5000);
			}
		}
		/* Whatever it left behind in its group. */
		kill(-c->pid, SIGKILL);
	}
	if (c->out >= 0)
		close(c->out);
	if (c->errfd >= 0)
		close(c->errfd);
	buf_free(&c->rd);
	free(c->name);
	free(c->url);
	mcpc_strv_free(c->headers);
	free(c->session);
	free(c->declined);
	http_free(c->answers);
	free(c);
}

int
mcpc_tools(struct mcpc *c, cJSON **tools, struct err *e)
{
	cJSON *all = cJSON_CreateArray();
	char *cursor = NULL;
	int rc = ST_OK;
	for (int page = 0; page < MAX_PAGES; page++) {
		cJSON *p = cJSON_CreateObject(), *res;
		if (cursor)
			cJSON_AddStringToObject(p, "cursor", cursor);
		if ((rc = rpc(c, "tools/list", p, &res, NULL, e)))
			break;
		const cJSON *list = cJSON_GetObjectItemCaseSensitive(res, "tools"), *t;
		if (!cJSON_IsArray(list)) {
			cJSON_Delete(res);
			rc = err_set(e, ST_ERR, "MCP server '%s' answered tools/list without a tools array",
			    c->name);
			break;
		}
		cJSON_ArrayForEach(t, list) {
			const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
			if (!name || !*name)
				continue;
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", name);
			const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "description"));
			if (d)
				cJSON_AddStringToObject(o, "description", d);
			const cJSON *schema = cJSON_GetObjectItemCaseSensitive(t, "inputSchema");
			if (cJSON_IsObject(schema))
				cJSON_AddItemToObject(o, "inputSchema", cJSON_Duplicate(schema, 1));
			cJSON_AddItemToArray(all, o);
		}
		const char *next = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "nextCursor"));
		set_str(&cursor, next && *next ? next : NULL);
		cJSON_Delete(res);
		if (!cursor)
			break;
	}
	free(cursor);
	if (rc) {
		cJSON_Delete(all);
		return rc;
	}
	*tools = all;
	return ST_OK;
}

int
mcpc_call(struct mcpc *c, const char *tool, const cJSON *args, cJSON **result, char **rpc_error,
    struct err *e)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "name", tool);
	cJSON_AddItemToObject(p, "arguments", args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject());
	return rpc(c, "tools/call", p, result, rpc_error, e);
}
