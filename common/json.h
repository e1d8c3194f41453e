/* json.h: a task as JSON (the export/import format of task-ls --json and
 * task-add --json -), field-by-field differences, and ids on a stream. */
#ifndef AC_JSON_H
#define AC_JSON_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "task.h"
#include "util.h"

struct run;

/* json.c */
cJSON *json_time(int64_t t);                                   /* RFC 3339 UTC, or null for TIME_NONE */
cJSON *run_to_json(const struct run *r);                        /* output and error when read */
cJSON *task_to_json(const struct task *t, struct zones *zs);   /* every field; instants RFC 3339 UTC */
/* Fill an initialised t from obj.  Schedule times may be RFC 3339 or any
 * time expression read at now in the task's zone (past ones rejected unless
 * the object also carries next_run_at or a final status), with when_flags
 * (WHEN_DMY for date_order = dmy, or 0).  Unknown fields are an error, so a
 * typo never passes silently. */
int task_from_json(const cJSON *obj, struct task *t, int64_t now, struct zones *zs,
    unsigned when_flags, struct err *e);
/* Append "field: old -> new" lines for each field that differs. */
int task_diff(const struct task *a, const struct task *b, struct zones *zs, struct buf *out);
char *json_print_line(const cJSON *j);                          /* compact, malloc'd */
/* Read ids from f, one per line: a bare id or a JSON object with "id".
 * Calls fn for each, also for those after a bad line; returns ST_INVALID
 * with "stdin:N: ..." for the first bad line. */
int ids_from_stream(FILE *f, int (*fn)(const char *id, void *arg), void *arg, struct err *e);
/* Each id named in args: "-", or no args and a non-terminal stdin, reads
 * them from stdin.  ST_INVALID when no id is given at all. */
int ids_each(int argc, char **argv, int (*fn)(const char *id, void *arg), void *arg, struct err *e);

#endif
