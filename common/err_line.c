/* A caller's format and arguments as one error line (err_line.h). */
#include <stdarg.h>
#include <stdio.h>

#include "err_line.h"

int
err_vline(struct err *e, int status, const char *fmt, va_list ap)
{
	char raw[ERR_MAX];
	vsnprintf(raw, sizeof raw, fmt, ap);
	return err_set(e, status, "%s", raw);
}
