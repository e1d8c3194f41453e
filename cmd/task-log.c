/* task-log: the run history, newest first: a table on a terminal (times in
 * the local zone, or UTC), tab-separated lines in a pipe, JSON lines with
 * --json.  Given run ids, each run in full (times in its task's zone): its
 * whole kept output and error text and the model calls recorded for it.
 * --calls lists the model calls themselves, those made outside any task
 * and in llm-call's own conversations (-c) included, as `llm logs` does.
 * --usage sums them per task, model or day: calls, tokens and dollars,
 * with a total. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "history.h"
#include "opt.h"
#include "prog.h"
#include "spend.h"
#include "store_audit.h"
#include "store.h"
#include "store_history.h"
#include "table.h"
#include "task_json.h"
#include "store_deliver.h"
#include "deliver.h"
#include "taskargs.h"
#include "tz.h"
#include "run_diff.h"
#include "usage.h"
#include "utf8.h"
#include "when.h"
#include "visible.h"

static const char prog[] = "task-log";

struct logger {
	struct store *st;
	struct zones *zs;
	struct table *tb;
	int json, utc;
	struct task task;        /* the last task looked up, a one-entry cache */
	int have_task;
	long n;
};

/* The task of a run (NULL if purged); valid until the next call. */
static const struct task *
task_of(struct logger *lg, const char *id)
{
	struct err e;
	if (lg->have_task && strcmp(lg->task.id, id) == 0)
		return &lg->task;
	if (lg->have_task)
		task_free(&lg->task);
	lg->have_task = store_task_get(lg->st, id, &lg->task, &e) == ST_OK;
	return lg->have_task ? &lg->task : NULL;
}

static void
fmt_when(struct logger *lg, const struct task *t, int64_t when, char *buf, size_t n)
{
	if (when == TIME_NONE)
		snprintf(buf, n, "-");
	else if (t)
		task_fmt_time(t, lg->zs, when, TIME_WALL_ZONE, buf, n);
	else
		time_fmt_utc(when, buf, n);
}

/* A field of a tab-separated line: tabs and line ends become spaces,
 * bytes that are not UTF-8 U+FFFD. */
static void
tsv_field(const char *s, int last)
{
	char *text = utf8_clean(s, strlen(s));
	for (const char *p = text; *p; p++)
		putchar(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
	putchar(last ? '\n' : '\t');
	free(text);
}

/* Text from the store as printed: valid UTF-8 (malloc'd). */
static char *
text(const char *s)
{
	return utf8_clean(s ? s : "", s ? strlen(s) : 0);
}

static int
list_one(const struct run *r, void *arg)
{
	struct logger *lg = arg;
	const struct task *t = task_of(lg, r->task_id);
	const char *name = t && t->name ? t->name : "(deleted)";
	char when[64], dur[32], code[16];
	lg->n++;
	if (lg->json) {
		/* The error text, not the output: that can be a megabyte (task-log RUN_ID). */
		struct run brief = *r;
		brief.output = NULL;
		cJSON *o = run_to_json(&brief);
		cJSON_AddStringToObject(o, "name", name);
		char *s = json_print_line(o);
		puts(s);
		free(s);
		cJSON_Delete(o);
		return 0;
	}
	snprintf(code, sizeof code, r->exit_code >= 0 ? "%d" : "-", r->exit_code);
	if (!lg->tb) {
		char slot[40] = "-";
		time_fmt_utc(r->started_at, when, sizeof when);
		if (r->slot != TIME_NONE)
			time_fmt_utc(r->slot, slot, sizeof slot);
		printf("%s\t%s\t%s\t", r->id, when, r->task_id);
		tsv_field(name, 0);
		printf("%s\t%s\t%s\t%s\t%lld\n", run_trigger_name(r->trigger), slot,
		    run_status_name(r->status), code, (long long)(r->duration_ms > 0 ? r->duration_ms : 0));
		return 0;
	}
	char rid[9], tid[9];
	snprintf(rid, sizeof rid, "%.8s", r->id);
	snprintf(tid, sizeof tid, "%.8s", r->task_id);
	/* One zone for the column, so the rows read in order. */
	zone_fmt_time(lg->zs, lg->utc ? "UTC" : NULL, r->started_at, TIME_WALL_ZONE, when, sizeof when);
	duration_fmt(r->duration_ms, dur, sizeof dur);
	const char *cells[] = {rid, when, tid, name, run_trigger_name(r->trigger),
		run_status_name(r->status), code, dur};
	table_add(lg->tb, cells);
	return 0;
}

static void
indented(const char *label, const char *s)
{
	char *all = text(s);
	printf("%s\n", label);
	for (const char *p = all; *p;) {
		size_t n = strcspn(p, "\n");
		printf("  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	free(all);
}

/* One line of at most n bytes of s, malloc'd: line breaks as spaces, no
 * cut character, "..." where it was cut. */
static char *
short_line(const char *s, size_t n)
{
	char *all = text(s);
	size_t len = strlen(all), k = len > n ? (size_t)utf8_cut(all, n) : len;
	for (size_t i = 0; i < k; i++)
		if (all[i] == '\n' || all[i] == '\r' || all[i] == '\t')
			all[i] = ' ';
	if (k < len) {
		all = xrealloc(all, k + 4);
		memcpy(all + k, "...", 4);
	}
	return all;
}

static void
print_short(const char *s, size_t n)
{
	char *line = short_line(s, n);
	fputs(line, stdout);
	free(line);
}

/* The tool calls of a model call, two lines each: the call, its outcome. */
static void
show_tool_calls(const char *json)
{
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	const cJSON *t;
	cJSON_ArrayForEach(t, a) {
		const char *server = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "server"));
		const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "tool"));
		const char *res = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "result"));
		const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "error"));
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(t, "duration_ms");
		char *args = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(t, "arguments"));
		char dur[32];
		duration_fmt(cJSON_IsNumber(ms) ? (int64_t)ms->valuedouble : 0, dur, sizeof dur);
		printf("    tool %s%s%s ", server ? server : "", server ? "/" : "", tool ? tool : "?");
		print_short(args ? args : "{}", 200);
		printf("  %s\n      %s", dur, err ? "error: " : "-> ");
		print_short(err ? err : res ? res : "", 200);
		putchar('\n');
		free(args);
	}
	cJSON_Delete(a);
}

/* "12 in, 40 out"; nothing when the provider said nothing (a failed call). */
static void
fmt_tokens(const struct llm_call *c, char *buf, size_t n)
{
	buf[0] = 0;
	if (c->input_tokens >= 0 && c->output_tokens >= 0)
		snprintf(buf, n, "%ld in, %ld out", c->input_tokens, c->output_tokens);
	else if (c->input_tokens >= 0 || c->output_tokens >= 0)
		snprintf(buf, n, c->input_tokens >= 0 ? "%ld in" : "%ld out", c->input_tokens >= 0 ?
		    c->input_tokens : c->output_tokens);
}

static cJSON *
json_tokens(long n)
{
	return n >= 0 ? cJSON_CreateNumber((double)n) : cJSON_CreateNull();
}

/* The model asked for, and the one that answered when the provider named
 * another: "gpt-4o -> gpt-4o-2024-08-06"; malloc'd, as text. */
static char *
model_shown(const char *model, const char *answered)
{
	char *m = xasprintf("%s%s%s", model ? model : "?", answered && (!model ||
	    strcmp(answered, model)) ? " -> " : "", answered && (!model || strcmp(answered, model))
	    ? answered : "");
	char *t = text(m);
	free(m);
	return t;
}

struct calls {
	struct logger *lg;
	const struct task *t;
	cJSON *arr;
	int n;
};

static int
show_call(const struct llm_call *c, void *arg)
{
	struct calls *cs = arg;
	if (cs->arr) {
		cJSON *o = cJSON_CreateObject();
		char when[40];
		time_fmt_utc(c->created_at, when, sizeof when);
		cJSON_AddStringToObject(o, "at", when);
		cJSON_AddStringToObject(o, "provider", c->provider ? c->provider : "");
		cJSON_AddStringToObject(o, "model", c->model ? c->model : "");
		cJSON_AddItemToObject(o, "answered_model", c->answered_model
		    ? cJSON_CreateString(c->answered_model) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "fallback_from", c->fallback_from
		    ? cJSON_CreateString(c->fallback_from) : cJSON_CreateNull());
		cJSON_AddItemToObject(o, "input_tokens", json_tokens(c->input_tokens));
		cJSON_AddItemToObject(o, "output_tokens", json_tokens(c->output_tokens));
		cJSON_AddItemToObject(o, "cost", c->cost >= 0 ? cJSON_CreateNumber(c->cost)
		    : cJSON_CreateNull());
		cJSON_AddStringToObject(o, "finish_reason", c->finish_reason ? c->finish_reason : "");
		cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
		cJSON_AddItemToObject(o, "error", c->error ? cJSON_CreateString(c->error) : cJSON_CreateNull());
		cJSON *tc = c->tool_calls ? cJSON_Parse(c->tool_calls) : NULL;
		cJSON_AddItemToObject(o, "tool_calls", cJSON_IsArray(tc) ? tc : cJSON_CreateArray());
		if (tc && !cJSON_IsArray(tc))
			cJSON_Delete(tc);
		cJSON_AddItemToArray(cs->arr, o);
		return 0;
	}
	char when[64], dur[32];
	if (!cs->n++)
		printf("model calls:\n");
	fmt_when(cs->lg, cs->t, c->created_at, when, sizeof when);
	duration_fmt(c->duration_ms, dur, sizeof dur);
	char *model = model_shown(c->model, c->answered_model), *end = text(c->error ? c->error
	    : c->finish_reason ? c->finish_reason : "");
	char *from = c->fallback_from ? text(c->fallback_from) : NULL;
	char tokens[64];
	fmt_tokens(c, tokens, sizeof tokens);
	printf("  %s  %s/%s%s%s%s  %s%s%s  %s%s\n", when, c->provider ? c->provider : "?", model,
	    from ? " (fallback for " : "", from ? from : "", from ? ")" : "", tokens,
	    tokens[0] ? "  " : "", dur, c->error ? "error: " : "", end);
	free(model);
	free(from);
	free(end);
	show_tool_calls(c->tool_calls);
	return 0;
}

/* The receipts of one run: into arr (JSON), else lines under a heading. */
struct receipts_out {
	cJSON *arr;
	int n;
};
static int run_receipt(const struct receipt *r, void *arg);

static int
show_run(struct logger *lg, const char *arg)
{
	struct run r;
	struct err e;
	int rc = store_run_get(lg->st, arg, &r, &e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return rc;
	}
	const struct task *t = task_of(lg, r.task_id);
	const char *name = t && t->name ? t->name : "(deleted)";
	struct calls cs = {lg, t, NULL, 0};
	if (lg->json) {
		cJSON *o = run_to_json(&r);
		cJSON_AddStringToObject(o, "name", name);
		cs.arr = cJSON_AddArrayToObject(o, "calls");
		rc = store_call_list(lg->st, r.id, NULL, 0, show_call, &cs, &e);
		struct receipt_filter rf = {.status = -1, .run_id = r.id};
		struct receipts_out ro = {cJSON_AddArrayToObject(o, "deliveries"), 0};
		if (!rc)
			rc = store_receipt_list(lg->st, &rf, run_receipt, &ro, &e);
		/* Left out when none, as a run without deliveries always was. */
		if (!cJSON_GetArraySize(ro.arr))
			cJSON_DeleteItemFromObjectCaseSensitive(o, "deliveries");
		char *s = json_print_line(o);
		puts(s);
		free(s);
		cJSON_Delete(o);
	} else {
		char when[64], dur[32];
		char *shown = text(name);
		printf("run:       %s\n", r.id);
		printf("task:      %s \"%s\"\n", r.task_id, shown);
		free(shown);
		printf("trigger:   %s\n", run_trigger_name(r.trigger));
		fmt_when(lg, t, r.slot, when, sizeof when);
		printf("slot:      %s\n", r.slot == TIME_NONE ? "none (manual)" : when);
		if (r.exit_code >= 0)
			printf("status:    %s (exit %d)\n", run_status_name(r.status), r.exit_code);
		else
			printf("status:    %s\n", run_status_name(r.status));
		fmt_when(lg, t, r.started_at, when, sizeof when);
		printf("started:   %s\n", when);
		fmt_when(lg, t, r.ended_at, when, sizeof when);
		printf("ended:     %s\n", when);
		duration_fmt(r.duration_ms, dur, sizeof dur);
		printf("duration:  %s\n", dur);
		printf("attempt:   %d\n", r.attempt);
		indented("output:", r.output && *r.output ? r.output : "(none)");
		indented("error:", r.error && *r.error ? r.error : "(none)");
		if (r.note)
			indented("note:", r.note);
		rc = store_call_list(lg->st, r.id, NULL, 0, show_call, &cs, &e);
		struct receipt_filter rf = {.status = -1, .run_id = r.id};
		struct receipts_out ro = {NULL, 0};
		if (!rc)
			rc = store_receipt_list(lg->st, &rf, run_receipt, &ro, &e);
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	run_free(&r);
	return rc;
}

/* --since: RFC 3339, a time expression ("yesterday 9:00"), or a duration
 * back from now ("2h", "3d"). */
static int
parse_since(const char *s, int64_t now, int64_t *out, struct err *e)
{
	long secs;
	if (time_parse_rfc3339(s, out) == 0)
		return ST_OK;
	if (parse_duration(s, &secs) == 0) {
		*out = now - secs;
		return ST_OK;
	}
	struct tz *z;
	unsigned flags = WHEN_PAST_OK;
	char q[112];
	int rc = config_when_flags(&flags, e);
	if (rc || (rc = tz_load(NULL, &z, e)))
		return rc;
	rc = when_read(s, now, z, flags, out, e);
	tz_free(z);
	return rc ? err_set(e, ST_INVALID, "bad --since '%s': give RFC 3339, a time like 'yesterday"
	    " 9:00', or a duration like 2h", utf8_quote(q, 104, s, strlen(s))) : ST_OK;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-log [--task ID] [--status STATUS | --gate-skips] [--since TIME] [--limit N]\n"
	    "                [--utc] [--json]\n"
	    "       task-log [--json] RUN_ID...\n"
	    "       task-log --calls [--context NAME] [--task ID] [--since TIME] [--limit N] [--json]\n"
	    "       task-log --usage [--by task|model|day] [--task ID] [--since TIME] [--utc] [--json]\n"
	    "       task-log --prune [--dry-run] [--vacuum] [--json]\n"
	    "       task-log --audit [--task ID] [--limit N] [--json] | --audit --verify [--json]\n"
	    "       task-log --deliveries [--status pending|delivered|failed] [--task ID] [--json]\n"
	    "       task-log --diff [--words] [--json] RUN [RUN2]\n"
	    "  -t, --task ID       runs of one task (any unique prefix, or its name)\n"
	    "  -s, --status S      running, success, failed, timeout, interrupted,\n"
	    "                      skipped, unstarted, missed, cancelled or blocked\n"
	    "  -S, --since TIME    started at or after TIME (RFC 3339, 'yesterday', or 2h, 3d)\n"
	    "  -l, --limit N       at most N runs (default 20; 0: all)\n"
	    "  -j, --json          one JSON object per run\n"
	    "  -r, --run RUN_ID    one run in full (also: RUN_ID as an argument)\n"
	    "      --gate-skips    only the runs their gate (task-add --gate) skipped\n"
	    "      --calls         the model calls instead, those outside any task included\n"
	    "      --context NAME  with --calls: those of one named conversation\n"
	    "      --usage         tokens and dollars of the model calls, with a total\n"
	    "      --by KEY        with --usage: per task (default), model or day\n"
	    "      --utc           times in UTC (default: the local zone)\n"
	    "      --audit         the audit trail: who changed which task, and how, newest first\n"
	    "      --verify        with --audit: recompute its chain of hashes; exit 1 naming the\n"
	    "                      first entry changed or removed\n"
	    "      --prune         remove the history past what is kept (config keep,\n"
	    "                      keep_runs, context_messages; task-add --keep) and say what\n"
	    "  -n, --dry-run       with --prune: only say what would go\n"
	    "      --deliveries    the receipts of deliveries instead (task-deliver(1))\n"
	    "      --vacuum        with --prune: give the freed space back to the file system\n"
	    "      --diff RUN [RUN2]  what changed from RUN's answer to RUN2's, as a unified\n"
	    "                      diff; without RUN2 from the run RUN replayed, else from\n"
	    "                      its task's last success before it, to RUN\n"
	    "      --words         with --diff: by word, inline ([-gone-]{+new+})\n"
	    "  -h, --help, -V, --version\n");
}

struct args {
	const char *task, *status, *since, *run, *context, *by;
	long limit;
	int json, utc, calls, usage, prune, dry, vacuum, deliveries, gate_skips, audit, verify, diff,
	    words;
};

/* Options into a; 0 to go on, else the exit status (-1: done, 0). */
static int
parse_args(int argc, char **argv, struct args *a)
{
	enum { OPT_UTC = 256, OPT_CALLS, OPT_CONTEXT, OPT_USAGE, OPT_BY, OPT_PRUNE, OPT_VACUUM,
		OPT_DELIVERIES, OPT_GATE_SKIPS, OPT_AUDIT, OPT_VERIFY, OPT_DIFF, OPT_WORDS };
	static const struct option opts[] = {
		{"task", required_argument, NULL, 't'}, {"status", required_argument, NULL, 's'},
		{"since", required_argument, NULL, 'S'}, {"limit", required_argument, NULL, 'l'},
		{"json", no_argument, NULL, 'j'}, {"run", required_argument, NULL, 'r'},
		{"utc", no_argument, NULL, OPT_UTC}, {"calls", no_argument, NULL, OPT_CALLS},
		{"context", required_argument, NULL, OPT_CONTEXT},
		{"usage", no_argument, NULL, OPT_USAGE}, {"by", required_argument, NULL, OPT_BY},
		{"prune", no_argument, NULL, OPT_PRUNE}, {"dry-run", no_argument, NULL, 'n'},
		{"vacuum", no_argument, NULL, OPT_VACUUM},
		{"deliveries", no_argument, NULL, OPT_DELIVERIES},
		{"gate-skips", no_argument, NULL, OPT_GATE_SKIPS},
		{"audit", no_argument, NULL, OPT_AUDIT}, {"verify", no_argument, NULL, OPT_VERIFY},
		{"diff", no_argument, NULL, OPT_DIFF}, {"words", no_argument, NULL, OPT_WORDS},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	struct err e;
	char msg[128];
	int c;
	while ((c = opt_next(argc, argv, ":t:s:S:l:jr:nhV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 't': a->task = optarg; break;
		case 's': a->status = optarg; break;
		case 'S': a->since = optarg; break;
		case 'r': a->run = optarg; break;
		case 'j': a->json = 1; break;
		case OPT_UTC: a->utc = 1; break;
		case OPT_CALLS: a->calls = 1; break;
		case OPT_CONTEXT: a->context = optarg; break;
		case OPT_USAGE: a->usage = 1; break;
		case OPT_BY: a->by = optarg; break;
		case OPT_PRUNE: a->prune = 1; break;
		case 'n': a->dry = 1; break;
		case OPT_VACUUM: a->vacuum = 1; break;
		case OPT_DELIVERIES: a->deliveries = 1; break;
		case OPT_GATE_SKIPS: a->gate_skips = 1; break;
		case OPT_AUDIT: a->audit = 1; break;
		case OPT_VERIFY: a->verify = 1; break;
		case OPT_DIFF: a->diff = 1; break;
		case OPT_WORDS: a->words = 1; break;
		case 'l':
			if (opt_number("--limit", optarg, NULL, 0, LONG_MAX, &a->limit, &e)) {
				fprintf(stderr, "%s: %s (0: all)\n", prog, e.msg);
				return ST_INVALID;
			}
			break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return -1;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (a->verify && !a->audit)
		return usage_error(prog, "--verify goes with --audit");
	if (a->audit && (a->calls || a->usage || a->prune || a->deliveries || a->gate_skips ||
	    a->status || a->since || a->run || a->by || a->context || argc > optind))
		return usage_error(prog, "--audit takes only --task, --limit, --verify and --json");
	if (a->verify && a->task)
		return usage_error(prog, "--verify checks the whole trail: it takes no --task");
	if (a->words && !a->diff)
		return usage_error(prog, "--words goes with --diff");
	if (a->diff && (a->calls || a->usage || a->prune || a->deliveries || a->gate_skips || a->audit ||
	    a->task || a->status || a->since || a->run || a->utc))
		return usage_error(prog, "--diff takes one or two run ids, --words and --json");
	if (a->diff && (argc - optind < 1 || argc - optind > 2))
		return usage_error(prog, "--diff takes a run's id, and another's to compare it with");
	if (a->deliveries && a->status && receipt_status_parse(a->status) < 0) {
		opt_bad(&e, "--status", a->status, "pending, delivered or failed");
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return ST_INVALID;
	}
	if (a->deliveries && (a->calls || a->usage || a->prune || a->since || a->run ||
	    argc > optind))
		return usage_error(prog, "--deliveries takes only --status, --task, --limit and --json");
	if (!a->deliveries && a->status && run_status_parse(a->status) < 0) {
		opt_bad(&e, "--status", a->status, "running, success, failed, timeout, interrupted,"
		    " skipped, unstarted, missed, cancelled or blocked");
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return ST_INVALID;
	}
	if (a->context && !a->calls)
		return usage_error(prog, "--context goes with --calls");
	if (a->gate_skips && (a->calls || a->usage || a->prune || a->deliveries || a->run ||
	    argc > optind || (a->status && strcmp(a->status, "skipped") != 0)))
		return usage_error(prog, "--gate-skips lists runs: it goes with --task, --since, --limit"
		    " and --json");
	if (a->by && !a->usage)
		return usage_error(prog, "--by goes with --usage");
	if (a->by && usage_parse_by(a->by) < 0) {
		opt_bad(&e, "--by", a->by, "task, model or day");
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return ST_INVALID;
	}
	if (a->usage && (a->calls || a->status || a->run || argc > optind))
		return usage_error(prog, "--usage sums model calls: --calls, --status and run ids"
		    " do not go with it");
	if ((a->dry || a->vacuum) && !a->prune)
		return usage_error(prog, "--dry-run and --vacuum go with --prune");
	if (a->prune && (a->calls || a->usage || a->by || a->task || a->status || a->since ||
	    a->run || a->utc || argc > optind))
		return usage_error(prog, "--prune takes only --dry-run, --vacuum and --json");
	if (a->dry && a->vacuum)
		return usage_error(prog, "--vacuum changes the store; --dry-run changes nothing");
	if (a->calls && (a->status || a->run || argc > optind))
		return usage_error(prog, "--calls lists model calls: --status and run ids are for runs");
	if ((argc > optind || a->run) && (a->task || a->status || a->since)) {
		fprintf(stderr, "%s: a run id shows that run; --task, --status and --since list runs\n", prog);
		return ST_INVALID;
	}
	return 0;
}

/* --calls: the model calls, newest first, of a context, a task or all. */
struct call_list {
	struct logger *lg;
	const char *context;
	int64_t since;
	long limit, n;
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
	cJSON_AddItemToObject(o, "input_tokens", json_tokens(c->input_tokens));
	cJSON_AddItemToObject(o, "output_tokens", json_tokens(c->output_tokens));
	cJSON_AddItemToObject(o, "cost", c->cost >= 0 ? cJSON_CreateNumber(c->cost) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "duration_ms", (double)c->duration_ms);
	return o;
}

static int
list_call(const struct llm_call *c, void *arg)
{
	struct call_list *cl = arg;
	struct logger *lg = cl->lg;
	if (cl->since != TIME_NONE && c->created_at < cl->since)
		return 1; /* newest first: the rest are older still */
	if (cl->context && (!c->context || strcmp(c->context, cl->context) != 0))
		return 0;
	if (cl->limit && cl->n >= cl->limit)
		return 1;
	cl->n++;
	if (lg->json) {
		cJSON *o = call_to_json(c);
		char *line = json_print_line(o);
		puts(line);
		free(line);
		cJSON_Delete(o);
		return 0;
	}
	char when[64], dur[32], tokens[64];
	fmt_tokens(c, tokens, sizeof tokens);
	duration_fmt(c->duration_ms, dur, sizeof dur);
	char *prompt = short_line(c->prompt ? c->prompt : "", lg->tb ? 40 : 200);
	char *answer = short_line(c->error ? c->error : c->answer ? c->answer : "", lg->tb ? 60 : 200);
	if (lg->tb) {
		char *model = model_shown(c->model, c->answered_model);
		char *context = text(c->context ? c->context : "-");
		char *shown = c->error ? xasprintf("error: %s", answer) : xstrdup(answer);
		zone_fmt_time(lg->zs, lg->utc ? "UTC" : NULL, c->created_at, TIME_WALL_ZONE, when,
		    sizeof when);
		const char *cells[] = {when, model, tokens[0] ? tokens : "-", dur, context, prompt, shown};
		table_add(lg->tb, cells);
		free(model);
		free(context);
		free(shown);
	} else {
		char in[24] = "", out[24] = "";
		time_fmt_utc(c->created_at, when, sizeof when);
		if (c->input_tokens >= 0)
			snprintf(in, sizeof in, "%ld", c->input_tokens);
		if (c->output_tokens >= 0)
			snprintf(out, sizeof out, "%ld", c->output_tokens);
		printf("%lld\t%s\t", (long long)c->id, when);
		char *model = model_shown(c->model, c->answered_model);
		tsv_field(model, 0);
		free(model);
		tsv_field(c->context ? c->context : "", 0);
		printf("%s\t%s\t%lld\t%s\t", in, out, (long long)c->duration_ms, c->error ? "error" :
		    "ok");
		tsv_field(prompt, 0);
		tsv_field(answer, 1);
	}
	free(prompt);
	free(answer);
	return 0;
}

static int
list_calls(struct logger *lg, const struct run_filter *f, const struct args *a, struct err *e)
{
	static const char *const heads[] = {"AT", "MODEL", "TOKENS", "TIME", "CONTEXT", "PROMPT",
		"ANSWER"};
	struct call_list cl = {lg, a->context, f->since, a->limit, 0};
	if (!a->json && isatty(1))
		lg->tb = table_new(7, heads);
	int rc = store_call_list(lg->st, NULL, f->task_id, 0, list_call, &cl, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	if (lg->tb && cl.n)
		table_print(lg->tb, stdout, want_color(1));
	else if (lg->tb && !rc)
		fprintf(stderr, "%s: no model calls%s\n", prog, a->task || a->context || a->since ?
		    " match" : " yet");
	return rc;
}

/* One row of --usage: JSON, a table row or a line. */
static void
usage_line(struct logger *lg, int by, const struct usage_row *r, int total)
{
	static const char *const keys[] = {"task_id", "model", "day"};
	if (lg->json) {
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
		char *s = json_print_line(o);
		puts(s);
		free(s);
		cJSON_Delete(o);
		return;
	}
	char key[160], calls[24], in[24], out[24], cost[32];
	const char *none = by == USAGE_BY_TASK ? "(no task)" : "(unknown)";
	if (total)
		snprintf(key, sizeof key, "total");
	else if (by == USAGE_BY_TASK && lg->tb && *r->key)
		snprintf(key, sizeof key, "%.100s %.8s", r->name ? r->name : "(deleted)", r->key);
	else if (by == USAGE_BY_MODEL && r->name)
		snprintf(key, sizeof key, "%.70s -> %.70s", *r->key ? r->key : "?", r->name);
	else
		snprintf(key, sizeof key, "%s", *r->key ? r->key : lg->tb ? none : "-");
	snprintf(calls, sizeof calls, "%ld", r->calls);
	snprintf(in, sizeof in, "%lld", r->in);
	snprintf(out, sizeof out, "%lld", r->out);
	if (lg->tb) {
		money_fmt(r->cost, cost, sizeof cost);
		const char *cells[] = {key, calls, in, out, cost};
		table_add(lg->tb, cells);
		return;
	}
	tsv_field(key, 0);
	if (by == USAGE_BY_TASK)
		tsv_field(total || !r->name ? "" : r->name, 0);
	printf("%s\t%s\t%s\t%.6f\n", calls, in, out, r->cost);
}

/* After --usage: the runs whose gate found nothing to do, which cost
 * nothing (no model call), when there were any. */
static int
gate_skips_line(struct logger *lg, const struct run_filter *f, struct err *e)
{
	struct run_filter g = *f;
	long n = 0;
	g.gate_skips = 1;
	g.status = -1;
	g.limit = 0;
	g.with_output = 0;
	int rc = store_run_count(lg->st, &g, &n, e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e->msg);
		return rc;
	}
	if (!n)
		return ST_OK;
	if (lg->json)
		printf("{\"gate_skips\":%ld,\"calls\":0,\"input_tokens\":0,\"output_tokens\":0,"
		    "\"cost\":0}\n", n);
	else if (lg->tb)
		printf("%ld run%s skipped by %s gate: no model call, no tokens, $0\n", n,
		    n == 1 ? "" : "s", n == 1 ? "its" : "their");
	else
		printf("gate skips\t%ld\n", n);
	return ST_OK;
}

/* --usage: the calls summed per task, model or day, then the total. */
static int
show_usage(struct logger *lg, const struct run_filter *f, const struct args *a, struct err *e)
{
	static const char *const firsts[] = {"TASK", "MODEL", "DAY"};
	int by = a->by ? usage_parse_by(a->by) : USAGE_BY_TASK;
	const char *heads[] = {firsts[by], "CALLS", "INPUT", "OUTPUT", "DOLLARS"};
	struct tz *z = NULL;
	struct usage u;
	int rc = tz_load(lg->utc ? "UTC" : NULL, &z, e);
	if (!rc)
		rc = usage_collect(lg->st, by, f->since, f->task_id, z, &u, e);
	tz_free(z);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e->msg);
		return rc;
	}
	if (!a->json && isatty(1))
		lg->tb = table_new(5, heads);
	for (size_t i = 0; i < u.n; i++)
		usage_line(lg, by, &u.rows[i], 0);
	usage_line(lg, by, &u.total, 1);
	if (lg->tb)
		table_print(lg->tb, stdout, want_color(1));
	usage_free(&u);
	return gate_skips_line(lg, f, e);
}

/* The runs of the filter, as a table or lines. */
static int
list_runs(struct logger *lg, struct run_filter *f, const struct args *a, struct err *e)
{
	static const char *const heads[] = {"RUN", "STARTED", "TASK", "NAME", "TRIGGER",
		"STATUS", "EXIT", "TIME"};
	if (!a->json && isatty(1))
		lg->tb = table_new(8, heads);
	int rc = store_run_list(lg->st, f, list_one, lg, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	if (lg->tb && lg->n)
		table_print(lg->tb, stdout, want_color(1));
	else if (lg->tb)
		fprintf(stderr, "%s: no runs%s\n", prog, a->task || a->status || a->since ? " match"
		    : " yet");
	return rc;
}

/* --deliveries: the receipts, newest first. */
struct receipt_list {
	struct logger *lg;
	long n;
};

static int
list_receipt(const struct receipt *r, void *arg)
{
	struct receipt_list *rl = arg;
	rl->n++;
	if (rl->lg->json) {
		cJSON *o = receipt_to_json(r);
		char *s = json_print_line(o);
		puts(s);
		free(s);
		cJSON_Delete(o);
		return 0;
	}
	struct buf b = {0};
	receipt_line(r, &b);
	char *shown = text(b.data);
	puts(shown);
	free(shown);
	buf_free(&b);
	return 0;
}

static int
list_deliveries(struct logger *lg, const struct run_filter *f, const struct args *a,
    struct err *e)
{
	struct receipt_filter rf = {.status = a->status ? receipt_status_parse(a->status) : -1,
		.task_id = f->task_id, .limit = a->limit};
	struct receipt_list rl = {lg, 0};
	int rc = store_receipt_list(lg->st, &rf, list_receipt, &rl, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	else if (!rl.n && isatty(1))
		fprintf(stderr, "%s: no deliveries%s\n", prog, a->task || a->status ? " match" : " yet");
	return rc;
}

/* The receipts of one run, after it. */
static int
run_receipt(const struct receipt *r, void *arg)
{
	struct receipts_out *ro = arg;
	if (ro->arr) {
		cJSON_AddItemToArray(ro->arr, receipt_to_json(r));
		return 0;
	}
	if (!ro->n++)
		printf("deliveries:\n");
	char shown[300];
	deliver_target_mask(r->target, shown, sizeof shown);
	const char *said = r->status == RECEIPT_DELIVERED ? r->answer : r->error;
	char *line = xasprintf("  %s %s %s (%d attempt%s)%s%s", receipt_status_name(r->status),
	    r->kind, shown, r->attempts, r->attempts == 1 ? "" : "s", said ? ": " : "",
	    said ? said : "");
	char *t = text(line);
	puts(t);
	free(t);
	free(line);
	return 0;
}

/* --prune: every batch at once, then what went (and the space, --vacuum). */
static int
prune(struct store *st, const struct args *a, int64_t now, struct err *e)
{
	struct config *cf = NULL;
	struct history_opts ho;
	struct prune_stats s;
	char what[256] = "";
	int done, rc = config_load(&cf, e) ? ST_ERR : history_opts_config(&ho, cf, e);
	config_free(cf);
	if (!rc)
		rc = history_prune(st, &ho, now, a->dry, 0, &s, &done, e);
	/* The space: said when some was freed, or asked for. */
	if (!rc && !a->dry && (a->vacuum || s.runs || s.messages || s.loose_calls))
		rc = store_vacuum(st, a->vacuum, 0, what, sizeof what, e);
	if (rc)
		return rc;
	if (a->json) {
		printf("{\"dry_run\":%s,\"runs\":%ld,\"calls\":%ld,\"messages\":%ld,"
		    "\"loose_calls\":%ld}\n", a->dry ? "true" : "false", s.runs, s.calls, s.messages,
		    s.loose_calls);
	} else {
		printf("%s %ld run%s (with %ld model call%s), %ld conversation message%s and %ld model"
		    " call%s made outside runs%s\n", a->dry ? "would remove" : "removed", s.runs,
		    s.runs == 1 ? "" : "s", s.calls, s.calls == 1 ? "" : "s", s.messages,
		    s.messages == 1 ? "" : "s", s.loose_calls, s.loose_calls == 1 ? "" : "s",
		    a->dry ? " (--dry-run: nothing changed)" : "");
	}
	if (what[0])
		fprintf(stderr, "%s: %s\n", prog, what);
	return ST_OK;
}

/* --audit: the entries, newest first. */
static void
audit_change(const struct audit_entry *a, struct buf *b)
{
	cJSON *before = a->before ? cJSON_Parse(a->before) : NULL;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(after ? after : before, "name");
	if ((!before || !after) && cJSON_IsString(name) &&
	    cJSON_GetObjectItemCaseSensitive(after ? after : before, "prompt")) {
		buf_printf(b, "name \"%s\"", name->valuestring);
	} else if (after || before) {
		const cJSON *x, *side = after ? after : before;
		int n = 0;
		cJSON_ArrayForEach(x, side) {
			const cJSON *y = before && after ? cJSON_GetObjectItemCaseSensitive(before, x->string)
			    : NULL;
			char *vx = cJSON_PrintUnformatted(x), *vy = y ? cJSON_PrintUnformatted(y) : NULL;
			if (before && after)
				buf_printf(b, "%s%s: %s -> %s", n++ ? "; " : "", x->string, vy ? vy : "null",
				    vx ? vx : "null");
			else
				buf_printf(b, "%s%s: %s", n++ ? "; " : "", x->string, vx ? vx : "null");
			free(vx);
			free(vy);
		}
	}
	cJSON_Delete(before);
	cJSON_Delete(after);
}

static cJSON *
json_or_null(const char *s)
{
	cJSON *j = s ? cJSON_Parse(s) : NULL;
	return j ? j : cJSON_CreateNull();
}

static int
audit_one(const struct audit_entry *a, void *arg)
{
	struct logger *lg = arg;
	char at[40], who[200], seq[24];
	time_fmt_utc(a->at, at, sizeof at);
	lg->n++;
	if (lg->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seq", (double)a->seq);
		cJSON_AddStringToObject(o, "at", at);
		cJSON_AddItemToObject(o, "actor", json_or_null(a->actor));
		cJSON_AddStringToObject(o, "action", a->action);
		if (a->task_id[0])
			cJSON_AddStringToObject(o, "task", a->task_id);
		else
			cJSON_AddNullToObject(o, "task");
		cJSON_AddItemToObject(o, "before", json_or_null(a->before));
		cJSON_AddItemToObject(o, "after", json_or_null(a->after));
		cJSON_AddStringToObject(o, "prev", a->prev);
		cJSON_AddStringToObject(o, "hash", a->hash);
		char *line = json_print_line(o);
		puts(line);
		free(line);
		cJSON_Delete(o);
		return 0;
	}
	struct buf b = {0};
	char task[9];
	audit_actor_describe(a->actor, who, sizeof who);
	audit_change(a, &b);
	snprintf(seq, sizeof seq, "%lld", (long long)a->seq);
	snprintf(task, sizeof task, "%.8s", a->task_id[0] ? a->task_id : "-");
	if (lg->tb) {
		char *change = text(b.data ? b.data : "");
		const char *cells[] = {seq, at, who, a->action, task, change};
		table_add(lg->tb, cells);
		free(change);
	} else {
		tsv_field(seq, 0);
		tsv_field(at, 0);
		tsv_field(who, 0);
		tsv_field(a->action, 0);
		tsv_field(task, 0);
		tsv_field(b.data ? b.data : "", 1);
	}
	buf_free(&b);
	return 0;
}

static int
list_audit(struct logger *lg, const char *task_id, long limit, struct err *e)
{
	static const char *const heads[] = {"SEQ", "AT", "WHO", "ACTION", "TASK", "CHANGE"};
	if (!lg->json && isatty(1))
		lg->tb = table_new(6, heads);
	int rc = store_audit_list(lg->st, task_id, 1, limit, audit_one, lg, e);
	if (!rc && lg->tb && lg->n)
		table_print(lg->tb, stdout, want_color(1));
	else if (!rc && lg->tb)
		fprintf(stderr, "%s: no changes on record%s\n", prog, task_id ? " for that task" : "");
	return rc;
}

/* --audit --verify: the chain recomputed; a checkpoint when it holds. */
static int
verify(struct logger *lg, int64_t now, struct err *e)
{
	struct audit_check c;
	int rc = store_audit_verify(lg->st, now, &c, e);
	if (rc)
		return rc;
	if (lg->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddBoolToObject(o, "intact", !c.bad_seq);
		cJSON_AddNumberToObject(o, "entries", (double)c.entries);
		if (c.bad_seq) {
			cJSON_AddNumberToObject(o, "entry", (double)c.bad_seq);
			cJSON_AddStringToObject(o, "problem", c.removed ? "removed" : "changed");
		} else {
			cJSON_AddNumberToObject(o, "head", (double)c.head_seq);
			cJSON_AddStringToObject(o, "hash", c.head_seq ? c.head : AUDIT_ZERO);
		}
		cJSON_AddNumberToObject(o, "pruned_through", (double)c.base_seq);
		char *line = json_print_line(o);
		puts(line);
		free(line);
		cJSON_Delete(o);
	} else if (!c.bad_seq) {
		printf("audit trail intact: %ld entr%s", c.entries, c.entries == 1 ? "y" : "ies");
		if (c.head_seq)
			printf(", the last %lld with hash %s", (long long)c.head_seq, c.head);
		if (c.base_seq)
			printf(" (entries through %lld pruned)", (long long)c.base_seq);
		putchar('\n');
	}
	if (c.bad_seq)
		return err_set(e, ST_ERR, "the audit trail is broken: entry %lld was %s", (long long)c.bad_seq,
		    c.removed ? "removed" : "changed");
	return ST_OK;
}

/* --diff: from's answer to to's; without to, from is the run compared
 * and the run it is compared with comes first. */
static int
show_diff(struct logger *lg, const char *from_id, const char *to_id, int words, struct err *e)
{
	struct run a, b;
	int found = 1, rc = store_run_get(lg->st, from_id, &a, e);
	if (rc)
		return rc;
	if (to_id) {
		rc = store_run_get(lg->st, to_id, &b, e);
	} else {
		b = a;
		rc = run_diff_base(lg->st, &b, &a, &found, e);
		if (!rc && !found)
			rc = err_set(e, ST_NOTFOUND, "run '%.8s' has no run before it to compare with: no"
			    " earlier success of its task", b.id);
	}
	if (rc) {
		run_free(&a);
		if (to_id || found)
			return rc;
		run_free(&b);
		return rc;
	}
	struct buf out = {0};
	int differ = run_diff(&a, &b, words, &out);
	if (lg->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "from", a.id);
		cJSON_AddStringToObject(o, "to", b.id);
		cJSON_AddBoolToObject(o, "changed", differ);
		cJSON_AddStringToObject(o, "diff", out.data ? out.data : "");
		char *line = json_print_line(o);
		printf("%s\n", line);
		free(line);
		cJSON_Delete(o);
	} else if (out.data) {
		fputs(out.data, stdout);
	}
	buf_free(&out);
	run_free(&a);
	run_free(&b);
	return ST_OK;
}

static int
task_log(int argc, char **argv)
{
	struct args a = {.limit = 20};
	int rc = parse_args(argc, argv, &a), c;
	if (rc)
		return rc < 0 ? 0 : rc;
	struct err e = {{0}};
	struct logger lg = {.json = a.json, .utc = a.utc, .zs = zones_new()};
	struct run_filter f;
	run_filter_init(&f);
	f.limit = a.limit;
	f.status = a.status ? run_status_parse(a.status) : -1;
	f.with_output = a.json;
	f.gate_skips = a.gate_skips;
	int64_t now;
	char id[37];
	struct visible vis = {0};
	if (!a.json && visible_start(&vis) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return ST_ERR;
	}
	rc = now_get(&now, &e);
	if (!rc && a.since)
		rc = parse_since(a.since, now, &f.since, &e);
	if (!rc)
		rc = store_open(NULL, STORE_READ, &lg.st, &e);
	if (!rc && a.audit) {
		if (!a.task || !(rc = store_task_resolve(lg.st, a.task, 0, id, &e)) ||
		    (rc == ST_NOTFOUND && !(rc = store_task_resolve(lg.st, a.task, 1, id, &e))))
			rc = a.verify ? verify(&lg, now, &e) : list_audit(&lg, a.task ? id : NULL, a.limit, &e);
		if (rc)
			fprintf(stderr, "%s: %s\n", prog, e.msg);
		goto done;
	}
	if (!rc && a.prune) {
		if ((rc = prune(lg.st, &a, now, &e)))
			fprintf(stderr, "%s: %s\n", prog, e.msg);
		goto done;
	}
	if (!rc && a.task && !(rc = store_task_resolve(lg.st, a.task, 0, id, &e)))
		f.task_id = id;
	/* A task in the trash still has its runs. */
	if (rc == ST_NOTFOUND && a.task && !store_task_resolve(lg.st, a.task, 1, id, &e)) {
		f.task_id = id;
		rc = ST_OK;
	}
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	} else if (a.diff) {
		if ((rc = show_diff(&lg, argv[optind], argc - optind > 1 ? argv[optind + 1] : NULL,
		    a.words, &e)))
			fprintf(stderr, "%s: %s\n", prog, e.msg);
	} else if (argc > optind || a.run) {
		if (a.run && (c = show_run(&lg, a.run)) > rc)
			rc = c;
		for (int i = optind; i < argc; i++)
			if ((c = show_run(&lg, argv[i])) > rc)
				rc = c;
	} else if (a.deliveries) {
		rc = list_deliveries(&lg, &f, &a, &e);
	} else if (a.calls) {
		rc = list_calls(&lg, &f, &a, &e);
	} else if (a.usage) {
		rc = show_usage(&lg, &f, &a, &e);
	} else {
		rc = list_runs(&lg, &f, &a, &e);
	}
done:
	table_free(lg.tb);
	if (visible_finish(&vis) != 0 && !rc) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", prog, strerror(errno));
		rc = ST_ERR;
	}
	if (lg.have_task)
		task_free(&lg.task);
	zones_free(lg.zs);
	store_close(lg.st);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_log(argc, argv));
}
