/* Kai's heartbeat (heartbeat.h): composing a beat's prompt, and the task
 * that schedules the beats. */
#include <string.h>

#include "cron.h"
#include "heartbeat.h"
#include "prompt_text.h"
#include "utf8.h"

int
heartbeat_is(const struct task *t)
{
	return t->intent && strcmp(t->intent, HEARTBEAT_INTENT) == 0;
}

struct additions {
	struct buf *b;
	int n;
};

static int
add_one(const struct task *t, void *arg)
{
	struct additions *h = arg;
	/* Agents may not make additions (they would run with the heartbeat's
	 * authority); one stored before that rule is left out. */
	if (t->origin && strncmp(t->origin, "agent:", 6) == 0)
		return 0;
	if (!h->n++)
		buf_puts(h->b, "\n\n## Heartbeat Additions\n");
	buf_puts(h->b, "\n- ");
	for (const char *p = t->prompt; p && *p; p++) {
		buf_add(h->b, p, 1);
		if (*p == '\n' && p[1])
			buf_puts(h->b, "  ");
	}
	return 0;
}

int
heartbeat_prompt(struct store *st, const char *base, char **out, struct err *e)
{
	struct buf b = {0};
	buf_puts(&b, base ? base : "");
	struct additions h = {&b, 0};
	struct task_filter f;
	task_filter_init(&f);
	f.kinds = 1u << KIND_HEARTBEAT;
	f.statuses = 1u << STATUS_PENDING;
	f.enabled = 1;
	int rc = store_task_list(st, &f, add_one, &h, e);
	if (rc) {
		buf_free(&b);
		return rc;
	}
	if (h.n)
		buf_puts(&b, "\n");
	*out = b.data;
	return ST_OK;
}

static int
take_first(const struct task *t, void *arg)
{
	task_copy(arg, t);
	return 1;
}

int
heartbeat_check(const char *cron, const char *prompt, struct err *e)
{
	int rc;
	struct cron_list l;
	if (!utf8_valid(cron, strlen(cron)))
		return err_set(e, ST_INVALID, "--heartbeat is not UTF-8 text");
	if (strcmp(cron, "off") != 0 && (rc = cron_list_parse(cron, &l, e)))
		return rc;
	if (!prompt)
		return ST_OK;
	/* Stored as it is and shown as text later: the same rule as task-add's. */
	if (!utf8_valid(prompt, strlen(prompt)))
		return err_set(e, ST_INVALID, "--heartbeat-prompt is not UTF-8 text");
	return prompt_vars_check(prompt, "--heartbeat-prompt", e);
}

int
heartbeat_set(struct store *st, const char *cron, const char *prompt, int64_t now,
    struct task *out, int *created, struct err *e)
{
	struct task_filter flt;
	task_filter_init(&flt);
	flt.intent = HEARTBEAT_INTENT;
	flt.limit = 1;
	struct task t;
	task_init(&t);
	t.id[0] = 0;
	int rc = heartbeat_check(cron, prompt, e);
	if (rc)
		return rc;
	rc = store_begin(st, e);
	if (!rc)
		rc = store_task_list(st, &flt, take_first, &t, e);
	/* Read again inside the unit, so it holds the task. */
	if (!rc && t.id[0]) {
		char id[37];
		memcpy(id, t.id, sizeof id);
		task_free(&t);
		rc = store_task_get(st, id, &t, e);
		if (rc)
			task_init(&t);
	}
	if (rc)
		goto out;
	*created = t.id[0] == 0;
	int off = strcmp(cron, "off") == 0;
	if (*created && off) {
		rc = err_set(e, ST_NOTFOUND, "there is no heartbeat to turn off");
		goto out;
	}
	if (!*created && t.status == STATUS_RUNNING) {
		rc = err_set(e, ST_REFUSED, "the heartbeat is running; change it when the run has finished");
		goto out;
	}
	if (off) {
		t.enabled = 0;
		t.updated_at = now;
		rc = store_task_put(st, &t, e);
	} else {
		if (*created) {
			set_str(&t.name, "Heartbeat");
			set_str(&t.intent, HEARTBEAT_INTENT);
			set_str(&t.prompt, HEARTBEAT_PROMPT);
		}
		if (prompt)
			set_str(&t.prompt, prompt);
		t.kind = KIND_CRON;
		set_str(&t.cron, cron);
		t.stagger = 0; /* one task: nothing to spread, and its times stay as given */
		t.enabled = 1;
		t.status = STATUS_PENDING;
		int is_dup;
		char dup[37];
		struct zones *zs = zones_new();
		rc = task_finalize(&t, *created, 1, now, zs, e);
		zones_free(zs);
		if (!rc)
			rc = *created ? store_task_add(st, &t, 0, &is_dup, dup, e) : store_task_put(st, &t, e);
	}
	if (!rc)
		rc = store_commit(st, e);
out:
	if (rc) {
		store_rollback(st);
		task_free(&t);
		return rc;
	}
	*out = t;
	return ST_OK;
}
