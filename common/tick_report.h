/* tick_report.h: how task-tick reports what it fires: each finished run as
 * a JSON line (for pipes and cron) or as one line for people on a
 * terminal, and the same for what a dry run would fire.  The lines are
 * returned, malloc'd, without the newline; the caller prints them. */
#ifndef AC_TICK_REPORT_H
#define AC_TICK_REPORT_H

#include <stddef.h>

#include "fire.h"

/* tick_report.c */
/* Why a run failed, in one line: how it ended, then the first line the
 * executor wrote to standard error; "" for a success. */
void report_reason(const struct run *run, char *buf, size_t n);
char *report_json(const struct fire_report *r);
/* "2026-11-23 07:00:30 GMT  Backup  ebe8d256  schedule  failed  2ms  why"
 * (started in the local zone). */
char *report_line(const struct fire_report *r, struct zones *zs);
/* With the prompt (and system prompt) the run would send, when given. */
char *preview_json(const struct fire_preview *p, const char *prompt, const char *system);
/* "would fire  Backup  ebe8d256  schedule  2026-11-23 07:00 GMT", and the
 * prompt after it, each line indented by two spaces. */
char *preview_line(const struct fire_preview *p, struct zones *zs, const char *prompt);

#endif
