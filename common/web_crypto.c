/* Hex digests, constant-time comparison and random tokens (web_crypto.h);
 * SHA-256 itself is hmac.c's. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/random.h>

#include "web_crypto.h"

void
hex_encode(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = 0;
}

int
sha256_hex(const char *s, char out[65])
{
	unsigned char d[32];
	out[0] = 0;
	if (sha256(s, strlen(s), d))
		return -1;
	hex_encode(d, 32, out);
	return 0;
}

int
ct_equal(const void *a, size_t na, const void *b, size_t nb)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned diff = na != nb;
	for (size_t i = 0; i < nb; i++)
		diff |= (unsigned)((na ? x[i % na] : 0) ^ y[i]);
	return diff == 0;
}

int
random_hex(char *out, size_t nbytes)
{
	unsigned char b[64];
	size_t got = 0;
	if (nbytes > sizeof b)
		return -1;
	while (got < nbytes) {
		ssize_t r = getrandom(b + got, nbytes - got, 0);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	hex_encode(b, nbytes, out);
	return 0;
}
