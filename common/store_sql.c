/* store_sql.c: the SQL backends' statements about tasks and runs, from the
 * tables of task_fields.c (store_sql.h).  Every value is a parameter; only
 * names from our own tables (columns, statuses, kinds) and numbers we
 * format are written into the text. */
#include <stdlib.h>
#include <string.h>

#include "store_sql.h"

/* The condition of the due tasks' partial index, spelled as it is, so the
 * planner uses it. */
#define DUE_WHERE "status = 'pending' AND enabled = 1 AND deleted_at IS NULL AND due_at IS NOT NULL"
#define QUEUED_WHERE "queued <> 0 AND deleted_at IS NULL AND status <> 'running'"

static void
param(struct buf *b, const struct sql_dialect *d, int n)
{
	buf_printf(b, "%c%d", d->param, n);
}

/* The columns of fs that cols selects, comma-separated, after sep. */
static void
columns(struct buf *b, const struct fields *fs, int cols, const char *sep)
{
	for (size_t i = 0; i < fs->n; i++)
		if (field_in(&fs->f[i], cols)) {
			buf_printf(b, "%s%s", sep, fs->f[i].column);
			sep = ", ";
		}
}

/* What a task_read or run_read reads, as a SELECT list. */
static void
select_list(struct buf *b, const struct fields *fs, int large)
{
	buf_puts(b, "SELECT ");
	columns(b, fs, COLS_READ, "");
	if (large)
		columns(b, fs, COLS_LARGE, ", ");
}

/* INSERT INTO table (cols) VALUES (1..n), its parameters from first; how
 * many it takes. */
static int
insert(struct buf *b, const struct sql_dialect *d, const char *table, const struct fields *fs,
    const char *more)
{
	int n = 0;
	buf_printf(b, "INSERT INTO %s (", table);
	columns(b, fs, COLS_WRITE, "");
	buf_printf(b, "%s) VALUES (", more);
	for (size_t i = 0; i < fs->n; i++)
		if (field_in(&fs->f[i], COLS_WRITE)) {
			buf_puts(b, n ? ", " : "");
			param(b, d, ++n);
		}
	return n;
}

/* A task's columns set by id (the first parameter); a column that keeps
 * what is stored when its value is not known takes a flag after them all. */
static char *
task_update(const struct sql_dialect *d)
{
	struct buf b = {0};
	int n = 0, keep = 0, ncols = 0;
	for (size_t i = 0; i < task_fields.n; i++)
		ncols += field_in(&task_fields.f[i], COLS_WRITE);
	buf_puts(&b, "UPDATE tasks SET ");
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (!field_in(f, COLS_WRITE))
			continue;
		if (++n == 1)
			continue; /* the id */
		buf_printf(&b, "%s%s = ", n > 2 ? ", " : "", f->column);
		if (field_keeps(f)) {
			buf_puts(&b, "CASE WHEN ");
			param(&b, d, ncols + ++keep);
			buf_printf(&b, " = 1 THEN %s ELSE ", f->column);
			param(&b, d, n);
			buf_puts(&b, " END");
		} else {
			param(&b, d, n);
		}
	}
	buf_puts(&b, " WHERE id = ");
	param(&b, d, 1);
	return b.data;
}

/* A run's end (F_END columns) by its id, if it is still running under the
 * owner given last. */
static char *
run_finish(const struct sql_dialect *d)
{
	struct buf b = {0};
	int n = 1;
	buf_puts(&b, "UPDATE runs SET ");
	for (size_t i = 0; i < run_fields.n; i++)
		if (field_in(&run_fields.f[i], COLS_END)) {
			buf_printf(&b, "%s%s = ", n > 1 ? ", " : "", run_fields.f[i].column);
			param(&b, d, ++n);
		}
	buf_puts(&b, " WHERE id = ");
	param(&b, d, 1);
	buf_puts(&b, " AND status = 'running' AND coalesce(owner_id, '') = ");
	param(&b, d, n + 1);
	return b.data;
}

/* The tasks a claim looks at, each with the attempt of its latest run that
 * counts (not manual, not unstarted). */
static char *
claim(const struct sql_dialect *d, int what)
{
	struct buf b = {0};
	select_list(&b, &task_fields, 0);
	buf_printf(&b, ", (SELECT attempt FROM runs WHERE runs.task_id = tasks.id"
	    " AND trigger <> '%s' AND status <> '%s' ORDER BY started_at DESC, %s DESC"
	    " LIMIT 1) FROM tasks WHERE ", run_trigger_name(TRIGGER_MANUAL),
	    run_status_name(RUN_UNSTARTED), d->seq);
	if (what == CLAIM_DUE) {
		buf_puts(&b, DUE_WHERE " AND due_at <= ");
		param(&b, d, 1);
		buf_puts(&b, " AND (due_at, id) > (");
		param(&b, d, 2);
		buf_puts(&b, ", ");
		param(&b, d, 3);
		buf_puts(&b, ") ORDER BY due_at, id LIMIT ");
		param(&b, d, 4);
	} else if (what == CLAIM_QUEUED) {
		buf_puts(&b, QUEUED_WHERE " LIMIT ");
		param(&b, d, 1);
	} else {
		buf_puts(&b, "id = ");
		param(&b, d, 1);
	}
	buf_puts(&b, what == CLAIM_ONE ? d->lock : d->lock_skip);
	return b.data;
}

void
store_sql_init(struct store_sql *q, const struct sql_dialect *d)
{
	struct buf b = {0};
	memset(q, 0, sizeof *q);
	q->d = d;
	insert(&b, d, "tasks", &task_fields, "");
	buf_puts(&b, ")");
	q->task_insert = b.data;
	q->task_update = task_update(d);
	memset(&b, 0, sizeof b);
	select_list(&b, &task_fields, 0);
	buf_puts(&b, " FROM tasks WHERE id = ");
	param(&b, d, 1);
	q->task_get = xstrdup(b.data);
	buf_puts(&b, d->lock);
	q->task_get_lock = b.data;
	q->task_prefix = xasprintf("SELECT id FROM tasks WHERE id >= %c1 AND id < %c2"
	    " AND (deleted_at IS NULL) = (%c3 = 0) ORDER BY id LIMIT %c4", d->param, d->param,
	    d->param, d->param);
	for (int w = CLAIM_DUE; w <= CLAIM_ONE; w++)
		q->claim[w] = claim(d, w);
	q->due_next = xstrdup("SELECT (SELECT min(due_at) FROM tasks WHERE " DUE_WHERE "),"
	    " EXISTS (SELECT 1 FROM tasks WHERE " QUEUED_WHERE ")");
	memset(&b, 0, sizeof b);
	int n = insert(&b, d, "runs", &run_fields, ", owner_id, owner_host, owner_node, owner_pid,"
	    " owner_start");
	for (int i = 1; i <= 5; i++) {
		buf_puts(&b, ", ");
		param(&b, d, n + i);
	}
	buf_puts(&b, ") ON CONFLICT DO NOTHING");
	q->run_insert = b.data;
	q->run_finish = run_finish(d);
	memset(&b, 0, sizeof b);
	select_list(&b, &run_fields, 1);
	buf_printf(&b, " FROM runs WHERE id >= %c1 AND id < %c2 ORDER BY id LIMIT 2", d->param,
	    d->param);
	q->run_prefix = b.data;
}

void
store_sql_free(struct store_sql *q)
{
	free(q->task_insert);
	free(q->task_update);
	free(q->task_get);
	free(q->task_get_lock);
	free(q->task_prefix);
	for (int w = CLAIM_DUE; w <= CLAIM_ONE; w++)
		free(q->claim[w]);
	free(q->due_next);
	free(q->run_insert);
	free(q->run_finish);
	free(q->run_prefix);
	memset(q, 0, sizeof *q);
}

const char *
store_sql_claim(const struct store_sql *q, const struct claim_req *req, struct row *p)
{
	p->n = p->nowned = 0;
	if (req->what == CLAIM_DUE) {
		row_int(p, req->now);
		row_int(p, req->cur->due);
		row_text(p, req->cur->id);
		row_int(p, req->max);
	} else if (req->what == CLAIM_QUEUED) {
		row_int(p, req->max);
	} else {
		row_text(p, req->id);
	}
	return q->claim[req->what];
}

void
store_sql_run_insert(struct row *p, const struct run *r, const struct owner *o)
{
	row_run(p, r, COLS_WRITE);
	row_text(p, o ? o->id : NULL);
	row_text(p, o ? o->host : NULL);
	row_text(p, o ? o->node : NULL);
	row_time(p, o ? o->pid : TIME_NONE);
	row_time(p, o ? o->start : TIME_NONE);
}

void
store_sql_run_finish(struct row *p, const struct run *r, const char *owner_id)
{
	row_run(p, r, COLS_END);
	row_text(p, owner_id);
}

/* " AND col IN ('a', 'b')" for the bits set (names from our tables); one is
 * written "col = 'a'", which a partial index's condition can match. */
static void
names_in(struct buf *b, const char *col, unsigned bits, int count, const char *(*name)(int))
{
	int n = 0;
	for (int i = 0; i < count; i++)
		n += (bits >> i) & 1;
	buf_printf(b, n == 1 ? " AND %s = " : " AND %s IN (", col);
	for (int i = 0, k = 0; i < count; i++)
		if (bits & (1u << i))
			buf_printf(b, "%s'%s'", k++ ? ", " : "", name(i));
	if (n != 1)
		buf_puts(b, ")");
}

/* " AND col op ?n", the last parameter of p. */
static void
bound(struct buf *b, const struct sql_dialect *d, const struct row *p, const char *col,
    const char *op)
{
	buf_printf(b, " AND %s %s ", col, op);
	param(b, d, p->n);
}

char *
store_sql_task_list(const struct sql_dialect *d, const struct task_filter *f, int count,
    struct row *p)
{
	struct buf b = {0};
	p->n = p->nowned = 0;
	if (count)
		buf_puts(&b, "SELECT count(*)");
	else
		select_list(&b, &task_fields, 0);
	buf_puts(&b, f->trashed ? " FROM tasks WHERE deleted_at IS NOT NULL"
	    : " FROM tasks WHERE deleted_at IS NULL");
	if (f->statuses) {
		/* Most tasks are pending: with it in the set, walk the next-run
		 * order; without it, the status index (which leaves pending out,
		 * hence the term that lets the planner use it). */
		buf_puts(&b, f->statuses & (1u << STATUS_PENDING) ? "" : " AND status <> 'pending'");
		names_in(&b, "status", f->statuses, STATUS_COUNT, task_status_name);
	}
	if (f->kinds)
		names_in(&b, "kind", f->kinds, KIND_COUNT, task_kind_name);
	if (f->channel) {
		row_text(p, f->channel);
		bound(&b, d, p, "channel", "=");
	}
	if (f->intent) {
		row_text(p, f->intent);
		bound(&b, d, p, "intent", "=");
	}
	/* A literal, so the partial indexes that say "enabled = 1" apply. */
	if (f->enabled >= 0)
		buf_puts(&b, f->enabled ? " AND enabled = 1" : " AND enabled = 0");
	/* On the ordering index's expression, so a window is a range scan of
	 * it; a task without a next run sorts last and never matches. */
	if (f->due_within >= 0) {
		row_int(p, f->now + f->due_within);
		bound(&b, d, p, d->order_key, "<=");
	}
	if (f->due_after >= 0) {
		row_int(p, f->now + f->due_after);
		bound(&b, d, p, d->order_key, ">=");
		buf_puts(&b, " AND next_run_at IS NOT NULL");
	}
	if (!count && f->trashed)
		buf_puts(&b, " ORDER BY deleted_at DESC, id");
	else if (!count)
		buf_printf(&b, " ORDER BY %s, %s", d->order_key, d->seq);
	if (!count && f->limit > 0)
		buf_printf(&b, " LIMIT %ld", f->limit);
	return b.data;
}

char *
store_sql_run_list(const struct sql_dialect *d, const struct run_filter *f, struct row *p)
{
	struct buf b = {0};
	p->n = p->nowned = 0;
	select_list(&b, &run_fields, f->with_output);
	buf_puts(&b, " FROM runs WHERE true");
	if (f->task_id) {
		row_text(p, f->task_id);
		bound(&b, d, p, "task_id", "=");
	}
	if (f->status >= 0) {
		row_text(p, run_status_name(f->status));
		bound(&b, d, p, "status", "=");
	}
	if (f->since != TIME_NONE) {
		row_int(p, f->since);
		bound(&b, d, p, "started_at", ">=");
	}
	buf_printf(&b, " ORDER BY started_at DESC, %s DESC", d->seq);
	if (f->limit > 0)
		buf_printf(&b, " LIMIT %ld", f->limit);
	return b.data;
}
