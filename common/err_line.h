/* err_line.h: a message in a caller's own printf words, made one line as
 * err_set makes it: for the functions that take a format and hand it on
 * (web_error's HTTP answer, usage_error's line on stderr). */
#ifndef AC_ERR_LINE_H
#define AC_ERR_LINE_H

#include <stdarg.h>

#include "util.h"

/* err_line.c */
/* fmt and ap into e, one line of valid UTF-8 (err_set), cut first to
 * ERR_MAX - 1 bytes; returns status. */
int err_vline(struct err *e, int status, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
