/* status_facts.c: the scheduler's facts and their verdict (status_facts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fire_rules.h"
#include "spend.h"
#include "status_budget.h"
#include "status_facts.h"
#include "task.h"
#include "tz.h"
#include "utf8.h"

const char *const status_verdicts[] = {"OK", "WARNING", "CRITICAL", "UNKNOWN"};

/* Text that prints as it reads, on one line: valid UTF-8, controls as
 * spaces; of an error, its first line. */
static char *
one_line(const char *s, int first)
{
	char buf[320];
	if (!s)
		return NULL;
	utf8_quote(buf, sizeof buf, s, first ? strcspn(s, "\n") : strlen(s));
	return xstrdup(buf);
}

static int
take_pass(const struct pass *p, void *arg)
{
	struct status *s = arg;
	s->passes = xrealloc(s->passes, (s->npasses + 1) * sizeof *s->passes);
	struct pass *q = &s->passes[s->npasses++];
	*q = *p;
	/* A host name is whatever TASK_HOST_ID said. */
	utf8_quote(q->host, sizeof q->host, p->host, strlen(p->host));
	utf8_quote(q->version, sizeof q->version, p->version, strlen(p->version));
	return 0;
}

static void
take_count(const char *status, long long n, void *arg)
{
	struct status *s = arg;
	if (s->nruns < sizeof s->runs / sizeof s->runs[0]) {
		snprintf(s->runs[s->nruns].name, sizeof s->runs[0].name, "%s", status);
		s->runs[s->nruns++].n = n;
	}
}

/* The runs of 24 h that their gate found nothing to do for: read among
 * the day's skipped runs only, when there are some. */
static int
count_gate_skips(struct status *s, struct err *e)
{
	long long skipped = 0;
	for (size_t i = 0; i < s->nruns; i++)
		if (strcmp(s->runs[i].name, "skipped") == 0)
			skipped = s->runs[i].n;
	if (!skipped)
		return ST_OK;
	struct run_filter f;
	run_filter_init(&f);
	f.gate_skips = 1;
	f.since = s->now - 86400;
	return store_run_count(s->st, &f, &s->gate_skips, e);
}

static void
item_of(struct status_item *it, const struct task *t)
{
	memcpy(it->id, t->id, sizeof it->id);
	it->name = one_line(t->name, 0);
	it->error = one_line(t->last_error, 1);
	it->due = t->due_at;
	it->failures = t->consecutive_failures;
	snprintf(it->last, sizeof it->last, "%s", t->last_status ? t->last_status : "");
}

/* The first STATUS_SHOWN_MAX overdue in next-run order; past a grace
 * ago none is (due_at is next_run_at or later): stop there. */
static int
take_overdue(const struct task *t, void *arg)
{
	struct status *s = arg;
	if (t->next_run_at == TIME_NONE || t->next_run_at >= s->now - FIRE_GRACE)
		return 1;
	if (rules_overdue(t, s->now))
		item_of(&s->overdue[s->noverdue++], t);
	return s->noverdue >= STATUS_SHOWN_MAX;
}

/* The first STATUS_SHOWN_MAX in list, all counted. */
static void
item_add(struct status_item *list, long *n, const struct task *t, const char *why)
{
	if (*n < STATUS_SHOWN_MAX) {
		item_of(&list[*n], t);
		if (why) {
			free(list[*n].error);
			list[*n].error = one_line(why, 1);
		}
	}
	(*n)++;
}

static int
take_paused(const struct task *t, void *arg)
{
	struct status *s = arg;
	/* A person's pause is theirs to end, as a disable is: not a warning. */
	if (task_paused_by_failures(t))
		item_add(s->paused_by, &s->npaused, t, t->paused);
	return 0;
}

static void
take_over(const struct task *t, const char *why, void *arg)
{
	struct status *s = arg;
	item_add(s->over, &s->nover, t, why);
}

/* Tasks over their own budget, and all over the global one. */
static int
check_budgets(struct status *s, struct err *e)
{
	return status_budgets(s->st, s->now, take_over, s, s->global_over, sizeof s->global_over, e);
}

static int take_blocked(const struct task *t, void *arg);

/* Failing and blocked tasks come from one walk of the index of both. */
static int
take_failing(const struct task *t, void *arg)
{
	struct status *s = arg;
	if (t->last_status && strcmp(t->last_status, "blocked") == 0)
		return take_blocked(t, arg);
	if (t->consecutive_failures <= 0 || t->status == STATUS_CANCELLED)
		return 0;
	if (s->nfailing < STATUS_SHOWN_MAX)
		item_of(&s->failing[s->nfailing], t);
	s->nfailing++;
	return 0;
}

static int
take_blocked(const struct task *t, void *arg)
{
	struct status *s = arg;
	if (t->status != STATUS_CANCELLED)
		item_add(s->blocked, &s->nblocked, t, NULL);
	return 0;
}

static int
count_tasks(struct status *s, struct err *e)
{
	struct task_filter f;
	struct task_tally tally;
	int rc = store_task_tally(s->st, &tally, e);
	if (rc)
		return rc;
	s->tasks = tally.all;
	s->enabled = tally.enabled;
	memcpy(s->by_status, tally.by_status, sizeof s->by_status);
	/* Due now (or asked for) and overdue: counted from an index, as
	 * thousands may be due when task-tick has stopped.  Only the first
	 * overdue are read, walking the next-run order from its start (a
	 * window of it would be sorted whole before the first row). */
	long overdue;
	if ((rc = store_task_due(s->st, s->now, s->now - FIRE_GRACE, &s->due, &overdue, e)))
		return rc;
	task_filter_init(&f);
	f.statuses = 1u << STATUS_PENDING;
	f.enabled = 1;
	/* A limit, so PostgreSQL's planner walks the index rather than sort
	 * every pending task; only jittered tasks (late in next_run_at, not
	 * yet in due_at) come between the overdue ones. */
	f.limit = 10 * STATUS_SHOWN_MAX;
	if ((rc = store_task_list(s->st, &f, take_overdue, s, e)))
		return rc;
	/* The count, read a moment before the list (none listed: none shown). */
	if (s->noverdue && overdue > s->noverdue)
		s->noverdue = overdue;
	task_filter_init(&f);
	f.paused = 1;
	if ((rc = store_task_list(s->st, &f, take_paused, s, e)))
		return rc;
	task_filter_init(&f);
	f.last = 1u << RUN_FAILED | 1u << RUN_TIMEOUT | 1u << RUN_INTERRUPTED | 1u << RUN_BLOCKED;
	return store_task_list(s->st, &f, take_failing, s, e);
}

/* The start of today in the local zone. */
static int64_t
today_start(int64_t now)
{
	struct tz *z;
	struct err e;
	if (tz_load(NULL, &z, &e))
		return now - ((now % 86400) + 86400) % 86400;
	int64_t local = now + tz_offset(z, now), out[2];
	int64_t midnight = floor_div(local, 86400) * 86400;
	int64_t start = tz_from_local(z, midnight, out) > 0 ? out[0] : midnight - tz_offset(z, now);
	tz_free(z);
	return start;
}

int64_t
status_last_pass(const struct status *s)
{
	return s->npasses ? s->passes[0].at : TIME_NONE;
}

void
status_ago_fmt(int64_t secs, char *buf, size_t n)
{
	if (secs < 0)
		secs = 0;
	if (secs < 120)
		snprintf(buf, n, "%lld s", (long long)secs);
	else if (secs < 7200)
		snprintf(buf, n, "%lld min", (long long)(secs / 60));
	else if (secs < 3 * 86400)
		snprintf(buf, n, "%lld h %lld min", (long long)(secs / 3600), (long long)(secs / 60 % 60));
	else
		snprintf(buf, n, "%lld days", (long long)(secs / 86400));
}

static const char *
silence_words(int64_t secs)
{
	static char buf[48];   /* one caller at a time: judge() */
	status_ago_fmt(secs, buf, sizeof buf);
	return buf;
}

/* The verdict of --check and its one-line summary. */
static void
judge(struct status *s)
{
	char ago[48] = "", what[320];
	int64_t at = status_last_pass(s);
	int silent = at == TIME_NONE || s->now - at > s->max_silence;
	if (at != TIME_NONE)
		status_ago_fmt(s->now - at, ago, sizeof ago);
	if (at == TIME_NONE)
		snprintf(what, sizeof what, "no pass recorded");
	else
		snprintf(what, sizeof what, "last pass %s ago on %.200s", ago, s->passes[0].host);
	s->verdict = VERDICT_OK;
	if (s->paused) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "firing paused since %s; %s", s->paused, what);
	} else if (silent) {
		/* Whether or not a task is due: a dead scheduler with only a daily
		 * task would otherwise look well all day. */
		s->verdict = VERDICT_CRITICAL;
		if (s->due)
			snprintf(s->summary, sizeof s->summary, "%s, %ld task%s due: is task-tick running?",
			    what, s->due, s->due == 1 ? "" : "s");
		else
			snprintf(s->summary, sizeof s->summary, "%s (more than %s): is task-tick running?",
			    what, silence_words(s->max_silence));
	} else if (s->noverdue) {
		s->verdict = VERDICT_CRITICAL;
		snprintf(s->summary, sizeof s->summary, "%ld task%s overdue ('%.60s' first); %s",
		    s->noverdue, s->noverdue == 1 ? "" : "s", s->overdue[0].name, what);
	} else if (s->npaused) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "%ld task%s paused by failures ('%.60s'); %s",
		    s->npaused, s->npaused == 1 ? "" : "s", s->paused_by[0].name, what);
	} else if (s->nblocked) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "%ld task%s blocked, waiting for a person"
		    " ('%.60s': %.120s); %s", s->nblocked, s->nblocked == 1 ? "" : "s", s->blocked[0].name,
		    s->blocked[0].error ? s->blocked[0].error : "blocked", what);
	} else if (s->nfailing) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "%ld task%s failing ('%.60s': %d in a row); %s",
		    s->nfailing, s->nfailing == 1 ? "" : "s", s->failing[0].name, s->failing[0].failures,
		    what);
	} else if (s->receipts[RECEIPT_FAILED]) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "%lld deliver%s failed for good (task-log"
		    " --deliveries --status failed); %s", s->receipts[RECEIPT_FAILED],
		    s->receipts[RECEIPT_FAILED] == 1 ? "y" : "ies", what);
	} else {
		snprintf(s->summary, sizeof s->summary, "%s; %ld task%s, none overdue or failing", what,
		    s->tasks, s->tasks == 1 ? "" : "s");
	}
}

int
status_judge_task(struct status *s, const char *which, int64_t grace, int64_t *limit, int64_t *age,
    struct err *e)
{
	struct task t;
	struct zones *zs;
	char id[37], name[160], ago[48], when[64];
	int rc = store_task_resolve(s->st, which, 0, id, e);
	if (rc || (rc = store_task_get(s->st, id, &t, e)))
		return rc;
	zs = zones_new();
	utf8_quote(name, sizeof name, t.name, strlen(t.name));
	int64_t base = t.last_success_at != TIME_NONE ? t.last_success_at : t.created_at, first, then;
	*age = t.last_success_at != TIME_NONE ? s->now - t.last_success_at : -1;
	*limit = -1;
	if ((rc = task_next_slot(&t, zs, base, &first, e)))
		goto out;
	if (first != TIME_NONE) {
		first += task_delay(&t, zs, first);
		if ((rc = task_next_slot(&t, zs, first, &then, e)))
			goto out;
		int64_t g = grace >= 0 ? grace : then != TIME_NONE ? then - first : s->max_silence;
		*limit = first + g - base;
	}
	if (*age >= 0)
		status_ago_fmt(*age, ago, sizeof ago);
	s->verdict = VERDICT_OK;
	if (first != TIME_NONE && s->now > base + *limit) {
		s->verdict = VERDICT_CRITICAL;
		time_fmt_utc(base + *limit, when, sizeof when);
		if (*age >= 0)
			snprintf(s->summary, sizeof s->summary, "task '%s': last success %s ago, one was due"
			    " by %s", name, ago, when);
		else
			snprintf(s->summary, sizeof s->summary, "task '%s': no success since it was made,"
			    " one was due by %s", name, when);
	} else if (task_paused_by_failures(&t)) {
		s->verdict = VERDICT_WARNING;
		snprintf(s->summary, sizeof s->summary, "task '%s' paused by failures: %.200s", name,
		    t.paused);
	} else if (t.consecutive_failures > 0) {
		char err[240];
		s->verdict = VERDICT_WARNING;
		utf8_quote(err, sizeof err, t.last_error ? t.last_error : "", t.last_error ?
		    strcspn(t.last_error, "\n") : 0);
		snprintf(s->summary, sizeof s->summary, "task '%s' failing: %d in a row%s%s", name,
		    t.consecutive_failures, *err ? ": " : "", err);
	} else if (first == TIME_NONE) {
		snprintf(s->summary, sizeof s->summary, "task '%s': no run expected (%s)", name,
		    t.kind == KIND_MANUAL ? "manual" : task_status_name(t.status));
	} else {
		time_fmt_utc(base + *limit, when, sizeof when);
		if (*age >= 0)
			snprintf(s->summary, sizeof s->summary, "task '%s': last success %s ago; the next"
			    " is due by %s", name, ago, when);
		else
			snprintf(s->summary, sizeof s->summary, "task '%s': no success yet; the first is"
			    " due by %s", name, when);
	}
out:
	task_free(&t);
	zones_free(zs);
	return rc;
}

static void
take_receipts(const char *kind, const char *status, long long n, void *arg)
{
	struct status *s = arg;
	int i = receipt_status_parse(status);
	(void)kind;
	if (i >= 0)
		s->receipts[i] += n;
}

int
status_gather(struct status *s, struct err *e)
{
	long long tokens;
	int rc;
	if ((rc = store_now(s->st, &s->now, e)) ||
	    (rc = store_setting_get(s->st, STORE_SETTING_PAUSED, &s->paused, e)) ||
	    (rc = store_pass_list(s->st, take_pass, s, e)) || (rc = count_tasks(s, e)) ||
	    (rc = store_run_counts(s->st, s->now - 86400, take_count, s, e)) ||
	    (rc = count_gate_skips(s, e)) ||
	    (rc = store_call_tokens(s->st, today_start(s->now), &s->tok_in, &s->tok_out, e)) ||
	    (rc = store_call_spend(s->st, NULL, today_start(s->now), &s->dollars_today, &tokens, e)) ||
	    (rc = check_budgets(s, e)) ||
	    (rc = store_receipt_counts(s->st, s->now - 86400, take_receipts, s, e)) ||
	    (rc = store_size(s->st, &s->bytes, &s->free_bytes, e)))
		return rc;
	judge(s);
	return ST_OK;
}

static void
items_free(struct status_item *it, long n)
{
	for (long i = 0; i < n && i < STATUS_SHOWN_MAX; i++) {
		free(it[i].name);
		free(it[i].error);
	}
}

void
status_free(struct status *s)
{
	items_free(s->overdue, s->noverdue);
	items_free(s->failing, s->nfailing);
	items_free(s->blocked, s->nblocked);
	items_free(s->paused_by, s->npaused);
	items_free(s->over, s->nover);
	free(s->passes);
	free(s->paused);
}
