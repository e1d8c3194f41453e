/* store_web.h: task-web's access tokens in the store, so every host that
 * serves the same store accepts the same tokens.  Only a token's SHA-256
 * (hex) is kept; the token itself is shown once, when it is made. */
#ifndef AC_STORE_WEB_H
#define AC_STORE_WEB_H

#include <stdint.h>

#include "store.h"

struct web_token {
	char name[65];
	char hash[65];         /* sha-256 of the token, hex */
	int read_only;
	int64_t created_at;
};
typedef int (*web_token_fn)(const struct web_token *t, void *arg); /* non-zero stops */

/* store_web.c */
int store_token_add(struct store *st, const struct web_token *t, struct err *e); /* ST_REFUSED: name taken */
int store_token_revoke(struct store *st, const char *name, struct err *e);       /* ST_NOTFOUND */
int store_token_list(struct store *st, web_token_fn fn, void *arg, struct err *e); /* by name */

/* What a backend provides for them (store_backend.h's store_ops.web). */
struct web_store_ops {
	int (*token_add)(struct store *st, const struct web_token *t, struct err *e);
	int (*token_del)(struct store *st, const char *name, int *found, struct err *e);
	int (*token_list)(struct store *st, web_token_fn fn, void *arg, struct err *e);
};

#endif
