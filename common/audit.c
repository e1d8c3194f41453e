/* audit.c: the entries of the audit trail (audit.h): their hash, who made
 * them, and what changed.  SHA-256 is OpenSSL's (libcrypto's EVP). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "audit.h"
#include "hmac.h"
#include "host.h"
#include "task.h"
#include "task_json.h"
#include "web_crypto.h"

void
audit_entry_free(struct audit_entry *a)
{
	free(a->actor);
	free(a->before);
	free(a->after);
	a->actor = a->before = a->after = NULL;
}

static void
field(struct buf *b, const char *s)
{
	if (!s) {
		buf_puts(b, "-\n");
		return;
	}
	buf_printf(b, "%zu:", strlen(s));
	buf_puts(b, s);
	buf_puts(b, "\n");
}

int
audit_hash(const struct audit_entry *a, char out[65])
{
	struct buf b = {0};
	char num[32];
	buf_puts(&b, "agentcron-audit-1\n");
	snprintf(num, sizeof num, "%lld", (long long)a->seq);
	field(&b, num);
	snprintf(num, sizeof num, "%lld", (long long)a->at);
	field(&b, num);
	field(&b, a->actor);
	field(&b, a->action);
	field(&b, a->task_id[0] ? a->task_id : NULL);
	field(&b, a->before);
	field(&b, a->after);
	field(&b, a->prev);
	unsigned char md[SHA256_LEN];
	int rc = sha256(b.data, b.len, md);
	buf_free(&b);
	if (rc)
		return -1;
	hex_encode(md, SHA256_LEN, out);
	return 0;
}

static char *
print_free(cJSON *j)
{
	char *s = json_print_line(j);
	cJSON_Delete(j);
	return s;
}

static cJSON *
actor_base(void)
{
	char host[256];
	history_host(host, sizeof host);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "uid", (double)getuid());
	cJSON_AddStringToObject(j, "host", host);
	return j;
}

char *
audit_actor_user(void)
{
	return print_free(actor_base());
}

char *
audit_actor_agent(const char *origin, const char *run_id, const char *run_task,
    const char *scope)
{
	cJSON *j = actor_base();
	cJSON_AddStringToObject(j, "agent", origin ? origin : "agent");
	if (run_id && *run_id)
		cJSON_AddStringToObject(j, "run", run_id);
	/* What granted the run its access, found after the run is pruned. */
	if (run_task && *run_task)
		cJSON_AddStringToObject(j, "task", run_task);
	if (scope && *scope)
		cJSON_AddStringToObject(j, "scope", scope);
	return print_free(j);
}

char *
audit_actor_scheduler(void)
{
	cJSON *j = actor_base();
	cJSON_AddStringToObject(j, "scheduler", "task-tick");
	return print_free(j);
}

char *
audit_actor_token(const char *name)
{
	cJSON *j = actor_base();
	cJSON_AddStringToObject(j, "token", name);
	return print_free(j);
}

void
audit_actor_describe(const char *actor, char *buf, size_t n)
{
	cJSON *j = actor ? cJSON_Parse(actor) : NULL;
	const cJSON *tok = cJSON_GetObjectItemCaseSensitive(j, "token");
	const cJSON *agent = cJSON_GetObjectItemCaseSensitive(j, "agent");
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(j, "run");
	const cJSON *scope = cJSON_GetObjectItemCaseSensitive(j, "scope");
	const cJSON *uid = cJSON_GetObjectItemCaseSensitive(j, "uid");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(j, "host");
	const cJSON *sched = cJSON_GetObjectItemCaseSensitive(j, "scheduler");
	if (cJSON_IsString(sched) && cJSON_IsNumber(uid) && cJSON_IsString(host))
		snprintf(buf, n, "%s (uid %lld on %s)", sched->valuestring, (long long)uid->valuedouble,
		    host->valuestring);
	else if (cJSON_IsString(tok))
		snprintf(buf, n, "token %s", tok->valuestring);
	else if (cJSON_IsString(agent) && cJSON_IsString(run))
		snprintf(buf, n, "agent run %.8s%s%s%s", run->valuestring,
		    cJSON_IsString(scope) ? " (scope " : "", cJSON_IsString(scope) ? scope->valuestring : "",
		    cJSON_IsString(scope) ? ")" : "");
	else if (cJSON_IsString(agent))
		snprintf(buf, n, "%s%s%s%s", agent->valuestring,
		    cJSON_IsString(scope) ? " (scope " : "", cJSON_IsString(scope) ? scope->valuestring : "",
		    cJSON_IsString(scope) ? ")" : "");
	else if (cJSON_IsNumber(uid) && cJSON_IsString(host))
		snprintf(buf, n, "uid %lld on %s", (long long)uid->valuedouble, host->valuestring);
	else
		snprintf(buf, n, "unknown");
	cJSON_Delete(j);
}

/* Fields that follow from others or from firing: a change of these alone
 * is no one's edit. */
static int
bookkeeping(const char *k)
{
	static const char *const keys[] = {"updated_at", "description", "next_run_at", "due_at",
	    "status", "paused", "consecutive_failures", NULL};
	for (int i = 0; keys[i]; i++)
		if (strcmp(k, keys[i]) == 0)
			return 1;
	return 0;
}

/* The fields that grant a task's runs authority. */
static int
grant_key(const char *k)
{
	static const char *const keys[] = {"mcp", "mcp_allow", "scope", "deliver", "attachments", NULL};
	for (int i = 0; keys[i]; i++)
		if (strcmp(k, keys[i]) == 0)
			return 1;
	return 0;
}

/* A whole task as its fields that are set: a null says nothing of a task
 * created or deleted, and an import's trail is a third the size without
 * them.  Its name and prompt stay, which say an entry is a whole task. */
static cJSON *
set_fields(cJSON *task)
{
	cJSON *x = task ? task->child : NULL;
	while (x) {
		cJSON *next = x->next;
		if (cJSON_IsNull(x) && strcmp(x->string, "name") != 0 && strcmp(x->string, "prompt") != 0)
			cJSON_Delete(cJSON_DetachItemViaPointer(task, x));
		x = next;
	}
	return task;
}

int
audit_task_diff(const struct task *a, const struct task *b, struct zones *zs, char **before,
    char **after, const char **action, int *same)
{
	cJSON *ja = a ? task_to_json(a, zs) : NULL, *jb = b ? task_to_json(b, zs) : NULL;
	*before = *after = NULL;
	*same = 0;
	if (!ja || !jb) {
		*action = ja ? "delete" : "create";
		if (ja)
			*before = print_free(set_fields(ja));
		if (jb)
			*after = print_free(set_fields(jb));
		return 0;
	}
	cJSON *da = cJSON_CreateObject(), *db = cJSON_CreateObject();
	int edits = 0, grants = 0, any = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, jb) {
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(ja, x->string);
		if (strcmp(x->string, "updated_at") == 0 || (y && cJSON_Compare(x, y, 1)))
			continue;
		any = 1;
		if (grant_key(x->string))
			grants = 1;
		else if (!bookkeeping(x->string) && strcmp(x->string, "enabled") != 0)
			edits = 1;
		cJSON_AddItemToObject(da, x->string, y ? cJSON_Duplicate(y, 1) : cJSON_CreateNull());
		cJSON_AddItemToObject(db, x->string, cJSON_Duplicate(x, 1));
	}
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(db, "enabled");
	const cJSON *stat = cJSON_GetObjectItemCaseSensitive(db, "status");
	if (edits)
		*action = "edit";
	else if (grants)
		*action = "grant";
	else if (en)
		*action = cJSON_IsTrue(en) ? "enable" : "pause";
	else if (cJSON_IsString(stat) && strcmp(stat->valuestring, "cancelled") == 0)
		*action = "cancel";
	else
		*action = "edit";
	/* Only what firing moves (the next run, a status) is not a change anyone made. */
	*same = !any || (!edits && !grants && !en && !(cJSON_IsString(stat) &&
	    strcmp(stat->valuestring, "cancelled") == 0) &&
	    !cJSON_GetObjectItemCaseSensitive(db, "paused"));
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	if (*same) {
		cJSON_Delete(da);
		cJSON_Delete(db);
		return 0;
	}
	*before = print_free(da);
	*after = print_free(db);
	return 0;
}
