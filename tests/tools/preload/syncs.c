/* syncs.so: counts a process's flushes to disk (fsync, fdatasync,
 * sync_file_range, syncfs, sync), for LD_PRELOAD.  At exit the count is
 * appended as one line to the file SYNCS_FILE names.  SQLite, linked into
 * the programs, calls libc's fdatasync through here.
 *
 *   LD_PRELOAD=.../syncs.so SYNCS_FILE=/tmp/x/syncs task-tick */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long flushes; /* a test shim: one process, one count */

static void __attribute__((destructor))
report(void)
{
	const char *path = getenv("SYNCS_FILE");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%ld\n", flushes);
		fclose(f);
	}
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

int
fsync(int fd)
{
	flushes++;
	return REAL("fsync", int (*)(int))(fd);
}

int
fdatasync(int fd)
{
	flushes++;
	return REAL("fdatasync", int (*)(int))(fd);
}

int
sync_file_range(int fd, off64_t off, off64_t n, unsigned int flags)
{
	flushes++;
	return REAL("sync_file_range", int (*)(int, off64_t, off64_t, unsigned int))(fd, off, n, flags);
}

int
syncfs(int fd)
{
	flushes++;
	return REAL("syncfs", int (*)(int))(fd);
}

void
sync(void)
{
	flushes++;
	REAL("sync", void (*)(void))();
}
