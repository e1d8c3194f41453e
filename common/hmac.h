/* hmac.h: SHA-256 and HMAC-SHA256 (OpenSSL's libcrypto, loaded when first
 * needed), for the audit trail's chain, task-web's token hashes and
 * GitHub-style signatures, and signing deliveries the way the Standard
 * Webhooks specification says; checked against FIPS 180-4's and RFC
 * 4231's test vectors in tests/unit/t-deliver.c and t-web.c.  Base64
 * (RFC 4648) both ways, for the signature and the whsec_ secrets. */
#ifndef AC_HMAC_H
#define AC_HMAC_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
/* The libcrypto of OpenSSL 3, the one libpq and libcurl load too. */
#define CRYPTO_LIB_SONAME "libcrypto.so.3"

/* hmac.c: 0, or -1 when libcrypto cannot be loaded. */
int sha256(const void *p, size_t n, unsigned char out[SHA256_LEN]);
int hmac_sha256(const void *key, size_t nkey, const void *msg, size_t nmsg,
    unsigned char out[SHA256_LEN]);
char *base64_encode(const unsigned char *p, size_t n);            /* malloc'd */
/* Standard or URL-safe alphabet, padding optional; NULL for anything
 * else.  *n the bytes, malloc'd. */
unsigned char *base64_decode(const char *s, size_t *n);

#endif
