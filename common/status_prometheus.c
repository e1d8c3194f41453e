/* The scheduler's figures in Prometheus's text exposition format
 * (task-status --prometheus): counters that pruning does not lower (the
 * store keeps the totals of what it pruned), and gauges of the moment. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "status_prometheus.h"
#include "utf8.h"

static void
label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fprintf(f, "\\n");
		else
			fputc(*v, f);
	}
}

static void
metric_head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

struct totals {
	struct status_count c[32];
	size_t n;
};

static void
add_total(struct totals *t, const char *key, long long n)
{
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->c[i].name, key) == 0) {
			t->c[i].n += n;
			return;
		}
	}
	if (t->n < sizeof t->c / sizeof t->c[0]) {
		snprintf(t->c[t->n].name, sizeof t->c[0].name, "%s", key);
		t->c[t->n++].n = n;
	}
}

static void
take_total(const char *status, long long n, void *arg)
{
	char key[40];
	snprintf(key, sizeof key, "runs.%s", status);
	add_total(arg, key, n);
}

static void
take_pruned(const char *key, long long n, void *arg)
{
	add_total(arg, key, n);
}

/* Labelled with the task's name as well as its id, so a dashboard or an
 * alert says which task a person knows by name (one in the trash has
 * none).  The name comes with the instant, in one read of the tasks. */
static void
print_success(const char *task_id, const char *name, int64_t at, void *arg)
{
	FILE *f = arg;
	fprintf(f, "agentcron_task_last_success_timestamp_seconds{task=\"");
	label(f, task_id);
	if (name) {
		char buf[320];
		utf8_quote(buf, sizeof buf, name, strlen(name));
		fprintf(f, "\",name=\"");
		label(f, buf);
	}
	fprintf(f, "\"} %lld\n", (long long)at);
}

static void
print_receipts(const char *kind, const char *status, long long n, void *arg)
{
	FILE *f = arg;
	fprintf(f, "agentcron_deliveries_total{kind=\"");
	label(f, kind);
	fprintf(f, "\",status=\"");
	label(f, status);
	fprintf(f, "\"} %lld\n", n);
}

int
status_prometheus(struct status *s, FILE *f, struct err *e)
{
	struct totals t = {.n = 0};
	long long in, out, tokens;
	double dollars;
	int rc;
	if ((rc = store_run_counts(s->st, TIME_NONE, take_total, &t, e)) ||
	    (rc = store_pruned_totals(s->st, take_pruned, &t, e)) ||
	    (rc = store_call_tokens(s->st, TIME_NONE, &in, &out, e)) ||
	    (rc = store_call_spend(s->st, NULL, INT64_MIN, &dollars, &tokens, e)))
		return rc;
	for (size_t i = 0; i < t.n; i++)
		if (strcmp(t.c[i].name, "cost_micro") == 0)
			dollars += (double)t.c[i].n / 1e6;
	add_total(&t, "input_tokens", in);
	add_total(&t, "output_tokens", out);
	metric_head(f, "agentcron_runs_total", "counter", "Runs recorded, by how they ended (pruned ones"
	    " included).");
	for (size_t i = 0; i < t.n; i++)
		if (strncmp(t.c[i].name, "runs.", 5) == 0 && strcmp(t.c[i].name, "runs.running") != 0)
			fprintf(f, "agentcron_runs_total{status=\"%s\"} %lld\n", t.c[i].name + 5, t.c[i].n);
	metric_head(f, "agentcron_tokens_total", "counter", "Model tokens used, by direction (pruned"
	    " calls included).");
	for (size_t i = 0; i < t.n; i++)
		if (strcmp(t.c[i].name, "input_tokens") == 0 || strcmp(t.c[i].name, "output_tokens") == 0)
			fprintf(f, "agentcron_tokens_total{direction=\"%.*s\"} %lld\n",
			    (int)strcspn(t.c[i].name, "_"), t.c[i].name, t.c[i].n);
	metric_head(f, "agentcron_cost_dollars_total", "counter", "What model calls cost, in US dollars"
	    " (calls of a model without a price count 0; pruned calls included).");
	fprintf(f, "agentcron_cost_dollars_total %.6f\n", dollars);
	metric_head(f, "agentcron_last_pass_timestamp_seconds", "gauge", "When each host's last"
	    " scheduler pass ran.");
	for (size_t i = 0; i < s->npasses; i++) {
		fprintf(f, "agentcron_last_pass_timestamp_seconds{host=\"");
		label(f, s->passes[i].host);
		fprintf(f, "\"} %lld\n", (long long)s->passes[i].at);
	}
	metric_head(f, "agentcron_task_last_success_timestamp_seconds", "gauge", "When each task's last"
	    " successful run (still kept) ended.");
	if ((rc = store_last_success(s->st, print_success, f, e)))
		return rc;
	metric_head(f, "agentcron_tasks", "gauge", "Tasks, by state.");
	for (int i = 0; i < STATUS_COUNT; i++)
		fprintf(f, "agentcron_tasks{state=\"%s\"} %ld\n", task_status_name(i), s->by_status[i]);
	fprintf(f, "agentcron_tasks{state=\"disabled\"} %ld\n", s->tasks - s->enabled);
	fprintf(f, "agentcron_tasks{state=\"due\"} %ld\n", s->due);
	fprintf(f, "agentcron_tasks{state=\"overdue\"} %ld\n", s->noverdue);
	fprintf(f, "agentcron_tasks{state=\"failing\"} %ld\n", s->nfailing);
	fprintf(f, "agentcron_tasks{state=\"paused_by_failures\"} %ld\n", s->npaused);
	fprintf(f, "agentcron_tasks{state=\"over_budget\"} %ld\n", s->nover);
	fprintf(f, "agentcron_tasks{state=\"blocked\"} %ld\n", s->nblocked);
	metric_head(f, "agentcron_paused", "gauge", "1 while firing is paused (task-tick --pause).");
	fprintf(f, "agentcron_paused %d\n", s->paused != NULL);
	metric_head(f, "agentcron_deliveries_total", "counter", "Deliveries of answers (receipts kept),"
	    " by kind of target and status.");
	if ((rc = store_receipt_counts(s->st, INT64_MIN, print_receipts, f, e)))
		return rc;
	metric_head(f, "agentcron_store_size_bytes", "gauge", "Bytes the store takes.");
	fprintf(f, "agentcron_store_size_bytes %lld\n", (long long)s->bytes);
	return ST_OK;
}
