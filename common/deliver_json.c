/* The JSON task-deliver sends and prints. */
#include <stdlib.h>
#include <string.h>

#include "deliver_json.h"
#include "fire_env.h"
#include "json_out.h"
#include "notify.h"
#include "run_diff.h"
#include "task_json.h"

struct scan {
	const char *run_id;
	int found;
	struct deliver_history *h;
};

static int
is_end(int status)
{
	return status == RUN_SUCCESS || status == RUN_FAILED || status == RUN_TIMEOUT ||
	    status == RUN_INTERRUPTED || status == RUN_BLOCKED;
}

static int
scan_history(const struct run *r, void *arg)
{
	struct scan *s = arg;
	struct deliver_history *h = s->h;
	if (!s->found) {
		s->found = strcmp(r->id, s->run_id) == 0;
		return 0;
	}
	/* A replay is no occurrence of its task: not the answer before. */
	if (r->trigger == TRIGGER_REPLAY)
		return 0;
	if (!h->has_prev && is_end(r->status)) {
		h->prev = *r;
		h->prev.output = h->prev.error = h->prev.note = NULL;
		h->has_prev = 1;
	}
	if (!h->has_success && r->status == RUN_SUCCESS) {
		h->prev_success = xstrdup(r->output ? r->output : "");
		h->has_success = 1;
	}
	return h->has_prev && h->has_success;
}

int
deliver_history_get(struct store *st, const struct run *r, struct deliver_history *h,
    struct err *e)
{
	struct scan s = {r->id, 0, h};
	struct run_filter f;
	memset(h, 0, sizeof *h);
	run_filter_init(&f);
	f.task_id = r->task_id;
	f.limit = 200;
	f.with_output = 1;
	return store_run_list(st, &f, scan_history, &s, e);
}

void
deliver_history_free(struct deliver_history *h)
{
	free(h->prev_success);
	h->prev_success = NULL;
}

struct tokens {
	long long in, out;
	double cost;
	int any_cost;
};

static int
add_call(const struct llm_call *c, void *arg)
{
	struct tokens *t = arg;
	t->in += c->input_tokens > 0 ? c->input_tokens : 0;
	t->out += c->output_tokens > 0 ? c->output_tokens : 0;
	if (c->cost >= 0) {
		t->cost += c->cost;
		t->any_cost = 1;
	}
	return 0;
}

/* The tokens and dollars of run_id's model calls, into o. */
static void
add_spend(struct store *st, const char *run_id, cJSON *o)
{
	struct tokens tk = {0};
	struct err e;
	if (store_call_list(st, run_id, NULL, 0, add_call, &tk, &e))
		tk.in = tk.out = 0;
	cJSON_AddNumberToObject(o, "input_tokens", (double)tk.in);
	cJSON_AddNumberToObject(o, "output_tokens", (double)tk.out);
	if (tk.any_cost)
		cJSON_AddNumberToObject(o, "cost", tk.cost);
	else
		cJSON_AddNullToObject(o, "cost");
}

static cJSON *
text_or_null(const char *v)
{
	return v ? cJSON_CreateString(v) : cJSON_CreateNull();
}

char *
deliver_change_diff(struct store *st, const struct run *r)
{
	if (r->status != RUN_SUCCESS)
		return NULL;
	struct run prev;
	int found = 0;
	struct err e;
	if (run_diff_base(st, r, &prev, &found, &e) || !found) {
		if (found)
			run_free(&prev);
		return NULL;
	}
	struct buf d = {0};
	int changed = run_diff(&prev, r, 0, &d);
	run_free(&prev);
	if (!changed) {
		free(d.data);
		return NULL;
	}
	return d.data;
}

char *
deliver_run_json(struct store *st, const struct run *r, const char *task_name, int64_t now,
    const char *diff)
{
	cJSON *o = cJSON_CreateObject(), *d;
	cJSON_AddStringToObject(o, "type", "run.ended");
	cJSON_AddItemToObject(o, "timestamp", json_time(now));
	d = cJSON_AddObjectToObject(o, "data");
	cJSON_AddStringToObject(d, "task_id", r->task_id);
	cJSON_AddItemToObject(d, "task_name", text_or_null(task_name));
	cJSON_AddStringToObject(d, "run_id", r->id);
	cJSON_AddItemToObject(d, "slot", json_time(r->slot));
	cJSON_AddStringToObject(d, "trigger", r->trigger >= 0 ? run_trigger_name(r->trigger) : "unknown");
	cJSON_AddStringToObject(d, "status", run_status_name(r->status));
	cJSON_AddNumberToObject(d, "attempt", r->attempt);
	cJSON_AddItemToObject(d, "started_at", json_time(r->started_at));
	cJSON_AddItemToObject(d, "ended_at", json_time(r->ended_at));
	cJSON_AddItemToObject(d, "answer", text_or_null(r->output));
	cJSON_AddItemToObject(d, "error", text_or_null(r->error));
	cJSON_AddItemToObject(d, "diff", text_or_null(diff));
	add_spend(st, r->id, d);
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

/* The event a hook hears of a success: the most telling, as
 * notify_run_event says it under "always" (a first success is a change). */
static int
success_event(struct store *st, const struct run *r)
{
	struct deliver_history h;
	struct err e;
	int event = EV_SUCCESS;
	if (!deliver_history_get(st, r, &h, &e)) {
		if (h.has_prev && h.prev.status != RUN_SUCCESS)
			event = EV_RECOVERY;
		else if (!h.has_success || strcmp(h.prev_success, r->output ? r->output : "") != 0)
			event = EV_CHANGE;
	}
	deliver_history_free(&h);
	return event;
}

/* A hook's script is a target as it is. */
char *
deliver_hook_json(struct store *st, const struct run *r, const char *task_name,
    const char *delivery_id)
{
	int event = r->status != RUN_SUCCESS ? EV_FAILURE : success_event(st, r);
	/* A change carries what changed, from the answer before. */
	char *diff = event == EV_CHANGE ? deliver_change_diff(st, r) : NULL;
	struct hook_event ev = {event, r->task_id, task_name, r, NULL, diff};
	char *line = fire_hook_event(&ev);
	cJSON *o = cJSON_Parse(line);
	free(line);
	if (!o) {
		free(diff);
		return NULL;
	}
	/* A delivery carries the whole answer, and so the whole diff. */
	cJSON_ReplaceItemInObject(o, "output", cJSON_CreateString(r->output ? r->output : ""));
	cJSON_ReplaceItemInObject(o, "output_truncated", cJSON_CreateFalse());
	if (diff) {
		cJSON_ReplaceItemInObject(o, "diff", cJSON_CreateString(diff));
		cJSON_ReplaceItemInObject(o, "diff_truncated", cJSON_CreateFalse());
	}
	free(diff);
	cJSON_AddStringToObject(o, "delivery_id", delivery_id);
	cJSON_AddNumberToObject(o, "attempt", r->attempt);
	add_spend(st, r->id, o);
	char *s = json_print_line(o), *nl = xasprintf("%s\n", s);
	cJSON_Delete(o);
	free(s);
	return nl;
}

/* As task-log --deliveries says a receipt, without when it was made and
 * last attempted: this attempt's own line. */
void
deliver_report(const struct receipt *r)
{
	cJSON *o = receipt_to_json(r);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "created_at");
	cJSON_DeleteItemFromObjectCaseSensitive(o, "last_attempt_at");
	json_put_line(o);
}
