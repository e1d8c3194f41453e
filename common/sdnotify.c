/* sdnotify.c: the sending side of systemd's notification protocol: one
 * datagram of newline-separated assignments (READY=1, STOPPING=1) to the
 * AF_UNIX socket that $NOTIFY_SOCKET names, a path, or an abstract name
 * written with a leading '@'.  A program not started by a service manager
 * has no NOTIFY_SOCKET, and then there is nothing to do. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"

int
sdnotify(const char *state, struct err *e)
{
	const char *name = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!name || !*name)
		return ST_OK;
	size_t n = strlen(name);
	if ((name[0] != '/' && name[0] != '@') || n < 2 || n > sizeof sa.sun_path - 1)
		return err_set(e, ST_INVALID,
		    "NOTIFY_SOCKET is neither an absolute socket path nor an @abstract name");
	memcpy(sa.sun_path, name, n);
	/* An abstract name starts with a NUL byte and has no terminating one:
	 * its length is part of the address, as sd_notify(3) computes it. */
	if (name[0] == '@')
		sa.sun_path[0] = 0;
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (name[0] == '/'));
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err_set(e, ST_ERR, "cannot notify the service manager: %s", strerror(errno));
	ssize_t w = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	int saved = errno;
	close(fd);
	if (w < 0)
		return err_set(e, ST_ERR, "cannot notify the service manager at NOTIFY_SOCKET: %s",
		    strerror(saved));
	return ST_OK;
}
