/* visible.h: what a program prints to a terminal, with its control
 * characters shown as cat -v shows them (ESC as ^[, C1 controls as M-^X),
 * so a name, prompt or answer cannot move the cursor, set the title or the
 * clipboard (OSC 52) of the user's terminal.  Pipes and files get the
 * exact text. */
#ifndef AC_VISIBLE_H
#define AC_VISIBLE_H

#include <stddef.h>
#include <stdio.h>

struct visible {
	FILE *real;                 /* the terminal's stream, while collecting */
	char *buf;
	size_t len;
};

/* visible.c */
/* When standard output is a terminal, collect what is printed to it from
 * here (stdout then writes to memory); otherwise nothing.  -1: no memory. */
int visible_start(struct visible *v);
/* Standard output back, and what was collected written to it, visibly.
 * -1 when it could not be written (errno set). */
int visible_finish(struct visible *v);
/* s (n bytes of UTF-8) to f with its control characters made visible;
 * newline and tab are kept. */
void visible_put(FILE *f, const char *s, size_t n);

#endif
