/* sql-plans.h: one of our programs, built in, run on an SQLite store, then
 * the plan SQLite makes of each statement it ran (for status-plans and
 * tick-plans, which name the program).
 * Every connection the program opens is traced (an auto-extension); once
 * it is done, each distinct statement that reads is printed on a line of its
 * own after "SQL ", followed by its EXPLAIN QUERY PLAN lines after "PLAN ",
 * read on a connection of our own.  A tool that sets seen.writes has the
 * statements that write explained too (a DELETE finds its rows as a
 * SELECT does).  The program's output goes to /dev/null; sql_plans
 * returns its status (3 if the plans cannot be read). */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SQL 256

struct seen {
	char *sql[MAX_SQL];
	int n;
	int writes;
	const char *tool;
};

static int
on_stmt(unsigned type, void *arg, void *stmt, void *x)
{
	struct seen *s = arg;
	(void)x;
	const char *sql = type == SQLITE_TRACE_STMT ? sqlite3_sql(stmt) : NULL;
	/* The reads: an upgrade's steps, say, are not for explaining after. */
	int reads = sql && (strncmp(sql, "SELECT", 6) == 0 || strncmp(sql, "WITH", 4) == 0);
	int writes = sql && s->writes && (strncmp(sql, "INSERT", 6) == 0 ||
	    strncmp(sql, "UPDATE", 6) == 0 || strncmp(sql, "DELETE", 6) == 0);
	if (!reads && !writes)
		return 0;
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->sql[i], sql) == 0)
			return 0;
	if (s->n < MAX_SQL)
		s->sql[s->n++] = xstrdup(sql);
	return 0;
}

/* The auto-extension has no argument of its own to carry this. */
static struct seen seen;

static int
trace_connection(sqlite3 *db, char **err, const struct sqlite3_api_routines *api)
{
	(void)err;
	(void)api;
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_stmt, &seen);
	return SQLITE_OK;
}

static int
print_plans(const char *path)
{
	sqlite3 *db;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", seen.tool, sqlite3_errmsg(db));
		sqlite3_close(db);
		return 3;
	}
	int rc = 0;
	for (int i = 0; i < seen.n && !rc; i++) {
		char *q = xasprintf("EXPLAIN QUERY PLAN %s", seen.sql[i]);
		sqlite3_stmt *s;
		printf("SQL %s\n", seen.sql[i]);
		if (sqlite3_prepare_v2(db, q, -1, &s, NULL) != SQLITE_OK) {
			fprintf(stderr, "%s: %s: %s\n", seen.tool, seen.sql[i], sqlite3_errmsg(db));
			rc = 3;
		} else {
			while (sqlite3_step(s) == SQLITE_ROW)
				printf("PLAN %s\n", (const char *)sqlite3_column_text(s, 3));
			sqlite3_finalize(s);
		}
		free(q);
	}
	sqlite3_close(db);
	return rc;
}

static int
sql_plans(const char *tool, int (*program_main)(int, char **), int argc, char **argv)
{
	seen.tool = tool;
	const char *path = getenv("TASK_DB");
	if (!path || !*path) {
		fprintf(stderr, "%s: TASK_DB names no store\n", tool);
		return 3;
	}
	if (sqlite3_auto_extension((void (*)(void))trace_connection) != SQLITE_OK)
		return 3;
	/* The program writes to /dev/null; the plans to our standard output. */
	int saved = dup(1), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, 1) < 0)
		return 3;
	close(null);
	int rc = program_main(argc, argv);
	fflush(stdout);
	if (dup2(saved, 1) < 0)
		return 3;
	close(saved);
	int prc = print_plans(path);
	for (int i = 0; i < seen.n; i++)
		free(seen.sql[i]);
	return prc ? prc : rc;
}
