/* task-edit: change some fields of a task, with task-add's flags and
 * validation.  Prints each changed field as `field: old -> new` and the new
 * next run.  A new schedule re-arms a finished task; a running task is
 * refused so a run never finishes into a task that changed under it. */
#define _GNU_SOURCE               /* explicit_bzero */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "forecast.h"
#include "opt.h"
#include "prog.h"
#include "store_audit.h"
#include "store.h"
#include "task_json.h"
#include "task_recur.h"
#include "taskargs.h"
#include "utf8.h"
#include "web.h"

static const char prog[] = "task-edit";

/* The forecast of the task as it now is, when it is shown (a terminal,
 * json) or may warn (a budget applies); warnings go to stderr. */
static int
forecast_of(struct store *st, const struct task *t, int json, int64_t now, struct zones *zs,
    struct forecast *f)
{
	struct config *cf = NULL;
	struct err e;
	int made = 0;
	if (config_load(&cf, &e)) {
		fprintf(stderr, "%s: warning: no forecast: %s\n", prog, e.msg);
		return 0;
	}
	if (!json && !isatty(1) && str_empty(t->budget) && !config_get(cf, "budget"))
		;
	else if (forecast_task(st, cf, t, NULL, 1, zs, now, f, &e))
		fprintf(stderr, "%s: warning: no forecast: %s\n", prog, e.msg);
	else
		made = 1;
	config_free(cf);
	return made;
}

static void
forecast_warn(const struct task *t, const struct forecast *f)
{
	char who[128], *name = utf8_clean(t->name, strlen(t->name));
	snprintf(who, sizeof who, "task %.8s \"%.60s\"", t->id, name);
	free(name);
	forecast_warnings(f, prog, who, stderr);
}

static int
edit(struct store *st, const char *arg, const struct task_args *a, int json, int64_t now,
    struct zones *zs, struct err *e)
{
	char id[37];
	struct task old, t;
	int rc, changed;
	if ((rc = store_begin(st, e)))
		return rc;
	if ((rc = store_task_resolve(st, arg, 0, id, e)) || (rc = store_task_get(st, id, &old, e))) {
		store_rollback(st);
		return rc;
	}
	if (old.status == STATUS_RUNNING) {
		task_free(&old);
		store_rollback(st);
		return err_set(e, ST_REFUSED, "task '%s' is running; edit it when the run has finished", arg);
	}
	task_copy(&t, &old);
	rc = taskargs_apply(a, &t, now, zs, &changed, e);
	if (!rc && a->nafter)
		rc = chain_resolve(st, &t, e);
	/* A new schedule or end makes a finished task pending again. */
	if (!rc && (a->nkinds || a->until || a->count) && t.status != STATUS_PENDING) {
		t.status = STATUS_PENDING;
		t.consecutive_failures = 0;
	}
	if (!rc)
		rc = task_finalize(&t, 0, changed || t.status != old.status, now, zs, e);
	if (!rc)
		rc = task_recur_check(a, &t, e);
	struct buf diff = {0};
	if (!rc && task_diff(&old, &t, zs, &diff) == 0 && t.next_run_at == old.next_run_at) {
		fprintf(stderr, "%s: task '%s': nothing changed\n", prog, arg);
		store_rollback(st);
		goto out;
	}
	if (!rc)
		rc = store_task_put(st, &t, e);
	if (!rc)
		rc = store_commit(st, e);
	if (rc) {
		store_rollback(st);
		goto out;
	}
	store_wake(st);
	struct forecast f;
	int forecast = forecast_of(st, &t, json, now, zs, &f);
	if (json) {
		cJSON *j = task_to_json(&t, zs);
		if (forecast)
			cJSON_AddItemToObject(j, "forecast", forecast_json(&f));
		char *s = json_print_line(j);
		puts(s);
		free(s);
		cJSON_Delete(j);
	} else {
		char next[64];
		task_fmt_time(&t, zs, t.next_run_at, TIME_WALL_ZONE, next, sizeof next);
		fputs(diff.data ? diff.data : "", stdout);
		printf("next run: %s\n", next);
		if (t.ends_at != old.ends_at) {
			char end[256];
			task_describe_end(&t, zs, end, sizeof end);
			printf("ends: %s\n", *end ? end : "none");
		}
		if (forecast && isatty(1) && t.kind != KIND_MANUAL && t.kind != KIND_HEARTBEAT) {
			char line[512];
			forecast_line(&f, line, sizeof line);
			printf("forecast: %s\n", line);
		}
	}
	if (forecast && fflush(stdout) == 0)
		forecast_warn(&t, &f);
out:
	buf_free(&diff);
	task_free(&old);
	task_free(&t);
	return rc;
}

/* A new trigger token (secret 0) or HMAC secret for task-web's POST
 * /hooks/TASK, printed once: only a token's hash is kept. */
static int
new_trigger(struct store *st, const char *arg, int secret, int64_t now, struct err *e)
{
	char id[37], out[65];
	int rc = store_task_resolve(st, arg, 0, id, e);
	if (!rc && !(rc = web_trigger_new(st, id, secret, now, out, e))) {
		printf("%s\n", out);
		fprintf(stderr, "%s: a new trigger %s for task %.8s: POST /hooks/%s; shown this once\n", prog,
		    secret ? "secret (X-Hub-Signature-256)" : "token (Authorization: Bearer)", id, id);
	}
	explicit_bzero(out, sizeof out);
	return rc;
}

static void
usage(FILE *f)
{
	struct buf settings = {0};
	taskargs_help(&settings, 1);
	fprintf(f,
	    "usage: task-edit [--json] [task-add's options] ID\n"
	    "  -c, --cron, -a, --at, -P, --plan, --daily, --weekly, --every, --manual,\n"
	    "  --heartbeat            a new schedule (re-arms a completed or failed task)\n"
	    "      --from WHEN        a new first instant of an interval (--every)\n"
	    "      --until WHEN, --count N, --not-before WHEN   a new end or start, counted\n"
	    "                         from now (re-arms too); none and 0 remove them\n"
	    "  -n, --name, -p, --prompt, -s, --system, -z, --tz, -C, --context,\n"
	    "  -A, --attach, -m, --model, -e, --exec, --intent, --channel, --payload,\n"
	    "  -k, --key, --jitter, --notify, --gate, --deliver (none removes them all),\n"
	    "  --after TASK[:success|failure|any] (none removes them all)\n"
	    "%s"
	    "                         change that field; an empty value clears an optional one\n"
	    "                         (a list: '' alone removes it all)\n"
	    "      --enable, --disable   --enable also ends a pause for failures\n"
	    "      --trigger-token new, --trigger-secret new   alone: a new token, or a secret\n"
	    "                         for GitHub-style signatures, that fires the task through\n"
	    "                         task-web's POST /hooks/TASK; printed once\n"
	    "  -j, --json             print the changed task as JSON\n"
	    "  -h, --help, -V, --version\n"
	    "See task-add(1) for each option.\n", settings.data ? settings.data : "");
	buf_free(&settings);
}

static int
task_edit(int argc, char **argv)
{
	enum { O_TRIGGER_TOKEN = 1000, O_TRIGGER_SECRET };
	static const struct option extra[] = {
		{"json", no_argument, NULL, 'j'},
		{"trigger-token", required_argument, NULL, O_TRIGGER_TOKEN},
		{"trigger-secret", required_argument, NULL, O_TRIGGER_SECRET},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	char shortopts[64];
	struct option *opts = taskargs_options(extra, "jhV", shortopts, sizeof shortopts);
	struct task_args a;
	taskargs_init(&a);
	int json = 0, fields = 0, c, rc = ST_OK, trigger = -1;
	struct err e = {{0}};
	char msg[128];
	while ((c = opt_next(argc, argv, shortopts, opts, msg, sizeof msg)) != -1) {
		if (taskargs_take(&a, c, optarg, argv, argc, &optind)) {
			fields++;
			continue;
		}
		switch (c) {
		case 'j': json = 1; break;
		case O_TRIGGER_TOKEN:
		case O_TRIGGER_SECRET:
			if (strcmp(optarg, "new") != 0) {
				rc = usage_error(prog, "--%s takes 'new' (a new one, printed once)",
				    c == O_TRIGGER_TOKEN ? "trigger-token" : "trigger-secret");
				goto done;
			}
			trigger = c == O_TRIGGER_SECRET;
			break;
		case 'h': usage(stdout); rc = -1; goto done;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); rc = -1; goto done;
		default:
			rc = usage_error(prog, "%s", msg);
			goto done;
		}
	}
	if (optind != argc - 1)
		rc = err_set(&e, ST_INVALID, optind == argc ? "which task? give its id" :
		    "give one task id (options go before or after it, values in quotes)");
	else if (trigger >= 0 && (fields || json))
		rc = err_set(&e, ST_INVALID, "--trigger-token and --trigger-secret go alone: they print"
		    " only the new token or secret");
	else if (!fields && trigger < 0)
		rc = err_set(&e, ST_INVALID, "nothing to change: give the fields to edit (see --help)");
	int64_t now;
	struct store *st = NULL;
	struct zones *zs = zones_new();
	if (!rc)
		rc = now_get(&now, &e);
	if (!rc)
		rc = config_when_flags(&a.when_flags, &e);
	int stagger;
	if (!rc && !(rc = config_stagger_load(&stagger, &e)))
		zones_set_stagger(zs, stagger);
	/* A bad value is said as such, not as "no task", and makes no store. */
	if (!rc && trigger < 0)
		rc = taskargs_check(&a, zs, &e);
	if (!rc && !(rc = store_open(NULL, 0, &st, &e)))
		store_audit_by_user(st);
	if (!rc && trigger >= 0)
		rc = new_trigger(st, argv[optind], trigger, now, &e);
	else if (!rc)
		rc = edit(st, argv[optind], &a, json, now, zs, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	store_close(st);
	zones_free(zs);
done:
	taskargs_free(&a);
	free(opts);
	return rc < 0 ? 0 : rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_edit(argc, argv));
}
