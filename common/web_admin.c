/* web_admin.c: task-web's administration from the command line (web.h):
 * tokens made, revoked and listed, and a task's trigger token or secret. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>

#include "store.h"
#include "store_audit.h"
#include "store_web.h"
#include "web.h"

static int
print_token(const struct web_token *t, void *arg)
{
	(void)arg;
	char at[32];
	time_fmt_utc(t->created_at, at, sizeof at);
	printf("%s\t%s\t%s\n", t->name, t->read_only ? "read-only" : "read-write", at);
	return 0;
}

int
web_tokens_admin(const char *prog, const char *make, const char *revoke, int list, int read_only, struct err *e)
{
	struct store *st = NULL;
	int64_t now;
	int rc = now_get(&now, e);
	if (!rc && !(rc = store_open(NULL, list ? STORE_READ : 0, &st, e)))
		store_audit_by_user(st);
	if (!rc && make) {
		char tok[65];
		if (!(rc = web_token_new(st, make, read_only, now, tok, e))) {
			printf("%s\n", tok);
			fprintf(stderr, "%s: made %s token '%s'; it is shown this once, only its hash is kept\n",
			    prog, read_only ? "read-only" : "read-write", make);
		}
		explicit_bzero(tok, sizeof tok);
	} else if (!rc && revoke) {
		if (!(rc = store_token_revoke(st, revoke, e)))
			fprintf(stderr, "%s: revoked token '%s'\n", prog, revoke);
	} else if (!rc) {
		rc = store_token_list(st, print_token, NULL, e);
	}
	store_close(st);
	return rc;
}

int
web_trigger_admin(const char *prog, const char *arg, int secret, struct err *e)
{
	struct store *st = NULL;
	char id[37], out[65];
	int64_t now;
	int rc = now_get(&now, e);
	if (!rc && !(rc = store_open(NULL, 0, &st, e)))
		store_audit_by_user(st);
	if (!rc)
		rc = store_task_resolve(st, arg, 0, id, e);
	if (!rc && !(rc = web_trigger_new(st, id, secret, now, out, e))) {
		printf("%s\n", out);
		fprintf(stderr, "%s: a new trigger %s for task %.8s: POST /hooks/%s; shown this once\n", prog,
		    secret ? "secret (X-Hub-Signature-256)" : "token (Authorization: Bearer)", id, id);
	}
	explicit_bzero(out, sizeof out);
	store_close(st);
	return rc;
}
