#!/bin/sh
# A task's fallback models (task-add/task-edit --fallback-model): its runs
# ask them in order when the provider says the model is gone, the call
# records it, and the notify hook hears a `fallback` event once per task
# and day, whatever the task's policy.  Through task-tick and llm-call.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-fallback-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY
printf "#!/bin/sh\n{ cat; echo \"env=\$TASK_EVENT\"; } >>\"\$0.log\"\n" >hook && chmod +x hook || exit 1

# events: what the hook heard, "EVENT STATUS" a line, then forgotten.
events() {
	{ test -f hook.log && grep "^{" hook.log |
		sed "s/.*\"event\":\"\([a-z]*\)\".*\"status\":\"\([a-z]*\)\".*/\1 \2/"; } >events
	rm -f hook.log
}

test_expect_success 'task-add --fallback-model: kept in order, shown, in --json' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --tz UTC -m gpt-old \
		--fallback-model gpt-gone --fallback-model "gpt-new, gpt-gone" --notify "$PWD/hook" \
		--name job "[[retired gpt-old]] [[retired gpt-gone]] report" >/dev/null &&
	task-show job | grep "^fallbacks:" >actual &&
	echo "fallbacks:    gpt-gone, gpt-new" >expect && test_cmp expect actual &&
	task-show --json job | grep -q "\"fallback_models\":\[\"gpt-gone\",\"gpt-new\"\]"
'

test_expect_success 'a run whose model is gone is answered by the fallbacks, and recorded so' '
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>err &&
	store_sql "SELECT status FROM runs" >actual &&
	echo success >expect && test_cmp expect actual &&
	store_sql "SELECT model, fallback_from FROM llm_calls" >actual &&
	echo "gpt-new|gpt-old" >expect && test_cmp expect actual &&
	task-log --calls | cut -f3 >actual &&
	echo gpt-new >expect && test_cmp expect actual
'

test_expect_success 'the hook hears of the fallback once that day, beside the run'\''s own events' '
	events &&
	cat >expect <<-\EOT &&
	fallback success
	EOT
	test_cmp expect events &&
	TASK_NOW=2026-11-23T08:00:00Z task-tick >/dev/null 2>&1 &&
	events && test ! -s events &&
	TASK_NOW=2026-11-24T07:00:00Z task-tick >/dev/null 2>&1 &&
	events && test_cmp expect events
'

test_expect_success 'the fallback event names both models' '
	TASK_NOW=2026-11-25T07:00:00Z task-tick >/dev/null 2>&1 &&
	grep "^{" hook.log | grep -o "\"reason\":\"[^\"]*\"" >actual &&
	echo "\"reason\":\"the model '\''gpt-old'\'' does not exist or was retired; '\''gpt-new'\'' answered instead\"" >expect &&
	test_cmp expect actual && rm -f hook.log
'

test_expect_success 'the day is the local one: in Tokyo, 15:00 UTC begins the next' '
	rm -f hook.log &&
	TZ=Asia/Tokyo TASK_NOW=2026-11-25T14:00:00Z task-tick >/dev/null 2>&1 &&
	events && test ! -s events &&
	TZ=Asia/Tokyo TASK_NOW=2026-11-25T15:00:00Z task-tick >/dev/null 2>&1 &&
	events && echo "fallback success" >expect && test_cmp expect events
'

test_expect_success 'task-edit --fallback-model "": none left, the run fails for good' '
	task-edit --fallback-model "" job >/dev/null &&
	task-show job >show && ! grep -q "^fallbacks:" show &&
	TASK_NOW=2026-11-26T07:00:00Z task-tick >/dev/null 2>&1 &&
	store_sql "SELECT status, exit_code FROM runs ORDER BY started_at DESC LIMIT 1" >actual &&
	echo "failed|78" >expect && test_cmp expect actual &&
	events &&
	echo "failure failed" >expect && test_cmp expect events
'

test_expect_success 'an agent gives and removes fallbacks through task_create and task_update' '
	cat >script <<-\EOF &&
	init 2025-11-25
	@t call task_create {"name":"agent job","prompt":"p","daily":"09:00","model":"gpt-old","fallback_models":["gpt-new","gpt-other"]}
	call task_update {"id":"${t}","fallback_models":[]}
	EOF
	client script task-mcp >out 2>err &&
	grep -q "^\[2\] ok" out && grep -q "^\[3\] ok" out &&
	task-show --json "agent job" >show.json &&
	! grep -q fallback_models show.json &&
	cat >script <<-\EOF &&
	init 2025-11-25
	call task_create {"name":"agent job 2","prompt":"q","daily":"09:00","fallback_models":["gpt-new","gpt-other"]}
	EOF
	client script task-mcp >out 2>err &&
	task-show --json "agent job 2" | grep -q "\"fallback_models\":\[\"gpt-new\",\"gpt-other\"\]"
'

test_expect_success 'a fallback that is not a model name is refused, nothing changed' '
	test_expect_code 2 task-edit --fallback-model "$(printf "gpt-\377")" job >out 2>err &&
	echo "task-edit: --fallback-model is not UTF-8 text" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 2 task-edit --fallback-model "$(printf "gpt-\001")" job 2>err &&
	test_one_line err && grep -q "fallback_models" err &&
	task-show job >show && ! grep -q "^fallbacks:" show
'

# complete WORD...: what bash offers for the last WORD (as tests/0901).
complete() {
	bash -c '. "$1/completions/agentcron.bash" && shift &&
		COMP_WORDS=("$@") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) &&
		_agentcron_complete && printf "%s\n" "${COMPREPLY[@]}" | sort' sh "$AC_TOP" "$@"
}

test_expect_success 'fallback.MODEL is a config key; bash completes --fallback-model from the config' '
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	printf "price.gpt-new = 1 2\nfallback.gpt-old = gpt-mini\n" >"$XDG_CONFIG_HOME/agentcron/config" &&
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config" &&
	task-ls >/dev/null 2>err && test ! -s err &&
	complete task-edit --fallback-model gpt- >actual &&
	printf "%s\n" gpt-new gpt-old >expect && test_cmp expect actual
'

test_done
