#!/bin/sh
# Edges of the claim's rules that a change of one comparison or one flag
# would move: found by mutating common/claim_decide.c and
# common/fire_rules.c and seeing which changes no other test noticed.
. "$AC_TOP/tests/lib.sh"

# The executor: logs "start SLOT", waits for the file go unless fast
# exists, logs "end SLOT"; fails with "boom" while the file fail exists.
cat >slow <<\EOF
#!/bin/sh
echo "start $TASK_SLOT" >>"$HOME/log"
if [ ! -e "$HOME/fast" ]; then
	while [ ! -e "$HOME/go" ]; do sleep 0.1; done
fi
echo "end $TASK_SLOT" >>"$HOME/log"
[ ! -e "$HOME/fail" ] || { echo boom >&2; exit 1; }
EOF
chmod +x slow

test_expect_success 'the last occurrence missed while a run goes on: the task stays running' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "* * * * *" --count 2 --deadline 30s --overlap skip \
		--name last --exec "$PWD/slow" p >id &&
	{ TASK_NOW=2026-11-23T07:00:00Z task-tick >a.out 2>a.err & } &&
	test_until 60 lines log 1 &&
	TASK_NOW=2026-11-23T07:01:45Z task-tick >b.out 2>b.err &&
	store_sql "SELECT slot, status FROM runs ORDER BY slot" >actual &&
	cat >expect <<-EOF &&
	$(date -u -d 2026-11-23T07:00:00Z +%s)|running
	$(date -u -d 2026-11-23T07:01:00Z +%s)|missed
	EOF
	{ test_cmp expect actual || { cat b.out b.err; task-ls --json; touch go; wait; false; }; } &&
	task-ls | cut -f2,3 >actual &&
	printf "last\trunning\n" >expect && test_cmp expect actual &&
	touch go && wait && rm go &&
	task-ls | cut -f2,3 >actual &&
	printf "last\tcompleted\n" >expect && test_cmp expect actual
'

# fired: trigger, slot and status of every run, oldest slot first.
fired() {
	task-log --limit 0 | cut -f5-7 | sort -k2
}

test_expect_success 'a deadline holds to the second: at DUR after its instant a run starts, a second later it is missed' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --deadline 2m --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T07:02:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-24T07:02:01Z task-tick >/dev/null 2>&1 &&
	fired >actual &&
	cat >expect <<-\EOF &&
	schedule	2026-11-23T07:00:00Z	success
	catchup	2026-11-24T07:00:00Z	missed
	EOF
	test_cmp expect actual
'

test_expect_success '--missed all under a deadline: the oldest occurrence exactly DUR old still runs' '
	reset_store &&
	TASK_NOW=2026-11-22T23:30:00Z task-add --cron "0 * * * *" --missed all --deadline 2h \
		--exec true x >/dev/null &&
	for i in 1 2 3 4; do TASK_NOW=2026-11-23T06:00:00Z task-tick || return 1; done >/dev/null &&
	fired >actual &&
	cat >expect <<-\EOF &&
	catchup	2026-11-23T04:00:00Z	success
	catchup	2026-11-23T05:00:00Z	success
	schedule	2026-11-23T06:00:00Z	success
	EOF
	test_cmp expect actual
'

test_expect_success '--missed skip after a gap: the newest occurrence a minute late runs, a second more and it is skipped' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --missed skip --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T08:01:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T10:01:01Z task-tick >/dev/null &&
	fired >actual &&
	cat >expect <<-\EOF &&
	schedule	2026-11-23T08:00:00Z	success
	catchup	2026-11-23T10:00:00Z	skipped
	EOF
	test_cmp expect actual &&
	task-ls | cut -f4 >actual &&
	echo 2026-11-23T11:00:00Z >expect && test_cmp expect actual
'

test_expect_success '--missed skip with a deadline, after a gap: the newest occurrence within it runs as scheduled' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --missed skip --deadline 10m \
		--exec "sh -c \"echo \\\$TASK_TRIGGER >>\\\$HOME/triggers\"" x >/dev/null &&
	TASK_NOW=2026-11-23T08:05:00Z task-tick >/dev/null &&
	fired >actual &&
	printf "schedule\t2026-11-23T08:00:00Z\tsuccess\n" >expect && test_cmp expect actual &&
	echo schedule >expect && test_cmp expect triggers
'

test_expect_success 'a recurring task retries after 30 s, 2 min, 10 min, 30 min and 1 h' '
	reset_store &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 7 * * *" --retries 5 --exec false x >/dev/null &&
	at=2026-11-23T07:00:00Z &&
	for i in 1 2 3 4 5 6; do
		TASK_NOW=$at task-tick >/dev/null 2>&1 &&
		at=$(task-ls --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"due_at\"])") &&
		echo "$at" >>dues || return 1
	done &&
	cat >expect <<-\EOF &&
	2026-11-23T07:01:00Z
	2026-11-23T07:03:00Z
	2026-11-23T07:13:00Z
	2026-11-23T07:43:00Z
	2026-11-23T08:43:00Z
	2026-11-24T07:00:00Z
	EOF
	test_cmp expect dues &&
	task-log --limit 0 | cut -f5,7 | sort | uniq -c | sed "s/^ *//" >actual &&
	printf "5 retry\tfailed\n1 schedule\tfailed\n" >expect && test_cmp expect actual
'

test_done
