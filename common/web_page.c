/* task-web's pages (web_impl.h): HTML the server writes, with its own
 * small stylesheet and script served from /static/ (the page's
 * Content-Security-Policy allows no other, and no inline script).  Charts
 * are SVG drawn here.  Every form carries the session's CSRF token. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_history.h"
#include "web_impl.h"

#define PAGE_TASKS 500           /* rows of the tasks page, at most */
#define PAGE_RUNS 50             /* a task's runs shown */

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\n"
    "header{background:#234;color:#fff;padding:.5em 1em}header a{color:#fff;margin-right:1em}\n"
    "main{padding:1em}table{border-collapse:collapse;background:#fff}\n"
    "td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}\n"
    "pre{background:#fff;border:1px solid #ddd;padding:.5em;white-space:pre-wrap;max-width:100em}\n"
    ".failed,.timeout,.interrupted{color:#b00}.success{color:#070}.running{color:#05a}\n"
    "form.inline{display:inline-block;margin:.2em .5em .2em 0}.muted{color:#777}\n"
    "svg{background:#fff;border:1px solid #ddd}.bar{fill:#58a}.bad{fill:#c44}\n";

/* Polling: a page marked data-poll reloads its content every 10 s while
 * it is visible, and stops while the tab is hidden. */
static const char js[] =
    "'use strict';\n"
    "(function () {\n"
    "  var body = document.body, timer = null;\n"
    "  document.querySelectorAll('[data-confirm]').forEach(function (f) {\n"
    "    f.addEventListener('submit', function (ev) {\n"
    "      if (!window.confirm(f.getAttribute('data-confirm'))) ev.preventDefault();\n"
    "    });\n"
    "  });\n"
    "  function refresh() {\n"
    "    fetch(location.href, {credentials: 'same-origin'}).then(function (r) {\n"
    "      return r.ok ? r.text() : null;\n"
    "    }).then(function (html) {\n"
    "      if (!html) return;\n"
    "      var doc = new DOMParser().parseFromString(html, 'text/html');\n"
    "      var fresh = doc.getElementById('live'), old = document.getElementById('live');\n"
    "      if (fresh && old) old.replaceWith(fresh);\n"
    "    }).catch(function () {});\n"
    "  }\n"
    "  function arm() {\n"
    "    if (timer) { clearInterval(timer); timer = null; }\n"
    "    if (!document.hidden && body.hasAttribute('data-poll')) timer = setInterval(refresh, 10000);\n"
    "  }\n"
    "  document.addEventListener('visibilitychange', arm);\n"
    "  arm();\n"
    "})();\n";

static void
head(struct buf *b, const char *title, int poll)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_esc(b, title);
	buf_puts(b, " - agentcron</title><link rel=\"stylesheet\" href=\"/static/web.css\">"
	    "<link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">"
	    "<script src=\"/static/web.js\" defer></script></head>\n<body");
	if (poll)
		buf_puts(b, " data-poll");
	buf_puts(b, "><header><a href=\"/\">agentcron</a><a href=\"/tasks\">Tasks</a></header>\n<main>\n");
}

static void
page_end(struct web_resp *rs, struct buf *b)
{
	buf_puts(b, "</main></body></html>\n");
	rs->status = rs->status ? rs->status : 200;
	rs->content_type = "text/html; charset=utf-8";
	buf_free(&rs->body);
	rs->body = *b;
}

void
web_login_page(struct web_resp *rs, int status, const char *why)
{
	struct buf b = {0};
	head(&b, "Log in", 0);
	buf_puts(&b, "<h1>Log in</h1>\n");
	if (why) {
		buf_puts(&b, "<p class=\"failed\">");
		html_esc(&b, why);
		buf_puts(&b, "</p>\n");
	}
	buf_puts(&b, "<p>Open the login link task-web printed when it started, or give a token"
	    " (<code>task-web --new-token NAME</code>).</p>\n"
	    "<form method=\"post\" action=\"/login\"><input type=\"password\" name=\"token\""
	    " autocomplete=\"off\" aria-label=\"token\"> <button>Log in</button></form>\n");
	rs->status = status;
	page_end(rs, &b);
}

static void
csrf_field(struct buf *b, const struct web_who *who)
{
	if (!who->sess)
		return;
	buf_printf(b, "<input type=\"hidden\" name=\"csrf\" value=\"%s\">", who->sess->csrf);
}

/* A one-button form for an action, or nothing for a reader. */
static void
action(struct buf *b, const struct web_who *who, const char *path, const char *label,
    const char *confirm, int with_reason)
{
	if (who->read_only)
		return;
	buf_puts(b, "<form class=\"inline\" method=\"post\" action=\"");
	html_esc(b, path);
	buf_puts(b, "\"");
	if (confirm) {
		buf_puts(b, " data-confirm=\"");
		html_esc(b, confirm);
		buf_puts(b, "\"");
	}
	buf_puts(b, ">");
	csrf_field(b, who);
	if (with_reason)
		buf_puts(b, "<input name=\"reason\" required placeholder=\"reason\" aria-label=\"reason\"> ");
	buf_puts(b, "<button>");
	html_esc(b, label);
	buf_puts(b, "</button></form>\n");
}

static void
time_cell(struct buf *b, struct web *w, const struct task *t, int64_t when)
{
	char s[96];
	if (t)
		task_fmt_time(t, w->zs, when, TIME_WALL_ZONE, s, sizeof s);
	else
		zone_fmt_time(w->zs, "UTC", when, TIME_WALL_ZONE, s, sizeof s);
	buf_puts(b, "<td>");
	html_esc(b, s);
	buf_puts(b, "</td>");
}

/* ---- overview ---- */

struct counts {
	struct buf *b;
};

static void
count_row(const char *status, long long n, void *arg)
{
	struct buf *b = arg;
	buf_printf(b, "<tr><td class=\"%s\">", status);
	html_esc(b, status);
	buf_printf(b, "</td><td>%lld</td></tr>\n", n);
}

static int
overview(struct web *w, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	int64_t now;
	char *paused = NULL;
	static const char *const names[] = {"pending", "running", "completed", "failed", "cancelled"};
	head(&b, "Overview", 1);
	buf_puts(&b, "<div id=\"live\"><h1>Overview</h1>\n");
	int rc = now_get(&now, &e);
	if (!rc)
		rc = store_setting_get(w->st, STORE_SETTING_PAUSED, &paused, &e);
	if (!rc && paused) {
		buf_puts(&b, "<p class=\"failed\">Firing is paused since ");
		html_esc(&b, paused);
		buf_puts(&b, " (task-tick --resume).</p>\n");
	}
	free(paused);
	buf_puts(&b, "<h2>Tasks</h2><table><tr><th>status</th><th>tasks</th></tr>\n");
	for (int s = 0; !rc && s < 5; s++) {
		struct task_filter f;
		long n = 0;
		task_filter_init(&f);
		f.statuses = 1u << s;
		if (!(rc = store_task_count(w->st, &f, &n, &e)))
			buf_printf(&b, "<tr><td><a href=\"/tasks?status=%s\">%s</a></td><td>%ld</td></tr>\n",
			    names[s], names[s], n);
	}
	buf_puts(&b, "</table>\n<h2>Runs of the last 24 hours</h2><table>"
	    "<tr><th>status</th><th>runs</th></tr>\n");
	if (!rc)
		rc = store_run_counts(w->st, now - 86400, count_row, &b, &e);
	buf_puts(&b, "</table></div>\n");
	if (rc) {
		buf_free(&b);
		web_error(rs, 503, 0, "%s", e.msg);
		return 1;
	}
	page_end(rs, &b);
	return 1;
}

/* ---- tasks ---- */

struct rows {
	struct web *w;
	struct buf *b;
	const struct web_who *who;
	const char *text;
	long n;
};

static int
task_row(const struct task *t, void *arg)
{
	struct rows *r = arg;
	struct buf *b = r->b;
	char sched[256];
	if (r->text && *r->text && !strcasestr(t->name ? t->name : "", r->text) &&
	    !strcasestr(t->prompt ? t->prompt : "", r->text))
		return 0;
	task_describe(t, r->w->zs, sched, sizeof sched);
	buf_puts(b, "<tr>");
	if (!r->who->read_only)
		buf_printf(b, "<td><input type=\"checkbox\" name=\"id\" value=\"%s\" form=\"bulk\""
		    " aria-label=\"select\"></td>", t->id);
	buf_printf(b, "<td><a href=\"/tasks/%s\">", t->id);
	html_esc(b, t->name);
	buf_printf(b, "</a></td><td class=\"%s\">%s%s</td><td>", task_status_name(t->status),
	    task_status_name(t->status), t->paused ? " (paused)" : t->enabled ? "" : " (disabled)");
	html_esc(b, sched);
	buf_puts(b, "</td>");
	time_cell(b, r->w, t, t->next_run_at);
	buf_puts(b, "</tr>\n");
	return ++r->n >= PAGE_TASKS;
}

static int
tasks_page(struct web *w, const struct web_req *rq, const struct web_who *who, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	struct task_filter f;
	task_filter_init(&f);
	const char *q = web_arg(rq->query, rq->nquery, "q"), *st = web_arg(rq->query, rq->nquery,
	    "status");
	if (web_task_filter(rq, &f)) {
		web_error(rs, 400, 0, "bad status '%s'", st);
		return 1;
	}
	head(&b, "Tasks", 1);
	buf_puts(&b, "<h1>Tasks</h1>\n<form method=\"get\" action=\"/tasks\" id=\"filter\">"
	    "<input name=\"q\" placeholder=\"name or prompt\" aria-label=\"text\" value=\"");
	html_esc(&b, q);
	buf_puts(&b, "\"> <select name=\"status\" aria-label=\"status\"><option value=\"\">any status</option>");
	static const char *const opts[] = {"pending", "running", "completed", "failed", "cancelled",
		"paused", "disabled"};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		buf_printf(&b, "<option%s>%s</option>", st && !strcmp(st, opts[i]) ? " selected" : "",
		    opts[i]);
	buf_puts(&b, "</select> <button>Filter</button></form>\n");
	if (!who->read_only) {
		buf_puts(&b, "<form method=\"post\" action=\"/tasks/bulk\" id=\"bulk\">");
		csrf_field(&b, who);
		buf_puts(&b, "Selected: <select name=\"action\" aria-label=\"action\"><option>pause</option>"
		    "<option>resume</option></select> <input name=\"reason\" placeholder=\"reason (to pause)\""
		    " aria-label=\"reason\"> <button>Apply</button></form>\n");
	}
	buf_puts(&b, "<div id=\"live\"><table><tr>");
	if (!who->read_only)
		buf_puts(&b, "<th></th>");
	buf_puts(&b, "<th>name</th><th>status</th><th>schedule</th><th>next run</th></tr>\n");
	struct rows r = {w, &b, who, q, 0};
	int rc = store_task_list(w->st, &f, task_row, &r, &e);
	buf_printf(&b, "</table><p class=\"muted\">%ld task%s</p></div>\n", r.n, r.n == 1 ? "" : "s");
	if (rc) {
		buf_free(&b);
		web_error(rs, 503, 0, "%s", e.msg);
		return 1;
	}
	page_end(rs, &b);
	return 1;
}

/* ---- a task ---- */

struct runs {
	struct web *w;
	const struct task *t;
	struct buf *b;
	struct run *keep;        /* for the chart, newest first */
	int n;
};

static int
run_row(const struct run *r, void *arg)
{
	struct runs *rr = arg;
	struct buf *b = rr->b;
	char dur[32];
	duration_fmt(r->duration_ms, dur, sizeof dur);
	buf_printf(b, "<tr><td><a href=\"/runs/%s\">%.8s</a></td><td class=\"%s\">%s</td><td>%s</td>",
	    r->id, r->id, run_status_name(r->status), run_status_name(r->status),
	    r->trigger >= 0 ? run_trigger_name(r->trigger) : "-");
	time_cell(b, rr->w, rr->t, r->started_at);
	buf_printf(b, "<td>%s</td></tr>\n", dur);
	rr->keep[rr->n].duration_ms = r->duration_ms;
	rr->keep[rr->n].status = r->status;
	rr->n++;
	return rr->n >= PAGE_RUNS;
}

/* Duration per run, oldest on the left, as SVG bars. */
static void
chart(struct buf *b, const struct run *runs, int n)
{
	int64_t max = 1;
	for (int i = 0; i < n; i++)
		if (runs[i].duration_ms > max)
			max = runs[i].duration_ms;
	buf_printf(b, "<svg width=\"%d\" height=\"110\" role=\"img\" aria-label=\"duration per run\">",
	    n * 12 + 10 > 240 ? n * 12 + 10 : 240);
	for (int i = 0; i < n; i++) {
		const struct run *r = &runs[n - 1 - i];
		int h = r->duration_ms > 0 ? (int)(r->duration_ms * 100 / max) : 0;
		buf_printf(b, "<rect class=\"bar%s\" x=\"%d\" y=\"%d\" width=\"10\" height=\"%d\"></rect>",
		    r->status == RUN_SUCCESS ? "" : " bad", 5 + i * 12, 105 - h, h);
	}
	char top[32];
	duration_fmt(max, top, sizeof top);
	buf_printf(b, "<text x=\"%d\" y=\"12\" font-size=\"10\" text-anchor=\"end\">longest %s</text>"
	    "</svg>\n", (n * 12 + 10 > 240 ? n * 12 + 10 : 240) - 5, top);
}

static int
task_page(struct web *w, const char *arg, const struct web_who *who, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	char id[37], sched[256], path[64];
	struct task t;
	int rc = store_task_resolve(w->st, arg, 0, id, &e);
	if (!rc)
		rc = store_task_get(w->st, id, &t, &e);
	if (rc) {
		web_error(rs, rc == ST_NOTFOUND ? 404 : rc == ST_REFUSED ? 409 : 503, 0, "%s", e.msg);
		return 1;
	}
	task_describe(&t, w->zs, sched, sizeof sched);
	head(&b, t.name, 1);
	buf_puts(&b, "<h1>");
	html_esc(&b, t.name);
	buf_puts(&b, "</h1>\n<p>");
	snprintf(path, sizeof path, "/tasks/%s/run", t.id);
	action(&b, who, path, "Run now", NULL, 0);
	if (t.enabled) {
		snprintf(path, sizeof path, "/tasks/%s/pause", t.id);
		action(&b, who, path, "Pause", NULL, 1);
	} else {
		snprintf(path, sizeof path, "/tasks/%s/resume", t.id);
		action(&b, who, path, "Resume", NULL, 0);
	}
	snprintf(path, sizeof path, "/tasks/%s/delete", t.id);
	action(&b, who, path, "Delete", "Delete this task (to the trash)?", 0);
	buf_puts(&b, "</p>\n<div id=\"live\"><table>\n<tr><th>id</th><td>");
	buf_puts(&b, t.id);
	buf_printf(&b, "</td></tr>\n<tr><th>status</th><td class=\"%s\">%s%s</td></tr>\n",
	    task_status_name(t.status), task_status_name(t.status), t.enabled ? "" : " (paused)");
	if (t.paused) {
		buf_puts(&b, "<tr><th>paused</th><td>");
		html_esc(&b, t.paused);
		buf_puts(&b, "</td></tr>\n");
	}
	buf_puts(&b, "<tr><th>schedule</th><td>");
	html_esc(&b, sched);
	buf_puts(&b, "</td></tr>\n<tr><th>zone</th><td>");
	html_esc(&b, t.tz ? t.tz : "local");
	buf_puts(&b, "</td></tr>\n<tr><th>prompt</th><td><pre>");
	html_esc(&b, t.prompt);
	buf_puts(&b, "</pre></td></tr>\n<tr><th>next fires</th><td>");
	int64_t at = t.next_run_at;
	for (int i = 0; i < 10 && at != TIME_NONE; i++) {
		char s[96];
		int64_t nx;
		task_fmt_time(&t, w->zs, at, TIME_WALL_ZONE, s, sizeof s);
		html_esc(&b, s);
		buf_puts(&b, "<br>");
		if (!task_repeats(&t) || task_next_slot(&t, w->zs, at, &nx, &e))
			break;
		at = nx;
	}
	if (t.next_run_at == TIME_NONE)
		buf_puts(&b, "none");
	buf_puts(&b, "</td></tr>\n</table>\n<h2>Runs</h2>\n");
	struct run keep[PAGE_RUNS];
	struct runs rr = {w, &t, &b, keep, 0};
	struct run_filter f;
	run_filter_init(&f);
	f.task_id = t.id;
	f.limit = PAGE_RUNS;
	struct buf rows = {0};
	rr.b = &rows;
	rc = store_run_list(w->st, &f, run_row, &rr, &e);
	if (rr.n)
		chart(&b, keep, rr.n);
	buf_puts(&b, "<table><tr><th>run</th><th>status</th><th>trigger</th><th>started</th>"
	    "<th>duration</th></tr>\n");
	if (rows.data)
		buf_puts(&b, rows.data);
	buf_free(&rows);
	buf_puts(&b, "</table></div>\n");
	task_free(&t);
	if (rc) {
		buf_free(&b);
		web_error(rs, 503, 0, "%s", e.msg);
		return 1;
	}
	page_end(rs, &b);
	return 1;
}

/* ---- a run ---- */

static int
call_row(const struct llm_call *c, void *arg)
{
	struct buf *b = arg;
	buf_puts(b, "<tr><td>");
	html_esc(b, c->model);
	buf_printf(b, "</td><td>%ld</td><td>%ld</td><td>", c->input_tokens, c->output_tokens);
	if (c->cost >= 0)
		buf_printf(b, "$%.4f", c->cost);
	else
		buf_puts(b, "-");
	buf_puts(b, "</td><td>");
	html_esc(b, c->tool_calls ? c->tool_calls : "");
	buf_puts(b, "</td></tr>\n");
	return 0;
}

static int
run_page(struct web *w, const char *arg, const struct web_who *who, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	struct run r;
	char path[64], dur[32];
	run_init(&r);
	int rc = store_run_get(w->st, arg, &r, &e);
	if (rc) {
		run_free(&r);
		web_error(rs, rc == ST_NOTFOUND ? 404 : rc == ST_REFUSED ? 409 : 503, 0, "%s", e.msg);
		return 1;
	}
	head(&b, "Run", r.status == RUN_RUNNING);
	buf_printf(&b, "<h1>Run %.8s</h1>\n<p><a href=\"/tasks/%s\">its task</a></p>\n<p>", r.id,
	    r.task_id);
	snprintf(path, sizeof path, "/runs/%s/%s", r.id, r.status == RUN_RUNNING ? "cancel" : "rerun");
	action(&b, who, path, r.status == RUN_RUNNING ? "Cancel" : "Run again", NULL, 0);
	duration_fmt(r.duration_ms, dur, sizeof dur);
	buf_printf(&b, "</p>\n<div id=\"live\"><table>\n<tr><th>status</th><td class=\"%s\">%s</td></tr>"
	    "<tr><th>trigger</th><td>%s</td></tr><tr><th>started</th>", run_status_name(r.status),
	    run_status_name(r.status), r.trigger >= 0 ? run_trigger_name(r.trigger) : "-");
	time_cell(&b, w, NULL, r.started_at);
	buf_puts(&b, "</tr><tr><th>ended</th>");
	time_cell(&b, w, NULL, r.ended_at);
	buf_printf(&b, "</tr><tr><th>duration</th><td>%s</td></tr><tr><th>exit code</th><td>%d</td></tr>"
	    "</table>\n<h2>Output</h2><pre>", dur, r.exit_code);
	html_esc(&b, r.output);
	buf_puts(&b, "</pre>\n");
	if (r.error && *r.error) {
		buf_puts(&b, "<h2>Error</h2><pre class=\"failed\">");
		html_esc(&b, r.error);
		buf_puts(&b, "</pre>\n");
	}
	if (r.note) {
		buf_puts(&b, "<h2>Note</h2><pre>");
		html_esc(&b, r.note);
		buf_puts(&b, "</pre>\n");
	}
	buf_puts(&b, "<h2>Model calls</h2><table><tr><th>model</th><th>in</th><th>out</th><th>cost</th>"
	    "<th>tool calls</th></tr>\n");
	rc = store_call_list(w->st, r.id, NULL, 100, call_row, &b, &e);
	buf_puts(&b, "</table></div>\n");
	run_free(&r);
	if (rc) {
		buf_free(&b);
		web_error(rs, 503, 0, "%s", e.msg);
		return 1;
	}
	page_end(rs, &b);
	return 1;
}

int
web_page(struct web *w, const struct web_req *rq, const struct web_who *who, struct web_resp *rs)
{
	const char *p = rq->path;
	if (strcmp(p, "/static/web.css") == 0 || strcmp(p, "/static/web.js") == 0) {
		int is_css = p[12] == 'c';
		rs->status = 200;
		rs->content_type = is_css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
		rs->cacheable = 1;
		buf_puts(&rs->body, is_css ? css : js);
		return 1;
	}
	if (strcmp(p, "/static/icon.svg") == 0) {
		rs->status = 200;
		rs->content_type = "image/svg+xml";
		rs->cacheable = 1;
		buf_puts(&rs->body, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">"
		    "<circle cx=\"8\" cy=\"8\" r=\"7\" fill=\"#234\"/><path d=\"M8 3v5l3 2\""
		    " stroke=\"#fff\" stroke-width=\"1.5\" fill=\"none\"/></svg>\n");
		return 1;
	}
	if (strcmp(p, "/favicon.ico") == 0) {
		rs->status = 204;
		return 1;
	}
	if (strcmp(p, "/") == 0)
		return overview(w, rs);
	if (strcmp(p, "/tasks") == 0)
		return tasks_page(w, rq, who, rs);
	if (strncmp(p, "/tasks/", 7) == 0 && p[7] && !strchr(p + 7, '/'))
		return task_page(w, p + 7, who, rs);
	if (strncmp(p, "/runs/", 6) == 0 && p[6] && !strchr(p + 6, '/'))
		return run_page(w, p + 6, who, rs);
	return 0;
}
