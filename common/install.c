/* Installing task-tick: the crontab line and the systemd user units, and
 * the size of the log the crontab line writes (install.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "install.h"
#include "store.h"

/* s for a shell (crontab: '%' escaped, which cron turns into newlines);
 * quoted when it needs it, or always. */
static void
put_sh(struct buf *b, const char *s, int always)
{
	if (!always && *s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/._+-,:@=")]) {
		buf_puts(b, s);
		return;
	}
	buf_puts(b, "'");
	for (; *s; s++)
		buf_puts(b, *s == '\'' ? "'\\''" : *s == '%' ? "\\%" : (char[2]){*s, 0});
	buf_puts(b, "'");
}

/* s in a systemd unit: specifiers escaped; for ExecStart= also variables,
 * and quoted when it needs it; else it goes inside Environment="...". */
static void
put_unit(struct buf *b, const char *s, int exec)
{
	int quote = !exec || s[strcspn(s, " \t\"'\\%$;")];
	if (exec && quote)
		buf_puts(b, "\"");
	for (; *s; s++)
		buf_puts(b, *s == '%' ? "%%" : *s == '$' && exec ? "$$" : *s == '"' && quote ? "\\\""
		    : *s == '\\' && quote ? "\\\\" : (char[2]){*s, 0});
	if (exec && quote)
		buf_puts(b, "\"");
}

/* What a job started by cron or systemd needs to reach the same store and
 * configuration as this shell: both are named explicitly when this shell
 * names them (a relative TASK_DB made absolute, a URI without password). */
struct install_env {
	const char *name[2];
	char value[2][PATH_MAX + 64];
	int n;
};

static void
install_env(struct install_env *ie)
{
	char cwd[PATH_MAX];
	const char *db = getenv("TASK_DB"), *xdg = getenv("XDG_DATA_HOME");
	ie->n = 0;
	if ((db && *db) || (xdg && *xdg)) {
		char path[PATH_MAX];
		store_default_path(path, sizeof path);
		store_locator_of(path, ie->value[ie->n], sizeof ie->value[ie->n]);
		ie->name[ie->n++] = "TASK_DB";
	}
	const char *cfg = getenv("XDG_CONFIG_HOME");
	if (cfg && *cfg) {
		if (cfg[0] != '/' && getcwd(cwd, sizeof cwd))
			snprintf(ie->value[ie->n], sizeof ie->value[ie->n], "%s/%s", cwd, cfg);
		else
			snprintf(ie->value[ie->n], sizeof ie->value[ie->n], "%s", cfg);
		ie->name[ie->n++] = "XDG_CONFIG_HOME";
	}
}

static void
install_cron(struct buf *b, const char *self, const struct install_env *ie)
{
	buf_puts(b, "# agentcron: fire due tasks every minute.  Install with\n"
	    "#   (crontab -l 2>/dev/null; task-tick --print-cron) | crontab -\n"
	    "# Runs (JSON lines) go to the log; failures go to stderr, which cron mails.\n"
	    "# Cron gives jobs an almost empty environment: put API keys in\n"
	    "# ~/.config/agentcron/config (chmod 600), not in your shell profile.\n"
	    "# The log and its directory are made private whatever cron's umask.\n"
	    "* * * * * (umask 077 && mkdir -p \"$HOME/.local/state/agentcron\" &&"
	    " touch \"$HOME/.local/state/agentcron/tick.log\") && ");
	for (int i = 0; i < ie->n; i++) {
		buf_printf(b, "%s=", ie->name[i]);
		put_sh(b, ie->value[i], 1);
		buf_puts(b, " ");
	}
	put_sh(b, self, 0);
	buf_puts(b, " >>\"$HOME/.local/state/agentcron/tick.log\"\n");
}

static void
install_systemd(struct buf *b, const char *self, const struct install_env *ie, int watch)
{
	buf_printf(b, "# agentcron: a systemd user %s for task-tick.  Install with\n"
	    "#   task-tick --print-systemd%s | sh\n"
	    "# (runs while you are logged out after: loginctl enable-linger \"$USER\").\n"
	    "# API keys belong in ~/.config/agentcron/config (chmod 600): units do not\n"
	    "# read your shell profile.\n"
	    "set -e\n"
	    /* sd_booted(3)'s test: without systemd as init, units would be
	     * written and then fail on the bus, left behind. */
	    "if [ ! -d /run/systemd/system ]; then\n"
	    "\techo 'task-tick: systemd is not this machine'\\''s init: nothing written;"
	    " use task-tick --print-cron (cron) or task-tick --watch instead' >&2\n"
	    "\texit 1\n"
	    "fi\n"
	    "dir=\"${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user\"\n"
	    "mkdir -p \"$dir\"\n"
	    "cat >\"$dir/agentcron-tick.service\" <<'EOF'\n"
	    "[Unit]\n"
	    "Description=agentcron: fire due tasks\n\n"
	    "[Service]\n",
	    watch ? "service" : "service and timer", watch ? " --watch" : "");
	for (int i = 0; i < ie->n; i++) {
		buf_printf(b, "Environment=\"%s=", ie->name[i]);
		put_unit(b, ie->value[i], 0);
		buf_puts(b, "\"\n");
	}
	buf_printf(b, "Type=%s\nExecStart=", watch ? "notify" : "oneshot");
	put_unit(b, self, 1);
	if (watch)
		buf_puts(b, " --watch\nRestart=on-failure\nRestartSec=5\n"
		    "TimeoutStopSec=60\n\n[Install]\nWantedBy=default.target\nEOF\n"
		    "systemctl --user daemon-reload\n"
		    "systemctl --user enable --now agentcron-tick.service\n");
	else
		buf_puts(b, "\nEOF\n"
		    "cat >\"$dir/agentcron-tick.timer\" <<'EOF'\n"
		    "[Unit]\n"
		    "Description=agentcron: fire due tasks every minute\n\n"
		    "[Timer]\n"
		    "OnCalendar=minutely\n"
		    "Persistent=true\n"
		    "AccuracySec=1s\n\n"
		    "[Install]\n"
		    "WantedBy=timers.target\n"
		    "EOF\n"
		    "systemctl --user daemon-reload\n"
		    "systemctl --user enable --now agentcron-tick.timer\n");
}

char *
install_text(const char *self, int systemd, int watch)
{
	struct install_env ie;
	struct buf b = {0};
	install_env(&ie);
	if (systemd)
		install_systemd(&b, self, &ie, watch);
	else
		install_cron(&b, self, &ie);
	return b.data;
}

/* The path made absolute against the working directory. */
static void
put_abs(struct buf *b, const char *path)
{
	char cwd[PATH_MAX], full[2 * PATH_MAX + 2];
	if (path[0] != '/' && getcwd(cwd, sizeof cwd))
		snprintf(full, sizeof full, "%s/%s", cwd, path);
	else
		snprintf(full, sizeof full, "%s", path);
	put_sh(b, full, 0);
}

static void
put_env(struct buf *b, const struct install_env *ie)
{
	for (int i = 0; i < ie->n; i++) {
		buf_printf(b, "%s=", ie->name[i]);
		put_sh(b, ie->value[i], 1);
		buf_puts(b, " ");
	}
}

char *
install_status_text(const char *self, const char *ping, const char *textfile)
{
	struct install_env ie;
	struct buf b = {0};
	install_env(&ie);
	buf_puts(&b, "# agentcron: monitoring from cron, with task-status's absolute path (cron's\n"
	    "# PATH is only /usr/bin:/bin).  Install with\n"
	    "#   (crontab -l 2>/dev/null; task-status --print-cron ...) | crontab -\n");
	if (ping) {
		buf_puts(&b, "# A dead-man's switch: the URL is pinged only while task-status --check\n"
		    "# says OK; the service alerts when the pings stop.\n"
		    "*/5 * * * * ");
		put_env(&b, &ie);
		put_sh(&b, self, 0);
		buf_puts(&b, " --check >/dev/null && curl -fsS -m 10 --retry 3 -o /dev/null ");
		put_sh(&b, ping, 1);
		buf_puts(&b, "\n");
	}
	if (textfile) {
		buf_puts(&b, "# Metrics for node_exporter's textfile collector, replaced whole each\n"
		    "# minute (written beside it, then renamed).\n"
		    "* * * * * ");
		put_env(&b, &ie);
		put_sh(&b, self, 0);
		buf_puts(&b, " --prometheus >");
		put_abs(&b, textfile);
		buf_puts(&b, ".tmp && mv -f ");
		put_abs(&b, textfile);
		buf_puts(&b, ".tmp ");
		put_abs(&b, textfile);
		buf_puts(&b, "\n");
	}
	return b.data;
}

int
install_log_max(const char *v, long long *max, struct err *e)
{
	char *end;
	*max = INSTALL_LOG_MAX;
	if (!v)
		return ST_OK;
	errno = 0;
	double n = strtod(v, &end);
	double unit = *end == 'k' || *end == 'K' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1;
	if (unit != 1)
		end++;
	if (errno || end == v || *end || !(n >= 0 && n * unit <= 1e15)) /* NaN too */
		return err_set(e, ST_INVALID, "config: bad tick_log_max '%.40s': a size such as 10M,"
		    " 500k or 0 (no limit)", v);
	*max = (long long)(n * unit);
	return ST_OK;
}

int
install_log_rotate(long long max, int *rotated, struct err *e)
{
	struct stat sb;
	char path[PATH_MAX];
	*rotated = 0;
	int fl = fcntl(1, F_GETFL);
	/* Only a file standard output appends to (cron's >>): the log. */
	if (max <= 0 || fl < 0 || !(fl & O_APPEND) || fstat(1, &sb) || !S_ISREG(sb.st_mode) ||
	    sb.st_size < max)
		return ST_OK;
	ssize_t n = readlink("/proc/self/fd/1", path, sizeof path - 3);
	if (n <= 0 || (size_t)n >= sizeof path - 3)
		return ST_OK;
	path[n] = 0;
	char old[PATH_MAX + 3];
	snprintf(old, sizeof old, "%s.1", path);
	if (rename(path, old))
		return err_set(e, ST_ERR, "cannot move the log '%s' aside: %s", path, strerror(errno));
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_set(e, ST_ERR, "cannot start a new log '%s': %s", path, strerror(errno));
	fflush(stdout);
	int rc = dup2(fd, 1) < 0 ? err_set(e, ST_ERR, "cannot start a new log '%s': %s", path,
	    strerror(errno)) : ST_OK;
	close(fd);
	*rotated = !rc;
	return rc;
}

char *
install_web_text(const char *self, const char *args)
{
	struct install_env ie;
	struct buf b = {0};
	install_env(&ie);
	buf_puts(&b, "# agentcron: a systemd user service for task-web.  Install with\n"
	    "#   task-web --print-systemd | sh\n"
	    "# The login link is in its log: journalctl --user -u agentcron-web\n"
	    "set -e\n"
	    /* As task-tick's: no unit written where systemd is not init. */
	    "if [ ! -d /run/systemd/system ]; then\n"
	    "\techo 'task-web: systemd is not this machine'\\''s init: nothing written;"
	    " start task-web yourself (for example from your session)' >&2\n"
	    "\texit 1\n"
	    "fi\n"
	    "dir=\"${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user\"\n"
	    "mkdir -p \"$dir\"\n"
	    "cat >\"$dir/agentcron-web.service\" <<'EOF'\n"
	    "[Unit]\n"
	    "Description=agentcron: the web front\n\n"
	    "[Service]\n");
	for (int i = 0; i < ie.n; i++) {
		buf_printf(&b, "Environment=\"%s=", ie.name[i]);
		put_unit(&b, ie.value[i], 0);
		buf_puts(&b, "\"\n");
	}
	buf_puts(&b, "Type=notify\nExecStart=");
	put_unit(&b, self, 1);
	for (const char *a = args; a && *a; a++)
		buf_add(&b, a, 1);
	buf_puts(&b, "\nRestart=on-failure\nRestartSec=5\nNoNewPrivileges=yes\nPrivateTmp=yes\n\n"
	    "[Install]\nWantedBy=default.target\nEOF\n"
	    "systemctl --user daemon-reload\n"
	    "systemctl --user enable --now agentcron-web.service\n");
	return b.data;
}
