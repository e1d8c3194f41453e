/* deliver_kick.c: task-deliver started and supervised from task-tick
 * (deliver_kick.h).  Its exit is seen through a pidfd where the kernel
 * has one, else by polling waitpid.  A task-tick that is a subreaper may
 * reap it first (as a child left behind by a run): waitpid's ECHILD then
 * means it ended, how unknown. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "deliver_kick.h"
#include "exec.h"
#include "store.h"
#include "store_deliver.h"

#define SAID_MAX (64 * 1024)      /* bytes of its standard error kept */
#define NO_PIDFD_POLL_MS 1000     /* how often an exit is looked for without a pidfd */

struct deliver_kick {
	char *dir;
	pid_t pid;                /* 0: none runs */
	int out, err, pidfd;
	int exited, status, gone; /* gone: reaped by someone else */
	int64_t bound_at;         /* mono_ms past which it is ended */
	int64_t term_at;          /* mono_ms of its SIGTERM, 0: none yet */
	int64_t exit_at;          /* mono_ms it was seen to exit */
	struct buf said;
};

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

struct deliver_kick *
deliver_kick_new(const char *dir)
{
	struct deliver_kick *k = xcalloc(1, sizeof *k);
	k->dir = dir ? xstrdup(dir) : NULL;
	k->out = k->err = k->pidfd = -1;
	return k;
}

static void
forget(struct deliver_kick *k)
{
	close_fd(&k->out);
	close_fd(&k->err);
	close_fd(&k->pidfd);
	buf_free(&k->said);
	k->pid = 0;
	k->exited = k->gone = 0;
	k->term_at = k->exit_at = 0;
}

void
deliver_kick_free(struct deliver_kick *k)
{
	if (!k)
		return;
	if (k->pid > 0 && !k->exited) {
		kill(-k->pid, SIGKILL);
		while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	forget(k);
	free(k->dir);
	free(k);
}

int
deliver_kick_running(const struct deliver_kick *k)
{
	return k->pid > 0;
}

int
deliver_kick_start(struct deliver_kick *k, struct store *st, const struct config *cf, int ended,
    int64_t now, int *started, struct err *e)
{
	*started = 0;
	if (k->pid > 0)
		return ST_OK;
	int due = 0, targets = 0, fresh = 0;
	const char *dflt = cf ? config_get(cf, "deliver") : NULL;
	int any = dflt && !str_empty(dflt);
	int rc = store_deliver_work(st, now, any, &due, &targets, &fresh, e);
	if (rc)
		return rc;
	/* fresh: a run no pass ended (task-run in the foreground) waits for
	 * no other run to end. */
	if (!due && !fresh && !(ended && (targets || any)))
		return ST_OK;
	char *argv[] = {"task-deliver", NULL};
	struct exec_proc p;
	struct err sub;
	int no_resources;
	if (exec_spawn("program", argv, NULL, k->dir, 0, &p, &no_resources, &sub))
		return err_set(e, ST_ERR, "cannot deliver answers: %s", sub.msg);
	close(p.in);
	k->pid = p.pid;
	k->out = p.out;
	k->err = p.err;
	k->pidfd = (int)syscall(SYS_pidfd_open, p.pid, 0);
	k->bound_at = mono_ms() + DELIVER_KICK_MS;
	*started = 1;
	return ST_OK;
}

int
deliver_kick_fds(const struct deliver_kick *k, int *fds)
{
	int n = 0;
	if (k->pid <= 0)
		return 0;
	if (k->out >= 0)
		fds[n++] = k->out;
	if (k->err >= 0)
		fds[n++] = k->err;
	if (k->pidfd >= 0 && !k->exited)
		fds[n++] = k->pidfd;
	return n;
}

int64_t
deliver_kick_timeout(const struct deliver_kick *k)
{
	if (k->pid <= 0)
		return -1;
	if (k->exited)
		return EXEC_DRAIN_MS / 4;
	int64_t ms = (k->term_at ? k->term_at + EXEC_KILL_GRACE_MS : k->bound_at) - mono_ms();
	if (k->pidfd < 0 && ms > NO_PIDFD_POLL_MS)
		ms = NO_PIDFD_POLL_MS;
	return ms > 0 ? ms : 0;
}

/* Read what is there; at its end, close. */
static void
drain(struct deliver_kick *k, int *fd, int keep)
{
	char chunk[4096];
	for (int i = 0; *fd >= 0 && i < 64; i++) {
		ssize_t n = read(*fd, chunk, sizeof chunk);
		if (n > 0) {
			if (keep && k->said.len + (size_t)n <= SAID_MAX)
				buf_add(&k->said, chunk, (size_t)n);
		} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			close_fd(fd);
		} else if (errno == EAGAIN) {
			return;
		}
	}
}

static int
pidfd_ready(int fd)
{
	struct pollfd pf = {.fd = fd, .events = POLLIN};
	return poll(&pf, 1, 0) > 0;
}

int
deliver_kick_poll(struct deliver_kick *k, char **said)
{
	*said = NULL;
	if (k->pid <= 0)
		return 0;
	drain(k, &k->out, 0);
	drain(k, &k->err, 1);
	int64_t t = mono_ms();
	if (!k->exited && (k->pidfd < 0 || pidfd_ready(k->pidfd))) {
		int st = 0;
		pid_t r;
		while ((r = waitpid(k->pid, &st, WNOHANG)) < 0 && errno == EINTR)
			;
		if (r == k->pid || (r < 0 && errno == ECHILD)) {
			k->exited = 1;
			k->gone = r < 0;
			k->status = st;
			k->exit_at = t;
			close_fd(&k->pidfd);
		}
	}
	if (!k->exited) {
		if (!k->term_at && t >= k->bound_at) {
			kill(-k->pid, SIGTERM);
			k->term_at = t;
		} else if (k->term_at && t >= k->term_at + EXEC_KILL_GRACE_MS) {
			kill(-k->pid, SIGKILL);
		}
		return 0;
	}
	/* What it left in the pipes is read; a descendant holding them open
	 * does not hold this up past the drain. */
	if ((k->out >= 0 || k->err >= 0) && t < k->exit_at + EXEC_DRAIN_MS)
		return 0;
	struct buf b = {0};
	if (k->said.len)
		buf_add(&b, k->said.data, k->said.len);
	if (b.len && b.data[b.len - 1] != '\n')
		buf_add(&b, "\n", 1);
	if (k->term_at)
		buf_printf(&b, "task-deliver: stopped before its pass ended (a pass may take %d s at most;"
		    " what it did not attempt waits for the next)\n", DELIVER_KICK_MS / 1000);
	else if (!k->gone && WIFSIGNALED(k->status))
		buf_printf(&b, "task-deliver: killed by signal %d\n", WTERMSIG(k->status));
	*said = b.data;
	forget(k);
	return 1;
}

void
deliver_kick_wait(struct deliver_kick *k, int64_t deadline_ms, char **said)
{
	*said = NULL;
	if (k->pid <= 0)
		return;
	if (deadline_ms && deadline_ms < k->bound_at)
		k->bound_at = deadline_ms;
	while (!deliver_kick_poll(k, said)) {
		struct pollfd pf[DELIVER_KICK_FDS];
		int fds[DELIVER_KICK_FDS], n = deliver_kick_fds(k, fds);
		for (int i = 0; i < n; i++)
			pf[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		int64_t ms = deliver_kick_timeout(k);
		if (poll(pf, (nfds_t)n, ms < 0 || ms > 60000 ? 60000 : (int)ms) < 0 && errno != EINTR)
			break;
	}
}
