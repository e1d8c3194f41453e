/* What a person decided stands against agents (tools_stands.h): their
 * stop, and who hears of a task's failures. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "notify_on.h"
#include "store_audit.h"
#include "tools_stands.h"

/* Neither an agent's nor the scheduler's own (a pause after failures). */
static int
by_person(const struct audit_entry *a)
{
	cJSON *who = a->actor ? cJSON_Parse(a->actor) : NULL;
	int yes = !cJSON_GetObjectItemCaseSensitive(who, "agent") &&
	    !cJSON_GetObjectItemCaseSensitive(who, "scheduler");
	cJSON_Delete(who);
	return yes;
}

/* Who stopped a task last, from its audit trail (newest first): the
 * first entry whose after sets key to what stopped it (enabled false,
 * status cancelled). */
struct stopper {
	const char *key;
	int found, by_person;
};

static int
stop_one(const struct audit_entry *a, void *arg)
{
	struct stopper *s = arg;
	/* Made disabled (task-add --disabled) is a draft, not a stop. */
	if (strcmp(a->action, "create") == 0)
		return 0;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(after, s->key);
	if (v && (strcmp(s->key, "enabled") == 0 ? cJSON_IsFalse(v) :
	    cJSON_IsString(v) && strcmp(v->valuestring, "cancelled") == 0)) {
		s->found = 1;
		s->by_person = by_person(a);
	}
	cJSON_Delete(after);
	return s->found;
}

/* An agent may not undo a person's stop: enable again a task a person
 * (or a task-web token) disabled last, or re-arm one they cancelled. */
int
stop_stands(struct tools *tl, const struct task *old, const struct task *t, struct err *e)
{
	int enabling = !old->enabled && t->enabled;
	int rearming = old->status == STATUS_CANCELLED && t->status != STATUS_CANCELLED;
	for (int i = 0; i < 2; i++) {
		struct stopper s = {i ? "status" : "enabled", 0, 0};
		if (!(i ? rearming : enabling))
			continue;
		int rc = store_audit_list(tl->st, old->id, 1, 0, stop_one, &s, e);
		if (rc)
			return rc;
		if (s.by_person)
			return err_set(e, ST_REFUSED, "Refused: task '%.80s' was %s by the user; only "
			    "they can %s", old->name, i ? "cancelled" : "disabled",
			    i ? "schedule it again" : "enable it");
	}
	return ST_OK;
}

/* A person's notify policy, from the audit trail (newest first): what
 * the last person to set notify_on set, or the one who made the task made
 * it with.  An agent's changes in between are the agents' to take back. */
struct policy {
	int found, by_person;
	char *on;               /* as they set it, NULL: the default */
};

static int
policy_one(const struct audit_entry *a, void *arg)
{
	struct policy *p = arg;
	int made = strcmp(a->action, "create") == 0;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(after, "notify_on");
	if (made || (v && by_person(a))) {
		p->found = 1;
		p->by_person = by_person(a);
		p->on = cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
	}
	cJSON_Delete(after);
	return p->found;
}

/* The events a policy (NULL or "": the config's, else the default) tells of. */
static unsigned
policy_mask(struct tools *tl, const char *on)
{
	unsigned mask;
	struct err pe;
	if (str_empty(on))
		on = config_get(tl->cf, "notify_on");
	if (str_empty(on) || notify_on_parse(on, &mask, &pe) != ST_OK)
		notify_on_parse(NOTIFY_DEFAULT, &mask, &pe);
	return mask;
}

int
notify_stands(struct tools *tl, const struct task *old, const struct task *t, struct err *e)
{
	unsigned was = policy_mask(tl, old->notify_on), now = policy_mask(tl, t->notify_on);
	struct policy p = {0, 0, NULL};
	if (!(was & ~now))
		return ST_OK;
	int rc = store_audit_list(tl->st, old->id, 1, 0, policy_one, &p, e);
	if (rc)
		return rc;
	/* A trail pruned past it: the task's maker's, as it is now. */
	if (!p.found) {
		p.by_person = !old->origin || strncmp(old->origin, "agent:", 6) != 0;
		p.on = old->notify_on ? xstrdup(old->notify_on) : NULL;
	}
	unsigned theirs = policy_mask(tl, p.on);
	free(p.on);
	if (!p.by_person || !(theirs & ~now))
		return ST_OK;
	char said[64];
	notify_on_fmt(theirs, said, sizeof said);
	return err_set(e, ST_REFUSED, "Refused: task '%.80s' has a notify policy the user set (%s); "
	    "only they can make it tell of fewer runs", old->name, said);
}
