#!/bin/sh
# task-when --id ID alone: when that stored task fires, in its own zone, as
# the README says; a task that does not fire again and an unknown id are
# errors with their exit status.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:30:00Z

test_expect_success 'a stored task: its next instants in its zone' '
	id=$(task-add --daily 09:00 --tz Europe/Paris --exec true "brief") &&
	task-when --id "$id" -n 3 >actual &&
	cat >expect <<-\EOF &&
	2026-11-23T09:00:00+01:00
	2026-11-24T09:00:00+01:00
	2026-11-25T09:00:00+01:00
	EOF
	test_cmp expect actual
'

test_expect_success 'by a prefix, described, in UTC' '
	id=$(task-add --weekly "fri 17:00" --tz Europe/London --exec true "review") &&
	task-when --id "$(echo "$id" | cut -c1-8)" --describe --utc >actual &&
	printf "Every Friday at 17:00\n2026-11-27T17:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the config stagger applies as task-tick applies it' '
	mkdir -p config/agentcron &&
	echo "stagger = 5m" >config/agentcron/config &&
	# Each task its own offset within the 5 minutes, which may be 0 (then
	# no "slot"): five tasks, so that one staggered is all but certain.
	for i in 1 2 3 4 5; do
		id=$(task-add --cron "0 9 * * *" --exec true "staggered $i") &&
		task-when --id "$id" --json || return 1
	done >actual &&
	python3 -c "
import json, sys
from datetime import datetime
at = lambda s: datetime.strptime(s, \"%Y-%m-%dT%H:%M:%SZ\").timestamp()
moved = 0
for line in open(\"actual\"):
    d = json.loads(line)
    slot = d.get(\"slot\", d[\"at\"])
    assert slot == \"2026-11-23T09:00:00Z\", line
    off = at(d[\"at\"]) - at(slot)
    assert 0 <= off < 300, line
    moved += off > 0
assert moved > 0, \"no task staggered\"
" &&
	rm config/agentcron/config
'

test_expect_success 'a manual task does not fire: exit 2, one line' '
	id=$(task-add --manual --exec true "by hand") &&
	test_expect_code 2 task-when --id "$id" >out 2>err &&
	test_one_line err && grep -q "does not fire again: it is manual" err &&
	test ! -s out
'

test_expect_success 'an unknown id: exit 3, one line' '
	test_expect_code 3 task-when --id ffffffff >out 2>err &&
	test_one_line err && test ! -s out
'

test_done
