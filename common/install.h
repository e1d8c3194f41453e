/* install.h: what installs task-tick, as text for a shell: the crontab
 * line (task-tick --print-cron) and the systemd user service and timer
 * (--print-systemd).  The job is told the store and configuration this
 * shell names (TASK_DB, XDG_CONFIG_HOME), since cron and systemd start it
 * with an almost empty environment. */
#ifndef AC_INSTALL_H
#define AC_INSTALL_H

/* install.c */
/* The text, malloc'd: self is task-tick's absolute path; systemd: the
 * units (watch: a --watch service instead of a oneshot and a timer),
 * else the crontab line. */
char *install_text(const char *self, int systemd, int watch);
/* task-web's systemd user service: self its path, args what follows it
 * on ExecStart= (" --listen ...", quoted already, or ""). */
char *install_web_text(const char *self, const char *args);

#endif
