/* task-web's the timeline (/timeline): fires per minute of the next day, and the
 * spend per day of the last 30. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store.h"
#include "cron.h"
#include "store_history.h"
#include "store_web.h"
#include "web_http.h"
#include "web_layout.h"
#include "web_pages.h"

/* ---- the timeline ---- */

/* Fires per minute of the next day, from the tasks in groups that fire
 * alike (store_web_herd): each group's occurrences are reckoned once, its
 * cron parsed once, and counted for all its tasks; 100,000 tasks on a few
 * schedules are a few groups. */
struct herd {
	struct web *w;
	int64_t from;
	long perminute[1440];
};

static int
herd_group(const struct task *t, long n, void *arg)
{
	struct herd *h = arg;
	struct err e;
	struct cron_list l;
	const struct tz *z = NULL;
	int cron = t->kind == KIND_CRON;
	if (cron && (zones_get(h->w->zs, t->tz, &z, &e) || cron_list_parse(t->cron, &l, &e)))
		return 0;
	int64_t at = t->next_run_at, end = h->from + 86400;
	/* Overdue (no pass for a while): on from now.  A day's steps from an
	 * old next run would not reach it. */
	if (at != TIME_NONE && at < h->from && task_repeats(t)) {
		int64_t next;
		if (!cron && task_next_slot(t, h->w->zs, h->from - 1, &at, &e))
			return 0;
		if (cron) {
			next = cron_list_next(&l, z, t->not_before != TIME_NONE && h->from < t->not_before ?
			    t->not_before - 1 : h->from - 1);
			at = next >= 0 && (t->ends_at == TIME_NONE || next <= t->ends_at) ? next : TIME_NONE;
		}
	}
	for (int k = 0; at != TIME_NONE && at < end && k < 1440; k++) {
		if (at >= h->from)
			h->perminute[(at - h->from) / 60] += n;
		if (!task_repeats(t))
			break;
		if (cron) {
			/* task_next_slot's rules without its parse per occurrence. */
			int64_t after = t->not_before != TIME_NONE && at < t->not_before - 1 ? t->not_before - 1
			    : at;
			int64_t next = cron_list_next(&l, z, after);
			at = next >= 0 && (t->ends_at == TIME_NONE || next <= t->ends_at) ? next : TIME_NONE;
		} else if (task_next_slot(t, h->w->zs, at, &at, &e)) {
			break;
		}
	}
	return 0;
}

struct spend {
	double days[30];
	int64_t from;
};

static int
spend_day(const struct call_usage *u, void *arg)
{
	struct spend *sp = arg;
	int64_t d = (u->created_at - sp->from) / 86400;
	if (d >= 0 && d < 30 && u->cost > 0)
		sp->days[d] += u->cost;
	return 0;
}

int
web_timeline(struct web *w, struct web_resp *rs)
{
	struct buf b = {0};
	struct err e = {{0}};
	int64_t now;
	struct herd *h = xcalloc(1, sizeof *h);
	int rc = now_get(&now, &e);
	h->w = w;
	h->from = now - now % 60;
	if (!rc)
		rc = store_web_herd(w->st, h->from + 86400, herd_group, h, &e);
	web_head(&b, "Timeline", 1);
	buf_puts(&b, "<h1>Timeline</h1>\n<div id=\"live\"><h2>Fires per minute, the next 24 hours</h2>\n");
	long max = 1, total = 0;
	int peak = 0;
	for (int i = 0; i < 1440; i++) {
		total += h->perminute[i];
		if (h->perminute[i] > max)
			max = h->perminute[i], peak = i;
	}
	buf_puts(&b, "<svg width=\"1450\" height=\"130\" role=\"img\" aria-label=\"fires per minute\">");
	for (int i = 0; i < 1440; i++) {
		if (!h->perminute[i])
			continue;
		int ht = (int)(h->perminute[i] * 100 / max);
		buf_printf(&b, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"1\" height=\"%d\"></rect>", 5 + i,
		    105 - (ht ? ht : 1), ht ? ht : 1);
	}
	for (int hr = 0; hr <= 24; hr += 3)
		buf_printf(&b, "<text x=\"%d\" y=\"122\" font-size=\"10\">+%dh</text>", 5 + hr * 60 > 1420 ? 1420
		    : 5 + hr * 60, hr);
	buf_puts(&b, "</svg>\n<p>");
	char at[96];
	zone_fmt_time(w->zs, NULL, h->from + (int64_t)peak * 60, TIME_WALL_ZONE, at, sizeof at);
	buf_printf(&b, "%ld fire%s; the busiest minute, ", total, total == 1 ? "" : "s");
	html_esc(&b, at);
	buf_printf(&b, ", has %ld.</p>\n", total ? max : 0);
	free(h);

	struct spend sp = {.from = now - now % 86400 - 29 * 86400};
	if (!rc)
		rc = store_call_usage(w->st, sp.from, spend_day, &sp, &e);
	double rev[30], most = 0;
	for (int i = 0; i < 30; i++) {
		rev[i] = sp.days[29 - i];   /* web_bars() wants the newest first */
		most = sp.days[i] > most ? sp.days[i] : most;
	}
	char top[32];
	snprintf(top, sizeof top, "$%.2f", most);
	buf_puts(&b, "<h2>Spend per day, the last 30 days (UTC)</h2>\n");
	web_bars(&b, rev, NULL, 30, "most in a day", top);
	buf_puts(&b, "</div>\n");
	return web_page_finish(rs, &b, rc, &e);
}
