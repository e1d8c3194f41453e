/* ids.h: the ids a command acts on, from its arguments or from standard
 * input, so listings pipe into actions (`task-ls --status failed | task-run -`). */
#ifndef AC_IDS_H
#define AC_IDS_H

#include <stdio.h>

#include "util.h"

/* ids.c */
/* Read task ids from f, one per line: a bare id, the first field of a
 * tab-separated line (task-log's lines: their task id, the third), or a
 * JSON object with "task_id" (a run's) or "id".  Calls fn once for each
 * id however many lines name it, also
 * for those after a bad line; returns ST_INVALID with "stdin:N: ..." for
 * the first bad line. */
int ids_from_stream(FILE *f, int (*fn)(const char *id, void *arg), void *arg, struct err *e);
/* Each id named in args: "-", or no args and a non-terminal stdin, reads
 * them from stdin.  ST_INVALID when no id is given at all. */
int ids_each(int argc, char **argv, int (*fn)(const char *id, void *arg), void *arg, struct err *e);
/* The same, where a JSON line with a "payload" that is not null (and
 * perhaps "key", a string), and no "kind" (a task's own JSON), is an
 * event of its task: ev gets the payload's text (a string's
 * own, else the JSON) for each such line, none skipped as seen. */
typedef void (*ids_event_fn)(const char *id, const char *payload, const char *key, long lineno,
    void *arg);
int ids_each_ev(int argc, char **argv, int (*fn)(const char *id, void *arg), ids_event_fn ev,
    void *arg, struct err *e);

#endif
