/* task-web's the tasks (/tasks): filtered, sorted, paused and resumed in bulk. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store.h"
#include "store_web.h"
#include "web_api.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_pages.h"
#include "web_search.h"

#define PAGE_TASKS 500           /* rows of the tasks page, at most */

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
	/* Named for its task: "select" alone, a hundred times, tells a
	 * screen reader's user nothing. */
	if (!who->read_only) {
		buf_printf(b, "<td><input type=\"checkbox\" name=\"id\" value=\"%s\" form=\"bulk\""
		    " aria-label=\"select ", t->id);
		html_esc(b, t->name);
		buf_puts(b, "\"></td>");
	}
	buf_printf(b, "<td><a href=\"/tasks/%s\">", t->id);
	html_esc(b, t->name);
	buf_printf(b, "</a></td><td class=\"%s\">%s%s</td><td>", task_status_name(t->status),
	    task_status_name(t->status), t->paused ? " (paused)" : t->enabled ? "" : " (disabled)");
	html_esc(b, sched);
	buf_puts(b, "</td>");
	web_time_cell(b, w, t, t->next_run_at);
	web_time_cell(b, w, t, t->last_run_at);
	buf_puts(b, "</tr>\n");
}

/* The end of a search cut short: how far it read, and a link that goes on
 * from there with the same filter. */
static void
cut_note(struct buf *b, const struct web_req *rq, const struct task_filter *f, long n,
    struct web_keyset next)
{
	buf_printf(b, "</table><p class=\"muted\" id=\"cut\">%ld task%s found; the search was cut"
	    " short (%s, in next-run order). <a href=\"", n, n == 1 ? "" : "s",
	    n >= PAGE_TASKS ? "a page is full" : f->text && web_search_short(f->text) ? "a short text"
	    " is looked for in " WEB_WALK_EXAMINE_TEXT " tasks at a time" : WEB_WALK_EXAMINE_TEXT
	    " tasks are read at a time");
	static const char *const keep[] = {"status", "scope", "sort", NULL};
	web_search_next(b, "/tasks", rq, f->text, keep, "&amp;", next);
	buf_puts(b, "\" id=\"continue\">Continue the search</a></p></div>\n");
}

int
web_tasks_page(struct web *w, const struct web_req *rq, const struct web_who *who, struct web_resp *rs)
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
	web_head(&b, "Tasks", 1);
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
	static const char *const sort_words[] = {"next run", "name", "status", "last run"};
	buf_puts(&b, "</select> <select name=\"sort\" aria-label=\"sort\">");
	for (size_t i = 0; i < sizeof sorts / sizeof *sorts; i++)
		buf_printf(&b, "<option value=\"%s\"%s>by %s</option>", sorts[i],
		    sort && !strcmp(sort, sorts[i]) ? " selected" : "", sort_words[i]);
	buf_puts(&b, "</select> <input name=\"scope\" placeholder=\"scope\" aria-label=\"scope\" value=\"");
	html_esc(&b, f.scope);
	buf_puts(&b, "\"> <button>Filter</button></form>\n");
	if (!who->read_only) {
		buf_puts(&b, "<form method=\"post\" action=\"/tasks/bulk\" id=\"bulk\">");
		web_csrf_field(&b, who);
		/* Back to this very page, its filter kept. */
		struct buf here = {0};
		web_search_here(&here, "/tasks", rq);
		buf_puts(&b, "<input type=\"hidden\" name=\"back\" value=\"");
		html_esc(&b, here.data);
		buf_puts(&b, "\">");
		buf_free(&here);
		buf_puts(&b, "Selected: <select name=\"action\" aria-label=\"action\"><option>pause</option>"
		    "<option>resume</option></select> <input name=\"reason\" maxlength=\"500\" placeholder=\"reason (to pause)\""
		    " aria-label=\"reason\"> <button>Apply</button></form>\n");
	}
	buf_puts(&b, "<div id=\"live\"><table><tr>");
	if (!who->read_only)
		buf_puts(&b, "<th></th>");
	buf_puts(&b, "<th>name</th><th>status</th><th>schedule</th><th>next run</th><th>last run</th>"
	    "</tr>\n");
	struct rows r = {w, who, xcalloc(PAGE_TASKS, sizeof(struct task)), 0};
	f.limit = PAGE_TASKS;
	int (*cmp)(const void *, const void *) = !sort ? NULL : !strcmp(sort, "name") ? by_name
	    : !strcmp(sort, "status") ? by_status : !strcmp(sort, "last") ? by_last : NULL;
	/* Sorted by the store, over all the tasks the filter selects: the
	 * first page in next-run order sorted would leave out the first ones
	 * by name, or the last run, of a store of more than a page. */
	int by = cmp == by_name ? WEB_SORT_NAME : cmp == by_status ? WEB_SORT_STATUS
	    : cmp == by_last ? WEB_SORT_LAST : 0;
	/* A text too short for the trigram index, or the pages after the
	 * first in next-run order: a bounded walk, said so. */
	struct web_keyset from, next;
	int cut = 0, rc, walk = (f.text && web_search_short(f.text)) ||
	    (!by && web_arg(rq->query, rq->nquery, "after"));
	if (walk && !web_search_after(rq, &from)) {
		free(r.t);
		buf_free(&b);
		web_error(rs, 400, 0, "bad 'after' (KEY.SEQ, from a continue link)");
		return 1;
	}
	if (walk)
		rc = store_web_task_walk(w->st, &f, from, WEB_WALK_EXAMINE, task_take, &r, &cut, &next, &e);
	else if (by)
		rc = store_web_task_sorted(w->st, &f, by, task_take, &r, &e);
	else
		rc = store_web_task_page(w->st, &f, task_take, &r, &e);
	/* A bounded walk's finds, in next-run order as read, sorted here. */
	if (walk && cmp)
		qsort(r.t, (size_t)r.n, sizeof *r.t, cmp);
	/* A full first page goes on, as a walk does, after its last task. */
	if (!rc && !walk && !by && r.n >= PAGE_TASKS) {
		int k = store_web_task_keyset(w->st, r.t[r.n - 1].id, &next, &e);
		if (!k)
			cut = 1;
		else if (k != ST_NOTFOUND)   /* else deleted meanwhile: no link */
			rc = k;
	}
	for (long i = 0; i < r.n; i++) {
		task_row(&b, w, who, &r.t[i]);
		task_free(&r.t[i]);
	}
	free(r.t);
	if (walk && cut) {
		cut_note(&b, rq, &f, r.n, next);
	} else if (cut) {
		static const char *const keep[] = {"status", "scope", NULL};
		buf_printf(&b, "</table><p class=\"muted\" id=\"cut\">%ld tasks (the first ones; narrow"
		    " the filter) <a href=\"", r.n);
		web_search_next(&b, "/tasks", rq, f.text, keep, "&amp;", next);
		buf_puts(&b, "\" id=\"continue\">or see the next ones</a></p></div>\n");
	} else
		buf_printf(&b, "</table><p class=\"muted\">%ld task%s%s</p></div>\n", r.n,
		    r.n == 1 ? "" : "s", r.n >= PAGE_TASKS ? " (the first ones; narrow the filter)" : "");
	return web_page_finish(rs, &b, rc, &e);
}
