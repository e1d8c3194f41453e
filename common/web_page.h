/* web_page.h: task-web's pages and their static files. */
#ifndef AC_WEB_PAGE_H
#define AC_WEB_PAGE_H

#include "web_http.h"

int web_page(struct web *w, const struct web_req *rq, const struct web_who *who,
    struct web_resp *rs);                                      /* 0: no such route */

#endif
