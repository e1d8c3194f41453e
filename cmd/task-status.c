/* task-status: the scheduler at a glance, as `systemctl status` is for a
 * unit: each host's last pass and how long ago, whether firing is paused,
 * the tasks overdue and failing, the runs of the last 24 hours by status,
 * today's tokens and the store's size.  --json for scripts; --check is a
 * monitoring plugin (one line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3
 * UNKNOWN) and a dead-man's switch: every pass records itself (host,
 * time) in the store, so silence is seen from any host; --prometheus
 * writes the text exposition format for node_exporter's textfile
 * collector.  --check --task judges one task as a Healthchecks.io check
 * does: late when no success came within its period and a grace.  Only
 * reads: a store that does not exist reads as empty, except to --check
 * and --prometheus, where a wrong TASK_DB must never look healthy. */
#include <getopt.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "install.h"
#include "opt.h"
#include "proc.h"
#include "prog.h"
#include "spend.h"
#include "status_facts.h"
#include "status_prometheus.h"
#include "store.h"
#include "store_deliver.h"
#include "store_history.h"
#include "task_json.h"
#include "taskargs.h"
#include "tz.h"
#include "utf8.h"

static const char prog[] = "task-status";

#define CHECK_MS 10000   /* --check's time for the store to answer, once connected */


/* ---- text ---- */

static void
bytes_fmt(int64_t b, char *buf, size_t n)
{
	if (b < 1024 * 1024)
		snprintf(buf, n, "%.1f kB", (double)b / 1024);
	else
		snprintf(buf, n, "%.1f MB", (double)b / (1024 * 1024));
}

enum { ITEM_OVERDUE, ITEM_FAILING, ITEM_WHY };

static void
print_items(const char *title, const struct status_item *it, long n, int64_t now, int kind)
{
	char when[40], ago[48];
	if (!n)
		return;
	printf("%s:\n", title);
	for (long i = 0; i < n && i < STATUS_SHOWN_MAX; i++) {
		if (kind == ITEM_OVERDUE) {
			time_fmt_utc(it[i].due, when, sizeof when);
			status_ago_fmt(now - it[i].due, ago, sizeof ago);
			printf("  %.8s  %s: due %s, %s ago\n", it[i].id, it[i].name, when, ago);
		} else if (kind == ITEM_WHY) {
			printf("  %.8s  %s: %s\n", it[i].id, it[i].name, it[i].error ? it[i].error : "");
		} else {
			printf("  %.8s  %s: %d %s in a row%s%s\n", it[i].id, it[i].name, it[i].failures,
			    it[i].failures == 1 ? "failure" : "failures", it[i].error ? ": " : "",
			    it[i].error ? it[i].error : "");
		}
	}
	if (n > STATUS_SHOWN_MAX)
		printf("  ... and %ld more\n", n - STATUS_SHOWN_MAX);
}

static void
print_text(const struct status *s)
{
	char ago[48], size[32], fr[32], when[40];
	printf("agentcron: %s: %s\n", status_verdicts[s->verdict], s->summary);
	printf("  Firing:    %s%s\n", s->paused ? "paused since " : "on", s->paused ? s->paused : "");
	if (!s->npasses)
		printf("  Passes:    none recorded (is task-tick in a crontab or a timer?)\n");
	for (size_t i = 0; i < s->npasses; i++) {
		status_ago_fmt(s->now - s->passes[i].at, ago, sizeof ago);
		time_fmt_utc(s->passes[i].at, when, sizeof when);
		printf("  %s %s: %s ago (%s, %s)\n", i ? "          " : "Passes:   ", s->passes[i].host, ago,
		    s->passes[i].mode, when);
	}
	printf("  Tasks:     %ld (%ld enabled, %ld disabled); %ld due, %ld overdue, %ld failing, %ld"
	    " paused by failures, %ld over budget\n", s->tasks, s->enabled, s->tasks - s->enabled,
	    s->due, s->noverdue, s->nfailing, s->npaused, s->nover);
	char gate[64];
	snprintf(gate, sizeof gate, " (%ld by a gate, at no cost)", s->gate_skips);
	printf("  Runs 24 h: ");
	for (size_t i = 0; i < s->nruns; i++)
		printf("%s%lld %s%s", i ? ", " : "", s->runs[i].n, s->runs[i].name,
		    s->gate_skips && strcmp(s->runs[i].name, "skipped") == 0 ? gate : "");
	printf("%s\n", s->nruns ? "" : "none");
	char money[32];
	money_fmt(s->dollars_today, money, sizeof money);
	printf("  Today:     %lld tokens (%lld in, %lld out), %s\n", s->tok_in + s->tok_out, s->tok_in,
	    s->tok_out, money);
	if (s->global_over[0])
		printf("  Budget:    every task is held: %s\n", s->global_over);
	bytes_fmt(s->bytes, size, sizeof size);
	bytes_fmt(s->free_bytes, fr, sizeof fr);
	printf("  Store:     %s, %s%s%s%s\n", store_name(s->st), size, s->free_bytes >= 0 ? " (" : "",
	    s->free_bytes >= 0 ? fr : "", s->free_bytes >= 0 ? " free for reuse)" : "");
	if (s->receipts[RECEIPT_PENDING] || s->receipts[RECEIPT_FAILED] || s->receipts[RECEIPT_DELIVERED])
		printf("  Delivery:  24 h: %lld undelivered (%lld pending, %lld failed), %lld delivered\n",
		    s->receipts[RECEIPT_PENDING] + s->receipts[RECEIPT_FAILED],
		    s->receipts[RECEIPT_PENDING], s->receipts[RECEIPT_FAILED],
		    s->receipts[RECEIPT_DELIVERED]);
	print_items("Overdue", s->overdue, s->noverdue, s->now, ITEM_OVERDUE);
	print_items("Failing", s->failing, s->nfailing, s->now, ITEM_FAILING);
	print_items("Paused by failures", s->paused_by, s->npaused, s->now, ITEM_WHY);
	print_items("Blocked (waiting for a person)", s->blocked, s->nblocked, s->now, ITEM_WHY);
	print_items("Over budget", s->over, s->nover, s->now, ITEM_WHY);
}

/* ---- JSON ---- */

static cJSON *
items_json(const struct status_item *it, long n, int kind)
{
	cJSON *a = cJSON_CreateArray();
	for (long i = 0; i < n && i < STATUS_SHOWN_MAX; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", it[i].id);
		cJSON_AddStringToObject(o, "name", it[i].name);
		if (kind == ITEM_OVERDUE) {
			cJSON_AddItemToObject(o, "due_at", json_time(it[i].due));
		} else if (kind == ITEM_WHY) {
			cJSON_AddStringToObject(o, "reason", it[i].error ? it[i].error : "");
		} else {
			cJSON_AddNumberToObject(o, "failures", it[i].failures);
			cJSON_AddStringToObject(o, "last_status", it[i].last);
			cJSON_AddItemToObject(o, "last_error", it[i].error ?
			    cJSON_CreateString(it[i].error) : cJSON_CreateNull());
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static void
print_json(const struct status *s)
{
	cJSON *j = cJSON_CreateObject(), *o;
	cJSON_AddItemToObject(j, "now", json_time(s->now));
	cJSON_AddStringToObject(j, "check", status_verdicts[s->verdict]);
	cJSON_AddStringToObject(j, "summary", s->summary);
	cJSON_AddItemToObject(j, "paused_since", s->paused ? cJSON_CreateString(s->paused) :
	    cJSON_CreateNull());
	cJSON *passes = cJSON_AddArrayToObject(j, "passes");
	for (size_t i = 0; i < s->npasses; i++) {
		cJSON_AddItemToArray(passes, o = cJSON_CreateObject());
		cJSON_AddStringToObject(o, "host", s->passes[i].host);
		cJSON_AddItemToObject(o, "at", json_time(s->passes[i].at));
		cJSON_AddNumberToObject(o, "age_seconds", (double)(s->now - s->passes[i].at));
		cJSON_AddStringToObject(o, "mode", s->passes[i].mode);
		cJSON_AddNumberToObject(o, "pid", (double)s->passes[i].pid);
		cJSON_AddStringToObject(o, "version", s->passes[i].version);
	}
	o = cJSON_AddObjectToObject(j, "tasks");
	cJSON_AddNumberToObject(o, "total", s->tasks);
	cJSON_AddNumberToObject(o, "enabled", s->enabled);
	cJSON_AddNumberToObject(o, "disabled", s->tasks - s->enabled);
	for (int i = 0; i < STATUS_COUNT; i++)
		cJSON_AddNumberToObject(o, task_status_name(i), s->by_status[i]);
	cJSON_AddNumberToObject(o, "due", s->due);
	cJSON_AddNumberToObject(o, "overdue", s->noverdue);
	cJSON_AddNumberToObject(o, "failing", s->nfailing);
	cJSON_AddNumberToObject(o, "paused_by_failures", s->npaused);
	cJSON_AddNumberToObject(o, "over_budget", s->nover);
	cJSON_AddNumberToObject(o, "blocked", s->nblocked);
	cJSON_AddItemToObject(j, "overdue", items_json(s->overdue, s->noverdue, ITEM_OVERDUE));
	cJSON_AddItemToObject(j, "failing", items_json(s->failing, s->nfailing, ITEM_FAILING));
	cJSON_AddItemToObject(j, "paused_by_failures", items_json(s->paused_by, s->npaused, ITEM_WHY));
	cJSON_AddItemToObject(j, "over_budget", items_json(s->over, s->nover, ITEM_WHY));
	cJSON_AddItemToObject(j, "blocked", items_json(s->blocked, s->nblocked, ITEM_WHY));
	cJSON_AddItemToObject(j, "global_budget_over", s->global_over[0] ?
	    cJSON_CreateString(s->global_over) : cJSON_CreateNull());
	o = cJSON_AddObjectToObject(j, "runs_24h");
	for (size_t i = 0; i < s->nruns; i++)
		cJSON_AddNumberToObject(o, s->runs[i].name, (double)s->runs[i].n);
	if (s->gate_skips)
		cJSON_AddNumberToObject(o, "gate_skips", (double)s->gate_skips);
	o = cJSON_AddObjectToObject(j, "tokens_today");
	cJSON_AddNumberToObject(o, "input", (double)s->tok_in);
	cJSON_AddNumberToObject(o, "output", (double)s->tok_out);
	cJSON_AddNumberToObject(j, "dollars_today", s->dollars_today);
	if (s->receipts[RECEIPT_PENDING] || s->receipts[RECEIPT_FAILED] || s->receipts[RECEIPT_DELIVERED]) {
		o = cJSON_AddObjectToObject(j, "deliveries");
		for (int i = 0; i < RECEIPT_STATUS_COUNT; i++)
			cJSON_AddNumberToObject(o, receipt_status_name(i), (double)s->receipts[i]);
	}
	o = cJSON_AddObjectToObject(j, "store");
	cJSON_AddStringToObject(o, "name", store_name(s->st));
	cJSON_AddNumberToObject(o, "bytes", (double)s->bytes);
	cJSON_AddItemToObject(o, "free_bytes", s->free_bytes >= 0 ?
	    cJSON_CreateNumber((double)s->free_bytes) : cJSON_CreateNull());
	char *text = cJSON_PrintUnformatted(j);
	printf("%s\n", text);
	free(text);
	cJSON_Delete(j);
}

/* ---- --check ---- */

static void
print_check(const struct status *s)
{
	int64_t at = status_last_pass(s);
	printf("AGENTCRON %s - %s | ", status_verdicts[s->verdict], s->summary);
	if (at == TIME_NONE)
		printf("last_pass_age=U;;%lld", (long long)s->max_silence);
	else
		printf("last_pass_age=%llds;;%lld", (long long)(s->now - at), (long long)s->max_silence);
	printf(" due=%ld overdue=%ld;;0 failing=%ld;0 paused=%ld;0 over_budget=%ld\n", s->due,
	    s->noverdue, s->nfailing, s->npaused, s->nover);
}

static void
print_task_check(const struct status *s, int64_t limit, int64_t age)
{
	printf("AGENTCRON %s - %s | ", status_verdicts[s->verdict], s->summary);
	if (age < 0)
		printf("last_success_age=U");
	else
		printf("last_success_age=%llds", (long long)age);
	if (limit >= 0)
		printf(";;%lld", (long long)limit);
	putchar('\n');
}

/* ---- main ---- */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-status [--json | --check [--max-silence DURATION] [--task ID [--grace DURATION]]\n"
	    "                   | --prometheus]\n"
	    "       task-status --print-cron [--ping URL] [--textfile PATH]\n"
	    "  -j, --json          one JSON object\n"
	    "  -c, --check         one status line; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN\n"
	    "  -s, --max-silence DURATION  with --check: how long without a pass is CRITICAL\n"
	    "                      (default 3m; 90s, 5m, 1h)\n"
	    "  -t, --task ID|NAME  with --check: that task alone, CRITICAL when no success came\n"
	    "                      within its period and the grace, WARNING while it fails\n"
	    "  -g, --grace DURATION  with --task: how late a success may be (default: the\n"
	    "                      task's period)\n"
	    "  -p, --prometheus    metrics in Prometheus's text format\n"
	    "      --print-cron    crontab lines with this program's absolute path:\n"
	    "      --ping URL      fetch URL while --check says OK (a dead-man's switch)\n"
	    "      --textfile PATH write --prometheus to PATH each minute\n"
	    "  -h, --help, -V, --version\n");
}

enum { MODE_TEXT, MODE_JSON, MODE_CHECK, MODE_PROM, MODE_CRON };
enum { O_CRON = 256, O_PING, O_TEXTFILE };

struct args {
	int mode;
	int64_t silence, grace;
	const char *task, *ping, *textfile;
};

static int
duration_arg(const char *flag, const char *v, int64_t *out)
{
	long secs;
	struct err e;
	if (parse_duration_typed(v, &secs) || secs <= 0) {
		opt_bad(&e, flag, v, "a duration like 90s, 3m or 1h");
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return ST_INVALID;
	}
	*out = secs;
	return 0;
}

/* 0 to go on, else the exit status (help and version: -1, meaning 0). */

static int
parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'}, {"check", no_argument, NULL, 'c'},
		{"prometheus", no_argument, NULL, 'p'}, {"max-silence", required_argument, NULL, 's'},
		{"task", required_argument, NULL, 't'}, {"grace", required_argument, NULL, 'g'},
		{"print-cron", no_argument, NULL, O_CRON}, {"ping", required_argument, NULL, O_PING},
		{"textfile", required_argument, NULL, O_TEXTFILE},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	char msg[128];
	const char *max = NULL, *grace = NULL;
	int c, modes = 0;
	while ((c = opt_next(argc, argv, ":jcps:t:g:hV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'j': a->mode = MODE_JSON; modes++; break;
		case 'c': a->mode = MODE_CHECK; modes++; break;
		case 'p': a->mode = MODE_PROM; modes++; break;
		case O_CRON: a->mode = MODE_CRON; modes++; break;
		case 's': max = optarg; break;
		case 't': a->task = optarg; break;
		case 'g': grace = optarg; break;
		case O_PING: a->ping = optarg; break;
		case O_TEXTFILE: a->textfile = optarg; break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return -1;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (optind < argc)
		return usage_error(prog, "unexpected argument '%s'", argv[optind]);
	if (modes > 1)
		return usage_error(prog, "give one of --json, --check, --prometheus and --print-cron");
	if (max && a->mode != MODE_CHECK)
		return usage_error(prog, "--max-silence goes with --check");
	if (a->task && a->mode != MODE_CHECK)
		return usage_error(prog, "--task goes with --check");
	if (grace && !a->task)
		return usage_error(prog, "--grace goes with --check --task");
	if ((a->ping || a->textfile) && a->mode != MODE_CRON)
		return usage_error(prog, "--ping and --textfile go with --print-cron");
	if (a->mode == MODE_CRON && !a->ping && !a->textfile)
		return usage_error(prog, "--print-cron needs --ping URL (a dead-man's switch) or"
		    " --textfile PATH (metrics), or both");
	if (a->ping && (strncmp(a->ping, "https://", 8) != 0 && strncmp(a->ping, "http://", 7) != 0))
		return usage_error(prog, "--ping '%.100s': an http:// or https:// URL", a->ping);
	if (a->ping && !utf8_line(a->ping, strlen(a->ping)))
		return usage_error(prog, "--ping: a URL on one line, UTF-8 text without controls");
	if (a->textfile && (!*a->textfile || !utf8_line(a->textfile, strlen(a->textfile))))
		return usage_error(prog, "--textfile: a path on one line, UTF-8 text without controls");
	a->silence = STATUS_SILENCE_DEFAULT;
	a->grace = -1;
	if (max && duration_arg("--max-silence", max, &a->silence))
		return ST_INVALID;
	if (grace && duration_arg("--grace", grace, &a->grace))
		return ST_INVALID;
	return 0;
}

static int
print_cron(const struct args *a)
{
	char self[PATH_MAX], dir[PATH_MAX];
	proc_self(prog, self, dir, sizeof self);
	char *text = install_status_text(self, a->ping, a->textfile);
	fputs(text, stdout);
	free(text);
	return ST_OK;
}

static int
task_status(int argc, char **argv)
{
	struct status s;
	struct args a = {.mode = MODE_TEXT};
	memset(&s, 0, sizeof s);
	int rc = parse_args(argc, argv, &a);
	int mode = a.mode;
	/* A monitoring plugin that cannot tell says UNKNOWN, whatever the reason. */
	if (rc)
		return rc < 0 ? 0 : mode == MODE_CHECK ? VERDICT_UNKNOWN : rc;
	if (mode == MODE_CRON)
		return print_cron(&a);
	s.max_silence = a.silence;
	struct err e = {{0}};
	int64_t limit = -1, age = -1;
	rc = store_open(NULL, STORE_READ, &s.st, &e);
	/* A check that cannot tell within its time says UNKNOWN. */
	if (!rc && mode == MODE_CHECK)
		store_deadline(s.st, mono_ms() + CHECK_MS, 0);
	/* A TASK_DB that names nothing must not keep a dead-man's ping going. */
	if (!rc && (mode == MODE_CHECK || mode == MODE_PROM) && store_absent(s.st))
		rc = err_set(&e, ST_ERR, "no store at '%s' (TASK_DB names none; task-tick and"
		    " task-add make it)", store_name(s.st));
	if (!rc && a.task)
		rc = (rc = store_now(s.st, &s.now, &e)) ? rc : status_judge_task(&s, a.task, a.grace, &limit,
		    &age, &e);
	else if (!rc)
		rc = status_gather(&s, &e);
	if (!rc) {
		if (a.task)
			print_task_check(&s, limit, age);
		else if (mode == MODE_JSON)
			print_json(&s);
		else if (mode == MODE_CHECK)
			print_check(&s);
		else if (mode == MODE_PROM)
			rc = status_prometheus(&s, stdout, &e);
		else
			print_text(&s);
	}
	if (rc && mode == MODE_CHECK)
		printf("AGENTCRON UNKNOWN - %s\n", e.msg);
	else if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	status_free(&s);
	store_close(s.st);
	if (mode == MODE_CHECK)
		return rc ? VERDICT_UNKNOWN : s.verdict;
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_status(argc, argv));
}
