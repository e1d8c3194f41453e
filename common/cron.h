/* cron.h: five-field cron expressions with Vixie/cronie semantics, and the
 * search for the next firing instant in a time zone under cronie's DST rules. */
#ifndef AC_CRON_H
#define AC_CRON_H

#include <stdint.h>

#include "tz.h"
#include "util.h"

enum {
	CRON_DOM_STAR = 1 << 0,  /* day-of-month field starts with '*' */
	CRON_DOW_STAR = 1 << 1,  /* day-of-week field starts with '*' */
	CRON_MIN_STAR = 1 << 2,  /* minute field starts with '*' */
	CRON_HOUR_STAR = 1 << 3, /* hour field starts with '*' */
};

struct cron {
	uint64_t min;   /* bit n: minute n, 0-59 */
	uint32_t hour;  /* bit n: hour n, 0-23 */
	uint32_t dom;   /* bit n: day n, 1-31 */
	uint16_t mon;   /* bit n: month n, 1-12 */
	uint8_t dow;    /* bit n: weekday n, 0-6, 0 = Sunday (7 folds to 0) */
	int flags;      /* CRON_* */
};

/* cron.c */
/* Parse; on error ST_INVALID with a message naming the bad field and why,
 * e.g. "bad hour field '25': 25 is out of range 0-23".  An expression that
 * can never fire ("0 0 30 2 *") is an error too. */
int cron_parse(const char *expr, struct cron *c, struct err *e);
/* The first firing instant strictly after `after`, or -1 if none. */
int64_t cron_next(const struct cron *c, const struct tz *z, int64_t after);
/* "Daily at 07:00", "Every Mon, Tue, Wed at 14:00", ... falling back to
 * the raw expression; writes at most n bytes. */
void cron_describe(const char *expr, const struct cron *c, char *buf, size_t n);

/* Several expressions, one schedule firing at the union of their instants
 * (each instant once), written as one text "EXPR; EXPR": ';' is no cron
 * character. */
#define CRON_LIST_MAX 16
struct cron_list {
	struct cron c[CRON_LIST_MAX];
	int n;
};
/* Parse each; an error names which expression of how many was bad. */
int cron_list_parse(const char *text, struct cron_list *l, struct err *e);
int64_t cron_list_next(const struct cron_list *l, const struct tz *z, int64_t after); /* -1: none */
int cron_list_count(const char *text);          /* how many expressions text holds */
/* The text of exprs[0..n) (each may hold several): blanks trimmed, repeats
 * dropped, joined by "; ".  Free it. */
char *cron_list_text(const char *const *exprs, size_t n);
/* "Daily at 07:00 and every Sat at 10:00". */
void cron_list_describe(const char *text, const struct cron_list *l, char *buf, size_t n);
/* A fixed interval: "Every 90 minutes", "Every day", "Every 36 hours". */
void cron_describe_every(int64_t secs, char *buf, size_t n);

#endif
