/* enospc.so: a full disk under one directory, for LD_PRELOAD.  Once
 * ENOSPC_AFTER bytes (default 0) have been written to files under
 * ENOSPC_DIR, every further write there fails with ENOSPC, as do fsync,
 * fdatasync and any growth by ftruncate or fallocate; files elsewhere
 * (standard output, the test's own files) are untouched.  A mounted tmpfs
 * would need root, and a file system image a loop device: this runs
 * anywhere the programs run, under the sanitizers too.
 *
 *   LD_PRELOAD=.../enospc.so ENOSPC_DIR=/tmp/x/full ENOSPC_AFTER=0 task-add ...
 *
 * With ENOSPC_WHILE set to a path, the disk is full only while a file is
 * there, whatever the budget: a test frees space by removing it.
 *
 * The budget is per process.  Each intercepted call finds the real one
 * with dlsym(RTLD_NEXT).  What libc writes for itself (stdio's buffers)
 * does not pass through here; SQLite's pwrite64 and fdatasync do. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long written; /* a test shim: one process, one budget */

static int
under_dir(int fd)
{
	const char *dir = getenv("ENOSPC_DIR");
	char link[64], path[PATH_MAX];
	if (!dir || !*dir)
		return 0;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	size_t d = strlen(dir);
	return strncmp(path, dir, d) == 0 && (path[d] == '/' || path[d] == 0);
}

/* ENOSPC_WHILE: 1 full (its file exists), 0 free, -1 not set. */
static int
switched(void)
{
	const char *flag = getenv("ENOSPC_WHILE");
	struct stat sb;
	if (!flag || !*flag)
		return -1;
	return stat(flag, &sb) == 0;
}

/* Whether n more bytes to fd fit; counts them when they do. */
static int
fits(int fd, size_t n)
{
	if (!under_dir(fd))
		return 1;
	int sw = switched();
	if (sw >= 0) {
		if (sw)
			errno = ENOSPC;
		return !sw;
	}
	const char *a = getenv("ENOSPC_AFTER");
	long long budget = a ? atoll(a) : 0;
	if (written + (long long)n > budget) {
		errno = ENOSPC;
		return 0;
	}
	written += (long long)n;
	return 1;
}

static int
full(int fd)
{
	const char *a = getenv("ENOSPC_AFTER");
	int sw = switched();
	if (!under_dir(fd) || (sw >= 0 ? !sw : written < (a ? atoll(a) : 0)))
		return 0;
	errno = ENOSPC;
	return 1;
}

#define REAL(f) __typeof__(&f) real = (__typeof__(&f))dlsym(RTLD_NEXT, #f)

ssize_t
write(int fd, const void *buf, size_t n)
{
	REAL(write);
	return fits(fd, n) ? real(fd, buf, n) : -1;
}

ssize_t
pwrite(int fd, const void *buf, size_t n, off_t off)
{
	REAL(pwrite);
	return fits(fd, n) ? real(fd, buf, n, off) : -1;
}

ssize_t
pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	REAL(pwrite64);
	return fits(fd, n) ? real(fd, buf, n, off) : -1;
}

ssize_t
writev(int fd, const struct iovec *iov, int cnt)
{
	REAL(writev);
	size_t n = 0;
	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	return fits(fd, n) ? real(fd, iov, cnt) : -1;
}

int
fsync(int fd)
{
	REAL(fsync);
	return full(fd) ? -1 : real(fd);
}

int
fdatasync(int fd)
{
	REAL(fdatasync);
	return full(fd) ? -1 : real(fd);
}

int
ftruncate(int fd, off_t len)
{
	REAL(ftruncate);
	struct stat sb;
	if (fstat(fd, &sb) == 0 && len > sb.st_size && full(fd))
		return -1;
	return real(fd, len);
}

int
ftruncate64(int fd, off64_t len)
{
	REAL(ftruncate64);
	struct stat sb;
	if (fstat(fd, &sb) == 0 && len > sb.st_size && full(fd))
		return -1;
	return real(fd, len);
}

int
fallocate(int fd, int mode, off_t off, off_t len)
{
	REAL(fallocate);
	return full(fd) ? -1 : real(fd, mode, off, len);
}

int
posix_fallocate(int fd, off_t off, off_t len)
{
	REAL(posix_fallocate);
	/* Returns the error, errno untouched. */
	return full(fd) ? ENOSPC : real(fd, off, len);
}
