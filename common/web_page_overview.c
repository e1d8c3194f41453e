/* task-web's the overview (/): what task-status says, with the runs of a day, the
 * spend and each host's last pass. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store.h"
#include "status_facts.h"
#include "store_history.h"
#include "web_trail.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_pages.h"

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
	web_time_cell(pr->b, pr->w, NULL, p->at);
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

int
web_overview(struct web *w, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	int64_t now;
	struct status *s = xcalloc(1, sizeof *s);
	static const char *const names[] = {"pending", "running", "completed", "failed", "cancelled"};
	web_head(&b, "Overview", 1);
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
	return web_page_finish(rs, &b, rc, &e);
}
