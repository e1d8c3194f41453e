#!/bin/sh
# Mail over TLS: smtp:// with STARTTLS where the server offers it (and
# wants it before AUTH), and smtps://, both with smtp_user and
# smtp_password, trusting the CA of CURL_CA_BUNDLE as the HTTP kinds do;
# a certificate nobody vouched for is no delivery, and the password is
# never printed.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "the answer"\n' >job && chmod +x job || exit 1
# A throwaway CA and a certificate for 127.0.0.1, and a receiver with them.
mkdir tls && printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >tls/ext &&
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
	-subj /CN=agentcron-test-ca -keyout tls/ca.key -out tls/ca.pem 2>/dev/null &&
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
	-keyout tls/server.key -out tls/server.csr 2>/dev/null &&
openssl x509 -req -in tls/server.csr -CA tls/ca.pem -CAkey tls/ca.key -CAcreateserial \
	-days 2 -extfile tls/ext -out tls/server.pem 2>/dev/null || exit 1
$PY "$AC_TOP/tests/tools/deliver-receiver" tls 2>tls/err &
echo $! >>"$TEST_TMP/.pids"
test_until 30 test -s tls/smtps.port || { cat tls/err; exit 1; }
ST=$(cat tls/starttls.port) SS=$(cat tls/smtps.port)
unset CURL_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
cfg=config/agentcron/config
sed -i '/^smtp_url/d' $cfg && printf 'smtp_user = me\nsmtp_password = pw\n' >>$cfg || exit 1
# mails_got: TLS and login of the mails tls/ received.
mails_got() { $PY -c "import json; [print(m[\"tls\"], m[\"login\"], m[\"to\"][0]) for m in map(json.loads, open(\"tls/mails\"))]"; }

test_expect_success 'smtp:// with STARTTLS and AUTH: delivered over TLS' '
	echo "smtp_url = smtp://127.0.0.1:$ST" >>$cfg &&
	fresh --deliver mailto:you@example.org &&
	CURL_CA_BUNDLE=$PWD/tls/ca.pem tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|SMTP 250" >expect && test_cmp expect actual &&
	mails_got >actual && echo "True me you@example.org" >expect && test_cmp expect actual
'

test_expect_success 'smtps://: delivered over TLS from the first byte' '
	sed -i "/^smtp_url/d" $cfg && echo "smtp_url = smtps://127.0.0.1:$SS" >>$cfg &&
	rm -f tls/mails && fresh --deliver mailto:you@example.org &&
	CURL_CA_BUNDLE=$PWD/tls/ca.pem tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|SMTP 250" >expect && test_cmp expect actual &&
	mails_got >actual && echo "True me you@example.org" >expect && test_cmp expect actual
'

test_expect_success 'a certificate no trusted CA signed: not delivered, retried, the password never said' '
	rm -f tls/mails && fresh --deliver mailto:you@example.org &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT status, attempts FROM receipts" >actual &&
	echo "pending|1" >expect && test_cmp expect actual &&
	test ! -e tls/mails &&
	{ task-log --deliveries; task-log --deliveries --json; cat tick.err; } >out 2>&1 &&
	! grep "pw" out
'

test_done
