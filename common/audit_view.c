/* task-log --audit: who changed which task, and how, newest first; and
 * --audit --verify: the chain of hashes recomputed. */
#include <stdio.h>
#include <stdlib.h>

#include "audit.h"
#include "audit_view.h"
#include "json_out.h"
#include "log_view.h"
#include "store_audit.h"

static void
put_as_is(struct buf *b, const char *s)
{
	buf_puts(b, s);
}

void
audit_change_words(const struct audit_entry *a, struct buf *b,
    void (*esc)(struct buf *b, const char *s), const char *sep, const char *arrow)
{
	cJSON *before = a->before ? cJSON_Parse(a->before) : NULL;
	cJSON *after = a->after ? cJSON_Parse(a->after) : NULL;
	const cJSON *side = after ? after : before;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(side, "name");
	if (!esc)
		esc = put_as_is;
	if ((!before || !after) && cJSON_IsString(name) &&
	    cJSON_GetObjectItemCaseSensitive(side, "prompt")) {
		buf_puts(b, "name \"");
		esc(b, name->valuestring);
		buf_puts(b, "\"");
	} else if (side) {
		const cJSON *x;
		int n = 0;
		cJSON_ArrayForEach(x, side) {
			const cJSON *y = before && after ? cJSON_GetObjectItemCaseSensitive(before, x->string)
			    : NULL;
			char *vx = cJSON_PrintUnformatted(x), *vy = y ? cJSON_PrintUnformatted(y) : NULL;
			buf_puts(b, n++ ? sep : "");
			esc(b, x->string ? x->string : "");
			buf_puts(b, ": ");
			if (before && after) {
				esc(b, vy ? vy : "null");
				buf_puts(b, arrow);
			}
			esc(b, vx ? vx : "null");
			free(vx);
			free(vy);
		}
	}
	cJSON_Delete(before);
	cJSON_Delete(after);
}

static cJSON *
json_or_null(const char *s)
{
	cJSON *j = s ? cJSON_Parse(s) : NULL;
	return j ? j : cJSON_CreateNull();
}

static void
audit_json(const struct audit_entry *a, const char *at)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "seq", (double)a->seq);
	cJSON_AddStringToObject(o, "at", at);
	cJSON_AddItemToObject(o, "actor", json_or_null(a->actor));
	cJSON_AddStringToObject(o, "action", a->action);
	if (a->task_id[0])
		cJSON_AddStringToObject(o, "task", a->task_id);
	else
		cJSON_AddNullToObject(o, "task");
	cJSON_AddItemToObject(o, "before", json_or_null(a->before));
	cJSON_AddItemToObject(o, "after", json_or_null(a->after));
	cJSON_AddStringToObject(o, "prev", a->prev);
	cJSON_AddStringToObject(o, "hash", a->hash);
	json_put_line(o);
}

static int
audit_one(const struct audit_entry *a, void *arg)
{
	struct log_view *lv = arg;
	char at[40], who[200], seq[24];
	time_fmt_utc(a->at, at, sizeof at);
	lv->n++;
	if (lv->json) {
		audit_json(a, at);
		return 0;
	}
	struct buf b = {0};
	char task[9];
	audit_actor_describe(a->actor, who, sizeof who);
	audit_change_words(a, &b, NULL, "; ", " -> ");
	snprintf(seq, sizeof seq, "%lld", (long long)a->seq);
	snprintf(task, sizeof task, "%.8s", a->task_id[0] ? a->task_id : "-");
	if (lv->tb) {
		char *change = log_text(b.data ? b.data : "");
		const char *cells[] = {seq, at, who, a->action, task, change};
		table_add(lv->tb, cells);
		free(change);
	} else {
		log_tsv_field(seq, 0);
		log_tsv_field(at, 0);
		log_tsv_field(who, 0);
		log_tsv_field(a->action, 0);
		log_tsv_field(task, 0);
		log_tsv_field(b.data ? b.data : "", 1);
	}
	buf_free(&b);
	return 0;
}

int
log_audit(struct log_view *lv, const char *task_id, long limit, struct err *e)
{
	static const char *const heads[] = {"SEQ", "AT", "WHO", "ACTION", "TASK", "CHANGE"};
	if (lv->terminal)
		lv->tb = table_new(6, heads);
	return store_audit_list(lv->st, task_id, 1, limit, audit_one, lv, e);
}

/* A checkpoint when the chain holds. */
int
log_audit_verify(struct log_view *lv, int64_t now, struct err *e)
{
	struct audit_check c;
	int rc = store_audit_verify(lv->st, now, &c, e);
	if (rc)
		return rc;
	if (lv->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddBoolToObject(o, "intact", !c.bad_seq);
		cJSON_AddNumberToObject(o, "entries", (double)c.entries);
		if (c.bad_seq) {
			cJSON_AddNumberToObject(o, "entry", (double)c.bad_seq);
			cJSON_AddStringToObject(o, "problem", c.removed ? "removed" : "changed");
		} else {
			cJSON_AddNumberToObject(o, "head", (double)c.head_seq);
			cJSON_AddStringToObject(o, "hash", c.head_seq ? c.head : AUDIT_ZERO);
		}
		cJSON_AddNumberToObject(o, "pruned_through", (double)c.base_seq);
		json_put_line(o);
	} else if (!c.bad_seq) {
		printf("audit trail intact: %ld entr%s", c.entries, c.entries == 1 ? "y" : "ies");
		if (c.head_seq)
			printf(", the last %lld with hash %s", (long long)c.head_seq, c.head);
		if (c.base_seq)
			printf(" (entries through %lld pruned)", (long long)c.base_seq);
		putchar('\n');
	}
	if (c.bad_seq)
		return err_set(e, ST_ERR, "the audit trail is broken: entry %lld was %s", (long long)c.bad_seq,
		    c.removed ? "removed" : "changed");
	return ST_OK;
}
