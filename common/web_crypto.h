/* web_crypto.h: what task-web needs of cryptography beyond hmac.h's
 * SHA-256 and HMAC (the hashes of tokens kept in the store, GitHub-style
 * signatures): hex digests, comparisons in constant time, random tokens. */
#ifndef AC_WEB_CRYPTO_H
#define AC_WEB_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "hmac.h"

/* web_crypto.c */
void hex_encode(const unsigned char *b, size_t n, char *out);   /* out has 2n + 1 bytes */
int sha256_hex(const char *s, char out[65]);    /* of a string; -1 without libcrypto */
/* 1 when a[0..na) equals b[0..nb); the time depends on nb alone. */
int ct_equal(const void *a, size_t na, const void *b, size_t nb);
/* nbytes random bytes as hex into out (2 * nbytes + 1); -1 without randomness. */
int random_hex(char *out, size_t nbytes);

#endif
