# tests/lib-deliver.sh: a stand-in receiver for delivery tests
# (tests/tools/deliver-receiver) started in rcv/, a config naming a target
# of each kind on it, and helpers.  Sourced after lib.sh.
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
mkdir rcv && echo 123456:SECRET-BOT-TOKEN >rcv/token || exit 1
$PY "$AC_TOP/tests/tools/deliver-receiver" rcv 2>rcv/err &
echo $! >>"$TEST_TMP/.pids"
test_until 30 test -s rcv/http.port || { cat rcv/err; exit 1; }
test_until 30 test -s rcv/smtp.port || { cat rcv/err; exit 1; }
P=$(cat rcv/http.port) S=$(cat rcv/smtp.port)
# check CMD ARGS: tests/tools/deliver-check on rcv/.
check() { check_c_=$1; shift; $PY "$AC_TOP/tests/tools/deliver-check" "$check_c_" rcv "$@"; }
SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
mkdir -p config/agentcron && cat >config/agentcron/config <<EOF && chmod 600 config/agentcron/config || exit 1
deliver.hook = webhook:http://127.0.0.1:$P/hook/h1
deliver.chat = slack:http://127.0.0.1:$P/services/T000/B000/SLACKSECRET
deliver.push = ntfy:http://127.0.0.1:$P/topic-secret
deliver.tg = telegram:-100123
deliver.mail = mailto:me@example.org
deliver.run = exec:$TEST_TMP/got
deliver_secret = $SECRET
telegram_token = 123456:SECRET-BOT-TOKEN
telegram_base_url = http://127.0.0.1:$P
smtp_url = smtp://127.0.0.1:$S
mail_from = Agent Cron <cron@example.org>
deliver_timeout = 2
EOF
printf '#!/bin/sh\ncat >"$0.in"\n' >got && chmod +x got || exit 1

# fresh ARGS: a new store and receiver log, one daily task at 07:00 running
# ./job with ARGS (its id in the file id).
fresh() {
	reset_store && rm -f rcv/requests rcv/mails rcv/plan got.in &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --retries 0 \
		--name 'Morning brief · café' "$@" x >id
}
# tick TIME: one pass of task-tick at TIME (it starts task-deliver).
tick() { TASK_NOW=$1 task-tick >/dev/null 2>tick.err; }
