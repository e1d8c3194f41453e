/* mcp_config.c: mcp.json, the MCP servers llm-call may start or reach
 * (mcp_client.h), read apart from the client so that the programs that
 * only check a server's name (task-add, task-edit) need no HTTP stack. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "mcp_client.h"
#include "task_json.h"

#define CONFIG_MAX (1L << 20)

const char *
mcpc_config_path(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/') {
		snprintf(buf, n, "%s/agentcron/mcp.json", xdg);
	} else {
		const char *home = getenv("HOME");
		snprintf(buf, n, "%s/.config/agentcron/mcp.json", home && *home ? home : ".");
	}
	return buf;
}

void
mcpc_strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void
server_free(struct mcpc_server *s)
{
	free(s->name);
	free(s->command);
	mcpc_strv_free(s->args);
	mcpc_strv_free(s->env);
	free(s->url);
	mcpc_strv_free(s->headers);
	mcpc_strv_free(s->confirm);
}

void
mcpc_config_free(struct mcpc_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		server_free(&c->servers[i]);
	free(c->servers);
	free(c->path);
	free(c);
}

/* An array of strings, or an object of strings as name, value pairs. */
static int
strings(const cJSON *v, int pairs, char ***out)
{
	size_t n = (size_t)cJSON_GetArraySize(v), i = 0;
	char **a = xcalloc(n * (pairs ? 2 : 1) + 1, sizeof *a);
	const cJSON *it;
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsString(it)) {
			mcpc_strv_free(a);
			return -1;
		}
		if (pairs)
			a[i++] = xstrdup(it->string);
		a[i++] = xstrdup(it->valuestring);
	}
	*out = a;
	return 0;
}

static int
parse_server(const char *path, const cJSON *o, struct mcpc_server *s, int *secret, struct err *e)
{
	const char *name = o->string;
	if (!cJSON_IsObject(o))
		return err_set(e, ST_INVALID, "%s: server '%s' is not an object", path, name);
	s->name = xstrdup(name);
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(o, "command");
	const cJSON *url = cJSON_GetObjectItemCaseSensitive(o, "url");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "args");
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(o, "env");
	const cJSON *hdrs = cJSON_GetObjectItemCaseSensitive(o, "headers");
	const cJSON *confirm = cJSON_GetObjectItemCaseSensitive(o, "confirm");
	if (cJSON_IsString(type) && strcmp(type->valuestring, "sse") == 0)
		return err_set(e, ST_INVALID, "%s: server '%s' uses the old SSE transport; llm-call "
		    "speaks stdio and Streamable HTTP", path, name);
	if (cJSON_IsString(cmd) == cJSON_IsString(url))
		return err_set(e, ST_INVALID, "%s: server '%s' needs either \"command\" or \"url\"",
		    path, name);
	if ((args && (!cJSON_IsArray(args) || strings(args, 0, &s->args))) ||
	    (env && (!cJSON_IsObject(env) || strings(env, 1, &s->env))) ||
	    (hdrs && (!cJSON_IsObject(hdrs) || strings(hdrs, 1, &s->headers))))
		return err_set(e, ST_INVALID, "%s: server '%s': \"args\" is an array of strings, "
		    "\"env\" and \"headers\" objects of strings", path, name);
	if (confirm && !cJSON_IsBool(confirm) && (!cJSON_IsArray(confirm) || strings(confirm, 0, &s->confirm)))
		return err_set(e, ST_INVALID, "%s: server '%s': \"confirm\" is true, false or an array "
		    "of its tool names", path, name);
	s->confirm_all = cJSON_IsTrue(confirm);
	if (cJSON_IsString(cmd))
		s->command = xstrdup(cmd->valuestring);
	else if (str_casecmp_prefix(url->valuestring, "http://") &&
	    str_casecmp_prefix(url->valuestring, "https://"))
		return err_set(e, ST_INVALID, "%s: server '%s': url is not an http or https URL", path,
		    name);
	else
		s->url = xstrdup(url->valuestring);
	if (!s->args)
		s->args = xcalloc(1, sizeof *s->args);
	if ((s->env && s->env[0]) || (s->headers && s->headers[0]))
		*secret = 1;
	return ST_OK;
}

int
mcpc_config_load(const char *path, struct mcpc_config **out, struct err *e)
{
	char def[PATH_MAX];
	if (!path)
		path = mcpc_config_path(def, sizeof def);
	struct mcpc_config *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	struct buf b = {0};
	unsigned mode = 0;
	int rc = config_read_private("", path, CONFIG_MAX, &b, &mode, e);
	if (rc == ST_NOTFOUND) {
		*out = c;
		return ST_OK;
	}
	cJSON *root = NULL;
	ssize_t nul = rc ? -1 : json_find_nul(b.data, b.len);
	if (nul >= 0)
		rc = err_set(e, ST_INVALID, "%s: a string holds \\u0000 (NUL) near byte %ld", path, (long)nul);
	if (!rc && !(root = cJSON_ParseWithLength(b.data ? b.data : "", b.len)))
		rc = err_set(e, ST_INVALID, "%s: not JSON (near byte %ld)", path,
		    cJSON_GetErrorPtr() && b.data ? (long)(cJSON_GetErrorPtr() - b.data) : 0L);
	buf_wipe(&b);
	const cJSON *servers = root ? cJSON_GetObjectItemCaseSensitive(root, "mcpServers") : NULL;
	if (!rc && (!cJSON_IsObject(root) || (servers && !cJSON_IsObject(servers))))
		rc = err_set(e, ST_INVALID, "%s: expected {\"mcpServers\": {\"NAME\": {...}}}", path);
	int secret = 0;
	if (!rc && servers) {
		c->servers = xcalloc((size_t)cJSON_GetArraySize(servers) + 1, sizeof *c->servers);
		const cJSON *s;
		cJSON_ArrayForEach(s, servers) {
			if ((rc = parse_server(path, s, &c->servers[c->n++], &secret, e)))
				break;
		}
	}
	cJSON_Delete(root);
	if (!rc && secret)
		rc = config_private_secret("", path, mode, "env or headers values", e);
	if (rc) {
		mcpc_config_free(c);
		return rc;
	}
	*out = c;
	return ST_OK;
}

int
mcpc_needs_confirm(const struct mcpc_server *sv, const char *tool)
{
	for (size_t i = 0; sv->confirm && sv->confirm[i]; i++)
		if (strcmp(sv->confirm[i], tool) == 0)
			return 1;
	return sv->confirm_all;
}

const struct mcpc_server *
mcpc_config_find(const struct mcpc_config *c, const char *name)
{
	for (size_t i = 0; c && i < c->n; i++)
		if (strcmp(c->servers[i].name, name) == 0)
			return &c->servers[i];
	return NULL;
}

/* ${NAME} and ${NAME:-default} from the environment. */
