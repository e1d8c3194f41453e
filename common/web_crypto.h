/* web_crypto.h: what task-web needs of cryptography, none of which the
 * libraries it links provide (libcurl and its TLS library are not linked
 * into it): SHA-256 (FIPS 180-4) for the hashes of tokens kept in the
 * store, HMAC-SHA-256 (RFC 2104) for GitHub-style signatures, comparisons
 * in constant time, and random tokens. */
#ifndef AC_WEB_CRYPTO_H
#define AC_WEB_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/* web_crypto.c */
void sha256(const void *data, size_t n, unsigned char out[32]);
void hmac_sha256(const void *key, size_t nkey, const void *data, size_t n, unsigned char out[32]);
void hex_encode(const unsigned char *b, size_t n, char *out);   /* out has 2n + 1 bytes */
void sha256_hex(const char *s, char out[65]);                   /* of a string */
/* 1 when a[0..na) equals b[0..nb); the time depends on nb alone. */
int ct_equal(const void *a, size_t na, const void *b, size_t nb);
/* nbytes random bytes as hex into out (2 * nbytes + 1); -1 without randomness. */
int random_hex(char *out, size_t nbytes);

#endif
