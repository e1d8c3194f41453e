/* task-run: run tasks now, in the foreground, one after another: the result
 * (the executor's standard output) on stdout, its error text on stderr, and
 * the exit status of the run.  A manual run fires disabled tasks too, leaves
 * enabled and next_run_at alone, and is refused for a task already running.
 * --queue instead marks the task for the next pass of task-tick and touches
 * the wake file, so a `task-tick --watch` starts it at once.  Ctrl-C ends
 * the executor's process group, records the run as interrupted and runs
 * nothing more.  A task over its budget (or all over the global one) is
 * refused unless --force.  --backfill FROM..TO runs, in order, each past
 * occurrence in that range that never ran (fire_backfill checks it with
 * the task held, so passes and other backfills never run one twice).
 * --payload fires the task as an event: the payload is its run's input
 * (fire_input.h), and with --key an event delivered twice fires once,
 * the second time saying which run the first became; a JSON line with
 * "payload" on standard input is such an event too.  --replay sends a
 * past run's model request again as a new run (trigger replay, no
 * occurrence of its task: replay.h) and prints the new run's id. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "backfill.h"
#include "config.h"
#include "when.h"
#include "exec.h"
#include "fire.h"
#include "fire_env.h"
#include "fire_input.h"
#include "ids.h"
#include "opt.h"
#include "outcome.h"
#include "proc.h"
#include "replay.h"
#include "run_waiter.h"
#include "prog.h"
#include "spend.h"
#include "stopsig.h"
#include "store_audit.h"
#include "store.h"
#include "task_json.h"

static const char prog[] = "task-run";

struct runner {
	struct store *st;
	struct run_waiter w;   /* the fire, the stop signals, the run waited for */
	int queue, json, tty, force;
	struct spend_check spend;
	struct zones *zs;
	int64_t now;
	int status;
	const char *range; /* --backfill FROM..TO */
	int dry_run;
	int before_created; /* --before-created: backfill instants before the task was made */
	const char *payload; /* --payload, read: every task given fires an event with it */
	const char *key;     /* --key: the event's id */
	unsigned when_flags;
	int replay;          /* --replay: print the new run's id, not its answer */
};


static int64_t
clock_now(void *arg)
{
	(void)arg;
	int64_t now;
	struct err e;
	return now_get(&now, &e) == ST_OK ? now : 0;
}

static void
on_report(const struct fire_report *r, void *arg)
{
	struct runner *rn = arg;
	const struct run *run = r->run;
	int ok = run->status == RUN_SUCCESS;
	/* A gate that found nothing to do is no failure of the run. */
	int idle = run->status == RUN_SKIPPED && run->error &&
	    (strncmp(run->error, STORE_GATE_IDLE, strlen(STORE_GATE_IDLE)) == 0 ||
	    strncmp(run->error, OUTCOME_IDLE, strlen(OUTCOME_IDLE)) == 0);
	rn->w.done = 1;
	rn->w.rc_run = ok || idle ? ST_OK : ST_ERR;
	if (rn->json) {
		cJSON *o = run_to_json(run);
		cJSON_AddStringToObject(o, "name", r->name);
		char *s = json_print_line(o);
		printf("%s\n", s);
		free(s);
		cJSON_Delete(o);
		fflush(stdout);
		return;
	}
	if (!rn->replay && run->output && *run->output) {
		fputs(run->output, stdout);
		if (run->output[strlen(run->output) - 1] != '\n' && rn->tty)
			putchar('\n');
	}
	fflush(stdout);
	const char *err = run->error ? run->error : "";
	if (ok) {
		/* A successful executor's stderr (warnings) passes through. */
		fputs(err, stderr);
		return;
	}
	/* The first line says how it ended; the rest is the executor's stderr. */
	size_t first = strcspn(err, "\n");
	if (err[first])
		fputs(err + first + 1, stderr);
	if (err[first] && err[strlen(err) - 1] != '\n')
		fputc('\n', stderr);
	fprintf(stderr, "%s: task '%s' (%.8s) %s: %.*s\n", prog, r->name, run->task_id, run_status_name(run->status),
	    (int)first, first ? err : "no error text");
}

static void
on_warn(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

/* A foreground run, to its end (and its notify hook's). */
static int
run_now(struct runner *rn, const char *id, struct err *e)
{
	char run_id[37];
	int rc = fire_manual(rn->w.f, id, run_id, e);
	return rc ? rc : run_waiter_wait(&rn->w, run_id, e);
}

/* Event (payload, key) of task id was had (fire_event_had's how): say
 * what it became, run_id. */
static void
event_had(struct runner *rn, const char *id, const char *key, int how, const char *run_id)
{
	if (rn->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "task_id", id);
		cJSON_AddStringToObject(o, "key", key);
		if (run_id[0])
			cJSON_AddStringToObject(o, "run_id", run_id);
		else
			cJSON_AddNullToObject(o, "run_id");
		cJSON_AddBoolToObject(o, "duplicate", 1);
		char *s = json_print_line(o);
		printf("%s\n", s);
		free(s);
		cJSON_Delete(o);
	} else if (run_id[0]) {
		printf("%s\n", run_id);
	}
	if (run_id[0])
		fprintf(stderr, "%s: task %.8s: event '%s' was delivered before and became run %s;"
		    " nothing run\n", prog, id, key, run_id);
	else if (how == FIRE_HAD_KEY)
		fprintf(stderr, "%s: task %.8s: event '%s' was delivered before (its run is no"
		    " longer kept, its key is: hook_keep); nothing run\n", prog, id, key);
	else
		fprintf(stderr, "%s: task %.8s: event '%s' was delivered before and waits in the queue;"
		    " nothing more queued\n", prog, id, key);
	fflush(stdout);
}

/* An event: its run now (to its end), or queued with --queue. */
static int
event_now(struct runner *rn, const char *id, const char *payload, const char *key, struct err *e)
{
	char run_id[37];
	int dup = 0, rc;
	if (rn->queue) {
		rc = fire_event_queue(rn->st, id, payload, key, rn->now, &dup, run_id, e);
		if (rc || dup) {
			if (!rc)
				event_had(rn, id, key, dup, run_id);
			return rc;
		}
		store_wake(rn->st);
		printf("%s\n", id);
		return ST_OK;
	}
	rc = fire_event(rn->w.f, id, payload, key, run_id, &dup, e);
	if (!rc && dup)
		event_had(rn, id, key, dup, run_id);
	return rc || dup ? rc : run_waiter_wait(&rn->w, run_id, e);
}

static int
stopped(void *arg)
{
	return run_waiter_stopped(&((struct runner *)arg)->w);
}

static int
wait_run(void *arg, const char *run_id, struct err *e)
{
	return run_waiter_wait(&((struct runner *)arg)->w, run_id, e);
}

static int budget_ok(void *arg, const char *task_id, struct err *e);

static int
backfill(struct runner *rn, const char *id, struct err *e)
{
	struct backfill b = {rn->st, rn->w.f, rn->zs, rn->now, rn->range, rn->when_flags,
	    rn->before_created, rn->dry_run, rn->json, prog, stopped, wait_run, rn,
	    rn->force ? NULL : budget_ok};
	return backfill_task(&b, id, e);
}

static int
queue(struct runner *rn, const char *id, struct err *e)
{
	struct task t;
	/* Asked for by the user: on the audit trail (a run in the foreground
	 * is on record as a manual run). */
	store_audit_by_user(rn->st);
	int rc = store_task_queue(rn->st, id, rn->now, e);
	store_audit_by(rn->st, NULL);
	if (rc || (rc = store_task_get(rn->st, id, &t, e)))
		return rc;
	store_wake(rn->st);
	if (rn->tty)
		printf("Queued task %.8s \"%s\"%s; task-tick runs it on its next pass\n", t.id, t.name,
		    t.status == STATUS_RUNNING ? " (after the run in progress)" : "");
	else
		printf("%s\n", t.id);
	task_free(&t);
	return ST_OK;
}

/* ST_REFUSED when the task is over its budget or the global one. */
static int
within_budget(struct runner *rn, const char *id, struct err *e)
{
	struct task t;
	int rc = store_task_get(rn->st, id, &t, e), over = 0;
	char why[256];
	int64_t window;
	if (rc)
		return rc;
	spend_check_fresh(&rn->spend);
	if ((!str_empty(t.budget) || rn->spend.global.set))
		rc = spend_check_task(&rn->spend, rn->st, &t, rn->zs, rn->now, &over, why, sizeof why,
		    &window, NULL, NULL, 0, e);
	if (!rc && over)
		rc = err_set(e, ST_REFUSED, "task '%s' (%.8s) is over budget: %s; --force runs it anyway",
		    t.name, t.id, why);
	task_free(&t);
	return rc;
}

static int
budget_ok(void *arg, const char *task_id, struct err *e)
{
	struct runner *rn = arg;
	return rn->force ? ST_OK : within_budget(rn, task_id, e);
}

static int
replay_now(struct runner *rn, const char *run, const char *model, const char *provider,
    struct err *e)
{
	struct replay rp = {rn->st, rn->w.f, model, provider, !rn->json, budget_ok, wait_run, rn};
	return replay_run(&rp, run, e);
}

static int
run_one(const char *arg, void *ctx)
{
	struct runner *rn = ctx;
	char id[37];
	struct err e = {{0}};
	/* Interrupted: the ids left are not run. */
	if (!rn->queue && run_waiter_stopped(&rn->w)) {
		if (rn->status < ST_ERR)
			rn->status = ST_ERR;
		return 0;
	}
	int rc = store_task_resolve(rn->st, arg, 0, id, &e);
	if (!rc && !rn->force && !rn->dry_run)
		rc = within_budget(rn, id, &e);
	if (!rc)
		rc = rn->range ? backfill(rn, id, &e) : rn->payload ? event_now(rn, id, rn->payload, rn->key, &e)
		    : rn->queue ? queue(rn, id, &e) : run_now(rn, id, &e);
	/* A run that failed has said so through on_report. */
	if (rc && e.msg[0])
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	if (rc > rn->status)
		rn->status = rc;
	return 0;
}

/* A JSON line of standard input with "payload": an event of its task. */
static void
run_event(const char *arg, const char *payload, const char *key, long lineno, void *ctx)
{
	struct runner *rn = ctx;
	char id[37];
	struct err e = {{0}};
	if (!rn->queue && run_waiter_stopped(&rn->w)) {
		if (rn->status < ST_ERR)
			rn->status = ST_ERR;
		return;
	}
	int rc = fire_payload_check(payload, strlen(payload), &e);
	if (!rc)
		rc = store_task_resolve(rn->st, arg, 0, id, &e);
	if (!rc && !rn->force && !rn->queue)
		rc = within_budget(rn, id, &e);
	if (!rc)
		rc = event_now(rn, id, payload, key, &e);
	if (rc && e.msg[0])
		fprintf(stderr, "%s: stdin:%ld: %s\n", prog, lineno, e.msg);
	if (rc > rn->status)
		rn->status = rc;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-run [--queue] [--force] [--json] ID...\n"
	    "       task-run --payload JSON|@FILE|- [--key KEY] [--queue] [--force] [--json] ID...\n"
	    "       task-run --backfill FROM..TO [--dry-run] [--before-created] [--force] [--json] ID...\n"
	    "       task-run --replay RUN [--model MODEL] [--provider PROVIDER] [--force] [--json]\n"
	    "  ID may be any unique prefix of 4+ characters or the task's exact name; '-' reads ids\n"
	    "  from standard input\n"
	    "  -q, --queue   leave the run to task-tick's next pass (a watching one starts it now)\n"
	    "  -f, --force   run a task over its budget too (not with --queue)\n"
	    "  -b, --backfill FROM..TO   run each occurrence of that past range that never ran\n"
	    "                (no run, or only a skip or miss on record), in order; 100 at most\n"
	    "  -n, --dry-run with --backfill: list those occurrences, run nothing\n"
	    "      --before-created  with --backfill: also the occurrences before the task was made\n"
	    "  -p, --payload JSON|@FILE|-  fire as an event with this payload (1 MiB at most):\n"
	    "                the run's input, TASK_PAYLOAD and TASK_PAYLOAD_FILE; a JSON line\n"
	    "                with \"payload\" (and \"key\") on standard input does the same\n"
	    "  -k, --key KEY the event's id: an event delivered twice fires once, and says\n"
	    "                which run it became; kept for hook_keep (default 7d), past its run\n"
	    "  -r, --replay RUN  send run RUN's model request again, as it was sent (prompt,\n"
	    "                system prompt, context, attachments, tools), as a new run with\n"
	    "                trigger replay that is no occurrence; prints the new run's id\n"
	    "  -m, --model MODEL, -P, --provider PROVIDER  with --replay: on this model or provider\n"
	    "  -j, --json    print each run as a JSON object instead of its output\n"
	    "  -h, --help, -V, --version\n");
}

static int
task_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"queue", no_argument, NULL, 'q'}, {"json", no_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'}, {"backfill", required_argument, NULL, 'b'},
		{"dry-run", no_argument, NULL, 'n'}, {"before-created", no_argument, NULL, 'B'},
		{"payload", required_argument, NULL, 'p'}, {"key", required_argument, NULL, 'k'},
		{"replay", required_argument, NULL, 'r'}, {"model", required_argument, NULL, 'm'},
		{"provider", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	struct runner rn = {.w = {.sfd = -1}, .tty = isatty(1)};
	const char *payload_arg = NULL, *replay = NULL, *model = NULL, *provider = NULL;
	char *payload = NULL;
	char msg[128];
	int c;
	while ((c = opt_next(argc, argv, ":qjfb:np:k:r:m:P:hV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'q': rn.queue = 1; break;
		case 'b': rn.range = optarg; break;
		case 'n': rn.dry_run = 1; break;
		case 'B': rn.before_created = 1; break;
		case 'f': rn.force = 1; break;
		case 'j': rn.json = 1; break;
		case 'p': payload_arg = optarg; break;
		case 'k': rn.key = optarg; break;
		case 'r': replay = optarg; break;
		case 'm': model = optarg; break;
		case 'P': provider = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (rn.queue && rn.force)
		return usage_error(prog, "--force runs a task here and now; a queued run is held to its"
		    " budget when it starts");
	if (rn.range && rn.queue)
		return usage_error(prog, "--backfill runs here and now, not with --queue");
	if (rn.dry_run && !rn.range)
		return usage_error(prog, "--dry-run goes with --backfill");
	if (rn.before_created && !rn.range)
		return usage_error(prog, "--before-created goes with --backfill");
	if (rn.key && !payload_arg)
		return usage_error(prog, "--key names an event: it goes with --payload");
	if (payload_arg && rn.range)
		return usage_error(prog, "--payload fires an event; --backfill replays the schedule");
	if ((model || provider) && !replay)
		return usage_error(prog, "--model and --provider go with --replay");
	if (replay && (rn.queue || rn.range || payload_arg || rn.dry_run))
		return usage_error(prog, "--replay runs here and now, alone: not with --queue, --backfill"
		    " or --payload");
	if (replay && argc > optind)
		return usage_error(prog, "--replay takes a run's id, not tasks' ids");
	rn.replay = replay != NULL;
	struct err e = {{0}};
	if (rn.key) {
		char *stored;
		if (fire_event_key(rn.key, &stored, &e))
			return usage_error(prog, "%s", e.msg);
		free(stored);
	}
	if (payload_arg) {
		int prc = fire_payload_read(payload_arg, &payload, &e);
		if (prc) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
			return prc;
		}
		rn.payload = payload;
	}
	struct config *cf = NULL;
	char self[PATH_MAX], dir[PATH_MAX];
	proc_self("", self, dir, sizeof self);
	struct fire_opts fo = {.jobs = 1, .search_dir = dir[0] ? dir : NULL, .clock = clock_now};
	struct fire_cb cb = {.report = on_report, .warn = on_warn, .arg = &rn};
	rn.w.warn = on_warn;
	rn.w.flush = rn.range != NULL;
	signal(SIGPIPE, SIG_IGN);
	int rc = now_get(&rn.now, &e);
	if (!rc)
		rc = config_load(&cf, &e);
	if (!rc)
		rc = fire_opts_config(&fo, cf, &e);
	if (!rc)
		rc = spend_check_init(&rn.spend, cf, &e);
	if (!rc)
		rc = config_when_flags(&rn.when_flags, &e);
	rn.zs = zones_new();
	if (!rc)
		rc = store_open(NULL, 0, &rn.st, &e);
	if (!rc && !rn.queue) {
		rc = stopsig_catch(&rn.w.sfd, &e);
		if (!rc)
			rc = fire_new(rn.st, &fo, &cb, &rn.w.f, &e);
		/* A task-run killed earlier must not leave its task running for
		 * good where no task-tick ever passes. */
		if (!rc && fire_recover(rn.w.f, NULL, &e))
			rc = ST_ERR;
	}
	if (!rc) {
		/* --payload - read the payload from stdin: ids come from the arguments. */
		if (replay) {
			/* A run that failed has said so through on_report. */
			rc = replay_now(&rn, replay, model, provider, &e);
			if (rc && !e.msg[0])
				rn.status = rc, rc = ST_OK;
		} else if (payload_arg && strcmp(payload_arg, "-") == 0 && argc == optind)
			rc = err_set(&e, ST_INVALID, "--payload - reads standard input: give the ids as"
			    " arguments");
		else
			rc = ids_each_ev(argc - optind, argv + optind, run_one, run_event, &rn, &e);
		if (!rc)
			rc = rn.status;
		else
			fprintf(stderr, "%s: %s\n", prog, e.msg);
	} else {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	}
	if (rn.w.sfd >= 0)
		close(rn.w.sfd);
	fire_free(rn.w.f);
	free(payload);
	zones_free(rn.zs);
	store_close(rn.st);
	config_free(cf);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_run(argc, argv));
}
