/* store_deliver.c: the receipts of deliveries (store_deliver.h), through
 * the backend's deliver_ops. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "deliver.h"
#include "store_backend.h"
#include "store_deliver.h"
#include "utf8.h"

static const char *const status_names[RECEIPT_STATUS_COUNT] = {"pending", "delivered", "failed"};

const char *
receipt_status_name(int status)
{
	return status >= 0 && status < RECEIPT_STATUS_COUNT ? status_names[status] : "unknown";
}

int
receipt_status_parse(const char *s)
{
	for (int i = 0; i < RECEIPT_STATUS_COUNT; i++)
		if (s && strcmp(s, status_names[i]) == 0)
			return i;
	return -1;
}

void
receipt_init(struct receipt *r)
{
	memset(r, 0, sizeof *r);
	r->created_at = r->next_at = r->last_at = TIME_NONE;
}

void
receipt_free(struct receipt *r)
{
	free(r->target);
	free(r->answer);
	free(r->error);
	free(r->task_name);
	r->target = r->answer = r->error = r->task_name = NULL;
}

int
store_receipt_add(struct store *st, const struct receipt *r, int *added, struct err *e)
{
	return st->ops->deliver->add(st, r, added, e);
}

int
store_receipt_list(struct store *st, const struct receipt_filter *f, receipt_fn fn, void *arg,
    struct err *e)
{
	return st->ops->deliver->list(st, f, fn, arg, e);
}

int
store_receipt_due(struct store *st, int64_t now, long max, receipt_fn fn, void *arg, struct err *e)
{
	return st->ops->deliver->due(st, now, max, fn, arg, e);
}

int
store_receipt_claim(struct store *st, const char *id, const char *owner, int64_t now,
    int64_t lease_until, int *got, struct err *e)
{
	return st->ops->deliver->claim(st, id, owner, now, lease_until, got, e);
}

int
store_receipt_finish(struct store *st, const struct receipt *r, const char *owner, int *ours,
    struct err *e)
{
	return st->ops->deliver->finish(st, r, owner, ours, e);
}

int
store_receipt_progress(struct store *st, const char *id, const char *owner, int parts_done,
    int64_t lease_until, int *ours, struct err *e)
{
	return st->ops->deliver->progress(st, id, owner, parts_done, lease_until, ours, e);
}

int
store_deliver_work(struct store *st, int64_t now, int any, int *due, int *targets, int *fresh,
    struct err *e)
{
	*due = *targets = *fresh = 0;
	return st->ops->deliver->work(st, now, any, due, targets, fresh, e);
}

int
store_runs_ended(struct store *st, int64_t since, const char *long_ids, int (*fn)(const char *id,
    int64_t ended_at, void *arg), void *arg, struct err *e)
{
	return st->ops->deliver->ended(st, since, long_ids, fn, arg, e);
}

int
store_runs_long(struct store *st, int64_t before, int (*fn)(const char *id, void *arg), void *arg,
    struct err *e)
{
	return st->ops->deliver->running(st, before, fn, arg, e);
}

int
store_receipt_counts(struct store *st, int64_t since, void (*fn)(const char *kind,
    const char *status, long long n, void *arg), void *arg, struct err *e)
{
	return st->ops->deliver->counts(st, since, fn, arg, e);
}

static int
collect_long(const char *id, void *arg)
{
	cJSON_AddItemToArray(arg, cJSON_CreateString(id));
	return 0;
}

int
store_deliver_late(struct store *st, const struct run *r, struct err *e)
{
	if (r->ended_at == TIME_NONE || r->started_at == TIME_NONE ||
	    r->ended_at - r->started_at <= DELIVER_FRESH_SPAN)
		return ST_OK;
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", (long long)r->ended_at);
	return store_setting_set(st, DELIVER_LATE_END, buf, e);
}

int
store_runs_long_keep(struct store *st, int64_t now, const char *was, struct err *e)
{
	cJSON *a = cJSON_CreateArray();
	int rc = store_runs_long(st, now - DELIVER_RUN_SPAN, collect_long, a, e);
	char *s = cJSON_PrintUnformatted(a);
	if (!rc && (was ? strcmp(s, was) != 0 : cJSON_GetArraySize(a) > 0))
		rc = store_setting_set(st, DELIVER_LONG, s, e);
	cJSON_free(s);
	cJSON_Delete(a);
	return rc;
}

static void
add_time(cJSON *o, const char *k, int64_t t)
{
	char buf[40];
	if (t == TIME_NONE) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	time_fmt_utc(t, buf, sizeof buf);
	cJSON_AddStringToObject(o, k, buf);
}

static void
add_text(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

char *
receipt_said_shown(const char *s)
{
	if (!s)
		return NULL;
	size_t len = strlen(s), n = 3 * len + 4;
	char *out = xmalloc(n);
	utf8_quote(out, n, s, len);
	/* A C1 control (U+0080 to U+009F) as '?' too: some terminals obey
	 * one as they do ESC and the character after it. */
	char *w = out;
	for (const char *p = out; *p; p++) {
		if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] >= 0x80 &&
		    (unsigned char)p[1] <= 0x9f) {
			*w++ = '?';
			p++;
		} else {
			*w++ = *p;
		}
	}
	*w = 0;
	return out;
}

cJSON *
receipt_to_json(const struct receipt *r)
{
	char shown[300];
	deliver_target_mask(r->target ? r->target : "", shown, sizeof shown);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", r->id);
	cJSON_AddStringToObject(o, "run_id", r->run_id);
	cJSON_AddStringToObject(o, "task_id", r->task_id);
	add_text(o, "task_name", r->task_name);
	cJSON_AddStringToObject(o, "target", shown);
	cJSON_AddStringToObject(o, "kind", r->kind);
	cJSON_AddStringToObject(o, "status", receipt_status_name(r->status));
	cJSON_AddNumberToObject(o, "attempts", r->attempts);
	add_time(o, "created_at", r->created_at);
	add_time(o, "last_attempt_at", r->last_at);
	add_time(o, "next_at", r->status == RECEIPT_PENDING ? r->next_at : TIME_NONE);
	char *answer = receipt_said_shown(r->answer), *error = receipt_said_shown(r->error);
	add_text(o, "answer", answer);
	add_text(o, "error", error);
	free(answer);
	free(error);
	return o;
}

/* A field of a line: tabs and line ends as blanks. */
static void
field(struct buf *b, const char *s, int last)
{
	size_t at = b->len;
	buf_puts(b, s ? s : "-");
	for (size_t i = at; i < b->len; i++)
		if (b->data[i] == '\t' || b->data[i] == '\n' || b->data[i] == '\r')
			b->data[i] = ' ';
	if (!last)
		buf_puts(b, "\t");
}

void
receipt_line(const struct receipt *r, struct buf *b)
{
	char when[40], shown[300], n[16];
	time_fmt_utc(r->created_at, when, sizeof when);
	deliver_target_mask(r->target ? r->target : "", shown, sizeof shown);
	snprintf(n, sizeof n, "%d", r->attempts);
	field(b, when, 0);
	field(b, receipt_status_name(r->status), 0);
	field(b, r->kind, 0);
	field(b, shown, 0);
	field(b, n, 0);
	char *said = receipt_said_shown(r->status == RECEIPT_DELIVERED ? r->answer : r->error);
	field(b, said, 0);
	free(said);
	field(b, r->run_id, 0);
	field(b, r->task_name ? r->task_name : r->task_id, 1);
}
