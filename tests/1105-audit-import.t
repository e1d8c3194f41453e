#!/bin/sh
# An import is on the audit trail a task at a time: each created task whole,
# as the fields it has (a null says nothing of a new task), written in the
# import's one unit; the chain verifies and each entry names its task.
. "$AC_TOP/tests/lib.sh"
TASK_HOST_ID=here TASK_NOW=2026-11-23T06:00:00Z
export TASK_HOST_ID TASK_NOW
# set_fields: each JSON object of stdin (a line each, or the "after" of
# each audit entry with -a) as its id and the sorted names of its fields
# not null (task-show's runs, not a field of the task, apart).
cat >set_fields.py <<'EOF_PY'
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if len(sys.argv) > 1:
        assert o["action"] == "create" and o["before"] is None, o
        o = o["after"]
        assert None not in o.values(), o
    o.pop("runs", None)
    print(o.get("id", ""), " ".join(sorted(k for k, v in o.items() if v is not None)))
EOF_PY

test_expect_success 'an import: one create a task, its set fields whole' '
	cat >in.jsonl <<-EOF &&
	{"name":"one","prompt":"first","cron":"0 7 * * *","tz":"Europe/London"}
	{"name":"two","prompt":"second","at":"2026-12-01T09:00:00Z","model":"m1"}
	{"name":"three","prompt":"third","every":7200,"exec":"true","timeout":30}
	EOF
	task-add --json - <in.jsonl >ids &&
	test "$(wc -l <ids)" = 3 &&
	for id in $(cat ids); do task-show --json "$id" | python3 -c "import json, sys; print(json.dumps(json.load(sys.stdin)))" || return 1; done |
		python3 set_fields.py | sort >expect &&
	task-log --audit --json | python3 set_fields.py -a >entries &&
	sort entries >actual &&
	test_cmp expect actual &&
	cut -d" " -f1 entries | tac >order && test_cmp ids order &&
	task-log --audit | cut -f4,6 | tac >actual &&
	printf "create\tname \"one\"\ncreate\tname \"two\"\ncreate\tname \"three\"\n" >expect &&
	test_cmp expect actual &&
	task-log --audit --verify
'

test_expect_success 'a bad line adds no task and no entry' '
	printf "{\"name\":\"ok\",\"prompt\":\"p\",\"every\":\"1h\"}\n{\"name\":\"bad\",\"prompt\":\"p\",\"cron\":\"61 * * * *\"}\n" >bad.jsonl &&
	test_expect_code 2 task-add --json - <bad.jsonl 2>err &&
	test_one_line err &&
	test "$(store_sql "SELECT count(*) FROM audit")" = 3 &&
	test "$(store_sql "SELECT count(*) FROM tasks")" = 3
'
test_done
