/* web.h: task-web's requests and answers, without the HTTP server: the
 * program (cmd/task-web.c) hands each request over as a struct web_req
 * and sends back the struct web_resp it gets.  Who is asking (a bearer
 * token, a session from the one-time login link), what they may do, the
 * JSON API, the actions and the pages are all decided here. */
#ifndef AC_WEB_H
#define AC_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "util.h"

#define WEB_BODY_MAX (1 << 20)   /* bytes of a request's body, at most */
#define WEB_SESSION_SECS 43200   /* a session from the login link lasts 12 hours */
#define WEB_FAIL_MAX 10          /* failed logins from one address a minute before 429 */

struct web_kv {
	char *key, *value;
};

struct web_req {
	const char *method, *path;   /* path decoded, without the query */
	const char *addr;            /* the client's address, for the log */
	const char *authorization, *cookie, *content_type, *csrf_header;
	const char *hub_signature;   /* X-Hub-Signature-256 */
	const char *event_key;       /* Idempotency-Key, else X-GitHub-Delivery */
	struct web_kv *query;        /* the query's arguments */
	size_t nquery;
	const char *body;            /* POST: the raw body */
	size_t nbody;
};

struct web_resp {
	int status;
	const char *content_type;    /* a literal */
	struct buf body;
	char location[512];          /* a redirect's, or "" */
	char set_cookie[256];        /* or "" */
	int retry_after;             /* seconds, 0: none */
	int cacheable;               /* a static file: may be kept an hour */
	char log[600];               /* a line task-web prints on stderr, or "" */
};

struct web_opts {
	int read_only;               /* refuse every action whoever asks */
	const char *bin_dir;         /* where task-status is (/api/status, /metrics); NULL: PATH */
	int hook_rate;               /* fires of one task's trigger a minute, at most (0: 60) */
};

struct web;
/* web.c */
int web_new(struct store *st, const struct web_opts *o, struct web **out, struct err *e);
void web_free(struct web *w);
/* A new one-time login key (hex) into key[65], the old one forgotten. */
int web_login_key(struct web *w, char key[65], struct err *e);
void web_handle(struct web *w, const struct web_req *rq, struct web_resp *rs);
void web_resp_free(struct web_resp *rs);
/* Make a token named name: the token into tok[65] (shown once), its hash
 * into the store. */
int web_token_new(struct store *st, const char *name, int read_only, int64_t now, char tok[65],
    struct err *e);
int web_token_name_ok(const char *name, struct err *e);
/* A new trigger token (secret 0) or HMAC secret (secret 1) for task id:
 * into out[65], shown once; a token's hash, a secret itself, is stored. */
int web_trigger_new(struct store *st, const char *id, int secret, int64_t now, char out[65],
    struct err *e);
/* Does the store hold at least one token? */
int web_tokens_exist(struct store *st, int *any, struct err *e);


/* web_listen.c: a listening socket, the URL it answers at */
struct web_listener {
	int fd;
	int loopback;                /* only this machine reaches it */
	char url[300];               /* http://ADDR:PORT, or unix:PATH */
};
/* ADDRESS:PORT (port 0: a free one), numeric or localhost. */
int web_listen_tcp(const char *spec, struct web_listener *w, struct err *e);
/* A Unix socket of mode 0600 at path (one left by an earlier run replaced). */
int web_listen_unix(const char *path, struct web_listener *w, struct err *e);

/* web_admin.c: --new-token NAME (make), --revoke NAME, --tokens (list);
 * --trigger-token / --trigger-secret of task arg.  Messages as prog's. */
int web_tokens_admin(const char *prog, const char *make, const char *revoke, int list,
    int read_only, struct err *e);
int web_trigger_admin(const char *prog, const char *arg, int secret, struct err *e);
#endif
