/* store-open: open the store (TASK_DB) and close it, for benchmarks: what
 * every program pays before its first query (for PostgreSQL: connecting,
 * the session's settings, the schema check).  Exits 1 with the reason if
 * the store cannot be opened. */
#include <stdio.h>

#include "store.h"

int
main(void)
{
	struct store *st;
	struct err e;
	if (store_open(NULL, 0, &st, &e)) {
		fprintf(stderr, "store-open: %s\n", e.msg);
		return 1;
	}
	store_close(st);
	return 0;
}
