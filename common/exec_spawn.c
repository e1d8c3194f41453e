/* Starting a child the one way agentcron starts any: a command line split
 * into words without a shell, its program found in PATH, then vfork and
 * exec into its own process group.  Kept apart from the pool (exec.c),
 * which supervises what these start; MCP servers and notify hooks use this
 * part alone. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"

extern char **environ;

/* ---- command lines ---- */

int
exec_split(const char *line, char ***argv, struct err *e)
{
	size_t n = 0, cap = 8;
	char **v = xcalloc(cap, sizeof *v);
	struct buf w = {0};
	const char *p = line ? line : "";
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		buf_add(&w, "", 0);
		w.len = 0;
		w.data[0] = 0;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');
				if (!q)
					goto unterminated;
				buf_add(&w, p + 1, (size_t)(q - p - 1));
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p != '"'; p++) {
					if (!*p)
						goto unterminated;
					if (*p == '\\' && p[1] && strchr("\\\"$`", p[1]))
						p++;
					buf_add(&w, p, 1);
				}
				p++;
			} else if (*p == '\\') {
				if (p[1])
					buf_add(&w, p + 1, 1);
				p += p[1] ? 2 : 1;
			} else {
				buf_add(&w, p++, 1);
			}
		}
		if (n + 2 > cap)
			v = xrealloc(v, (cap *= 2) * sizeof *v);
		v[n++] = xstrdup(w.data);
		v[n] = NULL;
	}
	buf_free(&w);
	if (n == 0) {
		free(v);
		return err_set(e, ST_INVALID, "empty command line");
	}
	*argv = v;
	return ST_OK;
unterminated:
	buf_free(&w);
	v[n] = NULL;
	exec_argv_free(v);
	return err_set(e, ST_INVALID, "unterminated quote in command line '%s'", line);
}

void
exec_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

int
exec_check(const char *line, struct err *e)
{
	char **argv;
	int rc = exec_split(line, &argv, e);
	if (!rc)
		exec_argv_free(argv);
	return rc;
}

static int
is_exec_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

int
exec_find(const char *what, const char *name, const char *dir, char **path, struct err *e)
{
	if (!*name)
		return err_set(e, ST_NOTFOUND, "empty %s name", what);
	if (strchr(name, '/')) {
		struct stat sb;
		if (stat(name, &sb) != 0)
			return err_set(e, ST_NOTFOUND, "%s '%s' not found", what, name);
		if (!is_exec_file(name))
			return err_set(e, ST_NOTFOUND, "%s '%s' is not an executable file", what,
			    name);
		*path = xstrdup(name);
		return ST_OK;
	}
	const char *env = getenv("PATH");
	char *list = xstrdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	int rc = ST_NOTFOUND;
	/* strsep keeps empty entries, which mean the current directory. */
	for (char *s = list, *d; rc && (d = strsep(&s, ":"));) {
		char *full = xasprintf("%s/%s", *d ? d : ".", name);
		if (is_exec_file(full)) {
			*path = full;
			rc = ST_OK;
		} else {
			free(full);
		}
	}
	free(list);
	if (rc && dir) {
		char *full = xasprintf("%s/%s", dir, name);
		if (is_exec_file(full)) {
			*path = full;
			rc = ST_OK;
		} else {
			free(full);
		}
	}
	return rc ? err_set(e, ST_NOTFOUND, "%s '%s' not found in PATH", what, name) : ST_OK;
}

/* ---- starting ---- */

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child between vfork and exec, sharing the caller's memory until
 * execve: raw system calls only, nothing that allocates or takes a lock.
 * It starts with every signal blocked; the handlers are reset before they
 * are unblocked, so none of the caller's runs in the child.  Why it could
 * not exec is left in *err, which the caller reads once it resumes. */
static void
child_exec(const char *path, char *const *argv, char *const *envp, pid_t parent, int die,
    int in, int out, int errfd, volatile int *err)
{
	setpgid(0, 0);
	if (die && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent))
		_exit(127);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		goto fail;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(path, argv, envp);
fail:
	*err = errno ? errno : ENOEXEC;
	_exit(127);
}

static int
nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int
exec_spawn(const char *what, char *const *argv, char *const *envp, const char *dir, int die,
    struct exec_proc *p, int *no_resources, struct err *e)
{
	char *path = NULL;
	*no_resources = 0;
	int rc = exec_find(what, argv[0], dir, &path, e);
	if (rc)
		return rc;
	int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
	pid_t pid = -1, parent = getpid();
	volatile int child_err = 0;
	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
		*no_resources = errno == EMFILE || errno == ENFILE;
		rc = err_set(e, ST_ERR, "cannot start '%s': %s", argv[0], strerror(errno));
	} else {
		/* vfork: no copy of the caller's memory (a store's cache can be
		 * large), and the child is set up and exec'd (or failed) when it
		 * returns.  Signals stay blocked until the child reset them. */
		sigset_t all, old;
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, &old);
		pid = vfork();
		if (pid == 0)
			child_exec(path, argv, envp ? envp : environ, parent, die, pin[0], pout[1],
			    perr[1], &child_err);
		int fork_err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (pid < 0) {
			*no_resources = fork_err == EAGAIN || fork_err == ENOMEM;
			rc = err_set(e, ST_ERR, "cannot start '%s': %s", argv[0], strerror(fork_err));
		}
	}
	free(path);
	close_fd(&pin[0]);
	close_fd(&pout[1]);
	close_fd(&perr[1]);
	if (pid > 0 && child_err) {
		int st, err = child_err;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*no_resources = err == ENOMEM || err == EAGAIN || err == EMFILE || err == ENFILE;
		rc = err_set(e, ST_ERR, "cannot run %s '%s': %s", what, argv[0], strerror(err));
	}
	if (rc) {
		close_fd(&pin[1]);
		close_fd(&pout[0]);
		close_fd(&perr[0]);
		return rc;
	}
	*p = (struct exec_proc){.pid = pid, .in = pin[1], .out = pout[0], .err = perr[0]};
	nonblock(p->in);
	nonblock(p->out);
	nonblock(p->err);
	return ST_OK;
}
