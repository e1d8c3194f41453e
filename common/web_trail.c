/* web_trail.c: what a task's page and the overview say about budgets
 * (status_budget.h, as task-status says it) and a task's audit trail
 * (who changed what and when, as task-log --audit lists it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "status_budget.h"
#include "store.h"
#include "store_audit.h"
#include "web_impl.h"

#define OVER_SHOWN 20            /* tasks over budget listed on the overview */
#define TRAIL_SHOWN 20           /* a task's changes shown, newest first */

struct over_rows {
	struct buf *rows;
	long n;
};

static void
take_over(const struct task *t, const char *why, void *arg)
{
	struct over_rows *o = arg;
	if (o->n++ >= OVER_SHOWN)
		return;
	buf_printf(o->rows, "<tr><td><a href=\"/tasks/%s\">", t->id);
	html_esc(o->rows, t->name);
	buf_puts(o->rows, "</a></td><td>");
	html_esc(o->rows, why);
	buf_puts(o->rows, "</td></tr>\n");
}

int
web_over_budget(struct web *w, int64_t now, struct buf *b, long *n, struct err *e)
{
	struct buf rows = {0};
	struct over_rows o = {&rows, 0};
	char global[256];
	int rc = status_budgets(w->st, now, take_over, &o, global, sizeof global, e);
	*n = o.n;
	if (!rc && global[0]) {
		buf_puts(b, "<p class=\"failed\">Every task is held by the global budget: ");
		html_esc(b, global);
		buf_puts(b, "</p>\n");
	}
	if (!rc && o.n) {
		buf_printf(b, "<h2>Over budget</h2>\n<table><tr><th>task</th><th>why</th></tr>\n%s</table>\n",
		    rows.data);
		if (o.n > OVER_SHOWN)
			buf_printf(b, "<p class=\"muted\">and %ld more (task-status)</p>\n", o.n - OVER_SHOWN);
	}
	buf_free(&rows);
	return rc;
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

/* What an entry changed, as task-log --audit says it: a task's name when
 * it was made or removed, else each field before and after. */
static void
trail_change(struct buf *b, const struct audit_entry *a)
{
	cJSON *before = a->before ? cJSON_Parse(a->before) : NULL;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	const cJSON *side = after ? after : before;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(side, "name");
	if ((!before || !after) && cJSON_IsString(name) &&
	    cJSON_GetObjectItemCaseSensitive(side, "prompt")) {
		buf_puts(b, "name \"");
		html_esc(b, name->valuestring);
		buf_puts(b, "\"");
	} else if (side) {
		const cJSON *x;
		int n = 0;
		cJSON_ArrayForEach(x, side) {
			const cJSON *y = before && after ? cJSON_GetObjectItemCaseSensitive(before, x->string)
			    : NULL;
			char *vx = cJSON_PrintUnformatted(x), *vy = y ? cJSON_PrintUnformatted(y) : NULL;
			buf_puts(b, n++ ? "<br>" : "");
			html_esc(b, x->string ? x->string : "");
			buf_puts(b, ": ");
			if (before && after) {
				html_esc(b, vy ? vy : "null");
				buf_puts(b, " &rarr; ");
			}
			html_esc(b, vx ? vx : "null");
			free(vx);
			free(vy);
		}
	}
	cJSON_Delete(before);
	cJSON_Delete(after);
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
	trail_change(tr->b, a);
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
