/* task-rm: delete tasks.  A deleted task stops firing at once (it leaves
 * the due index in the same write) and waits in the trash with its runs, so
 * `--undo` can bring it back; `--purge` empties the trash; `--cancel` keeps
 * the task on record as cancelled instead. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "chain_link.h"
#include "config.h"
#include "ids.h"
#include "opt.h"
#include "prog.h"
#include "store_audit.h"
#include "store.h"
#include "store_chain.h"
#include "task_json.h"

static const char prog[] = "task-rm";

struct remover {
	struct store *st;
	struct zones *zs;
	int cancel;
	int64_t now;
	const char *upstream;  /* restored: its id */
	char *why;             /* the reason its deletion disabled its followers with */
	int rc;
	struct err *e;
	int status;
	int tty, json;
};

/* The task as it is now: a confirmation, its id, or its JSON. */
static void
report(struct remover *r, const char *id, const char *fmt)
{
	struct task t;
	struct err e;
	if (store_task_get(r->st, id, &t, &e) != ST_OK) {
		puts(id);
		return;
	}
	if (r->json) {
		cJSON *j = task_to_json(&t, NULL);
		char *s = json_print_line(j);
		puts(s);
		free(s);
		cJSON_Delete(j);
	} else if (r->tty) {
		printf(fmt, t.id, t.name);
	} else {
		puts(t.id);
	}
	task_free(&t);
}

static int
remove_one(const char *arg, void *ctx)
{
	struct remover *r = ctx;
	char id[37];
	struct task t;
	struct err e;
	int rc = store_begin(r->st, &e);
	if (!rc && !(rc = store_task_resolve(r->st, arg, 0, id, &e)) &&
	    !(rc = store_task_get(r->st, id, &t, &e))) {
		if (r->cancel && t.status != STATUS_PENDING) {
			rc = err_set(&e, ST_REFUSED, "task '%s' is %s; only a pending task can be cancelled",
			    arg, task_status_name(t.status));
		} else if (r->cancel) {
			t.status = STATUS_CANCELLED;
			t.next_run_at = t.due_at = TIME_NONE;
			t.queued = 0;
			t.updated_at = r->now;
			rc = store_task_put(r->st, &t, &e);
		} else {
			rc = store_task_trash(r->st, id, r->now, &e);
		}
		if (!rc)
			rc = store_commit(r->st, &e);
		if (!rc)
			report(r, id, r->cancel ? "Cancelled task %s \"%s\"\n"
					    : "Deleted task %s \"%s\" (task-rm --undo restores it)\n");
		task_free(&t);
	}
	if (rc) {
		store_rollback(r->st);
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		r->status = rc;
	}
	return 0;
}

/* A task back in play computes its next run from now, as task-edit
 * --enable does: the occurrences that went by in the trash are not missed
 * runs to catch up on.  A one-shot keeps its instant.  One whose end
 * (--until, --count) passed meanwhile is completed, as it would have ended
 * had it stayed: pending with no next run, nothing would ever end it. */
static int
rearm(struct remover *r, struct task *t, struct err *e)
{
	int64_t next = t->next_run_at, due = t->due_at;
	if (!t->enabled || t->status != STATUS_PENDING || !task_repeats(t))
		return ST_OK;
	int rc = task_schedule_from(t, r->zs, r->now, e);
	if (!rc && t->next_run_at == TIME_NONE) {
		t->status = STATUS_COMPLETED;
		t->queued = 0;
	} else if (rc || (t->next_run_at == next && t->due_at == due)) {
		return rc;
	}
	t->updated_at = r->now;
	return store_task_put(r->st, t, e);
}

/* A follower the deletion of r->upstream disabled (its reason says so) is
 * enabled again; one disabled for another reason stays as it is. */
static int
unorphan(const char *id, const char *after, int enabled, void *arg)
{
	struct remover *r = arg;
	struct chain_link links[CHAIN_MAX];
	size_t n = 0;
	struct err le;
	int match = 0;
	if (enabled || chain_links(after, links, CHAIN_MAX, &n, &le))
		return 0;
	for (size_t i = 0; i < n; i++)
		match |= strcmp(links[i].ref, r->upstream) == 0;
	struct task t;
	if (!match || (r->rc = store_task_get(r->st, id, &t, r->e)))
		return r->rc != ST_OK;
	if (t.paused && strcmp(t.paused, r->why) == 0) {
		t.enabled = 1;
		set_str(&t.paused, NULL);
		t.updated_at = r->now;
		if (!(r->rc = store_task_put(r->st, &t, r->e)))
			r->rc = rearm(r, &t, r->e);
	}
	task_free(&t);
	return r->rc != ST_OK;
}

/* After restoring id, inside its unit of work: the task and the followers
 * its deletion disabled, back as they were, each next run from now. */
static int
restored_again(struct remover *r, const char *id, struct err *e)
{
	struct task t;
	int rc = store_task_get(r->st, id, &t, e);
	if (rc)
		return rc;
	if (!(rc = rearm(r, &t, e))) {
		r->why = store_orphaned_why(t.name ? t.name : id);
		r->upstream = id;
		r->e = e;
		r->rc = ST_OK;
		rc = store_followers(r->st, id, unorphan, r, e);
		rc = r->rc ? r->rc : rc;
		free(r->why);
		r->why = NULL;
	}
	task_free(&t);
	return rc;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-rm [--json] [--cancel] ID...\n"
	    "       task-rm [--json] --undo [ID]\n"
	    "       task-rm --purge\n"
	    "  ID may be any unique prefix of 4+ characters or the task's exact name; '-' reads ids\n"
	    "  from standard input\n"
	    "  -c, --cancel   keep the task on record as cancelled (pending tasks only)\n"
	    "  -u, --undo     restore the latest deletion, or the task ID from the trash\n"
	    "  -j, --json     print each task as JSON once changed\n"
	    "      --purge    empty the trash for good\n"
	    "  -h, --help, -V, --version\n");
}

static int
task_rm(int argc, char **argv)
{
	enum { OPT_PURGE = 256 };
	static const struct option opts[] = {
		{"cancel", no_argument, NULL, 'c'},
		{"undo", no_argument, NULL, 'u'},
		{"purge", no_argument, NULL, OPT_PURGE},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	struct remover r = {.tty = isatty(1)};
	int undo = 0, purge = 0, c;
	char msg[128];
	while ((c = opt_next(argc, argv, ":cujhV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'c': r.cancel = 1; break;
		case 'u': undo = 1; break;
		case 'j': r.json = 1; break;
		case OPT_PURGE: purge = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		default: return usage_error(prog, "%s", msg);
		}
	}
	argc -= optind;
	argv += optind;
	struct err e = {{0}};
	int rc = ST_OK;
	if (r.cancel + undo + purge > 1)
		rc = err_set(&e, ST_INVALID, "give one of --cancel, --undo and --purge");
	else if ((undo && argc > 1) || (purge && argc > 0))
		rc = err_set(&e, ST_INVALID, undo ? "--undo restores one task at a time" : "--purge takes no ids");
	if (!rc)
		rc = now_get(&r.now, &e);
	if (!rc && !(rc = store_open(NULL, 0, &r.st, &e)))
		store_audit_by_user(r.st);
	if (!rc && purge) {
		long n = 0;
		if (!(rc = store_trash_purge(r.st, &n, &e)))
			fprintf(stderr, "%s: purged %ld task%s from the trash\n", prog, n, n == 1 ? "" : "s");
	} else if (!rc && undo) {
		char id[37], restored[37];
		int stagger;
		r.zs = zones_new();
		if (!(rc = config_stagger_load(&stagger, &e)))
			zones_set_stagger(r.zs, stagger);
		if (!rc && !(rc = store_begin(r.st, &e)) &&
		    !(rc = argc ? store_task_resolve(r.st, argv[0], 1, id, &e) : ST_OK) &&
		    !(rc = store_trash_restore(r.st, argc ? id : NULL, restored, &e)) &&
		    !(rc = restored_again(&r, restored, &e)) && !(rc = store_commit(r.st, &e))) {
			store_wake(r.st);
			report(&r, restored, "Restored task %s \"%s\"\n");
		}
		if (rc)
			store_rollback(r.st);
		zones_free(r.zs);
	} else if (!rc) {
		rc = ids_each(argc, argv, remove_one, &r, &e);
		if (!rc)
			store_wake(r.st);
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	store_close(r.st);
	return rc ? rc : r.status;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_rm(argc, argv));
}
