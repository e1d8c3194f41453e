/* pg_uri.h: the secrets a PostgreSQL URI or connection string may hold (the password after
 * user:, and the password= and sslpassword= parameters, however their keys
 * and values are percent-encoded), kept out of everything printed. */
#ifndef AC_PG_URI_H
#define AC_PG_URI_H

#include <stddef.h>

/* pg_uri.c; each takes a URI or a connection string (key=value settings) */
int pg_conninfo_is(const char *s);       /* a connection string: begins "key=" */
void pg_uri_mask(const char *uri, char *buf, size_t n);  /* uri without its secrets */
char *pg_uri_password(const char *uri);   /* its password, decoded; NULL if none; free it */
/* msg (NUL-terminated, cap bytes) with uri written as pg_uri_mask writes
 * it and every secret of uri, as given or decoded, as "***": libpq's
 * messages quote a malformed URI whole. */
void pg_uri_scrub(char *msg, size_t cap, const char *uri);

#endif
