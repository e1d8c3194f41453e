/* mcp-bench: the round trip of one tools/call through an MCP server, as a
 * client sees it: write the request, wait for the reply line.
 *
 * usage: mcp-bench N TOOL ARGS-JSON COMMAND [ARG...]
 *
 * Starts COMMAND, initializes, makes 50 warm-up calls, then N timed ones,
 * and prints "median MS p90 MS p99 MS max MS" in milliseconds.  Exit 1 if
 * any reply is missing or an error. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Write msg and read one reply line into *reply; -1 on failure. */
static int
round_trip(int in, int out, const char *msg, struct buf *pending, struct buf *reply)
{
	size_t n = strlen(msg);
	for (size_t off = 0; off < n;) {
		ssize_t w = write(in, msg + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		off += (size_t)w;
	}
	for (;;) {
		char *nl = pending->len ? memchr(pending->data, '\n', pending->len) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - pending->data);
			reply->len = 0;
			buf_add(reply, pending->data, len);
			memmove(pending->data, nl + 1, pending->len - len - 1);
			pending->len -= len + 1;
			return 0;
		}
		char tmp[65536];
		ssize_t r = read(out, tmp, sizeof tmp);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		buf_add(pending, tmp, (size_t)r);
	}
}

int
main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: mcp-bench N TOOL ARGS-JSON COMMAND [ARG...]\n");
		return 2;
	}
	long n = atol(argv[1]);
	int to[2], from[2];
	if (n < 1 || pipe(to) || pipe(from))
		return 2;
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execvp(argv[4], argv + 4);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	struct buf pending = {0}, reply = {0};
	double *t = xcalloc((size_t)n, sizeof *t);
	int status = 0;
	if (round_trip(to[1], from[0], "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
	    "\"clientInfo\":{\"name\":\"mcp-bench\",\"version\":\"1\"}}}\n", &pending, &reply)) {
		fprintf(stderr, "mcp-bench: no reply to initialize\n");
		return 1;
	}
	for (long i = -50; i < n; i++) {
		char *msg = xasprintf("{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"tools/call\","
		    "\"params\":{\"name\":\"%s\",\"arguments\":%s}}\n", i + 100, argv[2], argv[3]);
		double t0 = now_ms();
		int rc = round_trip(to[1], from[0], msg, &pending, &reply);
		double t1 = now_ms();
		free(msg);
		if (rc || !strstr(reply.data, "\"isError\":false")) {
			fprintf(stderr, "mcp-bench: bad reply: %.300s\n", rc ? "(none)" : reply.data);
			status = 1;
			break;
		}
		if (i >= 0)
			t[i] = t1 - t0;
	}
	close(to[1]);
	waitpid(pid, NULL, 0);
	if (!status) {
		qsort(t, (size_t)n, sizeof *t, cmp_double);
		printf("median %.3f p90 %.3f p99 %.3f max %.3f\n", t[n / 2], t[n * 9 / 10],
		    t[n * 99 / 100], t[n - 1]);
	}
	free(t);
	buf_free(&pending);
	buf_free(&reply);
	return status;
}
