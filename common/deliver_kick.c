/* deliver_kick.c: starting task-deliver from task-tick (deliver_kick.h). */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "deliver_kick.h"
#include "exec.h"
#include "store.h"
#include "store_deliver.h"

int
deliver_kick(struct store *st, const struct config *cf, int ended, int64_t now, const char *dir,
    int *ran, char **said, struct err *e)
{
	*ran = 0;
	*said = NULL;
	int due = 0, targets = 0;
	const char *dflt = cf ? config_get(cf, "deliver") : NULL;
	int rc = store_deliver_work(st, now, &due, &targets, e);
	if (rc)
		return rc;
	if (!due && !(ended && (targets || (dflt && !str_empty(dflt)))))
		return ST_OK;
	char *argv[] = {"task-deliver", NULL};
	struct exec_cmd c = {.argv = argv, .search_dir = dir, .timeout_ms = DELIVER_KICK_MS,
		.cap = 64 * 1024};
	struct exec_result r;
	exec_run(&c, &r);
	*ran = 1;
	if (r.how == EXEC_NOTFOUND || r.how == EXEC_STARTFAIL)
		rc = err_set(e, ST_ERR, "cannot deliver answers: %s", r.why);
	else if (r.nerr)
		*said = xstrdup(r.err);
	exec_result_free(&r);
	return rc;
}
