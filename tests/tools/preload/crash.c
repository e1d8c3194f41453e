/* crash.so: task-tick killed (SIGKILL, as kill -9) at one of its commits,
 * for LD_PRELOAD, so a test can crash it in the middle of a batch: runs
 * claimed and not started, runs ended and not recorded.
 *   CRASH_AT=N      the Nth commit of the process (from 1)
 *   CRASH_WHEN=before|after  (default after)
 * On SQLite a commit is an fdatasync of a file whose name ends in "-wal"
 * (before: the frames are written, not synced; a crash of the process
 * still leaves them for the next opener).  On PostgreSQL it is a COMMIT
 * sent to the server (libpq's send): before, the server rolls the
 * transaction back when the connection drops; after, it commits and the
 * process never hears of it.  Only a process named task-tick is killed;
 * its executors inherit the variables and are left alone.
 *   CRASH_SIGNAL=STOP  stop it there instead (SIGSTOP: a frozen host; with
 *                      "before", frozen inside its transaction)
 *   CRASH_SIGNAL=CUT   on PostgreSQL, the connection cut there instead and the
 *                      process left running: a commit whose outcome it
 *                      cannot know (with "after", made; "before", not)
 *   CRASH_SIGNAL=LOSE  as CUT, but with "after" the server's answer to the
 *                      COMMIT is read and thrown away first: as it stands a
 *                      cut leaves that answer readable, so libpq still hears
 *                      "committed"; here it hears only the connection end */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

extern char *program_invocation_short_name;

static int
armed(void)
{
	return getenv("CRASH_AT") && strcmp(program_invocation_short_name, "task-tick") == 0;
}

static int
before(void)
{
	const char *w = getenv("CRASH_WHEN");
	return w && strcmp(w, "before") == 0;
}

static int
lose(void)
{
	const char *s = getenv("CRASH_SIGNAL");
	return s && strcmp(s, "LOSE") == 0;
}

static int
cut(void)
{
	const char *s = getenv("CRASH_SIGNAL");
	return (s && strcmp(s, "CUT") == 0) || lose();
}

static int
crash_signal(void)
{
	const char *s = getenv("CRASH_SIGNAL");
	return s && strcmp(s, "STOP") == 0 ? SIGSTOP : SIGKILL;
}

/* Count one commit; 1 when it is the one to crash at. */
static int
this_one(void)
{
	static long n;
	return ++n == strtol(getenv("CRASH_AT"), NULL, 10);
}

static int
is_wal(int fd)
{
	char link[64], path[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t k = readlink(link, path, sizeof path - 1);
	if (k < 4)
		return 0;
	path[k] = 0;
	return strcmp(path + k - 4, "-wal") == 0;
}

int
fdatasync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	int hit = armed() && is_wal(fd) && this_one();
	if (hit && before())
		raise(crash_signal());
	int rc = real(fd);
	if (hit && !before())
		raise(crash_signal());
	return rc;
}

ssize_t
send(int fd, const void *buf, size_t len, int flags)
{
	ssize_t (*real)(int, const void *, size_t, int) =
	    (ssize_t (*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
	int hit = armed() && memmem(buf, len, "COMMIT", 7) && this_one();
	if (hit && before()) {
		if (!cut())
			raise(crash_signal());
		/* Never sent: the server rolls the transaction back. */
		shutdown(fd, SHUT_RDWR);
		fputs("crash.so: connection cut before its COMMIT was sent\n", stderr);
		errno = ECONNRESET;
		return -1;
	}
	ssize_t rc = real(fd, buf, len, flags);
	if (hit && !before()) {
		/* Once the server has it: wait for its answer, unread. */
		struct pollfd p = {.fd = fd, .events = POLLIN};
		poll(&p, 1, 10000);
		if (cut()) {
			char drop[4096];
			while (lose() && recv(fd, drop, sizeof drop, MSG_DONTWAIT) > 0)
				;
			shutdown(fd, SHUT_RDWR);
			fputs("crash.so: connection cut after its COMMIT was sent\n", stderr);
		} else
			raise(crash_signal());
	}
	return rc;
}
