/* task-tick: fire what is due.  One pass (from cron or a systemd timer):
 * recover runs whose task-tick died, claim every due or queued task, run
 * them through the executor, at most -j at once, record each run and print
 * it as a JSON line.  --watch keeps going: it sleeps until the next due
 * instant, woken early through inotify on the store's "-wake" file (touched
 * by task-add, task-edit, task-run --queue), and on SIGTERM or SIGINT stops
 * claiming, lets the runs in flight finish within a grace and records the
 * rest as interrupted.  The claiming and the rules live in common/fire.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "exec.h"
#include "fire.h"
#include "sdnotify.h"
#include "store.h"

static const char prog[] = "task-tick";

/* "Now": TASK_NOW fixed for a pass; in --watch it moves on with the
 * monotonic clock from TASK_NOW, so tests can start anywhere in time. */
struct clock {
	int fixed, set;
	int64_t base, mono0;
};

static int64_t
clock_ms(const struct clock *c)
{
	if (c->set)
		return c->base * 1000 + (c->fixed ? 0 : mono_ms() - c->mono0);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t
clock_now(void *arg)
{
	int64_t ms = clock_ms(arg);
	return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
}

static void
put_time(cJSON *o, const char *k, int64_t t)
{
	char buf[40];
	if (t == TIME_NONE) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	time_fmt_utc(t, buf, sizeof buf);
	cJSON_AddStringToObject(o, k, buf);
}

static void
print_json(cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o);
	if (s)
		printf("%s\n", s);
	fflush(stdout);
	free(s);
	cJSON_Delete(o);
}

static void
on_report(const struct fire_report *r, void *arg)
{
	(void)arg;
	const struct run *run = r->run;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run_id", run->id);
	cJSON_AddStringToObject(o, "task_id", run->task_id);
	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddStringToObject(o, "trigger", run->trigger ? run->trigger : "");
	put_time(o, "slot", run->slot);
	cJSON_AddStringToObject(o, "status", run->status);
	if (run->exit_code >= 0)
		cJSON_AddNumberToObject(o, "exit_code", run->exit_code);
	else
		cJSON_AddNullToObject(o, "exit_code");
	put_time(o, "started_at", run->started_at);
	put_time(o, "ended_at", run->ended_at);
	cJSON_AddNumberToObject(o, "duration_ms", (double)(run->duration_ms > 0 ? run->duration_ms : 0));
	/* The first line of the error: the whole of it is in task-log. */
	char first[512] = "";
	if (run->error && strcmp(run->status, "success") != 0)
		snprintf(first, sizeof first, "%.*s", (int)strcspn(run->error, "\n"), run->error);
	if (first[0])
		cJSON_AddStringToObject(o, "error", first);
	else
		cJSON_AddNullToObject(o, "error");
	print_json(o);
	/* Without a hook, a failure must still reach someone: cron mails stderr. */
	if (!r->hook && strcmp(run->status, "success") != 0)
		fprintf(stderr, "%s: task '%s' (%.8s) %s: %s\n", prog, r->name, run->task_id,
		    run->status, first[0] ? first : "no error text");
}

static void
on_warn(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", prog, msg);
}

static void
on_preview(const struct fire_preview *p, void *arg)
{
	(void)arg;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "task_id", p->task->id);
	cJSON_AddStringToObject(o, "name", p->task->name ? p->task->name : "");
	cJSON_AddStringToObject(o, "trigger", p->trigger);
	put_time(o, "slot", p->slot);
	put_time(o, "due_at", p->task->due_at);
	print_json(o);
}

/* Reads the signals that stop us; returns the one seen or 0. */
static int
take_signal(int sfd)
{
	struct signalfd_siginfo si;
	int sig = 0;
	while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
		sig = (int)si.ssi_signo;
	return sig;
}

/* Was the wake file among the inotify events? */
static int
take_wake(int ino, const char *name)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	ssize_t n;
	while ((n = read(ino, buf, sizeof buf)) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->len && strcmp(ev->name, name) == 0)
				hit = 1;
			p += sizeof *ev + ev->len;
		}
	}
	return hit;
}

struct tick {
	struct fire *f;
	struct clock clk;
	int sfd, ino;
	const char *wake_name;
	int64_t grace_ms;
	int jobs;
};

/* Stop claiming; the runs in flight get grace_ms, then SIGTERM. */
static void
begin_stop(struct tick *tk, int sig, int64_t *stop_at)
{
	struct err e;
	if (*stop_at)
		return;
	if (sdnotify("STOPPING=1", &e))
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	fire_hold(tk->f);
	*stop_at = mono_ms() + tk->grace_ms;
	if (fire_running(tk->f))
		fprintf(stderr, "%s: %s: letting %zu run%s finish (up to %lld s), then stopping\n", prog,
		    strsignal(sig), fire_running(tk->f), fire_running(tk->f) == 1 ? "" : "s",
		    (long long)(tk->grace_ms / 1000));
}

static int
run_loop(struct tick *tk, int watch)
{
	struct err e;
	int status = 0, stopped = 0, ready = !watch;
	int64_t stop_at = 0, last_recover = mono_ms();
	int fds[2] = {tk->sfd, tk->ino};
	int nfds = watch ? 2 : 1;
	fire_pass_begin(tk->f);
	for (;;) {
		int started = 0, more = 0;
		if (!stop_at && fire_claim(tk->f, &started, &more, &e)) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
			status = 1;
			if (!watch) {
				fire_hold(tk->f);
				stop_at = mono_ms() + tk->grace_ms;
			}
		}
		if (fire_busy(tk->f) == 0 && (stop_at || (!watch && !more)))
			break;
		if (!watch && fire_busy(tk->f) == 0)
			continue;
		int64_t timeout = -1, planned = 0;
		if (stop_at && !stopped) {
			timeout = stop_at - mono_ms();
		} else if (watch && !stop_at) {
			int64_t due = TIME_NONE;
			timeout = 60000;
			if (fire_next_due(tk->f, &due, &e) == ST_OK && due != TIME_NONE) {
				int64_t ms = due * 1000 - clock_ms(&tk->clk);
				/* Due but not ours to claim now (all slots busy, or it
				 * fired in this pass): look again in a while. */
				if (ms <= 0)
					ms = (int)fire_running(tk->f) >= tk->jobs ? 60000 : 1000;
				if (ms < timeout)
					timeout = ms;
			}
			planned = mono_ms() + timeout;
		}
		/* Armed: the first pass is made and wake-ups are watched. */
		if (!ready) {
			ready = 1;
			if (sdnotify("READY=1", &e))
				fprintf(stderr, "%s: %s\n", prog, e.msg);
		}
		if (fire_wait(tk->f, timeout < 0 ? -1 : timeout, fds, nfds, &e))
			status = 1;
		int sig = take_signal(tk->sfd);
		if (sig)
			begin_stop(tk, sig, &stop_at);
		if (watch && (take_wake(tk->ino, tk->wake_name) || (planned && mono_ms() >= planned)))
			fire_pass_begin(tk->f);
		if (stop_at && !stopped && mono_ms() >= stop_at) {
			fire_stop(tk->f);
			stopped = 1;
		}
		if (watch && !stop_at && mono_ms() - last_recover >= 60000) {
			last_recover = mono_ms();
			if (fire_recover(tk->f, NULL, &e)) {
				fprintf(stderr, "%s: %s\n", prog, e.msg);
				status = 1;
			}
		}
	}
	return status;
}

/* TASK_DB made absolute: cron and systemd do not start in this directory. */
static const char *
db_path(char *buf, size_t n)
{
	const char *db = getenv("TASK_DB");
	char cwd[PATH_MAX];
	if (!db || !*db)
		return NULL;
	if (db[0] == '/' || !getcwd(cwd, sizeof cwd))
		return db;
	snprintf(buf, n, "%s/%s", cwd, db);
	return buf;
}

static int
print_install(const char *self, int systemd, int watch)
{
	char buf[2 * PATH_MAX];
	struct buf b = {0};
	if (systemd)
		fire_install_systemd(&b, self, db_path(buf, sizeof buf), watch);
	else
		fire_install_cron(&b, self, db_path(buf, sizeof buf));
	fputs(b.data, stdout);
	buf_free(&b);
	return 0;
}

static int
set_pause(struct store *st, int pause, int64_t now, struct err *e)
{
	char when[40], *was = NULL;
	time_fmt_utc(now, when, sizeof when);
	int rc = store_setting_get(st, "paused", &was, e);
	if (!rc && pause && !was)
		rc = store_setting_set(st, "paused", when, e);
	else if (!rc && !pause && was)
		rc = store_setting_set(st, "paused", NULL, e);
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

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-tick [-j N] [--dry-run]\n"
	    "       task-tick --watch [-j N] [--grace SECONDS]\n"
	    "       task-tick --pause | --resume\n"
	    "       task-tick --heartbeat CRON|off [--heartbeat-prompt TEXT]\n"
	    "       task-tick --print-cron | --print-systemd [--watch]\n"
	    "  -j, --jobs N        run at most N tasks at once (default 4)\n"
	    "  -n, --dry-run       list what would fire; change nothing\n"
	    "  -w, --watch         keep running, firing each task at its instant\n"
	    "  -g, --grace SECONDS on SIGTERM, how long runs may finish (default 30)\n"
	    "      --pause, --resume   stop or restart all firing\n"
	    "      --heartbeat CRON    the heartbeat's schedule ('off' disables it)\n"
	    "      --heartbeat-prompt TEXT  the heartbeat's base prompt\n"
	    "      --print-cron    the crontab line;  --print-systemd  the user units\n"
	    "  -h, --help, -V, --version\n");
}

int
main(int argc, char **argv)
{
	enum { O_PAUSE = 256, O_RESUME, O_HB, O_HBP, O_CRON, O_SYSTEMD };
	static const struct option opts[] = {
		{"jobs", required_argument, NULL, 'j'}, {"dry-run", no_argument, NULL, 'n'},
		{"watch", no_argument, NULL, 'w'}, {"grace", required_argument, NULL, 'g'},
		{"pause", no_argument, NULL, O_PAUSE}, {"resume", no_argument, NULL, O_RESUME},
		{"heartbeat", required_argument, NULL, O_HB},
		{"heartbeat-prompt", required_argument, NULL, O_HBP},
		{"print-cron", no_argument, NULL, O_CRON}, {"print-systemd", no_argument, NULL, O_SYSTEMD},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	int jobs = 4, dry = 0, watch = 0, grace = 30, pause = -1, c, pcron = 0, psys = 0;
	const char *hb = NULL, *hbp = NULL;
	char *end;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:nwg:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'g': {
			long v = strtol(optarg, &end, 10);
			if (end == optarg || *end || v < (c == 'j') || v > 100000) {
				fprintf(stderr, "%s: bad --%s '%s': expected a %s number\n", prog,
				    c == 'j' ? "jobs" : "grace", optarg, c == 'j' ? "positive" : "whole");
				return ST_INVALID;
			}
			*(c == 'j' ? &jobs : &grace) = (int)v;
			break;
		}
		case 'n': dry = 1; break;
		case 'w': watch = 1; break;
		case O_PAUSE: pause = 1; break;
		case O_RESUME: pause = 0; break;
		case O_HB: hb = optarg; break;
		case O_HBP: hbp = optarg; break;
		case O_CRON: pcron = 1; break;
		case O_SYSTEMD: psys = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		case ':':
			fprintf(stderr, "%s: option '%s' needs a value (try 'task-tick --help')\n", prog,
			    argv[optind - 1]);
			return ST_INVALID;
		default:
			fprintf(stderr, "%s: unknown option '%s' (try 'task-tick --help')\n", prog,
			    argv[optind - 1]);
			return ST_INVALID;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (try 'task-tick --help')\n", prog, argv[optind]);
		return ST_INVALID;
	}
	if (hbp && !hb) {
		fprintf(stderr, "%s: --heartbeat-prompt goes with --heartbeat CRON\n", prog);
		return ST_INVALID;
	}
	char self[PATH_MAX], dir[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
	if (sl > 0)
		self[sl] = 0;
	else
		snprintf(self, sizeof self, "%s", prog);
	snprintf(dir, sizeof dir, "%s", self);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = 0;
	if (pcron || psys)
		return print_install(self, psys, watch);

	struct err e = {{0}};
	struct tick tk = {.sfd = -1, .ino = -1, .grace_ms = (int64_t)grace * 1000, .jobs = jobs};
	struct config *cf = NULL;
	struct store *st = NULL;
	int64_t now;
	int rc = now_get(&now, &e);
	tk.clk.set = getenv("TASK_NOW") && *getenv("TASK_NOW");
	tk.clk.fixed = !watch;
	tk.clk.base = now;
	tk.clk.mono0 = mono_ms();
	if (!rc && (rc = config_load(&cf, &e)))
		rc = ST_ERR;
	if (!rc)
		rc = store_open(NULL, &st, &e);
	if (!rc && pause >= 0) {
		rc = set_pause(st, pause, now, &e);
		goto done;
	}
	if (!rc && hb) {
		struct task t;
		int created;
		if (!(rc = fire_heartbeat_set(st, hb, hbp, now, &t, &created, &e))) {
			store_wake(st);
			if (isatty(1))
				printf("%s heartbeat %s: %s\n", created ? "Added" : "Changed", t.id,
				    t.enabled ? t.cron : "off");
			else
				printf("%s\n", t.id);
			task_free(&t);
		}
		goto done;
	}
	struct fire_opts fo = {.jobs = jobs, .search_dir = dir, .clock = clock_now, .clock_arg = &tk.clk};
	struct fire_cb cb = {.report = on_report, .warn = on_warn};
	if (!rc)
		rc = fire_opts_config(&fo, cf, &e);
	if (!rc)
		rc = fire_new(st, &fo, &cb, &tk.f, &e);
	if (!rc && dry) {
		char *since = NULL;
		if (fire_paused(tk.f, &since, &e) > 0)
			fprintf(stderr, "%s: scheduler paused since %s; nothing would fire\n", prog, since);
		else
			rc = fire_preview(tk.f, on_preview, NULL, &e);
		free(since);
		goto done;
	}
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	signal(SIGPIPE, SIG_IGN);
	if (!rc && (sigprocmask(SIG_BLOCK, &stop, NULL) || (tk.sfd = signalfd(-1, &stop, SFD_NONBLOCK | SFD_CLOEXEC)) < 0))
		rc = err_set(&e, ST_ERR, "cannot catch signals: %s", strerror(errno));
	if (!rc && watch) {
		char wdir[PATH_MAX];
		snprintf(wdir, sizeof wdir, "%s", store_wake_path(st));
		char *slash = strrchr(wdir, '/');
		tk.wake_name = strrchr(store_wake_path(st), '/') ? strrchr(store_wake_path(st), '/') + 1
		    : store_wake_path(st);
		if (slash)
			*slash = 0;
		if ((tk.ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0 ||
		    inotify_add_watch(tk.ino, slash ? (wdir[0] ? wdir : "/") : ".",
		    IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO) < 0)
			rc = err_set(&e, ST_ERR, "cannot watch '%s' for wake-ups: %s", wdir, strerror(errno));
	}
	if (!rc && fire_recover(tk.f, NULL, &e))
		rc = ST_ERR;
	if (!rc) {
		char *since = NULL;
		if (!watch && fire_paused(tk.f, &since, &e) > 0 && isatty(2))
			fprintf(stderr, "%s: scheduler paused since %s; nothing fires (task-tick --resume)\n",
			    prog, since);
		free(since);
		rc = run_loop(&tk, watch);
		if (rc)
			e.msg[0] = 0;
	}
done:
	if (rc && e.msg[0])
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	if (tk.sfd >= 0)
		close(tk.sfd);
	if (tk.ino >= 0)
		close(tk.ino);
	fire_free(tk.f);
	store_close(st);
	config_free(cf);
	return rc;
}
