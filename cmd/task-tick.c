/* task-tick: fire what is due.  One pass (from cron or a systemd timer):
 * recover runs whose owner died, claim every due or queued task, run them
 * through the executor, at most -j at once, record each run and print it as
 * a JSON line.  --watch keeps going: it sleeps until the next due instant,
 * woken early by the store's wake-up descriptor (another program added,
 * edited or queued a task, on this host or any other sharing the store),
 * and on SIGTERM or SIGINT stops claiming, lets the runs in flight finish
 * within a grace and records the rest as interrupted.  A store that goes
 * away (a file replaced, a server restarted) is reopened; runs finished
 * meanwhile are recorded when it is back.  The loop lives in
 * common/tick_loop.c, the claiming and the rules in common/fire*.c and
 * common/claim_decide.c; the crontab line and the systemd units that install
 * it in common/install.c.  A pass that found nothing to do leaves a note
 * (common/idle_hint.c: beside a SQLite store; for PostgreSQL, in the
 * state directory) that the next passes take instead of reading the
 * store, until something may be due or anything writes to it. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "deliver_kick.h"
#include "fire.h"
#include "fire_env.h"
#include "heartbeat.h"
#include "history.h"
#include "install.h"
#include "opt.h"
#include "outcome.h"
#include "proc.h"
#include "prog.h"
#include "prompt_vars.h"
#include "stamp.h"
#include "stopsig.h"
#include "store.h"
#include "tick_loop.h"
#include "tick_report.h"

static const char prog[] = "task-tick";

#define PASS_CLAIMS_S 60     /* a pass from cron claims this long (pass_claim_time) */

/* How runs are printed: JSON lines, or one line for people on a terminal. */
struct out {
	int human;
	struct zones *zs;
	struct store *st;           /* for a dry run's prompts, */
	struct fire_clock *clk;     /* and its "now" */
	int ended;                  /* runs ended since delivery last looked */
	int said;                   /* a run was reported, or a warning said */
};

static void
print_line(char *line)
{
	printf("%s\n", line);
	fflush(stdout);
	free(line);
}

static void
on_report(const struct fire_report *r, void *arg)
{
	struct out *out = arg;
	const struct run *run = r->run;
	out->ended++;
	out->said = 1;
	print_line(out->human ? report_line(r, out->zs) : report_json(r));
	/* Without a hook, a failure must still reach someone: cron mails
	 * stderr.  On a terminal the line above said it.  A run ended because
	 * someone asked (--overlap replace, a cancel) is no failure: the log
	 * line is enough; a gate with nothing to do is said once per streak. */
	int idle = run->status == RUN_SKIPPED && run->error && ((!r->told &&
	    strncmp(run->error, STORE_GATE_IDLE, strlen(STORE_GATE_IDLE)) == 0) ||
	    strncmp(run->error, OUTCOME_IDLE, strlen(OUTCOME_IDLE)) == 0);
	if (!r->hook && run->status != RUN_SUCCESS && run->status != RUN_CANCELLED && !idle &&
	    !(out->human && isatty(2))) {
		char reason[1024];
		report_reason(run, reason, sizeof reason);
		fprintf(stderr, "%s: task '%s' (%.8s) %s: %s\n", prog, r->name, run->task_id,
		    run_status_name(run->status), reason[0] ? reason : "no error text");
	}
}

static void
on_warn(const char *msg, void *arg)
{
	struct out *out = arg;
	out->said = 1;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static void
on_preview(const struct fire_preview *p, void *arg)
{
	struct out *out = arg;
	char *base = NULL, *prompt = NULL, *system = NULL;
	struct err e;
	int fires = strcmp(p->trigger, "skip") != 0 && strcmp(p->trigger, "budget") != 0;
	struct task t = *p->task;
	if (fires && heartbeat_is(&t) && heartbeat_prompt(out->st, t.prompt, &base, &e) == ST_OK)
		t.prompt = base;
	/* As its run would send it, gate and input aside (neither runs here). */
	if (fires && prompt_vars_run(out->st, out->zs, &t, p->slot != TIME_NONE ? p->slot :
	    fire_clock_now(out->clk), p->slot, 1, NULL, NULL, &prompt, &system, &e))
		fprintf(stderr, "%s: task '%.8s': %s\n", prog, t.id, e.msg);
	print_line(out->human ? preview_line(p, out->zs, prompt) : preview_json(p, prompt, system));
	free(base);
	free(prompt);
	free(system);
}

/* ---- the one-off commands ---- */

static int
set_pause(struct store *st, int pause, int64_t now, struct err *e)
{
	char when[40], *was = NULL;
	time_fmt_utc(now, when, sizeof when);
	int rc = store_setting_get(st, STORE_SETTING_PAUSED, &was, e);
	if (!rc && pause && !was)
		rc = store_setting_set(st, STORE_SETTING_PAUSED, when, e);
	else if (!rc && !pause && was)
		rc = store_setting_set(st, STORE_SETTING_PAUSED, NULL, e);
	if (rc) {
		free(was);
		return rc;
	}
	if (pause)
		fprintf(stderr, "%s: scheduler paused since %s; nothing fires until task-tick --resume\n",
		    prog, was ? was : when);
	else
		fprintf(stderr, was ? "%s: scheduler resumed\n" : "%s: scheduler was not paused\n", prog);
	free(was);
	store_wake(st);
	return ST_OK;
}

static int
set_heartbeat(struct store *st, const char *cron, const char *prompt, int64_t now, struct err *e)
{
	struct task t;
	int created, rc = heartbeat_set(st, cron, prompt, now, &t, &created, e);
	if (rc)
		return rc;
	store_wake(st);
	if (isatty(1))
		printf("%s heartbeat %s: %s\n", created ? "Added" : "Changed", t.id, t.enabled ? t.cron : "off");
	else
		printf("%s\n", t.id);
	task_free(&t);
	return ST_OK;
}

static int
dry_run(struct fire *f, struct out *out, struct err *e)
{
	char *since = NULL;
	int rc = ST_OK;
	if (fire_paused(f, &since, e) > 0)
		fprintf(stderr, "%s: scheduler paused since %s; nothing would fire\n", prog, since);
	else
		rc = fire_preview(f, on_preview, out, e);
	free(since);
	return rc;
}

/* The store's clock is the one that counts; say when ours is off, and
 * when the server may lose what it acknowledged (exactly once rests on
 * it), once a day on this host: under cron every pass would mail it. */
static void
check_store(struct store *st, int fixed_clock, int64_t today)
{
	struct err e;
	char off[64];
	int64_t skew = store_clock_skew_ms(st);
	if (!fixed_clock && (skew > 2000 || skew < -2000) && !stamp_today("clock-skew", today)) {
		fprintf(stderr, "%s: this machine's clock is %.1f s %s the store's (%s); firing follows"
		    " the store's\n", prog, (double)(skew < 0 ? -skew : skew) / 1000.0,
		    skew > 0 ? "behind" : "ahead of", store_name(st));
		stamp_set("clock-skew", today);
	}
	long standbys;
	if (!stamp_today("replication", today) && !store_async_standbys(st, &standbys, &e) &&
	    standbys) {
		fprintf(stderr, "%s: the PostgreSQL server of store '%s' has %ld standby%s and none"
		    " synchronous: a failover may lose what it acknowledged, and runs may repeat"
		    " (see agentcron(7), High availability)\n", prog, store_name(st), standbys,
		    standbys == 1 ? "" : "s");
		stamp_set("replication", today);
	}
	if (stamp_today("durability", today) || store_durability(st, off, sizeof off, &e) || !off[0])
		return;
	fprintf(stderr, "%s: the PostgreSQL server of store '%s' runs with %s off: a crash of it"
	    " may lose what it acknowledged, and runs may repeat (see agentcron(7))\n", prog,
	    store_name(st), off);
	stamp_set("durability", today);
}

/* After a pass from cron that did nothing, the note for the next ones. */
static void
idle_mark(struct tick *tk, const struct out *out, int recovered, const char *delivery_said)
{
	struct err e;
	int marked;
	if (tk->busy || out->said || recovered || tk->stop_at || delivery_said || !tk->prune_at ||
	    !tk->passed)
		return;
	if (store_idle_mark(tk->st, config_path(tk->cf), fire_clock_ms(&tk->clk) / 1000, tk->passed,
	    &marked, &e))
		fprintf(stderr, "%s: %s\n", prog, e.msg);
}

/* The config's pass_claim_time, else PASS_CLAIMS_S. */
static int
pass_claim_time(const struct config *cf, long *secs, struct err *e)
{
	const char *v = config_get(cf, "pass_claim_time");
	*secs = PASS_CLAIMS_S;
	if (v && opt_number("pass_claim_time", v, "seconds", 1, 3600, secs, e))
		return err_set(e, ST_INVALID, "config: %s", e->msg);
	return ST_OK;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-tick [-j N] [--dry-run] [--json]\n"
	    "       task-tick --watch [-j N] [--grace SECONDS] [--json]\n"
	    "       task-tick --pause | --resume\n"
	    "       task-tick --heartbeat CRON|off [--heartbeat-prompt TEXT]\n"
	    "       task-tick --print-cron | --print-systemd [--watch]\n"
	    "  -j, --jobs N        run at most N tasks at once (default 4)\n"
	    "  -n, --dry-run       list what would fire; change nothing\n"
	    "      --json          a JSON line per run even on a terminal (in a pipe, always)\n"
	    "  -w, --watch         keep running, firing each task at its instant\n"
	    "  -g, --grace SECONDS on SIGTERM, how long runs may finish (default 30)\n"
	    "      --pause, --resume   stop or restart all firing\n"
	    "      --heartbeat CRON    the heartbeat's schedule ('off' disables it)\n"
	    "      --heartbeat-prompt TEXT  the heartbeat's base prompt\n"
	    "      --print-cron    the crontab line;  --print-systemd  the user units\n"
	    "  -h, --help, -V, --version\n"
	    "The store is TASK_DB: a file, or a postgres:// URI that several hosts share.\n");
}

struct args {
	int jobs, dry, watch, grace, pause, print_cron, print_systemd, json;
	const char *hb, *hbp;
};

/* 0 to go on, else the exit status (help and version: -1, meaning 0). */
static int
parse_args(int argc, char **argv, struct args *a)
{
	enum { O_PAUSE = 256, O_RESUME, O_HB, O_HBP, O_CRON, O_SYSTEMD, O_JSON };
	static const struct option opts[] = {
		{"jobs", required_argument, NULL, 'j'}, {"dry-run", no_argument, NULL, 'n'},
		{"watch", no_argument, NULL, 'w'}, {"grace", required_argument, NULL, 'g'},
		{"pause", no_argument, NULL, O_PAUSE}, {"resume", no_argument, NULL, O_RESUME},
		{"heartbeat", required_argument, NULL, O_HB},
		{"heartbeat-prompt", required_argument, NULL, O_HBP},
		{"print-cron", no_argument, NULL, O_CRON}, {"print-systemd", no_argument, NULL, O_SYSTEMD},
		{"json", no_argument, NULL, O_JSON},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	struct err e;
	char msg[128];
	long v;
	int c;
	while ((c = opt_next(argc, argv, ":j:nwg:hV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'j':
		case 'g':
			if (opt_number(c == 'j' ? "--jobs" : "--grace", optarg, NULL, c == 'j', 100000, &v,
			    &e)) {
				fprintf(stderr, "%s: %s\n", prog, e.msg);
				return ST_INVALID;
			}
			*(c == 'j' ? &a->jobs : &a->grace) = (int)v;
			break;
		case 'n': a->dry = 1; break;
		case 'w': a->watch = 1; break;
		case O_PAUSE: a->pause = 1; break;
		case O_RESUME: a->pause = 0; break;
		case O_HB: a->hb = optarg; break;
		case O_HBP: a->hbp = optarg; break;
		case O_CRON: a->print_cron = 1; break;
		case O_SYSTEMD: a->print_systemd = 1; break;
		case O_JSON: a->json = 1; break;
		case 'h': usage(stdout); return -1;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return -1;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (optind < argc)
		return usage_error(prog, "unexpected argument '%s'", argv[optind]);
	if (a->hbp && !a->hb) {
		fprintf(stderr, "%s: --heartbeat-prompt goes with --heartbeat CRON\n", prog);
		return ST_INVALID;
	}
	return 0;
}

static int
task_tick(int argc, char **argv, struct config **cfp)
{
	struct args a = {.jobs = 4, .grace = 30, .pause = -1};
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	char self[PATH_MAX], dir[PATH_MAX];
	proc_self(prog, self, dir, sizeof self);
	if (a.print_cron || a.print_systemd) {
		char *text = install_text(self, a.print_systemd, a.watch);
		fputs(text, stdout);
		free(text);
		return 0;
	}

	struct err e = {{0}};
	/* A bad value is refused before the store is opened: no file made. */
	if (a.hb && heartbeat_check(a.hb, a.hbp, &e)) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return ST_INVALID;
	}
	struct tick tk = {.prog = prog, .sfd = -1, .grace_ms = (int64_t)a.grace * 1000};
	struct out out = {0};
	int64_t now;
	long long log_max;
	long claim_s;
	int rotated;
	if ((rc = now_get(&now, &e)) || (!*cfp && (rc = config_load(cfp, &e))))
		goto done;
	const struct config *cf = *cfp;
	if ((rc = install_log_max(config_get(cf, "tick_log_max"), &log_max, &e)) ||
	    (rc = install_log_rotate(log_max, &rotated, &e)) ||
	    (rc = pass_claim_time(cf, &claim_s, &e)))
		goto done;
	/* A pass from cron that an idle pass's note spares is done here. */
	int cron = !a.dry && !a.watch && a.pause < 0 && !a.hb;
	if ((rc = store_open_pass(cf, cron, now, &tk.st, &e)) || !tk.st)
		goto done;
	fire_clock_init(&tk.clk, tk.st, now, a.watch);
	if (a.pause >= 0) {
		rc = set_pause(tk.st, a.pause, now, &e);
		goto done;
	}
	if (a.hb) {
		rc = set_heartbeat(tk.st, a.hb, a.hbp, now, &e);
		goto done;
	}
	check_store(tk.st, tk.clk.set, time(NULL));
	struct fire_opts fo = {.jobs = a.jobs, .search_dir = dir, .watch = a.watch,
		.clock = fire_clock_now, .clock_arg = &tk.clk};
	out.human = !a.json && isatty(1);
	out.zs = zones_new();
	out.st = tk.st;
	out.clk = &tk.clk;
	struct fire_cb cb = {.report = on_report, .warn = on_warn, .arg = &out};
	if ((rc = fire_opts_config(&fo, cf, &e)) || (rc = history_opts_config(&tk.ho, cf, &e)) ||
	    (rc = fire_new(tk.st, &fo, &cb, &tk.f, &e)))
		goto done;
	if (a.dry) {
		rc = dry_run(tk.f, &out, &e);
		goto done;
	}
	signal(SIGPIPE, SIG_IGN);
	if ((rc = stopsig_catch(&tk.sfd, &e)))
		goto done;
	int recovered = 0;
	if (fire_recover(tk.f, &recovered, &e)) {
		rc = ST_ERR;
		goto done;
	}
	char *since = NULL;
	/* Said to a person only: under cron the pass does not ask. */
	if (!a.watch && isatty(2) && fire_paused(tk.f, &since, &e) > 0)
		fprintf(stderr, "%s: scheduler paused since %s; nothing fires (task-tick --resume)\n",
		    prog, since);
	free(since);
	tk.ended = &out.ended;
	tk.cf = cf;
	tk.dk = deliver_kick_new(dir);
	tk.claim_ms = claim_s * 1000;
	rc = tick_loop(&tk, a.watch);
	/* A pass from cron delivers what it ran before it exits; a watcher
	 * that stops lets a delivery under way finish within its grace. */
	if (!a.watch && !tk.stop_at)
		tick_deliver(&tk);
	char *said;
	deliver_kick_wait(tk.dk, tk.stop_at ? tk.stop_at + 1 : 0, &said);
	if (!a.watch && !rc)
		idle_mark(&tk, &out, recovered, said);
	tick_deliver_said(said);
	e.msg[0] = 0;
done:
	if (rc && e.msg[0])
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	if (tk.sfd >= 0)
		close(tk.sfd);
	fire_free(tk.f);
	deliver_kick_free(tk.dk);
	store_close(tk.st);
	zones_free(out.zs);
	return rc;
}

int
main(int argc, char **argv)
{
	/* The file prog_start read serves the pass: one read of it. */
	struct config *cf;
	int rc = prog_start_keep(prog, &cf);
	if (!rc)
		rc = task_tick(argc, argv, &cf);
	config_free(cf);
	return prog_end(prog, rc);
}
