/* hmac.c: SHA-256, HMAC-SHA256 and base64 (hmac.h). */
#include <stdlib.h>
#include <string.h>

#include "hmac.h"
#include "util.h"

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
		    k256[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void
sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f,
		0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, h0, sizeof h0);
	s->len = 0;
	s->used = 0;
}

void
sha256_add(struct sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->len += n;
	while (n) {
		size_t take = 64 - s->used < n ? 64 - s->used : n;
		memcpy(s->block + s->used, p, take);
		s->used += take;
		p += take;
		n -= take;
		if (s->used == 64) {
			compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void
sha256_end(struct sha256 *s, unsigned char out[SHA256_LEN])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, len[8];
	sha256_add(s, &pad, 1);
	while (s->used != 56)
		sha256_add(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(s, len, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
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

void
sha256(const void *p, size_t n, unsigned char out[SHA256_LEN])
{
	struct sha256 s;
	sha256_init(&s);
	sha256_add(&s, p, n);
	sha256_end(&s, out);
}

void
hmac_sha256(const void *key, size_t nkey, const void *msg, size_t nmsg,
    unsigned char out[SHA256_LEN])
{
	unsigned char k[64] = {0}, pad[64], inner[SHA256_LEN];
	struct sha256 s;
	if (nkey > sizeof k)
		sha256(key, nkey, k);
	else if (nkey)
		memcpy(k, key, nkey);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&s);
	sha256_add(&s, pad, sizeof pad);
	sha256_add(&s, msg, nmsg);
	sha256_end(&s, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&s);
	sha256_add(&s, pad, sizeof pad);
	sha256_add(&s, inner, sizeof inner);
	sha256_end(&s, out);
}
