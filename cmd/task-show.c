/* task-show: one task in full (schedule and its description, next run,
 * status, last run, every field that is set, the prompt) and its recent
 * runs, for people or as one JSON object. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "fire_rules.h"
#include "history.h"
#include "ids.h"
#include "log_view.h"
#include "opt.h"
#include "prog.h"
#include "prompt_vars.h"
#include "spend.h"
#include "store.h"
#include "store_deliver.h"
#include "deliver.h"
#include "task_fields.h"
#include "task_json.h"
#include "utf8.h"
#include "visible.h"

static const char prog[] = "task-show";

struct shower {
	struct store *st;
	struct zones *zs;
	int64_t now;
	int json, expand;
	long runs;
	int status;
	struct err e;
};

/* Values are printed as valid UTF-8 whatever the store holds. */
static void
field(const char *label, const char *value)
{
	if (!value || !*value)
		return;
	char *v = utf8_clean(value, strlen(value));
	printf("%-13s %s\n", label, v);
	free(v);
}

static void
block(const char *label, const char *text)
{
	if (text && *text)
		log_indented(label, text);
}

/* A JSON array of strings as "a, b". */
static void
list_field(const char *label, const char *json)
{
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	const cJSON *it;
	struct buf b = {0};
	cJSON_ArrayForEach(it, a)
		if (cJSON_IsString(it))
			buf_printf(&b, "%s%s", b.len ? ", " : "", it->valuestring);
	field(label, b.data);
	buf_free(&b);
	cJSON_Delete(a);
}

struct run_print {
	const struct task *t;
	struct zones *zs;
	cJSON *arr;
	int n;
};

static int
print_run(const struct run *r, void *arg)
{
	struct run_print *rp = arg;
	if (rp->arr) {
		cJSON_AddItemToArray(rp->arr, run_to_json(r));
		return 0;
	}
	if (rp->n++ == 0)
		printf("recent runs:\n");
	char when[64], dur[32] = "-";
	task_fmt_time(rp->t, rp->zs, r->started_at, TIME_WALL_ZONE, when, sizeof when);
	if (r->duration_ms >= 0)
		snprintf(dur, sizeof dur, "%.1fs", (double)r->duration_ms / 1000);
	printf("  %s  %-11s %-8s %-8s %.8s", when, run_status_name(r->status), dur,
	    run_trigger_name(r->trigger), r->id);
	if (r->error && *r->error) {
		char *err = utf8_clean(r->error, strcspn(r->error, "\n"));
		printf("  %s", err);
		free(err);
	}
	putchar('\n');
	return 0;
}

/* The lines of task_inputs (task_fields.h) whose place is in [lo, hi), in
 * the order of their places; budget is the budget's line. */
static void
show_inputs(const struct task *t, const char *budget, int lo, int hi)
{
	char buf[512], d[32];
	for (int place = lo; place < hi; place++) {
		for (size_t i = 0; i < ntask_inputs; i++) {
			const struct task_input *in = &task_inputs[i];
			if (in->place != place || in->show == SHOW_NONE)
				continue;
			const struct field *f = task_input_field(in);
			int n = f->type == FT_STR ? 0 : *CFIELD_OF(t, f, int);
			const char *s = f->type == FT_STR ? *CFIELD_OF(t, f, char *) : NULL;
			switch (in->show) {
			case SHOW_NONE: break;
			case SHOW_TEXT: field(in->label, s); break;
			case SHOW_SECONDS:
				if (n > 0) {
					snprintf(buf, sizeof buf, "%ds", n);
					field(in->label, buf);
				}
				break;
			case SHOW_NUMBER:
				if (n < 0)
					break;
				snprintf(buf, sizeof buf, in->fmt, n);
				field(in->label, n == 0 && in->zero ? in->zero : n == INT_MAX && in->most ? in->most
				    : buf);
				break;
			case SHOW_ENUM:
				if (n != in->def)
					field(in->label, f->names->name(n));
				break;
			case SHOW_DURATION:
				if (n) {
					duration_fmt((int64_t)n * 1000, d, sizeof d);
					snprintf(buf, sizeof buf, in->fmt, d);
					field(in->label, buf);
				}
				break;
			case SHOW_BUDGET: field(in->label, budget[0] ? budget : NULL); break;
			case SHOW_KEEP:
				if (s) {
					/* A task's own keep says all it keeps; the defaults are not read. */
					struct history_opts ho = {0};
					history_describe(s, &ho, buf, sizeof buf);
					field(in->label, buf);
				}
				break;
			}
		}
	}
}

/* "$2/day, $0.41 spent this day": the budget and its window's spend. */
static void
budget_text(struct shower *sh, const struct task *t, char *buf, size_t n)
{
	struct budget b;
	const struct tz *z;
	struct spend s = {0};
	struct err e;
	buf[0] = 0;
	if (budget_parse(t->budget, &b, &e) || !b.set)
		return;
	budget_fmt(&b, buf, n);
	if (zones_get(sh->zs, t->tz, &z, &e) || store_spend_read(sh->st, t->id,
	    budget_window(b.period, z, sh->now), NULL, &s.dollars, &s.tokens, &e))
		return;
	char spent[64];
	if (b.dollars)
		money_fmt(s.dollars, spent, sizeof spent);
	else
		snprintf(spent, sizeof spent, "%lld tokens", s.tokens);
	snprintf(buf + strlen(buf), n - strlen(buf), ", %s spent this %s%s", spent,
	    b.period == PERIOD_DAY ? "day" : b.period == PERIOD_WEEK ? "week" : "month",
	    budget_over(&b, &s) ? " (over: its runs are skipped until the next)" : "");
}

static void
show_text(struct store *st, const struct task *t, struct zones *zs, int overdue, const char *budget)
{
	char buf[512], desc[256], when[64], utc[40];
	field("id:", t->id);
	field("name:", t->name);
	snprintf(buf, sizeof buf, "%s%s", task_status_name(t->status), t->paused ? " (paused)"
	    : t->enabled ? "" : " (disabled)");
	field("status:", buf);
	field("paused:", t->paused);
	task_describe(t, zs, desc, sizeof desc);
	chain_describe_task(st, t, desc, sizeof desc);
	if (t->kind == KIND_CRON)
		snprintf(buf, sizeof buf, "%s (cron '%s', %s)", desc, t->cron, t->tz);
	else
		snprintf(buf, sizeof buf, "%s (%s)", desc, t->tz);
	field("schedule:", buf);
	if (t->next_run_at != TIME_NONE) {
		/* A retry: when it runs, not its occurrence's instant, now past. */
		int retry = rules_is_retry(t, zs);
		int64_t at = retry ? t->due_at : t->next_run_at;
		task_fmt_time(t, zs, at, TIME_WALL_ZONE, when, sizeof when);
		time_fmt_utc(at, utc, sizeof utc);
		snprintf(buf, sizeof buf, "%s (%s)", when, utc);
		if (retry) {
			task_fmt_time(t, zs, t->next_run_at, TIME_WALL_ZONE, when, sizeof when);
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
			    ", a retry of the occurrence of %s, which failed", when);
		} else if (t->due_at != t->next_run_at) {
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", %s to +%llds",
			    t->jitter > 0 ? "jittered" : "staggered", (long long)(t->due_at - t->next_run_at));
		}
		if (overdue)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
			    " (overdue: not fired; is task-tick running?)");
	} else {
		snprintf(buf, sizeof buf, "none");
	}
	field("next run:", buf);
	task_describe_end(t, zs, buf, sizeof buf);
	int left = task_runs_left(t, zs, 1001);
	if (left > 1000)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "; over 1000 occurrences left");
	else if (left)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "; %d occurrence%s left", left,
		    left == 1 ? "" : "s");
	field("ends:", buf);
	if (t->last_run_at != TIME_NONE) {
		task_fmt_time(t, zs, t->last_run_at, TIME_WALL_ZONE, when, sizeof when);
		snprintf(buf, sizeof buf, "%s: %s", when, t->last_status ? t->last_status : "?");
	} else {
		snprintf(buf, sizeof buf, "never");
	}
	field("last run:", buf);
	field("last error:", t->last_error);
	snprintf(buf, sizeof buf, "%d", t->consecutive_failures);
	field("failures:", buf);
	field("context:", t->context);
	field("attachments:", t->attachments);
	field("model:", t->model);
	field("exec:", t->exec);
	field("gate:", t->gate);
	if (t->gate && t->gate_timeout > 0) {
		snprintf(buf, sizeof buf, "%ds", t->gate_timeout);
		field("gate timeout:", buf);
	}
	for (int l = 0; l < WORD_LISTS; l++)
		list_field(word_lists[l].label, CWORD_LIST_OF(t, &word_lists[l]));
	show_inputs(t, budget, SHOW_AT_RUN, SHOW_AT_NOTIFY);
	if (t->jitter) {
		snprintf(buf, sizeof buf, "up to %ds", t->jitter);
		field("jitter:", buf);
	} else if (t->stagger == 0) {
		field("jitter:", "none, not staggered (--jitter 0)");
	}
	field("intent:", t->intent);
	field("channel:", t->channel);
	field("payload:", t->payload);
	field("key:", t->key);
	field("notify:", t->notify);
	show_inputs(t, budget, SHOW_AT_NOTIFY, SHOW_AT_END);
	if (t->deliver) {
		char *masked = deliver_targets_mask(t->deliver);
		list_field("deliver to:", masked);
		free(masked);
	}
	show_inputs(t, budget, SHOW_AT_END, SHOW_AT_MAX);
	task_origin_describe(t, buf, sizeof buf);
	field("made by:", buf);
	if (t->queued)
		field("queued:", "yes, for the next task-tick pass");
	task_fmt_time(t, zs, t->created_at, TIME_WALL_ZONE, when, sizeof when);
	field("created:", when);
	if (t->deleted_at != TIME_NONE) {
		task_fmt_time(t, zs, t->deleted_at, TIME_WALL_ZONE, when, sizeof when);
		snprintf(buf, sizeof buf, "%s (in the trash; task-rm --undo %.8s)", when, t->id);
		field("deleted:", buf);
	}
	block("system prompt:", t->system_prompt);
	block("prompt:", t->prompt);
	block("last result:", t->last_result);
}

/* A delivery of the task's, after its runs. */
static int
show_receipt(const struct receipt *r, void *arg)
{
	int *n = arg;
	if (!(*n)++)
		printf("deliveries:\n");
	struct buf b = {0};
	char shown[300], when[40];
	deliver_target_mask(r->target, shown, sizeof shown);
	time_fmt_utc(r->created_at, when, sizeof when);
	char *said = receipt_said_shown(r->status == RECEIPT_DELIVERED ? r->answer : r->error);
	buf_printf(&b, "  %s  %s %s (%d attempt%s)%s%s", when, receipt_status_name(r->status), shown,
	    r->attempts, r->attempts == 1 ? "" : "s", said ? ": " : "", said ? said : "");
	free(said);
	char *clean = utf8_clean(b.data, b.len);
	for (char *c = clean; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
	puts(clean);
	free(clean);
	buf_free(&b);
	return 0;
}

static int
show_one(const char *arg, void *ctx)
{
	struct shower *sh = ctx;
	char id[37];
	struct task t;
	struct err e;
	int rc = store_task_resolve(sh->st, arg, 0, id, &e);
	if (rc == ST_NOTFOUND) {
		/* A task in the trash can still be looked at; a prefix found in
		 * neither place keeps the plain "no task" message. */
		struct err trash;
		int trc = store_task_resolve(sh->st, arg, 1, id, &trash);
		if (trc != ST_NOTFOUND) {
			rc = trc;
			e = trash;
		}
	}
	if (!rc)
		rc = store_task_get(sh->st, id, &t, &e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		sh->status = rc;
		return 0;
	}
	if (sh->expand) {
		/* As its next run would send them: at its next run, else now;
		 * a gate's output and an input are not known before a run. */
		int64_t at = t.next_run_at != TIME_NONE ? t.next_run_at : sh->now;
		char *prompt, *system;
		if ((rc = prompt_vars_run(sh->st, sh->zs, &t, at, at, 1, NULL, NULL, &prompt, &system,
		    &e))) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
			sh->status = rc;
			task_free(&t);
			return 0;
		}
		free(t.prompt);
		free(t.system_prompt);
		t.prompt = prompt;
		t.system_prompt = system;
	}
	struct run_filter f;
	run_filter_init(&f);
	f.task_id = t.id;
	f.limit = sh->runs;
	f.with_output = sh->json;
	struct run_print rp = {.t = &t, .zs = sh->zs};
	if (sh->json) {
		cJSON *j = task_to_json(&t, sh->zs);
		rp.arr = cJSON_AddArrayToObject(j, "runs");
		rc = store_run_list(sh->st, &f, print_run, &rp, &e);
		char *s = json_print_line(j);
		puts(s);
		free(s);
		cJSON_Delete(j);
	} else {
		char budget[256];
		budget_text(sh, &t, budget, sizeof budget);
		show_text(sh->st, &t, sh->zs, rules_overdue(&t, sh->now), budget);
		rc = store_run_list(sh->st, &f, print_run, &rp, &e);
		if (!rc && rp.n == 0)
			printf("recent runs:  none\n");
		struct receipt_filter rf = {.status = -1, .task_id = t.id, .limit = sh->runs};
		int n = 0;
		if (!rc)
			rc = store_receipt_list(sh->st, &rf, show_receipt, &n, &e);
	}
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		sh->status = rc;
	}
	task_free(&t);
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-show [--json] [--runs N] [--expand] ID...\n"
	    "  ID may be any unique prefix of 4+ characters or the task's exact name; '-' reads ids\n"
	    "  from standard input\n"
	    "  -j, --json     one JSON object per task, with its recent runs\n"
	    "  -r, --runs N   show the N most recent runs (default 10)\n"
	    "  -x, --expand   the prompts as the next run would send them, variables expanded\n"
	    "  -h, --help, -V, --version\n");
}

static int
task_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"runs", required_argument, NULL, 'r'},
		{"expand", no_argument, NULL, 'x'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	struct shower sh = {.runs = 10};
	struct err e;
	int c;
	char msg[128];
	while ((c = opt_next(argc, argv, ":jr:xhV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'j': sh.json = 1; break;
		case 'x': sh.expand = 1; break;
		case 'r':
			if (opt_number("--runs", optarg, NULL, 1, LONG_MAX, &sh.runs, &e)) {
				fprintf(stderr, "%s: %s\n", prog, e.msg);
				return ST_INVALID;
			}
			break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		default: return usage_error(prog, "%s", msg);
		}
	}
	int stagger;
	struct visible vis = {0};
	if (!sh.json && visible_start(&vis) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return ST_ERR;
	}
	int rc = now_get(&sh.now, &e);
	if (!rc)
		rc = config_stagger_load(&stagger, &e);
	if (!rc)
		rc = store_open(NULL, STORE_READ, &sh.st, &e);
	if (!rc) {
		sh.zs = zones_new();
		zones_set_stagger(sh.zs, stagger);
		rc = ids_each(argc - optind, argv + optind, show_one, &sh, &e);
		zones_free(sh.zs);
	}
	if (visible_finish(&vis) != 0 && !rc) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", prog, strerror(errno));
		rc = ST_ERR;
	} else if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	}
	store_close(sh.st);
	return rc ? rc : sh.status;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_show(argc, argv));
}
