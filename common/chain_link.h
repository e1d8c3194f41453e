/* chain_link.h: one link of a chain (task-add --after TASK[:ON]) and the
 * stored `after` list, a JSON array of "ID:ON" strings, ON one of
 * success, failure, any: values and their parsers, below the store that
 * keeps them and the chain code that resolves and fires them (chain.h). */
#ifndef AC_CHAIN_LINK_H
#define AC_CHAIN_LINK_H

#include <stddef.h>

#include "util.h"

enum chain_on { CHAIN_SUCCESS, CHAIN_FAILURE, CHAIN_ANY, CHAIN_ON_COUNT };

#define CHAIN_MAX 32              /* upstream tasks of one task, at most */

struct chain_link {
	char ref[256];                /* a task's id (stored) or what the user wrote */
	int on;                       /* CHAIN_* */
};

/* chain_link.c */
const char *chain_on_name(int on);              /* "success", "failure", "any" */
/* "REF" or "REF:success|failure|any" (a name may hold ':'): ST_INVALID
 * with a message naming the bad word. */
int chain_link_parse(const char *spec, struct chain_link *l, struct err *e);
/* The links of a stored or given `after` list (a JSON array of strings);
 * *n = 0 for NULL.  ST_INVALID when it is not such a list. */
int chain_links(const char *after, struct chain_link *out, size_t max, size_t *n, struct err *e);

#endif
