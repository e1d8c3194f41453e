/* mkhistory: a year (or DAYS) of a minutely task's history, quickly,
 * through the store API, pruned as task-tick's passes prune it.
 *   mkhistory STORE DAYS [BYTES]
 * One task, `* * * * *`, made at TASK_NOW (default 2026-01-01T00:00:00Z),
 * and a successful run a minute with BYTES (default 4096) of output that
 * differs from run to run; each simulated day is one transaction, then a
 * pass's pruning (history_prune with task-tick's budget, and the space
 * given back as a pass gives it).  Keep settings come from the
 * configuration file, as for task-tick.  At the end the task's next run is
 * a day after the last, so a pass at the end is idle; that instant is
 * printed (RFC 3339) on standard output.  Progress on standard error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "store_backend.h"

#define PASS_BUDGET_MS 1000   /* task-tick's PRUNE_PASS_MS */

static const char *const words[] = {"status", "queue", "latency", "normal", "deploy", "error",
	"summary", "report", "metrics", "healthy", "warning", "backlog", "customer", "review",
	"incident", "resolved"};

/* BYTES of text, different for every run. */
static void
fill_output(char *out, size_t bytes, unsigned long long seed)
{
	size_t n = 0;
	while (n + 12 < bytes) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		int w = snprintf(out + n, bytes - n, "%s %llu ", words[(seed >> 33) % 16],
		    (seed >> 40) % 1000);
		n += (size_t)w;
	}
	memset(out + n, '.', bytes - n);
	out[bytes] = 0;
}

static int
make_task(struct store *st, int64_t start, struct task *t, struct err *e)
{
	int dup;
	char dup_id[37];
	task_init(t);
	set_str(&t->name, "minutely");
	set_str(&t->prompt, "Check the queue and summarise.");
	set_str(&t->exec, "true");
	set_str(&t->tz, "UTC");
	set_str(&t->cron, "* * * * *");
	t->kind = KIND_CRON;
	t->created_at = t->updated_at = start;
	t->next_run_at = t->due_at = start;
	return store_task_add(st, t, 0, &dup, dup_id, e);
}

static int
one_day(struct store *st, const struct task *t, int64_t day0, char *out, size_t bytes, long *n,
    struct err *e)
{
	int rc = store_begin(st, e);
	for (int m = 0; !rc && m < 1440; m++) {
		struct run r;
		int dup;
		run_init(&r);
		if (uuid4(r.id) != 0) {
			rc = err_set(e, ST_ERR, "no randomness");
			break;
		}
		memcpy(r.task_id, t->id, sizeof r.task_id);
		r.slot = r.started_at = day0 + 60 * m;
		r.ended_at = r.started_at + 2;
		r.trigger = TRIGGER_SCHEDULE;
		r.status = RUN_SUCCESS;
		r.exit_code = 0;
		r.duration_ms = 2000;
		r.attempt = 1;
		r.arming = t->arming;
		fill_output(out, bytes, (unsigned long long)(*n)++);
		r.output = out;
		rc = st->ops->run_insert(st, &r, 0, &dup, e);
	}
	if (!rc)
		return store_commit(st, e);
	store_rollback(st);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: mkhistory STORE DAYS [BYTES]\n");
		return 2;
	}
	long days = atol(argv[2]);
	size_t bytes = argc > 3 ? (size_t)atol(argv[3]) : 4096;
	struct err e;
	struct store *st;
	struct config *cf = NULL;
	struct history_opts ho;
	struct task t;
	int64_t start;
	const char *now = getenv("TASK_NOW");
	if (time_parse_rfc3339(now && *now ? now : "2026-01-01T00:00:00Z", &start) != 0) {
		fprintf(stderr, "mkhistory: bad TASK_NOW\n");
		return 2;
	}
	if (config_load(&cf, &e) || history_opts_config(&ho, cf, &e) ||
	    store_open(argv[1], 0, &st, &e) || make_task(st, start, &t, &e)) {
		fprintf(stderr, "mkhistory: %s\n", e.msg);
		return 1;
	}
	char *out = xmalloc(bytes + 1);
	long n = 0, pruned = 0;
	int rc = ST_OK;
	for (long d = 0; !rc && d < days; d++) {
		int64_t day0 = start + d * 86400;
		struct prune_stats s;
		int done;
		rc = one_day(st, &t, day0, out, bytes, &n, &e);
		if (!rc)
			rc = history_prune(st, &ho, day0 + 86400, 0, PASS_BUDGET_MS, &s, &done, &e);
		if (!rc && (s.runs || s.messages) && (rc = history_give_back(st, &e)) == ST_OK)
			pruned += s.runs;
		if (!rc && d % 30 == 29)
			fprintf(stderr, "mkhistory: day %ld: %ld runs made, %ld pruned\n", d + 1, n, pruned);
	}
	int64_t end = start + days * 86400;
	struct task now_t;
	if (!rc && !(rc = store_task_get(st, t.id, &now_t, &e))) {
		now_t.next_run_at = now_t.due_at = end + 86400;
		now_t.last_run_at = end - 60;
		rc = store_task_put(st, &now_t, &e);
		task_free(&now_t);
	}
	if (rc) {
		fprintf(stderr, "mkhistory: %s\n", e.msg);
	} else {
		char when[40];
		time_fmt_utc(end, when, sizeof when);
		printf("%s\n", when);
	}
	free(out);
	task_free(&t);
	store_close(st);
	config_free(cf);
	return rc ? 1 : 0;
}
