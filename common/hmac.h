/* hmac.h: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for signing
 * deliveries the way the Standard Webhooks specification says; none of
 * the libraries agentcron links offers them.  Checked against the
 * standards' test vectors in tests/unit/t-hmac.c.  Base64 (RFC 4648) both
 * ways, for the signature and the whsec_ secrets. */
#ifndef AC_HMAC_H
#define AC_HMAC_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t len;             /* bytes so far */
	unsigned char block[64];
	size_t used;
};

/* hmac.c */
void sha256_init(struct sha256 *s);
void sha256_add(struct sha256 *s, const void *p, size_t n);
void sha256_end(struct sha256 *s, unsigned char out[SHA256_LEN]);
/* The one-shot forms. */
void sha256(const void *p, size_t n, unsigned char out[SHA256_LEN]);
void hmac_sha256(const void *key, size_t nkey, const void *msg, size_t nmsg,
    unsigned char out[SHA256_LEN]);
char *base64_encode(const unsigned char *p, size_t n);            /* malloc'd */
/* Standard or URL-safe alphabet, padding optional; NULL for anything
 * else.  *n the bytes, malloc'd. */
unsigned char *base64_decode(const char *s, size_t *n);

#endif
