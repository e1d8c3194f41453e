/* task-web's JSON API and its actions (web_impl.h).  Objects are those of
 * the command line's --json (task_to_json, run_to_json); actions go
 * through the store calls task-run --queue, task-edit, task-rm use, and
 * each is logged with the name of the token that asked. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "log_view.h"
#include "store_audit.h"
#include "store.h"
#include "task_json.h"
#include "taskargs.h"
#include "web_api.h"
#include "web_http.h"
#include "utf8.h"
#include "web_search.h"

#define API_LIST_MAX 1000        /* objects in one answer, at most */

static int
http_status(int rc)
{
	return rc == ST_NOTFOUND ? 404 : rc == ST_REFUSED ? 409 : rc == ST_INVALID ? 400 : 503;
}

/* The segment after prefix, up to the next '/', into out; the rest in *rest. */
static int
path_id(const char *path, const char *prefix, char *out, size_t n, const char **rest)
{
	size_t l = strlen(prefix);
	if (strncmp(path, prefix, l) != 0)
		return 0;
	const char *p = path + l;
	size_t k = strcspn(p, "/");
	if (k == 0 || k >= n)
		return 0;
	memcpy(out, p, k);
	out[k] = 0;
	*rest = p + k;
	return 1;
}

static long
arg_limit(const struct web_req *rq, long dflt)
{
	const char *s = web_arg(rq->query, rq->nquery, "limit");
	char *end;
	long v = s ? strtol(s, &end, 10) : dflt;
	if (!s)
		return dflt;
	if (*s == 0 || *end || v < 1)
		return -1;
	return v > API_LIST_MAX ? API_LIST_MAX : v;
}

struct collect {
	cJSON *arr;
	struct zones *zs;
	long left;
	struct log_view *lv;     /* runs: their tasks' names, as task-log --json */
};

/* A run's object as task-log --json prints it: with its task's name. */
static cJSON *
run_json(struct log_view *lv, const struct run *r)
{
	const struct task *t = log_task_of(lv, r->task_id);
	cJSON *o = run_to_json(r);
	cJSON_AddStringToObject(o, "name", t && t->name ? t->name : "(deleted)");
	return o;
}

static int
take_task(const struct task *t, void *arg)
{
	struct collect *c = arg;
	cJSON_AddItemToArray(c->arr, task_to_json(t, c->zs));
	return --c->left <= 0;
}

static int
take_run(const struct run *r, void *arg)
{
	struct collect *c = arg;
	cJSON_AddItemToArray(c->arr, run_json(c->lv, r));
	return --c->left <= 0;
}

/* A list's answer: its objects, or, when rc failed, the error e says (the
 * objects dropped).  Returns 1, answered. */
static int
list_answer(struct web_resp *rs, int rc, cJSON *arr, const struct err *e)
{
	if (rc) {
		cJSON_Delete(arr);
		web_error(rs, http_status(rc), 1, "%s", e->msg);
		return 1;
	}
	web_json(rs, 200, arr);
	return 1;
}

/* ?status=LIST (task statuses and "paused") into f; -1 on a bad one. */
int
web_task_filter(const struct web_req *rq, struct task_filter *f)
{
	const char *s = web_arg(rq->query, rq->nquery, "status");
	if (s && *s) {
		char *dup = xstrdup(s), *save = NULL;
		for (char *w = strtok_r(dup, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int v = task_status_parse(w);
			if (strcmp(w, "paused") == 0) {
				f->paused = 1;
			} else if (strcmp(w, "disabled") == 0) {
				f->enabled = 0;
			} else if (v < 0) {
				free(dup);
				return -1;
			} else {
				f->statuses |= 1u << v;
			}
		}
		free(dup);
	}
	/* Name or prompt, in any case: looked for by the store. */
	f->text = web_arg(rq->query, rq->nquery, "q");
	if (f->text && !*f->text)
		f->text = NULL;
	f->scope = web_arg(rq->query, rq->nquery, "scope");
	if (f->scope && !*f->scope)
		f->scope = NULL;
	return 0;
}

#define STATUS_TOOL_MS 20000     /* task-status answers within this, or is ended */

extern char **environ;

/* task-status with one option, its standard output into out: the very
 * object (or metrics) it prints, not a second rendering of them.  0 when
 * it exited 0. */
static int
status_tool(struct web *w, const char *opt, struct buf *out)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", 0, 0);
	char *argv[] = {w->status_tool, (char *)opt, NULL};
	pid_t pid;
	int rc = posix_spawn(&pid, w->status_tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		return -1;
	}
	int64_t until = mono_ms() + STATUS_TOOL_MS;
	char chunk[8192];
	for (;;) {
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		int64_t left = until - mono_ms();
		int r = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		ssize_t n = r > 0 ? read(fds[0], chunk, sizeof chunk) : -1;
		if (n > 0 && out->len + (size_t)n <= 4 * WEB_BODY_MAX) {
			buf_add(out, chunk, (size_t)n);
			continue;
		}
		if (n != 0)
			kill(pid, SIGKILL);
		break;
	}
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int
web_api_get(struct web *w, const struct web_req *rq, const struct web_who *who, struct web_resp *rs)
{
	char id[80], full[37];
	const char *rest;
	struct err e = {{0}};
	int rc;
	(void)who;
	int metrics = strcmp(rq->path, "/metrics") == 0;
	if (metrics || strcmp(rq->path, "/api/status") == 0) {
		struct buf out = {0};
		if (status_tool(w, metrics ? "--prometheus" : "--json", &out)) {
			buf_free(&out);
			web_error(rs, 503, !metrics, "task-status could not say (see task-web's log)");
			return 1;
		}
		rs->status = 200;
		rs->content_type = metrics ? "text/plain; version=0.0.4; charset=utf-8" : "application/json";
		rs->body = out;
		return 1;
	}
	if (strcmp(rq->path, "/api/tasks") == 0) {
		struct task_filter f;
		task_filter_init(&f);
		struct collect c = {cJSON_CreateArray(), w->zs, arg_limit(rq, API_LIST_MAX), NULL};
		if (c.left < 0 || web_task_filter(rq, &f)) {
			cJSON_Delete(c.arr);
			web_error(rs, 400, 1, "bad limit or status (pending, running, completed, failed,"
			    " cancelled, paused, disabled)");
			return 1;
		}
		f.limit = c.left;
		/* A text too short for the trigram index, or the answers after a
		 * full one: a bounded walk, and a Link header to go on from where
		 * it stopped. */
		struct web_keyset from, next;
		int cut = 0;
		if (!(f.text && web_search_short(f.text)) && !web_arg(rq->query, rq->nquery, "after")) {
			rc = store_task_list(w->st, &f, take_task, &c, &e);
			cJSON *last = cJSON_GetArrayItem(c.arr, (int)f.limit - 1);
			const char *lid = last ? cJSON_GetStringValue(cJSON_GetObjectItem(last, "id")) : NULL;
			int k = !rc && lid ? store_web_task_keyset(w->st, lid, &next, &e) : ST_NOTFOUND;
			if (k && k != ST_NOTFOUND)
				rc = k;
			cut = !k;
		} else if (!web_search_after(rq, &from)) {
			cJSON_Delete(c.arr);
			web_error(rs, 400, 1, "bad 'after' (KEY.SEQ, from a Link header)");
			return 1;
		} else {
			rc = store_web_task_walk(w->st, &f, from, WEB_WALK_EXAMINE, take_task, &c, &cut,
			    &next, &e);
		}
		if (!rc && cut) {
			static const char *const keep[] = {"status", "scope", "limit", NULL};
			struct buf link = {0};
			web_search_next(&link, "/api/tasks", rq, f.text, keep, "&", next);
			int fits = link.len < sizeof rs->link_next;
			if (fits)
				memcpy(rs->link_next, link.data, link.len + 1);
			buf_free(&link);
			if (!fits) {
				cJSON_Delete(c.arr);
				web_error(rs, 400, 1, "the query is too long to go on from");
				return 1;
			}
		}
		return list_answer(rs, rc, c.arr, &e);
	}
	if (path_id(rq->path, "/api/tasks/", id, sizeof id, &rest) && !*rest) {
		struct task t;
		if ((rc = store_task_resolve(w->st, id, 0, full, &e)) ||
		    (rc = store_task_get(w->st, full, &t, &e))) {
			web_error(rs, http_status(rc), 1, "%s", e.msg);
			return 1;
		}
		web_json(rs, 200, task_to_json(&t, w->zs));
		task_free(&t);
		return 1;
	}
	if (strcmp(rq->path, "/api/runs") == 0) {
		struct run_filter f;
		run_filter_init(&f);
		const char *task = web_arg(rq->query, rq->nquery, "task");
		const char *st = web_arg(rq->query, rq->nquery, "status");
		struct log_view lv = {.st = w->st, .zs = w->zs};
		struct collect c = {cJSON_CreateArray(), w->zs, arg_limit(rq, 100), &lv};
		if (c.left < 0 || (st && (f.status = run_status_parse(st)) < 0)) {
			cJSON_Delete(c.arr);
			web_error(rs, 400, 1, "bad limit or status");
			return 1;
		}
		if (task && (rc = store_task_resolve(w->st, task, 0, full, &e)))
			return list_answer(rs, rc, c.arr, &e);
		/* ?before=RUN: the runs listed after it, as the next page. */
		const char *from = web_arg(rq->query, rq->nquery, "before");
		struct run after;
		run_init(&after);
		if (from && (rc = store_run_get(w->st, from, &after, &e))) {
			run_free(&after);
			return list_answer(rs, rc, c.arr, &e);
		}
		f.before = from ? after.id : NULL;
		f.task_id = task ? full : NULL;
		f.limit = c.left;
		rc = store_run_list(w->st, &f, take_run, &c, &e);
		run_free(&after);
		log_view_free(&lv);
		return list_answer(rs, rc, c.arr, &e);
	}
	if (path_id(rq->path, "/api/runs/", id, sizeof id, &rest) && !*rest) {
		struct run r;
		run_init(&r);
		if ((rc = store_run_get(w->st, id, &r, &e))) {
			run_free(&r);
			web_error(rs, http_status(rc), 1, "%s", e.msg);
			return 1;
		}
		struct log_view lv = {.st = w->st, .zs = w->zs};
		web_json(rs, 200, run_json(&lv, &r));
		log_view_free(&lv);
		run_free(&r);
		return 1;
	}
	return 0;
}

/* ---- actions ---- */

struct act {
	struct web *w;
	const struct web_who *who;
	int64_t now;
	struct err e;
	int queued;              /* a run was queued: 202 */
};

static int
act_queue(struct act *a, const char *id)
{
	int rc = store_task_queue(a->w->st, id, a->now, &a->e);
	if (!rc) {
		store_wake(a->w->st);
		a->queued = 1;
	}
	return rc;
}

/* Pause (enabled 0, with the reason on record, as a pause for failures
 * is) or resume (task-edit --enable, which ends either). */
static int
act_pause(struct act *a, const char *id, int pause, const char *reason)
{
	struct task old, t;
	struct task_args ta;
	int rc, changed = 0;
	struct store *st = a->w->st;
	if ((rc = store_begin(st, &a->e)))
		return rc;
	if ((rc = store_task_get(st, id, &old, &a->e))) {
		store_rollback(st);
		return rc;
	}
	if (old.status == STATUS_RUNNING) {
		task_free(&old);
		store_rollback(st);
		return err_set(&a->e, ST_REFUSED, "task '%.8s' is running; %s it when the run has finished",
		    id, pause ? "pause" : "resume");
	}
	task_copy(&t, &old);
	taskargs_init(&ta);
	ta.enabled = !pause;
	rc = taskargs_apply(&ta, &t, a->now, a->w->zs, &changed, &a->e);
	if (!rc && pause) {
		char *why = xasprintf("%s (by %s)", reason, a->who->name);
		set_str(&t.paused, why);
		free(why);
	}
	if (!rc)
		rc = task_finalize(&t, 0, 1, a->now, a->w->zs, &a->e);
	if (!rc)
		rc = store_task_put(st, &t, &a->e);
	if (!rc)
		rc = store_commit(st, &a->e);
	if (rc)
		store_rollback(st);
	else
		store_wake(st);
	taskargs_free(&ta);
	task_free(&old);
	task_free(&t);
	return rc;
}

static int
act_delete(struct act *a, const char *id)
{
	struct store *st = a->w->st;
	int rc = store_begin(st, &a->e);
	if (!rc && !(rc = store_task_trash(st, id, a->now, &a->e)))
		rc = store_commit(st, &a->e);
	if (rc)
		store_rollback(st);
	else
		store_wake(st);
	return rc;
}

/* Ask the run's owner to end it, as a replacing occurrence does: any
 * owner (task-tick, task-run) looks for such a request while it runs. */
static int
act_cancel(struct act *a, const struct run *r)
{
	if (r->status != RUN_RUNNING)
		return err_set(&a->e, ST_REFUSED, "run '%.8s' is not running (it is %s)", r->id,
		    run_status_name(r->status));
	/* Its owner looks for the note every few seconds and ends the run. */
	int rc;
	char *note = xasprintf(STORE_CANCEL_NOTE "cancelled by %s in task-web", a->who->name);
	rc = store_run_note(a->w->st, r->id, note, &a->e);
	free(note);
	if (!rc)
		store_wake(a->w->st);
	return rc;
}

#define REASON_MAX 500             /* bytes of a pause's reason */
#define REASON_MAX_TEXT "500"

/* A pause's reason is one line of text as task-show prints it after
 * "paused:": no control (a newline, a terminal's escape), no bidi control
 * that would turn the "(by NAME)" after it around, and short. */
static const char *
reason_bad(const char *r)
{
	size_t n = strlen(r);
	if (n > REASON_MAX)
		return "is over " REASON_MAX_TEXT " bytes";
	if (!utf8_line(r, n))
		return "is not one line of UTF-8 text (a control character or bytes that are not UTF-8)";
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		i += utf8_next(r + i, n - i, &cp);
		if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
			return "holds a bidirectional control character";
	}
	return NULL;
}

static void
redirect_back(struct web_resp *rs, const struct web_kv *form, size_t n, const char *dflt)
{
	const char *back = web_arg(form, n, "back");
	/* Only a path of this site: never an open redirect. */
	if (!back || back[0] != '/' || back[1] == '/' || back[1] == '\\' || strpbrk(back, "\r\n") ||
	    strlen(back) >= sizeof rs->location)
		back = dflt;
	rs->status = 303;
	snprintf(rs->location, sizeof rs->location, "%s", back);
}

static int
action(struct web *w, const struct web_req *rq, const struct web_who *who,
    const struct web_kv *form, size_t nform, struct web_resp *rs)
{
	char arg[80], id[37], back[64];
	const char *verb;
	int on_run = 0, bulk = strcmp(rq->path, "/tasks/bulk") == 0;
	if (bulk)
		verb = "";
	else if (path_id(rq->path, "/tasks/", arg, sizeof arg, &verb) && *verb == '/')
		verb++;
	else if (path_id(rq->path, "/runs/", arg, sizeof arg, &verb) && *verb == '/')
		verb++, on_run = 1;
	else
		return 0;
	static const char *const task_verbs[] = {"run", "pause", "resume", "delete", NULL};
	static const char *const run_verbs[] = {"cancel", "rerun", NULL};
	const char *const *verbs = on_run ? run_verbs : task_verbs;
	int known = bulk;
	for (int i = 0; verbs[i] && !known; i++)
		known = strcmp(verb, verbs[i]) == 0;
	if (!known)
		return 0;
	int json = who->bearer;
	if (who->read_only) {
		web_error(rs, 403, json, "%s: actions are refused", w->read_only ? "task-web is read-only"
		    : "this token is read-only");
		return 1;
	}
	struct act a = {.w = w, .who = who, .e = {{0}}};
	int rc = now_get(&a.now, &a.e);
	const char *reason = web_arg(form, nform, "reason");
	if (bulk) {
		const char *what = web_arg(form, nform, "action");
		int pause = what && strcmp(what, "pause") == 0;
		if (!what || (!pause && strcmp(what, "resume") != 0)) {
			web_error(rs, 400, json, "bulk action: give action=pause or action=resume");
			return 1;
		}
		if (pause && str_empty(reason)) {
			web_error(rs, 400, json, "a pause needs a reason");
			return 1;
		}
		if (pause && reason_bad(reason)) {
			web_error(rs, 400, json, "the pause's reason %s", reason_bad(reason));
			return 1;
		}
		/* Nothing ticked is a mistake to say, not "0 tasks" done. */
		if (!web_arg(form, nform, "id")) {
			web_error(rs, 400, json, "bulk action: no task selected (give one id per task)");
			return 1;
		}
		long done = 0, bad = 0;
		for (size_t i = 0; i < nform && !rc; i++) {
			if (strcmp(form[i].key, "id") != 0)
				continue;
			int one = store_task_resolve(w->st, form[i].value, 0, id, &a.e);
			if (!one)
				one = act_pause(&a, id, pause, reason);
			if (one == ST_ERR)
				rc = one;
			else if (one)
				bad++;
			else
				done++;
		}
		if (!rc) {
			snprintf(rs->log, sizeof rs->log, "%s: %s %ld task%s (%ld refused)", who->name,
			    pause ? "paused" : "resumed", done, done == 1 ? "" : "s", bad);
			if (json) {
				cJSON *j = cJSON_CreateObject();
				cJSON_AddNumberToObject(j, "done", (double)done);
				cJSON_AddNumberToObject(j, "refused", (double)bad);
				web_json(rs, 200, j);
			} else {
				redirect_back(rs, form, nform, "/tasks");
			}
			return 1;
		}
	}
	struct run r;
	run_init(&r);
	if (!rc && on_run && !(rc = store_run_get(w->st, arg, &r, &a.e)))
		snprintf(id, sizeof id, "%s", r.task_id);
	else if (!rc && !on_run)
		rc = store_task_resolve(w->st, arg, 0, id, &a.e);
	if (!rc) {
		/* The trail says what was asked, not what it amounts to. */
		if (!strcmp(verb, "run") || !strcmp(verb, "rerun") || !strcmp(verb, "resume"))
			store_audit_action(w->st, verb);
		if (!strcmp(verb, "run") || !strcmp(verb, "rerun"))
			rc = act_queue(&a, id);
		else if (!strcmp(verb, "pause") && str_empty(reason))
			rc = err_set(&a.e, ST_INVALID, "a pause needs a reason (the form field 'reason')");
		else if (!strcmp(verb, "pause") && reason_bad(reason))
			rc = err_set(&a.e, ST_INVALID, "the pause's reason %s", reason_bad(reason));
		else if (!strcmp(verb, "pause") || !strcmp(verb, "resume"))
			rc = act_pause(&a, id, verb[0] == 'p', reason);
		else if (!strcmp(verb, "delete"))
			rc = act_delete(&a, id);
		else
			rc = act_cancel(&a, &r);
	}
	if (rc) {
		run_free(&r);
		web_error(rs, http_status(rc), json, "%s", a.e.msg);
		return 1;
	}
	snprintf(rs->log, sizeof rs->log, "%s: %s %s %.8s%s%s", who->name, verb,
	    on_run ? "run" : "task", on_run ? r.id : id, reason && *reason ? ": " : "",
	    reason && *reason ? reason : "");
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "task", id);
		if (on_run)
			cJSON_AddStringToObject(j, "run", r.id);
		cJSON_AddStringToObject(j, "done", verb);
		if (a.queued)
			cJSON_AddTrueToObject(j, "queued");
		web_json(rs, a.queued ? 202 : 200, j);
	} else {
		snprintf(back, sizeof back, strcmp(verb, "delete") ? "/tasks/%s" : "/tasks", id);
		redirect_back(rs, form, nform, back);
	}
	run_free(&r);
	return 1;
}

/* Each action is on the audit trail as the token's (a session's: "login"). */
int
web_action(struct web *w, const struct web_req *rq, const struct web_who *who,
    const struct web_kv *form, size_t nform, struct web_resp *rs)
{
	char *actor = audit_actor_token(who->name);
	store_audit_by(w->st, actor);
	free(actor);
	int done = action(w, rq, who, form, nform, rs);
	store_audit_by(w->st, NULL);
	store_audit_action(w->st, NULL);
	return done;
}
