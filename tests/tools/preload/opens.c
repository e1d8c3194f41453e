/* opens.so: counts how often a process opens one file (the path
 * OPENS_PATH names, as the program spells it), for LD_PRELOAD.  At exit
 * the count is appended as one line to the file OPENS_FILE names.
 *
 *   LD_PRELOAD=.../opens.so OPENS_PATH=$HOME/.config/agentcron/config \
 *       OPENS_FILE=/tmp/x/opens task-tick */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static long opens; /* a test shim: one process, one count */

static void __attribute__((destructor))
report(void)
{
	const char *path = getenv("OPENS_FILE");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%ld\n", opens);
		fclose(f);
	}
}

static void
note(const char *path)
{
	const char *watched = getenv("OPENS_PATH");
	if (path && watched && strcmp(path, watched) == 0)
		opens++;
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

/* The mode is read only when the flags say a file may be made. */
static mode_t
mode_of(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

/* open and open64, alike but for the name they pass on. */
#define OPEN_LIKE(name)                                                          \
	int name(const char *path, int flags, ...)                               \
	{                                                                        \
		va_list ap;                                                      \
		va_start(ap, flags);                                             \
		mode_t mode = mode_of(flags, ap);                                \
		va_end(ap);                                                      \
		note(path);                                                      \
		return REAL(#name, int (*)(const char *, int, ...))(path, flags, mode); \
	}

OPEN_LIKE(open)
OPEN_LIKE(open64)

int
openat(int dir, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	note(path);
	return REAL("openat", int (*)(int, const char *, int, ...))(dir, path, flags, mode);
}

FILE *
fopen(const char *path, const char *how)
{
	note(path);
	return REAL("fopen", FILE *(*)(const char *, const char *))(path, how);
}
