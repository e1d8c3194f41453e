/* oneline.h: text made one short line, for a task's last result and
 * error and a run's outcome summary: blanks collapsed to one space, the
 * ends trimmed, cut on a character boundary. */
#ifndef AC_ONELINE_H
#define AC_ONELINE_H

#include <stddef.h>

enum {
	ONELINE_CONTROLS = 1,    /* every C0, DEL and C1 control is a blank, not only space, tab, CR, LF */
	ONELINE_ELLIPSIS = 2,    /* a line that was cut ends in "..." */
};

/* s (valid UTF-8 for a cut between whole characters) as one line of at
 * most max bytes (and the ellipsis); malloc'd, NULL when nothing is left. */
char *oneline(const char *s, size_t max, unsigned how);

#endif
