/* audit_view.h: the wording of an audit entry's change, one for task-log
 * --audit and task-web's trail of a task. */
#ifndef AC_AUDIT_VIEW_H
#define AC_AUDIT_VIEW_H

#include "store_audit.h"
#include "util.h"

/* What a changed into b: a task's name when it was made or removed
 * (name "NAME"), else each field, "field: before ARROW after" when both
 * sides are there, fields apart by sep.  esc writes each piece of the
 * entry's own text as the output needs it (NULL: as it is). */
void audit_change_words(const struct audit_entry *a, struct buf *b,
    void (*esc)(struct buf *b, const char *s), const char *sep, const char *arrow);

#endif
