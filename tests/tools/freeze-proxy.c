/* freeze-proxy: a Unix-socket proxy for tests of partitions.  Connections
 * to LISTEN are passed on to UPSTREAM, byte for byte, both ways, until
 * SIGUSR1 freezes it: then nothing moves (neither side's bytes are read,
 * no new connection is taken) while every connection stays open, as a
 * network that stops carrying packets does; SIGUSR2 thaws it, and what
 * waited moves on.  SIGTERM ends it.
 *
 *   freeze-proxy [-t MAX] LISTEN UPSTREAM
 *
 * Starts in the background and prints its pid once it listens; exits
 * after MAX seconds in all (default 300), so a test can never leave it
 * behind. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_PAIRS 128

static volatile sig_atomic_t frozen, ended;

static void
on_signal(int sig)
{
	if (sig == SIGUSR1)
		frozen = 1;
	else if (sig == SIGUSR2)
		frozen = 0;
	else
		ended = 1;
}

static int
unix_addr(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof a->sun_path)
		return -1;
	strcpy(a->sun_path, path);
	return 0;
}

/* Everything of n bytes written to fd; -1 if the peer is gone. */
static int
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	long max = 300;
	int c;
	while ((c = getopt(argc, argv, "t:")) != -1) {
		if (c != 't') {
			fprintf(stderr, "usage: freeze-proxy [-t MAX] LISTEN UPSTREAM\n");
			return 2;
		}
		max = strtol(optarg, NULL, 10);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: freeze-proxy [-t MAX] LISTEN UPSTREAM\n");
		return 2;
	}
	const char *listen_path = argv[optind], *up_path = argv[optind + 1];
	struct sockaddr_un la, ua;
	if (unix_addr(listen_path, &la) || unix_addr(up_path, &ua)) {
		fprintf(stderr, "freeze-proxy: a socket path is too long\n");
		return 2;
	}
	unlink(listen_path);
	int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&la, sizeof la) || listen(ls, 64)) {
		fprintf(stderr, "freeze-proxy: cannot listen on %s: %s\n", listen_path, strerror(errno));
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0) {
		printf("%d\n", (int)pid);
		return 0;
	}
	setsid();
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(null, 1);
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	int fd[MAX_PAIRS][2], n = 0;
	time_t start = time(NULL);
	static char buf[65536];
	while (!ended && time(NULL) - start <= max) {
		if (frozen) {
			poll(NULL, 0, 1000);
			continue;
		}
		struct pollfd p[2 * MAX_PAIRS + 1];
		for (int i = 0; i < n; i++) {
			p[2 * i] = (struct pollfd){.fd = fd[i][0], .events = POLLIN};
			p[2 * i + 1] = (struct pollfd){.fd = fd[i][1], .events = POLLIN};
		}
		p[2 * n] = (struct pollfd){.fd = ls, .events = POLLIN};
		if (poll(p, (nfds_t)(2 * n + 1), 1000) <= 0 || frozen)
			continue;
		for (int i = 0; i < n; i++) {
			int gone = 0;
			for (int side = 0; side < 2 && !gone; side++) {
				if (!p[2 * i + side].revents)
					continue;
				ssize_t r = read(fd[i][side], buf, sizeof buf);
				gone = r <= 0 || write_all(fd[i][!side], buf, (size_t)r) < 0;
			}
			if (gone) {
				close(fd[i][0]);
				close(fd[i][1]);
				fd[i][0] = -1;
			}
		}
		int k = 0;
		for (int i = 0; i < n; i++)
			if (fd[i][0] >= 0) {
				fd[k][0] = fd[i][0];
				fd[k][1] = fd[i][1];
				k++;
			}
		n = k;
		int cfd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0)
			continue;
		int ufd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (n == MAX_PAIRS || ufd < 0 || connect(ufd, (struct sockaddr *)&ua, sizeof ua)) {
			close(cfd);
			if (ufd >= 0)
				close(ufd);
			continue;
		}
		fd[n][0] = cfd;
		fd[n][1] = ufd;
		n++;
	}
	unlink(listen_path);
	return 0;
}
