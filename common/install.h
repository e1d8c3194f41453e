/* install.h: what installs task-tick, as text for a shell: the crontab
 * line (task-tick --print-cron) and the systemd user service and timer
 * (--print-systemd).  The job is told the store and configuration this
 * shell names (TASK_DB, XDG_CONFIG_HOME), since cron and systemd start it
 * with an almost empty environment. */
#ifndef AC_INSTALL_H
#define AC_INSTALL_H

#include "util.h"

#define INSTALL_LOG_MAX 10000000LL /* tick_log_max's default: 10 MB */

/* install.c */
/* The text, malloc'd: self is task-tick's absolute path; systemd: the
 * units (watch: a --watch service instead of a oneshot and a timer),
 * else the crontab line. */
char *install_text(const char *self, int systemd, int watch);
/* task-web's systemd user service: self its path, args what follows it
 * on ExecStart= (" --listen ...", quoted already, or ""). */
char *install_web_text(const char *self, const char *args);
/* task-status's crontab lines, malloc'd: self is its absolute path; ping:
 * a URL curl fetches while --check says OK; textfile: a file --prometheus
 * replaces each minute.  Either may be NULL. */
char *install_status_text(const char *self, const char *ping, const char *textfile);
/* The config's tick_log_max ("10M", "500k", "0": no limit; NULL: the default). */
int install_log_max(const char *v, long long *max, struct err *e);
/* The log --print-cron sets up stays under max bytes, one old file kept:
 * when standard output appends to a regular file (>>) of max bytes or
 * more, that file becomes FILE.1 and output goes on in a new FILE. */
int install_log_rotate(long long max, int *rotated, struct err *e);

#endif
