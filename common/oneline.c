/* Text made one short line (oneline.h). */
#include <stdlib.h>

#include "oneline.h"
#include "utf8.h"
#include "util.h"

char *
oneline(const char *s, size_t max, unsigned how)
{
	struct buf b = {0};
	int space = 0;
	/* A character's worth past max, to cut between whole characters. */
	for (const char *p = s; *p && b.len < max + 4; p++) {
		unsigned char c = (unsigned char)*p;
		int blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
		if (how & ONELINE_CONTROLS) {
			/* C0 controls, DEL and the C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F). */
			blank = blank || c < 0x20 || c == 0x7f;
			if (c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f) {
				blank = 1;
				p++;
			}
		}
		if (blank) {
			space = b.len > 0;
			continue;
		}
		if (space)
			buf_add(&b, " ", 1);
		space = 0;
		buf_add(&b, p, 1);
	}
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	if (b.len > max) {
		b.len = (size_t)utf8_cut(b.data, max);
		b.data[b.len] = 0;
		if (how & ONELINE_ELLIPSIS)
			buf_puts(&b, "...");
	}
	return b.data;
}
