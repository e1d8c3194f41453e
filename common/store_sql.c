/* store_sql.c: the SQL backends' statements about tasks and runs, from the
 * tables of task_fields.c, and those the two spell alike (store_sql.h);
 * those that insert and end runs are in store_sql_runs.c.  They are
 * written with ?N placeholders and given each backend's own.
 * Every value is a parameter; only names from our own tables (columns,
 * statuses, kinds) and numbers we format go into the text. */
#include <stdlib.h>
#include <string.h>

#include "store_chain.h"
#include "store_deliver.h"
#include "store_sql_impl.h"


/* Each next distinct value of a column by one index seek, however many
 * rows share it, from after (?1), for at most ?2 values. */
#define LOOSE_SCAN(col, table) \
	"WITH RECURSIVE t(v, k) AS (SELECT (SELECT min(" col ") FROM " table " WHERE " col " > ?1), 1" \
	" UNION ALL SELECT (SELECT min(" col ") FROM " table " WHERE " col " > t.v), k + 1 FROM t" \
	" WHERE t.v IS NOT NULL AND k < ?2) "

/* The statements both dialects spell alike but for their placeholders. */
static const char *const alike[SQL_COUNT] = {
	[SQL_TASK_BY_KEY] = "SELECT id FROM tasks WHERE idem_key = ?1 AND deleted_at IS NULL",
	[SQL_TASK_BY_DEDUP] = "SELECT id FROM tasks WHERE dedup = ?1 AND status = 'pending'"
	    " AND deleted_at IS NULL LIMIT 1",
	[SQL_TASK_TRASH] = "UPDATE tasks SET deleted_at = ?2, updated_at = ?2"
	    " WHERE id = ?1 AND deleted_at IS NULL",
	[SQL_TASK_RESTORE] = "UPDATE tasks SET deleted_at = NULL WHERE id = ?1"
	    " AND deleted_at IS NOT NULL RETURNING id",
	[SQL_TRASH_PURGE] = "DELETE FROM tasks WHERE deleted_at IS NOT NULL",
	[SQL_TASK_QUEUE] = "UPDATE tasks SET queued = 1, updated_at = ?2 WHERE id = ?1"
	    " AND deleted_at IS NULL",
	[SQL_SETTING_GET] = "SELECT value FROM settings WHERE key = ?1",
	[SQL_SETTING_SET] = "INSERT INTO settings (key, value) VALUES (?1, ?2)"
	    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
	[SQL_SETTING_DEL] = "DELETE FROM settings WHERE key = ?1",
	[SQL_RUN_NOTE] = "UPDATE runs SET note = ?2 WHERE id = ?1",
	[SQL_HISTORY_LOAD] = "SELECT role, content, run_id, created_at FROM messages"
	    " WHERE context = ?1 ORDER BY id DESC LIMIT ?2",
	[SQL_HISTORY_ADD] = "INSERT INTO messages (context, role, content, run_id, created_at)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)",
	[SQL_HISTORY_CLEAR] = "DELETE FROM messages WHERE context = ?1",
	[SQL_CALL_USAGE] = "SELECT c.task_id, t.name, c.model, c.created_at, c.input_tokens,"
	    " c.output_tokens, c.cost, nullif(c.answered_model, c.model) FROM llm_calls c"
	    " LEFT JOIN tasks t ON t.id = c.task_id WHERE c.created_at >= ?1 ORDER BY c.created_at, c.id",
	[SQL_PASS_PUT] = "INSERT INTO passes (host, at, mode, pid, version) VALUES (?1, ?2, ?3, ?4,"
	    " ?5) ON CONFLICT (host) DO UPDATE SET at = excluded.at, mode = excluded.mode,"
	    " pid = excluded.pid, version = excluded.version",
	[SQL_PASS_LIST] = "SELECT host, at, mode, pid, version FROM passes ORDER BY at DESC, host",
	/* Ranges of the due tasks' partial index (tasks_due, its condition
	 * spelled as it is), and the few tasks asked to run (tasks_queued) not
	 * yet among them. */
	[SQL_TASK_DUE_COUNT] = "SELECT (SELECT count(*) FROM tasks WHERE " STORE_SQL_DUE_WHERE " AND due_at <= ?1)"
	    " + (SELECT count(*) FROM tasks WHERE queued <> 0 AND deleted_at IS NULL"
	    " AND status = 'pending' AND enabled = 1 AND (due_at IS NULL OR due_at > ?1)),"
	    " (SELECT count(*) FROM tasks WHERE " STORE_SQL_DUE_WHERE " AND due_at < ?2)",
	[SQL_CALL_TOKENS] = "SELECT coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0)"
	    " FROM llm_calls WHERE created_at >= ?1",
	[SQL_LAST_SUCCESS] = "SELECT id, CASE WHEN deleted_at IS NULL THEN name END, last_success_at"
	    " FROM tasks WHERE last_success_at IS NOT NULL ORDER BY id",
	[SQL_BUDGET_TASKS] = "SELECT id FROM tasks WHERE budget IS NOT NULL AND deleted_at IS NULL"
	    " ORDER BY id",
	[SQL_PRUNED_TOTALS] = "SELECT key, n FROM pruned ORDER BY key",
	[SQL_PRUNE_TASKS] = LOOSE_SCAN("task_id", "runs")
	    "SELECT t.v, tasks.keep FROM t JOIN tasks ON tasks.id = t.v ORDER BY t.v",
	[SQL_PRUNE_CONTEXTS] = LOOSE_SCAN("context", "messages")
	    "SELECT v FROM t WHERE v IS NOT NULL ORDER BY v",
	[SQL_PRUNE_BOUNDS] = "SELECT (SELECT min(started_at) FROM runs WHERE task_id = ?1),"
	    " (SELECT started_at FROM runs WHERE task_id = ?1 ORDER BY started_at DESC LIMIT 1 OFFSET ?2),"
	    " (SELECT started_at FROM runs WHERE task_id = ?1 ORDER BY started_at DESC LIMIT 1 OFFSET ?3)",
	[SQL_RECEIPT_ADD] = "INSERT INTO receipts (id, run_id, task_id, target, kind, status,"
	    " attempts, created_at, next_at) VALUES (?1, ?2, ?3, ?4, ?5, 'pending', 0, ?6, ?7)"
	    " ON CONFLICT (run_id, target) DO NOTHING",
	[SQL_RECEIPT_DUE] = "SELECT " RECEIPT_COLS RECEIPT_FROM " WHERE r.status = 'pending'"
	    " AND r.next_at <= ?1 AND (r.lease_until IS NULL OR r.lease_until <= ?1)"
	    /* Receipts made in one pass share their times: then as their runs ended. */
	    " ORDER BY r.next_at, r.created_at,"
	    " (SELECT ru.ended_at FROM runs ru WHERE ru.id = r.run_id), r.id LIMIT ?2",
	[SQL_RECEIPT_CLAIM] = "UPDATE receipts SET lease_owner = ?2, lease_until = ?4,"
	    " attempts = attempts + 1 WHERE id = ?1 AND status = 'pending' AND next_at <= ?3"
	    " AND (lease_until IS NULL OR lease_until <= ?3)",
	[SQL_RECEIPT_FINISH] = "UPDATE receipts SET status = ?3, next_at = ?4, last_at = ?5,"
	    " answer = ?6, error = ?7, parts_done = ?8, lease_owner = NULL, lease_until = NULL"
	    " WHERE id = ?1 AND lease_owner = ?2",
	[SQL_RECEIPT_COUNTS] = "SELECT kind, status, count(*) FROM receipts WHERE created_at >= ?1"
	    " GROUP BY kind, status ORDER BY kind, status",
	[SQL_INPUT_ADD] = "INSERT INTO run_inputs (" INPUT_COLS ")"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (task_id, key) DO NOTHING",
	[SQL_INPUT_BY_KEY] = "SELECT " INPUT_COLS " FROM run_inputs WHERE task_id = ?1 AND key = ?2",
	[SQL_INPUT_BIND] = "UPDATE run_inputs SET run_id = ?2 WHERE id = ?1 AND run_id IS NULL",
	[SQL_WEB_TOKEN_ADD] = "INSERT INTO web_tokens (name, hash, read_only, created_at)"
	    " VALUES (?1, ?2, ?3, ?4)",
	[SQL_WEB_TOKEN_DEL] = "DELETE FROM web_tokens WHERE name = ?1",
	[SQL_WEB_TOKEN_LIST] = "SELECT name, hash, read_only, created_at FROM web_tokens ORDER BY name",
	[SQL_WEB_HOOK_GET] = "SELECT token_hash, secret FROM web_hooks WHERE task_id = ?1",
	[SQL_WEB_HOOK_EVENT] = "INSERT INTO web_hook_events (task_id, key, at, body_sha256)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (task_id, key) DO UPDATE SET at = excluded.at,"
	    " body_sha256 = excluded.body_sha256 WHERE web_hook_events.body_sha256 = ?5",
	[SQL_WEB_HOOK_FIND] = "SELECT 1 FROM web_hook_events WHERE task_id = ?1 AND key = ?2"
	    " AND body_sha256 = ?3",
	[SQL_WEB_HOOK_PRUNE] = "DELETE FROM web_hook_events WHERE (task_id, key) IN"
	    " (SELECT task_id, key FROM web_hook_events WHERE at < ?1 ORDER BY at LIMIT ?2)",
};

/* The statement b holds, in d's placeholders (none of our statements has
 * a '?' of its own). */
char *
sql_in_dialect(struct buf *b, const struct sql_dialect *d)
{
	for (char *p = b->data; (p = strchr(p, '?')); p++)
		*p = d->param;
	return b->data;
}

/* The columns of fs that cols selects, comma-separated, after sep. */
void
sql_columns(struct buf *b, const struct fields *fs, int cols, const char *sep)
{
	for (size_t i = 0; i < fs->n; i++) {
		if (field_in(&fs->f[i], cols)) {
			buf_puts(b, sep);
			buf_puts(b, fs->f[i].column);
			sep = ", ";
		}
	}
}

/* What task_read or run_read reads, as a SELECT list. */
void
sql_select_list(struct buf *b, const struct fields *fs, int large)
{
	buf_puts(b, "SELECT ");
	sql_columns(b, fs, COLS_READ, "");
	if (large)
		sql_columns(b, fs, COLS_LARGE, ", ");
}

/* INSERT INTO table (its columns, then more) VALUES (?1, ..., ?n), with
 * nmore parameters for more, then tail. */
char *
sql_insert(const struct sql_dialect *d, const char *table, const struct fields *fs,
    const char *more, int nmore, const char *tail)
{
	struct buf b = {0};
	int n = 0;
	buf_printf(&b, "INSERT INTO %s (", table);
	sql_columns(&b, fs, COLS_WRITE, "");
	buf_printf(&b, "%s) VALUES (", more);
	for (size_t i = 0; i < fs->n; i++)
		n += field_in(&fs->f[i], COLS_WRITE);
	for (int i = 1; i <= n + nmore; i++)
		buf_printf(&b, i > 1 ? ", ?%d" : "?%d", i);
	buf_printf(&b, ")%s", tail);
	return sql_in_dialect(&b, d);
}

/* A task's columns set by its id (?1), in the order of row_task; a column
 * that keeps what is stored when its value is not known takes a flag, the
 * flags after the columns. */
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
		if (!field_in(f, COLS_WRITE) || ++n == 1)
			continue; /* not written; the id */
		buf_printf(&b, "%s%s = ", n > 2 ? ", " : "", f->column);
		if (field_keeps(f))
			buf_printf(&b, "CASE WHEN ?%d = 1 THEN %s ELSE ?%d END", ncols + ++keep, f->column, n);
		else
			buf_printf(&b, "?%d", n);
	}
	buf_puts(&b, " WHERE id = ?1");
	return sql_in_dialect(&b, d);
}

/* The tasks a claim looks at (where), each with the attempt of its latest
 * run that counts: not manual, not unstarted. */
static char *
claim(const struct sql_dialect *d, const char *where, const char *lock)
{
	struct buf b = {0};
	sql_select_list(&b, &task_fields, 0);
	buf_printf(&b, ", (SELECT attempt FROM runs WHERE runs.task_id = tasks.id"
	    " AND trigger <> '%s' AND status <> '%s' ORDER BY started_at DESC, %s DESC LIMIT 1)"
	    " FROM tasks WHERE %s%s", run_trigger_name(TRIGGER_MANUAL), run_status_name(RUN_UNSTARTED),
	    d->seq, where, lock);
	return sql_in_dialect(&b, d);
}

static char *
select_by(const struct sql_dialect *d, const struct fields *fs, int large, const char *rest,
    const char *lock)
{
	struct buf b = {0};
	sql_select_list(&b, fs, large);
	buf_printf(&b, " %s%s", rest, lock);
	return sql_in_dialect(&b, d);
}

/* SQL_TASKS_UPDATE for the columns set in cols (COLS_WRITE positions; the
 * id, position 0, is the key): their values and the keep flags of those
 * that have one, in the order store_sql_tasks_pick gives, an array each
 * where the dialect has arrays, else of one row.  Only those columns: an
 * index of none of them is left as it is (SQLite rewrites the entries of
 * every index whose columns an UPDATE sets, changed or not). */
static char *
tasks_update(const struct sql_dialect *d, const unsigned char *cols)
{
	struct buf b = {0}, arrays = {0}, names = {0};
	int pos = 0, n = 1, keep = 0, nvals = 1;
	for (size_t i = 0; i < task_fields.n; i++)
		if (field_in(&task_fields.f[i], COLS_WRITE) && pos++ > 0 && cols[pos - 1])
			nvals++;
	pos = 0;
	buf_puts(&b, "UPDATE tasks SET ");
	buf_puts(&arrays, "?1::text[]");
	buf_puts(&names, "c1");
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (!field_in(f, COLS_WRITE) || pos++ == 0 || !cols[pos - 1])
			continue;
		buf_printf(&b, "%s%s = ", n > 1 ? ", " : "", f->column);
		n++;
		if (field_keeps(f) && d->arrays)
			buf_printf(&b, "CASE WHEN u.k%d = 1 THEN tasks.%s ELSE u.c%d END", ++keep, f->column,
			    n);
		else if (field_keeps(f))
			buf_printf(&b, "CASE WHEN ?%d = 1 THEN %s ELSE ?%d END", nvals + ++keep, f->column, n);
		else
			buf_printf(&b, d->arrays ? "u.c%d" : "?%d", n);
		buf_printf(&arrays, ", ?%d::%s[]", n, field_is_int(f) ? "bigint" : "text");
		buf_printf(&names, ", c%d", n);
	}
	for (int k = 1; k <= keep; k++) {
		buf_printf(&arrays, ", ?%d::bigint[]", n + k);
		buf_printf(&names, ", k%d", k);
	}
	if (d->arrays)
		buf_printf(&b, " FROM unnest(%s) AS u(%s) WHERE tasks.id = u.c1", arrays.data, names.data);
	else
		buf_puts(&b, " WHERE id = ?1");
	buf_free(&arrays);
	buf_free(&names);
	return sql_in_dialect(&b, d);
}

static char *
write_sql(const struct sql_dialect *d, int which)
{
	struct buf b = {0};
	if (alike[which]) {
		buf_puts(&b, alike[which]);
		return sql_in_dialect(&b, d);
	}
	switch (which) {
	case SQL_TASK_RESTORE_LAST:
		buf_printf(&b, "UPDATE tasks SET deleted_at = NULL WHERE id = (SELECT id FROM tasks"
		    " WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, %s DESC LIMIT 1)"
		    " RETURNING id", d->seq);
		return sql_in_dialect(&b, d);
	case SQL_TASK_INSERT: return sql_insert(d, "tasks", &task_fields, "", 0, "");
	case SQL_TASK_UPDATE: return task_update(d);
	case SQL_TASK_GET: return select_by(d, &task_fields, 0, "FROM tasks WHERE id = ?1", "");
	case SQL_TASK_GET_LOCK: return select_by(d, &task_fields, 0, "FROM tasks WHERE id = ?1", d->lock);
	case SQL_TASK_PREFIX:
		buf_puts(&b, "SELECT id FROM tasks WHERE id >= ?1 AND id < ?2"
		    " AND (deleted_at IS NULL) = (?3 = 0) ORDER BY id LIMIT ?4");
		return sql_in_dialect(&b, d);
	case SQL_CLAIM_DUE:
		return claim(d, STORE_SQL_DUE_WHERE " AND due_at <= ?1 AND (due_at, id) > (?2, ?3)"
		    " ORDER BY due_at, id LIMIT ?4", d->lock_skip);
	case SQL_CLAIM_QUEUED: return claim(d, STORE_SQL_QUEUED_WHERE " LIMIT ?1", d->lock_skip);
	case SQL_CLAIM_ONE: return claim(d, "id = ?1", d->lock);
	case SQL_CLAIM_OVERLAP:
		return claim(d, STORE_SQL_OVERLAP_WHERE " AND due_at <= ?1 ORDER BY due_at, id LIMIT ?2",
		    d->lock_skip);
	case SQL_DUE_NEXT:
		/* The due index's first row, not min(): with statistics older
		 * than a burst's rows a planner reads every due row for min().
		 * The running tasks are few. */
		return xstrdup("SELECT (SELECT min(d) FROM (SELECT (SELECT due_at FROM tasks WHERE "
		    STORE_SQL_DUE_WHERE " ORDER BY due_at LIMIT 1) AS d UNION ALL SELECT min(due_at) FROM tasks"
		    " WHERE " STORE_SQL_OVERLAP_WHERE ") AS m),"
		    " EXISTS (SELECT 1 FROM tasks WHERE " STORE_SQL_QUEUED_WHERE ")");
	case SQL_RUN_INSERT:
	case SQL_RUN_FINISH:
	case SQL_RUNS_INSERT:
	case SQL_RUNS_FINISH:
		return sql_run_write(d, which);
	case SQL_GATE_COUNT:
		buf_puts(&b, "SELECT count(*), count(CASE WHEN gate = ?1 THEN 1 END),"
		    " (SELECT count(*) FROM runs WHERE id = ?2 AND status = 'running')"
		    " FROM runs WHERE " STORE_SQL_IN_FLIGHT " AND gate IS NOT NULL");
		return sql_in_dialect(&b, d);
	case SQL_AUDIT_LAST: return xstrdup("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1");
	case SQL_AUDIT_APPEND:
		buf_puts(&b, "INSERT INTO audit (" STORE_SQL_AUDIT_COLS ")"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
		return sql_in_dialect(&b, d);
	case SQL_AUDIT_PRUNE:
		buf_puts(&b, "DELETE FROM audit WHERE seq <= ?1");
		return sql_in_dialect(&b, d);
	case SQL_TASKS_UPDATE: {
		unsigned char all[ROW_MAX];
		memset(all, 1, sizeof all);
		return tasks_update(d, all);
	}
	default:
		return select_by(d, &run_fields, 1, "FROM runs WHERE id >= ?1 AND id < ?2"
		    " ORDER BY id LIMIT 2", "");
	}
}

void
store_sql_init(struct store_sql *q, const struct sql_dialect *d)
{
	memset(q, 0, sizeof *q);
	q->d = d;
}

void
store_sql_free(struct store_sql *q)
{
	for (int i = 0; i < SQL_COUNT; i++)
		free(q->text[i]);
	memset(q->text, 0, sizeof q->text);
	for (int i = 0; i < q->nsome; i++)
		free(q->some[i].text);
	q->nsome = 0;
}

/* How many COLS_WRITE columns a task has (row_task's cells before its keep
 * flags). */
static int
task_ncols(void)
{
	int n = 0;
	for (size_t i = 0; i < task_fields.n; i++)
		n += field_in(&task_fields.f[i], COLS_WRITE);
	return n;
}

static int
cell_same(const struct cell *a, const struct cell *b)
{
	if (a->kind != b->kind)
		return 0;
	return a->kind == CELL_NULL || (a->kind == CELL_INT ? a->i == b->i : strcmp(a->s, b->s) == 0);
}

int
store_sql_tasks_changed(const struct row *before, const struct row *after, unsigned char *cols)
{
	int ncols = task_ncols(), any = 0, pos = 0, keep = ncols;
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (!field_in(f, COLS_WRITE))
			continue;
		int k = field_keeps(f) ? keep++ : -1;
		if (pos > 0 && (!cell_same(&before->c[pos], &after->c[pos]) ||
		    (k >= 0 && !cell_same(&before->c[k], &after->c[k]))))
			any = cols[pos] = 1;
		pos++;
	}
	return any;
}

const char *
store_sql_tasks_update(struct store_sql *q, const unsigned char *cols)
{
	int ncols = task_ncols();
	for (int i = 0; i < q->nsome; i++)
		if (memcmp(q->some[i].cols, cols, (size_t)ncols) == 0)
			return q->some[i].text;
	if (q->nsome == SQL_SOME_MAX)
		return NULL;
	memset(q->some[q->nsome].cols, 0, sizeof q->some[q->nsome].cols);
	memcpy(q->some[q->nsome].cols, cols, (size_t)ncols);
	q->some[q->nsome].text = tasks_update(q->d, cols);
	return q->some[q->nsome++].text;
}

void
store_sql_tasks_pick(struct row *out, const struct row *full, const unsigned char *cols)
{
	int ncols = task_ncols(), pos = 0, keep = ncols;
	int keeps[ROW_MAX], nkeeps = 0;
	out->n = out->nowned = 0;
	for (size_t i = 0; i < task_fields.n; i++) {
		const struct field *f = &task_fields.f[i];
		if (!field_in(f, COLS_WRITE))
			continue;
		int k = field_keeps(f) ? keep++ : -1;
		if (pos == 0 || cols[pos]) {
			out->c[out->n++] = full->c[pos];
			if (k >= 0)
				keeps[nkeeps++] = k;
		}
		pos++;
	}
	for (int i = 0; i < nkeeps; i++)
		out->c[out->n++] = full->c[keeps[i]];
}

const char *
store_sql(struct store_sql *q, int which)
{
	if (!q->text[which])
		q->text[which] = write_sql(q->d, which);
	return q->text[which];
}

const char *
store_sql_claim(struct store_sql *q, const struct claim_req *req, struct row *p)
{
	p->n = p->nowned = 0;
	if (req->what == CLAIM_DUE) {
		row_int(p, req->now);
		row_int(p, req->cur->due);
		row_text(p, req->cur->id);
		row_int(p, req->max);
	} else if (req->what == CLAIM_QUEUED) {
		row_int(p, req->max);
	} else if (req->what == CLAIM_OVERLAP) {
		row_int(p, req->now);
		row_int(p, req->max);
	} else {
		row_text(p, req->id);
	}
	return store_sql(q, req->what == CLAIM_DUE ? SQL_CLAIM_DUE : req->what == CLAIM_QUEUED
	    ? SQL_CLAIM_QUEUED : req->what == CLAIM_OVERLAP ? SQL_CLAIM_OVERLAP : SQL_CLAIM_ONE);
}

/* One cell as an element of an array literal. */
static void
array_elem(struct buf *b, const struct cell *c)
{
	if (c->kind == CELL_NULL) {
		buf_puts(b, "NULL");
	} else if (c->kind == CELL_INT) {
		buf_printf(b, "%lld", (long long)c->i);
	} else {
		buf_puts(b, "\"");
		for (const char *s = c->s; *s; s++) {
			if (*s == '"' || *s == '\\')
				buf_add(b, "\\", 1);
			buf_add(b, s, 1);
		}
		buf_puts(b, "\"");
	}
}

void
store_sql_arrays(const struct row *rows, size_t n, char **out)
{
	for (int col = 0; col < rows[0].n; col++) {
		struct buf b = {0};
		buf_puts(&b, "{");
		for (size_t i = 0; i < n; i++) {
			if (i)
				buf_puts(&b, ",");
			array_elem(&b, &rows[i].c[col]);
		}
		buf_puts(&b, "}");
		out[col] = b.data;
	}
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

/* " AND lhs ?n" for a value, the next parameter of p. */
static void
and_int(struct buf *b, struct row *p, const char *lhs, int64_t v)
{
	row_int(p, v);
	buf_printf(b, " AND %s ?%d", lhs, p->n);
}

static void
and_text(struct buf *b, struct row *p, const char *lhs, const char *v)
{
	row_text(p, v);
	buf_printf(b, " AND %s ?%d", lhs, p->n);
}

/* Has a text a trigram, three characters or more? */
static int
text_has_trigram(const char *text)
{
	size_t chars = 0;
	for (const unsigned char *c = (const unsigned char *)text; *c && chars < 3; c++)
		chars += (*c & 0xC0) != 0x80;
	return chars >= 3;
}

char *
store_sql_text_phrase(const char *text)
{
	if (!text_has_trigram(text))
		return NULL;
	struct buf b = {0};
	buf_puts(&b, "\"");
	for (const char *c = text; *c; c++)
		buf_puts(&b, *c == '"' ? "\"\"" : (char[]){*c, 0});
	buf_puts(&b, "\"");
	return b.data;
}

char *
store_sql_task_list(const struct sql_dialect *d, const struct task_filter *f, int count,
    struct row *p)
{
	return store_sql_task_list_text(d, f, count, SQL_TEXT_SCAN, NULL, p);
}

char *
store_sql_task_list_text(const struct sql_dialect *d, const struct task_filter *f, int count,
    int text_how, const char *keys, struct row *p)
{
	struct buf b = {0};
	p->n = p->nowned = 0;
	if (count)
		buf_puts(&b, "SELECT count(*)");
	else
		sql_select_list(&b, &task_fields, 0);
	/* A text is looked for in every row: the table read in its own order
	 * (then the few found sorted) costs less than in next-run order. */
	buf_printf(&b, " FROM tasks%s WHERE %s", f->text && text_how == SQL_TEXT_SCAN ? d->scan : "",
	    f->trashed < 0 ? "true" : f->trashed ? "deleted_at IS NOT NULL" : "deleted_at IS NULL");
	if (f->text && text_how == SQL_TEXT_INDEX) {
		/* The index's candidates, checked below as any text is. */
		and_text(&b, p, "id IN (SELECT id FROM task_text_keys WHERE n IN"
		    " (SELECT value FROM json_each(", keys);
		buf_puts(&b, ")))");
	}
	if (f->text) {
		struct buf pat = {0};
		buf_puts(&pat, "%");
		for (const char *c = f->text; *c; c++) {
			if (*c == '%' || *c == '_' || *c == '\\')
				buf_add(&pat, "\\", 1);
			buf_add(&pat, c, 1);
		}
		buf_puts(&pat, "%");
		row_text(p, pat.data);
		p->owned[p->nowned++] = pat.data;
		buf_printf(&b, " AND (name %s ?%d ESCAPE '\\' OR prompt %s ?%d ESCAPE '\\')", d->like, p->n,
		    d->like, p->n);
		/* The few candidates from the text's own table (its index is
		 * written when a name or prompt is, not at every claim). */
		if (d->text_table && text_how != SQL_TEXT_WALK && text_has_trigram(f->text))
			buf_printf(&b, " AND id IN (SELECT id FROM %s WHERE name %s ?%d ESCAPE '\\'"
			    " OR prompt %s ?%d ESCAPE '\\')", d->text_table, d->like, p->n, d->like, p->n);
	}
	if (f->paused) {
		/* Paused is a state people ask for beside the statuses: either. */
		struct buf in = {0};
		if (f->statuses)
			names_in(&in, "status", f->statuses, STATUS_COUNT, task_status_name);
		buf_printf(&b, " AND (paused IS NOT NULL%s%s)", in.len ? " OR " : "",
		    in.len ? in.data + strlen(" AND ") : "");
		buf_free(&in);
	} else if (f->statuses) {
		/* Most tasks are pending: with it in the set, walk the next-run
		 * order; without it, the status index (which leaves pending out,
		 * hence the term that lets the planner use it). */
		buf_puts(&b, f->statuses & (1u << STATUS_PENDING) ? "" : " AND status <> 'pending'");
		names_in(&b, "status", f->statuses, STATUS_COUNT, task_status_name);
	}
	if (f->kinds)
		names_in(&b, "kind", f->kinds, KIND_COUNT, task_kind_name);
	if (f->channel)
		and_text(&b, p, "channel =", f->channel);
	if (f->intent)
		and_text(&b, p, "intent =", f->intent);
	if (f->scope)
		and_text(&b, p, "scope =", f->scope);
	/* The origin index holds agents' tasks only: the term that says so. */
	if (f->origin)
		and_text(&b, p, "origin =", f->origin);
	if (f->origin && strcmp(f->origin, "user") != 0)
		buf_puts(&b, " AND origin <> 'user'");
	if (f->agent_made)
		buf_puts(&b, " AND substr(origin, 1, 6) = 'agent:' AND origin <> 'user'");
	if (f->name)
		and_text(&b, p, "name =", f->name);
	if (f->last)
		names_in(&b, "last_status", f->last, RUN_STATUS_COUNT, run_status_name);
	/* A literal, so the partial indexes that say "enabled = 1" apply. */
	if (f->enabled >= 0)
		buf_puts(&b, f->enabled ? " AND enabled = 1" : " AND enabled = 0");
	/* On the ordering index's expression, so a window is a range scan of
	 * it; a task without a next run sorts last and never matches. */
	char lhs[96];
	if (f->due_within >= 0) {
		/* A run asked for (task-run --queue) is due at the next pass.  Two
		 * index scans joined, as an OR in one scan would read every task. */
		row_int(p, f->now + f->due_within);
		buf_printf(&b, " AND id IN (SELECT id FROM tasks WHERE %s <= ?%d AND deleted_at IS NULL"
		    " UNION ALL SELECT id FROM tasks WHERE queued != 0 AND deleted_at IS NULL)",
		    d->order_key, p->n);
	}
	if (f->due_after >= 0) {
		snprintf(lhs, sizeof lhs, "%s >=", d->order_key);
		and_int(&b, p, lhs, f->now + f->due_after);
		buf_puts(&b, " AND next_run_at IS NOT NULL");
	}
	if (!count && f->trashed > 0)
		buf_puts(&b, " ORDER BY deleted_at DESC, id");
	else if (!count)
		buf_printf(&b, " ORDER BY %s, %s", d->order_key, d->seq);
	if (!count && f->limit > 0)
		buf_printf(&b, " LIMIT %ld", f->limit);
	return sql_in_dialect(&b, d);
}

char *
store_sql_run_list(const struct sql_dialect *d, const struct run_filter *f, struct row *p)
{
	struct buf b = {0};
	p->n = p->nowned = 0;
	sql_select_list(&b, &run_fields, f->with_output);
	buf_puts(&b, " FROM runs WHERE true");
	if (f->task_id && f->status == RUN_RUNNING) {
		/* A task's run in flight: the one its row names, not a walk of
		 * its history (no index of runs says which are running). */
		and_text(&b, p, "runs.status = 'running' AND runs.id = (SELECT run_in_flight FROM tasks"
		    " WHERE tasks.id =", f->task_id);
		buf_puts(&b, ")");
	} else {
		if (f->task_id)
			and_text(&b, p, "task_id =", f->task_id);
		if (f->status == RUN_RUNNING)
			buf_puts(&b, " AND " STORE_SQL_IN_FLIGHT);
		else if (f->status >= 0)
			and_text(&b, p, "status =", run_status_name(f->status));
	}
	if (f->gate_skips)
		buf_printf(&b, " AND runs.status = 'skipped' AND substr(runs.error, 1, %zu) = '%s'",
		    strlen(STORE_GATE_IDLE), STORE_GATE_IDLE);
	if (f->since != TIME_NONE)
		and_int(&b, p, "started_at >=", f->since);
	if (f->before) {
		/* The next page from where the last ended, a range of the index
		 * in the listing's order: never an offset counted through. */
		row_text(p, f->before);
		buf_printf(&b, " AND (started_at, %s) < (SELECT started_at, %s FROM runs WHERE id = ?%d)",
		    d->seq, d->seq, p->n);
	}
	buf_printf(&b, " ORDER BY started_at DESC, %s DESC", d->seq);
	if (f->limit > 0)
		buf_printf(&b, " LIMIT %ld", f->limit);
	return sql_in_dialect(&b, d);
}

int
store_sql_gate(int64_t all, int64_t mine, int64_t alive, int max_all, int max_model)
{
	if (!alive)
		return -1;
	return (max_all > 0 && all >= max_all) || (max_model > 0 && mine >= max_model) ? 0 : 1;
}
