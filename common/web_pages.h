/* web_pages.h: task-web's pages, one file each, for web_page.c's router;
 * each answers rs (an error page too) and returns 1. */
#ifndef AC_WEB_PAGES_H
#define AC_WEB_PAGES_H

#include "web_http.h"

int web_overview(struct web *w, struct web_resp *rs);
int web_tasks_page(struct web *w, const struct web_req *rq, const struct web_who *who,
    struct web_resp *rs);
int web_task_page(struct web *w, const struct web_req *rq, const char *arg, const struct web_who *who,
    struct web_resp *rs);
int web_run_page(struct web *w, const char *arg, const struct web_who *who, struct web_resp *rs);
int web_timeline(struct web *w, struct web_resp *rs);

#endif
