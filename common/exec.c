/* Executors supervised as a pool: each started by exec_spawn.c in its own
 * process group, then a poll loop over every child's pipes and pidfd.  The child's exit is
 * seen through a pidfd (or, without one, by polling waitpid), so a
 * grandchild that keeps the pipes open cannot hold a run past its drain
 * period. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "proc.h"
#include "utf8.h"

struct child {
	void *tag;
	pid_t pid;
	int pidfd, fd_in, fd_out, fd_err;
	char *input;
	size_t ninput, off;
	struct buf out, err;
	size_t cap, drop_out, drop_err;
	int64_t start, deadline, term_at, kill_at, exit_at;
	int64_t grace, drain;
	int exited, status, timed_out, stopped, killed;
	int done_how;              /* a result known before it ran: EXEC_NOTFOUND, ... */
	int no_resources;          /* it could not start for lack of descriptors or processes */
	char why[ERR_MAX + 64];
};

struct exec_pool {
	struct child **c;
	size_t n, cap;
};

/* ---- starting ---- */

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void
child_free(struct child *c)
{
	close_fd(&c->pidfd);
	close_fd(&c->fd_in);
	close_fd(&c->fd_out);
	close_fd(&c->fd_err);
	free(c->input);
	buf_free(&c->out);
	buf_free(&c->err);
	free(c);
}

static void
start_child(struct child *c, const struct exec_cmd *cmd)
{
	struct exec_proc p;
	struct err e;
	c->start = mono_ms();
	int rc = exec_spawn("executor", cmd->argv, cmd->envp, cmd->search_dir, cmd->die_with_parent,
	    &p, &c->no_resources, &e);
	if (rc) {
		c->done_how = rc == ST_NOTFOUND ? EXEC_NOTFOUND : EXEC_STARTFAIL;
		snprintf(c->why, sizeof c->why, "%s", e.msg);
		return;
	}
	c->pid = p.pid;
	c->pidfd = (int)syscall(SYS_pidfd_open, p.pid, 0);
	c->fd_in = p.in;
	c->fd_out = p.out;
	c->fd_err = p.err;
	if (!c->input || !c->ninput)
		close_fd(&c->fd_in);
	if (cmd->timeout_ms > 0)
		c->deadline = c->start + cmd->timeout_ms;
}

struct exec_pool *
exec_pool_new(void)
{
	return xcalloc(1, sizeof(struct exec_pool));
}

size_t
exec_pool_count(const struct exec_pool *p)
{
	return p->n;
}

int
exec_pool_has_pid(const struct exec_pool *p, pid_t pid)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i]->pid == pid)
			return 1;
	return 0;
}

int
exec_pool_find(const struct exec_pool *p, int (*match)(void *tag, void *arg), void *arg)
{
	for (size_t i = 0; i < p->n; i++)
		if (match(p->c[i]->tag, arg))
			return 1;
	return 0;
}

void
exec_pool_start(struct exec_pool *p, const struct exec_cmd *cmd, void *tag)
{
	struct child *c = xcalloc(1, sizeof *c);
	c->tag = tag;
	c->pidfd = c->fd_in = c->fd_out = c->fd_err = -1;
	c->done_how = -1;
	c->cap = cmd->cap ? cmd->cap : EXEC_CAP;
	c->grace = cmd->kill_grace_ms > 0 ? cmd->kill_grace_ms : EXEC_KILL_GRACE_MS;
	c->drain = cmd->drain_ms > 0 ? cmd->drain_ms : EXEC_DRAIN_MS;
	if (cmd->input && cmd->ninput) {
		c->input = xmalloc(cmd->ninput);
		memcpy(c->input, cmd->input, cmd->ninput);
		c->ninput = cmd->ninput;
	}
	start_child(c, cmd);
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 8;
		p->c = xrealloc(p->c, p->cap * sizeof *p->c);
	}
	p->c[p->n++] = c;
}

void
exec_pool_fail(struct exec_pool *p, void *tag, int how, const char *why)
{
	struct child *c = xcalloc(1, sizeof *c);
	c->tag = tag;
	c->pidfd = c->fd_in = c->fd_out = c->fd_err = -1;
	c->done_how = how;
	snprintf(c->why, sizeof c->why, "%s", why);
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 8;
		p->c = xrealloc(p->c, p->cap * sizeof *p->c);
	}
	p->c[p->n++] = c;
}

/* ---- supervising ---- */

static void
signal_group(struct child *c, int sig)
{
	if (c->pid > 0)
		kill(-c->pid, sig);
}

static void
reap(struct child *c, int block)
{
	if (c->exited || c->pid <= 0)
		return;
	int st;
	pid_t r;
	while ((r = waitpid(c->pid, &st, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (r == c->pid) {
		c->exited = 1;
		c->status = st;
		c->exit_at = mono_ms();
		close_fd(&c->pidfd);
		close_fd(&c->fd_in);
	}
}

static void
keep(struct buf *b, size_t *dropped, size_t cap, const char *s, size_t n)
{
	size_t room = b->len < cap ? cap - b->len : 0;
	size_t take = n < room ? n : room;
	if (take)
		buf_add(b, s, take);
	*dropped += n - take;
}

/* Read what is there (bounded, so one chatty child cannot starve the rest). */
static void
drain_fd(struct child *c, int *fd, struct buf *b, size_t *dropped)
{
	char tmp[65536];
	for (int i = 0; i < 32 && *fd >= 0; i++) {
		ssize_t r = read(*fd, tmp, sizeof tmp);
		if (r > 0) {
			keep(b, dropped, c->cap, tmp, (size_t)r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return;
		close_fd(fd);
	}
}

/* Write input without dying of SIGPIPE when the child does not read it. */
static void
feed(struct child *c)
{
	sigset_t pipeset, old, pending;
	sigemptyset(&pipeset);
	sigaddset(&pipeset, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipeset, &old);
	sigpending(&pending);
	int was_pending = sigismember(&pending, SIGPIPE);
	ssize_t w = write(c->fd_in, c->input + c->off, c->ninput - c->off);
	if (w > 0) {
		c->off += (size_t)w;
		if (c->off == c->ninput)
			close_fd(&c->fd_in);
	} else if (w < 0 && errno != EAGAIN && errno != EINTR) {
		if (errno == EPIPE && !was_pending) {
			struct timespec zero = {0, 0};
			sigtimedwait(&pipeset, NULL, &zero);
		}
		close_fd(&c->fd_in);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int
child_finished(const struct child *c, int64_t now)
{
	if (c->done_how >= 0)
		return 1;
	if (!c->exited)
		return 0;
	return (c->fd_out < 0 && c->fd_err < 0) || now >= c->exit_at + c->drain;
}

/* The next instant this child needs attention without any I/O. */
static int64_t
child_timer(const struct child *c)
{
	int64_t t = INT64_MAX;
	if (c->done_how >= 0)
		return 0;
	if (c->exited)
		return c->exit_at + c->drain;
	if (c->deadline && !c->term_at)
		t = c->deadline;
	if (c->kill_at && !c->killed && c->kill_at < t)
		t = c->kill_at;
	return t;
}

static void
child_timers(struct child *c, int64_t now)
{
	if (c->exited || c->pid <= 0)
		return;
	if (c->deadline && !c->term_at && now >= c->deadline) {
		c->timed_out = 1;
		c->term_at = now;
		c->kill_at = now + c->grace;
		signal_group(c, SIGTERM);
	}
	if (c->kill_at && !c->killed && now >= c->kill_at) {
		c->killed = 1;
		signal_group(c, SIGKILL);
	}
}

static const char *
sig_name(int s)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {{SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"},
		{SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
		{SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGPIPE, "SIGPIPE"},
		{SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGUSR1, "SIGUSR1"},
		{SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == s)
			return names[i].name;
	return "signal";
}

/* Output is kept as text a C string can hold: each NUL byte and each
 * ill-formed sequence becomes U+FFFD, the bytes counted; the caller adds
 * the note. */
static void
to_text(struct buf *b, size_t *nul, size_t *bad)
{
	*nul = *bad = 0;
	if (!b->len || (!memchr(b->data, 0, b->len) && utf8_valid(b->data, b->len)))
		return;
	struct buf t = {0};
	for (size_t i = 0; i < b->len;) {
		uint32_t c;
		if (!b->data[i]) {
			(*nul)++;
			buf_puts(&t, UTF8_REPLACEMENT);
			i++;
			continue;
		}
		/* An ill-formed sequence is one U+FFFD, as utf8_sanitize makes it. */
		size_t l = utf8_next(b->data + i, b->len - i, &c);
		if (utf8_decode(b->data + i, l, &c)) {
			buf_add(&t, b->data + i, l);
		} else {
			*bad += l;
			buf_puts(&t, UTF8_REPLACEMENT);
		}
		i += l;
	}
	buf_free(b);
	*b = t;
}

static char *
finish_stream(struct buf *b, size_t dropped, size_t *n)
{
	size_t nul, bad;
	if (dropped) {
		/* A character cut at the cap goes whole. */
		size_t keep = utf8_trim(b->data, b->len);
		dropped += b->len - keep;
		b->len = keep;
	}
	to_text(b, &nul, &bad);
	const char *nl = b->len && b->data[b->len - 1] != '\n' ? "\n" : "";
	if (nul || bad) {
		buf_printf(b, "%s[... ", nl);
		if (nul)
			buf_printf(b, "%zu NUL byte%s", nul, nul == 1 ? "" : "s");
		if (bad)
			buf_printf(b, "%s%zu byte%s that %s not UTF-8", nul ? " and " : "", bad,
			    bad == 1 ? "" : "s", bad == 1 ? "is" : "are");
		buf_puts(b, " shown as U+FFFD]\n");
		nl = "";
	}
	if (dropped)
		buf_printf(b, "%s[... output truncated: %zu bytes dropped]\n", nl, dropped);
	buf_add(b, "", 0);
	*n = b->len;
	char *s = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

/* Seconds for people: "3600", "1.5", never an exponent. */
static void
fmt_secs(char *buf, size_t n, int64_t ms)
{
	int l = snprintf(buf, n, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
	if (l <= 0 || (size_t)l >= n)
		return;
	while (buf[l - 1] == '0')
		buf[--l] = 0;
	if (buf[l - 1] == '.')
		buf[--l] = 0;
}

static void
child_result(struct child *c, struct exec_result *r)
{
	memset(r, 0, sizeof *r);
	r->tag = c->tag;
	r->pid = c->pid;
	r->stopped = c->stopped;
	r->code = -1;
	if (c->done_how >= 0) {
		r->how = c->done_how;
		r->no_resources = c->no_resources;
		snprintf(r->why, sizeof r->why, "%s", c->why);
		r->out = xstrdup("");
		r->err = xstrdup("");
		return;
	}
	int held = c->fd_out >= 0 || c->fd_err >= 0;
	close_fd(&c->fd_out);
	close_fd(&c->fd_err);
	/* Whatever is left of its group (a grandchild that outlived it).  A
	 * group we signalled whole is not news (its members may still be
	 * dying); zombies waiting for init are not leftovers. */
	if (kill(-c->pid, 0) == 0) {
		r->leftovers = !c->term_at && !c->killed && proc_group_alive(c->pid);
		kill(-c->pid, SIGKILL);
	}
	r->duration_ms = c->exit_at - c->start;
	r->dropped_out = c->drop_out;
	r->dropped_err = c->drop_err;
	r->out = finish_stream(&c->out, c->drop_out, &r->nout);
	r->err = finish_stream(&c->err, c->drop_err, &r->nerr);
	if (WIFEXITED(c->status)) {
		r->how = EXEC_EXITED;
		r->code = WEXITSTATUS(c->status);
	} else if (WIFSIGNALED(c->status)) {
		r->how = EXEC_SIGNALED;
		r->code = WTERMSIG(c->status);
	}
	if (c->timed_out) {
		char secs[32];
		fmt_secs(secs, sizeof secs, c->deadline - c->start);
		r->how = EXEC_TIMEOUT;
		snprintf(r->why, sizeof r->why, "timed out after %s s; its process group got SIGTERM%s",
		    secs, c->killed ? " and, still running after the grace, SIGKILL" : "");
	} else if (r->how == EXEC_EXITED && r->code) {
		snprintf(r->why, sizeof r->why, "exited with status %d", r->code);
	} else if (r->how == EXEC_SIGNALED) {
		snprintf(r->why, sizeof r->why, "killed by signal %d (%s)", r->code, sig_name(r->code));
	}
	if (r->leftovers) {
		size_t l = strlen(r->why);
		snprintf(r->why + l, sizeof r->why - l, "%sprocesses it started outlived it%s and were killed",
		    l ? "; " : "", held ? " (holding its output open)" : "");
	}
}

static void
remove_child(struct exec_pool *p, size_t i)
{
	child_free(p->c[i]);
	memmove(p->c + i, p->c + i + 1, (p->n - i - 1) * sizeof *p->c);
	p->n--;
}

/* A finished child, if any: its result in r. */
static int
take_finished(struct exec_pool *p, int64_t now, struct exec_result *r)
{
	for (size_t i = 0; i < p->n; i++) {
		struct child *c = p->c[i];
		if (!c->exited && c->done_how < 0 && c->pidfd < 0)
			reap(c, 0);
		child_timers(c, now);
		if (child_finished(c, now)) {
			child_result(c, r);
			remove_child(p, i);
			return 1;
		}
	}
	return 0;
}

int
exec_pool_wait(struct exec_pool *p, int64_t timeout_ms, const int *fds, int nfds,
    struct exec_result *r)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX : mono_ms() + timeout_ms;
	size_t maxfd = 4 * p->n + (size_t)nfds + 1;
	struct pollfd *pf = xcalloc(maxfd, sizeof *pf);
	int ret = 0;
	for (;;) {
		int64_t now = mono_ms();
		if (take_finished(p, now, r)) {
			ret = 1;
			break;
		}
		if (now >= end)
			break;
		size_t n = 0;
		int64_t wake = end;
		int need_tick = 0;
		if (4 * p->n + (size_t)nfds + 1 > maxfd) {
			maxfd = 4 * p->n + (size_t)nfds + 1;
			pf = xrealloc(pf, maxfd * sizeof *pf);
		}
		for (size_t i = 0; i < p->n; i++) {
			struct child *c = p->c[i];
			int64_t t = child_timer(c);
			if (t < wake)
				wake = t;
			if (c->fd_in >= 0)
				pf[n++] = (struct pollfd){.fd = c->fd_in, .events = POLLOUT};
			if (c->fd_out >= 0)
				pf[n++] = (struct pollfd){.fd = c->fd_out, .events = POLLIN};
			if (c->fd_err >= 0)
				pf[n++] = (struct pollfd){.fd = c->fd_err, .events = POLLIN};
			if (!c->exited && c->pidfd >= 0)
				pf[n++] = (struct pollfd){.fd = c->pidfd, .events = POLLIN};
			else if (!c->exited)
				need_tick = 1;
		}
		for (int i = 0; i < nfds; i++)
			pf[n++] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		int64_t wait = wake - now;
		if (wait < 0)
			wait = 0;
		if (need_tick && wait > 10)
			wait = 10;
		if (wait > 60000)
			wait = 60000;
		int pr = poll(pf, n, (int)wait);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0)
			continue;
		/* Events are matched to children by fd: every fd appears once. */
		for (size_t k = 0; k < n; k++) {
			if (!pf[k].revents)
				continue;
			int fd = pf[k].fd;
			int extra = 0;
			for (int i = 0; i < nfds; i++)
				extra |= fds[i] == fd;
			if (extra) {
				ret = 0;
				goto out_check;
			}
			for (size_t i = 0; i < p->n; i++) {
				struct child *c = p->c[i];
				if (fd == c->fd_out)
					drain_fd(c, &c->fd_out, &c->out, &c->drop_out);
				else if (fd == c->fd_err)
					drain_fd(c, &c->fd_err, &c->err, &c->drop_err);
				else if (fd == c->fd_in)
					feed(c);
				else if (fd == c->pidfd)
					reap(c, 0);
				else
					continue;
				break;
			}
		}
		continue;
out_check:
		/* An outside fd is ready; still hand back a finished child first. */
		ret = take_finished(p, mono_ms(), r);
		break;
	}
	free(pf);
	return ret;
}

/* SIGTERM to c's group now, SIGKILL after its grace. */
static void
stop_child(struct child *c, int64_t now)
{
	c->stopped = 1;
	if (c->exited || c->pid <= 0 || c->term_at)
		return;
	c->term_at = now;
	c->kill_at = now + c->grace;
	signal_group(c, SIGTERM);
}

void
exec_pool_stop_tag(struct exec_pool *p, void *tag)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i]->tag == tag)
			stop_child(p->c[i], mono_ms());
}

void
exec_pool_stop_within(struct exec_pool *p, int64_t grace_ms)
{
	int64_t now = mono_ms();
	for (size_t i = 0; i < p->n; i++) {
		struct child *c = p->c[i];
		stop_child(c, now);
		/* Sooner than its grace when asked (partition fencing). */
		if (!c->exited && c->pid > 0 && c->kill_at - now > grace_ms)
			c->kill_at = now + grace_ms;
	}
}

void
exec_pool_stop(struct exec_pool *p)
{
	exec_pool_stop_within(p, INT64_MAX);
}

void
exec_pool_free(struct exec_pool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		struct child *c = p->c[i];
		if (c->pid > 0) {
			signal_group(c, SIGKILL);
			reap(c, 1);
		}
		child_free(c);
	}
	free(p->c);
	free(p);
}

void
exec_result_free(struct exec_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void
exec_run(const struct exec_cmd *c, struct exec_result *r)
{
	struct exec_pool *p = exec_pool_new();
	exec_pool_start(p, c, NULL);
	while (!exec_pool_wait(p, -1, NULL, 0, r))
		;
	exec_pool_free(p);
}
