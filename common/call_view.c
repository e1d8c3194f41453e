/* task-log --calls: the model calls themselves, those of no task
 * included; --usage: their tokens and dollars summed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "log_view.h"
#include "spend.h"
#include "tz.h"
#include "usage.h"

struct call_list {
	struct log_view *lv;
	const char *context;
	int64_t since;
	long limit;
};

static cJSON *
call_to_json(const struct llm_call *c)
{
	char when[40];
	cJSON *o = cJSON_CreateObject();
	time_fmt_utc(c->created_at, when, sizeof when);
	cJSON_AddNumberToObject(o, "id", (double)c->id);
	cJSON_AddStringToObject(o, "at", when);
	const char *const strs[][2] = {{"provider", c->provider}, {"model", c->model},
		{"answered_model", c->answered_model}, {"fallback_from", c->fallback_from},
		{"context", c->context}, {"run_id", c->run_id}, {"task_id", c->task_id},
		{"system_prompt", c->system_prompt}, {"prompt", c->prompt}, {"answer", c->answer},
		{"finish_reason", c->finish_reason}, {"error", c->error}};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
		cJSON_AddItemToObject(o, strs[i][0], strs[i][1] ? cJSON_CreateString(strs[i][1]) :
		    cJSON_CreateNull());
	cJSON_AddItemToObject(o, "input_tokens", log_json_tokens(c->input_tokens));
	cJSON_AddItemToObject(o, "output_tokens", log_json_tokens(c->output_tokens));
	cJSON_AddItemToObject(o, "cost", c->cost >= 0 ? cJSON_CreateNumber(c->cost) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
	return o;
}

static void
call_row(struct log_view *lv, const struct llm_call *c, const char *tokens, const char *dur,
    const char *prompt, const char *answer)
{
	char when[64];
	char *model = log_model_shown(c->model, c->answered_model);
	char *context = log_text(c->context ? c->context : "-");
	char *shown = c->error ? xasprintf("error: %s", answer) : xstrdup(answer);
	zone_fmt_time(lv->zs, lv->utc ? "UTC" : NULL, c->created_at, TIME_WALL_ZONE, when,
	    sizeof when);
	const char *cells[] = {when, model, tokens[0] ? tokens : "-", dur, context, prompt, shown};
	table_add(lv->tb, cells);
	free(model);
	free(context);
	free(shown);
}

static int
list_call(const struct llm_call *c, void *arg)
{
	struct call_list *cl = arg;
	struct log_view *lv = cl->lv;
	if (cl->since != TIME_NONE && c->created_at < cl->since)
		return 1; /* newest first: the rest are older still */
	if (cl->context && (!c->context || strcmp(c->context, cl->context) != 0))
		return 0;
	if (cl->limit && lv->n >= cl->limit)
		return 1;
	lv->n++;
	if (lv->json) {
		json_put_line(call_to_json(c));
		return 0;
	}
	char when[64], dur[32], tokens[64];
	log_tokens(c, tokens, sizeof tokens);
	duration_fmt(c->duration_ms, dur, sizeof dur);
	char *prompt = log_short_line(c->prompt ? c->prompt : "", lv->tb ? 40 : 200);
	char *answer = log_short_line(c->error ? c->error : c->answer ? c->answer : "",
	    lv->tb ? 60 : 200);
	if (lv->tb) {
		call_row(lv, c, tokens, dur, prompt, answer);
	} else {
		char in[24] = "", out[24] = "";
		time_fmt_utc(c->created_at, when, sizeof when);
		if (c->input_tokens >= 0)
			snprintf(in, sizeof in, "%ld", c->input_tokens);
		if (c->output_tokens >= 0)
			snprintf(out, sizeof out, "%ld", c->output_tokens);
		printf("%lld\t%s\t", (long long)c->id, when);
		char *model = log_model_shown(c->model, c->answered_model);
		log_tsv_field(model, 0);
		free(model);
		log_tsv_field(c->context ? c->context : "", 0);
		printf("%s\t%s\t%lld\t%s\t", in, out, (long long)c->duration_ms, c->error ? "error" :
		    "ok");
		log_tsv_field(prompt, 0);
		log_tsv_field(answer, 1);
	}
	free(prompt);
	free(answer);
	return 0;
}

int
log_calls(struct log_view *lv, const char *task_id, const char *context, int64_t since,
    long limit, struct err *e)
{
	static const char *const heads[] = {"AT", "MODEL", "TOKENS", "TIME", "CONTEXT", "PROMPT",
		"ANSWER"};
	struct call_list cl = {lv, context, since, limit};
	if (lv->terminal)
		lv->tb = table_new(7, heads);
	return store_call_list(lv->st, NULL, task_id, 0, list_call, &cl, e);
}

static void
usage_json(int by, const struct usage_row *r, int total)
{
	static const char *const keys[] = {"task_id", "model", "day"};
	cJSON *o = cJSON_CreateObject();
	if (total) {
		cJSON_AddBoolToObject(o, "total", 1);
	} else {
		cJSON_AddItemToObject(o, keys[by], *r->key ? cJSON_CreateString(r->key)
		    : cJSON_CreateNull());
		if (by == USAGE_BY_TASK)
			cJSON_AddItemToObject(o, "name", r->name ? cJSON_CreateString(r->name)
			    : cJSON_CreateNull());
		if (by == USAGE_BY_MODEL)
			cJSON_AddItemToObject(o, "answered_model", r->name
			    ? cJSON_CreateString(r->name) : cJSON_CreateNull());
	}
	cJSON_AddNumberToObject(o, "calls", (double)r->calls);
	cJSON_AddNumberToObject(o, "input_tokens", (double)r->in);
	cJSON_AddNumberToObject(o, "output_tokens", (double)r->out);
	cJSON_AddNumberToObject(o, "cost", r->cost);
	cJSON_AddNumberToObject(o, "unpriced_calls", (double)r->unpriced);
	json_put_line(o);
}

/* One row of --usage: JSON, a table row or a line. */
static void
usage_line(struct log_view *lv, int by, const struct usage_row *r, int total)
{
	if (lv->json) {
		usage_json(by, r, total);
		return;
	}
	char key[160], calls[24], in[24], out[24], cost[32];
	const char *none = by == USAGE_BY_TASK ? "(no task)" : "(unknown)";
	if (total)
		snprintf(key, sizeof key, "total");
	else if (by == USAGE_BY_TASK && lv->tb && *r->key)
		snprintf(key, sizeof key, "%.100s %.8s", r->name ? r->name : "(deleted)", r->key);
	else if (by == USAGE_BY_MODEL && r->name)
		snprintf(key, sizeof key, "%.70s -> %.70s", *r->key ? r->key : "?", r->name);
	else
		snprintf(key, sizeof key, "%s", *r->key ? r->key : lv->tb ? none : "-");
	snprintf(calls, sizeof calls, "%ld", r->calls);
	snprintf(in, sizeof in, "%lld", r->in);
	snprintf(out, sizeof out, "%lld", r->out);
	if (lv->tb) {
		money_fmt(r->cost, cost, sizeof cost);
		const char *cells[] = {key, calls, in, out, cost};
		table_add(lv->tb, cells);
		return;
	}
	log_tsv_field(key, 0);
	if (by == USAGE_BY_TASK)
		log_tsv_field(total || !r->name ? "" : r->name, 0);
	printf("%s\t%s\t%s\t%.6f\n", calls, in, out, r->cost);
}

int
log_gate_skips(struct log_view *lv, const struct run_filter *f, struct err *e)
{
	struct run_filter g = *f;
	long n = 0;
	g.gate_skips = 1;
	g.status = -1;
	g.limit = 0;
	g.with_output = 0;
	int rc = store_run_count(lv->st, &g, &n, e);
	if (rc || !n)
		return rc;
	/* Those runs cost nothing: their gate found nothing to do. */
	if (lv->json)
		printf("{\"gate_skips\":%ld,\"calls\":0,\"input_tokens\":0,\"output_tokens\":0,"
		    "\"cost\":0}\n", n);
	else if (lv->tb)
		printf("%ld run%s skipped by %s gate: no model call, no tokens, $0\n", n,
		    n == 1 ? "" : "s", n == 1 ? "its" : "their");
	else
		printf("gate skips\t%ld\n", n);
	return ST_OK;
}

int
log_usage(struct log_view *lv, int by, const struct run_filter *f, struct err *e)
{
	static const char *const firsts[] = {"TASK", "MODEL", "DAY"};
	const char *heads[] = {firsts[by], "CALLS", "INPUT", "OUTPUT", "DOLLARS"};
	struct tz *z = NULL;
	struct usage u;
	int rc = tz_load(lv->utc ? "UTC" : NULL, &z, e);
	if (!rc)
		rc = usage_collect(lv->st, by, f->since, f->task_id, z, &u, e);
	tz_free(z);
	if (rc)
		return rc;
	if (lv->terminal)
		lv->tb = table_new(5, heads);
	for (size_t i = 0; i < u.n; i++)
		usage_line(lv, by, &u.rows[i], 0);
	usage_line(lv, by, &u.total, 1);
	usage_free(&u);
	return ST_OK;
}
