/* An idle pass's note: beside a SQLite store, or in the state directory
 * for a store on a server (idle_hint.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "idle_hint.h"
#include "stamp.h"
#include "task.h"

#define HINT_MAGIC "agentcron-idle"
#define SERVER_MAGIC "agentcron-idle-server"
#define HINT_FORMAT 1
#define HINT_MAX 1024
#define ID_FIELDS 17           /* five numbers for each of three files, the log's header's salts */
#define SERVER_FIELDS 9        /* the config file's five, the server's four */

/* A file as the hint knows it: device, inode, size, mtime s and ns. */
static void
file_id(const char *path, long long *id)
{
	struct stat sb;
	if (!path || stat(path, &sb) != 0) {
		for (int i = 0; i < 5; i++)
			id[i] = -1;
		return;
	}
	id[0] = (long long)sb.st_dev;
	id[1] = (long long)sb.st_ino;
	id[2] = (long long)sb.st_size;
	id[3] = (long long)sb.st_mtim.tv_sec;
	id[4] = sb.st_mtim.tv_nsec;
}

/* The salts of a log's header, which a log started over anew changes:
 * a write made then in the same tick of the file system's clock may leave
 * its size and time as they were. */
static void
wal_salts(const char *wal, long long *salt)
{
	unsigned char h[32];
	int fd = open(wal, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	salt[0] = salt[1] = -1;
	if (fd < 0)
		return;
	if (read(fd, h, sizeof h) == (ssize_t)sizeof h) {
		salt[0] = (long long)h[16] << 24 | h[17] << 16 | h[18] << 8 | h[19];
		salt[1] = (long long)h[20] << 24 | h[21] << 16 | h[22] << 8 | h[23];
	}
	close(fd);
}

static void
store_ids(const char *db, const char *cfg, long long *ids)
{
	char *wal = xasprintf("%s-wal", db);
	file_id(db, ids);
	file_id(wal, ids + 5);
	file_id(cfg, ids + 10);
	wal_salts(wal, ids + 15);
	free(wal);
}

void
idle_hint_paths(const char *db, char **hint, char **last)
{
	*hint = xasprintf("%s-idle", db);
	if (last)
		*last = xasprintf("%s-idle-last", db);
}

/* The note's line: magic, format, version, due, written, ids, host; 0
 * when it does not fit or the host's name cannot be written on one line. */
static int
note_line(char *line, size_t n, const char *magic, int64_t due, int64_t written,
    const long long *ids, int nids)
{
	char host[256], d[24] = "-";
	history_host(host, sizeof host);
	if (!host[0] || strpbrk(host, "\n\r"))
		return 0;
	if (due != TIME_NONE)
		snprintf(d, sizeof d, "%lld", (long long)due);
	int len = snprintf(line, n, "%s %d %s %s %lld", magic, HINT_FORMAT, AC_VERSION, d,
	    (long long)written);
	for (int i = 0; i < nids && len > 0 && (size_t)len < n; i++)
		len += snprintf(line + len, n - len, " %lld", ids[i]);
	if (len > 0 && (size_t)len < n)
		len += snprintf(line + len, n - len, " %s\n", host);
	return len > 0 && (size_t)len < n ? len : 0;
}

/* Write the note at path whole (a file renamed over it), 0600, its time
 * at: the pass's, on the store's clock (TASK_NOW too). */
static int
note_put(const char *path, const char *line, int len, int64_t at, struct err *e)
{
	char *tmp = xasprintf("%s.tmp", path);
	struct timespec ts[2] = {{(time_t)at, 0}, {(time_t)at, 0}};
	int rc = ST_OK, fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || write(fd, line, (size_t)len) != len || futimens(fd, ts) != 0)
		rc = err_set(e, ST_ERR, "cannot write '%s': %s", tmp, strerror(errno));
	if (fd >= 0 && close(fd) != 0 && !rc)
		rc = err_set(e, ST_ERR, "cannot write '%s': %s", tmp, strerror(errno));
	if (!rc && rename(tmp, path) != 0)
		rc = err_set(e, ST_ERR, "cannot write '%s': %s", path, strerror(errno));
	if (rc && fd >= 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

int
idle_hint_write(const char *db, const char *cfg, int64_t due, int64_t now, struct err *e)
{
	char line[HINT_MAX];
	long long ids[ID_FIELDS];
	store_ids(db, cfg, ids);
	int len = note_line(line, sizeof line, HINT_MAGIC, due, now, ids, ID_FIELDS);
	if (!len)
		return ST_OK;
	char *hint;
	idle_hint_paths(db, &hint, NULL);
	int rc = note_put(hint, line, len, now, e);
	free(hint);
	return rc;
}

/* A number as the hint writes it: [-]digits, nothing else. */
static int
number(const char *s, long long *v)
{
	char *end;
	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || *end ? -1 : 0;
}

struct hint {
	char version[24];
	long long due, written, ids[ID_FIELDS];  /* due: TIME_NONE for "-" */
	char host[256];
};

/* Read and parse fd's note strictly, of magic with nids numbers: 0, or -1
 * for anything off. */
static int
note_read(int fd, const char *magic, int nids, struct hint *h)
{
	char buf[HINT_MAX + 1], *f[5 + ID_FIELDS], *save = NULL;
	ssize_t n = read(fd, buf, HINT_MAX);
	long long fmt;
	if (n <= 0 || n >= HINT_MAX || buf[n - 1] != '\n' || memchr(buf, 0, (size_t)n))
		return -1;
	buf[n - 1] = 0;
	if (strchr(buf, '\n'))
		return -1;
	char *p = buf;
	for (int i = 0; i < 5 + nids; i++) {
		f[i] = strtok_r(i ? NULL : p, " ", &save);
		if (!f[i])
			return -1;
	}
	/* The host is the rest of the line, as written. */
	if (!save || !*save || strlen(save) >= sizeof h->host || strlen(f[2]) >= sizeof h->version)
		return -1;
	if (strcmp(f[0], magic) != 0 || number(f[1], &fmt) || fmt != HINT_FORMAT ||
	    number(f[4], &h->written))
		return -1;
	if (strcmp(f[3], "-") == 0)
		h->due = TIME_NONE;
	else if (number(f[3], &h->due))
		return -1;
	for (int i = 0; i < nids; i++)
		if (number(f[5 + i], &h->ids[i]))
			return -1;
	snprintf(h->version, sizeof h->version, "%s", f[2]);
	snprintf(h->host, sizeof h->host, "%s", save);
	return 0;
}

int
idle_hint_take(const char *db, const char *cfg, int64_t now)
{
	char *hint, host[256];
	struct hint h;
	long long ids[ID_FIELDS];
	idle_hint_paths(db, &hint, NULL);
	int fd = open(hint, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	free(hint);
	if (fd < 0)
		return 0;
	int ok = note_read(fd, HINT_MAGIC, ID_FIELDS, &h) == 0;
	history_host(host, sizeof host);
	ok = ok && strcmp(h.version, AC_VERSION) == 0 && strcmp(h.host, host) == 0 &&
	    idle_hint_holds(h.due, h.written, now);
	if (ok) {
		/* Looked at after the hint was opened: a commit since shows. */
		store_ids(db, cfg, ids);
		ok = memcmp(ids, h.ids, sizeof ids) == 0;
	}
	struct timespec ts[2] = {{(time_t)now, 0}, {(time_t)now, 0}};
	if (ok && futimens(fd, ts) != 0)
		ok = 0;
	close(fd);
	return ok;
}

/* The pass one hint file records: 0, or -1 when there is none. */
static int
seen_one(const char *path, struct hint *h, int64_t *at)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat sb;
	if (fd < 0)
		return -1;
	int rc = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? note_read(fd, HINT_MAGIC, ID_FIELDS, h) : -1;
	close(fd);
	if (rc == 0)
		*at = sb.st_mtim.tv_sec;
	return rc;
}

int
idle_hint_seen(const char *db, int which, char *host, size_t n, char *version, size_t vn,
    int64_t *at, int64_t *written)
{
	char *paths[2];
	struct hint h;
	idle_hint_paths(db, &paths[0], &paths[1]);
	int found = seen_one(paths[which != 0], &h, at) == 0;
	if (found) {
		*written = h.written;
		snprintf(host, n, "%s", h.host);
		snprintf(version, vn, "%s", h.version);
	}
	free(paths[0]);
	free(paths[1]);
	return found;
}

int
idle_hint_holds(int64_t due, int64_t written, int64_t now)
{
	/* Nor past the UTC day: what a pass says once a day (stamp.h) it says
	 * at the day's first pass. */
	return written <= now && now - written < IDLE_HINT_CAP_S && (due == TIME_NONE || now < due) &&
	    floor_div(now, 86400) == floor_div(written, 86400);
}

/* ---- a store on a server ---- */

/* The note of the store at uri on this host; -1 when there is no place. */
static int
server_note_path(const char *uri, int make_dir, char *path, size_t n)
{
	/* Named by a hash of the URI, which may hold a password. */
	uint64_t h = 1469598103934665603ULL;
	for (const char *p = uri; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	char name[40];
	snprintf(name, sizeof name, "idle-%016llx", (unsigned long long)h);
	return state_path(name, make_dir, path, n);
}

int
idle_hint_server_write(const char *uri, const char *cfg, int64_t due, int64_t written, int64_t at,
    const struct idle_server *srv, struct err *e)
{
	char line[HINT_MAX], path[PATH_MAX];
	long long ids[SERVER_FIELDS] = {0};
	file_id(cfg, ids);
	ids[5] = srv->started;
	ids[6] = srv->next_xid;
	ids[7] = srv->misses;
	ids[8] = srv->retry_at;
	int len = note_line(line, sizeof line, SERVER_MAGIC, due, written, ids, SERVER_FIELDS);
	if (!len || server_note_path(uri, 1, path, sizeof path))
		return ST_OK;
	return note_put(path, line, len, at, e);
}

int
idle_hint_server_read(const char *uri, const char *cfg, int64_t *due, int64_t *written,
    struct idle_server *srv)
{
	char path[PATH_MAX], host[256];
	struct hint h;
	long long ids[5];
	if (server_note_path(uri, 0, path, sizeof path))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	int ok = note_read(fd, SERVER_MAGIC, SERVER_FIELDS, &h) == 0;
	close(fd);
	history_host(host, sizeof host);
	ok = ok && strcmp(h.version, AC_VERSION) == 0 && strcmp(h.host, host) == 0;
	if (ok) {
		file_id(cfg, ids);
		ok = memcmp(ids, h.ids, sizeof ids) == 0;
	}
	if (ok) {
		*due = h.due;
		*written = h.written;
		srv->started = h.ids[5];
		srv->next_xid = h.ids[6];
		srv->misses = h.ids[7];
		srv->retry_at = h.ids[8];
	}
	return ok;
}
