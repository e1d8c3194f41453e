/* notify-wait: the receiving side of systemd's notification protocol, for
 * tests that must know when a daemon is ready instead of sleeping.
 *
 *   notify-wait [-t SECONDS] [-s SOCKET] [-r FD] [-l LOG] COMMAND [ARG...]
 *
 * Binds an AF_UNIX datagram socket (SOCKET: a path, or an abstract name
 * with a leading '@'; default @notify-wait.PID), runs COMMAND with
 * NOTIFY_SOCKET naming it, and writes each assignment COMMAND sends to LOG,
 * one a line.  When READY=1 arrives it writes "READY=1\n" to FD and closes
 * it; if COMMAND exits first, or SECONDS (default 30) pass, it says so on
 * stderr and closes FD with nothing written.  As systemd does by default
 * (NotifyAccess=main), only COMMAND itself is heard: a message from any
 * other process is reported on stderr.  SIGTERM, SIGINT and SIGHUP are
 * passed on to COMMAND, and notify-wait ends as COMMAND did (its exit
 * status, or its signal), so a shell can stop and wait for it in COMMAND's
 * place. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char prog[] = "notify-wait";

static long long
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
bind_socket(const char *name)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	int one = 1;
	if ((name[0] != '/' && name[0] != '@') || n < 2 || n > sizeof sa.sun_path - 1) {
		fprintf(stderr, "%s: bad socket name '%s': a path or @name\n", prog, name);
		return -1;
	}
	memcpy(sa.sun_path, name, n);
	if (name[0] == '@')
		sa.sun_path[0] = 0;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) ||
	    bind(fd, (struct sockaddr *)&sa,
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (name[0] == '/')))) {
		fprintf(stderr, "%s: cannot bind '%s': %s\n", prog, name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Reads every waiting datagram; returns 1 once READY=1 came from child. */
static int
take_messages(int fd, pid_t child, FILE *log)
{
	int ready = 0;
	for (;;) {
		char data[4096];
		union {
			struct cmsghdr h;
			char space[CMSG_SPACE(sizeof(struct ucred))];
		} ctl;
		struct iovec iov = {data, sizeof data - 1};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = &ctl,
		    .msg_controllen = sizeof ctl};
		ssize_t n = recvmsg(fd, &m, MSG_DONTWAIT);
		if (n < 0)
			return ready;
		data[n] = 0;
		pid_t from = 0;
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cred;
			memcpy(&cred, CMSG_DATA(c), sizeof cred);
			from = cred.pid;
		}
		if (from != child) {
			fprintf(stderr, "%s: ignored a message from pid %ld, not the command's %ld: %s\n",
			    prog, (long)from, (long)child, data);
			continue;
		}
		for (char *line = strtok(data, "\n"); line; line = strtok(NULL, "\n")) {
			if (log) {
				fprintf(log, "%s\n", line);
				fflush(log);
			}
			if (strcmp(line, "READY=1") == 0)
				ready = 1;
		}
	}
}

/* Pass signals on to the child and its states to the log, and READY=1 to
 * rfd (else say why not within timeout seconds), until it ends: 1 with its
 * wait status, or 0 when poll failed. */
static int
supervise(int sock, int sfd, pid_t child, int rfd, long timeout, FILE *log, const char *cmd,
    int *status)
{
	long long deadline = mono_ms() + timeout * 1000;
	int exited = 0;
	while (!exited) {
		struct pollfd p[2] = {{sock, POLLIN, 0}, {sfd, POLLIN, 0}};
		long long left = rfd >= 0 ? deadline - mono_ms() : -1;
		if (rfd >= 0 && left <= 0) {
			fprintf(stderr, "%s: no READY=1 from '%s' within %ld s\n", prog, cmd, timeout);
			close(rfd);
			rfd = -1;
			continue;
		}
		if (poll(p, 2, left < 0 ? -1 : (int)left) < 0 && errno != EINTR) {
			fprintf(stderr, "%s: poll: %s\n", prog, strerror(errno));
			break;
		}
		if (p[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
				if (si.ssi_signo != SIGCHLD)
					kill(child, (int)si.ssi_signo);
			}
			if (waitpid(child, status, WNOHANG) == child)
				exited = 1;
		}
		/* After the child ended too: what it sent last is still queued. */
		if (take_messages(sock, child, log) && rfd >= 0) {
			if (write(rfd, "READY=1\n", 8) != 8)
				fprintf(stderr, "%s: cannot report ready: %s\n", prog, strerror(errno));
			close(rfd);
			rfd = -1;
		}
	}
	if (rfd >= 0) {
		fprintf(stderr, "%s: '%s' ended before it sent READY=1\n", prog, cmd);
		close(rfd);
	}
	return exited;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-t SECONDS] [-s SOCKET] [-r FD] [-l LOG] COMMAND [ARG...]\n", prog);
	exit(2);
}

int
main(int argc, char **argv)
{
	long timeout = 30;
	int rfd = -1, c;
	char name[108], *end;
	FILE *log = NULL;
	snprintf(name, sizeof name, "@%s.%ld", prog, (long)getpid());
	while ((c = getopt(argc, argv, "+t:s:r:l:")) != -1) {
		switch (c) {
		case 't':
			timeout = strtol(optarg, &end, 10);
			if (*end || timeout <= 0)
				usage();
			break;
		case 's': snprintf(name, sizeof name, "%s", optarg); break;
		case 'r':
			rfd = (int)strtol(optarg, &end, 10);
			if (*end || rfd < 0 || fcntl(rfd, F_SETFD, FD_CLOEXEC) < 0)
				usage();
			break;
		case 'l':
			if (!(log = fopen(optarg, "w"))) {
				fprintf(stderr, "%s: %s: %s\n", prog, optarg, strerror(errno));
				return 1;
			}
			break;
		default: usage();
		}
	}
	if (optind == argc)
		usage();
	if (log)
		fcntl(fileno(log), F_SETFD, FD_CLOEXEC);
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGCHLD);
	int sock = bind_socket(name), sfd = -1;
	if (sock < 0)
		return 1;
	if (sigprocmask(SIG_BLOCK, &sigs, NULL) || (sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK)) < 0 ||
	    setenv("NOTIFY_SOCKET", name, 1)) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return 1;
	}
	pid_t child = fork();
	if (child < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return 1;
	}
	if (child == 0) {
		sigprocmask(SIG_UNBLOCK, &sigs, NULL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "%s: cannot run '%s': %s\n", prog, argv[optind], strerror(errno));
		_exit(127);
	}
	int status = 0, exited = supervise(sock, sfd, child, rfd, timeout, log, argv[optind], &status);
	if (name[0] == '/')
		unlink(name);
	if (log)
		fclose(log);
	if (!exited)
		return 1;
	if (WIFSIGNALED(status)) {
		/* End as the command did, so the shell sees 128 + its signal. */
		signal(WTERMSIG(status), SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &sigs, NULL);
		raise(WTERMSIG(status));
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
