/* web_listen.c: where task-web listens (web.h): a TCP address or a Unix
 * socket, and whether it stays on this machine. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "web.h"

static int
is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr);
	return 0;
}

int
web_listen_tcp(const char *spec, struct web_listener *w, struct err *e)
{
	char host[256];
	const char *colon = strrchr(spec, ':');
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !colon[1])
		return err_set(e, ST_INVALID, "bad --listen '%s': give ADDRESS:PORT, as 127.0.0.1:8642",
		    spec);
	memcpy(host, spec, (size_t)(colon - spec));
	host[colon - spec] = 0;
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof host, "127.0.0.1");
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE}, *ai;
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535)
		return err_set(e, ST_INVALID, "bad --listen '%s': the port is 0 to 65535", spec);
	if (getaddrinfo(host, colon + 1, &hints, &ai) != 0)
		return err_set(e, ST_INVALID, "bad --listen '%s': '%s' is not a numeric address", spec, host);
	w->loopback = is_loopback(ai->ai_addr);
	w->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1, rc = ST_OK;
	if (w->fd < 0 || setsockopt(w->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    bind(w->fd, ai->ai_addr, ai->ai_addrlen) || listen(w->fd, 64))
		rc = err_set(e, ST_ERR, "cannot listen on %s: %s", spec, strerror(errno));
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char text[INET6_ADDRSTRLEN];
	if (!rc && getsockname(w->fd, (struct sockaddr *)&ss, &sl) == 0) {
		int v6 = ss.ss_family == AF_INET6;
		const void *a = v6 ? (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
		    : (const void *)&((struct sockaddr_in *)&ss)->sin_addr;
		unsigned p = ntohs(v6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
		    : ((struct sockaddr_in *)&ss)->sin_port);
		inet_ntop(ss.ss_family, a, text, sizeof text);
		snprintf(w->url, sizeof w->url, v6 ? "http://[%s]:%u" : "http://%s:%u", text, p);
	}
	freeaddrinfo(ai);
	return rc;
}

int
web_listen_unix(const char *path, struct web_listener *w, struct err *e)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	size_t n = strlen(path);
	if (n >= sizeof sun.sun_path)
		return err_set(e, ST_INVALID, "--socket '%s': the path is too long", path);
	memcpy(sun.sun_path, path, n + 1);
	struct stat sb;
	/* A socket left by an earlier run is replaced; anything else is not. */
	if (lstat(path, &sb) == 0 && S_ISSOCK(sb.st_mode))
		unlink(path);
	w->loopback = 1;
	w->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	mode_t old = umask(0177);
	int rc = ST_OK;
	if (w->fd < 0 || bind(w->fd, (struct sockaddr *)&sun, sizeof sun) || listen(w->fd, 64))
		rc = err_set(e, ST_ERR, "cannot listen on %s: %s", path, strerror(errno));
	umask(old);
	snprintf(w->url, sizeof w->url, "unix:%s", path);
	return rc;
}
