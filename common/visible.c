/* Control characters made visible on a terminal (visible.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "visible.h"

void
visible_put(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		/* Bold and back, the tables' headings (table.c): harmless from
		 * anyone, so they pass. */
		if (c == 0x1b && n - i >= 4 && (memcmp(s + i, "\033[1m", 4) == 0 ||
		    memcmp(s + i, "\033[0m", 4) == 0)) {
			fwrite(s + i, 1, 4, f);
			i += 3;
			continue;
		}
		if (c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f && c != 0xc2)) {
			putc(c, f);
		} else if (c == 0x7f) {
			fputs("^?", f);
		} else if (c < 0x20) {
			putc('^', f);
			putc(c + 64, f);
		} else if (i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f) {
			/* U+0080..U+009F, the C1 controls (CSI, OSC ...), in UTF-8. */
			fputs("M-^", f);
			putc((unsigned char)s[++i] - 0x80 + 64, f);
		} else {
			putc(c, f);
		}
	}
}

int
visible_start(struct visible *v)
{
	v->real = NULL;
	v->buf = NULL;
	v->len = 0;
	if (!isatty(STDOUT_FILENO))
		return 0;
	FILE *mem = open_memstream(&v->buf, &v->len);
	if (!mem)
		return -1;
	fflush(stdout);
	v->real = stdout;
	/* glibc's stdout is a plain variable, which may be set. */
	stdout = mem;
	return 0;
}

int
visible_finish(struct visible *v)
{
	if (!v->real)
		return 0;
	int bad = fclose(stdout) != 0;
	stdout = v->real;
	v->real = NULL;
	if (!bad)
		visible_put(stdout, v->buf, v->len);
	free(v->buf);
	v->buf = NULL;
	return bad || fflush(stdout) != 0 ? -1 : 0;
}
