/* web_trail.c: what a task's page and the overview say about budgets
 * (status_budget.h, as task-status says it) and a task's audit trail
 * (who changed what and when, as task-log --audit lists it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "audit_view.h"
#include "status_budget.h"
#include "status_facts.h"
#include "store.h"
#include "store_audit.h"
#include "web_http.h"
#include "web_trail.h"

#define OVER_SHOWN 20            /* tasks over budget listed on the overview */
#define TRAIL_SHOWN 20           /* a task's changes shown, newest first */

/* The tasks over budget as task-status gathered them (the first
 * OVER_SHOWN), and the global budget when it holds every task. */
void
web_over_budget(const struct status *s, struct buf *b)
{
	if (s->global_over[0]) {
		buf_puts(b, "<p class=\"failed\">Every task is held by the global budget: ");
		html_esc(b, s->global_over);
		buf_puts(b, "</p>\n");
	}
	if (!s->nover)
		return;
	buf_puts(b, "<h2>Over budget</h2>\n<table><tr><th>task</th><th>why</th></tr>\n");
	for (long i = 0; i < s->nover && i < OVER_SHOWN && i < STATUS_SHOWN_MAX; i++) {
		buf_printf(b, "<tr><td><a href=\"/tasks/%s\">", s->over[i].id);
		html_esc(b, s->over[i].name);
		buf_puts(b, "</a></td><td>");
		html_esc(b, s->over[i].error);
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</table>\n");
	if (s->nover > OVER_SHOWN)
		buf_printf(b, "<p class=\"muted\">and %ld more (task-status)</p>\n", s->nover - OVER_SHOWN);
}

int
web_task_budget(struct web *w, const struct task *t, int64_t now, struct buf *b, struct err *e)
{
	char text[256], why[256];
	int over;
	int rc = status_task_budget(w->st, t, w->zs, now, text, sizeof text, &over, why, sizeof why, e);
	if (rc)
		return rc;
	if (text[0] || over) {
		buf_printf(b, "<tr><th>budget</th><td%s>", over ? " class=\"failed\"" : "");
		html_esc(b, text[0] ? text : "none of its own");
		if (over) {
			buf_puts(b, "<br>over budget: its runs are skipped until the next window (");
			html_esc(b, why);
			buf_puts(b, ")");
		}
		buf_puts(b, "</td></tr>\n");
	}
	return ST_OK;
}

struct trail {
	struct buf *b;
	long n;
};

static int
trail_row(const struct audit_entry *a, void *arg)
{
	struct trail *tr = arg;
	char at[40], who[200];
	/* One more than shown is asked for, to say whether there are more. */
	if (tr->n++ >= TRAIL_SHOWN)
		return 1;
	time_fmt_utc(a->at, at, sizeof at);
	audit_actor_describe(a->actor, who, sizeof who);
	buf_printf(tr->b, "<tr><td><time datetime=\"%s\">%s</time></td><td>", at, at);
	html_esc(tr->b, who);
	buf_puts(tr->b, "</td><td>");
	html_esc(tr->b, a->action);
	buf_puts(tr->b, "</td><td>");
	audit_change_words(a, tr->b, html_esc, "<br>", " &rarr; ");
	buf_puts(tr->b, "</td></tr>\n");
	return 0;
}

int
web_task_trail(struct web *w, const struct task *t, struct buf *b, struct err *e)
{
	struct buf rows = {0};
	struct trail tr = {&rows, 0};
	int rc = store_audit_list(w->st, t->id, 1, TRAIL_SHOWN + 1, trail_row, &tr, e);
	buf_puts(b, "<h2>Changes</h2>\n");
	if (!rc && !tr.n)
		buf_puts(b, "<p class=\"muted\">No changes on record.</p>\n");
	if (!rc && tr.n) {
		buf_printf(b, "<table><tr><th>when (UTC)</th><th>who</th><th>action</th><th>change</th></tr>\n"
		    "%s</table>\n", rows.data);
		if (tr.n > TRAIL_SHOWN)
			buf_printf(b, "<p class=\"muted\">The newest %d; all of them: task-log --audit --task %s</p>\n",
			    TRAIL_SHOWN, t->id);
	}
	buf_free(&rows);
	return rc;
}
