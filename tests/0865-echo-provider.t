#!/bin/sh
# The echo provider: llm-call answers with no network and no key, the same
# answer for the same conversation, tokens counted (words in, words out),
# tool calls when the prompt asks for them as the test provider's
# directives do; `provider = echo` in the config takes a task through
# task-tick, a token budget and the tools as a newcomer would.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
# No route out: a request on the network would fail, not pass.
export https_proxy=http://127.0.0.1:1 http_proxy=http://127.0.0.1:1

test_expect_success 'llm-call --provider echo: the model name and the prompt, no key' '
	llm-call --provider echo "Name three uses of cron." >actual 2>err &&
	echo "echo: Name three uses of cron." >expect &&
	test_cmp expect actual && test ! -s err &&
	echo "Summarise this." | llm-call -p echo -m tiny-model >actual &&
	echo "tiny-model: Summarise this." >expect &&
	test_cmp expect actual
'

test_expect_success 'deterministic, with tokens counted as words' '
	llm-call -p echo --json -s "Be brief." "one two three" >a1 &&
	llm-call -p echo --json -s "Be brief." "one two three" >a2 &&
	for f in a1 a2; do sed "s/\"latency_ms\":[0-9]*/\"latency_ms\":0/; s/\"id\":[0-9]*/\"id\":0/" $f >$f.n || return 1; done &&
	test_cmp a1.n a2.n &&
	grep -q "\"answer\":\"echo: one two three\",\"provider\":\"echo\",\"model\":\"echo\",\"usage\":{\"input_tokens\":5,\"output_tokens\":4}" a1
'

test_expect_success 'tool calls as asked, one a round, then the results' '
	llm-call -p echo --tools "[[call task_create {\"prompt\":\"Stretch.\",\"at\":\"in 1 hour\",\"name\":\"stretch\"}]] remind me" >out &&
	head -n 1 out >actual && echo "tool results: Created task '\''stretch'\''." >expect &&
	test_cmp expect actual &&
	task-ls >list && grep -q "	stretch	pending	2026-11-23T07:00:00Z	" list
'

test_expect_success 'a tool not offered is not called: the text comes back' '
	llm-call -p echo "[[call task_create {}]] no tools here" >actual &&
	echo "echo: [[call task_create {}]] no tools here" >expect &&
	test_cmp expect actual
'

test_expect_success 'provider = echo in the config: a task a minute under task-tick, its calls on record' '
	mkdir -p config/agentcron && echo "provider = echo" >config/agentcron/config &&
	task-add --cron "* * * * *" --name minute --budget 12tok/day "Say hello in five words" >/dev/null &&
	TASK_NOW=2026-11-23T06:01:00Z task-tick >/dev/null &&
	task-log --calls >calls &&
	head -n 1 calls | cut -f3,5,6,8- >actual &&
	printf "echo\t5\t6\tok\tSay hello in five words\techo: Say hello in five words\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'and a token budget holds it once spent' '
	TASK_NOW=2026-11-23T06:02:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T06:03:00Z task-tick >/dev/null 2>&1 &&
	task-log | cut -f7 >actual &&
	printf "skipped\nsuccess\nsuccess\n" >expect &&
	test_cmp expect actual
'

test_expect_success "the README's first steps: the budget holds hello from the fifth minute, as it says" '
	line=$(grep "^task-add --cron .\* \* \* \* \*. --budget .* --name hello " "$AC_TOP/README.md") &&
	test -n "$line" && export TASK_NOW=2026-11-23T06:10:00Z && id=$(eval "$line") &&
	for m in 1 2 3 4 5 6; do
		TASK_NOW=2026-11-23T06:1$m:00Z task-tick >/dev/null 2>>mail || return 1
	done &&
	task-log --task "$id" | cut -f7 >actual &&
	printf "skipped\nskipped\nsuccess\nsuccess\nsuccess\nsuccess\n" >expect &&
	test_cmp expect actual &&
	grep "task .hello." mail >hello-mail && test_one_line hello-mail &&
	grep -q "skipped: budget: 20 of 20 tokens this day" hello-mail
'

test_expect_success 'an unknown provider names echo among the choices' '
	test_expect_code 2 llm-call --provider nosuch hi 2>err &&
	test_one_line err && grep -q "openai, anthropic or echo" err
'

test_done
