/* What an agent's tool calls may reach (agent.h).  Everything an agent
 * gives a task is held against what its caller has: a run cannot hand a
 * task MCP servers or tools it does not have itself, attach files from
 * outside the directories the user names, or reach tasks it did not make,
 * so a prompt injected into a run gains nothing it did not already have. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "exec.h"
#include "guard.h"
#include "store.h"
#include "store_audit.h"
#include "task.h"
#include "utf8.h"

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* A count key of the config: def when unset. */
static int
config_count(const struct config *cf, const char *key, long def, long *out, struct err *e)
{
	const char *v = config_get(cf, key);
	char *end;
	*out = def;
	if (!v || !*v)
		return ST_OK;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < 0 || n > 1000000)
		return err_set(e, ST_INVALID, "%s: %s '%s' is not a number from 0 to 1000000",
		    config_path(cf), key, v);
	*out = n;
	return ST_OK;
}

int
agent_max_calls(const struct config *cf, long *n, struct err *e)
{
	return config_count(cf, "agent_max_calls", AGENT_MAX_CALLS, n, e);
}

int
agent_attach_dirs(const struct config *cf, char ***dirs, size_t *ndirs, struct err *e)
{
	size_t n;
	char **v = str_words(config_get(cf, "agent_attach_dirs"), &n);
	const char *home = getenv("HOME");
	int rc = ST_OK;
	*dirs = xcalloc(n + 1, sizeof **dirs);
	*ndirs = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		char *path = strncmp(v[i], "~/", 2) == 0 && home ? xasprintf("%s%s", home, v[i] + 1)
		    : xstrdup(v[i]);
		char *r = realpath(path, NULL);
		if (!r)
			rc = err_set(e, ST_INVALID, "%s: agent_attach_dirs: cannot use '%s': %s",
			    config_path(cf), v[i], strerror(errno));
		else
			(*dirs)[(*ndirs)++] = r;
		free(path);
	}
	str_words_free(v, n);
	return rc;
}

static int
load_dirs(struct agent *a, const struct config *cf, struct err *e)
{
	return agent_attach_dirs(cf, &a->dirs, &a->ndirs, e);
}

/* Whose authority: the run's (TASK_*) or, outside one, the config's. */
static int
load_grants(struct agent *a, const struct config *cf, struct err *e)
{
	const char *run = env("TASK_RUN_ID");
	char session[37];
	if (run) {
		if (strlen(run) > 36 || !id_prefix_ok(run))
			return err_set(e, ST_INVALID, "TASK_RUN_ID '%.40s' is not a run id", run);
		a->in_run = 1;
		snprintf(a->origin, sizeof a->origin, "agent:run:%s", run);
	} else {
		if (uuid4(session) != 0)
			return err_set(e, ST_ERR, "cannot make a session id: no randomness");
		snprintf(a->origin, sizeof a->origin, "agent:session:%s", session);
	}
	a->servers = str_words(run ? env("TASK_MCP") : config_get(cf, "agent_mcp"), &a->nservers);
	for (size_t i = 0; i < a->nservers; i++)
		if (strcmp(a->servers[i], "all") == 0)
			a->any_server = 1;
	a->allow = str_words(run ? env("TASK_MCP_ALLOW") : NULL, &a->nallow);
	a->deliver = str_words(config_get(cf, "agent_deliver"), &a->ndeliver);
	return ST_OK;
}

static int
load_scope(struct agent *a, const char *flag, struct err *e)
{
	const char *envs = env("TASK_SCOPE");
	if (envs && flag && strcmp(envs, flag) != 0)
		return err_set(e, ST_INVALID, "--scope '%s' differs from this run's scope '%s' (TASK_SCOPE)",
		    flag, envs);
	const char *s = envs ? envs : flag;
	int rc;
	if (s && (rc = task_scope_check(s, e)))
		return rc;
	a->scope = xstrdup(s);
	return ST_OK;
}

int
agent_load(struct agent *a, const struct config *cf, const char *store, const char *scope,
    struct err *e)
{
	int rc;
	memset(a, 0, sizeof *a);
	a->store = xstrdup(store);
	const char *edit = config_get(cf, "agent_edit"), *exec = env("TASK_EXEC");
	if (edit && *edit && strcmp(edit, "all") != 0 && strcmp(edit, "agents") != 0)
		return err_set(e, ST_INVALID, "%s: agent_edit '%s' is neither 'agents' nor 'all'",
		    config_path(cf), edit);
	a->edit_all = edit && strcmp(edit, "all") == 0;
	if (!exec)
		exec = config_get(cf, "exec");
	a->exec = xstrdup(exec && *exec ? exec : "llm-call");
	if ((rc = config_count(cf, "agent_max_create", AGENT_MAX_CREATE, &a->max_create, e)) ||
	    (rc = config_count(cf, "agent_max_tasks", AGENT_MAX_TASKS, &a->max_tasks, e)) ||
	    (rc = agent_max_calls(cf, &a->max_calls, e)) || (rc = load_dirs(a, cf, e)) ||
	    (rc = load_grants(a, cf, e)))
		return rc;
	return load_scope(a, scope, e);
}

void
agent_free(struct agent *a)
{
	str_words_free(a->servers, a->nservers);
	str_words_free(a->allow, a->nallow);
	str_words_free(a->dirs, a->ndirs);
	str_words_free(a->deliver, a->ndeliver);
	free(a->scope);
	free(a->exec);
	free(a->store);
	memset(a, 0, sizeof *a);
}

/* ---- MCP ---- */

static const char *
whose(const struct agent *a)
{
	return a->in_run ? "this run" : "this session";
}

/* "github, mail" or "none". */
static void
list_words(struct buf *b, char *const *v, size_t n)
{
	if (!n)
		buf_puts(b, "none");
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%s%s", i ? ", " : "", v[i]);
}

/* What the agent may give, as a sentence. */
static void
servers_granted(const struct agent *a, struct buf *b)
{
	buf_puts(b, a->in_run ? "This run may give: " : "The user's config (agent_mcp) lets agents "
	    "give: ");
	if (a->any_server)
		buf_puts(b, "any server of mcp.json, by its name");
	else
		list_words(b, a->servers, a->nservers);
}

static int
has_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* Does every tool name p matches also match the run's pattern g?  Only
 * what is sure: the same pattern, a plain name g matches, or a pattern
 * whose plain start lies within g's when g is a plain start and "*". */
static int
pattern_within(const char *p, const char *g)
{
	if (strcmp(p, g) == 0)
		return 1;
	if (!has_glob(p))
		return fnmatch(g, p, 0) == 0;
	size_t gn = strlen(g);
	if (!gn || g[gn - 1] != '*' || strpbrk(g, "?[\\") || memchr(g, '*', gn - 1))
		return 0;
	size_t plain = strcspn(p, "*?[\\");
	return plain >= gn - 1 && strncmp(p, g, gn - 1) == 0;
}

static int
check_servers(const struct agent *a, const cJSON *list, struct err *e)
{
	const cJSON *it;
	struct buf b = {0};
	int rc = ST_OK;
	cJSON_ArrayForEach(it, list) {
		const char *s = cJSON_GetStringValue(it);
		if (!s || !*s)
			continue;
		int found = a->any_server, all = strcasecmp(s, "all") == 0;
		for (size_t i = 0; i < a->nservers && !found; i++)
			found = strcmp(a->servers[i], s) == 0;
		if (found && !all)
			continue;
		if (all)
			buf_puts(&b, "Refused: an agent may not give a task 'all' MCP servers; name the "
			    "ones it needs. ");
		else
			buf_printf(&b, "Refused: MCP server '%.*s' is not one %s may give a task. ",
			    utf8_cut(s, 64), s, whose(a));
		servers_granted(a, &b);
		rc = err_set(e, ST_REFUSED, "%s", b.data);
		break;
	}
	buf_free(&b);
	return rc;
}

static int
check_patterns(const struct agent *a, const cJSON *servers, const cJSON *allow, struct err *e)
{
	const cJSON *it;
	struct buf mine = {0};
	int rc = ST_OK, n = 0;
	if (!a->nallow)
		return ST_OK;
	list_words(&mine, a->allow, a->nallow);
	cJSON_ArrayForEach(it, allow) {
		const char *p = cJSON_GetStringValue(it);
		int ok = 0;
		if (!p || !*p)
			continue;
		n++;
		for (size_t i = 0; i < a->nallow && !ok; i++)
			ok = pattern_within(p, a->allow[i]);
		if (!ok) {
			rc = err_set(e, ST_REFUSED, "Refused: MCP tool pattern '%.*s' is wider than %s's own "
			    "(%s); give mcp_allow patterns within those", utf8_cut(p, 64), p, whose(a),
			    mine.data);
			break;
		}
	}
	int nservers = 0;
	cJSON_ArrayForEach(it, servers)
		nservers += cJSON_GetStringValue(it) && *cJSON_GetStringValue(it);
	if (!rc && nservers && !n)
		rc = err_set(e, ST_REFUSED, "Refused: %s may call only the MCP tools matching %s; give "
		    "mcp_allow patterns within those", whose(a), mine.data);
	buf_free(&mine);
	return rc;
}

int
agent_check_mcp(const struct agent *a, const char *mcp, const char *allow, struct err *e)
{
	cJSON *servers = mcp ? cJSON_Parse(mcp) : NULL, *patterns = allow ? cJSON_Parse(allow) : NULL;
	int rc = check_servers(a, servers, e);
	if (!rc)
		rc = check_patterns(a, servers, patterns, e);
	cJSON_Delete(servers);
	cJSON_Delete(patterns);
	return rc;
}

/* mcp (a comma list) within the config's agent_mcp; whose: the task, as
 * the message names it. */
static int
held_to_config(const struct config *cf, const struct task *t, const char *mcp, const char *whose,
    struct err *e)
{
	size_t ngrant, nused;
	char **grant = str_words(config_get(cf, "agent_mcp"), &ngrant);
	char **used = str_words(mcp, &nused);
	int rc = ST_OK;
	for (size_t i = 0; i < nused && !rc; i++) {
		int ok = 0;
		for (size_t k = 0; k < ngrant && !ok; k++)
			ok = strcmp(grant[k], "all") == 0 || strcmp(grant[k], used[i]) == 0;
		if (!ok) {
			struct buf b = {0};
			list_words(&b, grant, ngrant);
			rc = err_set(e, ST_REFUSED, "MCP server '%.*s' of task '%.*s', which %s, is no longer "
			    "one the config's agent_mcp lets agents give (%s); add it there, or take it from "
			    "the task (task-edit --mcp)", utf8_cut(used[i], 64), used[i],
			    utf8_cut(t->name, 100), t->name, whose, b.data);
			buf_free(&b);
		}
	}
	str_words_free(grant, ngrant);
	str_words_free(used, nused);
	return rc;
}

int
agent_check_held(const struct config *cf, const struct task *t, const char *mcp, struct err *e)
{
	if (!t->origin || strncmp(t->origin, "agent:session:", 14) != 0 || str_empty(mcp))
		return ST_OK;
	return held_to_config(cf, t, mcp, "an agent made", e);
}

/* ---- delivery ---- */

int
agent_check_deliver(const struct agent *a, const char *deliver, struct err *e)
{
	cJSON *j = deliver ? cJSON_Parse(deliver) : NULL;
	const cJSON *it;
	int rc = ST_OK;
	cJSON_ArrayForEach(it, j) {
		const char *s = cJSON_IsString(it) ? it->valuestring : "";
		int ok = 0;
		for (size_t i = 0; s[0] == '@' && i < a->ndeliver; i++)
			ok |= strcmp(a->deliver[i][0] == '@' ? a->deliver[i] + 1 : a->deliver[i], s + 1) == 0;
		if (!ok) {
			char shown[160], list[200] = "";
			deliver_target_mask(s, shown, sizeof shown);
			for (size_t i = 0; i < a->ndeliver; i++)
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s%s",
				    i ? ", " : "", a->deliver[i][0] == '@' ? "" : "@", a->deliver[i]);
			rc = err_set(e, ST_REFUSED, "Refused: delivery target '%s' is not one an agent may"
			    " give a task. The user's config (agent_deliver) lets agents give: %s", shown,
			    list[0] ? list : "none");
			break;
		}
	}
	cJSON_Delete(j);
	return rc;
}

/* ---- attachments ---- */

/* path made absolute with links and ".." resolved; a file that does not
 * exist yet is resolved through its directory.  NULL, errno set, when it
 * cannot be. */
static char *
resolve(const char *path)
{
	char *r = realpath(path, NULL);
	if (r || errno != ENOENT)
		return r;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return NULL;
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	char *rd = realpath(dir, NULL);
	free(dir);
	if (!rd)
		return NULL;
	r = xasprintf("%s%s%s", rd, strcmp(rd, "/") == 0 ? "" : "/", base);
	free(rd);
	return r;
}

static int
check_file(const struct agent *a, const char *path, char **resolved, struct err *e)
{
	int n = utf8_cut(path, 200);
	*resolved = NULL;
	if (!a->ndirs)
		return err_set(e, ST_REFUSED, "Refused: attachment '%.*s' is a file, and %s may attach "
		    "only http(s) URLs (the user's config allows agents no directories: "
		    "agent_attach_dirs)", n, path, whose(a));
	char *r = resolve(path);
	if (!r)
		return err_set(e, ST_REFUSED, "Refused: attachment '%.*s' cannot be found: %s", n, path,
		    strerror(errno));
	struct stat sb;
	struct guard g;
	int exists = stat(r, &sb) == 0, under = 0;
	for (size_t i = 0; i < a->ndirs && !under; i++)
		under = path_under(r, a->dirs[i]);
	int rc = ST_OK;
	/* Now, not at load: the store may have been made since. */
	guard_init(&g, a->store, NULL);
	if (!under) {
		struct buf b = {0};
		list_words(&b, a->dirs, a->ndirs);
		rc = err_set(e, ST_REFUSED, "Refused: attachment '%.*s' is not under a directory the "
		    "user allows agents to attach from (%s)", n, path, b.data);
		buf_free(&b);
	} else if (guard_refuses(&g, r, exists ? &sb : NULL)) {
		rc = err_set(e, ST_REFUSED, "Refused: attachment '%.*s' is the scheduler's settings, "
		    "store or keys, which are never attached", n, path);
	}
	guard_free(&g);
	if (rc)
		free(r);
	else
		*resolved = r;
	return rc;
}

int
agent_check_attachments(const struct agent *a, const char *attachments, char **out,
    struct err *e)
{
	cJSON *list = attachments ? cJSON_Parse(attachments) : NULL, *res = cJSON_CreateArray();
	const cJSON *it;
	int rc = ST_OK;
	*out = NULL;
	cJSON_ArrayForEach(it, list) {
		const char *s = cJSON_GetStringValue(it);
		char *r = NULL;
		if (!s)
			continue;
		if (str_casecmp_prefix(s, "http://") == 0 || str_casecmp_prefix(s, "https://") == 0)
			r = xstrdup(s);
		else if ((rc = check_file(a, s, &r, e)))
			break;
		cJSON_AddItemToArray(res, cJSON_CreateString(r));
		free(r);
	}
	if (!rc && cJSON_GetArraySize(list))
		*out = cJSON_PrintUnformatted(res);
	cJSON_Delete(list);
	cJSON_Delete(res);
	return rc;
}

/* ---- other tasks ---- */

int
agent_sees(const struct agent *a, const struct task *t)
{
	return !a->scope || (t->scope && strcmp(t->scope, a->scope) == 0);
}

/* Is the task's executor llm-call (by the last part of its first word)? */
static int
runs_llm_call(const struct agent *a, const struct task *t, char *first, size_t n)
{
	char **argv = NULL;
	struct err e;
	int yes = 0;
	snprintf(first, n, "?");
	if (exec_split(t->exec && *t->exec ? t->exec : a->exec, &argv, &e) == ST_OK && argv[0]) {
		const char *slash = strrchr(argv[0], '/');
		snprintf(first, n, "%s", slash ? slash + 1 : argv[0]);
		yes = strcmp(first, "llm-call") == 0;
	}
	exec_argv_free(argv);
	return yes;
}

/* The access llm-call flags in an executor line grant: --mcp and
 * --mcp-allow (comma lists) added to mcp and allow as JSON arrays; the
 * name of a flag no agent may hold (--tools, -a, --attach, --key-file) in
 * *grant.  Long options may be written "--opt=VALUE" or abbreviated, as
 * getopt_long takes them. */
static void
exec_access(char **argv, cJSON *mcp, cJSON *allow, const char **grant)
{
	static const char *const takes_arg = "smaopc"; /* llm-call's short options with a value */
	static const struct {
		const char *name;
		int kind; /* 1 --mcp, 2 --mcp-allow, 3 refused, 0 other with a value, -1 no value */
	} longs[] = {{"mcp", 1}, {"mcp-allow", 2}, {"tools", 3}, {"attach", 3}, {"key-file", 3},
		{"mcp-timeout", 0}, {"system", 0}, {"model", 0}, {"option", 0}, {"provider", 0},
		{"base-url", 0}, {"context", 0}, {"max-rounds", 0}, {"max-run-tokens", 0},
		{"timeout", 0}, {"deadline", 0}, {"connect-timeout", 0}, {"retries", 0}};
	for (size_t i = 1; argv[i]; i++) {
		const char *arg = argv[i], *val = NULL;
		if (strcmp(arg, "--") == 0)
			break;
		if (strncmp(arg, "--", 2) == 0) {
			const char *eq = strchr(arg, '=');
			size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
			int kind = -1, hits = 0;
			for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
				if (strncmp(longs[k].name, arg + 2, n) != 0)
					continue;
				if (strlen(longs[k].name) == n) { /* exact wins over prefixes */
					kind = longs[k].kind;
					hits = 1;
					break;
				}
				kind = hits++ ? (kind == 3 || longs[k].kind == 3 ? 3 : kind) : longs[k].kind;
			}
			if (kind == 3) {
				*grant = strncmp(arg + 2, "to", 2) == 0 ? "--tools" : strncmp(arg + 2, "at", 2) == 0
				    ? "--attach" : "--key-file";
				continue;
			}
			if (kind < 0)
				continue;
			/* --tools takes its value only after '='. */
			val = eq ? eq + 1 : argv[i + 1];
			if (!eq && argv[i + 1])
				i++;
			cJSON *to = kind == 1 ? mcp : kind == 2 ? allow : NULL;
			if (!to || !val)
				continue;
			char *copy = xstrdup(val), *save = NULL;
			for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
				cJSON_AddItemToArray(to, cJSON_CreateString(w));
			free(copy);
			continue;
		}
		if (arg[0] != '-' || !arg[1])
			continue;
		for (const char *c = arg + 1; *c; c++) {
			if (*c == 'a') {
				*grant = "-a";
				break;
			}
			if (strchr(takes_arg, *c)) {
				if (!c[1] && argv[i + 1])
					i++;
				break;
			}
		}
	}
}

/* The task's MCP servers and tool patterns with those its executor line
 * gives (JSON, malloc'd), and the flag of one no agent may hold. */
static void
task_access(const struct agent *a, const struct task *t, char **mcp, char **allow,
    const char **grant)
{
	cJSON *m = t->mcp ? cJSON_Parse(t->mcp) : NULL, *al = t->mcp_allow ? cJSON_Parse(t->mcp_allow)
	    : NULL;
	char **argv = NULL;
	struct err e;
	if (!cJSON_IsArray(m)) {
		cJSON_Delete(m);
		m = cJSON_CreateArray();
	}
	if (!cJSON_IsArray(al)) {
		cJSON_Delete(al);
		al = cJSON_CreateArray();
	}
	*grant = NULL;
	if (exec_split(t->exec && *t->exec ? t->exec : a->exec, &argv, &e) == ST_OK && argv[0])
		exec_access(argv, m, al, grant);
	exec_argv_free(argv);
	*mcp = cJSON_PrintUnformatted(m);
	*allow = cJSON_PrintUnformatted(al);
	cJSON_Delete(m);
	cJSON_Delete(al);
}

int
agent_may_change(const struct agent *a, const struct task *t, struct err *e)
{
	char first[64];
	struct err why;
	int n = utf8_cut(t->name, 100);
	if (a->edit_all)
		return ST_OK;
	if (!t->origin || strncmp(t->origin, "agent:", 6) != 0)
		return err_set(e, ST_REFUSED, "Refused: task '%.*s' was made by the user; agents may "
		    "change, run, cancel or delete only tasks an agent made", n, t->name);
	if (!runs_llm_call(a, t, first, sizeof first))
		return err_set(e, ST_REFUSED, "Refused: task '%.*s' runs '%s', not llm-call; agents may "
		    "not change, run, cancel or delete it", n, t->name, first);
	/* A gate is a command, as an executor is: the user's alone. */
	if (!str_empty(t->gate))
		return err_set(e, ST_REFUSED, "Refused: task '%.*s' runs a gate command the user set "
		    "(--gate); agents may not change, run, cancel or delete it", n, t->name);
	/* Its runs would use its MCP servers: only an agent that could have
	 * given them may set its prompt or run it. */
	char *mcp, *allow;
	const char *grant;
	task_access(a, t, &mcp, &allow, &grant);
	int beyond = agent_check_mcp(a, mcp, allow, &why) != ST_OK;
	free(mcp);
	free(allow);
	if (grant)
		return err_set(e, ST_REFUSED, "Refused: task '%.*s' runs llm-call with %s, access no "
		    "agent holds, so %s may not change, run, cancel or delete it", n, t->name, grant,
		    whose(a));
	if (beyond)
		return err_set(e, ST_REFUSED, "Refused: task '%.*s' has MCP access beyond %s's own, so "
		    "%s may not change, run, cancel or delete it", n, t->name, whose(a), whose(a));
	return ST_OK;
}

/* ---- what the task whose run made a task grants now ---- */

/* A JSON array of the words of a comma list (malloc'd). */
static char *
list_json(const char *list)
{
	size_t n;
	char **w = str_words(list, &n);
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(w[i]));
	char *out = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	str_words_free(w, n);
	return out;
}

/* The words of a JSON array of strings into a list to free with
 * str_words_free. */
static char **
json_words(const cJSON *a, size_t *n)
{
	const cJSON *it;
	struct buf b = {0};
	cJSON_ArrayForEach(it, a)
		if (cJSON_GetStringValue(it))
			buf_printf(&b, "%s%s", b.len ? "," : "", it->valuestring);
	char **w = str_words(b.data ? b.data : "", n);
	buf_free(&b);
	return w;
}

/* What a run of x has now (llm_ask.c's run_grants): its executor line's
 * --mcp and --mcp-allow, which replace the task's, else the task's. */
static void
granted_by(const struct config *cf, const struct task *x, struct agent *g)
{
	const char *def = config_get(cf, "exec"), *grant;
	cJSON *m = cJSON_CreateArray(), *al = cJSON_CreateArray(), *tm = NULL, *ta = NULL;
	char **argv = NULL;
	struct err e;
	memset(g, 0, sizeof *g);
	g->in_run = 1;
	if (exec_split(!str_empty(x->exec) ? x->exec : !str_empty(def) ? def : "llm-call", &argv,
	    &e) == ST_OK && argv[0])
		exec_access(argv, m, al, &grant);
	exec_argv_free(argv);
	if (!cJSON_GetArraySize(m))
		tm = x->mcp ? cJSON_Parse(x->mcp) : NULL;
	if (!cJSON_GetArraySize(al))
		ta = x->mcp_allow ? cJSON_Parse(x->mcp_allow) : NULL;
	g->servers = json_words(tm ? tm : m, &g->nservers);
	g->allow = json_words(ta ? ta : al, &g->nallow);
	for (size_t i = 0; i < g->nservers; i++)
		g->any_server |= strcmp(g->servers[i], "all") == 0;
	cJSON_Delete(m);
	cJSON_Delete(al);
	cJSON_Delete(tm);
	cJSON_Delete(ta);
}

/* The task whose run made a task (the actor of its "create" entry on the
 * audit trail), into id ("" when the trail no longer says). */
static int
maker_one(const struct audit_entry *a, void *arg)
{
	if (strcmp(a->action, "create") != 0)
		return 0;
	cJSON *who = a->actor ? cJSON_Parse(a->actor) : NULL;
	const char *task = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(who, "task"));
	snprintf(arg, 37, "%s", task && strlen(task) == 36 ? task : "");
	cJSON_Delete(who);
	return 1;
}

static int
maker_of(struct store *st, const char *made, char id[37], struct err *e)
{
	id[0] = 0;
	return store_audit_list(st, made, 0, 0, maker_one, id, e);
}

int
agent_check_granted(struct store *st, const struct config *cf, const struct task *t,
    const char *mcp, const char *allow, struct err *e)
{
	if (!t->origin || strncmp(t->origin, "agent:run:", 10) != 0 || str_empty(mcp))
		return ST_OK;
	struct run r;
	struct task x;
	struct err ge;
	int rc;
	run_init(&r);
	rc = store_run_get(st, t->origin + 10, &r, &ge);
	char task_id[37];
	snprintf(task_id, sizeof task_id, "%s", rc ? "" : r.task_id);
	run_free(&r);
	/* The run pruned from the history: its task as the trail of t's making
	 * names it. */
	if (rc == ST_NOTFOUND && (rc = maker_of(st, t->id, task_id, &ge)) == ST_OK && !task_id[0])
		rc = ST_NOTFOUND;
	if (rc && rc != ST_NOTFOUND)
		return err_set(e, rc, "%s", ge.msg);
	/* Neither the run nor the trail say, or its task is deleted: what
	 * granted it cannot be shown to grant it now. */
	if (rc)
		return held_to_config(cf, t, mcp, "an agent made in a run no longer in the history", e);
	if ((rc = store_task_get(st, task_id, &x, &ge)) == ST_NOTFOUND)
		return held_to_config(cf, t, mcp, "an agent made in a run of a task since deleted", e);
	if (rc)
		return err_set(e, rc, "%s", ge.msg);
	if (x.deleted_at != TIME_NONE) {
		task_free(&x);
		return held_to_config(cf, t, mcp, "an agent made in a run of a task since deleted", e);
	}
	struct agent g;
	granted_by(cf, &x, &g);
	char *used = list_json(mcp), *pats = list_json(allow);
	struct err why;
	rc = agent_check_mcp(&g, used, pats, &why);
	if (rc) {
		struct buf b = {0};
		list_words(&b, g.servers, g.nservers);
		if (g.nallow) {
			buf_puts(&b, "; tools ");
			list_words(&b, g.allow, g.nallow);
		}
		rc = err_set(e, ST_REFUSED, "task '%.*s', which an agent made in a run of task '%.*s', "
		    "uses MCP access beyond what that task grants now (MCP servers %s); give it there, "
		    "or take it from the task (task-edit --mcp, --mcp-allow)", utf8_cut(t->name, 100),
		    t->name, utf8_cut(x.name, 100), x.name, b.data);
		buf_free(&b);
	}
	free(used);
	free(pats);
	agent_free(&g);
	task_free(&x);
	return rc;
}
