/* Unit tests for idset.c: 100,000 ids (a burst due at once) added, found,
 * refused twice, absent ones not found, cut back to their first part and
 * cleared, against the plain list of what was added. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idset.h"
#include "tap.h"
#include "util.h"

#define N 100000

static void
id_of(long i, char id[37])
{
	/* uuid-shaped, as task ids are, but known: absent ones are n + i */
	snprintf(id, 37, "%08lx-%04lx-4000-8000-%012lx", (unsigned long)(i * 2654435761u) & 0xffffffff,
	    (unsigned long)i & 0xffff, (unsigned long)i);
}

static long
count_found(const struct idset *s, long from, long to)
{
	long n = 0;
	char id[37];
	for (long i = from; i < to; i++) {
		id_of(i, id);
		n += idset_has(s, id);
	}
	return n;
}

int
main(void)
{
	struct idset s;
	char id[37];
	idset_init(&s);
	check_int(count_found(&s, 0, 10), 0, "empty: nothing found");
	for (long i = 0; i < N; i++) {
		id_of(i, id);
		idset_add(&s, id);
	}
	check_int(s.n, N, "100000 added");
	check_int(count_found(&s, 0, N), N, "every one found");
	check_int(count_found(&s, N, 2 * N), 0, "none of 100000 others found");
	for (long i = 0; i < N; i += 7) {
		id_of(i, id);
		idset_add(&s, id);
	}
	check_int(s.n, N, "adding again adds nothing");
	long order = 0;
	for (long i = 0; i < N; i++) {
		id_of(i, id);
		order += strcmp(s.ids[i], id) == 0;
	}
	check_int(order, N, "kept in the order added");
	idset_truncate(&s, N / 2);
	check_int(s.n, N / 2, "cut to the first half");
	check_int(count_found(&s, 0, N / 2), N / 2, "the first half still found");
	check_int(count_found(&s, N / 2, N), 0, "the second half gone");
	id_of(N - 1, id);
	idset_add(&s, id);
	check(idset_has(&s, id) && s.n == N / 2 + 1, "one of the cut ones added back");
	idset_clear(&s);
	check_int(s.n, 0, "cleared");
	check_int(count_found(&s, 0, N), 0, "nothing found once cleared");
	id_of(3, id);
	idset_add(&s, id);
	check(idset_has(&s, id) && s.n == 1, "added after clearing");
	idset_free(&s);
	return tap_done();
}
