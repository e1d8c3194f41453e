#!/bin/sh
# --overlap replace ends a run that the next occurrence finds still going.
# A cancelled run is no failure; but when it was a retry, the occurrence
# it retried had failed and now has no try left: that occurrence counts as
# one failure (toward --pause-after), and the attempt that failed fires
# the followers of its failure, which it held back for the retry.
. "$AC_TOP/tests/lib.sh"

# ex: logs "TRIGGER SLOT ATTEMPT"; the first attempt of an occurrence
# fails, a retry waits for the file go (or SIGTERM).
cat >ex <<\EOF
#!/bin/sh
echo "$TASK_TRIGGER $TASK_SLOT $TASK_ATTEMPT" >>"$HOME/log"
if [ "$TASK_ATTEMPT" = 1 ]; then echo "broke at $TASK_SLOT" >&2; exit 1; fi
trap 'exit 143' TERM
while [ ! -e "$HOME/go" ]; do sleep 0.1; done
echo fine
EOF
# told: logs its trigger, slot and input.
cat >told <<\EOF
#!/bin/sh
echo "$TASK_TRIGGER $TASK_SLOT <$(tr '\n' '|')>" >>"$HOME/told.log"
EOF
chmod +x ex told

test_expect_success 'a retry replaced by the next occurrence: its occurrence counted failed, its followers told' '
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "*/5 * * * *" --overlap replace --name up \
		--exec "$PWD/ex" p >id &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --after up:failure --name alert --exec "$PWD/told" tell >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>&1 &&
	{ TASK_NOW=2026-11-23T07:01:00Z task-tick >a.out 2>a.err & } &&
	test_until 60 lines log 2 &&
	TASK_NOW=2026-11-23T07:05:00Z task-tick >b.out 2>b.err &&
	wait &&
	cat >expect <<-\EOF &&
	schedule 2026-11-23T07:00:00Z 1
	retry 2026-11-23T07:00:00Z 2
	EOF
	test_cmp expect log &&
	task-log --task up --limit 0 | cut -f5-7 >actual &&
	cat >expect <<-\EOF &&
	retry	2026-11-23T07:00:00Z	cancelled
	schedule	2026-11-23T07:00:00Z	failed
	EOF
	test_cmp expect actual &&
	task-show "$(cat id)" | grep "^failures:" >actual &&
	echo "failures:     1" >expect && test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:05:10Z task-tick >/dev/null 2>&1 &&
	echo "after 2026-11-23T07:00:00Z <tell||exited with status 1|broke at 2026-11-23T07:00:00Z|>" >expect &&
	test_cmp expect told.log
'

test_expect_success 'the replacing occurrence runs after it, once' '
	grep -c "^schedule 2026-11-23T07:05:00Z 1$" log >actual &&
	echo 1 >expect && test_cmp expect actual
'

test_done
