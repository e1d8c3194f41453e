/* stopsig.c: stop signals through a signalfd (stopsig.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "stopsig.h"

int
stopsig_catch(int *sfd, struct err *e)
{
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &stop, NULL) ||
	    (*sfd = signalfd(-1, &stop, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
		return err_set(e, ST_ERR, "cannot catch signals: %s", strerror(errno));
	return ST_OK;
}

int
stopsig_take(int sfd)
{
	struct signalfd_siginfo si;
	int sig = 0;
	while (sfd >= 0 && read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
		sig = (int)si.ssi_signo;
	return sig;
}
