/* Where a task an agent made delivers, as the config grants it now
 * (agent.h's agent_deliver_held): agent_check_deliver holds an agent to
 * agent_deliver when it gives a task targets, and this holds the task to
 * it when each delivery is sent, so a name the person takes from
 * agent_deliver stops the deliveries it named. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "config.h"
#include "deliver.h"
#include "store.h"
#include "store_audit.h"
#include "task.h"
#include "utf8.h"

/* Who set a task's targets last, from its audit trail (newest first):
 * the first entry that made the task or changed its deliver field. */
struct setter {
	int found, by_person;
};

static int
setter_one(const struct audit_entry *a, void *arg)
{
	struct setter *s = arg;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	if (strcmp(a->action, "create") == 0 || cJSON_GetObjectItemCaseSensitive(after, "deliver")) {
		cJSON *who = a->actor ? cJSON_Parse(a->actor) : NULL;
		s->found = 1;
		/* Neither an agent's nor the scheduler's own. */
		s->by_person = !cJSON_GetObjectItemCaseSensitive(who, "agent") &&
		    !cJSON_GetObjectItemCaseSensitive(who, "scheduler");
		cJSON_Delete(who);
	}
	cJSON_Delete(after);
	return s->found;
}

/* Does agent_deliver (in g) grant target now?  The rule that gave it. */
static int
granted(const struct agent *g, const char *target)
{
	cJSON *one = cJSON_CreateArray();
	cJSON_AddItemToArray(one, cJSON_CreateString(target));
	char *json = cJSON_PrintUnformatted(one);
	struct err why;
	int yes = agent_check_deliver(g, json, &why) == ST_OK;
	free(json);
	cJSON_Delete(one);
	return yes;
}

int
agent_deliver_held(struct store *st, const struct config *cf, const char *task_id,
    const char *target, struct err *e)
{
	struct task t;
	int rc = store_task_get(st, task_id, &t, e);
	if (rc)
		return rc == ST_NOTFOUND ? ST_OK : rc;
	/* A person's task, or one on the config's `deliver`: the person's
	 * own choice. */
	if (!t.origin || strncmp(t.origin, "agent:", 6) != 0 || !t.deliver) {
		task_free(&t);
		return ST_OK;
	}
	struct agent g;
	memset(&g, 0, sizeof g);
	g.deliver = str_words(config_get(cf, "agent_deliver"), &g.ndeliver);
	struct setter s = {0, 0};
	if (!granted(&g, target) && !(rc = store_audit_list(st, task_id, 1, 0, setter_one, &s, e)) &&
	    !s.by_person) {
		/* s.found is 0 for a trail pruned past it: then the maker set them. */
		struct buf b = {0};
		for (size_t i = 0; i < g.ndeliver; i++)
			buf_printf(&b, "%s%s%s", i ? ", " : "", g.deliver[i][0] == '@' ? "" : "@",
			    g.deliver[i]);
		char shown[160];
		deliver_target_mask(target, shown, sizeof shown);
		rc = err_set(e, ST_REFUSED, "agent_deliver no longer grants %s: task '%.*s' had its "
		    "targets from an agent, and agents may give only those the config's agent_deliver "
		    "lists (%s); add it there, or set the task's targets yourself (task-edit --deliver)",
		    shown, utf8_cut(t.name, 100), t.name, b.data ? b.data : "none");
		buf_free(&b);
	}
	agent_free(&g);
	task_free(&t);
	return rc;
}
