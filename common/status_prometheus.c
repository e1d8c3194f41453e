/* The scheduler's figures in Prometheus's text exposition format
 * (task-status --prometheus): counters that pruning does not lower (the
 * store keeps the totals of what it pruned), and gauges of the moment. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Deliveries by kind of target and status: those kept, and those that
 * went with their pruned runs ("deliveries.KIND.STATUS" in the totals). */
struct delivery_count {
	char kind[40], status[24];
	long long n;
};

struct deliveries {
	struct delivery_count c[64];
	size_t n;
};

struct sums {
	struct totals t;
	struct deliveries d;
};

static void
add_delivery(struct deliveries *d, const char *kind, size_t kind_len, const char *status,
    long long n)
{
	for (size_t i = 0; i < d->n; i++) {
		if (strlen(d->c[i].kind) == kind_len && strncmp(d->c[i].kind, kind, kind_len) == 0 &&
		    strcmp(d->c[i].status, status) == 0) {
			d->c[i].n += n;
			return;
		}
	}
	if (d->n < sizeof d->c / sizeof d->c[0] && kind_len < sizeof d->c[0].kind) {
		snprintf(d->c[d->n].kind, sizeof d->c[0].kind, "%.*s", (int)kind_len, kind);
		snprintf(d->c[d->n].status, sizeof d->c[0].status, "%s", status);
		d->c[d->n++].n = n;
	}
}

static void
take_receipts(const char *kind, const char *status, long long n, void *arg)
{
	struct deliveries *d = arg;
	add_delivery(d, kind, strlen(kind), status, n);
}

static void
take_pruned(const char *key, long long n, void *arg)
{
	struct sums *s = arg;
	const char *dot;
	if (strncmp(key, "deliveries.", 11) == 0 && (dot = strrchr(key + 11, '.')))
		add_delivery(&s->d, key + 11, (size_t)(dot - key - 11), dot + 1, n);
	else
		add_total(&s->t, key, n);
}

static int
by_kind_status(const void *a, const void *b)
{
	const struct delivery_count *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);
	return c ? c : strcmp(x->status, y->status);
}

/* Ended deliveries only grow (pruned ones included); pending ones come
 * and go, a gauge. */
static void
print_deliveries(FILE *f, struct deliveries *d)
{
	qsort(d->c, d->n, sizeof d->c[0], by_kind_status);
	metric_head(f, "agentcron_deliveries_total", "counter", "Deliveries of answers that ended,"
	    " by kind of target and status (those of pruned runs included).");
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->c[i].status, "pending") == 0)
			continue;
		fprintf(f, "agentcron_deliveries_total{kind=\"");
		label(f, d->c[i].kind);
		fprintf(f, "\",status=\"");
		label(f, d->c[i].status);
		fprintf(f, "\"} %lld\n", d->c[i].n);
	}
	metric_head(f, "agentcron_deliveries_pending", "gauge", "Deliveries of answers not ended yet,"
	    " by kind of target.");
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->c[i].status, "pending") != 0)
			continue;
		fprintf(f, "agentcron_deliveries_pending{kind=\"");
		label(f, d->c[i].kind);
		fprintf(f, "\"} %lld\n", d->c[i].n);
	}
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

int
status_prometheus(struct status *s, FILE *f, struct err *e)
{
	struct sums sums = {.t.n = 0};
	struct totals *t = &sums.t;
	long long in, out, tokens;
	double dollars;
	int rc;
	if ((rc = store_run_counts(s->st, TIME_NONE, take_total, t, e)) ||
	    (rc = store_pruned_totals(s->st, take_pruned, &sums, e)) ||
	    (rc = store_receipt_counts(s->st, INT64_MIN, take_receipts, &sums.d, e)) ||
	    (rc = store_call_tokens(s->st, TIME_NONE, &in, &out, e)) ||
	    (rc = store_call_spend(s->st, NULL, INT64_MIN, &dollars, &tokens, e)))
		return rc;
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->c[i].name, "cost_micro") == 0)
			dollars += (double)t->c[i].n / 1e6;
	add_total(t, "input_tokens", in);
	add_total(t, "output_tokens", out);
	metric_head(f, "agentcron_runs_total", "counter", "Runs recorded, by how they ended (pruned ones"
	    " included).");
	for (size_t i = 0; i < t->n; i++)
		if (strncmp(t->c[i].name, "runs.", 5) == 0 && strcmp(t->c[i].name, "runs.running") != 0)
			fprintf(f, "agentcron_runs_total{status=\"%s\"} %lld\n", t->c[i].name + 5, t->c[i].n);
	metric_head(f, "agentcron_tokens_total", "counter", "Model tokens used, by direction (pruned"
	    " calls included).");
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->c[i].name, "input_tokens") == 0 || strcmp(t->c[i].name, "output_tokens") == 0)
			fprintf(f, "agentcron_tokens_total{direction=\"%.*s\"} %lld\n",
			    (int)strcspn(t->c[i].name, "_"), t->c[i].name, t->c[i].n);
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
	print_deliveries(f, &sums.d);
	metric_head(f, "agentcron_store_size_bytes", "gauge", "Bytes the store takes.");
	fprintf(f, "agentcron_store_size_bytes %lld\n", (long long)s->bytes);
	return ST_OK;
}
