/* hmac.c: SHA-256 and HMAC-SHA256 from OpenSSL's libcrypto, loaded when
 * first needed, and base64 (hmac.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include "hmac.h"
#include "util.h"

#if OPENSSL_VERSION_MAJOR != 3
#error "hmac.c loads the libcrypto of OpenSSL 3 (CRYPTO_LIB_SONAME)"
#endif

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym needs POSIX function pointers");

/* libcrypto's functions this file calls, as its headers declare them. */
struct crypto_fns {
	const EVP_MD *(*sha256)(void);
	int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, ENGINE *);
	unsigned char *(*hmac)(const EVP_MD *, const void *, int, const unsigned char *, size_t,
	    unsigned char *, unsigned int *);
};

/* Linked, libcrypto cost every program 0.6 ms to start, hashing or not.
 * Loaded, it stays (RTLD_NODELETE): it leaves exit handlers behind, and a
 * second dlopen of a library loaded is a lookup. */
static int
crypto_fns(struct crypto_fns *c)
{
	static const char *const names[] = {"EVP_sha256", "EVP_Digest", "HMAC"};
	void *lib = dlopen(CRYPTO_LIB_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib)
		return -1;
	void *f[3];
	for (size_t i = 0; i < 3; i++)
		if (!(f[i] = dlsym(lib, names[i])))
			return -1;
	memcpy(&c->sha256, &f[0], sizeof f[0]);
	memcpy(&c->digest, &f[1], sizeof f[1]);
	memcpy(&c->hmac, &f[2], sizeof f[2]);
	return 0;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *
base64_encode(const unsigned char *p, size_t n)
{
	char *out = xmalloc((n + 2) / 3 * 4 + 1), *o = out;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
		    (i + 2 < n ? p[i + 2] : 0);
		*o++ = b64[v >> 18 & 63];
		*o++ = b64[v >> 12 & 63];
		*o++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? b64[v & 63] : '=';
	}
	*o = 0;
	return out;
}

static int
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+' || c == '-') return 62;
	if (c == '/' || c == '_') return 63;
	return -1;
}

unsigned char *
base64_decode(const char *s, size_t *n)
{
	size_t len = strlen(s);
	while (len && s[len - 1] == '=')
		len--;
	if (len % 4 == 1)
		return NULL;
	unsigned char *out = xmalloc(len / 4 * 3 + 3);
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < len; i++) {
		int v = b64_value(s[i]);
		if (v < 0) {
			free(out);
			return NULL;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	*n = o;
	return out;
}

int
sha256(const void *p, size_t n, unsigned char out[SHA256_LEN])
{
	struct crypto_fns c;
	unsigned int len = 0;
	if (crypto_fns(&c) || c.digest(p, n, out, &len, c.sha256(), NULL) != 1 || len != SHA256_LEN)
		return -1;
	return 0;
}

int
hmac_sha256(const void *key, size_t nkey, const void *msg, size_t nmsg,
    unsigned char out[SHA256_LEN])
{
	struct crypto_fns c;
	unsigned int len = 0;
	if (nkey > INT_MAX || crypto_fns(&c) || !c.hmac(c.sha256(), key, (int)nkey, msg, nmsg, out, &len) ||
	    len != SHA256_LEN)
		return -1;
	return 0;
}
