/* web_hook.h: task-web's HTTP triggers, POST /hooks/TASK. */
#ifndef AC_WEB_HOOK_H
#define AC_WEB_HOOK_H

#include "web_http.h"

/* A new trigger token (secret 0) or HMAC secret (secret 1) for task id:
 * into out[65], shown once; a token's hash, a secret itself, is stored. */
int web_trigger_new(struct store *st, const char *id, int secret, int64_t now, char out[65],
    struct err *e);
void web_hook(struct web *w, const struct web_req *rq, struct web_resp *rs);

#endif
