/* web_layout.h: what task-web's pages share (web_layout.c). */
#ifndef AC_WEB_LAYOUT_H
#define AC_WEB_LAYOUT_H

#include "web_http.h"

/* A page's head, its title escaped; poll: it refreshes itself while shown. */
void web_head(struct buf *b, const char *title, int poll);
/* A page's last step, after it gathered its facts with status rc: b ended
 * and made rs's body (status 200 unless set), or, when rc failed, b freed
 * and e's message answered 503.  Returns 1, the page answered. */
int web_page_finish(struct web_resp *rs, struct buf *b, int rc, const struct err *e);
void web_login_page(struct web_resp *rs, int status, const char *why);
/* The session's CSRF token as a hidden field (nothing for a bearer token). */
void web_csrf_field(struct buf *b, const struct web_who *who);
/* A one-button form for an action, or nothing for a reader. */
void web_button(struct buf *b, const struct web_who *who, const char *path, const char *label,
    const char *confirm, int with_reason);
/* A table cell of when, in t's zone (UTC without t), marked for the script. */
void web_time_cell(struct buf *b, struct web *w, const struct task *t, int64_t when);
/* Bars, oldest on the left: v[0..n) is newest first. */
void web_bars(struct buf *b, const double *v, const int *bad, int n, const char *label,
    const char *top);
/* The stylesheet, the script and the icon into rs; 0: p is none of them. */
int web_static(const char *p, struct web_resp *rs);

#endif
