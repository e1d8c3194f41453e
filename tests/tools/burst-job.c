/* burst-job: the job of the burst benchmark (tests/bench/burst.sh), the
 * same for every scheduler compared: append "NAME NANOSECONDS\n" (the
 * wall clock as it starts) to the file $BURST_LOG, then become /bin/true.
 *   burst-job [NAME]
 * NAME defaults to $TASK_NAME (what task-tick gives an executor).  The line
 * is one write to a file opened O_APPEND, so lines of jobs running at once
 * never mix.  Exits 1 when it cannot log: a job that ran must be counted. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	const char *name = argc > 1 ? argv[1] : getenv("TASK_NAME");
	const char *log = getenv("BURST_LOG");
	if (!name || !*name || !log || !*log) {
		fprintf(stderr, "burst-job: needs a NAME (or TASK_NAME) and BURST_LOG\n");
		return 2;
	}
	char line[256];
	int n = snprintf(line, sizeof line, "%s %lld%09ld\n", name, (long long)ts.tv_sec, ts.tv_nsec);
	if (n < 0 || (size_t)n >= sizeof line) {
		fprintf(stderr, "burst-job: name too long\n");
		return 2;
	}
	int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line, (size_t)n) != n || close(fd) != 0) {
		perror("burst-job: BURST_LOG");
		return 1;
	}
	execl("/bin/true", "true", (char *)NULL);
	perror("burst-job: /bin/true");
	return 1;
}
