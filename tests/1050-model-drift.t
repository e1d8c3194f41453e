#!/bin/sh
# Model drift: each call records the model asked for and the one the
# provider says answered (both wire formats, plain and streamed); a model
# the provider says is gone is replaced by its fallback, or fails for good
# naming it; a store from before the step is upgraded in place.
. "$AC_TOP/tests/lib.sh"
KEY=sk-fake-drift-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
ANTHROPIC_BASE_URL=http://127.0.0.1:$port ANTHROPIC_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY ANTHROPIC_BASE_URL ANTHROPIC_API_KEY

# The calls on record, oldest first: model asked, model that answered,
# the model a fallback replaced.
calls() {
	store_sql "SELECT model, coalesce(answered_model, '-'), coalesce(fallback_from, '-')
		FROM llm_calls ORDER BY id"
}

test_expect_success 'the model that answered is recorded beside the one asked for' '
	llm-call -m gpt-4o-mini "[[as gpt-4o-mini-2024-07-18]] hi" >out &&
	llm-call -m gpt-4o-mini --stream "[[as gpt-4o-mini-2024-07-18]] streamed" >out &&
	llm-call -m claude-3-5-haiku-latest "[[as claude-3-5-haiku-20241022]] hi" >out &&
	llm-call -m claude-3-5-haiku-latest --stream "[[as claude-3-5-haiku-20241022]] s" >out &&
	llm-call -m gpt-4.1 "the same model" >out &&
	calls >actual &&
	cat >expect <<-\EOT &&
	gpt-4o-mini|gpt-4o-mini-2024-07-18|-
	gpt-4o-mini|gpt-4o-mini-2024-07-18|-
	claude-3-5-haiku-latest|claude-3-5-haiku-20241022|-
	claude-3-5-haiku-latest|claude-3-5-haiku-20241022|-
	gpt-4.1|gpt-4.1|-
	EOT
	test_cmp expect actual
'

test_expect_success 'task-log --calls shows both when they differ, one when the same' '
	task-log --calls | cut -f3 >actual &&
	cat >expect <<-\EOT &&
	gpt-4.1
	claude-3-5-haiku-latest -> claude-3-5-haiku-20241022
	claude-3-5-haiku-latest -> claude-3-5-haiku-20241022
	gpt-4o-mini -> gpt-4o-mini-2024-07-18
	gpt-4o-mini -> gpt-4o-mini-2024-07-18
	EOT
	test_cmp expect actual &&
	task-log --calls --json | head -n 1 >line &&
	grep -q "\"model\":\"gpt-4.1\",\"answered_model\":\"gpt-4.1\",\"fallback_from\":null" line
'

test_expect_success 'task-log --usage --by model keeps a model apart from what answered it' '
	llm-call -m gpt-4o-mini "plain answer" >out &&
	task-log --usage --by model | cut -f1,2 | sort >actual &&
	cat >expect <<-\EOT &&
	claude-3-5-haiku-latest -> claude-3-5-haiku-20241022	2
	gpt-4.1	1
	gpt-4o-mini	1
	gpt-4o-mini -> gpt-4o-mini-2024-07-18	2
	total	6
	EOT
	test_cmp expect actual &&
	task-log --usage --by model --json | grep -c "\"answered_model\":\"gpt-4o-mini-2024-07-18\"" >n &&
	echo 1 >expect && test_cmp expect n
'

test_expect_success 'a retired model with no fallback: a permanent failure naming it, not retried' '
	reset_store &&
	before=$(wc -l <fp/requests.log) &&
	test_expect_code 78 llm-call -m gpt-old "[[retired gpt-old]] hi" >out 2>err &&
	test ! -s out &&
	test_one_line err &&
	grep -q "^llm-call: the model '\''gpt-old'\'' does not exist or was retired; give --fallback-model, or fallback.gpt-old in the config (openai: 404 The model \`gpt-old\` has been deprecated" err &&
	test $(( $(wc -l <fp/requests.log) - before )) -eq 1 &&
	test_expect_code 78 llm-call -m gpt-old "[[decommissioned gpt-old]] hi" 2>err &&
	grep -q "^llm-call: the model '\''gpt-old'\'' does not exist or was retired" err &&
	test_expect_code 78 llm-call -m claude-2.0 "[[retired claude-2.0]] hi" 2>err &&
	grep -q "^llm-call: the model '\''claude-2.0'\'' does not exist or was retired.*(anthropic: 404 model: claude-2.0" err
'

test_expect_success '--fallback-model: the next model is asked, in order, and the call records it' '
	reset_store &&
	llm-call -m gpt-old --fallback-model gpt-gone --fallback-model gpt-new \
		"[[retired gpt-old]] [[decommissioned gpt-gone]] [[as gpt-new-2025]] hi" >out 2>err &&
	echo "echo: [[retired gpt-old]] [[decommissioned gpt-gone]] [[as gpt-new-2025]] hi" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOT &&
	llm-call: the model '\''gpt-old'\'' does not exist or was retired; asking '\''gpt-gone'\''
	llm-call: the model '\''gpt-gone'\'' does not exist or was retired; asking '\''gpt-new'\''
	EOT
	test_cmp expect err &&
	grep "^body.model" fp/last.req >actual &&
	echo "body.model = \"gpt-new\"" >expect && test_cmp expect actual &&
	calls >actual &&
	echo "gpt-new|gpt-new-2025|gpt-old" >expect && test_cmp expect actual &&
	task-log --calls --json >json &&
	grep -q "\"fallback_from\":\"gpt-old\"" json
'

test_expect_success 'the fallbacks all gone: a permanent failure naming the last' '
	test_expect_code 78 llm-call -m gpt-old --fallback-model gpt-gone \
		"[[retired gpt-old]] [[retired gpt-gone]] hi" >out 2>err &&
	tail -n 1 err | grep -q "^llm-call: the model '\''gpt-gone'\'' does not exist or was retired"
'

test_expect_success 'the config: fallback.MODEL = OTHER, followed as a chain, never in a loop' '
	reset_store &&
	mkdir -p "$XDG_CONFIG_HOME/agentcron" &&
	cat >"$XDG_CONFIG_HOME/agentcron/config" <<-\EOT &&
	fallback.claude-2.0 = claude-2.1
	fallback.claude-2.1 = claude-3-5-haiku-latest
	fallback.gpt-a = gpt-b
	fallback.gpt-b = gpt-a
	EOT
	chmod 600 "$XDG_CONFIG_HOME/agentcron/config" &&
	llm-call -m claude-2.0 "[[retired claude-2.0]] [[retired claude-2.1]] hi" >out 2>err &&
	echo "echo: [[retired claude-2.0]] [[retired claude-2.1]] hi" >expect && test_cmp expect out &&
	calls >actual &&
	echo "claude-3-5-haiku-latest|claude-3-5-haiku-latest|claude-2.0" >expect &&
	test_cmp expect actual &&
	test_expect_code 78 llm-call -m gpt-a "[[retired gpt-a]] [[retired gpt-b]] hi" 2>err &&
	tail -n 1 err | grep -q "^llm-call: the model '\''gpt-b'\'' does not exist or was retired" &&
	rm "$XDG_CONFIG_HOME/agentcron/config"
'

test_expect_success 'a scheduled run of a retired model fails once, for good, naming it' '
	reset_store &&
	id=$(TASK_NOW=2026-11-22T08:00:00Z task-add --at 2026-11-22T09:00:00Z -m gpt-old \
		--name old "[[retired gpt-old]] report") &&
	TASK_NOW=2026-11-22T09:00:30Z task-tick >tick 2>/dev/null &&
	store_sql "SELECT status, exit_code FROM runs" >actual &&
	echo "failed|78" >expect && test_cmp expect actual &&
	task-log --json | grep -q "the model '\''gpt-old'\'' does not exist or was retired" &&
	TASK_NOW=2026-11-22T10:00:30Z task-tick >tick 2>/dev/null &&
	store_sql "SELECT count(*) FROM runs" >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_expect_success '--fallback-model that is not a model name is a usage error' '
	test_expect_code 2 llm-call --fallback-model "a,b" hi >out 2>err &&
	echo "llm-call: bad --fallback-model '\''a,b'\'': expected a model name" >expect &&
	test_cmp expect err && test ! -s out
'

test_expect_success 'a store from before the step is upgraded in place and keeps its calls' '
	old=$(new_store old) &&
	TASK_DB=$old llm-call -m gpt-4.1 "before" >out &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "ALTER TABLE llm_calls DROP COLUMN answered_model;
		ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 20" ;;
	postgres) TASK_DB=$old store_sql "ALTER TABLE llm_calls DROP COLUMN answered_model,
		DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models;
		UPDATE agentcron_schema SET version = 16" ;;
	esac &&
	TASK_DB=$old llm-call -m gpt-4.1 "[[as gpt-4.1-2025-04-14]] after" >out &&
	TASK_DB=$old task-add --manual --name later --fallback-model gpt-4.1 x >/dev/null &&
	TASK_DB=$old task-show later | grep "^fallbacks:" >actual &&
	echo "fallbacks:    gpt-4.1" >expect && test_cmp expect actual &&
	TASK_DB=$old task-log --calls | cut -f3 >actual &&
	cat >expect <<-\EOT &&
	gpt-4.1 -> gpt-4.1-2025-04-14
	gpt-4.1
	EOT
	test_cmp expect actual
'

test_done
