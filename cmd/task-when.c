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
#include "schedule_list.h"
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
	    "       task-when --cost [--model M] [--from TIME] [--tz ZONE] [--json]\n"
	    "                 ID | SCHEDULE | task-add's schedule flags\n"
	    "  SCHEDULE     a cron expression ('0 7 * * 1-5'), a nickname (@daily), an\n"
	    "               interval ('every 90 minutes', 'every 2 hours from 9am') or a\n"
	    "               time expression ('tomorrow at 10am', 2026-11-23T07:00:00Z)\n"
	    "  -c, --cron EXPR, -a, --at WHEN, -P, --plan WHEN, --daily TIME, --weekly\n"
	    "  'DAY TIME' (all but --at repeatable), --every DURATION, --not-before WHEN,\n"
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

/* Reads the options into r; returns -1 to go on with the schedule at
 * argv[optind], else the exit status (--help, --version, a bad option). */
static int
parse_options(int argc, char **argv, struct schedule_request *r)
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
	*r = (struct schedule_request){.count = 1, .out = stdout};
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
		case 1001:
			/* It is printed back: one line of UTF-8 text. */
			r->model = optarg;
			if (!*optarg || !utf8_line(optarg, strlen(optarg))) {
				opt_bad(&e, "--model", optarg, "a model name");
				goto bad;
			}
			break;
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

/* --id alone: the stored task's own schedule, in its zone unless --tz
 * says otherwise, from its next run on, delays included as task-tick
 * applies them. */
static int
print_stored(struct schedule_request *r, struct tz **z, int64_t now, struct err *e)
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
	for (long i = 0; !rc && i < r->count && s != TIME_NONE && !schedule_past_9999(*z, s); i++) {
		schedule_list_instant(stdout, *z, s + task_delay(&t, zs, s), s, r->utc, r->json,
		    r->describe ? desc : NULL);
		rc = task_next_slot(&t, zs, s, &s, e);
	}
out:
	task_free(&t);
	zones_free(zs);
	return rc;
}

/* --id with a schedule: the task's full id, which task-tick's stagger and
 * jitter are drawn from.  A prefix or a name is looked up as everywhere
 * else; a UUID is taken as it is, lower-cased (a task yet to be imported
 * with it). */
static int
id_for_schedule(const char *given, char id[37], struct err *e)
{
	size_t n = strlen(given);
	int uuid = n == 36;
	for (size_t i = 0; uuid && i < n; i++)
		uuid = i == 8 || i == 13 || i == 18 || i == 23 ? given[i] == '-' :
		    isxdigit((unsigned char)given[i]);
	if (uuid) {
		for (size_t i = 0; i <= n; i++)
			id[i] = (char)tolower((unsigned char)given[i]);
		return ST_OK;
	}
	struct store *st = NULL;
	int rc = store_open(NULL, STORE_READ, &st, e);
	if (!rc)
		rc = store_task_resolve(st, given, 0, id, e);
	store_close(st);
	return rc;
}

static int
task_when(int argc, char **argv)
{
	struct schedule_request r;
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
	char id[37];
	if (r.id && !r.cost && (r.sched.nkinds || optind < argc)) {
		if ((rc = id_for_schedule(r.id, id, &e)))
			goto fail;
		r.id = id;
	}
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
	else if (r.simulate && optind < argc && !isdigit((unsigned char)*argv[optind]))
		/* Typed, so digits first: sim_command's strtol takes blanks and '+'. */
		rc = err_set(&e, ST_INVALID, "--simulate: bad duration '%.40s': expected 1m to 366d, "
		    "like 7d, 12h or 90m", argv[optind]);
	else if (r.simulate)
		rc = sim_command(optind < argc ? argv[optind] : NULL, z, now, r.json, &e);
	else if (!r.sched.nkinds && optind >= argc)
		rc = print_stored(&r, &z, now, &e);
	else if (r.sched.nkinds)
		rc = schedule_list_flags(&r, z, now, flags, &e);
	else if ((rc = schedule_list_every(&r, sched.data, z, now, flags, &done, &e)) || done)
		;
	else if (cron_parse(sched.data, &cr, &ce) == ST_OK)
		rc = schedule_list_cron(&r, &cr, sched.data, z, now, flags, &e);
	else
		rc = schedule_list_once(&r, sched.data, &ce, z, now, flags, &e);
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
