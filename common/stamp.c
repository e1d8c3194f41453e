/* Stamp files: one line, the day (2026-11-27), written whole (a temporary
 * file renamed over it) in a 0700 directory, 0600 whatever the umask. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stamp.h"
#include "util.h"

int
state_path(const char *name, int make_dir, char *path, size_t n)
{
	char dir[PATH_MAX], host[256] = "";
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && state[0] == '/')
		snprintf(dir, sizeof dir, "%s/agentcron", state);
	else if (home && *home)
		snprintf(dir, sizeof dir, "%s/.local/state/agentcron", home);
	else
		return -1;
	const char *forced = getenv("TASK_HOST_ID");
	if (forced && *forced)
		snprintf(host, sizeof host, "%s", forced);
	else if (gethostname(host, sizeof host - 1) != 0)
		snprintf(host, sizeof host, "localhost");
	for (char *p = host; *p; p++)
		if (*p == '/')
			*p = '_';
	if (make_dir) {
		for (char *p = dir + 1;; p++) {
			if (*p != '/' && *p)
				continue;
			char c = *p;
			*p = 0;
			if (mkdir(dir, 0700) != 0 && errno != EEXIST)
				return -1;
			*p = c;
			if (!c)
				break;
		}
	}
	int len = snprintf(path, n, "%s/%s-%s", dir, name, host);
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* The stamp's path (its directory made when make_dir); -1 if none. */
static int
stamp_path(const char *name, int make_dir, char *path, size_t n)
{
	char file[128];
	int len = snprintf(file, sizeof file, "said-%s", name);
	return len < 0 || (size_t)len >= sizeof file ? -1 : state_path(file, make_dir, path, n);
}

static void
day_of(int64_t now, char *buf, size_t n)
{
	time_fmt_utc(now, buf, n);
	buf[n > 10 ? 10 : n - 1] = 0;
}

int
stamp_today(const char *name, int64_t now)
{
	char path[PATH_MAX], day[40], got[40] = "";
	if (stamp_path(name, 0, path, sizeof path))
		return 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = fgets(got, sizeof got, f) != NULL;
	fclose(f);
	day_of(now, day, sizeof day);
	got[strcspn(got, "\n")] = 0;
	return ok && strcmp(got, day) == 0;
}

void
stamp_set(const char *name, int64_t now)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16], day[40];
	if (stamp_path(name, 1, path, sizeof path))
		return;
	snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	day_of(now, day, sizeof day);
	size_t len = strlen(day);
	day[len] = '\n';
	int ok = write(fd, day, len + 1) == (ssize_t)(len + 1);
	if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
		unlink(tmp);
}
