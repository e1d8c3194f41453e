/* A task's budget and the global one, against the store (spend.h). */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "spend.h"
#include "store.h"
#include "task.h"
#include "tz.h"
#include "util.h"

#define RECENT_MS 60000

int
spend_check_init(struct spend_check *c, const struct config *cf, struct err *e)
{
	*c = (struct spend_check){.gwindow = TIME_NONE, .gversion = -1};
	const char *v = cf ? config_get(cf, "budget") : NULL;
	if (v && budget_parse(v, &c->global, e))
		return err_set(e, ST_INVALID, "config: %s", e->msg);
	c->tz = cf ? config_get(cf, "tz") : NULL;
	return ST_OK;
}

void
spend_check_fresh(struct spend_check *c)
{
	c->gstale = 1;
}

/* What run reserved since the global read: 1 if it is known. */
static int
reserved_since(const struct spend_check *c, const char *run, struct spend *s)
{
	for (int i = 0; i < c->nrs; i++)
		if (strcmp(c->rs[i].run, run) == 0) {
			s->dollars = c->rs[i].dollars;
			s->tokens = c->rs[i].tokens;
			return 1;
		}
	return 0;
}

int
spend_check_task(struct spend_check *c, struct store *st, const struct task *t,
    struct zones *zs, int64_t now, int *over, char *why, size_t nwhy, int64_t *window,
    int64_t *until, char *left, size_t nleft, struct err *e)
{
	*over = 0;
	if (left)
		left[0] = 0;
	struct budget tb;
	struct err pe;
	if (budget_parse(t->budget, &tb, &pe))
		tb.set = 0; /* validated when set; an unreadable one is no limit */
	const struct budget *bs[2] = {&tb, &c->global};
	double dollars = -1, tokens = -1; /* left of each kind; -1: no such budget */
	for (int i = 0; i < 2; i++) {
		if (!bs[i]->set)
			continue;
		const struct tz *z;
		int rc = zones_get(zs, i == 0 ? t->tz : c->tz ? c->tz : zones_local(zs), &z, e);
		struct spend s = {0};
		int64_t w = budget_window(bs[i]->period, z, now), version = -1;
		/* A pass of many claims reads what all tasks spent again only
		 * when another program may have recorded a call, or a run it
		 * started since reserved something (a run's end settles its
		 * reservation).  The version is read first: a call recorded
		 * after it changes it. */
		if (!rc && i == 1 && (c->gstale || c->gwindow != w))
			rc = store_others_wrote(st, &version, e);
		struct spend own = {0};
		int read = 0;
		if (!rc && i == 1 && c->gwindow == w && (!c->gstale ||
		    (version >= 0 && version == c->gversion && !c->settles)) &&
		    (!c->except_run || reserved_since(c, c->except_run, &own))) {
			s = c->gspent;
			s.dollars -= own.dollars;
			s.tokens -= own.tokens;
			version = c->gversion;
			c->gstale = 0; /* the version was read this round */
		} else if (!rc) {
			read = 1;
			rc = store_spend_read(st, i == 0 ? t->id : NULL, w, c->except_run, &s.dollars,
			    &s.tokens, e);
		}
		if (rc)
			return rc;
		if (i == 1 && read && !c->except_run) {
			c->gwindow = w;
			c->gspent = s;
			c->nrs = c->rs_next = c->settles = 0;
			c->gversion = version;
			c->gstale = 0;
		}
		if (!*over && budget_over(bs[i], &s)) {
			static const int64_t into_next[] = {26 * 3600, 7 * 86400 + 7200, 32 * 86400};
			*over = 1;
			*window = w;
			if (until)
				*until = budget_window(bs[i]->period, z, w + into_next[bs[i]->period]);
			budget_reason(bs[i], &s, i == 1, why, nwhy);
		}
		double v = bs[i]->amount - (bs[i]->dollars ? s.dollars : (double)s.tokens);
		double *kind = bs[i]->dollars ? &dollars : &tokens;
		if (v < 0)
			v = 0;
		if (*kind < 0 || v < *kind)
			*kind = v;
	}
	if (!left)
		return ST_OK;
	if (dollars >= 0 && tokens >= 0)
		snprintf(left, nleft, "$%.6f,%.0f", dollars, tokens);
	else if (dollars >= 0)
		snprintf(left, nleft, "$%.6f", dollars);
	else if (tokens >= 0)
		snprintf(left, nleft, "%.0f", tokens);
	return ST_OK;
}

int
spend_reserve(struct spend_check *c, struct store *st, const struct task *t, const char *run_id,
    struct err *e)
{
	if (str_empty(t->budget) && !c->global.set)
		return ST_OK;
	int rc;
	/* What a run of any task spent lately, the expectation of a task's
	 * first run: read once a minute, not once a run (a slow read). */
	if (!c->recent_at || mono_ms() - c->recent_at >= RECENT_MS) {
		if ((rc = store_run_cost(st, &c->recent.dollars, &c->recent.tokens, &c->recent_known, e)))
			return rc;
		c->recent_at = mono_ms();
	}
	/* Written even when nothing is expected: what the run spends is
	 * kept with it, the next run's expectation. */
	double dollars = c->recent_known ? c->recent.dollars : 0;
	long long tokens = c->recent_known ? c->recent.tokens : 0;
	if ((rc = store_reserve(st, run_id, t->id, t->last_run_at != TIME_NONE, &dollars, &tokens, e)))
		return rc;
	if (c->gwindow != TIME_NONE) {
		int cap = (int)(sizeof c->rs / sizeof c->rs[0]);
		c->gspent.dollars += dollars;
		c->gspent.tokens += tokens;
		c->settles |= dollars != 0 || tokens != 0;
		snprintf(c->rs[c->rs_next].run, sizeof c->rs[0].run, "%s", run_id);
		c->rs[c->rs_next].dollars = dollars;
		c->rs[c->rs_next].tokens = tokens;
		c->rs_next = (c->rs_next + 1) % cap;
		if (c->nrs < cap)
			c->nrs++;
	}
	return ST_OK;
}
