#!/bin/sh
# Items of the torture run, on either store: an instant a one-shot already
# ran fires again when the task is armed for it again; -j beyond the open
# files allowed is capped and said, and nothing fails for it; the first line
# of the executor's error reaches the pass's line (cron's mail) and its JSON;
# a task row of an unknown kind is parked failed with the reason; run ids
# are found by prefix in any case.
. "$AC_TOP/tests/lib.sh"
export TZ=UTC

test_expect_success 're-armed for the instant it already ran: it runs again' '
	id=$(TASK_NOW=2026-11-23T07:00:00Z task-add --at 07:30 --exec "echo ran" --name again p) &&
	TASK_NOW=2026-11-23T07:30:05Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T07:29:00Z task-edit --at 07:30 "$id" >out &&
	printf "status: completed -> pending\\nnext run: 2026-11-23 07:30 UTC\\n" >expect &&
	test_cmp expect out &&
	TASK_NOW=2026-11-23T07:30:05Z task-tick >/dev/null &&
	task-log --task "$id" | cut -f5-7 >actual &&
	printf "schedule\\t2026-11-23T07:30:00Z\\tsuccess\\nschedule\\t2026-11-23T07:30:00Z\\tsuccess\\n" >expect &&
	test_cmp expect actual &&
	task-ls | cut -f3 >actual && echo completed >expect && test_cmp expect actual
'

test_expect_success 'a plan that holds the instant again runs it again' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T07:00:00Z task-add --plan 2026-11-23T08:00:00Z --exec true p) &&
	TASK_NOW=2026-11-23T08:00:05Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T07:59:00Z task-edit --plan 2026-11-23T08:00:00Z --plan 2026-11-23T09:00:00Z "$id" >/dev/null &&
	TASK_NOW=2026-11-23T08:00:05Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T09:00:05Z task-tick >/dev/null &&
	task-log --task "$id" | cut -f6 | sort >actual &&
	printf "2026-11-23T08:00:00Z\\n2026-11-23T08:00:00Z\\n2026-11-23T09:00:00Z\\n" >expect &&
	test_cmp expect actual
'

test_expect_success '-j past the open files allowed: capped and said, every run succeeds' '
	reset_store &&
	i=0 && while [ $i -lt 12 ]; do
		printf "{\"name\":\"j%d\",\"prompt\":\"p%d\",\"kind\":\"at\",\"at\":\"2026-11-23T07:00:00Z\",\"exec\":\"true\"}\\n" $i $i
		i=$((i + 1))
	done >tasks.jsonl &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --json - <tasks.jsonl >/dev/null &&
	(ulimit -n 40 && TASK_NOW=2026-11-23T07:00:05Z exec task-tick -j 400) >out 2>err &&
	grep -q "^task-tick: -j 400 needs more open files than the limit allows (ulimit -n); running at most [0-9]* at once$" err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -c "\"status\":\"success\"" out >n && echo 12 >expect && test_cmp expect n &&
	task-log --status success | wc -l >n && test_cmp expect n
'

test_expect_success 'the first line of the executor'\''s error reaches the pass'\''s line and its JSON' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T07:00:00Z task-add --at 07:30 --retries 0 --name why \
		--exec "sh -c '\''echo no API key for openai: set OPENAI_API_KEY >&2; echo more >&2; exit 2'\''" p) &&
	TASK_NOW=2026-11-23T07:30:05Z task-tick >out 2>err &&
	echo "task-tick: task '\''why'\'' (${id%%-*}) failed: exited with status 2: no API key for openai: set OPENAI_API_KEY" >expect &&
	test_cmp expect err &&
	grep -q "\"status\":\"failed\",\"exit_code\":2,.*\"error\":\"exited with status 2: no API key for openai: set OPENAI_API_KEY\"}$" out
'

test_expect_success 'a task of a kind this agentcron does not know is parked failed, with the reason' '
	reset_store &&
	id=$(TASK_NOW=2026-11-23T07:00:00Z task-add --cron "0 8 * * *" --exec true --name odd p) &&
	ok=$(TASK_NOW=2026-11-23T07:00:00Z task-add --cron "0 8 * * *" --exec true --name fine q) &&
	store_sql "UPDATE tasks SET kind = '\''someday'\'' WHERE id = '\''$id'\''" &&
	TASK_NOW=2026-11-23T08:00:05Z task-tick >out 2>err &&
	echo "task-tick: task '\''${id%%-*}'\'' cannot be scheduled: its kind is not one this agentcron knows" >expect &&
	test_cmp expect err &&
	task-ls --json | sed -n "s/.*\"name\":\"\([a-z]*\)\".*\"status\":\"\([a-z]*\)\".*\"last_error\":\([^,]*\),.*/\1 \2 \3/p" | sort >actual &&
	printf "%s\\n" "fine pending null" "odd failed \"cannot compute the next run: its kind is not one this agentcron knows\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'run ids by prefix, in capitals too' '
	run=$(task-log --limit 1 | cut -f1) &&
	up=$(echo "$run" | cut -c1-8 | tr a-f A-F) &&
	task-log "$up" | sed -n "s/^run: *//p" >actual && echo "$run" >expect && test_cmp expect actual &&
	task-log --json "$up" | grep -q "\"id\":\"$run\""
'

test_done
