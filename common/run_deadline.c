/* run_deadline.c: when the run an executor runs in will be ended
 * (run_deadline.h), from what task-tick puts in its environment. */
#include <errno.h>
#include <stdlib.h>

#include "run_deadline.h"
#include "util.h"

/* TASK_DEADLINE: Unix seconds, to the millisecond. */
static int
end_ms(int64_t *ms)
{
	const char *v = getenv("TASK_DEADLINE");
	char *end;
	if (!v || !*v)
		return 0;
	errno = 0;
	double t = strtod(v, &end);
	if (errno || *end || !(t > 0) || t > 1e12)
		return 0;
	*ms = (int64_t)(t * 1000);
	return 1;
}

int
run_deadline(double *seconds, int64_t *left_ms)
{
	const char *tt = getenv("TASK_TIMEOUT");
	long run = tt ? strtol(tt, NULL, 10) : 0;
	if (run <= 0)
		return 0;
	long margin = run / 20 < 1 ? 1 : run / 20 > 30 ? 30 : run / 20;
	*seconds = (double)(run > margin ? run - margin : run);
	*left_ms = -1;
	int64_t end;
	if (run > margin && end_ms(&end)) {
		*left_ms = end - margin * 1000 - wall_ms();
		if (*left_ms < 1)
			*left_ms = 1;
	}
	return 1;
}
