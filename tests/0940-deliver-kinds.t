#!/bin/sh
# Delivery of answers: each kind of target against a stand-in that speaks
# its wire format (tests/tools/deliver-receiver: HTTP for webhooks, Slack,
# ntfy and the Telegram Bot API; SMTP through aiosmtpd), the webhook's
# signature checked with the Standard Webhooks algorithm, long answers
# arriving whole, and secrets never printed.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
# The executor prints the file `answer`.
printf '#!/bin/sh\ncat "$(dirname "$0")/answer"\n' >job && chmod +x job || exit 1
ALL="--deliver @hook --deliver @chat --deliver @push --deliver @tg --deliver @mail --deliver @run"

test_expect_success 'one run, six kinds: each receiver gets the answer in its own format' '
	printf "Rain & <wind> today.\n\nTake a coat — it is 4 °C.\n" >answer &&
	fresh $ALL &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT kind, status, attempts, answer FROM receipts ORDER BY kind" >actual &&
	cat >expect <<-\EOT &&
	exec|delivered|1|exit 0
	mailto|delivered|1|SMTP 250
	ntfy|delivered|1|HTTP 200
	slack|delivered|1|HTTP 200
	telegram|delivered|1|message_id 1
	webhook|delivered|1|HTTP 200
	EOT
	test_cmp expect actual &&
	for k in webhook slack ntfy telegram mail; do
		check text $k >got.$k && test_cmp answer got.$k || return 1
	done &&
	$PY -c "import json,sys; d=json.load(open(\"got.in\")); sys.stdout.write(d[\"output\"])" >got.exec &&
	test_cmp answer got.exec
'

test_expect_success 'webhook: Standard Webhooks headers, signature and the run as JSON' '
	check sig "$SECRET" >actual && echo ok >expect && test_cmp expect actual &&
	check headers /hook webhook-timestamp content-type >actual &&
	echo "webhook-timestamp=1795417200 content-type=application/json" >expect && test_cmp expect actual &&
	store_sql "SELECT id FROM receipts WHERE kind = '"'"'webhook'"'"'" >expect &&
	check keys /hook >actual && test_cmp expect actual &&
	$PY -c "import json; r=[json.loads(l) for l in open(\"rcv/requests\") if \"/hook\" in l][0]; b=json.loads(r[\"body\"]); d=b[\"data\"]; print(b[\"type\"], d[\"task_name\"], d[\"status\"], d[\"trigger\"], d[\"slot\"], d[\"error\"], d[\"input_tokens\"])" >actual &&
	echo "run.ended Morning brief · café success schedule 2026-11-23T07:00:00Z None 0" >expect &&
	test_cmp expect actual
'

test_expect_success 'slack escapes & < >; ntfy has the title; telegram the chat; every HTTP kind a key' '
	grep -c "Rain &amp; &lt;wind&gt;" rcv/requests >actual && echo 1 >expect && test_cmp expect actual &&
	check headers /topic title >actual &&
	echo "title==?UTF-8?B?TW9ybmluZyBicmllZiDCtyBjYWbDqQ==?=" >expect && test_cmp expect actual &&
	$PY -c "import json; print([json.loads(json.loads(l)[\"body\"])[\"chat_id\"] for l in open(\"rcv/requests\") if \"/bot\" in l])" >actual &&
	echo "[-100123]" >expect && test_cmp expect actual &&
	for p in /services /topic /bot; do
		check keys $p >keys && test "$(grep -c "^[0-9a-f-]\{36\}$" keys)" = 1 || return 1
	done
'

test_expect_success 'mailto: an RFC 5322 message in UTF-8 from mail_from, the task in the subject' '
	check mail >actual &&
	cat >expect <<-\EOT &&
	envelope: cron@example.org me@example.org
	From: Agent Cron <cron@example.org>
	To: me@example.org
	Subject: Morning brief · café
	Message-ID: yes
	Date: yes
	Content-Type: text/plain utf-8
	EOT
	test_cmp expect actual
'

test_expect_success 'a 10,000-character answer arrives whole in every kind, in numbered parts where limited' '
	$PY "$AC_TOP/tests/tools/deliver-check" long 10000 >answer &&
	$PY -c "import sys; sys.exit(len(open(\"answer\", encoding=\"utf-8\").read()) != 10000)" &&
	fresh $ALL &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT kind, status FROM receipts ORDER BY kind" >actual &&
	printf "%s|delivered\n" exec mailto ntfy slack telegram webhook >expect &&
	test_cmp expect actual &&
	for k in webhook slack ntfy telegram mail; do
		check text $k >got.$k && test_cmp answer got.$k || return 1
	done &&
	$PY -c "import json,sys; d=json.load(open(\"got.in\")); sys.stdout.write(d[\"output\"])" >got.exec &&
	test_cmp answer got.exec &&
	test "$(grep -c "/bot" rcv/requests)" -ge 3 &&
	test "$(grep -c "/topic" rcv/requests)" -ge 3 &&
	store_sql "SELECT answer FROM receipts WHERE kind = '"'"'telegram'"'"'" >actual &&
	grep "^3 parts; message_id" actual
'

test_expect_success 'secrets never printed: task-show, task-ls --json, task-log, errors' '
	echo fine >answer &&
	fresh --deliver "slack:http://127.0.0.1:$P/services/T000/B000/SLACKSECRET" \
		--deliver "ntfy:http://user:pw@127.0.0.1:$P/topic-secret" --deliver @tg &&
	tick 2026-11-23T07:00:00Z &&
	id=$(cat id) &&
	{ task-show "$id" && task-show --json "$id" && task-ls --json && task-log --deliveries &&
	  task-log --deliveries --json && task-log "$(store_sql "SELECT id FROM runs")"; } >out 2>&1 &&
	grep "slack:http://127.0.0.1:$P/\*\*\*" out >/dev/null &&
	! grep -e SLACKSECRET -e topic-secret -e "user:pw" -e SECRET-BOT-TOKEN out &&
	test_expect_code 2 task-edit "$id" --deliver "slack:ftp://x/SLACKSECRET" 2>err &&
	test_one_line err && ! grep SLACKSECRET err
'

test_done
