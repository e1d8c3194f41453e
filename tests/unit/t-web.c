/* t-web: SHA-256 against FIPS 180-4's examples, HMAC-SHA-256 against RFC
 * 4231's test cases, the constant-time comparison, and form decoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "web_crypto.h"
#include "web_http.h"

static void
check_sha(const char *in, size_t n, const char *want, const char *what)
{
	unsigned char d[32];
	char hex[65];
	sha256(in, n, d);
	hex_encode(d, 32, hex);
	check_str(hex, want, "sha256 %s", what);
}

static void
check_hmac(const void *key, size_t nkey, const char *data, const char *want, const char *what)
{
	unsigned char d[32];
	char hex[65];
	hmac_sha256(key, nkey, data, strlen(data), d);
	hex_encode(d, 32, hex);
	check_str(hex, want, "hmac-sha256 %s", what);
}

int
main(void)
{
	check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "of nothing");
	check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "of abc");
	static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	check_sha(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "of the two-block message");
	char *mil = malloc(1000000);
	memset(mil, 'a', 1000000);
	check_sha(mil, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "of a million a");
	free(mil);
	/* 55, 56 and 64 bytes: the padding's edges. */
	check_sha("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 55,
	    "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318", "of 55 bytes");
	check_sha("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 56,
	    "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a", "of 56 bytes");

	unsigned char k1[20];
	memset(k1, 0x0b, sizeof k1);
	check_hmac(k1, sizeof k1, "Hi There",
	    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", "RFC 4231 case 1");
	check_hmac("Jefe", 4, "what do ya want for nothing?",
	    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "RFC 4231 case 2");
	unsigned char k6[131];
	memset(k6, 0xaa, sizeof k6);
	check_hmac(k6, sizeof k6, "Test Using Larger Than Block-Size Key - Hash Key First",
	    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
	    "RFC 4231 case 6 (a key longer than a block)");

	check(ct_equal("abc", 3, "abc", 3), "ct_equal: equal");
	check(!ct_equal("abc", 3, "abd", 3), "ct_equal: one byte differs");
	check(!ct_equal("ab", 2, "abc", 3), "ct_equal: a prefix is not equal");
	check(!ct_equal("", 0, "abc", 3), "ct_equal: nothing against something");
	check(ct_equal("", 0, "", 0), "ct_equal: nothing against nothing");

	char tok[65];
	check(random_hex(tok, 32) == 0 && strlen(tok) == 64, "random_hex: 64 hex digits");

	size_t n;
	int nul;
	static const char body[] = "reason=deploy+freeze%21&id=a&id=b&empty=&bad=%zz&tail%";
	struct web_kv *kv = web_form_parse(body, strlen(body), &n, &nul);
	check_int(n, 6, "form: every field, repeated ones too");
	check(!nul, "form: no NUL");
	check_str(web_arg(kv, n, "reason"), "deploy freeze!", "form: + and %%XX decoded");
	check_str(web_arg(kv, n, "id"), "a", "form: the first of a repeated field");
	check_str(web_arg(kv, n, "empty"), "", "form: an empty value");
	check_str(web_arg(kv, n, "bad"), "%zz", "form: a bad escape kept as it is");
	check_str(web_arg(kv, n, "tail%"), "", "form: a cut escape kept as it is");
	web_kv_free(kv, n);
	static const char cut[] = "reason=ok%00%3Cb%3E&id=a";
	kv = web_form_parse(cut, strlen(cut), &n, &nul);
	check(nul && n == 2, "form: %%00 said, not read short silently");
	web_kv_free(kv, n);
	kv = web_form_parse("a=b\0c", 5, &n, &nul);
	check(nul && n == 1, "form: a NUL byte said too");
	web_kv_free(kv, n);
	return tap_done();
}
