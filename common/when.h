/* when.h: time expressions, from RFC 3339 to casual English ("tomorrow at
 * 10am", "in 2 hours", "next Friday at noon", "9am Europe/Paris", "3/4 at
 * 5pm"), read in a zone at a given now.  The grammar is at the top of when.c
 * and in agentcron-schedule(5). */
#ifndef AC_WHEN_H
#define AC_WHEN_H

#include <stdint.h>

#include "tz.h"
#include "util.h"

/* How to read an expression: flags for when_read. */
enum {
	WHEN_PAST_OK = 1 << 0, /* no refusal of instants in the past (--from, replays) */
	WHEN_DMY = 1 << 1,     /* numeric dates day first: 4/3 is 4 March (date_order = dmy) */
};

/* when.c */
/* Read `text` at instant `now` in zone z (unless the text names its own
 * zone) into *out.  Anything not understood, impossible ("feb 30", "25:00"),
 * outside the years 1-9999 or, without WHEN_PAST_OK, more than 60 s before
 * now is ST_INVALID with a one-line message that quotes the input as valid
 * UTF-8 and names the zone, e.g. "'yesterday at 9' is 2026-11-21 09:00 GMT
 * in Europe/London, which is in the past". */
int when_read(const char *text, int64_t now, const struct tz *z, unsigned flags, int64_t *out,
    struct err *e);
int when_parse(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e);     /* flags 0 */
int when_parse_any(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e); /* WHEN_PAST_OK */
/* A time of day alone, in the forms time expressions take ("09:00",
 * "9am", "9:30pm", "noon", "half past 9"; a bare hour 1-7 is in the
 * afternoon), as --daily and --weekly read it.  A date, an offset, a zone
 * or seconds is ST_INVALID. */
int when_clock(const char *text, int *hour, int *minute, struct err *e);
/* The config value of date_order ("mdy", the default, or "dmy"; NULL or ""
 * is mdy) as WHEN_DMY set or cleared in *flags; ST_INVALID for any other. */
int when_date_order(const char *value, unsigned *flags, struct err *e);
/* An interval in real time ("90m", "2h30m", "1d", "90 minutes", "an hour")
 * into *secs; ST_INVALID when it is not one. */
int when_span(const char *text, int64_t *secs, struct err *e);
/* "every SPAN [from WHEN]": *secs, and *anchor the instant after "from" (read
 * as when_read does, the past allowed) or INT64_MIN (TIME_NONE).  ST_NOTFOUND when text
 * does not start with "every"; ST_INVALID when the rest is no interval. */
int when_every(const char *text, int64_t now, const struct tz *z, unsigned flags, int64_t *secs,
    int64_t *anchor, struct err *e);

#endif
