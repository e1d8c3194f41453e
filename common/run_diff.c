/* run_diff.c: two runs' answers compared (run_diff.h). */
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "run_diff.h"
#include "store_chain.h"

struct base_look {
	struct run *prev;
	int found;
	char last[37];              /* the last run seen, to page on from */
	long seen;
};

static int
take_base(const struct run *r, void *arg)
{
	struct base_look *l = arg;
	memcpy(l->last, r->id, sizeof l->last);
	l->seen++;
	if (r->trigger == TRIGGER_REPLAY)
		return 0;
	*l->prev = *r;
	l->prev->output = r->output ? xstrdup(r->output) : NULL;
	l->prev->error = r->error ? xstrdup(r->error) : NULL;
	l->prev->note = r->note ? xstrdup(r->note) : NULL;
	l->found = 1;
	return 1;
}

int
run_diff_base(struct store *st, const struct run *r, struct run *prev, int *found, struct err *e)
{
	*found = 0;
	run_init(prev);
	int rc;
	if (r->trigger == TRIGGER_REPLAY) {
		struct run_input in;
		int had = 0;
		run_input_init(&in);
		rc = store_input_find(st, INPUT_OF_RUN, NULL, r->id, &in, &had, e);
		char of[37] = "";
		if (!rc && had && in.kind == INPUT_REPLAY)
			snprintf(of, sizeof of, "%s", in.upstream_run);
		run_input_free(&in);
		if (rc)
			return rc;
		if (of[0]) {
			rc = store_run_get(st, of, prev, e);
			if (rc == ST_NOTFOUND)
				return ST_OK;   /* pruned */
			*found = !rc;
			return rc;
		}
	}
	struct run_filter f;
	run_filter_init(&f);
	f.task_id = r->task_id;
	f.status = RUN_SUCCESS;
	f.before = r->id;
	f.with_output = 1;
	f.limit = 8;
	struct base_look l = {prev, 0, "", 0};
	do {
		l.seen = 0;
		rc = store_run_list(st, &f, take_base, &l, e);
		f.before = l.last;
	} while (!rc && !l.found && l.seen == f.limit);
	*found = l.found;
	return rc;
}

static void
label(const struct run *r, char *buf, size_t n)
{
	char when[40];
	time_fmt_utc(r->started_at, when, sizeof when);
	snprintf(buf, n, "run %.8s (%s, %s)", r->id, run_trigger_name(r->trigger), when);
}

int
run_diff(const struct run *from, const struct run *to, int words, struct buf *out)
{
	char a[96], b[96];
	label(from, a, sizeof a);
	label(to, b, sizeof b);
	struct diff_opts o = {.words = words, .from = a, .to = b};
	return diff_text(from->output ? from->output : "", to->output ? to->output : "", &o, out);
}
