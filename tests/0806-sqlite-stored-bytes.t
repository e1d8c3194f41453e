#!/bin/sh
# Text a file store holds from before text was checked at the door, or from
# any other writer, may be anything: bytes that are not UTF-8 are put
# straight into it here, and every output shows them as U+FFFD (JSON lines,
# tab-separated lines, tables, task-show, task-log, and the MCP replies).
# A PostgreSQL database holds only valid UTF-8, so this is the file store's.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
R=$(printf '\357\277\275') # U+FFFD as UTF-8

# A store written before text was checked at the door (or by another
# program) may hold anything: put bytes that are not UTF-8 straight into it.
test_expect_success 'setup: a task and a run whose text is not UTF-8' '
	printf "#!/bin/sh\necho RESULTMARK\n" >result && chmod +x result &&
	id=$(task-add --manual --name NAMEMARK --exec "$PWD/result" PROMPTMARK) &&
	task-run "$id" >/dev/null &&
	task-ls --json >ls.json && task-ls >ls.tsv && task-show "$id" >show.txt &&
	task-show --json "$id" >show.json && task-log --json >log.json &&
	run=$(task-log --task "$id" | cut -f1) && task-log "$run" | sed /^duration:/d >run.txt &&
	task-log --json "$run" >run.json &&
	sqlite3 "$TASK_DB" "UPDATE tasks SET name = CAST(X'\''636166e9'\'' AS TEXT),
		prompt = CAST(X'\''ff41'\'' AS TEXT), last_result = CAST(X'\''c0af'\'' AS TEXT)
		WHERE id = '\''$id'\'';
		UPDATE runs SET output = CAST(X'\''c0af0a'\'' AS TEXT) WHERE id = '\''$run'\''" &&
	echo "$id" >id && echo "$run" >run
'

# expected FILE: FILE as it was, with the marks as they read now.
expected() {
	sed -e "s/NAMEMARK/caf$R/g" -e "s/PROMPTMARK/${R}A/g" -e "s/RESULTMARK/$R$R/g" "$1"
}

test_expect_success 'task-ls --json, task-show --json: U+FFFD in each string' '
	task-ls --json >actual && expected ls.json >expect && test_cmp expect actual &&
	task-show --json "$(cat id)" >actual && expected show.json >expect && test_cmp expect actual &&
	grep -F "\"name\":\"caf$R\",\"prompt\":\"${R}A\"" actual
'

test_expect_success 'task-log --json, listing and one run' '
	task-log --json >actual && expected log.json >expect && test_cmp expect actual &&
	task-log --json "$(cat run)" >actual && expected run.json >expect && test_cmp expect actual
'

test_expect_success 'tab-separated lines and text' '
	task-ls >actual && expected ls.tsv >expect && test_cmp expect actual &&
	task-show "$(cat id)" >actual && expected show.txt >expect && test_cmp expect actual &&
	task-log "$(cat run)" | sed /^duration:/d >actual && expected run.txt >expect &&
	test_cmp expect actual
'

test_expect_success 'tables on a terminal' '
	script -qec "task-ls" /dev/null | tr -d "\\r" >actual &&
	grep -F "caf$R " actual &&
	script -qec "task-log" /dev/null | tr -d "\\r" >actual &&
	grep -F "caf$R " actual
'

test_expect_success 'MCP: names, prompts and outputs stored with bad bytes are valid UTF-8 in replies' '
	reset_store &&
	id=$(TASK_NOW=2026-03-01T12:00:00Z task-add --manual --name Caf p) &&
	sqlite3 "$TASK_DB" "UPDATE tasks SET name = '\''Bad '\'' || X'\''FF'\'', prompt = X'\''e282'\'',
		last_result = X'\''6f6b20e282'\'', last_error = X'\''c0af'\'', last_status = '\''failed'\'',
		last_run_at = 1772366400 WHERE id = '\''$id'\''" &&
	printf "%s\n" "call task_show {\"id\":\"$id\"}" "call task_list {\"kind\":\"manual\"}" >script &&
	client script task-mcp >out &&
	R=$(printf "\357\277\275") &&
	cat >expect <<-EOF &&
	[1] ok
	Task '\''Bad $R'\''
	ID: <uuid>
	Schedule: Manual
	Status: pending, enabled
	Next run: none (runs only when asked: task_run)
	Last run: 2026-03-01 12:00 UTC, failed: $R$R
	Failures in a row: 0
	Prompt: $R
	Last result: ok $R
	Created: 2026-03-01 12:00 UTC
	Recent runs (UTC):
	  none
	[2] ok
	Found 1 task:

	1. Bad $R
	   ID: <uuid>
	   Schedule: Manual
	   Status: pending, enabled
	   Next run: none (runs only when asked: task_run)
	   Last run: 2026-03-01 12:00 UTC, failed: $R$R
	exit 0
	EOF
	test_cmp expect out &&
	printf "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"task_show\",\"arguments\":{\"id\":\"%s\"}}}\n" "$id" |
		task-mcp >raw &&
	iconv -f UTF-8 -t UTF-8 raw >/dev/null
'

test_expect_success 'task-mcp --call: a name stored with a bad byte prints as U+FFFD' '
	reset_store &&
	TASK_NOW=2026-03-01T12:00:00Z task-add --manual --name N p >/dev/null &&
	sqlite3 "$TASK_DB" "UPDATE tasks SET name = '\''N'\'' || X'\''E9'\'' WHERE kind = '\''manual'\''" &&
	echo "{\"name\":\"task_list\",\"arguments\":{\"kind\":\"manual\"}}" | task-mcp --call >out &&
	uuids <out >actual &&
	cat >expect <<-EOF &&
	Found 1 task:

	1. N$R
	   ID: <uuid>
	   Schedule: Manual
	   Status: pending, enabled
	   Next run: none (runs only when asked: task_run)
	   Last run: never
	EOF
	test_cmp expect actual
'

test_done
