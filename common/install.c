/* Installing task-tick: the crontab line and the systemd user units
 * (install.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
