/* log_view.h: the views of task-log on standard output: JSON lines when
 * json is set, rows of a table (tb, made by the view) when on a terminal,
 * else tab-separated lines.  A view returns a status with e filled, for
 * its caller to say; the caller prints the table and says when it is
 * empty.  Every byte printed is valid UTF-8. */
#ifndef AC_LOG_VIEW_H
#define AC_LOG_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "store.h"
#include "table.h"
#include "task.h"

struct log_view {
	struct store *st;
	struct zones *zs;
	struct table *tb;        /* the rows, when terminal */
	int json, utc;
	int terminal;            /* rows go to tb, which the view makes */
	struct task task;        /* the last task looked up, a one-entry cache */
	int have_task;
	long n;                  /* the rows shown */
};

/* log_view.c */
void log_view_free(struct log_view *lv);                      /* its table and cached task */
const struct task *log_task_of(struct log_view *lv, const char *id); /* NULL if purged */
/* A time in task t's zone (UTC without one), "-" for TIME_NONE. */
void log_when(struct log_view *lv, const struct task *t, int64_t when, char *buf, size_t n);
char *log_text(const char *s);                                /* valid UTF-8, malloc'd */
/* One line of at most n bytes, malloc'd: no line breaks, no cut
 * character, "..." where it was cut. */
char *log_short_line(const char *s, size_t n);
void log_tsv_field(const char *s, int last);                  /* tab or newline after it */
void log_tokens(const struct llm_call *c, char *buf, size_t n); /* "12 in, 40 out", or "" */
cJSON *log_json_tokens(long n);                               /* null when negative */
/* "gpt-4o -> gpt-4o-2024-08-06" when another model answered; malloc'd. */
char *log_model_shown(const char *model, const char *answered);
int log_runs(struct log_view *lv, const struct run_filter *f, struct err *e);
/* --deliveries: the receipts of status (-1: any), of task_id (NULL: all). */
int log_deliveries(struct log_view *lv, int status, const char *task_id, long limit,
    struct err *e);

/* run_view.c */
/* label on a line, then s as valid UTF-8, each line indented by two spaces. */
void log_indented(const char *label, const char *s);
int log_run(struct log_view *lv, const char *id, struct err *e);  /* in full, calls included */
/* The change from from_id's answer to to_id's; without to_id, from the run
 * from_id is compared with (run_diff_base). */
int log_diff(struct log_view *lv, const char *from_id, const char *to_id, int words,
    struct err *e);

/* call_view.c */
/* The model calls at or after since of task_id (NULL: all) and of context
 * (NULL: any), newest first, at most limit (0: all). */
int log_calls(struct log_view *lv, const char *task_id, const char *context, int64_t since,
    long limit, struct err *e);
/* --usage: the calls of f summed by `by` (USAGE_BY_*), then the total. */
int log_usage(struct log_view *lv, int by, const struct run_filter *f, struct err *e);
/* After it: the runs of f their gate skipped, when there were any. */
int log_gate_skips(struct log_view *lv, const struct run_filter *f, struct err *e);

/* audit_view.c */
int log_audit(struct log_view *lv, const char *task_id, long limit, struct err *e);
/* The chain recomputed: ST_ERR naming the first entry changed or removed. */
int log_audit_verify(struct log_view *lv, int64_t now, struct err *e);

#endif
