/* task-web's a run (/runs/ID): its output, error, model calls and deliveries. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store.h"
#include "deliver.h"
#include "store_deliver.h"
#include "store_history.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_pages.h"

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

int
web_run_page(struct web *w, const char *arg, const struct web_who *who, struct web_resp *rs)
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
	web_head(&b, "Run", r.status == RUN_RUNNING);
	buf_printf(&b, "<h1>Run %.8s</h1>\n<p><a href=\"/tasks/%s\">its task</a></p>\n<p>", r.id,
	    r.task_id);
	snprintf(path, sizeof path, "/runs/%s/%s", r.id, r.status == RUN_RUNNING ? "cancel" : "rerun");
	web_button(&b, who, path, r.status == RUN_RUNNING ? "Cancel" : "Run again", NULL, 0);
	duration_fmt(r.duration_ms, dur, sizeof dur);
	buf_printf(&b, "</p>\n<div id=\"live\"><table>\n<tr><th>status</th><td class=\"%s\">%s</td></tr>"
	    "<tr><th>trigger</th><td>%s</td></tr><tr><th>started</th>", run_status_name(r.status),
	    run_status_name(r.status), r.trigger >= 0 ? run_trigger_name(r.trigger) : "-");
	web_time_cell(&b, w, NULL, r.started_at);
	buf_puts(&b, "</tr><tr><th>ended</th>");
	web_time_cell(&b, w, NULL, r.ended_at);
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
	return web_page_finish(rs, &b, rc, &e);
}
