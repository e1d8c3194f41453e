#!/bin/sh
# A replay (task-run --replay) is no occurrence of its task: it is not
# delivered, and it is not the answer before for deliveries on change or
# recovery: the next run is compared with the task's own last success.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export OPENAI_BASE_URL OPENAI_API_KEY

last_run() { store_sql "SELECT id FROM runs ORDER BY started_at DESC LIMIT 1"; }
run_at() { TASK_NOW=$1 task-run r >/dev/null; }

test_expect_success 'a replay between two runs does not hide a change' '
	task-add --manual --name r --exec llm-call --deliver @hook --deliver-on change alpha >/dev/null &&
	run_at 2026-11-23T07:00:00Z && last_run >first &&
	task-edit r --prompt beta >/dev/null &&
	run_at 2026-11-23T07:01:00Z &&
	TASK_NOW=2026-11-23T07:02:00Z task-run --replay "$(cat first)" >replay &&
	task-edit r --prompt alpha >/dev/null &&
	run_at 2026-11-23T07:03:00Z && last_run >third &&
	TASK_NOW=2026-11-23T07:05:00Z task-deliver >/dev/null &&
	store_sql "SELECT count(*) FROM receipts WHERE run_id = '"'"'$(cat replay)'"'"'" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	store_sql "SELECT count(*) FROM receipts WHERE run_id = '"'"'$(cat third)'"'"'" >actual &&
	echo 1 >expect && test_cmp expect actual &&
	$PY -c "import json,sys; b=[json.loads(json.loads(l)[\"body\"]) for l in open(\"rcv/requests\") if \"/hook\" in l]; sys.stdout.write([x for x in b if x[\"data\"][\"run_id\"] == sys.argv[1]][0][\"data\"][\"diff\"])" "$(cat third)" >diff &&
	grep "^-.*beta" diff && grep "^+.*alpha" diff
'

test_done
