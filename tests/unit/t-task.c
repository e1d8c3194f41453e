/* Unit tests for the task model: schedule sugar, default names, jitter,
 * next slots of each kind, finalisation and the JSON format. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "task.h"
#include "task_json.h"

static void
test_daily_weekly(void)
{
	static const struct { const char *in, *want; } daily[] = {
		{"07:00", "0 7 * * *"}, {"23:59", "59 23 * * *"}, {"0:05", "5 0 * * *"},
		{"25:00", NULL}, {"7", NULL}, {"07:60", NULL}, {"07:00x", NULL}, {"", NULL},
		/* the clock forms of time expressions */
		{"9am", "0 9 * * *"}, {"6:30pm", "30 18 * * *"}, {"noon", "0 12 * * *"},
		{"midnight", "0 0 * * *"}, {"half past 9", "30 9 * * *"}, {"9 PM", "0 21 * * *"},
		{"quarter to 8", "45 7 * * *"}, {"12am", "0 0 * * *"}, {"21.15", "15 21 * * *"},
		/* not a time of day alone */
		{"9am UTC", NULL}, {"tomorrow at 9", NULL}, {"in 2 hours", NULL},
		{"07:00:30", NULL}, {"monday 9am", NULL}, {"13pm", NULL}, {"now", NULL},
	};
	for (size_t i = 0; i < sizeof daily / sizeof daily[0]; i++) {
		char out[64] = "";
		struct err e;
		int rc = sched_daily_cron(daily[i].in, out, sizeof out, &e);
		if (daily[i].want)
			check_str(rc ? e.msg : out, daily[i].want, "daily '%s'", daily[i].in);
		else
			check_int(rc, ST_INVALID, "daily '%s' refused", daily[i].in);
	}
	static const struct { const char *in, *want; } weekly[] = {
		{"mon 09:00", "0 9 * * 1"}, {"Monday 09:30", "30 9 * * 1"},
		{"sun 18:00", "0 18 * * 0"}, {"fri,mon 07:15", "15 7 * * 1,5"},
		{"mon,tue,wed,thu,fri,sat,sun 12:00", "0 12 * * 1,2,3,4,5,6,0"},
		{"TUES 08:00", "0 8 * * 2"}, {"thurs 08:00", "0 8 * * 4"},
		{"mon 9am", "0 9 * * 1"}, {"mon,thu 6:30pm", "30 18 * * 1,4"},
		{"sat half past 10", "30 10 * * 6"},
		{"funday 09:00", NULL}, {"mon", NULL}, {"mon 9", NULL}, {"mo 09:00", NULL},
		{"mon tomorrow", NULL}, {"mon 9am UTC", NULL},
	};
	for (size_t i = 0; i < sizeof weekly / sizeof weekly[0]; i++) {
		char out[64] = "";
		struct err e;
		int rc = sched_weekly_cron(weekly[i].in, out, sizeof out, &e);
		if (weekly[i].want)
			check_str(rc ? e.msg : out, weekly[i].want, "weekly '%s'", weekly[i].in);
		else
			check_int(rc, ST_INVALID, "weekly '%s' refused", weekly[i].in);
	}
}

static void
test_default_name(void)
{
	static const struct { const char *prompt, *want; } cases[] = {
		{"Summarise the news", "Summarise the news"},
		{"  one two three four five six seven eight", "one two three four five six"},
		{"Check the latest news headlines and summarize them for me", "Check the latest news headlines and"},
		{"Averyveryveryveryveryveryveryveryveryverylongwordthatgoesonforeverandever",
		    "Averyveryveryveryveryveryveryveryveryverylongwor"},
		{"line one\nline two", "line one line two"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[64];
		task_default_name(cases[i].prompt, name, sizeof name);
		check_str(name, cases[i].want, "default name of case %zu", i);
	}
}

static void
test_jitter(void)
{
	const char *id = "0b7e5d0e-3c1a-4f8e-9a55-1d2c3b4a5f60";
	int64_t slot = 1795935600;
	check_int(task_jitter_delay(id, slot, 0), 0, "no jitter, no delay");
	int64_t d = task_jitter_delay(id, slot, 600);
	check(d >= 0 && d <= 600, "delay within the window (%lld)", (long long)d);
	check_int(task_jitter_delay(id, slot, 600), d, "the same delay for the same task and slot");
	/* Spread: 1,000 tasks at one instant should not land in a few seconds. */
	int seen[601] = {0}, distinct = 0;
	for (int i = 0; i < 1000; i++) {
		char other[48];
		snprintf(other, sizeof other, "%08d-3c1a-4f8e-9a55-1d2c3b4a5f60", i);
		int64_t x = task_jitter_delay(other, slot, 600);
		if (x < 0 || x > 600) {
			check(0, "delay %lld out of range", (long long)x);
			return;
		}
		distinct += !seen[x]++;
	}
	check(distinct > 400, "1,000 tasks spread over %d distinct seconds of 601", distinct);
}

static void
test_next_slot(void)
{
	struct zones *zs = zones_new();
	struct task t;
	struct err e;
	int64_t slot;
	task_init(&t);
	t.kind = KIND_PLAN;
	int64_t plan[] = {1000, 2000, 3000};
	t.plan = plan;
	t.nplan = 3;
	t.tz = "UTC";
	check_int(task_next_slot(&t, zs, 0, &slot, &e), ST_OK, "plan next");
	check_int(slot, 1000, "plan: first instant");
	task_next_slot(&t, zs, 1000, &slot, &e);
	check_int(slot, 2000, "plan: strictly after the fired one");
	task_next_slot(&t, zs, 3000, &slot, &e);
	check_int(slot, TIME_NONE, "plan: none after the last");
	t.kind = KIND_MANUAL;
	task_next_slot(&t, zs, 0, &slot, &e);
	check_int(slot, TIME_NONE, "manual: never on its own");
	t.kind = KIND_HEARTBEAT;
	task_next_slot(&t, zs, 0, &slot, &e);
	check_int(slot, TIME_NONE, "heartbeat: never on its own");
	t.kind = KIND_CRON;
	t.cron = "0 7 * * *";
	t.tz = "Europe/London";
	/* 2026-07-01T00:00:00Z: London is on BST, 07:00 local is 06:00Z. */
	task_next_slot(&t, zs, 1782864000, &slot, &e);
	check_int(slot, 1782864000 + 6 * 3600, "cron in a zone");
	t.tz = "Mars/Olympus";
	check_int(task_next_slot(&t, zs, 0, &slot, &e), ST_INVALID, "unknown zone refused");
	zones_free(zs);
}

static void
test_finalize_and_json(void)
{
	struct zones *zs = zones_new();
	struct task t, back;
	struct err e;
	int64_t now = 1795341600; /* 2026-11-22T10:00:00Z */
	task_init(&t);
	t.prompt = xstrdup("Remind me to call Sarah about the launch");
	t.kind = KIND_AT;
	t.plan = xcalloc(1, sizeof *t.plan);
	t.nplan = 1;
	t.plan[0] = now + 3600;
	t.tz = xstrdup("UTC");
	check_int(task_finalize(&t, 1, 1, now, zs, &e), ST_OK, "finalize a one-shot");
	check_str(t.name, "Remind me to call Sarah about", "named after the prompt");
	check_int(t.next_run_at, now + 3600, "next run is its instant");
	check(strlen(t.id) == 36, "an id was made");
	cJSON *j = task_to_json(&t, zs);
	task_init(&back);
	check_int(task_from_json(j, &back, now, zs, 0, &e), ST_OK, "JSON reads back");
	check_str(back.id, t.id, "id round-trips");
	check_int(back.plan[0], t.plan[0], "instant round-trips");
	check_int(back.next_run_at, t.next_run_at, "next run round-trips");
	struct buf diff = {0};
	check_int(task_diff(&t, &back, zs, &diff), 0, "no differences after a round trip");
	set_str(&back.name, "Call Sarah");
	back.enabled = 0;
	check_int(task_diff(&t, &back, zs, &diff), 2, "two differences");
	check_str(diff.data, "name: Remind me to call Sarah about -> Call Sarah\nenabled: true -> false\n",
	    "diff lines");
	buf_free(&diff);
	cJSON_Delete(j);
	task_free(&back);

	t.plan[0] = now - 120;
	check_int(task_finalize(&t, 0, 1, now, zs, &e), ST_INVALID, "a one-shot in the past is refused");
	t.plan[0] = now - 30;
	check_int(task_finalize(&t, 0, 1, now, zs, &e), ST_OK, "within the last minute is fine");
	task_free(&t);
	zones_free(zs);
}

/* Arming a recurrence's end (--until, --count) at a given now. */
static void
test_arm_end(void)
{
	static const struct {
		const char *cron, *tz;
		int64_t now, until;
		int count, rc;
		int64_t ends_at;
		int left;
		const char *end;
	} cases[] = {
		/* Hourly until 17:00 from 09:30: the 10:00 to 17:00 runs, 17:00 included. */
		{"0 * * * *", "Europe/London", 1795426200, 1795453200, 0, ST_OK, 1795453200, 8,
		    "2026-11-23 17:00 GMT (until)"},
		/* Daily at 09:00, 7 times, from 09:30 on the 23rd: the 24th to the 30th. */
		{"0 9 * * *", "Europe/London", 1795426200, TIME_NONE, 7, ST_OK, 1795942800 + 86400, 7,
		    "2026-11-30 09:00 GMT (after 7 occurrences)"},
		/* Both: the earlier wins, either way round. */
		{"0 9 * * *", "Europe/London", 1795426200, 1795942800, 7, ST_OK, 1795942800, 6,
		    "2026-11-29 09:00 GMT (after 7 occurrences or until 2026-11-29 09:00, whichever is first)"},
		{"0 9 * * *", "Europe/London", 1795426200, 1795942800 + 7 * 86400, 2, ST_OK,
		    1795507200 + 3600 + 86400, 2,
		    "2026-11-25 09:00 GMT (after 2 occurrences or until 2026-12-06 09:00, whichever is first)"},
		/* One run. */
		{"0 9 * * *", "UTC", 1795426200, TIME_NONE, 1, ST_OK, 1795507200 + 3600, 1,
		    "2026-11-24 09:00 UTC (after 1 occurrence)"},
		/* Every 30 minutes across the fall back, until 01:45 in the first
		 * pass (BST) or in the second (GMT). */
		{"*/30 * * * *", "Europe/London", 1792882200, 1792889100, 0, ST_OK, 1792889100, 4,
		    "2026-10-25 01:45 BST (until)"},
		{"*/30 * * * *", "Europe/London", 1792882200, 1792892700, 0, ST_OK, 1792892700, 6,
		    "2026-10-25 01:45 GMT (until)"},
		/* 01:30 daily, 3 times over the spring forward: the 29th's falls in
		 * the gap and fires at 02:00 BST; the third is 01:30 BST on the 30th. */
		{"30 1 * * *", "Europe/London", 1774612800, TIME_NONE, 3, ST_OK, 1774830600, 3,
		    "2026-03-30 01:30 BST (after 3 occurrences)"},
		/* Refused: an until in the past, or before the first occurrence. */
		{"0 9 * * *", "UTC", 1795426200, 1795339800, 0, ST_INVALID, TIME_NONE, 0, NULL},
		{"0 9 * * *", "UTC", 1795426200, 1795507200, 0, ST_INVALID, TIME_NONE, 0, NULL},
		/* No end. */
		{"0 9 * * *", "UTC", 1795426200, TIME_NONE, 0, ST_OK, TIME_NONE, 0, ""},
	};
	struct zones *zs = zones_new();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		struct err e;
		char end[256];
		task_init(&t);
		t.kind = KIND_CRON;
		t.cron = xstrdup(cases[i].cron);
		t.tz = xstrdup(cases[i].tz);
		t.until_at = cases[i].until;
		t.count = cases[i].count;
		int rc = task_arm_end(&t, zs, cases[i].now, &e);
		check_int(rc, cases[i].rc, "arm case %zu: status%s%s", i, rc ? ": " : "", rc ? e.msg : "");
		if (rc == ST_OK) {
			check_int(t.ends_at, cases[i].ends_at, "arm case %zu: ends_at", i);
			task_schedule_from(&t, zs, cases[i].now, &e);
			check_int(task_runs_left(&t, zs, 1000), cases[i].left, "arm case %zu: runs left", i);
			task_describe_end(&t, zs, end, sizeof end);
			check_str(end, cases[i].end, "arm case %zu: described", i);
		}
		task_free(&t);
	}
	/* The end is armed where it is missing, and a given one is kept. */
	struct task t;
	struct err e;
	task_init(&t);
	t.kind = KIND_CRON;
	t.prompt = xstrdup("p");
	t.cron = xstrdup("0 9 * * *");
	t.tz = xstrdup("UTC");
	t.count = 7;
	check_int(task_finalize(&t, 1, 1, 1795426200, zs, &e), ST_OK, "finalize a counted task");
	check_int(t.ends_at, 1795942800 + 86400, "its end armed from now");
	check_int(task_finalize(&t, 0, 1, 1795426200 + 3 * 86400, zs, &e), ST_OK, "rescheduled later");
	check_int(t.ends_at, 1795942800 + 86400, "the armed end is kept");
	check_int(t.next_run_at, 1795507200 + 3600 + 3 * 86400, "the next run from now");
	check_int(task_finalize(&t, 0, 1, 1795942800 + 86400 * 2, zs, &e), ST_INVALID,
	    "past its end, a pending task cannot be rescheduled");
	check_str(e.msg, "the recurrence ended at 2026-11-30 09:00 UTC (--until/--count); give a "
	    "later --until or a new --count", "and says why");
	t.kind = KIND_AT;
	check_int(task_validate(&t, zs, &e), ST_INVALID, "a count on a one-shot is refused");
	check_str(e.msg, "--until and --count end recurring tasks (--cron, --daily, --weekly, --every); a "
	    "one-shot task (--at) has no recurrence to end", "with the reason");
	task_free(&t);
	zones_free(zs);
}

/* The MCP server names and tool patterns a task stores. */
static void
test_mcp_words(void)
{
	static const struct {
		const char *mcp, *allow, *msg;
	} cases[] = {
		{"[\"notes\",\"files\"]", "[\"mcp__notes__read_*\"]", NULL},
		{"[\"my server\"]", NULL, NULL},
		{"[]", "[]", NULL},
		{"[\"a,b\"]", NULL, "mcp: server name 'a,b' holds a comma, which separates them"},
		{"[\" a\"]", NULL, "mcp: server name ' a' starts or ends with a blank"},
		{"[\"a\\t\"]", NULL, "mcp: server name 'a ' starts or ends with a blank"},
		{"[\"\"]", NULL, "mcp: server name '' is empty"},
		{"[\"a\\u0001b\"]", NULL, "mcp: server name 'a?b' holds a control character"},
		{NULL, "[\"x,y\"]", "mcp_allow: pattern 'x,y' holds a comma, which separates them"},
		{"[1]", NULL, "mcp must be a JSON array of server names"},
		{NULL, "\"x\"", "mcp_allow must be a JSON array of tool patterns"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task t;
		struct err e;
		task_init(&t);
		t.kind = KIND_MANUAL;
		t.name = xstrdup("n");
		t.prompt = xstrdup("p");
		t.tz = xstrdup("UTC");
		t.mcp = cases[i].mcp ? xstrdup(cases[i].mcp) : NULL;
		t.mcp_allow = cases[i].allow ? xstrdup(cases[i].allow) : NULL;
		int rc = task_validate(&t, NULL, &e);
		if (cases[i].msg)
			check_str(rc ? e.msg : "accepted", cases[i].msg, "mcp case %zu refused", i);
		else
			check_int(rc, ST_OK, "mcp case %zu accepted", i);
		task_free(&t);
	}
}

/* The stored names of statuses round-trip, and nothing else parses. */
static void
test_status_names(void)
{
	static const char *const runs[] = {"running", "success", "failed", "timeout",
		"interrupted", "skipped", "unstarted", "missed", "cancelled", "blocked"};
	check_int(RUN_STATUS_COUNT, sizeof runs / sizeof runs[0], "every run status named");
	for (int i = 0; i < RUN_STATUS_COUNT; i++) {
		check_str(run_status_name(i), runs[i], "run status %d", i);
		check_int(run_status_parse(runs[i]), i, "run status %s", runs[i]);
	}
	static const char *const bad[] = {"", "Success", "pending", "unknown", "success ", NULL};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		check_int(run_status_parse(bad[i]), -1, "not a run status: %s", bad[i] ? bad[i] : "NULL");
	check_str(run_status_name(-1), "unknown", "an unknown run status");
	check_str(run_status_name(RUN_STATUS_COUNT), "unknown", "past the last");
	for (int i = 0; i < STATUS_COUNT; i++)
		check_int(task_status_parse(task_status_name(i)), i, "task status %d", i);
}

int
main(void)
{
	test_status_names();
	test_daily_weekly();
	test_default_name();
	test_jitter();
	test_next_slot();
	test_finalize_and_json();
	test_arm_end();
	test_mcp_words();
	return tap_done();
}
