/* tz.h: IANA time zones read straight from the system's TZif files, so that
 * converting between instants and wall time in any zone needs no TZ/tzset()
 * dance and no global state. */
#ifndef AC_TZ_H
#define AC_TZ_H

#include <stdint.h>

#include "util.h"

struct tz;

/* A wall-clock time: year, month 1-12, day 1-31, hour, minute, second. */
struct civil {
	int64_t year;
	int month, day, hour, min, sec;
};

/* A span of instants [start, end) with one UTC offset; start is INT64_MIN
 * before the first transition, end INT64_MAX after the last.  prev_off is
 * the offset just before start: prev_off < off is a spring-forward gap of
 * wall times [start + prev_off, start + off), prev_off > off a fall-back
 * that repeats the wall times [start + off, start + prev_off). */
struct tz_segment {
	int64_t start, end;
	int32_t off, prev_off;
};

/* tz.c */
int tz_load(const char *name, struct tz **out, struct err *e); /* NULL or "" = local zone; unknown: ST_INVALID */
void tz_free(struct tz *z);
const char *tz_name(const struct tz *z);                       /* IANA name, e.g. "Europe/London" */
const char *tz_local_name(char *buf, size_t n);                /* the machine's zone: TZ, /etc/localtime, else "UTC" */
int tz_valid_name(const char *name);                           /* 1 if it names a zone file */
int32_t tz_offset(const struct tz *z, int64_t t);              /* UTC offset in seconds at instant t */
const char *tz_abbr(const struct tz *z, int64_t t);            /* "EST", "BST", ... */
void tz_to_civil(const struct tz *z, int64_t t, struct civil *out);
/* The instants whose wall time in z is `wall`: returns 0 (in a spring-forward
 * gap), 1, or 2 (repeated by a fall-back; out[0] < out[1]). */
int tz_from_civil(const struct tz *z, const struct civil *wall, int64_t out[2]);
/* The same from local seconds (days_from_civil * 86400 + time of day). */
int tz_from_local(const struct tz *z, int64_t local, int64_t out[2]);
int64_t tz_civil_seconds(const struct civil *wall);              /* wall time as local seconds */
void tz_segment(const struct tz *z, int64_t t, struct tz_segment *s); /* the offset span around t */
void tz_fmt_local(const struct tz *z, int64_t t, char *buf, size_t n); /* "2026-11-23 07:00" */
void tz_fmt_wall(int64_t local, char *buf, size_t n);                 /* the same from local seconds */
void tz_fmt_rfc3339(const struct tz *z, int64_t t, char *buf, size_t n); /* 2026-11-23T07:00:00+01:00 */
/* An ISO 8601 date-time: RFC 3339 (an offset or Z), or naive (a date, or a
 * date and time) read in z, the first pass of a repeated hour, a time in a
 * spring-forward gap with the offset before it.  0 ok, -1 not one. */
int tz_parse_iso(const struct tz *z, const char *s, int64_t *out);

#endif
