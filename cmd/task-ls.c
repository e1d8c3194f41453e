/* task-ls: list tasks ordered by next run, as a table on a terminal,
 * tab-separated lines in a pipe (id, name, status, next run, schedule, last
 * status), or JSON lines.  The order and the filters ride on the store's
 * indexes, so the first page of a huge store costs no scan. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "fire_rules.h"
#include "opt.h"
#include "prog.h"
#include "store.h"
#include "store_history.h"
#include "table.h"
#include "task_json.h"
#include "utf8.h"

static const char prog[] = "task-ls";
#define TASK_LS_SILENCE 180  /* seconds without a pass that task-status --check calls silence */

enum { OUT_TABLE, OUT_TSV, OUT_JSON };

struct lister {
	struct store *st;
	int mode, utc;
	struct zones *zs;
	struct table *tb;
	int64_t now;
	long n, overdue;
};

/* A field of a tab-separated line: tabs and line ends become spaces,
 * bytes that are not UTF-8 U+FFFD. */
static void
tsv_field(const char *s, int last)
{
	s = s ? s : "-";
	char *text = utf8_clean(s, strlen(s));
	for (const char *p = text; *p; p++)
		putchar(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
	putchar(last ? '\n' : '\t');
	free(text);
}

static int
print_task(const struct task *t, void *arg)
{
	struct lister *l = arg;
	char desc[256], next[64];
	l->n++;
	if (l->mode == OUT_JSON) {
		cJSON *j = task_to_json(t, l->zs);
		char *s = json_print_line(j);
		puts(s);
		free(s);
		cJSON_Delete(j);
		return 0;
	}
	task_describe(t, l->zs, desc, sizeof desc);
	chain_describe_task(l->st, t, desc, sizeof desc);
	/* A retry runs at its due instant; its occurrence's is past. */
	int64_t at = rules_is_retry(t, l->zs) ? t->due_at : t->next_run_at;
	if (l->mode == OUT_TSV) {
		if (at == TIME_NONE)
			snprintf(next, sizeof next, "-");
		else
			time_fmt_utc(at, next, sizeof next);
		tsv_field(t->id, 0);
		tsv_field(t->name, 0);
		tsv_field(t->paused ? "paused" : task_status_name(t->status), 0);
		tsv_field(next, 0);
		tsv_field(desc, 0);
		tsv_field(t->last_status, 1);
		return 0;
	}
	char id[9], status[40];
	snprintf(id, sizeof id, "%.8s", t->id);
	/* One zone for the column, so the rows read in order. */
	zone_fmt_time(l->zs, l->utc ? "UTC" : NULL, at, TIME_WALL_ZONE, next, sizeof next);
	if (rules_overdue(t, l->now)) {
		snprintf(next + strlen(next), sizeof next - strlen(next), " (overdue)");
		l->overdue++;
	}
	snprintf(status, sizeof status, "%s%s", task_status_name(t->status),
	    t->paused ? " (paused)" : t->enabled ? "" : " (disabled)");
	const char *row[] = {id, t->name, desc, next, status, t->last_status ? t->last_status : "-"};
	table_add(l->tb, row);
	return 0;
}

/* "pending,failed" -> bits of the names' indexes. */
static int
parse_set(const char *list, int (*parse)(const char *), unsigned *bits)
{
	char *copy = xstrdup(list), *save = NULL;
	int ok = 1;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int v = parse(str_trim(w));
		if (v < 0)
			ok = 0;
		else
			*bits |= 1u << v;
	}
	free(copy);
	return ok && *bits ? 0 : -1;
}

/* --status: task statuses, and "paused" (paused by failures). */
static int
parse_statuses(const char *list, struct task_filter *f)
{
	char *copy = xstrdup(list), *save = NULL;
	struct buf rest = {0};
	buf_puts(&rest, "");
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (strcmp(str_trim(w), "paused") == 0)
			f->paused = 1;
		else
			buf_printf(&rest, "%s%s", rest.len ? "," : "", w);
	}
	int rc = rest.len ? parse_set(rest.data, task_status_parse, &f->statuses) : f->paused ? 0 : -1;
	free(copy);
	buf_free(&rest);
	return rc;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-ls [--json] [--status LIST] [--last LIST] [--kind LIST] [--channel NAME]\n"
	    "               [--enabled | --disabled] [--due-within MIN] [--due-after MIN]\n"
	    "               [--limit N] [--trash] [--utc]\n"
	    "  -s, --status LIST    pending, running, completed, failed, cancelled, paused\n"
	    "                       (comma-separated; paused: paused by failures in a row)\n"
	    "      --last LIST      how the last run ended: success, failed, timeout, interrupted, ...\n"
	    "  -k, --kind LIST      cron, every, at, plan, manual, heartbeat\n"
	    "  -c, --channel NAME   only tasks routed to this channel\n"
	    "      --enabled, --disabled\n"
	    "      --due-within MIN next run within MIN minutes from now, or queued\n"
	    "      --due-after MIN  next run at least MIN minutes from now\n"
	    "  -n, --limit N        at most N tasks\n"
	    "      --trash          list deleted tasks (task-rm --undo restores them)\n"
	    "  -j, --json           one JSON object per task (task-add --json - reads them back)\n"
	    "      --utc            times in UTC (default: the local zone; task-show uses the task's)\n"
	    "  -h, --help, -V, --version\n");
}

/* Options into f; 0 to go on, else the exit status (-1: done, 0). */
static int
parse_args(int argc, char **argv, struct task_filter *f, int *json, int *utc)
{
	enum { OPT_ENABLED = 256, OPT_DISABLED, OPT_WITHIN, OPT_AFTER, OPT_TRASH, OPT_UTC, OPT_LAST };
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"utc", no_argument, NULL, OPT_UTC},
		{"last", required_argument, NULL, OPT_LAST},
		{"status", required_argument, NULL, 's'},
		{"kind", required_argument, NULL, 'k'},
		{"channel", required_argument, NULL, 'c'},
		{"enabled", no_argument, NULL, OPT_ENABLED},
		{"disabled", no_argument, NULL, OPT_DISABLED},
		{"due-within", required_argument, NULL, OPT_WITHIN},
		{"due-after", required_argument, NULL, OPT_AFTER},
		{"limit", required_argument, NULL, 'n'},
		{"trash", no_argument, NULL, OPT_TRASH},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	struct err e;
	char msg[128];
	long v;
	int c, rc = ST_OK;
	while (!rc && (c = opt_next(argc, argv, ":js:k:c:n:hV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'j': *json = 1; break;
		case 's':
			if (parse_statuses(optarg, f))
				rc = opt_bad(&e, "--status", optarg, "pending, running, completed, failed,"
				    " cancelled or paused");
			break;
		case 'k':
			if (parse_set(optarg, task_kind_parse, &f->kinds))
				rc = opt_bad(&e, "--kind", optarg, "cron, every, at, plan, manual or heartbeat");
			break;
		case 'c': f->channel = optarg; break;
		case OPT_LAST:
			if (parse_set(optarg, run_status_parse, &f->last))
				rc = opt_bad(&e, "--last", optarg, "success, failed, timeout, interrupted,"
				    " skipped, unstarted, missed, cancelled or blocked");
			break;
		case OPT_ENABLED: f->enabled = 1; break;
		case OPT_DISABLED: f->enabled = 0; break;
		case OPT_WITHIN:
		case OPT_AFTER:
			if (!(rc = opt_number(c == OPT_WITHIN ? "--due-within" : "--due-after", optarg,
			    "minutes", 0, 100000000, &v, &e)))
				*(c == OPT_WITHIN ? &f->due_within : &f->due_after) = (int64_t)v * 60;
			break;
		case 'n': rc = opt_number("--limit", optarg, NULL, 1, LONG_MAX, &f->limit, &e); break;
		case OPT_TRASH: f->trashed = 1; break;
		case OPT_UTC: *utc = 1; break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return -1;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	else if (optind < argc)
		rc = usage_error(prog, "unexpected argument '%s'", argv[optind]);
	return rc;
}

static int
latest_pass(const struct pass *p, void *arg)
{
	*(struct pass *)arg = *p;
	return 1;
}

/* For people: the scheduler has not run for a while (its passes say so). */
static void
say_silence(struct store *st, int64_t now)
{
	struct pass p = {.at = TIME_NONE};
	struct err e;
	if (store_pass_list(st, latest_pass, &p, &e) || p.at == TIME_NONE ||
	    now - p.at <= TASK_LS_SILENCE)
		return;
	int64_t m = (now - p.at) / 60;
	printf("No scheduler pass for %lld %s (the last on %.100s): is task-tick still running?"
	    " (see task-status)\n", (long long)(m < 120 ? m : m / 60), m < 120 ? "min" : "h", p.host);
}

static int
task_ls(int argc, char **argv)
{
	struct task_filter f;
	task_filter_init(&f);
	int json = 0, utc = 0, rc = parse_args(argc, argv, &f, &json, &utc);
	if (rc)
		return rc < 0 ? 0 : rc;
	struct err e = {{0}};
	struct store *st = NULL;
	struct lister l = {.mode = json ? OUT_JSON : isatty(1) ? OUT_TABLE : OUT_TSV, .utc = utc};
	l.zs = zones_new();
	rc = now_get(&f.now, &e);
	l.now = f.now;
	if (!rc)
		rc = store_open(NULL, STORE_READ, &st, &e);
	if (!rc) {
		char *paused = NULL;
		if (store_setting_get(st, STORE_SETTING_PAUSED, &paused, &e) == ST_OK && paused)
			fprintf(l.mode == OUT_TABLE ? stdout : stderr,
			    "Scheduler paused since %s: nothing fires (task-tick --resume)\n", paused);
		free(paused);
		if (l.mode == OUT_TABLE)
			say_silence(st, f.now);
		if (l.mode == OUT_TABLE) {
			static const char *const head[] = {"ID", "NAME", "SCHEDULE", "NEXT RUN", "STATUS", "LAST"};
			l.tb = table_new(6, head);
		}
		l.st = st;
		rc = store_task_list(st, &f, print_task, &l, &e);
	}
	if (!rc && l.mode == OUT_TABLE && l.n)
		table_print(l.tb, stdout, want_color(1));
	if (!rc && l.overdue)
		printf("%ld overdue: due more than a minute ago and not fired; is task-tick running?"
		    " (see task-tick(1))\n", l.overdue);
	if (!rc && l.n == 0 && !json) {
		int filtered = f.statuses || f.paused || f.kinds || f.channel || f.last || f.enabled >= 0 ||
		    f.due_within >= 0 || f.due_after >= 0;
		fprintf(l.mode == OUT_TABLE ? stdout : stderr, "%s\n",
		    f.trashed ? "The trash is empty." : filtered ? "No tasks match." : "No scheduled tasks configured.");
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	table_free(l.tb);
	zones_free(l.zs);
	store_close(st);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_ls(argc, argv));
}
