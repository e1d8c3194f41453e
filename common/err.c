/* err.c: err_set (util.h), apart from util.c: a message is made valid
 * UTF-8 by utf8.c, which itself stands on util.c's buffers. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"
#include "util.h"

int
err_set(struct err *e, int status, const char *fmt, ...)
{
	if (!e)
		return status;
	/* Room past the message, so a cut can see the character it splits. */
	char raw[ERR_MAX + 4];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	size_t n = (size_t)utf8_cut(raw, ERR_MAX - 1), o = 0;
	for (size_t i = 0; i < n;) {
		uint32_t c;
		size_t l = utf8_decode(raw + i, n - i, &c);
		const char *s = l ? raw + i : UTF8_REPLACEMENT;
		size_t sl = l ? l : sizeof UTF8_REPLACEMENT - 1;
		if (l && (c < 0x20 || c == 0x7f)) {
			s = isspace((int)c) ? " " : "?"; /* one line, no terminal controls */
			sl = 1;
		}
		if (o + sl >= sizeof e->msg)
			break;
		memcpy(e->msg + o, s, sl);
		o += sl;
		i += l ? l : 1;
	}
	e->msg[o] = 0;
	return status;
}
