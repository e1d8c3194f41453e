/* util.h: status codes, error messages, time and string helpers shared by
 * every part of agentcron.  Library code never prints or exits: it returns
 * one of the ST_* codes and leaves a one-line message in a struct err. */
#ifndef AC_UTIL_H
#define AC_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Status codes double as the programs' exit statuses (DESIGN.md). */
enum {
	ST_OK = 0,       /* success */
	ST_ERR = 1,      /* operational error: store, I/O, network */
	ST_INVALID = 2,  /* usage or invalid input */
	ST_NOTFOUND = 3, /* no such task */
	ST_REFUSED = 4,  /* refused by state: running, ambiguous, not pending */
};

#define AC_VERSION "0.1.0"

#define ERR_MAX 512
struct err {
	char msg[ERR_MAX];
};

/* err.c */
/* Fill e with one line of valid UTF-8, whatever it quotes (control
 * characters blanked, bytes that are not UTF-8 as U+FFFD, never cut inside
 * a character), and return status. */
int err_set(struct err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* util.c */
void *xmalloc(size_t n);                        /* abort() on exhaustion */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);                   /* NULL stays NULL */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void set_str(char **dst, const char *src);      /* free *dst, copy src */
int str_empty(const char *s);                   /* NULL or only blanks */
char *str_trim(char *s);                        /* in place, returns s */
int str_casecmp_prefix(const char *s, const char *prefix);
/* The comma-separated words of list, blanks around them dropped: *n of
 * them, NULL-terminated; free with str_words_free. */
char **str_words(const char *list, size_t *n);
void str_words_free(char **v, size_t n);

/* Numbers. */
int64_t floor_div(int64_t a, int64_t b);        /* a / b rounded down, for b > 0 (days of an instant) */
uint64_t str_hash(const char *s);               /* FNV-1a of a string: hash tables, fingerprints */
int cmp_int64(const void *a, const void *b);    /* qsort(3) order of int64_t */

/* A growable byte buffer, always NUL-terminated. */
struct buf {
	char *data;
	size_t len, cap;
};
void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);
void buf_wipe(struct buf *b);                   /* buf_free, its bytes cleared first: keys */
int buf_read_fd(struct buf *b, int fd, size_t max); /* read to EOF; -1 on error or past max */

/* Time: instants are int64_t seconds since the epoch, UTC. */
int now_get(int64_t *now, struct err *e);       /* now.c: TASK_NOW (RFC 3339) or the clock */
void time_fmt_utc(int64_t t, char *buf, size_t n); /* 2026-11-23T06:00:00Z */
void duration_fmt(int64_t ms, char *buf, size_t n); /* for people: 3ms, 1.2s, 2m05s; "-" if < 0 */
int time_parse_rfc3339(const char *s, int64_t *t); /* offset or Z required; 0 ok, -1 not one */
int64_t mono_ms(void);                          /* a monotonic clock (counting suspends), ms */
int64_t wall_ms(void);                          /* the system's clock (never TASK_NOW), ms */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);
int days_in_month(int64_t y, unsigned m);
int weekday_from_days(int64_t z);               /* 0 = Sunday */
int64_t year_of(int64_t t);                     /* the year of an instant (or a local time) */

/* Identifiers. */
int uuid4(char out[37]);                        /* random v4 UUID; -1 if no randomness */
int id_prefix_ok(const char *s);                /* 4+ hex digits and dashes */

/* Terminal output conventions. */
int want_color(int fd);                         /* a tty and NO_COLOR unset */

#endif
