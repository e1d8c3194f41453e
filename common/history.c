/* Conversations and model-call records in the SQLite store (tables
 * messages and llm_calls, schema step 2 in store.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "history.h"
#include "store_impl.h"

int
history_load(struct store *st, const char *context, size_t max, struct history_msg **out, size_t *n,
    struct err *e)
{
	*out = NULL;
	*n = 0;
	/* The newest max rows, turned back into oldest-first below. */
	static const char q[] = "SELECT role, content, run_id, created_at FROM messages"
	    " WHERE context = ?1 ORDER BY id DESC LIMIT ?2";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, context);
	sqlite3_bind_int64(s, 2, max ? (sqlite3_int64)max : -1);
	struct history_msg *m = NULL;
	size_t len = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (len == cap) {
			cap = cap ? 2 * cap : 16;
			m = xrealloc(m, cap * sizeof *m);
		}
		m[len].role = col_text(s, 0);
		m[len].content = col_text(s, 1);
		m[len].run_id = col_text(s, 2);
		m[len].created_at = col_time(s, 3);
		len++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		history_free(m, len);
		return store_sqlerr(st, e, "reading a conversation");
	}
	for (size_t i = 0; i < len / 2; i++) {
		struct history_msg t = m[i];
		m[i] = m[len - 1 - i];
		m[len - 1 - i] = t;
	}
	/* A window cut in mid-exchange starts at its first user message:
	 * providers want the user to speak first. */
	size_t skip = 0;
	while (skip < len && (!m[skip].role || strcmp(m[skip].role, "user") != 0))
		skip++;
	for (size_t i = 0; i < skip; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	if (skip)
		memmove(m, m + skip, (len - skip) * sizeof *m);
	len -= skip;
	if (!len) {
		free(m);
		m = NULL;
	}
	*out = m;
	*n = len;
	return ST_OK;
}

void
history_free(struct history_msg *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	free(m);
}

static int
add_message(struct store *st, const char *context, const char *role, const char *content,
    const char *run_id, int64_t now, struct err *e)
{
	static const char q[] = "INSERT INTO messages (context, role, content, run_id, created_at)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, context);
	stmt_text(s, 2, role);
	stmt_text(s, 3, content);
	stmt_text(s, 4, run_id);
	sqlite3_bind_int64(s, 5, now);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "saving a conversation");
}

int
history_append(struct store *st, const char *context, const char *prompt, const char *answer,
    const char *run_id, int64_t now, struct err *e)
{
	/* Inside the caller's transaction when there is one. */
	int own = sqlite3_get_autocommit(store_db(st));
	int rc;
	if (own && (rc = store_begin(st, e)))
		return rc;
	rc = add_message(st, context, "user", prompt, run_id, now, e);
	if (!rc)
		rc = add_message(st, context, "assistant", answer, run_id, now, e);
	if (own) {
		if (!rc)
			rc = store_commit(st, e);
		if (rc)
			store_rollback(st);
	}
	return rc;
}

int
history_clear(struct store *st, const char *context, long *n, struct err *e)
{
	static const char q[] = "DELETE FROM messages WHERE context = ?1";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, context);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "clearing a conversation");
	if (n)
		*n = sqlite3_changes(store_db(st));
	return ST_OK;
}

static void
bind_count(sqlite3_stmt *s, int i, long v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

int
history_record(struct store *st, struct llm_call *c, struct err *e)
{
	static const char q[] = "INSERT INTO llm_calls (run_id, task_id, context, provider, model,"
	    " system_prompt, prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms,"
	    " error, created_at, tool_calls)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, c->run_id);
	stmt_text(s, 2, c->task_id);
	stmt_text(s, 3, c->context);
	stmt_text(s, 4, c->provider);
	stmt_text(s, 5, c->model);
	stmt_text(s, 6, c->system_prompt);
	stmt_text(s, 7, c->prompt);
	stmt_text(s, 8, c->answer);
	bind_count(s, 9, c->input_tokens);
	bind_count(s, 10, c->output_tokens);
	stmt_text(s, 11, c->finish_reason);
	bind_count(s, 12, c->duration_ms);
	stmt_text(s, 13, c->error);
	sqlite3_bind_int64(s, 14, c->created_at);
	stmt_text(s, 15, c->tool_calls);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, e, "recording a model call");
	c->id = sqlite3_last_insert_rowid(store_db(st));
	return ST_OK;
}

static long
col_count(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(s, i);
}

int
history_calls(struct store *st, const char *run_id, const char *task_id, long limit, llm_call_fn fn,
    void *arg, struct err *e)
{
	static const char q[] = "SELECT id, run_id, task_id, context, provider, model, system_prompt,"
	    " prompt, answer, input_tokens, output_tokens, finish_reason, duration_ms, error,"
	    " created_at, tool_calls FROM llm_calls"
	    " WHERE (?1 IS NULL OR run_id = ?1) AND (?2 IS NULL OR task_id = ?2)"
	    " ORDER BY id DESC LIMIT ?3";
	sqlite3_stmt *s = store_stmt(st, q, e);
	if (!s)
		return ST_ERR;
	stmt_text(s, 1, run_id);
	stmt_text(s, 2, run_id ? NULL : task_id);
	sqlite3_bind_int64(s, 3, limit > 0 ? limit : -1);
	int rc, stop = 0;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct llm_call c = {
			.id = sqlite3_column_int64(s, 0),
			.run_id = col_text(s, 1),
			.task_id = col_text(s, 2),
			.context = col_text(s, 3),
			.provider = col_text(s, 4),
			.model = col_text(s, 5),
			.system_prompt = col_text(s, 6),
			.prompt = col_text(s, 7),
			.answer = col_text(s, 8),
			.input_tokens = col_count(s, 9),
			.output_tokens = col_count(s, 10),
			.finish_reason = col_text(s, 11),
			.duration_ms = col_count(s, 12),
			.error = col_text(s, 13),
			.created_at = col_time(s, 14),
			.tool_calls = col_text(s, 15),
		};
		stop = fn(&c, arg);
		llm_call_free(&c);
	}
	if (stop)
		rc = SQLITE_DONE;
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? ST_OK : store_sqlerr(st, e, "reading model calls");
}

void
llm_call_free(struct llm_call *c)
{
	free(c->run_id);
	free(c->task_id);
	free(c->context);
	free(c->provider);
	free(c->model);
	free(c->system_prompt);
	free(c->prompt);
	free(c->answer);
	free(c->finish_reason);
	free(c->error);
	free(c->tool_calls);
	memset(c, 0, sizeof *c);
}

void
history_lazy_sync(struct store *st)
{
	sqlite3 *db = store_db(st);
	/* Best effort: a store that refuses keeps its stricter settings. */
	sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	/* A process that opens the store first rereads the whole log, so keep
	 * it short: once past 512 KiB, copy it into the database now; this
	 * process's own commit then starts the log over. */
	char *wal = xasprintf("%s-wal", store_path(st));
	struct stat sb;
	if (stat(wal, &sb) == 0 && sb.st_size > 512 * 1024)
		sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	free(wal);
}
