#!/bin/sh
# A recurrence that ends (--count, --until) and whose last occurrence
# fails is completed: when that failure is the --pause-after'th in a row
# it is not paused too, since it has nothing left to resume; its hook hears
# of a failure, not of a pause.  One paused before its end stays paused.
. "$AC_TOP/tests/lib.sh"

cat >fail <<\EOF
#!/bin/sh
echo boom >&2
exit 1
EOF
cat >hook <<\EOF
#!/bin/sh
sed 's/.*"event":"\([a-z]*\)".*"slot":"\([^"]*\)".*/\1 \2/' >>"$HOME/events"
EOF
chmod +x fail hook

# tick TIME: one pass at TIME.
tick() {
	TASK_NOW=$1 task-tick >/dev/null 2>>tick.err
}

test_expect_success 'its last occurrence is its --pause-after th failure: completed, not paused' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --count 3 --retries 0 --pause-after 3 \
		--notify "$PWD/hook" --name thrice --exec "$PWD/fail" p >id &&
	for h in 07 08 09 10; do tick 2026-11-23T$h:00:00Z || return 1; done &&
	cat >expect <<-\EOF &&
	failure 2026-11-23T07:00:00Z
	failure 2026-11-23T08:00:00Z
	failure 2026-11-23T09:00:00Z
	EOF
	test_cmp expect events &&
	task-ls | cut -f2-4 >actual &&
	printf "thrice\tcompleted\t-\n" >expect && test_cmp expect actual &&
	task-show "$(cat id)" | grep "^status:" >actual &&
	echo "status:       completed" >expect && test_cmp expect actual &&
	task-ls --json | python3 -c "
import json, sys
t = json.loads(sys.stdin.readline())
print(t[\"enabled\"], t.get(\"paused\"), t[\"consecutive_failures\"])
" >actual &&
	echo "True None 3" >expect && test_cmp expect actual &&
	test_expect_code 1 grep "paused" tick.err
'

test_expect_success 'the same with --until, under a watcher' '
	reset_store && rm -f events &&
	TASK_NOW=2026-11-23T06:59:59Z task-add --cron "* * * * *" --until 2026-11-23T07:00:00Z \
		--retries 0 --pause-after 1 --notify "$PWD/hook" --name once --exec "$PWD/fail" p >/dev/null &&
	TASK_NOW=2026-11-23T06:59:59Z tick_watch &&
	test_until 30 lines wout 1 && test_until 30 lines events 1 && tick_stop &&
	echo "failure 2026-11-23T07:00:00Z" >expect && test_cmp expect events &&
	task-ls | cut -f2-4 >actual &&
	printf "once\tcompleted\t-\n" >expect && test_cmp expect actual
'

test_expect_success 'paused before its end: it stays paused, its end still ahead' '
	reset_store && rm -f events && : >tick.err &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --count 3 --retries 0 --pause-after 2 \
		--notify "$PWD/hook" --name twice --exec "$PWD/fail" p >/dev/null &&
	for h in 07 08 09; do tick 2026-11-23T$h:00:00Z || return 1; done &&
	cat >expect <<-\EOF &&
	failure 2026-11-23T07:00:00Z
	paused 2026-11-23T08:00:00Z
	EOF
	test_cmp expect events &&
	task-ls | cut -f2-4 >actual &&
	printf "twice\tpaused\t2026-11-23T09:00:00Z\n" >expect && test_cmp expect actual
'

test_done
