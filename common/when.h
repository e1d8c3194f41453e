/* when.h: time expressions, from RFC 3339 to casual English ("tomorrow at
 * 10am", "in 2 hours", "next Friday at noon"), read in a zone at a given now. */
#ifndef AC_WHEN_H
#define AC_WHEN_H

#include <stdint.h>

#include "tz.h"
#include "util.h"

/* when.c */
/* Parse `text` read at instant `now` in zone z into *out.  Anything not
 * understood, impossible ("feb 30", "25:00") or more than 60 s before now is
 * ST_INVALID with a message that quotes the input and names the zone, e.g.
 * "'yesterday at 9' is 2026-11-21 09:00 in Europe/London, which is in the past". */
int when_parse(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e);
/* The same without the past check (for --from and replays). */
int when_parse_any(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e);

#endif
