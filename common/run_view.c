/* task-log RUN_ID: one run in full, with its model calls, their tool calls
 * and its deliveries; and task-log --diff. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver.h"
#include "json_out.h"
#include "log_view.h"
#include "run_diff.h"
#include "store_deliver.h"
#include "task_json.h"

void
log_indented(const char *label, const char *s)
{
	char *all = log_text(s);
	printf("%s\n", label);
	for (const char *p = all; *p;) {
		size_t n = strcspn(p, "\n");
		printf("  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(all);
}

static void
print_short(const char *s, size_t n)
{
	char *line = log_short_line(s, n);
	fputs(line, stdout);
	free(line);
}

/* The tool calls of a model call, two lines each: the call, its outcome. */
static void
show_tool_calls(const char *json)
{
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	const cJSON *t;
	cJSON_ArrayForEach(t, a) {
		const char *server = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "server"));
		const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "tool"));
		const char *res = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "result"));
		const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "error"));
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(t, "duration_ms");
		char *args = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(t, "arguments"));
		char dur[32];
		duration_fmt(cJSON_IsNumber(ms) ? (int64_t)ms->valuedouble : 0, dur, sizeof dur);
		printf("    tool %s%s%s ", server ? server : "", server ? "/" : "", tool ? tool : "?");
		print_short(args ? args : "{}", 200);
		printf("  %s\n      %s", dur, err ? "error: " : "-> ");
		print_short(err ? err : res ? res : "", 200);
		putchar('\n');
		free(args);
	}
	cJSON_Delete(a);
}

/* A part of a run in full, its model calls or its deliveries: into arr
 * (JSON), else lines under a heading. */
struct part {
	struct log_view *lv;
	const struct task *t;
	cJSON *arr;
	int n;
};

static int
show_call(const struct llm_call *c, void *arg)
{
	struct part *cs = arg;
	if (cs->arr) {
		cJSON *o = cJSON_CreateObject();
		char when[40];
		time_fmt_utc(c->created_at, when, sizeof when);
		cJSON_AddStringToObject(o, "at", when);
		cJSON_AddStringToObject(o, "provider", c->provider ? c->provider : "");
		cJSON_AddStringToObject(o, "model", c->model ? c->model : "");
		cJSON_AddItemToObject(o, "answered_model", c->answered_model
		    ? cJSON_CreateString(c->answered_model) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "fallback_from", c->fallback_from
		    ? cJSON_CreateString(c->fallback_from) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "input_tokens", log_json_tokens(c->input_tokens));
		cJSON_AddItemToObject(o, "output_tokens", log_json_tokens(c->output_tokens));
		cJSON_AddItemToObject(o, "cost", c->cost >= 0 ? cJSON_CreateNumber(c->cost)
		    : cJSON_CreateNull());
		cJSON_AddStringToObject(o, "finish_reason", c->finish_reason ? c->finish_reason : "");
		cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
		cJSON_AddItemToObject(o, "error", c->error ? cJSON_CreateString(c->error) : cJSON_CreateNull());
		cJSON *tc = c->tool_calls ? cJSON_Parse(c->tool_calls) : NULL;
		cJSON_AddItemToObject(o, "tool_calls", cJSON_IsArray(tc) ? tc : cJSON_CreateArray());
		if (tc && !cJSON_IsArray(tc))
			cJSON_Delete(tc);
		cJSON_AddItemToArray(cs->arr, o);
		return 0;
	}
	char when[64], dur[32];
	if (!cs->n++)
		printf("model calls:\n");
	log_when(cs->lv, cs->t, c->created_at, when, sizeof when);
	duration_fmt(c->duration_ms, dur, sizeof dur);
	char *model = log_model_shown(c->model, c->answered_model), *end = log_text(c->error ?
	    c->error : c->finish_reason ? c->finish_reason : "");
	char *from = c->fallback_from ? log_text(c->fallback_from) : NULL;
	char tokens[64];
	log_tokens(c, tokens, sizeof tokens);
	printf("  %s  %s/%s%s%s%s  %s%s%s  %s%s\n", when, c->provider ? c->provider : "?", model,
	    from ? " (fallback for " : "", from ? from : "", from ? ")" : "", tokens,
	    tokens[0] ? "  " : "", dur, c->error ? "error: " : "", end);
	free(model);
	free(from);
	free(end);
	show_tool_calls(c->tool_calls);
	return 0;
}

static int
run_receipt(const struct receipt *r, void *arg)
{
	struct part *ro = arg;
	if (ro->arr) {
		cJSON_AddItemToArray(ro->arr, receipt_to_json(r));
		return 0;
	}
	if (!ro->n++)
		printf("deliveries:\n");
	char shown[300];
	deliver_target_mask(r->target, shown, sizeof shown);
	const char *said = r->status == RECEIPT_DELIVERED ? r->answer : r->error;
	char *line = xasprintf("  %s %s %s (%d attempt%s)%s%s", receipt_status_name(r->status),
	    r->kind, shown, r->attempts, r->attempts == 1 ? "" : "s", said ? ": " : "",
	    said ? said : "");
	char *t = log_text(line);
	puts(t);
	free(t);
	free(line);
	return 0;
}

static void
show_fields(struct log_view *lv, const struct run *r, const struct task *t, const char *name)
{
	char when[64], dur[32];
	char *shown = log_text(name);
	printf("run:       %s\n", r->id);
	printf("task:      %s \"%s\"\n", r->task_id, shown);
	free(shown);
	printf("trigger:   %s\n", run_trigger_name(r->trigger));
	log_when(lv, t, r->slot, when, sizeof when);
	printf("slot:      %s\n", r->slot == TIME_NONE ? "none (manual)" : when);
	if (r->exit_code >= 0)
		printf("status:    %s (exit %d)\n", run_status_name(r->status), r->exit_code);
	else
		printf("status:    %s\n", run_status_name(r->status));
	log_when(lv, t, r->started_at, when, sizeof when);
	printf("started:   %s\n", when);
	log_when(lv, t, r->ended_at, when, sizeof when);
	printf("ended:     %s\n", when);
	duration_fmt(r->duration_ms, dur, sizeof dur);
	printf("duration:  %s\n", dur);
	printf("attempt:   %d\n", r->attempt);
	log_indented("output:", r->output && *r->output ? r->output : "(none)");
	log_indented("error:", r->error && *r->error ? r->error : "(none)");
	if (r->note)
		log_indented("note:", r->note);
}

int
log_run(struct log_view *lv, const char *id, struct err *e)
{
	struct run r;
	int rc = store_run_get(lv->st, id, &r, e);
	if (rc)
		return rc;
	const struct task *t = log_task_of(lv, r.task_id);
	const char *name = t && t->name ? t->name : "(deleted)";
	struct part cs = {lv, t, NULL, 0}, ro = {lv, t, NULL, 0};
	struct receipt_filter rf = {.status = -1, .run_id = r.id};
	cJSON *o = NULL;
	if (lv->json) {
		o = run_to_json(&r);
		cJSON_AddStringToObject(o, "name", name);
		cs.arr = cJSON_AddArrayToObject(o, "calls");
		ro.arr = cJSON_AddArrayToObject(o, "deliveries");
	} else {
		show_fields(lv, &r, t, name);
	}
	rc = store_call_list(lv->st, r.id, NULL, 0, show_call, &cs, e);
	if (!rc)
		rc = store_receipt_list(lv->st, &rf, run_receipt, &ro, e);
	if (o) {
		/* Left out when none, as a run without deliveries always was. */
		if (!cJSON_GetArraySize(ro.arr))
			cJSON_DeleteItemFromObjectCaseSensitive(o, "deliveries");
		json_put_line(o);
	}
	run_free(&r);
	return rc;
}

int
log_diff(struct log_view *lv, const char *from_id, const char *to_id, int words, struct err *e)
{
	struct run a, b;
	int found = 1, rc = store_run_get(lv->st, from_id, &a, e);
	if (rc)
		return rc;
	if (to_id) {
		rc = store_run_get(lv->st, to_id, &b, e);
	} else {
		b = a;
		rc = run_diff_base(lv->st, &b, &a, &found, e);
		if (!rc && !found)
			rc = err_set(e, ST_NOTFOUND, "run '%.8s' has no run before it to compare with: no"
			    " earlier success of its task", b.id);
	}
	if (rc) {
		run_free(&a);
		if (to_id || found)
			return rc;
		run_free(&b);
		return rc;
	}
	struct buf out = {0};
	int differ = run_diff(&a, &b, words, &out);
	if (lv->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "from", a.id);
		cJSON_AddStringToObject(o, "to", b.id);
		cJSON_AddBoolToObject(o, "changed", differ);
		cJSON_AddStringToObject(o, "diff", out.data ? out.data : "");
		json_put_line(o);
	} else if (out.data) {
		fputs(out.data, stdout);
	}
	buf_free(&out);
	run_free(&a);
	run_free(&b);
	return ST_OK;
}
