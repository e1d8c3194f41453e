#!/bin/sh
# task-web's HTTP triggers: POST /hooks/TASK with the task's trigger token
# or a GitHub-style signature (computed here with openssl), a redelivered
# event fires once, a body is the run's payload ({{input}}), hook_rate
# answers 429 with Retry-After, a body over 1 MiB 413; the trigger's token
# reads nothing.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

mkdir -p config/agentcron && echo "hook_rate = 3" >config/agentcron/config
task-add --manual --name deploy --exec cat "deploy {{input}}" >id
task-add --manual --name other "other" >id2
id=$(cat id) id2=$(cat id2)

queued() {
	store_sql "SELECT queued FROM tasks WHERE id = '$1'"
}
unqueue() {
	store_sql "UPDATE tasks SET queued = 0 WHERE id = '$1'"
}

test_expect_success 'a trigger token and a secret, printed once' '
	task-web --trigger-token "$id" >ttok 2>err &&
	grep -q "^[0-9a-f]\{64\}$" ttok &&
	task-web --trigger-secret "$(echo $id | cut -c1-8)" >secret 2>/dev/null &&
	grep -q "^[0-9a-f]\{64\}$" secret &&
	store_dump >dump && ! grep -q "$(cat ttok)" dump &&
	test_expect_code 3 task-web --trigger-token ffffffff 2>err &&
	test "$(wc -l <err)" = 1
'

web_start
ttok=$(cat ttok)

test_expect_success 'no token, a wrong one, another task: 401 alike' '
	test "$(req body -X POST "$url/hooks/$id")" = 401 &&
	test "$(req body -X POST -H "Authorization: Bearer $(echo $ttok | tr 0-9 a-j)" "$url/hooks/$id")" = 401 &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" "$url/hooks/$id2")" = 401 &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" "$url/hooks/ffffffff")" = 401 &&
	test "$(wc -l <body)" = 1 &&
	test "$(queued "$id")" = 0
'

test_expect_success 'the trigger token fires its task (202), its body the payload; it reads nothing (401)' '
	test "$(req body -X POST -H "Authorization: Bearer $ttok" --data-binary "{\"ref\":\"main\"}" \
		"$url/hooks/$id")" = 202 &&
	grep -q "\"queued\":true" body &&
	test "$(queued "$id")" = 1 &&
	test "$(req body -H "Authorization: Bearer $ttok" "$url/api/tasks")" = 401 &&
	task-tick >ran &&
	grep -q "\"trigger\":\"event\"" ran &&
	task-log "$(task-log --task deploy | cut -f1 | head -n 1)" | sed -n "/^output:/,/^error:/p" >actual &&
	printf "output:\n  deploy {\"ref\":\"main\"}\nerror:\n" >expect && test_cmp expect actual &&
	test "$(queued "$id")" = 0
'

test_expect_success 'a body that is no text: 400, nothing queued' '
	printf "a\0b" >nul &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" --data-binary @nul "$url/hooks/$id")" = 400 &&
	grep -q "NUL" body && test "$(queued "$id")" = 0
'

test_expect_success 'a GitHub-style signature fires it; a wrong one does not' '
	printf "{\"action\":\"push\"}" >payload &&
	sig=$(openssl dgst -sha256 -hmac "$(cat secret)" <payload | sed "s/.*= *//") &&
	test "$(req body -X POST -H "X-Hub-Signature-256: sha256=$sig" -H "X-GitHub-Delivery: d-1" \
		--data-binary @payload "$url/hooks/$id")" = 202 &&
	test "$(queued "$id")" = 1 && unqueue "$id" &&
	printf "{\"action\":\"pull\"}" >forged &&
	test "$(req body -X POST -H "X-Hub-Signature-256: sha256=$sig" --data-binary @forged \
		"$url/hooks/$id")" = 401 &&
	test "$(queued "$id")" = 0
'

test_expect_success 'a redelivered event (same X-GitHub-Delivery) fires nothing' '
	sig=$(openssl dgst -sha256 -hmac "$(cat secret)" <payload | sed "s/.*= *//") &&
	test "$(req body -X POST -H "X-Hub-Signature-256: sha256=$sig" -H "X-GitHub-Delivery: d-1" \
		--data-binary @payload "$url/hooks/$id")" = 200 &&
	grep -q "\"duplicate\":true" body &&
	test "$(queued "$id")" = 0 &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE task_id = '\''$id'\'' AND key = '\''key:d-1'\''")" = 1
'

test_expect_success 'past hook_rate (3) a minute: 429 with Retry-After' '
	test "$(req body -X POST -H "Authorization: Bearer $ttok" -H "Idempotency-Key: k-2" \
		"$url/hooks/$id")" = 429 &&
	grep -q "hook_rate" body &&
	retry=$(tr -d "\r" <body.h | sed -n "s/^Retry-After: //p") &&
	test "$retry" -ge 1 && test "$retry" -le 60
'

test_expect_success 'a body over 1 MiB: 413' '
	head -c 1100000 /dev/zero >big &&
	test "$(req body -X POST -H "Authorization: Bearer $ttok" --data-binary @big \
		"$url/hooks/$id")" = 413
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0' 'test "$stopped" = 0'

test_expect_success 'a bad hook_rate: one line, exit 2, nothing served' '
	echo "hook_rate = often" >config/agentcron/config &&
	test_expect_code 2 task-web --listen 127.0.0.1:0 2>err &&
	test_one_line err &&
	grep -q "bad hook_rate" err
'

test_done
