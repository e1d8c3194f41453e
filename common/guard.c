/* The files no attachment may be (guard.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "guard.h"
#include "store.h"
#include "util.h"

static void
add_file(struct guard *g, const char *path)
{
	struct stat sb;
	if (!path || !*path || stat(path, &sb) != 0)
		return;
	g->files = xrealloc(g->files, (g->nfiles + 1) * sizeof *g->files);
	g->files[g->nfiles++] = (struct guard_file){sb.st_dev, sb.st_ino};
}

static void
add_dir(struct guard *g, const char *path)
{
	char *r = realpath(path, NULL);
	if (!r)
		return;
	size_t n = strlen(r);
	if (n > 1 && r[n - 1] == '/')
		r[n - 1] = 0;
	g->dirs = xrealloc(g->dirs, (g->ndirs + 1) * sizeof *g->dirs);
	g->dirs[g->ndirs++] = r;
}

void
guard_init(struct guard *g, const char *store, const char *key_file)
{
	char path[PATH_MAX];
	memset(g, 0, sizeof *g);
	config_default_path(path, sizeof path);
	add_file(g, path);
	char *slash = strrchr(path, '/');
	if (slash && slash != path) {
		*slash = 0;
		add_dir(g, path);
		/* mcp.json lives beside the config; a hard link elsewhere too. */
		strncat(path, "/mcp.json", sizeof path - strlen(path) - 1);
		add_file(g, path);
	}
	if (store && !store_is_uri(store)) {
		static const char *const beside[] = {"", "-wal", "-shm", "-journal"};
		for (size_t i = 0; i < sizeof beside / sizeof beside[0]; i++) {
			snprintf(path, sizeof path, "%s%s", store, beside[i]);
			add_file(g, path);
		}
	}
	const char *pgpass = getenv("PGPASSFILE"), *home = getenv("HOME");
	if (pgpass && *pgpass)
		add_file(g, pgpass);
	if (home && *home) {
		snprintf(path, sizeof path, "%s/.pgpass", home);
		add_file(g, path);
		/* A service file may hold the password as well. */
		snprintf(path, sizeof path, "%s/.pg_service.conf", home);
		add_file(g, path);
	}
	const char *service = getenv("PGSERVICEFILE"), *sysconf = getenv("PGSYSCONFDIR");
	if (service && *service)
		add_file(g, service);
	if (sysconf && *sysconf) {
		snprintf(path, sizeof path, "%s/pg_service.conf", sysconf);
		add_file(g, path);
	}
	add_file(g, key_file);
	struct stat sb;
	if (stat("/proc/self", &sb) == 0) {
		g->proc_dev = sb.st_dev;
		g->have_proc = 1;
	}
}

void
guard_free(struct guard *g)
{
	for (size_t i = 0; i < g->ndirs; i++)
		free(g->dirs[i]);
	free(g->dirs);
	free(g->files);
	memset(g, 0, sizeof *g);
}

int
path_under(const char *resolved, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return resolved[0] == '/';
	return strncmp(resolved, dir, n) == 0 && (resolved[n] == 0 || resolved[n] == '/');
}

int
guard_refuses(const struct guard *g, const char *resolved, const struct stat *sb)
{
	if (sb) {
		for (size_t i = 0; i < g->nfiles; i++)
			if (g->files[i].dev == sb->st_dev && g->files[i].ino == sb->st_ino)
				return 1;
		if (g->have_proc && sb->st_dev == g->proc_dev)
			return 1;
	}
	for (size_t i = 0; resolved && i < g->ndirs; i++)
		if (path_under(resolved, g->dirs[i]))
			return 1;
	return resolved && path_under(resolved, "/proc");
}
