/* Notify policies as written and read (notify_on.h): the events' names,
 * a --notify-on list into a mask and back. */
#include <stdio.h>
#include <string.h>

#include "notify_on.h"

static const char *const names[EV_COUNT] = {"failure", "recovery", "change", "success", "budget",
	"paused", "fallback"};

const char *
notify_event_name(int ev)
{
	return ev >= 0 && ev < EV_COUNT ? names[ev] : "?";
}

int
notify_on_parse(const char *list, unsigned *mask, struct err *e)
{
	size_t n;
	char **w = str_words(list ? list : "", &n);
	int rc = ST_OK;
	*mask = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int ev = -1;
		for (int k = 0; k <= EV_SUCCESS; k++)
			if (strcmp(w[i], names[k]) == 0)
				ev = k;
		if (ev >= 0)
			*mask |= 1u << ev;
		else if (strcmp(w[i], "always") == 0)
			*mask |= NOTIFY_ALWAYS;
		else if (strcmp(w[i], "never") != 0)
			rc = err_set(e, ST_INVALID, "bad notify event '%.40s': expected a list of failure,"
			    " recovery, change, success, always, never", w[i]);
	}
	if (!rc && !n)
		rc = err_set(e, ST_INVALID, "no notify events: give failure, recovery, change, success,"
		    " always or never");
	str_words_free(w, n);
	return rc;
}

void
notify_on_fmt(unsigned mask, char *buf, size_t n)
{
	if (mask == NOTIFY_ALWAYS) {
		snprintf(buf, n, "always");
		return;
	}
	buf[0] = 0;
	for (int ev = EV_FAILURE; ev <= EV_SUCCESS; ev++)
		if (mask & (1u << ev))
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? "," : "", names[ev]);
	if (!buf[0])
		snprintf(buf, n, "never");
}
