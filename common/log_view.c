/* The helpers every view of task-log shares, the run history and the
 * receipts of deliveries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "log_view.h"
#include "store_deliver.h"
#include "task_json.h"
#include "utf8.h"

void
log_view_free(struct log_view *lv)
{
	table_free(lv->tb);
	lv->tb = NULL;
	if (lv->have_task)
		task_free(&lv->task);
	lv->have_task = 0;
}

/* The task of a run (NULL if purged); valid until the next call. */
const struct task *
log_task_of(struct log_view *lv, const char *id)
{
	struct err e;
	if (lv->have_task && strcmp(lv->task.id, id) == 0)
		return &lv->task;
	if (lv->have_task)
		task_free(&lv->task);
	lv->have_task = store_task_get(lv->st, id, &lv->task, &e) == ST_OK;
	return lv->have_task ? &lv->task : NULL;
}

void
log_when(struct log_view *lv, const struct task *t, int64_t when, char *buf, size_t n)
{
	if (when == TIME_NONE)
		snprintf(buf, n, "-");
	else if (t)
		task_fmt_time(t, lv->zs, when, TIME_WALL_ZONE, buf, n);
	else
		time_fmt_utc(when, buf, n);
}

/* A field of a tab-separated line: tabs and line ends become spaces,
 * bytes that are not UTF-8 U+FFFD. */
void
log_tsv_field(const char *s, int last)
{
	char *text = utf8_clean(s, strlen(s));
	for (const char *p = text; *p; p++)
		putchar(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
	putchar(last ? '\n' : '\t');
	free(text);
}

char *
log_text(const char *s)
{
	return utf8_clean(s ? s : "", s ? strlen(s) : 0);
}

char *
log_short_line(const char *s, size_t n)
{
	char *all = log_text(s);
	size_t len = strlen(all), k = len > n ? (size_t)utf8_cut(all, n) : len;
	for (size_t i = 0; i < k; i++)
		if (all[i] == '\n' || all[i] == '\r' || all[i] == '\t')
			all[i] = ' ';
	if (k < len) {
		all = xrealloc(all, k + 4);
		memcpy(all + k, "...", 4);
	}
	return all;
}

/* Nothing when the provider said nothing (a failed call). */
void
log_tokens(const struct llm_call *c, char *buf, size_t n)
{
	buf[0] = 0;
	if (c->input_tokens >= 0 && c->output_tokens >= 0)
		snprintf(buf, n, "%ld in, %ld out", c->input_tokens, c->output_tokens);
	else if (c->input_tokens >= 0 || c->output_tokens >= 0)
		snprintf(buf, n, c->input_tokens >= 0 ? "%ld in" : "%ld out", c->input_tokens >= 0 ?
		    c->input_tokens : c->output_tokens);
}

cJSON *
log_json_tokens(long n)
{
	return n >= 0 ? cJSON_CreateNumber((double)n) : cJSON_CreateNull();
}

char *
log_model_shown(const char *model, const char *answered)
{
	char *m = xasprintf("%s%s%s", model ? model : "?", answered && (!model ||
	    strcmp(answered, model)) ? " -> " : "", answered && (!model || strcmp(answered, model))
	    ? answered : "");
	char *t = log_text(m);
	free(m);
	return t;
}

static int
list_one(const struct run *r, void *arg)
{
	struct log_view *lv = arg;
	const struct task *t = log_task_of(lv, r->task_id);
	const char *name = t && t->name ? t->name : "(deleted)";
	char when[64], dur[32], code[16];
	lv->n++;
	if (lv->json) {
		/* The error text, not the output: that can be a megabyte (task-log RUN_ID). */
		struct run brief = *r;
		brief.output = NULL;
		cJSON *o = run_to_json(&brief);
		cJSON_AddStringToObject(o, "name", name);
		json_put_line(o);
		return 0;
	}
	snprintf(code, sizeof code, r->exit_code >= 0 ? "%d" : "-", r->exit_code);
	if (!lv->tb) {
		char slot[40] = "-";
		time_fmt_utc(r->started_at, when, sizeof when);
		if (r->slot != TIME_NONE)
			time_fmt_utc(r->slot, slot, sizeof slot);
		printf("%s\t%s\t%s\t", r->id, when, r->task_id);
		log_tsv_field(name, 0);
		printf("%s\t%s\t%s\t%s\t%lld\n", run_trigger_name(r->trigger), slot,
		    run_status_name(r->status), code, (long long)(r->duration_ms > 0 ? r->duration_ms : 0));
		return 0;
	}
	char rid[9], tid[9];
	snprintf(rid, sizeof rid, "%.8s", r->id);
	snprintf(tid, sizeof tid, "%.8s", r->task_id);
	/* One zone for the column, so the rows read in order. */
	zone_fmt_time(lv->zs, lv->utc ? "UTC" : NULL, r->started_at, TIME_WALL_ZONE, when, sizeof when);
	duration_fmt(r->duration_ms, dur, sizeof dur);
	const char *cells[] = {rid, when, tid, name, run_trigger_name(r->trigger),
		run_status_name(r->status), code, dur};
	table_add(lv->tb, cells);
	return 0;
}

int
log_runs(struct log_view *lv, const struct run_filter *f, struct err *e)
{
	static const char *const heads[] = {"RUN", "STARTED", "TASK", "NAME", "TRIGGER",
		"STATUS", "EXIT", "TIME"};
	if (lv->terminal)
		lv->tb = table_new(8, heads);
	return store_run_list(lv->st, f, list_one, lv, e);
}

static int
list_receipt(const struct receipt *r, void *arg)
{
	struct log_view *lv = arg;
	lv->n++;
	if (lv->json) {
		json_put_line(receipt_to_json(r));
		return 0;
	}
	struct buf b = {0};
	receipt_line(r, &b);
	char *shown = log_text(b.data);
	puts(shown);
	free(shown);
	buf_free(&b);
	return 0;
}

int
log_deliveries(struct log_view *lv, int status, const char *task_id, long limit, struct err *e)
{
	struct receipt_filter rf = {.status = status, .task_id = task_id, .limit = limit};
	return store_receipt_list(lv->st, &rf, list_receipt, lv, e);
}
