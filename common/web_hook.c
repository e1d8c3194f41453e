/* POST /hooks/TASK (web_impl.h): an HTTP trigger fires one task, as
 * task-run --queue does (with a body: as task-run --payload BODY --queue,
 * the body its payload), and nothing else: it reads nothing.  Authorised
 * by the task's trigger token (Authorization: Bearer, its hash compared
 * in constant time) or by its HMAC secret, checked as GitHub signs
 * webhooks (X-Hub-Signature-256: sha256=HEX of HMAC-SHA-256 over the raw
 * body).  An event's key (Idempotency-Key, else X-GitHub-Delivery) is
 * recorded in the same unit of work as the queueing, and kept for
 * hook_keep (history.h) whatever becomes of its run, so a redelivery
 * fires nothing, on any host, even once that run is pruned.  Each task's trigger fires at most
 * hook_rate times a minute in this process; past that, 429 with
 * Retry-After, but for a redelivery, which still gets its 200. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "fire_input.h"
#include "store_web.h"
#include "task_json.h"
#include "web_crypto.h"
#include "web_hook.h"
#include "web_http.h"

int
web_trigger_new(struct store *st, const char *id, int secret, int64_t now, char out[65],
    struct err *e)
{
	char hash[65];
	if (random_hex(out, 32))
		return err_set(e, ST_ERR, "no randomness for the trigger");
	if (sha256_hex(out, hash))
		return err_set(e, ST_ERR, "cannot hash the trigger: %s cannot be loaded", CRYPTO_LIB_SONAME);
	return store_hook_set(st, id, secret ? NULL : hash, secret ? out : NULL, now, e);
}

/* 0 when the task may fire now, else the seconds to wait. */
static int
rate(struct web *w, const char *id)
{
	int64_t now = mono_ms();
	struct web_hook_rate *slot = NULL, *oldest = &w->hooks[0];
	for (int i = 0; i < WEB_HOOK_SLOTS; i++) {
		struct web_hook_rate *h = &w->hooks[i];
		if (strcmp(h->task_id, id) == 0) {
			slot = h;
			break;
		}
		if (h->since < oldest->since)
			oldest = h;
	}
	if (!slot) {
		slot = oldest;
		memset(slot, 0, sizeof *slot);
		snprintf(slot->task_id, sizeof slot->task_id, "%s", id);
	}
	if (!slot->n || now - slot->since >= 60000) {
		slot->n = 0;
		slot->since = now;
	}
	if (slot->n >= w->hook_rate) {
		int64_t left = (60000 - (now - slot->since) + 999) / 1000;
		return left > 0 ? (int)left : 1;
	}
	slot->n++;
	return 0;
}

static int
signed_ok(const struct web_hook *h, const struct web_req *rq)
{
	const char *sig = rq->hub_signature;
	unsigned char mac[32];
	char hex[65];
	if (!h->secret[0] || !sig || strncasecmp(sig, "sha256=", 7) != 0)
		return 0;
	if (hmac_sha256(h->secret, strlen(h->secret), rq->body, rq->nbody, mac))
		return 0;
	hex_encode(mac, 32, hex);
	sig += 7;
	char lower[65];
	size_t n = strlen(sig);
	if (n != 64)
		return 0;
	for (size_t i = 0; i <= n; i++)
		lower[i] = (char)(sig[i] >= 'A' && sig[i] <= 'F' ? sig[i] + 32 : sig[i]);
	return ct_equal(hex, 64, lower, 64);
}

static int
token_ok(const struct web_hook *h, const struct web_req *rq)
{
	const char *a = rq->authorization;
	char hash[65];
	if (!h->token_hash[0] || !a || strncasecmp(a, "Bearer ", 7) != 0)
		return 0;
	if (sha256_hex(a + 7 + strspn(a + 7, " "), hash))
		return 0;
	return ct_equal(h->token_hash, strlen(h->token_hash), hash, 64);
}

/* 202 queued, or 200 for a redelivery, with the run it became once it ran. */
static void
answer(struct web *w, const struct web_req *rq, struct web_resp *rs, const char *id, int dup,
    const char *run_id)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "task", id);
	if (dup) {
		cJSON_AddTrueToObject(j, "duplicate");
		if (run_id && *run_id)
			cJSON_AddStringToObject(j, "run", run_id);
		web_json(rs, 200, j);
		return;
	}
	store_wake(w->st);
	cJSON_AddTrueToObject(j, "queued");
	web_json(rs, 202, j);
	snprintf(rs->log, sizeof rs->log, "trigger: queued task %.8s (%zu bytes%s%s)", id, rq->nbody,
	    rq->event_key ? ", event " : "", rq->event_key ? rq->event_key : "");
}

static int
body_sha(const struct web_req *rq, char out[65], struct err *e)
{
	unsigned char digest[32];
	if (sha256(rq->body, rq->nbody, digest))
		return err_set(e, ST_ERR, "cannot hash the body: %s cannot be loaded", CRYPTO_LIB_SONAME);
	hex_encode(digest, 32, out);
	return ST_OK;
}

/* In the caller's unit: whether the event of key was had, *dup and run_id
 * the run it became while that is kept; its key recorded when it was not.
 * With a body (body_hash its hash) it is task-run --payload --key's event
 * (fire_event_key's form).  Without one it is kept as "bare:KEY": kept as
 * sent before, a bodiless "key:K" was taken for the body event K.  Keys
 * kept so (WEB_HOOK_RAW_SHA) are still found until hook_keep forgets them. */
static int
had(struct web *w, const char *id, const char *key, const struct web_req *rq,
    const char *body_hash, int64_t now, int *dup, char run_id[37], struct err *e)
{
	if (rq->nbody)
		return fire_event_had(w->st, id, key, body_hash, now, dup, run_id, e);
	char *bare = xasprintf("bare:%s", key);
	int rc = store_hook_event(w->st, id, bare, NULL, now, dup, e);
	free(bare);
	if (!rc && !*dup)
		rc = store_hook_find(w->st, id, key, WEB_HOOK_RAW_SHA, dup, e);
	return rc;
}

/* The event queued, as task-run --payload --key --queue does, its key
 * recorded in the same unit of work: kept for hook_keep, past its run's
 * pruning, so a late redelivery still fires nothing.  dry: only whether
 * it was had (*dup), writing nothing. */
static int
queue(struct web *w, const char *id, const struct web_req *rq, const char *key, int64_t now,
    int dry, int *dup, char run_id[37], struct err *e)
{
	struct run_input in;
	char body_hash[65];
	int added = 0, rc;
	run_input_init(&in);
	*dup = 0;
	run_id[0] = 0;
	if (rq->nbody && (rc = body_sha(rq, body_hash, e)))
		return rc;
	if (rq->nbody && (rc = fire_event_key(key, &in.key, e)))
		return rc;
	if (rq->nbody && uuid4(in.id) != 0) {
		free(in.key);
		return err_set(e, ST_ERR, "cannot make an event's id: no randomness");
	}
	memcpy(in.task_id, id, sizeof in.task_id);
	in.kind = INPUT_EVENT;
	in.created_at = now;
	rc = store_begin(w->st, e);
	if (!rc && key)
		rc = had(w, id, rq->nbody ? in.key : key, rq, body_hash, now, dup, run_id, e);
	if (!rc && !*dup && !dry && rq->nbody) {
		in.text = xstrndup(rq->body, rq->nbody);
		rc = store_input_add(w->st, &in, &added, e);
		free(in.text);
		/* Another host queued it since. */
		*dup = !rc && !added;
	}
	if (!rc && !*dup && !dry)
		rc = store_task_queue(w->st, id, now, e);
	if (!rc && !dry)
		rc = store_commit(w->st, e);
	if (rc || dry)
		store_rollback(w->st);
	free(in.key);
	return rc;
}

void
web_hook(struct web *w, const struct web_req *rq, struct web_resp *rs)
{
	struct err e = {{0}};
	struct web_hook h;
	char id[37], arg[80];
	const char *name = rq->path + 7;
	int64_t now;
	int rc, dup = 0;
	if (!*name || strlen(name) >= sizeof arg || strchr(name, '/')) {
		web_error(rs, 404, 1, "no such trigger");
		return;
	}
	snprintf(arg, sizeof arg, "%s", name);
	/* Unknown task and task without a trigger answer alike: a caller
	 * without the token learns nothing of which tasks exist. */
	rc = store_task_resolve(w->st, arg, 0, id, &e);
	if (!rc)
		rc = store_hook_get(w->st, id, &h, &e);
	if (rc == ST_ERR) {
		web_error(rs, 503, 1, "%s", e.msg);
		return;
	}
	if (rc || !(token_ok(&h, rq) || signed_ok(&h, rq))) {
		web_failed(w, rq, rs, "a trigger without its token or signature");
		web_error(rs, 401, 1, "a trigger needs its token (Bearer) or a valid X-Hub-Signature-256");
		return;
	}
	char run_id[37] = "";
	/* A body is the event's payload ({{input}}, TASK_PAYLOAD), its key the
	 * event's, as task-run --payload --key takes them; one that is no
	 * text is refused before it counts against the rate. */
	if (rq->nbody && (rc = fire_payload_check(rq->body, rq->nbody, &e))) {
		web_error(rs, 400, 1, "%s", e.msg);
		return;
	}
	/* One key, one rule, with a body or without: it is stored as text. */
	const char *key = rq->event_key && *rq->event_key ? rq->event_key : NULL;
	char *checked = NULL;
	rc = key ? fire_event_key(key, &checked, &e) : ST_OK;
	free(checked);
	if (rc) {
		web_error(rs, 400, 1, "%s", e.msg);
		return;
	}
	int wait = rate(w, id);
	if (wait && key) {
		rc = now_get(&now, &e);
		if (rc || (rc = queue(w, id, rq, key, now, 1, &dup, run_id, &e))) {
			web_error(rs, 503, 1, "%s", e.msg);
			return;
		}
		if (dup) {
			answer(w, rq, rs, id, dup, run_id);
			return;
		}
	}
	if (wait) {
		rs->retry_after = wait;
		web_error(rs, 429, 1, "task '%.8s' fired %d times this minute (hook_rate); try again in %d s",
		    id, w->hook_rate, wait);
		return;
	}
	rc = now_get(&now, &e);
	if (!rc)
		rc = queue(w, id, rq, key, now, 0, &dup, run_id, &e);
	if (rc) {
		web_error(rs, rc == ST_INVALID ? 400 : rc == ST_NOTFOUND ? 404 : 503, 1, "%s", e.msg);
		return;
	}
	answer(w, rq, rs, id, dup, run_id);
}
