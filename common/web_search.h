/* task-web's search for a text too short for an index: a bounded walk of
 * the tasks in next-run order, and the link that goes on from where it
 * stopped (the tasks page's "Continue the search", the API's Link header). */
#ifndef WEB_SEARCH_H
#define WEB_SEARCH_H

#include "util.h"
#include "store_web.h"
#include "web_http.h"

/* 1 when text (not NULL) is under three characters: no trigram to look up. */
int web_search_short(const char *text);

/* ?after=KEY.SEQ, from a link that goes on; absent: the start.  0 when bad. */
int web_search_after(const struct web_req *rq, struct web_keyset *from);

/* Appends path?q=TEXT&K=V...&after=KEY.SEQ to b: the query's values of the
 * keys named in keep (NULL-ended) carried over, percent-encoded, joined by
 * sep ("&amp;" inside HTML, "&" in a header). */
void web_search_next(struct buf *b, const char *path, const struct web_req *rq,
    const char *text, const char *const keep[], const char *sep, struct web_keyset next);

/* Appends path and the request's query as it came (percent-encoded), for
 * a form to come back to the page it was on. */
void web_search_here(struct buf *b, const char *path, const struct web_req *rq);

#endif
