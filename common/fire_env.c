/* What firing hands its children, and its defaults (fire_env.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "fire_opts.h"
#include "fire_env.h"
#include "fire_input.h"
#include "utf8.h"
#include "notify.h"
#include "opt.h"
#include "run_file.h"
#include "spend.h"
#include "taskargs.h"
#include "task_json.h"

extern char **environ;

#define NOTIFY_OUTPUT 4096  /* bytes of output a notify hook gets */

static int
config_seconds(const struct config *cf, const char *key, long max, int *out, struct err *e)
{
	const char *v = cf ? config_get(cf, key) : NULL;
	long t;
	if (!v)
		return ST_OK;
	if (opt_number(key, v, "seconds", 1, max, &t, e))
		return err_set(e, ST_INVALID, "config: %s", e->msg);
	*out = (int)t;
	return ST_OK;
}

int
fire_opts_config(struct fire_opts *o, const struct config *cf, struct err *e)
{
	const char *v = getenv("TASK_EXEC");
	if (v && *v)
		o->exec = v;
	else if (cf && (v = config_get(cf, "exec")) && *v)
		o->exec = v;
	else
		o->exec = "llm-call";
	v = getenv("TASK_NOTIFY");
	if (!(v && *v) && cf)
		v = config_get(cf, "notify");
	o->notify = v && *v ? v : NULL;
	int rc = config_seconds(cf, "run_timeout", 86400 * 7, &o->timeout, e);
	if (!rc)
		rc = config_seconds(cf, "owner_timeout", 3600, &o->owner_timeout, e);
	unsigned mask;
	struct budget b;
	if (!rc && cf && (o->notify_on = config_get(cf, "notify_on")) &&
	    (rc = notify_on_parse(o->notify_on, &mask, e)))
		return err_set(e, rc, "config: notify_on: %s", e->msg);
	if (!rc && cf && (o->budget = config_get(cf, "budget")) && (rc = budget_parse(o->budget, &b, e)))
		return err_set(e, rc, "config: %s", e->msg);
	if (cf)
		o->budget_tz = config_get(cf, "tz");
	const char *dl = cf ? config_get(cf, "deadline") : NULL;
	long secs;
	if (!rc && dl && (parse_duration(dl, &secs) != 0 || secs > TASK_DEADLINE_MAX))
		return err_set(e, ST_INVALID, "config: bad deadline '%s': expected a duration like 90s,"
		    " 10m, 2h (at most 366d); 0 for none", dl);
	if (!rc && dl)
		o->deadline = (int)secs;
	if (!rc)
		rc = config_stagger(cf, &o->stagger, e);
	if (!rc)
		rc = config_limits(cf, &o->max_concurrent, e);
	o->cf = cf;
	return rc;
}

void
fire_clock_init(struct fire_clock *c, const struct store *st, int64_t now, int moving)
{
	const char *fixed = getenv("TASK_NOW");
	*c = (struct fire_clock){.set = fixed && *fixed, .fixed = !moving, .base = now,
		.mono0 = mono_ms(), .st = st};
}

int64_t
fire_clock_ms(const struct fire_clock *c)
{
	if (c->set)
		return c->base * 1000 + (c->fixed ? 0 : mono_ms() - c->mono0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + store_clock_skew_ms(c->st);
}

int64_t
fire_clock_now(void *clock)
{
	return floor_div(fire_clock_ms(clock), 1000);
}

static char **
make_env(const char *const *names, const char *const *values, size_t n)
{
	size_t ne = 0;
	for (char **p = environ; *p; p++)
		ne++;
	char **env = xcalloc(ne + n + 1, sizeof *env);
	size_t k = 0;
	for (char **p = environ; *p; p++) {
		int ours = 0;
		for (size_t i = 0; i < n && !ours; i++) {
			size_t l = strlen(names[i]);
			ours = strncmp(*p, names[i], l) == 0 && (*p)[l] == '=';
		}
		if (!ours)
			env[k++] = xstrdup(*p);
	}
	for (size_t i = 0; i < n; i++)
		env[k++] = xasprintf("%s=%s", names[i], values[i] ? values[i] : "");
	env[k] = NULL;
	return env;
}

/* A JSON array of strings as "a,b,c" (the executor contract's lists). */
static char *
json_list_csv(const char *json)
{
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	struct buf b = {0};
	buf_puts(&b, "");
	const cJSON *it;
	cJSON_ArrayForEach(it, a)
		if (cJSON_IsString(it))
			buf_printf(&b, "%s%s", b.len ? "," : "", it->valuestring);
	cJSON_Delete(a);
	return b.data;
}

int64_t
fire_slot_of(const struct task *t, const struct run *r)
{
	if (r->slot == TIME_NONE)
		return r->started_at;
	/* A one-shot's retry fires at its backoff instant: the occurrence it
	 * retries is the planned instant before it. */
	if (r->trigger == TRIGGER_RETRY && (t->kind == KIND_AT || t->kind == KIND_PLAN)) {
		int64_t s = TIME_NONE;
		for (size_t i = 0; i < t->nplan && t->plan[i] <= r->slot; i++)
			s = t->plan[i];
		if (s != TIME_NONE)
			return s;
	}
	return r->slot;
}

char **
fire_exec_env(const struct task *t, const struct run *r, const char *db)
{
	static const char *const names[] = {"TASK_ID", "TASK_NAME", "TASK_RUN_ID", "TASK_TRIGGER",
		"TASK_SYSTEM_PROMPT", "TASK_CONTEXT", "TASK_MODEL", "TASK_ATTACHMENTS", "TASK_INTENT",
		"TASK_CHANNEL", "TASK_PAYLOAD", "TASK_DB", "TASK_MCP", "TASK_MCP_ALLOW", "TASK_SCOPE",
		"TASK_SLOT", "TASK_ATTEMPT", "TASK_ORIGIN", "TASK_FALLBACK_MODELS"};
	char *mcp = json_list_csv(t->mcp), *allow = json_list_csv(t->mcp_allow);
	char *fallback = json_list_csv(t->fallback_models);
	char slot[40] = "", attempt[16];
	int64_t s = fire_slot_of(t, r);
	if (s != TIME_NONE)
		time_fmt_utc(s, slot, sizeof slot);
	snprintf(attempt, sizeof attempt, "%d", r->attempt > 0 ? r->attempt : 1);
	const char *values[] = {t->id, t->name, r->id, run_trigger_name(r->trigger),
		t->system_prompt, t->context, t->model, t->attachments ? t->attachments : "[]", t->intent,
		t->channel, !t->payload ? "{}" : strlen(t->payload) > FIRE_PAYLOAD_ENV_MAX ? "" : t->payload, db, mcp, allow, t->scope, slot, attempt,
		t->origin && strncmp(t->origin, "agent:", 6) == 0 ? "agent" : "user", fallback};
	char **env = make_env(names, values, sizeof names / sizeof names[0]);
	free(fallback);
	free(mcp);
	free(allow);
	return env;
}

int
fire_task_payload(const struct task *t, const char *run_id, char ***envp, char **file,
    struct err *e)
{
	*file = NULL;
	if (!t->payload || strlen(t->payload) <= FIRE_PAYLOAD_ENV_MAX)
		return ST_OK;
	int fd;
	char *path;
	int rc = run_file_new("payload", run_id, &fd, &path, e);
	if (rc)
		return rc;
	size_t n = strlen(t->payload), off = 0;
	int err = 0;
	while (off < n && !err) {
		ssize_t w = write(fd, t->payload + off, n - off);
		if (w > 0)
			off += (size_t)w;
		else if (!(w < 0 && errno == EINTR))
			err = w < 0 ? errno : EIO;
	}
	if (close(fd) != 0 && !err)
		err = errno;
	if (err) {
		unlink(path);
		free(path);
		return err_set(e, ST_ERR, "cannot write a payload file: %s", strerror(err));
	}
	fire_env_set(envp, "TASK_PAYLOAD_FILE", path);
	*file = path;
	return ST_OK;
}

void
fire_env_set(char ***envp, const char *name, const char *value)
{
	size_t n = 0, len = strlen(name);
	for (char **p = *envp; *p; p++)
		if (strncmp(*p, name, len) != 0 || (*p)[len] != '=')
			(*envp)[n++] = *p;
		else
			free(*p);
	*envp = xrealloc(*envp, (n + 2) * sizeof **envp);
	(*envp)[n++] = xasprintf("%s=%s", name, value);
	(*envp)[n] = NULL;
}

void
fire_env_password(char ***envp, const char *pw)
{
	if (pw)
		fire_env_set(envp, "PGPASSWORD", pw);
}

char **
fire_hook_env(const struct hook_event *ev, const char *db)
{
	static const char *const names[] = {"TASK_ID", "TASK_NAME", "TASK_EVENT", "TASK_DB",
		"TASK_RUN_ID", "TASK_STATUS"};
	const struct run *r = ev->run;
	const char *values[] = {ev->task_id, ev->name, notify_event_name(ev->event), db,
		r ? r->id : "", r ? run_status_name(r->status) : ""};
	return make_env(names, values, sizeof names / sizeof names[0]);
}

static cJSON *
json_str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

char *
fire_hook_event(const struct hook_event *ev)
{
	static const struct run none = {.slot = TIME_NONE, .started_at = TIME_NONE,
		.ended_at = TIME_NONE, .exit_code = -1, .trigger = -1, .status = -1};
	const struct run *r = ev->run ? ev->run : &none;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", notify_event_name(ev->event));
	cJSON_AddStringToObject(o, "task_id", ev->task_id);
	cJSON_AddStringToObject(o, "name", ev->name ? ev->name : "");
	cJSON_AddItemToObject(o, "reason", json_str_or_null(ev->reason));
	cJSON_AddItemToObject(o, "run_id", json_str_or_null(ev->run ? r->id : NULL));
	cJSON_AddItemToObject(o, "trigger", json_str_or_null(r->trigger >= 0
	    ? run_trigger_name(r->trigger) : NULL));
	cJSON_AddItemToObject(o, "status", json_str_or_null(r->status >= 0
	    ? run_status_name(r->status) : NULL));
	cJSON_AddItemToObject(o, "exit_code", r->exit_code < 0 ? cJSON_CreateNull()
	    : cJSON_CreateNumber(r->exit_code));
	cJSON_AddItemToObject(o, "slot", json_time(r->slot));
	cJSON_AddItemToObject(o, "started_at", json_time(r->started_at));
	cJSON_AddItemToObject(o, "ended_at", json_time(r->ended_at));
	cJSON_AddNumberToObject(o, "duration_ms", (double)(r->duration_ms > 0 ? r->duration_ms : 0));
	size_t nout = r->output ? strlen(r->output) : 0;
	char *out = xstrndup(r->output ? r->output : "", NOTIFY_OUTPUT);
	cJSON_AddStringToObject(o, "output", out);
	cJSON_AddBoolToObject(o, "output_truncated", nout > NOTIFY_OUTPUT);
	free(out);
	cJSON_AddItemToObject(o, "error", r->error ? cJSON_CreateString(r->error) : cJSON_CreateNull());
	if (ev->diff) {
		size_t ndiff = strlen(ev->diff);
		char *d = xstrndup(ev->diff, (size_t)utf8_cut(ev->diff, NOTIFY_OUTPUT));
		cJSON_AddStringToObject(o, "diff", d);
		cJSON_AddBoolToObject(o, "diff_truncated", ndiff > NOTIFY_OUTPUT);
		free(d);
	}
	char *text = json_print_line(o);
	cJSON_Delete(o);
	char *line = xasprintf("%s\n", text);
	free(text);
	return line;
}
