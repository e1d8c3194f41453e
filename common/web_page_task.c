/* task-web's a task (/tasks/ID): its schedule, settings, budget, runs paged by
 * keyset with charts of their duration and cost, and its audit trail. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store.h"
#include "store_history.h"
#include "web_trail.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_pages.h"

#define PAGE_RUNS 50             /* a task's runs shown */

/* ---- a task ---- */

struct runs {
	struct web *w;
	const struct task *t;
	struct buf *b;
	struct run *keep;        /* for the charts, newest first */
	double *cost;            /* dollars of each, from its model calls */
	int n;
	int more;                /* an older run than those shown exists */
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

static int
run_row(const struct run *r, void *arg)
{
	struct runs *rr = arg;
	struct buf *b = rr->b;
	char dur[32];
	/* One past a page is read only to know an older one exists. */
	if (rr->n == PAGE_RUNS) {
		rr->more = 1;
		return 1;
	}
	duration_fmt(r->duration_ms, dur, sizeof dur);
	buf_printf(b, "<tr><td><a href=\"/runs/%s\">%.8s</a></td><td class=\"%s\">%s</td><td>%s</td>",
	    r->id, r->id, run_status_name(r->status), run_status_name(r->status),
	    r->trigger >= 0 ? run_trigger_name(r->trigger) : "-");
	web_time_cell(b, rr->w, rr->t, r->started_at);
	buf_printf(b, "<td>%s</td></tr>\n", dur);
	rr->keep[rr->n].duration_ms = r->duration_ms;
	rr->keep[rr->n].status = r->status;
	memcpy(rr->keep[rr->n].id, r->id, sizeof r->id);
	rr->cost[rr->n] = 0;
	rr->n++;
	return 0;
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
	web_bars(b, v, bad, rr->n, "duration", top);
	snprintf(top, sizeof top, "$%.4f", dollars);
	web_bars(b, rr->cost, NULL, rr->n, "cost", top);
}

int
web_task_page(struct web *w, const struct web_req *rq, const char *arg, const struct web_who *who,
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
	web_head(&b, t.name, 1);
	buf_puts(&b, "<h1>");
	html_esc(&b, t.name);
	/* The actions are part of what refreshes: Pause offered for a task
	 * a pass has paused since would do nothing. */
	buf_puts(&b, "</h1>\n<div id=\"live\"><p>");
	snprintf(path, sizeof path, "/tasks/%s/run", t.id);
	web_button(&b, who, path, "Run now", NULL, 0);
	if (t.enabled) {
		snprintf(path, sizeof path, "/tasks/%s/pause", t.id);
		web_button(&b, who, path, "Pause", NULL, 1);
	} else {
		snprintf(path, sizeof path, "/tasks/%s/resume", t.id);
		web_button(&b, who, path, "Resume", NULL, 0);
	}
	snprintf(path, sizeof path, "/tasks/%s/delete", t.id);
	web_button(&b, who, path, "Delete", "Delete this task (to the trash)?", 0);
	buf_puts(&b, "</p>\n<table>\n<tr><th>id</th><td>");
	buf_puts(&b, t.id);
	buf_printf(&b, "</td></tr>\n<tr><th>status</th><td class=\"%s\">%s%s</td></tr>\n",
	    task_status_name(t.status), task_status_name(t.status), t.paused ? " (paused)" : t.enabled ? ""
	    : " (disabled)");
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
	struct runs rr = {w, &t, &b, keep, cost, 0, 0};
	struct run_filter f;
	run_filter_init(&f);
	f.task_id = t.id;
	f.limit = PAGE_RUNS + 1;
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
	if (rr.more)
		buf_printf(&b, "<a href=\"/tasks/%s?before=%s\" rel=\"next\">Older runs</a>", t.id,
		    rr.keep[rr.n - 1].id);
	buf_puts(&b, "</p>\n");
	if (!rc)
		rc = web_task_trail(w, &t, &b, &e);
	buf_puts(&b, "</div>\n");
	task_free(&t);
	return web_page_finish(rs, &b, rc, &e);
}
