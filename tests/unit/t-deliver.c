/* t-deliver.c: SHA-256 against FIPS 180-4's examples, HMAC-SHA256 against
 * RFC 4231's test cases, base64, the Standard Webhooks signature, target
 * checks and masks, and the split of long answers. */
#include <stdlib.h>
#include <string.h>

#include "deliver.h"
#include "deliver_send.h"
#include "hmac.h"
#include "tap.h"

static void
hex(const unsigned char *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void
unhex(const char *s, unsigned char *out, size_t *n)
{
	*n = strlen(s) / 2;
	for (size_t i = 0; i < *n; i++) {
		unsigned v;
		sscanf(s + 2 * i, "%2x", &v);
		out[i] = (unsigned char)v;
	}
}

static void
test_sha256(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
		    "lmnopqrsmnopqrstnopqrstu",
		    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
	};
	unsigned char d[SHA256_LEN];
	char h[65];
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		check_int(sha256(t[i].in, strlen(t[i].in), d), 0, "sha256 of example %zu: libcrypto loaded", i + 1);
		hex(d, sizeof d, h);
		check_str(h, t[i].want, "sha256 of FIPS 180-4 example %zu", i + 1);
	}
	char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	sha256(a, 1000000, d);
	free(a);
	hex(d, sizeof d, h);
	check_str(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "sha256 of a million 'a's");
}

static void
test_hmac(void)
{
	/* RFC 4231 test cases 1-4, 6 and 7 (5 truncates the output). */
	static const struct {
		const char *key, *data, *want;
	} t[] = {
		{"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
		    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{"4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
		    "dddddddddddddddd",
		    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
		{"0102030405060708090a0b0c0d0e0f10111213141516171819",
		    "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
		    "cdcdcdcdcdcdcdcd",
		    "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
		{"*131",
		    "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048"
		    "617368204b6579204669727374",
		    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
		{"*131",
		    "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d"
		    "73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174"
		    "612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e"
		    "6720757365642062792074686520484d414320616c676f726974686d2e",
		    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
	};
	static const int cases[] = {1, 2, 3, 4, 6, 7};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		unsigned char key[200], data[200], mac[SHA256_LEN];
		size_t nkey, ndata;
		char h[65];
		if (strcmp(t[i].key, "*131") == 0) {
			memset(key, 0xaa, 131);
			nkey = 131;
		} else {
			unhex(t[i].key, key, &nkey);
		}
		unhex(t[i].data, data, &ndata);
		hmac_sha256(key, nkey, data, ndata, mac);
		hex(mac, sizeof mac, h);
		check_str(h, t[i].want, "HMAC-SHA256 of RFC 4231 test case %d", cases[i]);
	}
}

static void
test_base64(void)
{
	static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	for (size_t i = 0; i < 7; i++) {
		char *c = base64_encode((const unsigned char *)plain[i], strlen(plain[i]));
		check_str(c, coded[i], "base64 of '%s' (RFC 4648)", plain[i]);
		size_t n;
		unsigned char *d = base64_decode(c, &n);
		check(d && n == strlen(plain[i]) && memcmp(d, plain[i], n) == 0, "and back");
		free(d);
		free(c);
	}
	size_t n;
	check(base64_decode("Zm9v!", &n) == NULL, "not base64: NULL");
}

static void
test_signature(void)
{
	/* The Standard Webhooks specification's example. */
	char *sig = deliver_webhook_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	    "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}");
	check_str(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
	    "the Standard Webhooks example signature");
	free(sig);
}

static void
test_targets(void)
{
	static const struct {
		const char *target;
		int ok;
		const char *mask;
	} t[] = {
		{"webhook:https://example.org/hook?token=abc", 1, "webhook:https://example.org/***"},
		{"slack:https://hooks.slack.com/services/T0/B0/XYZ", 1, "slack:https://hooks.slack.com/***"},
		{"ntfy:https://user:pass@ntfy.sh/topic", 1, "ntfy:https://ntfy.sh/***"},
		{"ntfy:https://ntfy.sh", 1, "ntfy:https://ntfy.sh"},
		{"telegram:-100123", 1, "telegram:-100123"},
		{"telegram:@channel", 1, "telegram:@channel"},
		{"telegram:abc", 0, "telegram:abc"},
		{"mailto:me@example.org", 1, "mailto:me@example.org"},
		{"mailto:me@example.org, you@example.org", 0, NULL},
		{"mailto:nobody", 0, NULL},
		{"exec:notify-send 'done'", 1, "exec:notify-send 'done'"},
		{"exec:'unclosed", 0, NULL},
		{"slack:ftp://host/SECRET", 0, "slack:***"},
		{"slak:https://hooks.slack.com/services/SECRET", 0, "slak:https://hooks.slack.com/***"},
		{"@chat", 1, "@chat"},
		{"@bad name", 0, NULL},
		{"webhook:http://a\nb", 0, NULL},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct err e;
		int rc = deliver_target_check(t[i].target, &e);
		check_int(rc == ST_OK, t[i].ok, "target %zu is %s", i, t[i].ok ? "good" : "refused");
		if (!t[i].mask)
			continue;
		char buf[300];
		deliver_target_mask(t[i].target, buf, sizeof buf);
		check_str(buf, t[i].mask, "target %zu masked", i);
	}
}

static void
test_split(void)
{
	char **parts;
	size_t n;
	deliver_split("short", 4096, 0, &parts, &n);
	check(n == 1 && strcmp(parts[0], "short") == 0, "a short answer is one part, as it is");
	deliver_parts_free(parts, n);
	/* Paragraphs of 30 characters: parts end at a blank line. */
	char text[2000] = "";
	for (int i = 0; i < 60; i++)
		strcat(text, "abcdefghijklmnopqrstuvwxyz012\n\n");
	text[strlen(text) - 2] = 0;
	deliver_split(text, 200, 0, &parts, &n);
	check_int(n, 10, "1858 characters at 200 a part: 10 parts");
	struct buf joined = {0};
	buf_add(&joined, "", 0);
	int numbered = 1, fits = 1, at_para = 1;
	for (size_t i = 0; i < n; i++) {
		char head[48];
		snprintf(head, sizeof head, "[%zu/%zu]\n", i + 1, n);
		numbered &= strncmp(parts[i], head, strlen(head)) == 0;
		fits &= strlen(parts[i]) <= 200;
		size_t l = strlen(parts[i]);
		if (i + 1 < n)
			at_para &= l >= 2 && parts[i][l - 1] == '\n' && parts[i][l - 2] == '\n';
		buf_puts(&joined, parts[i] + strlen(head));
	}
	check(numbered, "each part numbered [i/n]");
	check(fits, "each part within the limit");
	check(at_para, "each part but the last ends at a paragraph");
	check_str(joined.data, text, "the parts joined are the answer");
	buf_free(&joined);
	deliver_parts_free(parts, n);
	/* One long line of multi-byte characters: cut between characters. */
	char wide[3000] = "";
	for (int i = 0; i < 900; i++)
		strcat(wide, "é");
	deliver_split(wide, 100, 1, &parts, &n);
	int whole = 1;
	for (size_t i = 0; i < n; i++)
		whole &= strlen(parts[i]) <= 100 && utf8_valid(parts[i], strlen(parts[i]));
	check(whole, "bytes counted: parts within 100 bytes, none cut inside a character");
	deliver_parts_free(parts, n);
}

int
main(void)
{
	test_sha256();
	test_hmac();
	test_base64();
	test_signature();
	test_targets();
	test_split();
	return tap_done();
}
