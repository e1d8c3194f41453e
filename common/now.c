/* now.c: now_get (util.h), apart from util.c: its errors go through
 * err.c, which stands on utf8.c, which stands on util.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

int
now_get(int64_t *now, struct err *e)
{
	const char *env = getenv("TASK_NOW");
	if (env && *env) {
		if (time_parse_rfc3339(env, now) != 0)
			return err_set(e, ST_INVALID,
			    "TASK_NOW '%s' is not an RFC 3339 time (e.g. 2026-11-23T06:00:00Z)", env);
		return ST_OK;
	}
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return err_set(e, ST_ERR, "cannot read the clock: %s", strerror(errno));
	*now = ts.tv_sec;
	return ST_OK;
}
