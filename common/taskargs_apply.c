/* taskargs_apply.c: the flags task-add and task-edit share, as read by
 * taskargs.c, checked and applied to a task, with one message naming the
 * flag for anything wrong. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "cron.h"
#include "deliver.h"
#include "exec.h"
#include "history.h"
#include "mcp_client.h"
#include "notify.h"
#include "opt.h"
#include "spend.h"
#include "taskargs.h"
#include "tz.h"
#include "utf8.h"
#include "when.h"

int
parse_duration(const char *s, long *secs)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || errno || v < 0)
		return -1;
	long mult = 1;
	if (*end) {
		switch (tolower((unsigned char)*end)) {
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		case 'd': mult = 86400; break;
		default: return -1;
		}
		if (end[1])
			return -1;
	}
	if (v > INT_MAX / mult)
		return -1;
	*secs = v * mult;
	return 0;
}

int
parse_duration_typed(const char *s, long *secs)
{
	return isdigit((unsigned char)*s) ? parse_duration(s, secs) : -1;
}

/* --keep: stored as keep_fmt writes it; "default" or "" removes it. */
static int
apply_keep(const char *v, struct task *t, struct err *e)
{
	struct keep k;
	struct err sub;
	char canon[32];
	if (!*v || strcmp(v, "default") == 0) {
		set_str(&t->keep, NULL);
		return ST_OK;
	}
	if (keep_parse(v, &k, &sub))
		return opt_bad(e, "--keep", v, "%s, or default", sub.msg);
	keep_fmt(&k, canon, sizeof canon);
	set_str(&t->keep, canon);
	return ST_OK;
}

/* Optional text fields: an empty value clears the field. */
static void
set_opt(char **dst, const char *v, int *changed)
{
	if (!v)
		return;
	set_str(dst, *v ? v : NULL);
	if (changed)
		*changed = 1;
}

static int
apply_attachments(const struct task_args *a, struct task *t, struct err *e)
{
	if (!a->nattach)
		return ST_OK;
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < a->nattach; i++) {
		const char *v = a->attach[i];
		if (!*v)
			continue; /* --attach '' clears the list */
		if (strstr(v, "://")) {
			if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8)) {
				cJSON_Delete(arr);
				return err_set(e, ST_INVALID, "attachment '%s': only http and https URLs", v);
			}
			cJSON_AddItemToArray(arr, cJSON_CreateString(v));
			continue;
		}
		/* Runs happen later from another directory: keep absolute paths. */
		char abs[PATH_MAX];
		if (!realpath(v, abs)) {
			int err = errno;
			cJSON_Delete(arr);
			return err_set(e, ST_INVALID, "attachment '%s': %s", v, strerror(err));
		}
		cJSON_AddItemToArray(arr, cJSON_CreateString(abs));
	}
	free(t->attachments);
	t->attachments = cJSON_GetArraySize(arr) ? cJSON_PrintUnformatted(arr) : NULL;
	cJSON_Delete(arr);
	return ST_OK;
}

/* An empty value clears the field back to its default, def. */
static int
apply_number(const char *flag, const char *v, int is_duration, long min, int def, int *dst,
    struct err *e)
{
	long n;
	if (!v)
		return ST_OK;
	if (!*v) {
		*dst = def;
		return ST_OK;
	}
	if (!is_duration) {
		if (opt_number(flag, v, NULL, min, INT_MAX, &n, e))
			return ST_INVALID;
	} else if (parse_duration_typed(v, &n) != 0 || n < min || n > INT_MAX) {
		return opt_bad(e, flag, v, "seconds or a duration like 90s, 5m, 2h");
	}
	*dst = (int)n;
	return ST_OK;
}

static int
read_time(const char *flag, const char *text, int64_t now, const struct tz *z, unsigned flags,
    int64_t *out, struct err *e)
{
	struct err sub;
	int rc = when_read(text, now, z, flags & ~(unsigned)WHEN_PAST_OK, out, &sub);
	if (rc)
		return err_set(e, rc, "%s: %s", flag, sub.msg);
	return ST_OK;
}

/* --cron, --daily and --weekly, each any number of times: one union of
 * expressions. */
static int
apply_crons(const struct task_args *a, struct task *t, struct err *e)
{
	size_t most = a->ncrons + a->ndailies + a->nweeklies + 3;
	const char **all = xcalloc(most, sizeof *all);
	char (*made)[128] = xcalloc(most, sizeof *made);
	size_t n = 0;
	int rc = ST_OK;
	if (a->cron)
		all[n++] = a->cron;
	for (size_t i = 0; i < a->ncrons; i++)
		all[n++] = a->crons[i];
	for (size_t i = 0; !rc && i <= a->ndailies; i++) {
		const char *d = i < a->ndailies ? a->dailies[i] : a->daily;
		if (d && !(rc = sched_daily_cron(d, made[n], sizeof made[n], e)))
			all[n] = made[n], n++;
	}
	for (size_t i = 0; !rc && i <= a->nweeklies; i++) {
		const char *w = i < a->nweeklies ? a->weeklies[i] : a->weekly;
		if (w && !(rc = sched_weekly_cron(w, made[n], sizeof made[n], e)))
			all[n] = made[n], n++;
	}
	if (!rc) {
		t->kind = KIND_CRON;
		free(t->cron);
		t->cron = cron_list_text(all, n);
	}
	free(made);
	free(all);
	return rc;
}

/* --every and --from: an interval keeps its anchor when only its length
 * changes (task-edit --every 2h). */
static int
apply_every(const struct task_args *a, struct task *t, int was_every, int64_t now,
    const struct tz *z, struct err *e)
{
	int64_t secs, anchor = TIME_NONE;
	struct err sub;
	int rc;
	if (a->every && (rc = when_span(a->every, &secs, &sub)))
		return err_set(e, rc, "--every: %s", sub.msg);
	if (a->every && (secs < TASK_EVERY_MIN || secs > TASK_EVERY_MAX))
		return opt_bad(e, "--every", a->every, "an interval from 1 minute to 366 days");
	if (a->from && (rc = when_read(a->from, now, z, a->when_flags | WHEN_PAST_OK, &anchor, &sub)))
		return err_set(e, rc, "--from: %s", sub.msg);
	if (a->every) {
		t->kind = KIND_EVERY;
		t->every = (int)secs;
		if (!was_every)
			t->anchor = TIME_NONE; /* task_finalize: the minute it is armed */
	}
	if (a->from)
		t->anchor = anchor;
	return ST_OK;
}

static int
apply_schedule(const struct task_args *a, struct task *t, int64_t now, const struct tz *z,
    struct err *e)
{
	int rc, was_every = t->kind == KIND_EVERY;
	free(t->plan);
	t->plan = NULL;
	t->nplan = 0;
	set_str(&t->cron, NULL);
	t->every = -1;
	if (a->cron_given || a->cron || a->daily || a->weekly) {
		if ((rc = apply_crons(a, t, e)))
			return rc;
	} else if (a->every) {
		if ((rc = apply_every(a, t, was_every, now, z, e)))
			return rc;
	} else if (a->at) {
		t->kind = KIND_AT;
		t->plan = xcalloc(1, sizeof *t->plan);
		t->nplan = 1;
		if ((rc = read_time("--at", a->at, now, z, a->when_flags, &t->plan[0], e)))
			return rc;
	} else if (a->nplan) {
		t->kind = KIND_PLAN;
		t->plan = xcalloc(a->nplan, sizeof *t->plan);
		for (size_t i = 0; i < a->nplan; i++) {
			if ((rc = read_time("--plan", a->plan[i], now, z, a->when_flags, &t->plan[t->nplan], e)))
				return rc;
			t->nplan++;
		}
		qsort(t->plan, t->nplan, sizeof *t->plan, cmp_int64);
		size_t w = 0; /* the same instant twice is one run */
		for (size_t i = 0; i < t->nplan; i++)
			if (!w || t->plan[i] != t->plan[w - 1])
				t->plan[w++] = t->plan[i];
		t->nplan = w;
	} else if (a->manual) {
		t->kind = KIND_MANUAL;
	} else if (a->heartbeat) {
		t->kind = KIND_HEARTBEAT;
	}
	if (t->kind != KIND_EVERY)
		t->anchor = TIME_NONE;
	return ST_OK;
}

/* --mcp and --mcp-allow: each value a comma-separated list (as llm-call's
 * flags and TASK_MCP are), blanks around a word dropped, repeats kept
 * once; '' alone clears the list.  The words are checked by task_validate. */
static void
apply_words(const char *const *vals, size_t n, char **dst)
{
	if (!n)
		return;
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		char *copy = xstrdup(vals[i]), *save = NULL;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			const cJSON *it;
			int seen = 0;
			if (!*str_trim(w))
				continue;
			cJSON_ArrayForEach(it, arr) seen |= strcmp(it->valuestring, w) == 0;
			if (!seen)
				cJSON_AddItemToArray(arr, cJSON_CreateString(w));
		}
		free(copy);
	}
	free(*dst);
	*dst = cJSON_GetArraySize(arr) ? cJSON_PrintUnformatted(arr) : NULL;
	cJSON_Delete(arr);
}

/* --mcp names servers of mcp.json: one it does not name would fail every
 * run, so it is refused now.  A file that does not exist yet is no list to
 * check against (the servers may be written after the task). */
static int
check_servers(const char *json, struct err *e)
{
	char path[PATH_MAX];
	struct mcpc_config *cf;
	struct stat sb;
	cJSON *arr = json ? cJSON_Parse(json) : NULL;
	const cJSON *it;
	int rc = ST_OK;
	if (!cJSON_GetArraySize(arr) || stat(mcpc_config_path(path, sizeof path), &sb) != 0) {
		cJSON_Delete(arr);
		return ST_OK;
	}
	if ((rc = mcpc_config_load(path, &cf, e))) {
		cJSON_Delete(arr);
		return rc;
	}
	cJSON_ArrayForEach(it, arr) {
		const char *name = it->valuestring;
		if (strcmp(name, "all") != 0 && !mcpc_config_find(cf, name)) {
			rc = err_set(e, ST_INVALID, "--mcp: no server '%s' in %s", name, cf->path);
			break;
		}
	}
	mcpc_config_free(cf);
	cJSON_Delete(arr);
	return rc;
}

/* --not-before, --until and --count.  Each re-arms the end from now;
 * "none" (or '') and 0 remove them.  A new task has no end to remove: its --count 0
 * would be a task that never runs. */
static int
apply_end(const struct task_args *a, struct task *t, int64_t now, const struct tz *z,
    struct err *e)
{
	int rc;
	if (a->not_before) {
		t->not_before = TIME_NONE;
		if (*a->not_before && strcasecmp(a->not_before, "none") != 0 &&
		    (rc = read_time("--not-before", a->not_before, now, z, a->when_flags, &t->not_before,
		    e)))
			return rc;
	}
	if (a->until) {
		t->until_at = TIME_NONE;
		if (*a->until && strcasecmp(a->until, "none") != 0 &&
		    (rc = read_time("--until", a->until, now, z, a->when_flags, &t->until_at, e)))
			return rc;
	}
	if (a->count) {
		long n = 0;
		if (*a->count && opt_number("--count", a->count, NULL, 0, TASK_COUNT_MAX, &n, e))
			return opt_bad(e, "--count", a->count, "a number of occurrences from 1 to %d%s",
			    TASK_COUNT_MAX, a->creating ? "" : " (0 removes the end)");
		if (n == 0 && a->creating)
			return err_set(e, ST_INVALID, "--count 0 would never run: give a number of occurrences "
			    "from 1 to %d", TASK_COUNT_MAX);
		t->count = (int)n;
	}
	return ST_OK;
}

/* Every value is stored and shown as text: bytes that are not UTF-8 are
 * refused here rather than shown as U+FFFD later. */
static int
check_text(const struct task_args *a, struct err *e)
{
	const struct {
		const char *flag, *v;
	} one[] = {{"--name", a->name}, {"the prompt", a->prompt}, {"--system", a->system_prompt},
		{"--tz", a->tz}, {"--context", a->context}, {"--model", a->model}, {"--exec", a->exec},
		{"--notify", a->notify}, {"--intent", a->intent}, {"--channel", a->channel},
		{"--payload", a->payload}, {"--key", a->key}, {"--cron", a->cron}, {"--at", a->at},
		{"--daily", a->daily}, {"--weekly", a->weekly}, {"--until", a->until},
		{"--count", a->count}, {"--every", a->every},
		{"--from", a->from}, {"--not-before", a->not_before},
		{"--gate", a->gate}};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		if (one[i].v && !utf8_valid(one[i].v, strlen(one[i].v)))
			return err_set(e, ST_INVALID, "%s is not UTF-8 text", one[i].flag);
	for (size_t i = 0; i < ntask_inputs; i++)
		if (a->in[i] && !utf8_valid(a->in[i], strlen(a->in[i])))
			return err_set(e, ST_INVALID, "--%s is not UTF-8 text", task_inputs[i].flag);
	for (size_t i = 0; i < a->nplan; i++)
		if (!utf8_valid(a->plan[i], strlen(a->plan[i])))
			return err_set(e, ST_INVALID, "--plan is not UTF-8 text");
	for (size_t i = 0; i < a->ncrons; i++)
		if (!utf8_valid(a->crons[i], strlen(a->crons[i])))
			return err_set(e, ST_INVALID, "--cron is not UTF-8 text");
	for (size_t i = 0; i < a->ndailies; i++)
		if (!utf8_valid(a->dailies[i], strlen(a->dailies[i])))
			return err_set(e, ST_INVALID, "--daily is not UTF-8 text");
	for (size_t i = 0; i < a->nweeklies; i++)
		if (!utf8_valid(a->weeklies[i], strlen(a->weeklies[i])))
			return err_set(e, ST_INVALID, "--weekly is not UTF-8 text");
	for (size_t i = 0; i < a->nattach; i++)
		if (!utf8_valid(a->attach[i], strlen(a->attach[i])))
			return err_set(e, ST_INVALID, "--attach is not UTF-8 text");
	for (int l = 0; l < WORD_LISTS; l++)
		for (size_t i = 0; i < a->nwords[l]; i++)
			if (!utf8_valid(a->words[l][i], strlen(a->words[l][i])))
				return err_set(e, ST_INVALID, "--%s is not UTF-8 text", word_lists[l].flag);
	for (size_t i = 0; i < a->ndeliver; i++)
		if (!utf8_valid(a->deliver[i], strlen(a->deliver[i])))
			return err_set(e, ST_INVALID, "--deliver is not UTF-8 text");
	for (size_t i = 0; i < a->nafter; i++)
		if (!utf8_valid(a->after[i], strlen(a->after[i])))
			return err_set(e, ST_INVALID, "--after is not UTF-8 text");
	return ST_OK;
}

/* --deliver (each a target, repeats kept once; none alone removes them)
 * and --deliver-on.  A @NAME the config does not define would fail every
 * delivery, so it is refused now. */
static int
apply_deliver(const struct task_args *a, struct task *t, struct err *e)
{
	int rc;
	if (!a->ndeliver)
		return ST_OK;
	int none = 0;
	for (size_t i = 0; i < a->ndeliver; i++)
		none |= strcmp(a->deliver[i], "none") == 0;
	if (none) {
		if (a->ndeliver > 1)
			return err_set(e, ST_INVALID, "--deliver none removes every target; give it alone");
		set_str(&t->deliver, NULL);
		return ST_OK;
	}
	struct config *cf = NULL;
	cJSON *arr = cJSON_CreateArray();
	rc = ST_OK;
	for (size_t i = 0; i < a->ndeliver && !rc; i++) {
		const char *v = a->deliver[i];
		char *resolved = NULL;
		const cJSON *it;
		int seen = 0;
		if ((rc = deliver_target_check(v, e)))
			break;
		if (v[0] == '@') {
			if (!cf && (rc = config_load(&cf, e)))
				break;
			if ((rc = deliver_resolve(cf, v, &resolved, e)))
				break;
			free(resolved);
		}
		cJSON_ArrayForEach(it, arr) seen |= strcmp(it->valuestring, v) == 0;
		if (!seen)
			cJSON_AddItemToArray(arr, cJSON_CreateString(v));
	}
	if (!rc && cJSON_GetArraySize(arr) > DELIVER_TARGETS_MAX)
		rc = err_set(e, ST_INVALID, "--deliver: at most %d targets", DELIVER_TARGETS_MAX);
	if (!rc) {
		free(t->deliver);
		t->deliver = cJSON_PrintUnformatted(arr);
	}
	cJSON_Delete(arr);
	config_free(cf);
	return rc;
}

/* --after (each TASK[:ON]; none alone removes them), kept as written:
 * the command resolves the tasks and refuses loops (chain_resolve). */
static int
apply_after(const struct task_args *a, struct task *t, struct err *e)
{
	if (!a->nafter)
		return ST_OK;
	for (size_t i = 0; i < a->nafter; i++) {
		if (strcmp(a->after[i], "none") == 0) {
			if (a->nafter > 1)
				return err_set(e, ST_INVALID, "--after none removes every task it follows;"
				    " give it alone");
			set_str(&t->after, NULL);
			return ST_OK;
		}
	}
	if (a->nafter > CHAIN_MAX)
		return err_set(e, ST_INVALID, "--after: at most %d tasks", CHAIN_MAX);
	cJSON *arr = cJSON_CreateArray();
	int rc = ST_OK;
	for (size_t i = 0; i < a->nafter && !rc; i++) {
		struct chain_link l;
		if (!(rc = chain_link_parse(a->after[i], &l, e)))
			cJSON_AddItemToArray(arr, cJSON_CreateString(a->after[i]));
	}
	if (rc)
		rc = err_set(e, rc, "bad --%s", e->msg);
	if (!rc) {
		free(t->after);
		t->after = cJSON_PrintUnformatted(arr);
	}
	cJSON_Delete(arr);
	return rc;
}

/* The value v of one of task_inputs, read and checked by its kind, into
 * its field of t; messages name its flag. */
static int
apply_input(const struct task_input *in, const char *v, struct task *t, struct err *e)
{
	const struct field *f = task_input_field(in);
	char flag[40], buf[96];
	int rc;
	snprintf(flag, sizeof flag, "--%s", in->flag);
	switch (in->kind) {
	case IN_TEXT:
		set_opt(FIELD_OF(t, f, char *), v, NULL);
		return ST_OK;
	case IN_SECONDS:
	case IN_NUMBER:
		return apply_number(flag, v, in->kind == IN_SECONDS, in->min, in->def, FIELD_OF(t, f, int),
		    e);
	case IN_ENUM: {
		int n = f->names->parse(v);
		if (n < 0)
			return err_set(e, ST_INVALID, "bad %s '%s': %s", flag, v, in->hint);
		*FIELD_OF(t, f, int) = n;
		return ST_OK;
	}
	case IN_DEADLINE: {
		long n;
		if (!strcmp(v, "none") || !strcmp(v, "0")) {
			*FIELD_OF(t, f, int) = 0;
			return ST_OK;
		}
		if (parse_duration_typed(v, &n) != 0 || n < in->min || n > TASK_DEADLINE_MAX)
			return opt_bad(e, flag, v, "a duration like 90s, 10m, 2h (at most 366d), or none");
		*FIELD_OF(t, f, int) = (int)n;
		return ST_OK;
	}
	case IN_BUDGET: {
		struct budget b;
		struct err why;
		if ((rc = budget_check_input(v, &why)))
			return err_set(e, rc, "bad %s: %s", flag, why.msg);
		if ((rc = budget_parse(v, &b, e)))
			return err_set(e, rc, "bad %s '%.80s': expected AMOUNT/PERIOD (like $2/day,"
			    " 2usd/week, 200k/month, 1.5M/day) or none", flag, v);
		budget_fmt(&b, buf, sizeof buf);
		set_str(FIELD_OF(t, f, char *), b.set ? buf : NULL);
		return ST_OK;
	}
	case IN_RUNS_ON: {
		unsigned mask;
		if (*v && (rc = notify_on_parse(v, &mask, e)))
			return err_set(e, rc, "bad %s: %s", flag, e->msg);
		if (*v)
			notify_on_fmt(mask, buf, sizeof buf);
		set_str(FIELD_OF(t, f, char *), *v ? buf : NULL);
		return ST_OK;
	}
	case IN_KEEP:
		return apply_keep(v, t, e);
	}
	return ST_OK;
}

/* task_inputs, in their order (--enable's end of a pause: task_finalize). */
static int
apply_inputs(const struct task_args *a, struct task *t, struct err *e)
{
	int rc;
	for (size_t i = 0; i < ntask_inputs; i++)
		if (a->in[i] && (rc = apply_input(&task_inputs[i], a->in[i], t, e)))
			return rc;
	return ST_OK;
}

/* The texts and commands of a task, checked before any is taken. */
static int
apply_texts(const struct task_args *a, struct task *t, struct err *e)
{
	int rc;
	if ((rc = check_text(a, e)))
		return rc;
	if (a->name && str_empty(a->name))
		return err_set(e, ST_INVALID, "--name cannot be empty");
	if (a->prompt && str_empty(a->prompt))
		return err_set(e, ST_INVALID, "the prompt cannot be empty");
	if (a->name)
		set_str(&t->name, a->name);
	if (a->prompt)
		set_str(&t->prompt, a->prompt);
	set_opt(&t->system_prompt, a->system_prompt, NULL);
	set_opt(&t->context, a->context, NULL);
	set_opt(&t->model, a->model, NULL);
	set_opt(&t->exec, a->exec, NULL);
	set_opt(&t->notify, a->notify, NULL);
	set_opt(&t->gate, a->gate, NULL);
	set_opt(&t->intent, a->intent, NULL);
	set_opt(&t->channel, a->channel, NULL);
	set_opt(&t->key, a->key, NULL);
	if (a->payload && *a->payload) {
		cJSON *p = cJSON_Parse(a->payload);
		int ok = cJSON_IsObject(p);
		cJSON_Delete(p);
		if (!ok)
			return err_set(e, ST_INVALID, "bad --payload: expected a JSON object, e.g. '{\"user\":\"ana\"}'");
	}
	struct err sub;
	if (a->exec && *a->exec && exec_check(a->exec, &sub))
		return err_set(e, ST_INVALID, "bad --exec: %s", sub.msg);
	if (a->notify && *a->notify && exec_check(a->notify, &sub))
		return err_set(e, ST_INVALID, "bad --notify: %s", sub.msg);
	if (a->gate && *a->gate && exec_check(a->gate, &sub))
		return err_set(e, ST_INVALID, "bad --gate: %s", sub.msg);
	set_opt(&t->payload, a->payload, NULL);
	return ST_OK;
}

/* The zone, the schedule and its ends; *rearm says the next run must be
 * computed again. */
static int
apply_when(const struct task_args *a, struct task *t, int64_t now, struct zones *zs, int *rearm,
    struct err *e)
{
	int rc;
	if (a->tz) {
		const struct tz *z;
		if ((rc = zones_get(zs, a->tz, &z, e)))
			return rc;
		*rearm = !t->tz || strcmp(t->tz, tz_name(z)) != 0;
		set_str(&t->tz, tz_name(z));
	} else if (!t->tz) {
		/* Loaded as the local zone first, so a bad one says "(from TZ)". */
		const struct tz *local;
		if ((rc = zones_get(zs, NULL, &local, e)))
			return rc;
		t->tz = xstrdup(zones_local(zs));
	}
	const struct tz *z = NULL;
	if ((a->nkinds || a->until || a->count || a->not_before || a->from) &&
	    (rc = zones_get(zs, t->tz, &z, e)))
		return rc;
	if (a->nkinds) {
		if ((rc = apply_schedule(a, t, now, z, e)))
			return rc;
		*rearm = 1;
		/* A schedule that does not recur has no end to keep, nor a start. */
		if (!task_repeats(t) && !a->until && !a->count) {
			t->until_at = TIME_NONE;
			t->count = 0;
		}
		if (!task_repeats(t) && !a->not_before)
			t->not_before = TIME_NONE;
	}
	if (a->from && !a->every) {
		if (t->kind != KIND_EVERY)
			return err_set(e, ST_INVALID, "--from anchors an interval: give it with --every");
		if ((rc = apply_every(a, t, 1, now, z, e)))
			return rc;
		*rearm = 1;
	}
	if (a->until || a->count || a->not_before) {
		if ((rc = apply_end(a, t, now, z, e)))
			return rc;
		*rearm = 1;
	}
	return ST_OK;
}

int
taskargs_apply(const struct task_args *a, struct task *t, int64_t now, struct zones *zs,
    int *schedule_changed, struct err *e)
{
	int rc;
	*schedule_changed = 0;
	if (a->nkinds > 1) {
		struct buf b = {0};
		for (int i = 0; i < a->nkinds && i < 8; i++)
			buf_printf(&b, "%s%s", i ? (i == a->nkinds - 1 ? " and " : ", ") : "", a->kinds[i]);
		rc = err_set(e, ST_INVALID, "give one schedule, not %s", b.data);
		buf_free(&b);
		return rc;
	}
	if ((rc = apply_texts(a, t, e)))
		return rc;
	if ((rc = apply_inputs(a, t, e)))
		return rc;
	int old_jitter = t->jitter, old_stagger = t->stagger;
	if ((rc = apply_number("--jitter", a->jitter, 1, 0, 0, &t->jitter, e)))
		return rc;
	/* --jitter 0: no delay at all, not even the config's stagger. */
	if (a->jitter)
		t->stagger = *a->jitter && t->jitter == 0 ? 0 : -1;
	/* Enabling again computes the next run from now: an occurrence that
	 * went by while disabled is not a missed run to catch up on. */
	if (a->enabled == 1 && !t->enabled)
		*schedule_changed = 1;
	if (a->enabled >= 0)
		t->enabled = a->enabled;
	if ((rc = apply_attachments(a, t, e)))
		return rc;
	for (int l = 0; l < WORD_LISTS; l++)
		apply_words(a->words[l], a->nwords[l], &WORD_LIST_OF(t, &word_lists[l]));
	if (a->nwords[WL_MCP] && (rc = check_servers(t->mcp, e)))
		return rc;
	if ((rc = apply_deliver(a, t, e)) || (rc = apply_after(a, t, e)))
		return rc;
	int rearm = 0;
	if ((rc = apply_when(a, t, now, zs, &rearm, e)))
		return rc;
	if (rearm)
		t->ends_at = TIME_NONE;
	*schedule_changed |= rearm || t->jitter != old_jitter || t->stagger != old_stagger;
	return ST_OK;
}

int
taskargs_check(const struct task_args *a, struct zones *zs, struct err *e)
{
	struct task t;
	const struct tz *z;
	int rc;
	task_init(&t);
	if (!(rc = apply_texts(a, &t, e)) && !(rc = apply_inputs(a, &t, e)) &&
	    !(rc = apply_number("--jitter", a->jitter, 1, 0, 0, &t.jitter, e)) &&
	    !(rc = apply_attachments(a, &t, e)) && !(rc = apply_deliver(a, &t, e)) &&
	    !(rc = apply_after(a, &t, e)) && a->tz)
		rc = zones_get(zs, a->tz, &z, e);
	task_free(&t);
	return rc;
}
