/* status_budget.c: tasks over budget (status_budget.h). */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "spend.h"
#include "status_budget.h"
#include "store.h"
#include "store_history.h"
#include "task.h"

struct budgets {
	struct store *st;
	int64_t now;
	struct spend_check sc;
	struct zones *zs;
	status_over_fn fn;
	void *arg;
	int rc;
	struct err *e;
};

static void
take_budget(const char *id, void *arg)
{
	struct budgets *b = arg;
	struct task t;
	char why[256];
	int over = 0;
	int64_t window;
	if (b->rc || store_task_get(b->st, id, &t, b->e))
		return;
	b->rc = spend_check_task(&b->sc, b->st, &t, b->zs, b->now, &over, why, sizeof why,
	    &window, NULL, NULL, 0, b->e);
	if (!b->rc && over)
		b->fn(&t, why, b->arg);
	task_free(&t);
}

int
status_budgets(struct store *st, int64_t now, status_over_fn fn, void *arg, char *global_over,
    size_t n, struct err *e)
{
	struct config *cf = NULL;
	struct budgets b = {.st = st, .now = now, .zs = zones_new(), .fn = fn, .arg = arg, .e = e};
	struct budget global;
	global_over[0] = 0;
	int rc = config_load(&cf, e);
	if (!rc)
		rc = spend_check_init(&b.sc, cf, e);
	if (!rc) {
		/* Each task against its own alone: the global one is said once. */
		global = b.sc.global;
		b.sc.global.set = 0;
		rc = store_budget_tasks(st, take_budget, &b, e);
	}
	if (!rc)
		rc = b.rc;
	if (!rc && global.set) {
		struct task none;
		int over = 0;
		int64_t window;
		task_init(&none);
		b.sc.global = global;
		rc = spend_check_task(&b.sc, st, &none, b.zs, now, &over, global_over, n, &window, NULL,
		    NULL, 0, e);
		if (!over)
			global_over[0] = 0;
	}
	config_free(cf);
	zones_free(b.zs);
	return rc;
}

int
status_task_budget(struct store *st, const struct task *t, struct zones *zs, int64_t now,
    char *text, size_t ntext, int *over, char *why, size_t nwhy, struct err *e)
{
	struct budget b;
	struct spend s = {0};
	struct config *cf = NULL;
	struct spend_check sc;
	const struct tz *z;
	int64_t window;
	text[0] = why[0] = 0;
	*over = 0;
	if (t->budget && !budget_parse(t->budget, &b, e) && b.set) {
		budget_fmt(&b, text, ntext);
		if (zones_get(zs, t->tz, &z, e) || store_spend_read(st, t->id,
		    budget_window(b.period, z, now), NULL, &s.dollars, &s.tokens, e))
			return ST_ERR;
		char spent[64];
		if (b.dollars)
			money_fmt(s.dollars, spent, sizeof spent);
		else
			snprintf(spent, sizeof spent, "%lld tokens", s.tokens);
		size_t len = strlen(text);
		snprintf(text + len, ntext - len, ", %s spent this %s", spent,
		    b.period == PERIOD_DAY ? "day" : b.period == PERIOD_WEEK ? "week" : "month");
	}
	int rc = config_load(&cf, e);
	if (!rc)
		rc = spend_check_init(&sc, cf, e);
	if (!rc)
		rc = spend_check_task(&sc, st, t, zs, now, over, why, nwhy, &window, NULL, NULL, 0, e);
	if (!*over)
		why[0] = 0;
	config_free(cf);
	return rc;
}
