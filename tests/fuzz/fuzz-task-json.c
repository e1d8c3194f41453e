/* fuzz-task-json: libFuzzer target for the import format of task-add
 * --json - (a stream of task objects, or arrays of them), read at a fixed
 * instant as task-add reads it.  Invariants: a refusal is one line of
 * valid UTF-8 that says where; every task read prints (task_to_json) as
 * valid UTF-8 JSON that imports again as the same task, printed the
 * same: what task-ls --json exports, task-add imports.
 * t-fuzz-replay.c includes this file with FUZZ_REPLAY defined to run the
 * corpus without libFuzzer. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "task_import.h"
#include "task_json.h"
#include "utf8.h"
#include "when.h"

#include "fuzz.h"

#define FUZZ_TASK_NOW 1795000000 /* 2026-11-18T11:06:40Z */

static struct zones *fuzz_task_zones;

static void
fuzz_task_msg_ok(const char *msg)
{
	size_t len = strlen(msg);
	assert(len > 0 && utf8_valid(msg, len));
	for (size_t i = 0; i < len; i++)
		assert((unsigned char)msg[i] >= 0x20 && msg[i] != 0x7f);
}

static char *
fuzz_task_print(const struct task *t)
{
	cJSON *j = task_to_json(t, fuzz_task_zones);
	assert(j);
	char *s = json_print_line(j);
	cJSON_Delete(j);
	assert(s && utf8_valid(s, strlen(s)));
	return s;
}

static int
fuzz_task_keep(struct task *t, const char *where, void *arg, struct err *e)
{
	(void)where;
	(void)e;
	char **printed = arg;
	assert(!*printed); /* one task in, one out */
	*printed = fuzz_task_print(t);
	return ST_OK;
}

/* t, printed, imported again as task-add imports it: the same task. */
static int
fuzz_task_round_trip(struct task *t, const char *where, void *arg, struct err *e)
{
	(void)where;
	(void)arg;
	(void)e;
	char *first = fuzz_task_print(t), *again = NULL;
	struct buf in = {0};
	buf_puts(&in, first);
	struct err sub = {{0}};
	long count;
	int rc = task_import(&in, FUZZ_TASK_NOW, fuzz_task_zones, 0, fuzz_task_keep, &again, &count,
	    &sub);
	if (rc != ST_OK)
		fprintf(stderr, "fuzz-task-json: %s does not import again: %s\n", first, sub.msg);
	assert(rc == ST_OK && count == 1 && again);
	if (strcmp(first, again) != 0)
		fprintf(stderr, "fuzz-task-json: printed\n  %s\nimported again as\n  %s\n", first, again);
	assert(strcmp(first, again) == 0);
	free(again);
	free(first);
	buf_free(&in);
	return ST_OK;
}

static int
fuzz_task_json_one(const uint8_t *data, size_t size)
{
	if (!fuzz_task_zones)
		fuzz_task_zones = zones_new();
	struct buf in = {0};
	buf_add(&in, (const char *)data, size);
	if (!in.data)
		buf_add(&in, "", 0);
	struct err e = {{0}};
	long count;
	int rc = task_import_check(&in, &e);
	if (rc == ST_OK)
		rc = task_import(&in, FUZZ_TASK_NOW, fuzz_task_zones, size % 2 ? WHEN_DMY : 0,
		    fuzz_task_round_trip, NULL, &count, &e);
	if (rc != ST_OK) {
		fuzz_task_msg_ok(e.msg);
		assert(strncmp(e.msg, "stdin:", 6) == 0);
	}
	buf_free(&in);
	return 0;
}

FUZZ_TARGET(fuzz_task_json_one)
