/* guard.h: the files no attachment may be, whoever asks for it: the user's
 * config directory (the config file, mcp.json), the store and the files
 * beside it, ~/.pgpass (or PGPASSFILE), a key file, and /proc (a process's
 * environment holds its keys).  A file is matched by device and inode, so
 * a symlink, a hard link or ".." does not get round it; directories by
 * their resolved path. */
#ifndef AC_GUARD_H
#define AC_GUARD_H

#include <stddef.h>
#include <sys/stat.h>

struct guard_file {
	dev_t dev;
	ino_t ino;
};

struct guard {
	struct guard_file *files;
	size_t nfiles;
	char **dirs;                /* resolved, without a trailing slash */
	size_t ndirs;
	dev_t proc_dev;             /* the device of /proc, or 0 */
	int have_proc;
};

/* guard.c */
/* store: the store's path or URI (NULL: none); key_file: NULL for none.
 * Files that do not exist are skipped. */
void guard_init(struct guard *g, const char *store, const char *key_file);
void guard_free(struct guard *g);
/* 1 when the file at resolved (a realpath), stat'ed as *sb, is guarded. */
int guard_refuses(const struct guard *g, const char *resolved, const struct stat *sb);
/* 1 when resolved is dir itself or lies under it. */
int path_under(const char *resolved, const char *dir);

#endif
