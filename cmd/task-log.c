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

#include "config.h"
#include "history.h"
#include "log_view.h"
#include "opt.h"
#include "prog.h"
#include "store_deliver.h"
#include "store.h"
#include "store_history.h"
#include "taskargs.h"
#include "tz.h"
#include "usage.h"
#include "utf8.h"
#include "visible.h"
#include "when.h"

static const char prog[] = "task-log";

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
	    "       task-log --calls [--context NAME] [--task ID] [--since TIME] [--limit N] [--utc]\n"
	    "                [--json]\n"
	    "       task-log --usage [--by task|model|day] [--task ID] [--since TIME] [--utc] [--json]\n"
	    "       task-log --prune [--dry-run] [--vacuum] [--json]\n"
	    "       task-log --audit [--task ID] [--limit N] [--json] | --audit --verify [--json]\n"
	    "       task-log --deliveries [--status pending|delivered|failed] [--task ID] [--limit N]\n"
	    "                [--json]\n"
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
static int
prune(struct store *st, const struct args *a, int64_t now, struct err *e)
{
	struct config *cf = NULL;
	struct history_opts ho;
	struct prune_stats s;
	char what[256] = "";
	int done, rc = config_load(&cf, e);
	if (!rc)
		rc = history_opts_config(&ho, cf, e);
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

/* A listing's end: its error, its table, or on a terminal that it is empty
 * (none: what there is none of; NULL, say nothing). */
static int
listed(struct log_view *lv, int rc, const struct err *e, const char *none, int match)
{
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	if (lv->tb && lv->n)
		table_print(lv->tb, stdout, want_color(1));
	else if (lv->tb && none)
		fprintf(stderr, "%s: no %s%s\n", prog, none, match ? " match" : " yet");
	return rc;
}

static int
run_shown(struct log_view *lv, const char *id, struct err *e)
{
	int rc = log_run(lv, id, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	return rc;
}

/* --usage: the table, then the runs their gate skipped. */
static int
usage_shown(struct log_view *lv, const struct run_filter *f, const struct args *a, struct err *e)
{
	int rc = log_usage(lv, a->by ? usage_parse_by(a->by) : USAGE_BY_TASK, f, e);
	if (!rc && lv->tb)
		table_print(lv->tb, stdout, want_color(1));
	if (!rc)
		rc = log_gate_skips(lv, f, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	return rc;
}

/* --audit: the trail of one task (in the trash too) or all, or --verify. */
static int
audit(struct log_view *lv, const struct args *a, int64_t now, struct err *e)
{
	char id[37];
	int rc = ST_OK;
	if (!a->task || !(rc = store_task_resolve(lv->st, a->task, 0, id, e)) ||
	    (rc == ST_NOTFOUND && !(rc = store_task_resolve(lv->st, a->task, 1, id, e)))) {
		if (a->verify) {
			rc = log_audit_verify(lv, now, e);
		} else {
			rc = log_audit(lv, a->task ? id : NULL, a->limit, e);
			if (!rc && lv->tb && lv->n)
				table_print(lv->tb, stdout, want_color(1));
			else if (!rc && lv->tb)
				fprintf(stderr, "%s: no changes on record%s\n", prog, a->task ? " for that task"
				    : "");
		}
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e->msg);
	return rc;
}

static int
task_log(int argc, char **argv)
{
	struct args a = {.limit = 20};
	int rc = parse_args(argc, argv, &a), c;
	if (rc)
		return rc < 0 ? 0 : rc;
	struct err e = {{0}};
	struct log_view lv = {.json = a.json, .utc = a.utc, .terminal = !a.json && isatty(1),
		.zs = zones_new()};
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
		rc = store_open(NULL, STORE_READ, &lv.st, &e);
	if (!rc && a.audit) {
		rc = audit(&lv, &a, now, &e);
		goto done;
	}
	if (!rc && a.prune) {
		if ((rc = prune(lv.st, &a, now, &e)))
			fprintf(stderr, "%s: %s\n", prog, e.msg);
		goto done;
	}
	if (!rc && a.task && !(rc = store_task_resolve(lv.st, a.task, 0, id, &e)))
		f.task_id = id;
	/* A task in the trash still has its runs. */
	if (rc == ST_NOTFOUND && a.task && !store_task_resolve(lv.st, a.task, 1, id, &e)) {
		f.task_id = id;
		rc = ST_OK;
	}
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	} else if (a.diff) {
		if ((rc = log_diff(&lv, argv[optind], argc - optind > 1 ? argv[optind + 1] : NULL,
		    a.words, &e)))
			fprintf(stderr, "%s: %s\n", prog, e.msg);
	} else if (argc > optind || a.run) {
		if (a.run)
			rc = run_shown(&lv, a.run, &e);
		for (int i = optind; i < argc; i++)
			if ((c = run_shown(&lv, argv[i], &e)) > rc)
				rc = c;
	} else if (a.deliveries) {
		rc = log_deliveries(&lv, a.status ? receipt_status_parse(a.status) : -1, f.task_id,
		    a.limit, &e);
		if (rc)
			fprintf(stderr, "%s: %s\n", prog, e.msg);
		else if (!lv.n && isatty(1))
			fprintf(stderr, "%s: no deliveries%s\n", prog, a.task || a.status ? " match" : " yet");
	} else if (a.calls) {
		rc = log_calls(&lv, f.task_id, a.context, f.since, a.limit, &e);
		rc = listed(&lv, rc, &e, rc ? NULL : "model calls", a.task || a.context || a.since);
	} else if (a.usage) {
		rc = usage_shown(&lv, &f, &a, &e);
	} else {
		rc = listed(&lv, log_runs(&lv, &f, &e), &e, "runs", a.task || a.status || a.since);
	}
done:
	if (visible_finish(&vis) != 0 && !rc) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", prog, strerror(errno));
		rc = ST_ERR;
	}
	log_view_free(&lv);
	zones_free(lv.zs);
	store_close(lv.st);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_log(argc, argv));
}
