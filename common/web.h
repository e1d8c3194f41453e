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
#include "web_hook.h"
#include "web_http.h"

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
/* Make a token named name: the token into tok[65] (shown once), its hash
 * into the store. */
int web_token_new(struct store *st, const char *name, int read_only, int64_t now, char tok[65],
    struct err *e);
int web_token_name_ok(const char *name, struct err *e);
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
