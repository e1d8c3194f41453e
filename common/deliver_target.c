/* deliver_target.c: delivery targets, their masks and the policy of which
 * runs are delivered (deliver.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "deliver.h"
#include "exec.h"
#include "notify_on.h"
#include "store_run.h"
#include "task.h"
#include "utf8.h"

static const char *const kind_names[DK_COUNT] = {"webhook", "slack", "ntfy", "telegram", "mailto",
	"exec"};

const char *
deliver_kind_name(int kind)
{
	return kind >= 0 && kind < DK_COUNT ? kind_names[kind] : "unknown";
}

static int
is_http_url(const char *s)
{
	const char *p = strncmp(s, "https://", 8) == 0 ? s + 8 : strncmp(s, "http://", 7) == 0 ? s + 7 : NULL;
	return p && *p && *p != '/';
}

static int
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* An address as RFC 5321 carries it, without the display name: one @,
 * something either side, no blanks, brackets or commas. */
static int
is_address(const char *s)
{
	const char *at = strchr(s, '@');
	if (!at || at == s || !at[1] || strchr(at + 1, '@'))
		return 0;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || strchr("<>,;\"()[]\\", *s))
			return 0;
	return 1;
}

/* @ and a name, or a number as Telegram makes them: no leading zero (it
 * goes as a JSON number), within 64 bits. */
static int
is_chat_id(const char *s)
{
	if (*s == '@') {
		if (!s[1])
			return 0;
		for (s++; *s; s++)
			if (!isalnum((unsigned char)*s) && *s != '_')
				return 0;
		return 1;
	}
	const char *d = s + (*s == '-');
	size_t n = strspn(d, "0123456789");
	if (n == 0 || d[n] || *d == '0')
		return 0;
	errno = 0;
	(void)strtoll(s, NULL, 10);
	return errno != ERANGE;
}

static int
name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return 0;
	return 1;
}

int
deliver_target_parse(const char *target, int *kind, const char **rest, struct err *e)
{
	char shown[160];
	deliver_target_mask(target, shown, sizeof shown);
	const char *colon = strchr(target, ':');
	int k = -1;
	for (int i = 0; colon && i < DK_COUNT; i++)
		if ((size_t)(colon - target) == strlen(kind_names[i]) &&
		    strncmp(target, kind_names[i], colon - target) == 0)
			k = i;
	if (k < 0)
		return err_set(e, ST_INVALID, "delivery target '%s': expected webhook:URL, slack:URL,"
		    " ntfy:URL, telegram:CHAT_ID, mailto:ADDRESS, exec:COMMAND or @NAME", shown);
	const char *r = colon + 1, *why = NULL;
	struct err sub;
	if (strlen(target) > DELIVER_TARGET_MAX)
		why = "is too long";
	else if (!utf8_valid(target, strlen(target)))
		why = "is not UTF-8 text";
	else if (k != DK_EXEC && has_control(r))
		why = "holds a control character";
	else if ((k == DK_WEBHOOK || k == DK_SLACK || k == DK_NTFY) && !is_http_url(r))
		why = "needs an http:// or https:// URL";
	else if (k == DK_TELEGRAM && !is_chat_id(r))
		why = "needs a chat id (a number, or @channel)";
	else if (k == DK_MAILTO && !is_address(r))
		why = "needs one mail address (user@example.org)";
	else if (k == DK_EXEC && exec_check(r, &sub))
		return err_set(e, ST_INVALID, "delivery target '%s': %s", shown, sub.msg);
	if (why)
		return err_set(e, ST_INVALID, "delivery target '%s' %s", shown, why);
	*kind = k;
	*rest = r;
	return ST_OK;
}

int
deliver_target_check(const char *target, struct err *e)
{
	int kind;
	const char *rest;
	if (target[0] == '@') {
		if (!name_ok(target + 1))
			return err_set(e, ST_INVALID, "delivery target '%.80s': a name is letters, digits,"
			    " '_', '-' and '.'", target);
		return ST_OK;
	}
	return deliver_target_parse(target, &kind, &rest, e);
}

int
deliver_targets_check(const char *json, struct err *e)
{
	if (!json)
		return ST_OK;
	cJSON *j = cJSON_Parse(json);
	int rc = ST_OK, n = cJSON_GetArraySize(j);
	const cJSON *it;
	if (!cJSON_IsArray(j) || n < 1)
		rc = err_set(e, ST_INVALID, "deliver must be a JSON array of delivery targets");
	else if (n > DELIVER_TARGETS_MAX)
		rc = err_set(e, ST_INVALID, "deliver: at most %d targets", DELIVER_TARGETS_MAX);
	cJSON_ArrayForEach(it, j) {
		if (rc)
			break;
		if (!cJSON_IsString(it))
			rc = err_set(e, ST_INVALID, "deliver must be a JSON array of delivery targets");
		else
			rc = deliver_target_check(it->valuestring, e);
	}
	cJSON_Delete(j);
	return rc;
}

void
deliver_target_mask(const char *target, char *buf, size_t n)
{
	const char *colon = strchr(target, ':');
	const char *url = colon ? colon + 1 : NULL;
	const char *host = NULL;
	if (url && strncmp(url, "https://", 8) == 0)
		host = url + 8;
	else if (url && strncmp(url, "http://", 7) == 0)
		host = url + 7;
	int plain = target[0] == '@' || strncmp(target, "exec:", 5) == 0 ||
	    strncmp(target, "telegram:", 9) == 0 || strncmp(target, "mailto:", 7) == 0;
	/* Not a URL where one belongs (or a kind misspelt): all but the kind hidden. */
	if (!host && !plain && colon) {
		snprintf(buf, n, "%.*s:***", (int)(colon - target > 40 ? 40 : colon - target), target);
		return;
	}
	if (!host || plain) {
		size_t len = strlen(target);
		if (len >= n)
			len = n ? utf8_cut(target, n - 1) : 0;
		if (n) {
			memcpy(buf, target, len);
			buf[len] = 0;
		}
		return;
	}
	size_t hl = strcspn(host, "/?#");
	const char *at = memchr(host, '@', hl);
	const char *h = at ? at + 1 : host;
	size_t l = hl - (size_t)(h - host);
	int more = host[hl] != 0 && !(host[hl] == '/' && host[hl + 1] == 0);
	snprintf(buf, n, "%.*s%.*s%s", (int)(host - target), target, (int)(l > 200 ? 200 : l), h,
	    more ? "/***" : "");
}

char *
deliver_targets_mask(const char *json)
{
	cJSON *j = cJSON_Parse(json), *out = cJSON_CreateArray();
	const cJSON *it;
	char buf[300];
	cJSON_ArrayForEach(it, j) {
		if (!cJSON_IsString(it)) {
			cJSON_AddItemToArray(out, cJSON_Duplicate(it, 1));
			continue;
		}
		deliver_target_mask(it->valuestring, buf, sizeof buf);
		cJSON_AddItemToArray(out, cJSON_CreateString(buf));
	}
	char *s = cJSON_PrintUnformatted(out);
	cJSON_Delete(j);
	cJSON_Delete(out);
	return s;
}

int
deliver_resolve(const struct config *c, const char *target, char **out, struct err *e)
{
	if (target[0] != '@') {
		*out = xstrdup(target);
		return ST_OK;
	}
	char key[200];
	snprintf(key, sizeof key, "deliver.%.180s", target + 1);
	const char *v = c ? config_get(c, key) : NULL;
	if (!v || !*v)
		return err_set(e, ST_INVALID, "no delivery target '%s': the config has no %s", target, key);
	int kind;
	const char *rest;
	int rc = deliver_target_parse(v, &kind, &rest, e);
	if (rc)
		return err_set(e, rc, "%s: %s", key, e->msg);
	*out = xstrdup(v);
	return ST_OK;
}

char **
deliver_targets_of(const struct task *t, const struct config *c, size_t *n)
{
	*n = 0;
	if (t->deliver) {
		cJSON *j = cJSON_Parse(t->deliver);
		int m = cJSON_GetArraySize(j);
		char **v = xcalloc((size_t)m + 1, sizeof *v);
		const cJSON *it;
		cJSON_ArrayForEach(it, j)
			if (cJSON_IsString(it))
				v[(*n)++] = xstrdup(it->valuestring);
		cJSON_Delete(j);
		return v;
	}
	const char *def = c ? config_get(c, "deliver") : NULL;
	if (!def || str_empty(def))
		return NULL;
	return str_words(def, n);
}

int
deliver_on_parse(const char *list, unsigned *mask, struct err *e)
{
	if (!list) {
		*mask = (1u << EV_FAILURE) | (1u << EV_SUCCESS);
		return ST_OK;
	}
	return notify_on_parse(list, mask, e);
}

static int
is_failure(int status)
{
	return status == RUN_FAILED || status == RUN_TIMEOUT || status == RUN_INTERRUPTED ||
	    status == RUN_BLOCKED;
}

int
deliver_wants(unsigned mask, const struct run *r, const struct run *prev, const char *prev_success)
{
	/* A replay is for comparing (task-log --diff), not for anyone's inbox. */
	if (r->trigger == TRIGGER_REPLAY)
		return 0;
	if (is_failure(r->status))
		return (mask & (1u << EV_FAILURE)) != 0;
	if (r->status != RUN_SUCCESS)
		return 0;
	if (mask & (1u << EV_SUCCESS))
		return 1;
	if ((mask & (1u << EV_RECOVERY)) && prev && is_failure(prev->status))
		return 1;
	if (mask & (1u << EV_CHANGE)) {
		const char *now = r->output ? r->output : "";
		return !prev_success || strcmp(prev_success, now) != 0;
	}
	return 0;
}
