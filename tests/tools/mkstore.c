/* mkstore: fill a store quickly through the store API, for benchmarks.
 *   mkstore PATH COUNT [NDUE [EXEC]]
 * COUNT tasks, a mix of kinds (cron in several zones, one-shots, plans,
 * manual, heartbeat additions), all scheduled after now (TASK_NOW or the
 * clock) except NDUE one-shots (default 5) due 30 s ago; every executor
 * is EXEC (default `true`), taken as it is.  One transaction per 10,000
 * tasks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

static const char *const crons[] = {"0 7 * * *", "*/15 9-17 * * 1-5", "30 8 * * 1", "0 * * * *",
	"0 0 1 * *", "45 23 * * 6", "0 12 1 1,4,7,10 *", "*/5 * * * *"};
static const char *const zones[] = {"UTC", "Europe/London", "America/New_York", "Asia/Tokyo"};

static int
fill(struct task *t, long i, long ndue, int64_t now, const char *exec)
{
	char name[64], prompt[96];
	snprintf(name, sizeof name, "task %ld", i);
	snprintf(prompt, sizeof prompt, "Prompt number %ld: summarise what happened.", i);
	set_str(&t->name, name);
	set_str(&t->prompt, prompt);
	set_str(&t->exec, exec);
	set_str(&t->tz, zones[i % 4]);
	if (i < ndue) {
		t->kind = KIND_AT;
		t->plan = xcalloc(1, sizeof *t->plan);
		t->plan[0] = now - 30;
		t->nplan = 1;
		return 0;
	}
	switch (i % 20) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
		t->kind = KIND_CRON;
		set_str(&t->cron, crons[i % 8]);
		break;
	case 11: case 12: case 13: case 14:
		t->kind = KIND_AT;
		t->plan = xcalloc(1, sizeof *t->plan);
		t->plan[0] = now + 3600 + i % 100000 * 60;
		t->nplan = 1;
		break;
	case 15: case 16:
		t->kind = KIND_PLAN;
		t->plan = xcalloc(3, sizeof *t->plan);
		for (int k = 0; k < 3; k++)
			t->plan[k] = now + 86400 * (k + 1) + i % 1000;
		t->nplan = 3;
		break;
	case 17: case 18:
		t->kind = KIND_MANUAL;
		break;
	default:
		t->kind = KIND_HEARTBEAT;
		break;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: mkstore PATH COUNT [NDUE [EXEC]]\n");
		return 2;
	}
	long count = atol(argv[2]), ndue = argc >= 4 ? atol(argv[3]) : 5;
	const char *exec = argc == 5 ? argv[4] : "true";
	struct err e;
	struct store *st;
	int64_t now;
	if (now_get(&now, &e) || store_open(argv[1], 0, &st, &e)) {
		fprintf(stderr, "mkstore: %s\n", e.msg);
		return 1;
	}
	struct zones *zs = zones_new();
	int rc = 0;
	for (long i = 0; i < count && !rc; i++) {
		if (i % 10000 == 0 && (rc = store_begin(st, &e)))
			break;
		struct task t;
		task_init(&t);
		int dup;
		char dupid[37];
		fill(&t, i, ndue, now, exec);
		/* A due one-shot is scheduled as if added a minute before it. */
		rc = task_finalize(&t, 1, 1, i < ndue ? now - 60 : now, zs, &e);
		if (!rc)
			rc = store_task_add(st, &t, 0, &dup, dupid, &e);
		task_free(&t);
		if (!rc && (i % 10000 == 9999 || i == count - 1))
			rc = store_commit(st, &e);
	}
	if (rc) {
		store_rollback(st);
		fprintf(stderr, "mkstore: %s\n", e.msg);
	}
	zones_free(zs);
	store_close(st);
	return rc ? 1 : 0;
}
