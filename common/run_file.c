/* The temporary files of one run (run_file.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_file.h"

static const char *const kinds[] = {"outcome", "payload"};

static const char *
tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return !str_empty(dir) ? dir : "/tmp";
}

/* A run id as we make them (a UUID): nothing that could leave the directory. */
static int
id_plain(const char *id)
{
	if (!*id)
		return 0;
	for (const char *p = id; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || *p == '-'))
			return 0;
	return strlen(id) <= 64;
}

int
run_file_new(const char *kind, const char *run_id, int *fd, char **path, struct err *e)
{
	/* mkstemp's random tail: a name no one else can make first. */
	char *p = id_plain(run_id) ? xasprintf("%s/agentcron-%s-%s-XXXXXX", tmp_dir(), kind, run_id)
	    : xasprintf("%s/agentcron-%s-XXXXXX", tmp_dir(), kind);
	*fd = mkstemp(p);
	if (*fd < 0) {
		int err = errno;
		free(p);
		*path = NULL;
		return err_set(e, ST_ERR, "cannot make the run's %s file: %s", kind, strerror(err));
	}
	*path = p;
	return ST_OK;
}

/* Is name "agentcron-KIND-RUNID-" and six characters, for one of kinds? */
static int
named_for(const char *name, const char *run_id)
{
	static const char lead[] = "agentcron-";
	if (strncmp(name, lead, sizeof lead - 1) != 0)
		return 0;
	name += sizeof lead - 1;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t n = strlen(kinds[k]), m = strlen(run_id);
		if (strncmp(name, kinds[k], n) == 0 && name[n] == '-' &&
		    strncmp(name + n + 1, run_id, m) == 0 && name[n + 1 + m] == '-' &&
		    strlen(name + n + 2 + m) == 6)
			return 1;
	}
	return 0;
}

int
run_files_remove(const char *run_id)
{
	if (!id_plain(run_id))
		return 0;
	DIR *d = opendir(tmp_dir());
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat sb;
		if (!named_for(de->d_name, run_id) ||
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode) || sb.st_uid != geteuid())
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}
