/* task-web's pages (web_page.h): the router from a path to its page, each
 * in its own file (web_pages.h), and the static files (web_layout.c).
 * HTML the server writes; charts are SVG drawn here; every form carries
 * the session's CSRF token. */
#include <string.h>

#include "web_layout.h"
#include "web_page.h"
#include "web_pages.h"

int
web_page(struct web *w, const struct web_req *rq, const struct web_who *who, struct web_resp *rs)
{
	const char *p = rq->path;
	if (web_static(p, rs))
		return 1;
	if (strcmp(p, "/") == 0)
		return web_overview(w, rs);
	if (strcmp(p, "/tasks") == 0)
		return web_tasks_page(w, rq, who, rs);
	if (strcmp(p, "/timeline") == 0)
		return web_timeline(w, rs);
	if (strncmp(p, "/tasks/", 7) == 0 && p[7] && !strchr(p + 7, '/'))
		return web_task_page(w, rq, p + 7, who, rs);
	if (strncmp(p, "/runs/", 6) == 0 && p[6] && !strchr(p + 6, '/'))
		return web_run_page(w, p + 6, who, rs);
	return 0;
}
