/* The pure rules of firing (common/fire_rules.c) as tables: which
 * occurrence a due task fires under each missed-run policy, and the state
 * a task is left in after each way a run can end. */
#include <stdlib.h>
#include <string.h>

#include "fire_rules.h"
#include "tap.h"

#define H 3600
#define D 86400
#define T0 1795417200 /* 2026-11-23T07:00:00Z, a Monday */
#define NONE TIME_NONE

static int64_t
utc(const char *s)
{
	int64_t t = 0;
	if (time_parse_rfc3339(s, &t) != 0)
		abort();
	return t;
}

/* A task as the claim sees it: kind by its schedule text. */
static void
make(struct task *t, const char *sched, int missed, int64_t next, int jitter)
{
	task_init(t);
	snprintf(t->id, sizeof t->id, "5e1b0c4e-8a34-4d4e-9a0e-3d2f1c0b9a87");
	t->tz = xstrdup("UTC");
	t->missed = missed;
	t->jitter = jitter;
	if (strncmp(sched, "at ", 3) == 0 || strncmp(sched, "plan ", 5) == 0) {
		t->kind = sched[0] == 'a' ? KIND_AT : KIND_PLAN;
		const char *p = strchr(sched, ' ') + 1;
		while (*p) {
			t->plan = xrealloc(t->plan, (t->nplan + 1) * sizeof *t->plan);
			char one[32];
			snprintf(one, sizeof one, "%.20s", p);
			t->plan[t->nplan++] = utc(one);
			p += strcspn(p, " ");
			p += strspn(p, " ");
		}
	} else if (strcmp(sched, "manual") == 0) {
		t->kind = KIND_MANUAL;
	} else {
		t->kind = KIND_CRON;
		t->cron = xstrdup(sched);
	}
	t->next_run_at = next;
	t->due_at = next == NONE ? NONE : next + task_jitter_delay(t->id, next, jitter);
}

static void
due_cases(struct zones *zs)
{
	static const struct {
		const char *desc, *sched;
		int missed;
		const char *next, *now;
		int fire;
		const char *slot, *after, *trigger;
	} cases[] = {
		{"cron on time", "0 7 * * *", MISSED_ONCE, "2026-11-23T07:00:00Z", "2026-11-23T07:00:10Z",
		    1, "2026-11-23T07:00:00Z", "2026-11-24T07:00:00Z", "schedule"},
		{"cron 59 s late is on time", "0 7 * * *", MISSED_ONCE, "2026-11-23T07:00:00Z",
		    "2026-11-23T07:00:59Z", 1, "2026-11-23T07:00:00Z", "2026-11-24T07:00:00Z", "schedule"},
		{"cron 5 min late, missed once: a catch-up", "0 7 * * *", MISSED_ONCE,
		    "2026-11-23T07:00:00Z", "2026-11-23T07:05:00Z", 1, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "catchup"},
		{"cron 5 min late, missed skip: moves on", "0 7 * * *", MISSED_SKIP,
		    "2026-11-23T07:00:00Z", "2026-11-23T07:05:00Z", 0, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "catchup"},
		{"three days down, missed once: the newest fires once", "0 7 * * *", MISSED_ONCE,
		    "2026-11-20T07:00:00Z", "2026-11-23T09:00:00Z", 1, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "catchup"},
		{"three days down, missed skip: nothing", "0 7 * * *", MISSED_SKIP,
		    "2026-11-20T07:00:00Z", "2026-11-23T09:00:00Z", 0, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "catchup"},
		{"three days down, missed skip, newest on time: fires", "0 7 * * *", MISSED_SKIP,
		    "2026-11-20T07:00:00Z", "2026-11-23T07:00:30Z", 1, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "schedule"},
		{"three days down, missed all: the oldest, then the next missed", "0 7 * * *", MISSED_ALL,
		    "2026-11-20T07:00:00Z", "2026-11-23T09:00:00Z", 1, "2026-11-20T07:00:00Z",
		    "2026-11-21T07:00:00Z", "catchup"},
		{"ten days of hourly runs, missed all: no older than the newest 100", "0 * * * *",
		    MISSED_ALL, "2026-11-13T09:00:00Z", "2026-11-23T09:30:00Z", 1,
		    "2026-11-19T06:00:00Z", "2026-11-19T07:00:00Z", "catchup"},
		{"a one-shot on time", "at 2026-11-23T07:00:00Z", MISSED_ONCE, "2026-11-23T07:00:00Z",
		    "2026-11-23T07:00:00Z", 1, "2026-11-23T07:00:00Z", NULL, "schedule"},
		{"a one-shot a day late still fires (missed once)", "at 2026-11-23T07:00:00Z", MISSED_ONCE,
		    "2026-11-23T07:00:00Z", "2026-11-24T07:00:00Z", 1, "2026-11-23T07:00:00Z", NULL,
		    "catchup"},
		{"a one-shot's retry: its backoff instant, never skipped", "at 2026-11-23T07:00:00Z",
		    MISSED_SKIP, "2026-11-23T07:01:00Z", "2026-11-23T09:00:00Z", 1, "2026-11-23T07:01:00Z",
		    NULL, "retry"},
		{"a plan's middle instant: the next one after", "plan 2026-11-23T07:00:00Z 2026-11-24T07:00:00Z",
		    MISSED_ONCE, "2026-11-23T07:00:00Z", "2026-11-23T07:00:05Z", 1, "2026-11-23T07:00:00Z",
		    "2026-11-24T07:00:00Z", "schedule"},
		{"a plan both of whose instants passed, missed once: the last", "plan 2026-11-23T07:00:00Z 2026-11-24T07:00:00Z",
		    MISSED_ONCE, "2026-11-23T07:00:00Z", "2026-11-25T07:00:00Z", 1, "2026-11-24T07:00:00Z",
		    NULL, "catchup"},
		{"a manual task never fires on its own", "manual", MISSED_ONCE, NULL,
		    "2026-11-23T07:00:00Z", 0, NULL, NULL, "schedule"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		struct decision d;
		struct err e;
		make(&t, cases[i].sched, cases[i].missed, cases[i].next ? utc(cases[i].next) : NONE, 0);
		int rc = rules_due(&t, zs, utc(cases[i].now), &d, &e);
		check_int(rc, ST_OK, "%s: decided", cases[i].desc);
		check_int(d.fire, cases[i].fire, "%s: fires", cases[i].desc);
		check_int(d.slot, cases[i].slot ? utc(cases[i].slot) : NONE, "%s: the occurrence", cases[i].desc);
		check_int(d.next, cases[i].after ? utc(cases[i].after) : NONE, "%s: the next run", cases[i].desc);
		check_str(run_trigger_name(d.trigger), cases[i].trigger, "%s: trigger", cases[i].desc);
		task_free(&t);
	}
}

/* Jitter delays the due instant, fixed per (task, slot); lateness counts
 * from it. */
static void
jitter_cases(struct zones *zs)
{
	struct task t;
	struct decision d;
	struct err e;
	make(&t, "0 7 * * *", MISSED_SKIP, T0, 600);
	int64_t delay = task_jitter_delay(t.id, T0, 600);
	check(delay >= 0 && delay <= 600, "the delay is within the jitter: %lld s", (long long)delay);
	check_int(t.due_at, T0 + delay, "due at the slot plus its delay");
	check_int(rules_due(&t, zs, t.due_at + 30, &d, &e), ST_OK, "decided");
	check_int(d.fire, 1, "30 s after its due instant is on time, even with --missed skip");
	check_int(d.slot, T0, "the nominal slot is reported, not the delayed one");
	rules_set_next(&t, NULL, d.next);
	check_int(t.due_at, d.next + task_jitter_delay(t.id, d.next, 600), "the next delay is its own");
	task_free(&t);
}

static struct run
ended(const char *status, int exit_code, int attempt, const char *prev)
{
	struct run r;
	memset(&r, 0, sizeof r);
	r.status = run_status_parse(status);
	check(r.status >= 0, "a run status: %s", status);
	r.exit_code = exit_code;
	r.attempt = attempt;
	r.started_at = T0;
	r.slot = T0;
	snprintf(r.prev_status, sizeof r.prev_status, "%s", prev ? prev : "");
	return r;
}

static void
after_cases(void)
{
	static const struct {
		const char *desc, *sched;
		int retries, status_before;
		const char *next_before;     /* next_run_at as the claim left it */
		const char *run_status;
		int exit_code, attempt;
		const char *prev;
		int status, failures;
		int64_t next;                /* NONE, or seconds after now */
	} cases[] = {
		{"a one-shot that succeeded is completed", "at 2026-11-23T07:00:00Z", -1, STATUS_RUNNING,
		    NULL, "success", 0, 1, NULL, STATUS_COMPLETED, 0, NONE},
		{"a one-shot's first failure retries 60 s after its minute", "at 2026-11-23T07:00:00Z", -1,
		    STATUS_RUNNING, NULL, "failed", 1, 1, NULL, STATUS_PENDING, 1, 55},
		{"its third failure, of 3 retries, 240 s after its minute", "at 2026-11-23T07:00:00Z", -1,
		    STATUS_RUNNING, NULL, "failed", 1, 3, NULL, STATUS_PENDING, 1, 235},
		{"its fourth failure: failed for good", "at 2026-11-23T07:00:00Z", -1, STATUS_RUNNING,
		    NULL, "timeout", -1, 4, NULL, STATUS_FAILED, 1, NONE},
		{"retries 0 (toolpack): the first failure is final", "at 2026-11-23T07:00:00Z", 0,
		    STATUS_RUNNING, NULL, "failed", 1, 1, NULL, STATUS_FAILED, 1, NONE},
		{"retries forever (Kai): attempt 50 still backs off, capped at an hour",
		    "at 2026-11-23T07:00:00Z", TASK_RETRIES_FOREVER, STATUS_RUNNING, NULL, "failed", 1, 50,
		    NULL, STATUS_PENDING, 1, 3595},
		{"exit 78, retrying will not help: failed at once", "at 2026-11-23T07:00:00Z", -1,
		    STATUS_RUNNING, NULL, "failed", EXEC_EXIT_PERMANENT, 1, NULL, STATUS_FAILED, 1, NONE},
		{"exit 78 even with retries forever", "at 2026-11-23T07:00:00Z", TASK_RETRIES_FOREVER,
		    STATUS_RUNNING, NULL, "failed", EXEC_EXIT_PERMANENT, 1, NULL, STATUS_FAILED, 1, NONE},
		{"a cron failure without retries moves on, counted", "0 7 * * *", 0, STATUS_RUNNING,
		    "2026-11-24T07:00:00Z", "failed", 2, 1, NULL, STATUS_PENDING, 1, -1},
		{"a cron failure retries its instant after 30 s", "0 7 * * *", -1, STATUS_RUNNING,
		    "2026-11-24T07:00:00Z", "failed", 2, 1, NULL, STATUS_PENDING, 0, -5},
		{"its third try failed (2 retries): on to the next, counted", "0 7 * * *", -1,
		    STATUS_RUNNING, "2026-11-24T07:00:00Z", "timeout", -1, 3, NULL, STATUS_PENDING, 1, -1},
		{"a retry never goes past the next occurrence", "* * * * *", -1, STATUS_RUNNING,
		    "2026-11-23T07:01:00Z", "failed", 1, 2, NULL, STATUS_PENDING, 1, -1},
		{"exit 78 is not retried on a recurring task either", "0 7 * * *", 5, STATUS_RUNNING,
		    "2026-11-24T07:00:00Z", "failed", EXEC_EXIT_PERMANENT, 1, NULL, STATUS_PENDING, 1, -1},
		{"replaced (cancelled): no retry, not counted", "0 7 * * *", -1, STATUS_RUNNING,
		    "2026-11-24T07:00:00Z", "cancelled", -1, 1, NULL, STATUS_PENDING, 0, -1},
		{"a cron success resets the count", "0 7 * * *", -1, STATUS_RUNNING, "2026-11-24T07:00:00Z",
		    "success", 0, 1, NULL, STATUS_PENDING, 0, -1},
		{"a recurrence's last occurrence ends it", "0 7 * * *", -1, STATUS_RUNNING, NULL,
		    "success", 0, 1, NULL, STATUS_COMPLETED, 0, NONE},
		{"a plan's middle instant failed: on to the next", "plan 2026-11-23T07:00:00Z 2026-11-24T07:00:00Z",
		    -1, STATUS_RUNNING, "2026-11-24T07:00:00Z", "failed", 1, 1, NULL, STATUS_PENDING, 1, -1},
		{"a manual run gives the task back its status", "at 2026-11-23T07:00:00Z", -1,
		    STATUS_RUNNING, NULL, "failed", 1, 1, "failed", STATUS_FAILED, 0, NONE},
		{"a manual run of a pending task leaves it pending", "0 7 * * *", -1, STATUS_RUNNING,
		    "2026-11-24T07:00:00Z", "success", 0, 1, "pending", STATUS_PENDING, 0, -1},
		{"cancelled while it ran: cancelled it stays", "at 2026-11-23T07:00:00Z", -1,
		    STATUS_CANCELLED, NULL, "success", 0, 1, NULL, STATUS_CANCELLED, 0, NONE},
	};
	int64_t now = T0 + 5;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		make(&t, cases[i].sched, MISSED_ONCE, NONE, 0);
		t.retries = cases[i].retries;
		t.status = cases[i].status_before;
		int64_t before = cases[i].next_before ? utc(cases[i].next_before) : NONE;
		rules_set_next(&t, NULL, before);
		struct run r = ended(cases[i].run_status, cases[i].exit_code, cases[i].attempt,
		    cases[i].prev);
		rules_after_run(&t, NULL, &r, now);
		check_str(task_status_name(t.status), task_status_name(cases[i].status), "%s: status",
		    cases[i].desc);
		check_int(t.consecutive_failures, cases[i].failures, "%s: failures", cases[i].desc);
		check_int(t.next_run_at, cases[i].next == -1 ? before : cases[i].next == NONE ? NONE
		    : now + cases[i].next, "%s: next run", cases[i].desc);
		check_str(t.last_status, cases[i].run_status, "%s: last status", cases[i].desc);
		check_int(t.last_run_at, T0, "%s: last run", cases[i].desc);
		task_free(&t);
	}
}

/* Occurrences due while the run went on, none handled by a pass: queue and
 * replace keep the newest, due at the run's end; skip moves past them. */
static void
overlap_cases(void)
{
	static const struct {
		int overlap;
		const char *next, *due;
	} cases[] = {
		{OVERLAP_QUEUE, "2026-11-23T07:03:00Z", "2026-11-23T07:03:30Z"},
		{OVERLAP_REPLACE, "2026-11-23T07:03:00Z", "2026-11-23T07:03:30Z"},
		{OVERLAP_SKIP, "2026-11-23T07:04:00Z", "2026-11-23T07:04:00Z"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		make(&t, "* * * * *", MISSED_ALL, NONE, 0);
		t.overlap = cases[i].overlap;
		t.status = STATUS_RUNNING;
		rules_set_next(&t, NULL, utc("2026-11-23T07:01:00Z"));
		struct run r = ended("success", 0, 1, NULL);
		rules_after_run(&t, NULL, &r, utc("2026-11-23T07:03:30Z"));
		check_int(t.next_run_at, utc(cases[i].next), "overlap %s: next run",
		    task_overlap_name(cases[i].overlap));
		check_int(t.due_at, utc(cases[i].due), "overlap %s: due",
		    task_overlap_name(cases[i].overlap));
		task_free(&t);
	}
}

/* Failed occurrences in a row pause a task: disabled, the reason on record. */
static void
pause_cases(void)
{
	struct task t;
	make(&t, "0 7 * * *", MISSED_ONCE, NONE, 0);
	t.retries = 0;
	t.pause_after = 2;
	rules_set_next(&t, NULL, utc("2026-11-24T07:00:00Z"));
	struct run r = ended("failed", 1, 1, NULL);
	r.error = "exited with status 1: no key";
	for (int i = 1; i <= 3; i++) {
		t.status = STATUS_RUNNING;
		rules_after_run(&t, NULL, &r, T0 + 5);
		check_int(t.enabled, i < 2, "failure %d: enabled", i);
	}
	check_str(t.paused, "paused after 2 failures in a row: exited with status 1: no key",
	    "the reason, once");
	check_int(t.consecutive_failures, 3, "still counted");
	t.pause_after = 0;
	set_str(&t.paused, NULL);
	t.enabled = 1;
	t.status = STATUS_RUNNING;
	rules_after_run(&t, NULL, &r, T0 + 5);
	check_int(t.enabled, 1, "pause_after 0: never paused");
	task_free(&t);
}

static void
excerpt_cases(void)
{
	struct task t;
	make(&t, "at 2026-11-23T07:00:00Z", MISSED_ONCE, NONE, 0);
	t.status = STATUS_RUNNING;
	struct run r = ended("failed", 1, 1, NULL);
	/* 198 bytes, then a 3-byte character across the cut at 200. */
	char out[256];
	memset(out, 'a', 198);
	strcpy(out + 198, "\xe2\x80\x94 and more");
	r.output = out;
	r.error = "exited with status 1\n  the\treason\n";
	rules_after_run(&t, NULL, &r, T0);
	check_int(strlen(t.last_result), 198 + 3, "cut before the character the cut would split");
	check(strcmp(t.last_result + 198, "...") == 0, "and marked as cut: %s", t.last_result + 190);
	check_str(t.last_error, "exited with status 1 the reason", "blanks collapsed, one line");
	r.status = RUN_SUCCESS;
	r.output = "  \n ";
	t.status = STATUS_RUNNING;
	rules_after_run(&t, NULL, &r, T0);
	check(t.last_result == NULL && t.last_error == NULL, "nothing to show is none");
	task_free(&t);
}

static void
unstarted_cases(void)
{
	struct task t;
	make(&t, "at 2026-11-23T07:00:00Z", MISSED_ONCE, NONE, 0);
	t.status = STATUS_RUNNING;
	t.consecutive_failures = 1;
	struct run r = ended("unstarted", -1, 2, NULL);
	rules_unstarted(&t, NULL, &r, T0 + 10);
	check_str(task_status_name(t.status), "pending", "could not start: pending again");
	check_int(t.next_run_at, T0, "due at the same occurrence");
	check_int(t.arming, 1, "armed again, so the instant is a new occurrence");
	check_int(t.consecutive_failures, 1, "not counted as a failure");
	struct run m = ended("unstarted", -1, 1, "failed");
	t.status = STATUS_RUNNING;
	rules_unstarted(&t, NULL, &m, T0 + 20);
	check_str(task_status_name(t.status), "failed", "a manual run gives the status back");
	task_free(&t);
}

/* A late success after recovery armed a retry: it completes the
 * occurrence only while that retry waits, not started. */
static void
late_cases(struct zones *zs)
{
	static const struct {
		const char *desc, *sched, *status;
		int started, edited, manual;
		int64_t next;             /* next_run_at after, when completed */
	} cases[] = {
		{"recurring, retry waiting", "*/10 * * * *", "success", 0, 0, 0, T0 + 600},
		{"recurring, a failure", "*/10 * * * *", "failed", 0, 0, 0, -1},
		{"recurring, retry started", "*/10 * * * *", "success", 1, 0, 0, -1},
		{"recurring, schedule set again", "*/10 * * * *", "success", 0, 1, 0, -1},
		{"recurring, a manual run", "*/10 * * * *", "success", 0, 0, 1, -1},
		{"one-shot, retry waiting", "at 2026-11-23T07:00:00Z", "success", 0, 0, 0, NONE},
		{"plan's last, retry waiting", "plan 2026-11-23T06:00:00Z 2026-11-23T07:00:00Z",
			"success", 0, 0, 0, NONE},
		{"one-shot, retry started", "at 2026-11-23T07:00:00Z", "success", 1, 0, 0, -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		make(&t, cases[i].sched, MISSED_ONCE, T0, 0);
		t.status = STATUS_RUNNING;
		if (task_repeats(&t))
			rules_set_next(&t, zs, T0 + 600);
		else
			rules_set_next(&t, zs, NONE);
		struct run rec = ended("interrupted", -1, 1, cases[i].manual ? "pending" : NULL);
		rules_after_run(&t, zs, &rec, T0 + 300);
		if (cases[i].started) {
			t.status = STATUS_RUNNING;
			t.arming += task_repeats(&t);
		}
		t.arming += cases[i].edited;
		struct run late = ended(cases[i].status, 0, 1, cases[i].manual ? "pending" : NULL);
		int64_t was = t.next_run_at;
		int got = rules_late_success(&t, zs, &late);
		check_int(got, cases[i].next != -1, "%s: completes it", cases[i].desc);
		if (got) {
			check_str(task_status_name(t.status), "running", "%s: as the run left it",
			    cases[i].desc);
			rules_after_run(&t, zs, &late, T0 + 310);
			check_int(t.next_run_at, cases[i].next, "%s: moved on", cases[i].desc);
			check_str(task_status_name(t.status), cases[i].next == NONE ? "completed" : "pending",
			    "%s: status", cases[i].desc);
			check_int(t.consecutive_failures, 0, "%s: failures reset", cases[i].desc);
		} else {
			check_int(t.next_run_at, was, "%s: left alone", cases[i].desc);
		}
		task_free(&t);
	}
}

/* A late success past the next occurrence's instant (no pass ran since):
 * the task moves on as a success ending then would, by its overlap. */
static void
late_overlap_cases(struct zones *zs)
{
	static const struct {
		int overlap;
		int64_t next, due;
	} cases[] = {
		{OVERLAP_QUEUE, T0 + 600, T0 + 650},
		{OVERLAP_SKIP, T0 + 1200, T0 + 1200},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		make(&t, "*/10 * * * *", MISSED_ONCE, T0, 0);
		t.overlap = cases[i].overlap;
		t.status = STATUS_RUNNING;
		rules_set_next(&t, zs, T0 + 600);
		struct run rec = ended("interrupted", -1, 1, NULL);
		rules_after_run(&t, zs, &rec, T0 + 300);
		struct run late = ended("success", 0, 1, NULL);
		check_int(rules_late_success(&t, zs, &late), 1, "overlap %s: completes it",
		    task_overlap_name(cases[i].overlap));
		rules_after_run(&t, zs, &late, T0 + 650);
		check_int(t.next_run_at, cases[i].next, "overlap %s: next run",
		    task_overlap_name(cases[i].overlap));
		check_int(t.due_at, cases[i].due, "overlap %s: due", task_overlap_name(cases[i].overlap));
		task_free(&t);
	}
}

int
main(void)
{
	struct zones *zs = zones_new();
	due_cases(zs);
	jitter_cases(zs);
	after_cases();
	pause_cases();
	overlap_cases();
	excerpt_cases();
	unstarted_cases();
	late_cases(zs);
	late_overlap_cases(zs);
	static const struct { int attempt; int64_t delay; } backoff[] = {
		{1, 60}, {2, 120}, {3, 240}, {6, 1920}, {7, 3600}, {1000, 3600},
	};
	for (size_t i = 0; i < sizeof backoff / sizeof backoff[0]; i++)
		check_int(rules_backoff(backoff[i].attempt), backoff[i].delay, "backoff of attempt %d",
		    backoff[i].attempt);
	zones_free(zs);
	return tap_done();
}
