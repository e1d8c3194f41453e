/* task_describe.c: a task in words for people: its schedule ("Daily at
 * 07:00") and its end (its instants: task.c's task_fmt_time; a name from
 * its prompt: prompt_text.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cron.h"
#include "task.h"
#include "tz.h"

void
task_describe(const struct task *t, struct zones *zs, char *buf, size_t n)
{
	char when[64];
	switch (t->kind) {
	case KIND_CRON:
	case KIND_EVERY: {
		struct cron_list cl;
		struct err e;
		if (t->kind == KIND_EVERY) {
			cron_describe_every(t->every, buf, n);
			task_fmt_time(t, zs, t->anchor, TIME_WALL, when, sizeof when);
			snprintf(buf + strlen(buf), n - strlen(buf), " from %s", when);
		} else if (t->cron && cron_list_parse(t->cron, &cl, &e) == ST_OK) {
			cron_list_describe(t->cron, &cl, buf, n);
		} else {
			snprintf(buf, n, "%s", t->cron ? t->cron : "cron");
		}
		size_t l = strlen(buf);
		if (t->not_before != TIME_NONE && l < n) {
			task_fmt_time(t, zs, t->not_before, TIME_WALL, when, sizeof when);
			snprintf(buf + l, n - l, ", not before %s", when);
			l = strlen(buf);
		}
		if (t->until_at != TIME_NONE && l < n) {
			task_fmt_time(t, zs, t->until_at, TIME_WALL, when, sizeof when);
			snprintf(buf + l, n - l, " until %s", when);
			l = strlen(buf);
		}
		if (t->count && l < n)
			snprintf(buf + l, n - l, ", %d time%s", t->count, t->count == 1 ? "" : "s");
		break;
	}
	case KIND_AT:
		if (t->nplan) {
			task_fmt_time(t, zs, t->plan[0], TIME_WALL_ZONE, when, sizeof when);
			/* "2026-03-02 07:00 GMT" -> "Once on 2026-03-02 at 07:00" */
			snprintf(buf, n, "Once on %.10s at %.5s", when, when + 11);
		} else {
			snprintf(buf, n, "Once");
		}
		break;
	case KIND_PLAN: {
		struct buf b = {0};
		buf_printf(&b, "Planned: %zu run%s", t->nplan, t->nplan == 1 ? "" : "s");
		for (size_t i = 0; i < t->nplan && i < 3; i++) {
			task_fmt_time(t, zs, t->plan[i], TIME_WALL_ZONE, when, sizeof when);
			buf_printf(&b, "%s%.16s", i ? ", " : " at ", when);
		}
		if (t->nplan > 3)
			buf_puts(&b, ", ...");
		snprintf(buf, n, "%s", b.data);
		buf_free(&b);
		break;
	}
	case KIND_HEARTBEAT:
		snprintf(buf, n, "On every heartbeat");
		break;
	default:
		snprintf(buf, n, "Manual");
		break;
	}
}

void
task_describe_end(const struct task *t, struct zones *zs, char *buf, size_t n)
{
	char when[64], until[64];
	int64_t end = t->ends_at != TIME_NONE ? t->ends_at : t->until_at;
	buf[0] = 0;
	if (!task_repeats(t) || (t->until_at == TIME_NONE && !t->count))
		return;
	task_fmt_time(t, zs, end, TIME_WALL_ZONE, when, sizeof when);
	task_fmt_time(t, zs, t->until_at, TIME_WALL, until, sizeof until);
	if (end == TIME_NONE)
		snprintf(buf, n, "after %d occurrence%s", t->count, t->count == 1 ? "" : "s");
	else if (!t->count)
		snprintf(buf, n, "%s (until)", when);
	else if (t->until_at == TIME_NONE)
		snprintf(buf, n, "%s (after %d occurrence%s)", when, t->count, t->count == 1 ? "" : "s");
	else
		snprintf(buf, n, "%s (after %d occurrence%s or until %s, whichever is first)", when, t->count,
		    t->count == 1 ? "" : "s", until);
}
