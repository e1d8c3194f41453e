/* tick-reads: task-tick itself (cmd/task-tick.c, built in) on an SQLite
 * store, then how many times it ran the statements that hold a text.
 *   tick-reads TEXT [TASK-TICK OPTION...]
 * Every connection the program opens is traced (an auto-extension); the
 * count goes to stderr as "tick-reads: N" once task-tick is done.  Exits
 * with task-tick's status. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#define main task_tick_main
#include "../../cmd/task-tick.c"
#undef main

struct counted {
	const char *text;
	long n;
};

static struct counted counted;

static int
on_stmt(unsigned type, void *arg, void *stmt, void *x)
{
	struct counted *c = arg;
	(void)x;
	const char *sql = type == SQLITE_TRACE_STMT ? sqlite3_sql(stmt) : NULL;
	if (sql && strstr(sql, c->text))
		c->n++;
	return 0;
}

static int
trace_connection(sqlite3 *db, char **err, const struct sqlite3_api_routines *api)
{
	(void)err;
	(void)api;
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_stmt, &counted);
	return SQLITE_OK;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: tick-reads TEXT [TASK-TICK OPTION...]\n");
		return 2;
	}
	counted.text = argv[1];
	if (sqlite3_auto_extension((void (*)(void))trace_connection) != SQLITE_OK) {
		fprintf(stderr, "tick-reads: cannot trace\n");
		return 3;
	}
	argv[1] = argv[0];
	int rc = task_tick_main(argc - 1, argv + 1);
	fprintf(stderr, "tick-reads: %ld\n", counted.n);
	return rc;
}
