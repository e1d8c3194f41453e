#!/bin/sh
# The configuration file's keys: one nothing reads (a misspelling) is said
# once by each program, naming it and the file, and changes nothing else;
# `tz` is the local zone when the environment sets no TZ.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:30:00Z
mkdir -p config/agentcron
cfg=$PWD/config/agentcron/config

test_expect_success 'an unknown key: one warning line per program, the work done' '
	printf "modle = llama3.2\nexec = true\n# a comment\nprice_of = 1\n" >"$cfg" && chmod 600 "$cfg" &&
	id=$(task-add --daily 09:00 p 2>err) &&
	cat >expect <<-EOF &&
	task-add: warning: unknown key '"'"'modle'"'"' in $cfg (ignored; see agentcron-config(5))
	task-add: warning: unknown key '"'"'price_of'"'"' in $cfg (ignored; see agentcron-config(5))
	EOF
	test_cmp expect err &&
	task-ls >out 2>err &&
	test "$(cut -f1 out)" = "$id" &&
	sed "s/^task-add:/task-ls:/" expect >expect.ls && test_cmp expect.ls err &&
	task-when -n 1 @daily >/dev/null 2>err && test "$(wc -l <err)" -eq 2
'

test_expect_success 'every key agentcron reads is known: no warning' '
	cat >"$cfg" <<-\EOF &&
	db = tasks.db
	tz = Europe/London
	date_order = dmy
	exec = llm-call
	notify = true
	run_timeout = 600
	owner_timeout = 30
	deadline = 10m
	stagger = 5m
	tick_log_max = 10M
	pass_claim_time = 60
	max_concurrent = 4
	concurrency.gpt-4o-mini = 2
	provider = openai
	model = gpt-4o-mini
	openai_model = gpt-4o-mini
	anthropic_model = claude-3-5-haiku-latest
	openai_api_key = sk-x
	anthropic_api_key = sk-y
	openai_base_url = http://127.0.0.1:9/v1
	anthropic_base_url = http://127.0.0.1:9
	timeout = 30
	connect_timeout = 5
	retries = 2
	agent_mcp = notes
	agent_attach_dirs = ~/notes
	agent_edit = agents
	agent_max_create = 10
	agent_max_tasks = 100
	agent_max_calls = 16
	agent_url_allow = 10.0.0.5, 192.168.1.0/24
	notify_on = failure,recovery
	budget = $5/day
	price.gpt-4o-mini = 0.15 0.60
	fallback.gpt-4o-mini = gpt-4.1-mini
	keep = 90d
	keep_runs = 25000
	context_messages = 100
	deliver.chat = slack:https://hooks.slack.com/services/T0/B0/X
	deliver = @chat
	deliver_on = failure
	deliver_secret = whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
	deliver_timeout = 30
	telegram_token = 1:x
	telegram_base_url = http://127.0.0.1:9
	smtp_url = smtp://127.0.0.1:9
	smtp_user = me
	smtp_password = pw
	mail_from = me@example.org
	agent_deliver = @chat
	hook_rate = 60
	hook_keep = 7d
	EOF
	task-ls >/dev/null 2>err && test_cmp /dev/null err &&
	grep "^\.It Li " "$AC_TOP/man/man5/agentcron-config.5" |
		sed "s/^\.It //; s/ , / /g; s/Li //g; s/\. Ns Ar /./g" | tr " " "\n" | sort -u >documented &&
	sed "s/ = .*//; s/^\([a-z_]*\)\.[^ ]*/\1.MODEL/; s/^deliver\.MODEL$/deliver.name/" "$cfg" |
		sort -u >used &&
	test_cmp used documented
'

test_expect_success 'tz: the local zone of new tasks and listings when TZ is not set' '
	printf "tz = Asia/Tokyo\n" >"$cfg" &&
	id=$(env -u TZ task-add --daily 9am --exec true p) &&
	task-show --json "$id" | grep -o "\"tz\":\"[^\"]*\",\|\"next_run_at\":\"[^\"]*\"" >actual &&
	printf "%s\n" "\"tz\":\"Asia/Tokyo\"," "\"next_run_at\":\"2026-11-24T00:00:00Z\"" >expect &&
	test_cmp expect actual &&
	env -u TZ task-when --utc "tomorrow 9am" >actual &&
	echo 2026-11-24T00:00:00Z >expect && test_cmp expect actual &&
	TZ=Europe/London task-when --utc "tomorrow 9am" >actual &&
	echo 2026-11-24T09:00:00Z >expect && test_cmp expect actual
'

test_expect_success 'tz naming no zone: every program refuses, one line, exit 2' '
	printf "tz = Mars/Olympus\n" >"$cfg" &&
	test_expect_code 2 env -u TZ task-ls >out 2>err && test ! -s out &&
	echo "task-ls: config '"'"'$cfg'"'"': tz '"'"'Mars/Olympus'"'"' is not a zone the system knows (see /usr/share/zoneinfo)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 env -u TZ task-add --daily 9am p 2>err && test_one_line err &&
	test "$(task-ls | wc -l)" -eq 2
'

test_done
