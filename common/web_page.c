/* task-web's pages (web_impl.h): HTML the server writes, with its own
 * small stylesheet and script served from /static/ (the page's
 * Content-Security-Policy allows no other, and no inline script).  Charts
 * are SVG drawn here.  Every form carries the session's CSRF token. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <time.h>

#include "cron.h"
#include "deliver.h"
#include "store.h"
#include "store_deliver.h"
#include "store_history.h"
#include "store_web.h"
#include "status_facts.h"
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
    "  function zones(root) {\n"
    "    root.querySelectorAll('time[datetime]').forEach(function (t) {\n"
    "      if (t.dataset.local) return;\n"
    "      var d = new Date(t.getAttribute('datetime'));\n"
    "      var here = d.toLocaleString(undefined, {dateStyle: 'short', timeStyle: 'short'});\n"
    "      t.dataset.local = '1';\n"
    "      t.title = 'your time: ' + here;\n"
    "      if (d.getTimezoneOffset() !== 0 || !/UTC|GMT/.test(t.textContent))\n"
    "        t.insertAdjacentText('afterend', ' (' + here + ' here)');\n"
    "    });\n"
    "  }\n"
    "  zones(document);\n"
    "  new MutationObserver(function () { zones(document); }).observe(body, {childList: true, subtree: true});\n"
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
	buf_puts(b, "><header><a href=\"/\">agentcron</a><a href=\"/tasks\">Tasks</a><a href=\"/timeline\">Timeline</a></header>\n<main>\n");
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
	if (when == TIME_NONE) {
		buf_puts(b, "<td>none</td>");
		return;
	}
	char utc[32];
	time_fmt_utc(when, utc, sizeof utc);
	/* The script adds the viewer's own zone when it differs. */
	buf_printf(b, "<td><time datetime=\"%s\">", utc);
	html_esc(b, s);
	buf_puts(b, "</time></td>");
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

struct pass_rows {
	struct web *w;
	struct buf *b;
	int64_t now;
	int n;
};

static int
pass_row(const struct pass *p, void *arg)
{
	struct pass_rows *pr = arg;
	char ago[32];
	duration_fmt(pr->now >= p->at ? (pr->now - p->at) * 1000 : 0, ago, sizeof ago);
	buf_puts(pr->b, "<tr><td>");
	html_esc(pr->b, p->host);
	buf_puts(pr->b, "</td>");
	time_cell(pr->b, pr->w, NULL, p->at);
	buf_printf(pr->b, "<td>%s ago</td><td>", ago);
	html_esc(pr->b, p->mode);
	buf_puts(pr->b, "</td></tr>\n");
	pr->n++;
	return 0;
}

/* Each host's last pass (task-status's dead-man's switch), latest first. */
static int
passes(struct web *w, int64_t now, struct buf *b, struct err *e)
{
	struct pass_rows pr = {w, b, now, 0};
	buf_puts(b, "<h2>Passes</h2><table><tr><th>host</th><th>last pass</th><th>ago</th>"
	    "<th>mode</th></tr>\n");
	int rc = store_pass_list(w->st, pass_row, &pr, e);
	buf_puts(b, "</table>\n");
	if (!rc && !pr.n)
		buf_puts(b, "<p class=\"failed\">No pass recorded: is task-tick running?</p>\n");
	return rc;
}

/* What needs a look, as task-status judges it (status_facts.h: the same
 * facts and verdict, so the two cannot disagree), and the spend of today
 * and this month (UTC), each from an index. */
static int
attention(struct web *w, const struct status *s, int64_t now, struct buf *b, struct err *e)
{
	long long tokens;
	double today = 0, month = 0;
	time_t t = (time_t)now;
	struct tm tm;
	gmtime_r(&t, &tm);
	int64_t day = now - now % 86400, first = day - (int64_t)(tm.tm_mday - 1) * 86400;
	int rc = store_call_spend(w->st, NULL, day, &today, &tokens, e);
	if (!rc)
		rc = store_call_spend(w->st, NULL, first, &month, &tokens, e);
	if (rc)
		return rc;
	long long undelivered = s->receipts[RECEIPT_FAILED];
	buf_printf(b, "<p class=\"%s\">task-status: %s: ", s->verdict == VERDICT_OK ? "success"
	    : "failed", status_verdicts[s->verdict]);
	html_esc(b, s->summary);
	buf_printf(b, "</p>\n<h2>Needs a look</h2><table>"
	    "<tr><td>overdue</td><td%s>%ld</td></tr>\n"
	    "<tr><td>failing (last run failed)</td><td%s>%ld</td></tr>\n"
	    "<tr><td>blocked (waiting for a person)</td><td%s>%ld</td></tr>\n"
	    "<tr><td><a href=\"/tasks?status=paused\">paused</a></td><td>%ld</td></tr>\n"
	    "<tr><td>over budget</td><td%s>%ld</td></tr>\n"
	    "<tr><td>deliveries failed for good (24 hours)</td><td%s>%lld</td></tr>\n</table>\n",
	    s->noverdue ? " class=\"failed\"" : "", s->noverdue,
	    s->nfailing ? " class=\"failed\"" : "", s->nfailing,
	    s->nblocked ? " class=\"failed\"" : "", s->nblocked, s->npaused,
	    s->nover ? " class=\"failed\"" : "", s->nover,
	    undelivered ? " class=\"failed\"" : "", undelivered);
	web_over_budget(s, b);
	buf_printf(b, "<h2>Spend</h2><table><tr><td>today (UTC)</td><td>$%.2f</td></tr>\n"
	    "<tr><td>this month</td><td>$%.2f</td></tr>\n</table>\n", today, month);
	return ST_OK;
}

static int
overview(struct web *w, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	int64_t now;
	struct status *s = xcalloc(1, sizeof *s);
	static const char *const names[] = {"pending", "running", "completed", "failed", "cancelled"};
	head(&b, "Overview", 1);
	buf_puts(&b, "<div id=\"live\"><h1>Overview</h1>\n");
	s->st = w->st;
	s->max_silence = STATUS_SILENCE_DEFAULT;
	int rc = now_get(&now, &e);
	if (!rc)
		rc = status_gather(s, &e);
	if (!rc && s->paused) {
		buf_puts(&b, "<p class=\"failed\">Firing is paused since ");
		html_esc(&b, s->paused);
		buf_puts(&b, " (task-tick --resume).</p>\n");
	}
	buf_puts(&b, "<h2>Tasks</h2><table><tr><th>status</th><th>tasks</th></tr>\n");
	/* From indexes alone (task-status's count), not a walk of the tasks. */
	for (int i = 0; !rc && i < 5; i++)
		buf_printf(&b, "<tr><td><a href=\"/tasks?status=%s\">%s</a></td><td>%ld</td></tr>\n",
		    names[i], names[i], s->by_status[i]);
	buf_puts(&b, "</table>\n");
	if (!rc)
		rc = attention(w, s, now, &b, &e);
	buf_puts(&b, "<h2>Runs of the last 24 hours</h2><table>"
	    "<tr><th>status</th><th>runs</th></tr>\n");
	for (size_t i = 0; !rc && i < s->nruns; i++)
		count_row(s->runs[i].name, s->runs[i].n, &b);
	buf_puts(&b, "</table>\n");
	if (!rc)
		rc = passes(w, now, &b, &e);
	buf_puts(&b, "</div>\n");
	status_free(s);
	free(s);
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
	const struct web_who *who;
	struct task *t;          /* the tasks listed, to sort */
	long n;
};

static int
task_take(const struct task *t, void *arg)
{
	struct rows *r = arg;
	task_copy(&r->t[r->n++], t);
	return r->n >= PAGE_TASKS;
}

static int
by_name(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int c = strcasecmp(x->name ? x->name : "", y->name ? y->name : "");
	return c ? c : strcmp(x->id, y->id);
}

static int
by_status(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int c = strcmp(task_status_name(x->status), task_status_name(y->status));
	return c ? c : by_name(a, b);
}

static int
by_last(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	/* Latest first, never run last. */
	return x->last_run_at == y->last_run_at ? by_name(a, b) : x->last_run_at > y->last_run_at ? -1 : 1;
}

static void
task_row(struct buf *b, struct web *w, const struct web_who *who, const struct task *t)
{
	char sched[256];
	task_describe(t, w->zs, sched, sizeof sched);
	buf_puts(b, "<tr>");
	if (!who->read_only)
		buf_printf(b, "<td><input type=\"checkbox\" name=\"id\" value=\"%s\" form=\"bulk\""
		    " aria-label=\"select\"></td>", t->id);
	buf_printf(b, "<td><a href=\"/tasks/%s\">", t->id);
	html_esc(b, t->name);
	buf_printf(b, "</a></td><td class=\"%s\">%s%s</td><td>", task_status_name(t->status),
	    task_status_name(t->status), t->paused ? " (paused)" : t->enabled ? "" : " (disabled)");
	html_esc(b, sched);
	buf_puts(b, "</td>");
	time_cell(b, w, t, t->next_run_at);
	time_cell(b, w, t, t->last_run_at);
	buf_puts(b, "</tr>\n");
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
	const char *sort = web_arg(rq->query, rq->nquery, "sort");
	static const char *const sorts[] = {"next", "name", "status", "last"};
	buf_puts(&b, "</select> <select name=\"sort\" aria-label=\"sort\">");
	for (size_t i = 0; i < sizeof sorts / sizeof *sorts; i++)
		buf_printf(&b, "<option value=\"%s\"%s>by %s run</option>", sorts[i],
		    sort && !strcmp(sort, sorts[i]) ? " selected" : "", sorts[i]);
	buf_puts(&b, "</select> <input name=\"scope\" placeholder=\"scope\" aria-label=\"scope\" value=\"");
	html_esc(&b, f.scope);
	buf_puts(&b, "\"> <button>Filter</button></form>\n");
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
	buf_puts(&b, "<th>name</th><th>status</th><th>schedule</th><th>next run</th><th>last run</th>"
	    "</tr>\n");
	struct rows r = {w, who, xcalloc(PAGE_TASKS, sizeof(struct task)), 0};
	f.limit = PAGE_TASKS;
	int rc = store_task_list(w->st, &f, task_take, &r, &e);
	int (*cmp)(const void *, const void *) = !sort ? NULL : !strcmp(sort, "name") ? by_name
	    : !strcmp(sort, "status") ? by_status : !strcmp(sort, "last") ? by_last : NULL;
	if (cmp)
		qsort(r.t, (size_t)r.n, sizeof *r.t, cmp);
	for (long i = 0; i < r.n; i++) {
		task_row(&b, w, who, &r.t[i]);
		task_free(&r.t[i]);
	}
	free(r.t);
	buf_printf(&b, "</table><p class=\"muted\">%ld task%s%s</p></div>\n", r.n, r.n == 1 ? "" : "s",
	    r.n >= PAGE_TASKS ? " (the first ones; narrow the filter)" : "");
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
	struct run *keep;        /* for the charts, newest first */
	double *cost;            /* dollars of each, from its model calls */
	int n;
};

static int
call_cost(const struct llm_call *c, void *arg)
{
	struct runs *rr = arg;
	for (int i = 0; c->run_id && c->cost > 0 && i < rr->n; i++)
		if (strcmp(rr->keep[i].id, c->run_id) == 0)
			rr->cost[i] += c->cost;
	return 0;
}

/* Bars, oldest on the left: v[0..n) is newest first. */
static void
bars(struct buf *b, const double *v, const int *bad, int n, const char *label, const char *top)
{
	double max = 0;
	int width = n * 12 + 10 > 240 ? n * 12 + 10 : 240;
	for (int i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	buf_printf(b, "<svg width=\"%d\" height=\"110\" role=\"img\" aria-label=\"%s\">", width, label);
	for (int i = 0; max > 0 && i < n; i++) {
		int k = n - 1 - i, h = (int)(v[k] * 100 / max);
		buf_printf(b, "<rect class=\"bar%s\" x=\"%d\" y=\"%d\" width=\"10\" height=\"%d\"></rect>",
		    bad && bad[k] ? " bad" : "", 5 + i * 12, 105 - h, h);
	}
	buf_printf(b, "<text x=\"%d\" y=\"12\" font-size=\"10\" text-anchor=\"end\">%s: %s</text></svg>\n",
	    width - 5, label, top);
}

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
	memcpy(rr->keep[rr->n].id, r->id, sizeof r->id);
	rr->cost[rr->n] = 0;
	rr->n++;
	return rr->n >= PAGE_RUNS;
}

/* Duration and cost per run, oldest on the left, as SVG bars. */
static void
charts(struct buf *b, const struct runs *rr)
{
	double v[PAGE_RUNS], dollars = 0, longest = 0;
	int bad[PAGE_RUNS];
	char top[32];
	for (int i = 0; i < rr->n; i++) {
		v[i] = rr->keep[i].duration_ms > 0 ? (double)rr->keep[i].duration_ms : 0;
		bad[i] = rr->keep[i].status != RUN_SUCCESS;
		longest = v[i] > longest ? v[i] : longest;
		dollars = rr->cost[i] > dollars ? rr->cost[i] : dollars;
	}
	duration_fmt((int64_t)longest, top, sizeof top);
	bars(b, v, bad, rr->n, "duration", top);
	snprintf(top, sizeof top, "$%.4f", dollars);
	bars(b, rr->cost, NULL, rr->n, "cost", top);
}

static int
task_page(struct web *w, const struct web_req *rq, const char *arg, const struct web_who *who,
    struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	char id[37], sched[256], path[64], before[37] = "";
	struct task t;
	/* ?before=RUN: the page of runs after that one (keyset paging). */
	const char *from = web_arg(rq->query, rq->nquery, "before");
	int rc = store_task_resolve(w->st, arg, 0, id, &e);
	if (!rc && from && *from) {
		struct run r;
		run_init(&r);
		if (!(rc = store_run_get(w->st, from, &r, &e)) && strcmp(r.task_id, id) != 0)
			rc = err_set(&e, ST_NOTFOUND, "run '%.40s' is not one of this task's", from);
		snprintf(before, sizeof before, "%s", r.id);
		run_free(&r);
	}
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
	buf_puts(&b, "</td></tr>\n");
	int64_t now;
	rc = now_get(&now, &e);
	if (!rc)
		rc = web_task_budget(w, &t, now, &b, &e);
	buf_puts(&b, "</table>\n<h2>Runs</h2>\n");
	struct run keep[PAGE_RUNS];
	double cost[PAGE_RUNS];
	struct runs rr = {w, &t, &b, keep, cost, 0};
	struct run_filter f;
	run_filter_init(&f);
	f.task_id = t.id;
	f.limit = PAGE_RUNS;
	f.before = before[0] ? before : NULL;
	struct buf rows = {0};
	rr.b = &rows;
	if (!rc)
		rc = store_run_list(w->st, &f, run_row, &rr, &e);
	if (!rc && rr.n)
		rc = store_call_list(w->st, NULL, t.id, PAGE_RUNS * 20, call_cost, &rr, &e);
	if (rr.n)
		charts(&b, &rr);
	buf_puts(&b, "<table id=\"runs\"><tr><th>run</th><th>status</th><th>trigger</th><th>started</th>"
	    "<th>duration</th></tr>\n");
	if (rows.data)
		buf_puts(&b, rows.data);
	buf_free(&rows);
	buf_puts(&b, "</table>\n<p>");
	if (before[0])
		buf_printf(&b, "<a href=\"/tasks/%s\">Newest runs</a> ", t.id);
	if (rr.n == PAGE_RUNS)
		buf_printf(&b, "<a href=\"/tasks/%s?before=%s\" rel=\"next\">Older runs</a>", t.id,
		    rr.keep[rr.n - 1].id);
	buf_puts(&b, "</p>\n");
	if (!rc)
		rc = web_task_trail(w, &t, &b, &e);
	buf_puts(&b, "</div>\n");
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

/* A delivery receipt of the run, its target masked as everywhere. */
static int
receipt_row(const struct receipt *r, void *arg)
{
	struct buf *b = arg;
	char target[512];
	deliver_target_mask(r->target ? r->target : "", target, sizeof target);
	buf_puts(b, "<tr><td>");
	html_esc(b, target);
	buf_printf(b, "</td><td class=\"%s\">%s</td><td>%d</td><td>", r->status == RECEIPT_FAILED
	    ? "failed" : r->status == RECEIPT_DELIVERED ? "success" : "running",
	    receipt_status_name(r->status), r->attempts);
	html_esc(b, r->status == RECEIPT_DELIVERED ? (r->answer ? r->answer : "")
	    : (r->error ? r->error : ""));
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
	buf_puts(&b, "</table>\n");
	struct receipt_filter rf = {.status = -1, .run_id = r.id, .limit = 100};
	struct buf rcpt = {0};
	if (!rc)
		rc = store_receipt_list(w->st, &rf, receipt_row, &rcpt, &e);
	if (rcpt.len) {
		buf_puts(&b, "<h2>Deliveries</h2><table><tr><th>target</th><th>status</th><th>attempts</th>"
		    "<th>answer or error</th></tr>\n");
		buf_add(&b, rcpt.data, rcpt.len);
		buf_puts(&b, "</table>\n");
	}
	buf_free(&rcpt);
	buf_puts(&b, "</div>\n");
	run_free(&r);
	if (rc) {
		buf_free(&b);
		web_error(rs, 503, 0, "%s", e.msg);
		return 1;
	}
	page_end(rs, &b);
	return 1;
}

/* ---- the timeline ---- */

/* Fires per minute of the next day, from the tasks in groups that fire
 * alike (store_web_herd): each group's occurrences are reckoned once, its
 * cron parsed once, and counted for all its tasks; 100,000 tasks on a few
 * schedules are a few groups. */
struct herd {
	struct web *w;
	int64_t from;
	long perminute[1440];
};

static int
herd_group(const struct task *t, long n, void *arg)
{
	struct herd *h = arg;
	struct err e;
	struct cron_list l;
	const struct tz *z = NULL;
	int cron = t->kind == KIND_CRON;
	if (cron && (zones_get(h->w->zs, t->tz, &z, &e) || cron_list_parse(t->cron, &l, &e)))
		return 0;
	int64_t at = t->next_run_at, end = h->from + 86400;
	for (int k = 0; at != TIME_NONE && at < end && k < 1440; k++) {
		if (at >= h->from)
			h->perminute[(at - h->from) / 60] += n;
		if (!task_repeats(t))
			break;
		if (cron) {
			/* task_next_slot's rules without its parse per occurrence. */
			int64_t after = t->not_before != TIME_NONE && at < t->not_before - 1 ? t->not_before - 1
			    : at;
			int64_t next = cron_list_next(&l, z, after);
			at = next >= 0 && (t->ends_at == TIME_NONE || next <= t->ends_at) ? next : TIME_NONE;
		} else if (task_next_slot(t, h->w->zs, at, &at, &e)) {
			break;
		}
	}
	return 0;
}

struct spend {
	double days[30];
	int64_t from;
};

static int
spend_day(const struct call_usage *u, void *arg)
{
	struct spend *sp = arg;
	int64_t d = (u->created_at - sp->from) / 86400;
	if (d >= 0 && d < 30 && u->cost > 0)
		sp->days[d] += u->cost;
	return 0;
}

static int
timeline(struct web *w, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	int64_t now;
	struct herd *h = xcalloc(1, sizeof *h);
	int rc = now_get(&now, &e);
	h->w = w;
	h->from = now - now % 60;
	if (!rc)
		rc = store_web_herd(w->st, h->from + 86400, herd_group, h, &e);
	head(&b, "Timeline", 1);
	buf_puts(&b, "<h1>Timeline</h1>\n<div id=\"live\"><h2>Fires per minute, the next 24 hours</h2>\n");
	long max = 1, total = 0;
	int peak = 0;
	for (int i = 0; i < 1440; i++) {
		total += h->perminute[i];
		if (h->perminute[i] > max)
			max = h->perminute[i], peak = i;
	}
	buf_puts(&b, "<svg width=\"1450\" height=\"130\" role=\"img\" aria-label=\"fires per minute\">");
	for (int i = 0; i < 1440; i++) {
		if (!h->perminute[i])
			continue;
		int ht = (int)(h->perminute[i] * 100 / max);
		buf_printf(&b, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"1\" height=\"%d\"></rect>", 5 + i,
		    105 - (ht ? ht : 1), ht ? ht : 1);
	}
	for (int hr = 0; hr <= 24; hr += 3)
		buf_printf(&b, "<text x=\"%d\" y=\"122\" font-size=\"10\">+%dh</text>", 5 + hr * 60 > 1420 ? 1420
		    : 5 + hr * 60, hr);
	buf_puts(&b, "</svg>\n<p>");
	char at[96];
	zone_fmt_time(w->zs, NULL, h->from + (int64_t)peak * 60, TIME_WALL_ZONE, at, sizeof at);
	buf_printf(&b, "%ld fire%s; the busiest minute, ", total, total == 1 ? "" : "s");
	html_esc(&b, at);
	buf_printf(&b, ", has %ld.</p>\n", total ? max : 0);
	free(h);

	struct spend sp = {.from = now - now % 86400 - 29 * 86400};
	if (!rc)
		rc = store_call_usage(w->st, sp.from, spend_day, &sp, &e);
	double rev[30], most = 0;
	for (int i = 0; i < 30; i++) {
		rev[i] = sp.days[29 - i];   /* bars() wants the newest first */
		most = sp.days[i] > most ? sp.days[i] : most;
	}
	char top[32];
	snprintf(top, sizeof top, "$%.2f", most);
	buf_puts(&b, "<h2>Spend per day, the last 30 days (UTC)</h2>\n");
	bars(&b, rev, NULL, 30, "most in a day", top);
	buf_puts(&b, "</div>\n");
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
	if (strcmp(p, "/timeline") == 0)
		return timeline(w, rs);
	if (strncmp(p, "/tasks/", 7) == 0 && p[7] && !strchr(p + 7, '/'))
		return task_page(w, rq, p + 7, who, rs);
	if (strncmp(p, "/runs/", 6) == 0 && p[6] && !strchr(p + 6, '/'))
		return run_page(w, p + 6, who, rs);
	return 0;
}
