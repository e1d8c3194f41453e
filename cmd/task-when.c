/* task-when: show when a schedule fires, without a store.  SCHEDULE (the
 * remaining arguments joined by spaces) is tried as a cron expression or
 * @nickname first, then as a time expression; or the schedule is given with
 * task-add's own flags (--cron, --at, --plan, --daily, --weekly), read by
 * the same code, so a preview is exactly what task-add would add.  The
 * next N firing instants
 * strictly after --from (default now, TASK_NOW honoured) are printed one
 * RFC 3339 timestamp per line, in ZONE's offset or with --utc as Z.  Like
 * `systemd-analyze calendar --iterations`.  A cron schedule may end
 * (--until, --count): its end is armed at --from by the code task-add
 * uses, so the listing stops where the task would. */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chain.h"
#include "config.h"
#include "cron.h"
#include "forecast_cost.h"
#include "opt.h"
#include "prog.h"
#include "simulate.h"
#include "store.h"
#include "task.h"
#include "taskargs.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

static const char prog[] = "task-when";

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-when [--tz ZONE] [--from TIME] [-n N] [--until TIME] [--count N] [--utc]\n"
	    "                 [--id ID] [--describe] [--json] SCHEDULE | task-add's schedule flags\n"
	    "       task-when --simulate [--from TIME] [--tz ZONE] [--json] [DURATION]\n"
	    "       task-when --cost [--model M] [--json] ID | SCHEDULE | task-add's schedule flags\n"
	    "  SCHEDULE     a cron expression ('0 7 * * 1-5'), a nickname (@daily), an\n"
	    "               interval ('every 90 minutes', 'every 2 hours from 9am') or a\n"
	    "               time expression ('tomorrow at 10am', 2026-11-23T07:00:00Z)\n"
	    "  -c, --cron EXPR (repeatable), -a, --at WHEN, -P, --plan WHEN (repeatable),\n"
	    "  --daily TIME, --weekly 'DAY TIME', --every DURATION, --not-before WHEN,\n"
	    "  --jitter DURATION  the schedule as task-add takes it\n"
	    "      --id ID      the instants the task with this id fires at: the config's\n"
	    "                   stagger (and --jitter) applied as task-tick applies them\n"
	    "  -z, --tz ZONE    read the schedule in this IANA zone (default: the local zone)\n"
	    "  -f, --from TIME  count from this instant instead of now (any time expression);\n"
	    "                   with --every, its first instant, as task-add's --from\n"
	    "  -n N             print the next N instants of a cron schedule (default 1, or\n"
	    "                   every one up to its end with --until or --count)\n"
	    "      --until TIME a cron schedule that ends: no instant after TIME\n"
	    "      --count N    a cron schedule that ends after N instants\n"
	    "  -u, --utc        print instants in UTC (...Z) instead of the zone's offset\n"
	    "  -d, --describe   print the schedule's description first\n"
	    "  -j, --json       one JSON object per instant\n"
	    "  -s, --simulate   the next DURATION (default 7d, at most 366d) of every enabled\n"
	    "                   task in the store: fires per minute, the busiest minutes,\n"
	    "                   fires per task, clock changes and spend expected against\n"
	    "                   the budgets; on a terminal, fires per hour too\n"
	    "      --cost       the runs of the next 30 days and what they are expected to\n"
	    "                   spend: a task's (ID, or --id), its recent runs priced, else\n"
	    "                   its prompt and the model's typical answer; a schedule's, the\n"
	    "                   model's typical call; held against the budgets\n"
	    "      --model M    --cost at model M's price and typical answer\n"
	    "  -h, --help, -V, --version\n");
}

/* Instants past 9999-12-31T23:59:59, in UTC or in the zone, have no
 * four-digit year: nothing could read them back. */
static int
past_9999(const struct tz *z, int64_t t)
{
	const int64_t last = 253402300799;
	return t > last || t + tz_offset(z, t) > last;
}

static void
json_str(const char *k, const char *v, int comma)
{
	printf("%s\"%s\":\"", comma ? "," : "", k);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* Instant t; slot, when t is later, is the instant it was put off from. */
static void
print_instant(const struct tz *z, int64_t t, int64_t slot, int utc, int json, const char *desc)
{
	char at[64], local[64], nominal[64];
	time_fmt_utc(t, at, sizeof at);
	tz_fmt_rfc3339(z, t, local, sizeof local);
	if (!json) {
		puts(utc ? at : local);
		return;
	}
	putchar('{');
	json_str("at", at, 0);
	json_str("local", local, 1);
	json_str("tz", tz_name(z), 1);
	if (slot != t) {
		time_fmt_utc(slot, nominal, sizeof nominal);
		json_str("slot", nominal, 1);
	}
	if (desc)
		json_str("description", desc, 1);
	puts("}");
}

/* The end of a recurrence read as task-add reads it: --until in the zone
 * at --from, armed from arm (--from, or just before an interval's anchor
 * that task-when lists from).  Errors carry the flag. */
static int
ends(struct task *t, const char *until, int64_t now, int64_t arm, unsigned flags, struct err *e)
{
	const struct tz *z;
	struct err sub;
	struct zones *zs = zones_new();
	int rc = zones_get(zs, t->tz, &z, e);
	if (!rc && until && (rc = when_read(until, now, z, flags, &t->until_at, &sub)))
		err_set(e, rc, "--until: %s", sub.msg);
	if (!rc)
		rc = task_arm_end(t, zs, arm, e);
	zones_free(zs);
	return rc;
}

/* What the command line asks for. */
struct request {
	const char *zone, *from, *until;
	const char *id;           /* --id: the task whose stagger and jitter apply */
	int stagger;              /* the config's */
	long count, runs; /* -n; --count (0: none) */
	int count_given, utc, describe, json, simulate, cost;
	const char *model;        /* --cost --model */
	struct task_args sched; /* task-add's schedule flags, when given */
};

/* Reads the options into r; returns -1 to go on with the schedule at
 * argv[optind], else the exit status (--help, --version, a bad option). */
static int
parse_options(int argc, char **argv, struct request *r)
{
	static const struct option opts[] = {
		{"tz", required_argument, NULL, 'z'},
		{"from", required_argument, NULL, 'f'},
		{"until", required_argument, NULL, 'U'},
		{"count", required_argument, NULL, 'C'},
		{"id", required_argument, NULL, 'I'},
		{"utc", no_argument, NULL, 'u'},
		{"describe", no_argument, NULL, 'd'},
		{"json", no_argument, NULL, 'j'},
		{"simulate", no_argument, NULL, 's'},
		{"cost", no_argument, NULL, 1000},
		{"model", required_argument, NULL, 1001},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0},
	};
	*r = (struct request){.count = 1};
	taskargs_init(&r->sched);
	struct err e;
	char msg[128], shortopts[64];
	int c, rc = -1;
	struct option *all = taskargs_options_of(TASKARGS_SCHEDULE, opts, "z:f:n:udjshV", shortopts,
	    sizeof shortopts);
	while (rc < 0 && (c = opt_next(argc, argv, shortopts, all, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'z': r->zone = optarg; break;
		case 'f': r->from = optarg; break;
		case 'n':
			if (opt_number("-n", optarg, NULL, 1, 100000, &r->count, &e))
				goto bad;
			r->count_given = 1;
			break;
		case 'U': r->until = optarg; break;
		case 'I': r->id = optarg; break;
		case 'C':
			if (opt_number("--count", optarg, "occurrences", 1, TASK_COUNT_MAX, &r->runs, &e))
				goto bad;
			break;
		case 'u': r->utc = 1; break;
		case 'd': r->describe = 1; break;
		case 'j': r->json = 1; break;
		case 's': r->simulate = 1; break;
		case 1000: r->cost = 1; break;
		case 1001: r->model = optarg; break;
		case 'h': usage(stdout); rc = 0; break;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); rc = 0; break;
		default:
			/* The schedule flags; opt_next returns no other option. */
			if (c == '?' || !taskargs_take(&r->sched, c, optarg, argv, argc, &optind))
				rc = usage_error(prog, "%s", msg);
			break;
		}
	}
	free(all);
	if (rc >= 0)
		return rc;
	if (r->model && !r->cost) {
		fprintf(stderr, "%s: --model goes with --cost\n", prog);
		return ST_INVALID;
	}
	if (r->cost && (r->simulate || r->until || r->runs || r->count_given || r->utc || r->describe)) {
		fprintf(stderr, "%s: --cost takes an ID or a schedule, --model, --from, --tz and --json\n",
		    prog);
		return ST_INVALID;
	}
	if (r->simulate) {
		if (r->sched.nkinds || r->id || r->until || r->runs || r->count_given || optind + 1 < argc) {
			fprintf(stderr, "%s: --simulate takes every enabled task, --from, --tz, --json and "
			    "a DURATION (default 7d)\n", prog);
			return ST_INVALID;
		}
		return -1;
	}
	if (r->sched.nkinds && optind < argc) {
		fprintf(stderr, "%s: give the schedule once: %s, or '%s'\n", prog, r->sched.kinds[0],
		    argv[optind]);
		return ST_INVALID;
	}
	if (!r->sched.nkinds && optind >= argc && !r->id) {
		fprintf(stderr, "%s: no schedule given; e.g. task-when '0 7 * * *'\n", prog);
		return ST_INVALID;
	}
	return -1;
bad:
	free(all);
	fprintf(stderr, "%s: %s\n", prog, e.msg);
	return ST_INVALID;
}

/* The instants of a cron schedule after now, up to -n or its end. */
static int
print_cron(const struct request *r, const struct cron *cr, const char *sched, struct tz *z,
    int64_t now, unsigned flags, struct err *e)
{
	struct task task;
	task_init(&task);
	task.kind = KIND_CRON;
	task.cron = xstrdup(sched);
	task.tz = xstrdup(tz_name(z));
	task.count = (int)r->runs;
	int rc = ends(&task, r->until, now, now, flags, e);
	char desc[256];
	task_describe(&task, NULL, desc, sizeof desc);
	int64_t end_at = task.ends_at;
	task_free(&task);
	if (rc)
		return rc;
	long count = r->count;
	if (!r->count_given && end_at != TIME_NONE)
		count = TASK_COUNT_MAX;
	if (r->describe && !r->json)
		puts(desc);
	int64_t t = now;
	for (long i = 0; i < count; i++) {
		t = cron_next(cr, z, t);
		if (end_at != TIME_NONE && t > end_at)
			break;
		if (t < 0 || past_9999(z, t)) {
			if (i > 0)
				break;
			char f[64], q[112];
			tz_fmt_rfc3339(z, now, f, sizeof f);
			return err_set(e, ST_INVALID, "'%s' never fires after %s%s",
			    utf8_quote(q, 104, sched, strlen(sched)), f,
			    t < 0 ? "" : " before the year 10000");
		}
		print_instant(z, t, t, r->utc, r->json, r->describe ? desc : NULL);
	}
	return ST_OK;
}

/* The one instant of a time expression; when it is not one either, the
 * cron error ce is the useful one if sched looks like cron. */
static int
print_once(const struct request *r, const char *sched, const struct err *ce, struct tz *z,
    int64_t now, unsigned flags, struct err *e)
{
	int64_t t;
	if (when_read(sched, now, z, flags | WHEN_PAST_OK, &t, e) != ST_OK &&
	    schedule_looks_like_cron(sched)) {
		*e = *ce;
		return ST_INVALID;
	}
	int rc = when_read(sched, now, z, flags, &t, e);
	if (rc)
		return rc;
	if (r->until || r->runs) {
		char q[112];
		return err_set(e, ST_INVALID, "--until and --count end a cron schedule; '%s' is "
		    "one instant", utf8_quote(q, 104, sched, strlen(sched)));
	}
	char local[64], desc[256];
	tz_fmt_local(z, t, local, sizeof local);
	char *sp = strchr(local, ' ');
	if (sp)
		*sp = 0;
	snprintf(desc, sizeof desc, "Once on %s at %s", local, sp ? sp + 1 : "");
	if (r->describe && !r->json)
		puts(desc);
	print_instant(z, t, t, r->utc, r->json, r->describe ? desc : NULL);
	return ST_OK;
}

/* The instants of task t (its schedule read, not yet checked), strictly
 * after `after`, up to -n or its end. */
/* The delays task-tick would add, as task-add arms them: the config's
 * stagger for the task --id names (without it, the description says what
 * it may be), and --jitter.  desc gets the description. */
static int
preview_delays(const struct request *r, struct task *t, struct zones *zs, int64_t after,
    char *desc, size_t n, struct err *e)
{
	int64_t first;
	task_describe(t, zs, desc, n);
	if (r->id && (size_t)snprintf(t->id, sizeof t->id, "%s", r->id) >= sizeof t->id)
		return err_set(e, ST_INVALID, "--id '%.40s...' is no task id", r->id);
	zones_set_stagger(zs, r->id ? r->stagger : 0);
	if (r->id || r->stagger <= 0 || t->jitter > 0 || t->stagger == 0 ||
	    task_next_slot(t, zs, after, &first, e) || first == TIME_NONE || !task_staggered(t, zs, first))
		return ST_OK;
	size_t l = strlen(desc);
	if (r->stagger % 60)
		snprintf(desc + l, n - l, ", staggered under %ds per task", r->stagger);
	else
		snprintf(desc + l, n - l, ", staggered under %dm per task", r->stagger / 60);
	return ST_OK;
}

static int
print_task(struct request *r, struct task *t, struct zones *zs, struct tz *z, int64_t now,
    int64_t after, unsigned flags, struct err *e)
{
	char desc[256];
	int rc = task_validate(t, zs, e);
	int once = t->kind == KIND_AT || t->kind == KIND_PLAN;
	const char *what = r->sched.nkinds ? r->sched.kinds[0] : "the schedule";
	if (!rc && once && (r->until || r->runs))
		rc = err_set(e, ST_INVALID, "--until and --count end a recurring schedule; %s is not one",
		    what);
	if (!rc && !once) {
		t->count = (int)r->runs;
		rc = ends(t, r->until, now, after, flags, e);
	}
	if (rc)
		return rc;
	if ((rc = preview_delays(r, t, zs, after, desc, sizeof desc, e)))
		return rc;
	if (r->describe && !r->json)
		puts(desc);
	long count = r->count_given || (!once && t->ends_at == TIME_NONE) ? r->count : TASK_COUNT_MAX;
	int64_t s = after;
	long i;
	for (i = 0; i < count; i++) {
		if ((rc = task_next_slot(t, zs, s, &s, e)))
			return rc;
		if (s == TIME_NONE || past_9999(z, s))
			break;
		print_instant(z, s + task_delay(t, zs, s), s, r->utc, r->json, r->describe ? desc : NULL);
	}
	if (i == 0) {
		char f[64];
		tz_fmt_rfc3339(z, now, f, sizeof f);
		rc = err_set(e, ST_INVALID, "%s never fires after %s", what, f);
	}
	return rc;
}

/* The instants of a schedule given with task-add's flags, read and
 * checked as task-add reads them, up to -n or its end.  With --every,
 * --from is its anchor, the first instant listed. */
static int
print_flags(struct request *r, struct tz *z, int64_t now, unsigned flags, struct err *e)
{
	struct task t;
	struct zones *zs = zones_new();
	int changed, rc;
	schedule_preview_init(&t, z);
	r->sched.tz = r->zone;
	r->sched.when_flags = flags;
	r->sched.creating = 1;
	if (r->sched.every && r->from)
		r->sched.from = r->from;
	rc = taskargs_apply(&r->sched, &t, now, zs, &changed, e);
	if (!rc && t.kind == KIND_EVERY && t.anchor == TIME_NONE)
		t.anchor = now - (now % 60 + 60) % 60; /* as task-add: the minute it is made */
	/* A one-shot within the last minute still fires, as task-add takes it. */
	int64_t after = t.kind == KIND_AT || t.kind == KIND_PLAN ? now - 61
	    : t.kind == KIND_EVERY && r->from ? t.anchor - 1 : now;
	if (!rc)
		rc = print_task(r, &t, zs, z, now, after, flags, e);
	task_free(&t);
	zones_free(zs);
	return rc;
}

/* "every 90 minutes [from TIME]": 1 and the instants listed, 0 when the
 * schedule is no interval, or an error. */
static int
print_every(struct request *r, const char *sched, struct tz *z, int64_t now, unsigned flags,
    int *done, struct err *e)
{
	int64_t secs, anchor;
	int rc = when_every(sched, now, z, flags, &secs, &anchor, e);
	*done = rc != ST_NOTFOUND;
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	struct task t;
	struct zones *zs = zones_new();
	schedule_preview_init(&t, z);
	t.kind = KIND_EVERY;
	t.every = secs > INT32_MAX ? INT32_MAX : (int)secs;
	t.anchor = anchor != TIME_NONE ? anchor : now - (now % 60 + 60) % 60;
	struct err sub;
	if (r->sched.not_before && (rc = when_read(r->sched.not_before, now, z, flags,
	    &t.not_before, &sub)))
		err_set(e, rc, "--not-before: %s", sub.msg);
	if (!rc)
		rc = print_task(r, &t, zs, z, now, now, flags, e);
	task_free(&t);
	zones_free(zs);
	return rc;
}

/* --id alone: the stored task's own schedule, in its zone unless --tz
 * says otherwise, from its next run on, delays included as task-tick
 * applies them. */
static int
print_stored(struct request *r, struct tz **z, int64_t now, struct err *e)
{
	struct store *st = NULL;
	struct task t;
	struct zones *zs = NULL;
	char id[37], desc[768];
	int rc = store_open(NULL, STORE_READ, &st, e);
	if (!rc)
		rc = store_task_resolve(st, r->id, 0, id, e);
	if (!rc)
		rc = store_task_get(st, id, &t, e);
	char chain[512] = "";
	if (!rc)
		chain_describe(st, &t, chain, sizeof chain);
	store_close(st);
	if (rc)
		return rc;
	if (!r->zone && t.tz && *t.tz) {
		struct tz *own;
		if ((rc = tz_load(t.tz, &own, e)))
			goto out;
		tz_free(*z);
		*z = own;
	}
	zs = zones_new();
	zones_set_stagger(zs, r->stagger);
	task_describe(&t, zs, desc, sizeof desc);
	if (chain[0] && t.kind == KIND_MANUAL)
		snprintf(desc, sizeof desc, "%s", chain);
	else if (chain[0])
		snprintf(desc + strlen(desc), sizeof desc - strlen(desc), "; %s", chain);
	if (r->describe && !r->json)
		puts(desc);
	int64_t s = t.next_run_at;
	if (t.status != STATUS_PENDING || s == TIME_NONE) {
		char q[112];
		rc = err_set(e, ST_INVALID, "task '%.8s' (%s) does not fire again: it is %s", t.id,
		    utf8_quote(q, 104, t.name, strlen(t.name)),
		    t.kind == KIND_MANUAL ? "manual" : task_status_name(t.status));
		goto out;
	}
	/* Past instants only while the task is due; then from --from (now). */
	if (s <= now && r->from)
		rc = task_next_slot(&t, zs, now, &s, e);
	for (long i = 0; !rc && i < r->count && s != TIME_NONE && !past_9999(*z, s); i++) {
		print_instant(*z, s + task_delay(&t, zs, s), s, r->utc, r->json, r->describe ? desc : NULL);
		rc = task_next_slot(&t, zs, s, &s, e);
	}
out:
	task_free(&t);
	zones_free(zs);
	return rc;
}

static int
task_when(int argc, char **argv)
{
	struct request r;
	int rc = parse_options(argc, argv, &r);
	if (rc >= 0) {
		taskargs_free(&r.sched);
		return rc;
	}
	struct buf sched = {0};
	for (int i = optind; i < argc; i++) {
		if (i > optind)
			buf_add(&sched, " ", 1);
		buf_puts(&sched, argv[i]);
	}
	struct err e = {{0}};
	struct tz *z = NULL;
	int64_t now;
	unsigned flags = 0;
	if ((rc = now_get(&now, &e)) || (rc = tz_load(r.zone, &z, &e)) ||
	    (rc = config_when_flags(&flags, &e)))
		goto fail;
	if (r.from && (rc = when_read(r.from, now, z, flags | WHEN_PAST_OK, &now, &e))) {
		fprintf(stderr, "%s: --from: %s\n", prog, e.msg);
		buf_free(&sched);
		tz_free(z);
		taskargs_free(&r.sched);
		return rc;
	}
	struct cron cr;
	struct err ce = {{0}};
	int done = 0;
	if ((rc = config_stagger_load(&r.stagger, &e)))
		goto fail;
	/* --not-before, --jitter, --id or a stagger with a cron expression: the
	 * flags' reading has them. */
	if (!r.sched.nkinds && (r.sched.not_before || r.sched.jitter || r.id || r.stagger) &&
	    cron_parse(sched.data, &cr, &ce) == ST_OK)
		taskargs_take(&r.sched, 'c', sched.data, argv, argc, &optind);
	if (r.cost)
		{
		struct cost_query q = {r.zone, r.from, r.id, r.model, r.stagger, r.json, &r.sched};
		rc = forecast_cost(&q, sched.data ? sched.data : "", argc - optind, z, now, flags, &e);
	}
	else if (r.simulate)
		rc = sim_command(optind < argc ? argv[optind] : NULL, z, now, r.json, &e);
	else if (!r.sched.nkinds && optind >= argc)
		rc = print_stored(&r, &z, now, &e);
	else if (r.sched.nkinds)
		rc = print_flags(&r, z, now, flags, &e);
	else if ((rc = print_every(&r, sched.data, z, now, flags, &done, &e)) || done)
		;
	else if (cron_parse(sched.data, &cr, &ce) == ST_OK)
		rc = print_cron(&r, &cr, sched.data, z, now, flags, &e);
	else
		rc = print_once(&r, sched.data, &ce, z, now, flags, &e);
	if (rc)
		goto fail;
	buf_free(&sched);
	tz_free(z);
	taskargs_free(&r.sched);
	return ST_OK;
fail:
	for (char *q = e.msg; *q; q++) /* one line, whatever the schedule held */
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			*q = isspace((unsigned char)*q) ? ' ' : '?';
	fprintf(stderr, "%s: %s\n", prog, e.msg);
	buf_free(&sched);
	tz_free(z);
	taskargs_free(&r.sched);
	return rc ? rc : ST_INVALID;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_when(argc, argv));
}
