/* task-deliver: one pass of delivery.  It gives every run that ended since
 * the last pass a receipt per target its task delivers to (deliver.h),
 * then attempts each receipt that is due: claimed with a lease in one
 * statement, so any number of passes on any hosts attempt one receipt one
 * at a time, and a pass killed mid-send leaves a lease the next pass waits
 * out before it sends the same idempotency key again.  A failure is
 * retried by later passes with backoff for 24 hours; a refusal is not.
 * task-tick starts it after a pass when there is anything to deliver; it
 * links libcurl, which task-tick does not.  One JSON line per attempt. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "config.h"
#include "deliver.h"
#include "deliver_attempt.h"
#include "deliver_json.h"
#include "deliver_send.h"
#include "exec.h"
#include "http.h"
#include "notify.h"
#include "opt.h"
#include "proc.h"
#include "prog.h"
#include "store.h"
#include "store_deliver.h"
#include "task.h"

static const char *prog = "task-deliver";

#define CURSOR_LAG 300  /* runs ending this long before the cursor are looked at again */

struct pass {
	struct store *st;
	struct config *cf;
	struct http *h;
	int64_t now;
	char owner[300];
	long attempted, delivered, failed;
};

/* ---- receipts for runs that ended ---- */

struct ended {
	char (*ids)[37];
	size_t n, cap;
	int64_t since, newest;
};

static int
collect_ended(const char *id, int64_t ended_at, void *arg)
{
	struct ended *en = arg;
	if (strlen(id) != 36)
		return 0;
	if (en->n == en->cap)
		en->ids = xrealloc(en->ids, (en->cap = en->cap ? 2 * en->cap : 64) * sizeof *en->ids);
	memcpy(en->ids[en->n++], id, 37);
	if (ended_at > en->newest)
		en->newest = ended_at;
	return 0;
}

/* Whether run r of t is delivered under its deliver_on. */
static int
wanted(struct pass *p, const struct task *t, const struct run *r, struct err *e)
{
	unsigned mask;
	const char *on = t->deliver_on ? t->deliver_on : config_get(p->cf, "deliver_on");
	if (deliver_on_parse(on, &mask, e))
		return -1;
	struct deliver_history h = {0};
	/* The runs before it matter only to recovery and change: not read
	 * (with their answers) when every success goes. */
	unsigned before = (1u << EV_RECOVERY) | (1u << EV_CHANGE);
	if (r->status == RUN_SUCCESS && (mask & before) && !(mask & (1u << EV_SUCCESS)) &&
	    deliver_history_get(p->st, r, &h, e)) {
		deliver_history_free(&h);
		return -1;
	}
	int w = deliver_wants(mask, r, h.has_prev ? &h.prev : NULL,
	    h.has_success ? h.prev_success : NULL);
	deliver_history_free(&h);
	return w;
}

/* Whether receipt r's task delivers on change, and so sends what changed
 * beside the answer.  Its task gone, the config's deliver_on says. */
static int
carries_diff(struct pass *p, const struct receipt *r)
{
	struct task t;
	struct err e;
	unsigned mask;
	int had = store_task_get(p->st, r->task_id, &t, &e) == ST_OK;
	const char *on = had && t.deliver_on ? t.deliver_on : config_get(p->cf, "deliver_on");
	int carry = !deliver_on_parse(on, &mask, &e) && (mask & (1u << EV_CHANGE));
	if (had)
		task_free(&t);
	return carry;
}

static int
receipts_for(struct pass *p, const char *run_id, struct err *e)
{
	struct run r;
	struct task t;
	int rc = store_run_get(p->st, run_id, &r, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	if ((rc = store_task_get(p->st, r.task_id, &t, e))) {
		run_free(&r);
		return rc == ST_NOTFOUND ? ST_OK : rc;
	}
	size_t n = 0;
	char **targets = deliver_targets_of(&t, p->cf, &n);
	int w = n ? wanted(p, &t, &r, e) : 0;
	if (w < 0)
		rc = ST_ERR;
	for (size_t i = 0; w > 0 && i < n && !rc; i++) {
		struct receipt rec;
		char *resolved = NULL;
		struct err sub;
		int kind;
		const char *rest;
		receipt_init(&rec);
		if (uuid4(rec.id) != 0) {
			rc = err_set(e, ST_ERR, "cannot make a receipt id: no randomness");
			break;
		}
		memcpy(rec.run_id, r.id, 37);
		memcpy(rec.task_id, t.id, 37);
		rec.target = targets[i];
		snprintf(rec.kind, sizeof rec.kind, "unknown");
		if (!deliver_resolve(p->cf, targets[i], &resolved, &sub) &&
		    !deliver_target_parse(resolved, &kind, &rest, &sub))
			snprintf(rec.kind, sizeof rec.kind, "%s", deliver_kind_name(kind));
		free(resolved);
		rec.created_at = rec.next_at = p->now;
		int added;
		rc = store_receipt_add(p->st, &rec, &added, e);
	}
	if (targets)
		str_words_free(targets, n);
	task_free(&t);
	run_free(&r);
	return rc;
}

static int
make_receipts(struct pass *p, struct err *e)
{
	char *v = NULL, *longs = NULL;
	int rc = store_setting_get(p->st, DELIVER_LONG, &longs, e);
	if (!rc)
		rc = store_setting_get(p->st, DELIVER_CURSOR, &v, e);
	if (rc) {
		free(longs);
		return rc;
	}
	int64_t cursor = p->now - DELIVER_FIRST_LOOK;
	if (v)
		cursor = strtoll(v, NULL, 10);
	int had = v != NULL;
	free(v);
	/* By their end, whatever their start: a run of --timeout 3d is
	 * delivered when it ends like any other. */
	struct ended en = {.since = cursor - CURSOR_LAG, .newest = cursor};
	rc = store_runs_ended(p->st, en.since, longs ? longs : "[]", collect_ended, &en, e);
	/* Receipts in the order the runs ended. */
	for (size_t i = 0; !rc && i < en.n; i++)
		rc = receipts_for(p, en.ids[i], e);
	free(en.ids);
	if (!rc && (en.newest != cursor || !had)) {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)en.newest);
		rc = store_setting_set(p->st, DELIVER_CURSOR, buf, e);
	}
	if (!rc)
		rc = store_runs_long_keep(p->st, p->now, longs, e);
	free(longs);
	return rc;
}

/* ---- attempts ---- */

struct due {
	struct receipt *r;
	size_t n, cap;
	char **only;              /* --ids: the receipts to attempt, else NULL */
	size_t nonly;
};

static int
collect_due(const struct receipt *r, void *arg)
{
	struct due *d = arg;
	int take = !d->only;
	for (size_t i = 0; i < d->nonly && !take; i++)
		take = strcmp(d->only[i], r->id) == 0;
	if (!take)
		return 0;
	if (d->n == d->cap)
		d->r = xrealloc(d->r, (d->cap = d->cap ? 2 * d->cap : 16) * sizeof *d->r);
	struct receipt *c = &d->r[d->n++];
	*c = *r;
	c->target = xstrdup(r->target);
	c->answer = xstrdup(r->answer);
	c->error = xstrdup(r->error);
	c->task_name = xstrdup(r->task_name);
	return 0;
}

/* The clock is read for each attempt, not once a pass: a long pass
 * leases a receipt from when it takes it (another pass would find the
 * lease run out and send it too) and stamps the time it sends. */
static int
attempt(struct pass *p, struct receipt *r, struct err *e)
{
	int got = 0;
	int64_t now;
	int rc = store_now(p->st, &now, e);
	if (!rc)
		rc = store_receipt_claim(p->st, r->id, p->owner, now, now + deliver_lease_secs(p->cf),
		    &got, e);
	if (rc || !got)
		return rc;
	r->attempts++;
	struct run run;
	struct deliver_outcome o;
	char *resolved = NULL, *json = NULL, *text = NULL;
	struct err sub;
	memset(&o, 0, sizeof o);
	o.retry_after = -1;
	if ((rc = store_run_get(p->st, r->run_id, &run, e)))
		return rc;
	/* A target agent_deliver no longer grants fails for good, sent nowhere;
	 * the store failing to say is tried again. */
	int held = agent_deliver_held(p->st, p->cf, r->task_id, r->target, &sub);
	if (held || deliver_resolve(p->cf, r->target, &resolved, &sub)) {
		snprintf(o.error, sizeof o.error, "%s", sub.msg);
		o.permanent = !held || held == ST_REFUSED;
	} else {
		const char *name = r->task_name ? r->task_name : r->task_id;
		char *diff = carries_diff(p, r) ? deliver_change_diff(p->st, &run) : NULL;
		json = strcmp(r->kind, "exec") == 0 ? deliver_hook_json(p->st, &run, name, r->id) :
		    deliver_run_json(p->st, &run, name, now, diff);
		if (!json)
			json = xstrdup("{}");
		text = deliver_text_of(&run, diff);
		struct deliver_lease l = {p->st, p->cf, p->owner, r->id};
		struct deliver_msg m = {.id = r->id, .target = resolved, .task_id = r->task_id,
			.task_name = name, .run_id = r->run_id, .status = run_status_name(run.status),
			.text = text, .json = json, .now = now, .parts_done = r->parts_done,
			.on_part = deliver_part_taken, .arg = &l};
		deliver_send(p->h, p->cf, &m, &o);
		free(diff);
	}
	/* The next try counts from the attempt's end. */
	if (!(rc = store_now(p->st, &now, e)))
		deliver_settle(r, &o, now);
	int ours = 0;
	if (!rc)
		rc = store_receipt_finish(p->st, r, p->owner, &ours, e);
	if (!rc && !ours)
		fprintf(stderr, "%s: receipt %.8s: its lease ran out before the attempt ended; another"
		    " pass may try it again\n", prog, r->id);
	if (!rc) {
		p->attempted++;
		p->delivered += r->status == RECEIPT_DELIVERED;
		p->failed += r->status == RECEIPT_FAILED;
		deliver_report(r);
	}
	free(resolved);
	free(json);
	free(text);
	run_free(&run);
	return rc;
}

/* The receipts of one target, attempted in order by one process. */
struct group {
	char *target;             /* resolved */
	struct buf ids;           /* a line each */
	size_t n;
};

/* Each target's receipts in a process of their own, jobs at once: a slow
 * or silent receiver holds back only its own.  Each is this program with
 * --ids; what they print is passed on as each ends. */
static int
attempt_groups(struct group *g, size_t ng, int jobs, struct err *e)
{
	char self[4096], dir[4096];
	proc_self(prog, self, dir, sizeof self);
	char *argv[] = {self, "--ids", NULL};
	struct exec_pool *pool = exec_pool_new();
	size_t next = 0, failed = 0;
	while (next < ng || exec_pool_count(pool)) {
		while (next < ng && exec_pool_count(pool) < (size_t)jobs) {
			struct exec_cmd c = {.argv = argv, .input = g[next].ids.data,
				.ninput = g[next].ids.len, .die_with_parent = 1};
			exec_pool_start(pool, &c, &g[next]);
			next++;
		}
		struct exec_result r;
		if (exec_pool_wait(pool, -1, NULL, 0, &r) != 1)
			continue;
		if (r.nout)
			fwrite(r.out, 1, r.nout, stdout);
		if (r.nerr)
			fputs(r.err, stderr);
		if (r.how != EXEC_EXITED || r.code != 0) {
			failed++;
			if (!r.nerr)
				fprintf(stderr, "%s: the process attempting %zu receipt%s %s\n", prog,
				    ((struct group *)r.tag)->n, ((struct group *)r.tag)->n == 1 ? "" : "s", r.why);
		}
		fflush(stdout);
		exec_result_free(&r);
	}
	exec_pool_free(pool);
	if (failed)
		return err_set(e, ST_ERR, "%zu of %zu targets could not be attempted", failed, ng);
	return ST_OK;
}

static int
attempt_due(struct pass *p, long max, int jobs, char **only, size_t nonly, struct err *e)
{
	struct due d = {.only = only, .nonly = nonly};
	int rc = store_receipt_due(p->st, p->now, only ? 100000 : max, collect_due, &d, e);
	/* Of those due, the older first: one target gets its messages in
	 * the order the runs ended. */
	for (size_t i = 1; i < d.n; i++)
		for (size_t j = i; j > 0 && d.r[j - 1].created_at > d.r[j].created_at; j--) {
			struct receipt t = d.r[j];
			d.r[j] = d.r[j - 1];
			d.r[j - 1] = t;
		}
	struct group *g = NULL;
	size_t ng = 0;
	for (size_t i = 0; !rc && jobs > 1 && i < d.n; i++) {
		char *t = NULL;
		struct err sub;
		if (deliver_resolve(p->cf, d.r[i].target, &t, &sub))
			t = xstrdup(d.r[i].target);
		size_t k = 0;
		while (k < ng && strcmp(g[k].target, t) != 0)
			k++;
		if (k == ng) {
			g = xrealloc(g, (ng + 1) * sizeof *g);
			g[ng++] = (struct group){.target = t};
		} else {
			free(t);
		}
		buf_printf(&g[k].ids, "%s\n", d.r[i].id);
		g[k].n++;
	}
	if (!rc && ng > 1)
		rc = attempt_groups(g, ng, jobs, e);
	for (size_t i = 0; i < d.n; i++) {
		if (!rc && ng <= 1)
			rc = attempt(p, &d.r[i], e);
		receipt_free(&d.r[i]);
	}
	for (size_t k = 0; k < ng; k++) {
		free(g[k].target);
		buf_free(&g[k].ids);
	}
	free(g);
	free(d.r);
	return rc;
}

/* --ids: the ids on standard input, a line each (a receipt id is a UUID). */
static int
read_ids(char ***ids, size_t *n, struct err *e)
{
	char line[256];
	*ids = NULL;
	*n = 0;
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		if (strlen(line) != 36 || strspn(line, "0123456789abcdef-") != 36) {
			str_words_free(*ids, *n);
			*ids = NULL;
			return err_set(e, ST_INVALID, "--ids: '%.40s' is no receipt id", line);
		}
		*ids = xrealloc(*ids, (*n + 2) * sizeof **ids);
		(*ids)[(*n)++] = xstrdup(line);
		(*ids)[*n] = NULL;
	}
	return ST_OK;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-deliver [--max N] [--jobs N] [--no-new] [--ids]\n"
	    "One pass of delivery: receipts for the runs that ended since the last pass,\n"
	    "then every receipt that is due attempted once.  One JSON line per attempt.\n"
	    "  -n, --max N   attempt at most N receipts (default 100)\n"
	    "  -j, --jobs N  targets attempted at once, each in order (default 4)\n"
	    "      --no-new  attempt what is due; make no receipts for new runs\n"
	    "      --ids     attempt only the due receipts whose ids are on standard input,\n"
	    "                a line each, in this process (implies --no-new)\n"
	    "  -h, --help    this help\n"
	    "  -V, --version\n");
}

static int
task_deliver(int argc, char **argv)
{
	enum { OPT_NO_NEW = 256, OPT_IDS };
	static const struct option opts[] = {
		{"max", required_argument, NULL, 'n'},
		{"jobs", required_argument, NULL, 'j'},
		{"no-new", no_argument, NULL, OPT_NO_NEW},
		{"ids", no_argument, NULL, OPT_IDS},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	long max = 100, jobs = 4;
	int no_new = 0, by_id = 0, c;
	char msg[128];
	struct err oe;
	while ((c = opt_next(argc, argv, ":n:j:hV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'n':
		case 'j':
			if (c == 'n' ? opt_number("--max", optarg, NULL, 1, 100000, &max, &oe) :
			    opt_number("--jobs", optarg, NULL, 1, 64, &jobs, &oe)) {
				fprintf(stderr, "%s: %s\n", prog, oe.msg);
				return ST_INVALID;
			}
			break;
		case OPT_NO_NEW: no_new = 1; break;
		case OPT_IDS: by_id = no_new = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (optind < argc)
		return usage_error(prog, "unexpected argument '%s'", argv[optind]);
	struct pass p = {0};
	struct err e = {{0}};
	struct owner self;
	char **only = NULL;
	size_t nonly = 0;
	int rc = by_id ? read_ids(&only, &nonly, &e) : ST_OK;
	if (rc == ST_INVALID) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return 2;
	}
	if (!rc)
		rc = config_load(&p.cf, &e);
	unsigned mask;
	if (!rc && deliver_on_parse(config_get(p.cf, "deliver_on"), &mask, &e))
		rc = err_set(&e, ST_ERR, "config: deliver_on: %s", e.msg);
	if (!rc)
		rc = owner_self(&self, &e);
	if (!rc) {
		snprintf(p.owner, sizeof p.owner, "%s@%.200s:%lld", self.id, self.host, self.pid);
		rc = store_open(NULL, 0, &p.st, &e);
	}
	if (!rc)
		rc = store_now(p.st, &p.now, &e);
	if (!rc)
		rc = http_new(&p.h, &e);
	if (!rc && !no_new)
		rc = make_receipts(&p, &e);
	if (!rc && (!by_id || nonly))
		rc = attempt_due(&p, max, by_id ? 1 : (int)jobs, by_id ? only : NULL, nonly, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	if (only)
		str_words_free(only, nonly);
	http_free(p.h);
	store_close(p.st);
	config_free(p.cf);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_deliver(argc, argv));
}
