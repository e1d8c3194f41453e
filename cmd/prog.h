/* prog.h: the edges every program shares, written once.  A usage error is
 * one line that points at --help; main's one way out makes sure the output
 * was written: data that never reached its reader (a full disk, a closed
 * descriptor) is a failure, not a success.  Here rather than in common/,
 * which never prints. */
#ifndef AC_PROG_H
#define AC_PROG_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "err_line.h"
#include "util.h"

#define PROG_OUT_BUF (1 << 16) /* stdout's buffer when it is no terminal */

/* "PROG: MESSAGE (try 'PROG --help')" on stderr, one line of valid UTF-8
 * whatever the words it quotes hold; returns ST_INVALID. */
static inline int __attribute__((format(printf, 2, 3)))
usage_error(const char *prog, const char *fmt, ...)
{
	struct err e;
	va_list ap;
	va_start(ap, fmt);
	err_vline(&e, ST_INVALID, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s (try '%s --help')\n", prog, e.msg, prog);
	return ST_INVALID;
}

/* What every program does first with the configuration file: a key that
 * nothing reads is said once (a misspelt `modle` would otherwise be
 * ignored without a word), and its `tz` becomes the local zone.  A file
 * that cannot be used is left to the parts that read it to report.
 * keep, when not NULL, receives the file as read (NULL when it could not
 * be), for a program that would read it again at once. */
static inline int
prog_start_keep(const char *prog, struct config **keep)
{
	struct config *cf;
	struct err e;
	size_t pos = 0;
	const char *k;
	/* Output to a file or pipe in one piece while it fits, so a write that
	 * fails does so at the flush prog_end makes, which can say why.  The
	 * buffer stays stdout's until exit (glibc ignores a size without one). */
	char *buf = isatty(STDOUT_FILENO) ? NULL : malloc(PROG_OUT_BUF);
	if (buf && setvbuf(stdout, buf, _IOFBF, PROG_OUT_BUF) != 0)
		free(buf);
	if (keep)
		*keep = NULL;
	if (config_load(&cf, &e) != ST_OK)
		return ST_OK;
	while ((k = config_unknown(cf, &pos)))
		fprintf(stderr, "%s: warning: unknown key '%s' in %s (ignored; see agentcron-config(5))\n",
		    prog, k, config_path(cf));
	int rc = config_tz(cf, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	if (keep && !rc)
		*keep = cf;
	else
		config_free(cf);
	return rc;
}

static inline int
prog_start(const char *prog)
{
	return prog_start_keep(prog, NULL);
}

/* main's return: rc, unless the program succeeded but its standard output
 * was lost, which is one line and ST_ERR.  A program that failed has said
 * why already, and its status says it failed. */
static inline int
prog_end(const char *prog, int rc)
{
	errno = 0;
	int flushed = fflush(stdout) == 0;
	if ((flushed && !ferror(stdout)) || rc)
		return rc;
	/* The reason is gone when an earlier flush met it. */
	if (!flushed && errno)
		fprintf(stderr, "%s: cannot write standard output: %s\n", prog, strerror(errno));
	else
		fprintf(stderr, "%s: cannot write standard output\n", prog);
	return ST_ERR;
}

#endif
