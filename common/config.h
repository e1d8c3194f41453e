/* config.h: the user's configuration file, $XDG_CONFIG_HOME/agentcron/config
 * (else ~/.config/agentcron/config): `key = value` lines, '#' comments.  Any
 * program may read any key (llm-call: model, provider, *_api_key,
 * *_base_url, timeout, ...; task-tick: exec, notify).  A file that holds a
 * key (a name ending in "_key") is refused when group or others can read it,
 * and any file that group or others can write is refused, since `exec` and
 * the base URLs decide what runs and where keys are sent. */
#ifndef AC_CONFIG_H
#define AC_CONFIG_H

#include <stddef.h>

#include "util.h"

struct config;

/* config.c */
const char *config_default_path(char *buf, size_t n);
/* The default file.  A missing file is an empty configuration; ST_INVALID
 * for a bad line ("config:3: ...") or unsafe permissions (the message gives
 * the chmod that fixes them), ST_ERR when it cannot be read. */
int config_load(struct config **out, struct err *e);
int config_load_file(const char *path, struct config **out, struct err *e); /* the same, one file */
const char *config_get(const struct config *c, const char *key); /* NULL if unset */
const char *config_path(const struct config *c);
/* The keys of c that nothing reads (misspelt, most likely), one a call
 * from *pos (start at 0); NULL after the last. */
const char *config_unknown(const struct config *c, size_t *pos);
/* From *pos on (start at 0), the next secret value: of a key ending in
 * _key, _token, _secret or _password, smtp_url, and the URL of a webhook,
 * slack or ntfy target named deliver.NAME; NULL at the end. */
const char *config_secret_next(const struct config *c, size_t *pos);
/* The `tz` key as the local zone (TZ) when the environment sets none, so
 * every reading and listing uses it; ST_INVALID when it names no zone. */
int config_tz(const struct config *c, struct err *e);
/* How the user's config says time expressions are read, as when.h's
 * WHEN_* flags: date_order = dmy sets WHEN_DMY.  Loads the default file;
 * a bad file or value is ST_INVALID or ST_ERR with the file named. */
int config_when_flags(unsigned *flags, struct err *e);
/* `stagger`: seconds a fixed-time occurrence may be put off, per task
 * (0: off, the default); ST_INVALID beyond CONFIG_STAGGER_MAX.  c may be
 * NULL; _load reads the default file. */
#define CONFIG_STAGGER_MAX 86400
int config_stagger(const struct config *c, int *secs, struct err *e);
int config_stagger_load(int *secs, struct err *e);
/* How many llm-call runs may be in flight at once across tickers and
 * hosts: max_concurrent (0: no limit) in *max_all, after checking it and
 * every concurrency.MODEL (ST_INVALID naming the bad one). */
int config_limits(const struct config *c, int *max_all, struct err *e);
int config_model_limit(const struct config *c, const char *model); /* concurrency.MODEL; 0: none */
void config_free(struct config *c);                 /* values wiped: some are keys */
/* The one rule for a private file (this config, mcp.json, a key file): a
 * regular file (a FIFO or a device is refused, never waited on), owned by
 * this user or root, that group and others cannot change, of at most max
 * bytes, read into b (wipe it with buf_wipe) and *mode set to its
 * permissions; ST_NOTFOUND when it does not exist.  Messages name it as
 * what and path: "config '/home/a/.config/agentcron/config'". */
int config_read_private(const char *what, const char *path, size_t max, struct buf *b,
    unsigned *mode, struct err *e);
/* A private file found to hold holds ("an API key") must not be readable
 * by group or others either. */
int config_private_secret(const char *what, const char *path, unsigned mode, const char *holds,
    struct err *e);

#endif
