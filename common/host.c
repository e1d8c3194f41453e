/* This host's name, as passes and the audit trail record it (host.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "host.h"

void
history_host(char *buf, size_t n)
{
	const char *forced = getenv("TASK_HOST_ID");
	if (forced && *forced)
		snprintf(buf, n, "%s", forced);
	else if (gethostname(buf, n - 1) != 0)
		snprintf(buf, n, "localhost");
	buf[n - 1] = 0;
}
