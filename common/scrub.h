/* scrub.h: the configured secrets kept out of what is printed, stored or
 * handed to a hook.  A secret is found raw and in the forms text carries
 * it in: JSON-escaped (\u0073, \/) and URL-encoded (%73), any mix of them,
 * and replaced by "[redacted]".  The secrets: the providers' keys (from
 * the environment, the config and a key file), the PostgreSQL password
 * (in the store's URI or PGPASSWORD), and the config's other values whose
 * names end in _key, _token, _secret or _password.  Values shorter than
 * SCRUB_MIN bytes are not secrets worth hiding: too many words match. */
#ifndef AC_SCRUB_H
#define AC_SCRUB_H

#include <stddef.h>

#include "util.h"

struct config;

#define SCRUB_MIN 6

struct scrub {
	char **secrets;
	size_t n;
	size_t longest;             /* bytes the longest one may take, encoded */
};

/* A stream's text, scrubbed across the chunks it arrives in: what may
 * still be the start of a secret waits for the next chunk. */
struct scrub_stream {
	const struct scrub *s;
	struct buf held;
};

/* scrub.c */
void scrub_init(struct scrub *s);
void scrub_free(struct scrub *s);
void scrub_add(struct scrub *s, const char *secret);      /* copied; short ones ignored */
/* Every secret the environment, cf (or NULL) and store (a path or URI, or
 * NULL) know of, and key_file's key (or NULL). */
void scrub_load(struct scrub *s, const struct config *cf, const char *store, const char *key_file);
/* text (n bytes) without the secrets, malloc'd and NUL-terminated; NULL
 * stays NULL. */
char *scrub_text(const struct scrub *s, const char *text, size_t n);
/* In place: *text replaced by its scrubbed copy. */
void scrub_in_place(const struct scrub *s, char **text);
/* In place, a JSON text: each string scrubbed as the text it stands for
 * (a secret written with escapes that the JSON escapes again is found
 * too), then the whole text as text. */
void scrub_json_in_place(const struct scrub *s, char **json);
/* The next chunk into out (what is sure to hold no secret's start);
 * scrub_stream_end flushes the rest. */
void scrub_stream_init(struct scrub_stream *st, const struct scrub *s);
void scrub_stream_put(struct scrub_stream *st, const char *p, size_t n, struct buf *out);
void scrub_stream_end(struct scrub_stream *st, struct buf *out);

#endif
