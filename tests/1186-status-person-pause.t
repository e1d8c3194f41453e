#!/bin/sh
# task-status warns of a task paused by its failures in a row; a task a
# person paused on task-web, with a reason, is theirs to resume, as a
# disabled one is: no warning, and not counted as paused by failures.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

test_expect_success 'set up: a daily task, a pass, a token' '
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --name calm --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --every 1m --pause-after 2 --retries 0 --name flaky \
		--exec false y >/dev/null &&
	task-ls --json | python3 -c "
import json, sys
for l in sys.stdin:
    t = json.loads(l)
    if t[\"name\"] == \"calm\": print(t[\"id\"])" >id &&
	task-web --new-token ops >tok 2>/dev/null
'

test_expect_success 'paused on task-web by a person: task-status --check stays OK' '
	web_start &&
	test "$(req_as "$(cat tok)" body -X POST --data-urlencode "reason=on holiday" \
		"$url/tasks/$(cat id)/pause")" = 200 &&
	web_stop &&
	task-edit --disable flaky >/dev/null &&
	TASK_NOW=2026-11-23T06:30:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T06:30:10Z task-status --check >out &&
	grep "^AGENTCRON OK - " out &&
	TASK_NOW=2026-11-23T06:30:10Z task-status --check --task calm >out &&
	grep "^AGENTCRON OK - " out &&
	TASK_NOW=2026-11-23T06:30:10Z task-status >out &&
	grep "0 paused by failures" out &&
	TASK_NOW=2026-11-23T06:30:10Z task-status --prometheus >metrics &&
	grep -x "agentcron_tasks{state=\"paused_by_failures\"} 0" metrics
'

test_expect_success 'paused by its failures: WARNING, counted, with its reason' '
	TASK_NOW=2026-11-23T06:30:30Z task-edit --enable flaky >/dev/null &&
	TASK_NOW=2026-11-23T06:31:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T06:32:00Z task-tick >/dev/null 2>&1 &&
	test_expect_code 1 env TASK_NOW=2026-11-23T06:32:10Z task-status --check >out &&
	grep "^AGENTCRON WARNING - 1 task paused by failures (.flaky.)" out &&
	TASK_NOW=2026-11-23T06:32:10Z task-status --prometheus >metrics &&
	grep -x "agentcron_tasks{state=\"paused_by_failures\"} 1" metrics
'

test_done
