/* task_json.h: tasks and runs as JSON, the export/import format of task-ls
 * --json and task-add --json -, field-by-field differences, and the one
 * printer of JSON lines, whose output is always valid UTF-8. */
#ifndef AC_TASK_JSON_H
#define AC_TASK_JSON_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "task.h"
#include "util.h"

struct run;

/* task_json.c */
cJSON *json_time(int64_t t);                                   /* RFC 3339 UTC, or null for TIME_NONE */
/* Compact, malloc'd; bytes of its strings that are not UTF-8 are printed
 * as U+FFFD, so every line is valid JSON for any parser. */
char *json_print_line(const cJSON *j);
/* The offset in s[0..n) of the first \u0000 inside a JSON string (which
 * cJSON would cut the string at), or -1 when there is none. */
ssize_t json_find_nul(const char *s, size_t n);
/* Each \u0000 in the strings of JSON text s[0..n) made \uFFFD, in place;
 * how many there were. */
size_t json_mask_nul(char *s, size_t n);
/* Where j holds a key or a string that is not UTF-8: the key of j's member
 * that holds it ("" when j is that string), or NULL when all is text. */
const char *json_utf8_bad(const cJSON *j);
cJSON *run_to_json(const struct run *r);                        /* output and error when read */
int run_from_json(const cJSON *obj, struct run *r, struct err *e); /* the inverse; r uninitialised */
cJSON *task_to_json(const struct task *t, struct zones *zs);   /* every field; instants RFC 3339 UTC */
/* Fill an initialised t from obj.  Schedule times may be RFC 3339 or any
 * time expression read at now in the task's zone (past ones rejected unless
 * the object also carries next_run_at or a final status), with when_flags
 * (WHEN_DMY for date_order = dmy, or 0).  Unknown fields are an error, so a
 * typo never passes silently; so is a command line (exec, notify) that
 * cannot be split into words. */
int task_from_json(const cJSON *obj, struct task *t, int64_t now, struct zones *zs,
    unsigned when_flags, struct err *e);
/* Append "field: old -> new" lines for each field that differs. */
int task_diff(const struct task *a, const struct task *b, struct zones *zs, struct buf *out);

#endif
