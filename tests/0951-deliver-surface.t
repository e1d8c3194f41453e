#!/bin/sh
# The parts of delivery a user meets beside the sending: a task's targets
# set, replaced and removed (options and JSON), a failure on ntfy with its
# priority and tag, SMTP's refusals, the receipts in task-log and
# task-show, mail through sendmail when there is no smtp_url, the
# programs that link libcurl, and an executor's environment without the
# delivery secrets.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho fine\n' >job && chmod +x job || exit 1
# A JSON field of task ID as task-ls --json says it.
task_field() {
	task-ls --json | $PY -c "import json,sys; [print(json.dumps(t.get(sys.argv[2]))) for t in map(json.loads, sys.stdin) if t[\"id\"] == sys.argv[1]]" "$1" "$2"
}

test_expect_success 'targets: repeatable, replaced by task-edit, removed by none, given in JSON' '
	fresh --deliver @hook --deliver @chat --deliver-on failure,change &&
	id=$(cat id) &&
	task_field "$id" deliver >actual && echo "[\"@hook\", \"@chat\"]" >expect && test_cmp expect actual &&
	task_field "$id" deliver_on >actual && echo "\"failure,change\"" >expect && test_cmp expect actual &&
	task-edit "$id" --deliver @tg >/dev/null &&
	task_field "$id" deliver >actual && echo "[\"@tg\"]" >expect && test_cmp expect actual &&
	task-edit "$id" --deliver none >/dev/null &&
	task_field "$id" deliver >actual && echo null >expect && test_cmp expect actual &&
	test_expect_code 2 task-edit "$id" --deliver @nosuch 2>err && test_one_line err &&
	task_field "$id" deliver >actual && test_cmp expect actual &&
	echo "{\"name\":\"j\",\"prompt\":\"x\",\"kind\":\"manual\",\"deliver\":[\"@mail\",\"telegram:42\"]}" |
		task-add --json - >/dev/null &&
	jid=$(task-ls --json | $PY -c "import json,sys; [print(t[\"id\"]) for t in map(json.loads, sys.stdin) if t[\"name\"] == \"j\"]") &&
	task_field "$jid" deliver >actual && echo "[\"@mail\", \"telegram:42\"]" >expect && test_cmp expect actual
'

test_expect_success 'a failure on ntfy: the error as the body, Priority 4 and a warning tag' '
	printf "#!/bin/sh\necho broke >&2; exit 1\n" >job &&
	fresh --deliver @push --deliver @hook &&
	tick 2026-11-23T07:00:00Z &&
	check headers /topic priority tags >actual &&
	echo "priority=4 tags=warning" >expect && test_cmp expect actual &&
	check text ntfy >actual &&
	printf "Morning brief · café: failed\n\nexited with status 1\nbroke\n" >expect && test_cmp expect actual
'

test_expect_success 'the receipts in task-log --deliveries (--task, --json), task-log RUN and task-show' '
	id=$(cat id) && run=$(store_sql "SELECT id FROM runs") &&
	printf "#!/bin/sh\necho fine\n" >job &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 08:00 --exec "$PWD/job" --name other --deliver @tg x >/dev/null &&
	tick 2026-11-23T08:00:00Z &&
	task-log --deliveries >all && test "$(wc -l <all)" = 3 &&
	task-log --deliveries --task "$id" >mine && test "$(wc -l <mine)" = 2 &&
	! grep -e telegram -e other mine &&
	task-log --deliveries --task "$id" --json >mine.json &&
	$PY -c "import json,sys; print(*sorted((d[\"kind\"], d[\"status\"], d[\"run_id\"] == sys.argv[1]) for d in map(json.loads, open(\"mine.json\"))))" "$run" >actual &&
	echo "(\"ntfy\", \"delivered\", True) (\"webhook\", \"delivered\", True)" | tr "\"" "'"'"'" >expect &&
	test_cmp expect actual &&
	task-log "$run" >out && grep "delivered" out | grep -c -e ntfy -e webhook >n && echo 2 >expect && test_cmp expect n &&
	task-log --json "$run" | $PY -c "import json,sys; print(len(json.load(sys.stdin)[\"deliveries\"]))" >actual &&
	test_cmp expect actual &&
	task-show "$id" >out && sed -n "/^deliveries:/,\$p" out >d &&
	grep -c "delivered .*(1 attempt): HTTP 200" d >actual && test_cmp expect actual
'

test_expect_success 'SMTP: a 5xx refusal is failed at once, a 4xx retried by the next pass' '
	fresh --deliver mailto:refuse@example.org --deliver mailto:busy@example.org &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT target, status, attempts, next_at FROM receipts ORDER BY target" >actual &&
	printf "mailto:busy@example.org|pending|1|%s\nmailto:refuse@example.org|failed|1|\n" \
		$((1795417200 + 30)) >expect && test_cmp expect actual &&
	store_sql "SELECT error FROM receipts ORDER BY target" >err &&
	grep "^SMTP 451" err && grep "^SMTP 550" err &&
	tick 2026-11-23T07:00:30Z &&
	store_sql "SELECT attempts FROM receipts ORDER BY target" | paste -s -d " " >actual &&
	echo "2 1" >expect && test_cmp expect actual &&
	test ! -e rcv/mails
'

test_expect_success 'mailto without smtp_url: the message through sendmail -i -- ADDRESS' '
	sed -i "/^smtp_url/d" config/agentcron/config &&
	printf "#!/bin/sh\nprintf \"%%s \" \"\$@\" >\"\$0.args\"\ncat >\"\$0.msg\"\n" >sm && chmod +x sm &&
	echo "sendmail = $PWD/sm" >>config/agentcron/config &&
	fresh --deliver mailto:you@example.org &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT kind, status, answer FROM receipts" >actual &&
	echo "mailto|delivered|sendmail exited 0" >expect && test_cmp expect actual &&
	printf "%s" "-i -- you@example.org " >expect && test_cmp expect sm.args &&
	$PY -c "
import email, email.policy
m = email.message_from_bytes(open(\"sm.msg\", \"rb\").read(), policy=email.policy.default)
print(m[\"To\"], \"|\", m[\"Subject\"], \"|\", bool(m[\"Message-ID\"]), \"|\", m.get_content().strip())" >actual &&
	echo "you@example.org | Morning brief · café | True | fine" >expect && test_cmp expect actual
'

test_expect_success 'only task-deliver (and llm-call) link libcurl; task-tick and the store programs do not' '
	for p in task-deliver llm-call; do
		readelf -d "$AC_BIN/$p" >dyn && grep "NEEDED.*libcurl" dyn || return 1
	done &&
	for p in task-tick task-add task-edit task-ls task-show task-rm task-log task-run task-status task-when; do
		readelf -d "$AC_BIN/$p" >dyn && grep NEEDED dyn >/dev/null && ! grep libcurl dyn || return 1
	done
'

test_expect_success 'an executor sees none of the delivery secrets in its environment' '
	printf "#!/bin/sh\nenv >\"\$0.env\"\necho done\n" >job &&
	echo "smtp_password = SMTP-PASS-77" >>config/agentcron/config &&
	fresh --deliver @tg &&
	tick 2026-11-23T07:00:00Z &&
	test -s job.env &&
	! grep -e SECRET-BOT-TOKEN -e SLACKSECRET -e topic-secret -e SMTP-PASS-77 -e "$SECRET" job.env
'

test_done
