/* Processes as /proc shows them: start times that tell a live process from
 * a later one with the same pid, the boot and pid namespace a pid belongs
 * to, process groups, and the processes a dead task-tick left behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* The fields of /proc/PID/stat after the command name (which may hold
 * spaces and parentheses): field 3 is the state. */
static int
proc_stat_fields(pid_t pid, char *buf, size_t n, char **rest)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, n - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	char *paren = strrchr(buf, ')');
	if (!paren || paren[1] != ' ')
		return -1;
	*rest = paren + 2;
	return 0;
}

int
proc_start_time(pid_t pid, int64_t *ticks)
{
	char buf[1024], *p;
	if (pid <= 0 || proc_stat_fields(pid, buf, sizeof buf, &p))
		return -1;
	if (*p == 'Z' || *p == 'X')
		return -1;
	/* starttime is field 22: the 20th after the name. */
	for (int f = 3; f < 22; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	*ticks = strtoll(p, NULL, 10);
	return 0;
}

int
proc_boot_id(char out[40])
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, out, 39);
	close(fd);
	if (r <= 0)
		return -1;
	out[r] = 0;
	out[strcspn(out, "\n")] = 0;
	return 0;
}

static int
environ_has(pid_t pid, const char *want, size_t nwant)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct buf b = {0};
	int found = 0;
	if (buf_read_fd(&b, fd, 1 << 20) == 0) {
		for (size_t i = 0; i < b.len && !found; i += strlen(b.data + i) + 1)
			found = strlen(b.data + i) == nwant && memcmp(b.data + i, want, nwant) == 0;
	}
	close(fd);
	buf_free(&b);
	return found;
}

int
proc_kill_tagged(const char *name, const char *value)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	char *want = xasprintf("%s=%s", name, value);
	size_t nwant = strlen(want);
	uid_t me = getuid();
	pid_t self = getpid();
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || pid == self)
			continue;
		char path[64];
		struct stat sb;
		snprintf(path, sizeof path, "/proc/%ld", pid);
		if (stat(path, &sb) != 0 || sb.st_uid != me)
			continue;
		if (environ_has((pid_t)pid, want, nwant) && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	closedir(d);
	free(want);
	return n;
}

/* Does process group pgid have a member that is not a zombie? */
int
proc_group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 1;
	struct dirent *de;
	int alive = 0;
	while (!alive && (de = readdir(d))) {
		char *end, buf[1024], *p;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || proc_stat_fields((pid_t)pid, buf, sizeof buf, &p))
			continue;
		/* Fields after the name: state, ppid, pgrp. */
		char state = *p;
		long ppid, pgrp;
		if (sscanf(p + 1, " %ld %ld", &ppid, &pgrp) == 2 && pgrp == pgid && state != 'Z' &&
		    state != 'X')
			alive = 1;
	}
	closedir(d);
	return alive;
}

int
proc_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0 ? 0 : -1;
}

/* Up to max live children of this process into pids; how many. */
static int
children(pid_t *pids, int max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	struct dirent *de;
	int n = 0;
	pid_t self = getpid();
	while (n < max && (de = readdir(d))) {
		char *end, buf[1024], *p;
		long pid = strtol(de->d_name, &end, 10);
		long ppid;
		if (*end || pid <= 0 || proc_stat_fields((pid_t)pid, buf, sizeof buf, &p))
			continue;
		if (sscanf(p + 1, " %ld", &ppid) == 1 && ppid == self && *p != 'Z' && *p != 'X')
			pids[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

static void
reap_all(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Up to max children of this process (zombies too) from the kernel's own
 * list, else from a scan of /proc; how many. */
static int
children_of_self(pid_t *pids, int max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)getpid());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return children(pids, max);
	struct buf b = {0};
	int n = 0;
	if (buf_read_fd(&b, fd, 1 << 16) == 0 && b.len) {
		char *p = b.data, *end;
		for (long pid; n < max && (pid = strtol(p, &end, 10)) > 0 && end != p; p = end)
			pids[n++] = (pid_t)pid;
	}
	close(fd);
	buf_free(&b);
	return n;
}

/* Reap pid, which was sent SIGKILL or has ended, waiting at most 2 s. */
static void
reap_one(pid_t pid)
{
	for (int64_t until = mono_ms() + 2000;;) {
		pid_t r = waitpid(pid, NULL, WNOHANG);
		if (r != 0 || mono_ms() >= until)
			return;
		struct timespec ts = {0, 5 * 1000000L};
		nanosleep(&ts, NULL);
	}
}

int
proc_end_left_children(const char *name, const char *value, pid_t group,
    int (*ours)(pid_t pid, void *arg), void *arg)
{
	char *want = xasprintf("%s=%s", name, value);
	size_t nwant = strlen(want);
	pid_t pids[256];
	int killed = 0;
	/* Bounded: each round takes what the last one's deaths left here. */
	for (int round = 0, more = 1; more && round < 20; round++) {
		more = 0;
		int n = children_of_self(pids, 256);
		for (int i = 0; i < n; i++) {
			char buf[1024], *p;
			if (ours(pids[i], arg) || proc_stat_fields(pids[i], buf, sizeof buf, &p))
				continue;
			long ppid, pgrp;
			if (*p == 'Z' || *p == 'X') {
				reap_one(pids[i]);
			} else if (sscanf(p + 1, " %ld %ld", &ppid, &pgrp) == 2 && pgrp == group) {
				/* Its group was ended whole already: only to reap. */
				kill(pids[i], SIGKILL);
				reap_one(pids[i]);
			} else if (environ_has(pids[i], want, nwant) && kill(pids[i], SIGKILL) == 0) {
				reap_one(pids[i]);
				killed++;
				more = 1;
			}
		}
	}
	free(want);
	return killed;
}

int
proc_end_children(long grace_ms)
{
	pid_t pids[256];
	int ended = 0;
	/* Bounded: a descendant that forks as fast as it is killed does not
	 * keep this going for ever. */
	for (int round = 0; round < 50; round++) {
		reap_all();
		int n = children(pids, 256);
		if (!n)
			break;
		for (int i = 0; i < n; i++)
			kill(pids[i], SIGTERM);
		ended += n;
		for (int64_t until = mono_ms() + grace_ms; mono_ms() < until;) {
			reap_all();
			if (!children(pids, 1))
				break;
			struct timespec ts = {0, 10 * 1000000L};
			nanosleep(&ts, NULL);
		}
		n = children(pids, 256);
		for (int i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		for (int64_t until = mono_ms() + 5000; n && mono_ms() < until;) {
			reap_all();
			if (!children(pids, 1))
				break;
			struct timespec ts = {0, 10 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	reap_all();
	return ended;
}

int
proc_node_id(char *out, size_t n)
{
	const char *forced = getenv("TASK_HOST_ID");
	if (forced && *forced) {
		snprintf(out, n, "%s", forced);
		return 0;
	}
	char boot[40], ns[64];
	if (proc_boot_id(boot) != 0)
		return -1;
	ssize_t r = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
	ns[r > 0 ? r : 0] = 0;
	snprintf(out, n, "%s/%s", boot, ns);
	return 0;
}

void
proc_self(const char *fallback, char *path, char *dir, size_t n)
{
	ssize_t l = readlink("/proc/self/exe", path, n - 1);
	if (l > 0)
		path[l] = 0;
	else
		snprintf(path, n, "%s", fallback);
	snprintf(dir, n, "%s", path);
	char *slash = strrchr(dir, '/');
	*(slash ? slash : dir) = 0;
}
