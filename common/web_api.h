/* web_api.h: task-web's JSON API (GET /api/...) and its actions (the POSTs). */
#ifndef AC_WEB_API_H
#define AC_WEB_API_H

#include "web_http.h"

int web_api_get(struct web *w, const struct web_req *rq, const struct web_who *who,
    struct web_resp *rs);                                      /* 0: no such route */
int web_action(struct web *w, const struct web_req *rq, const struct web_who *who,
    const struct web_kv *form, size_t nform, struct web_resp *rs); /* 0: no such route */

/* ?status=LIST and ?scope= of a listing into f; -1 on a bad status. */
int web_task_filter(const struct web_req *rq, struct task_filter *f);

#endif
