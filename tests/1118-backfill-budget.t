#!/bin/sh
# task-run --backfill holds each occurrence to the task's budget, spent by
# the runs before it: the first one over it ends the backfill with the
# reason and exit status 4, what ran before it kept; --force runs them all.
. "$AC_TOP/tests/lib.sh"
test_config "provider = echo"
TASK_NOW=2026-11-23T10:30:00Z
export TASK_NOW

# spend: asks the model (spending tokens), then succeeds.
cat >spend <<\EOF
#!/bin/sh
llm-call >/dev/null || exit 2
echo "$TASK_TRIGGER $TASK_SLOT" >>"$HOME/seen"
EOF
chmod +x spend

test_expect_success 'the occurrence over budget is refused, the one before it kept' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --cron "0 * * * *" --budget 3tok/day --name up \
		--exec "$PWD/spend" "one two three four" >/dev/null &&
	test_expect_code 4 task-run --backfill 2026-11-23T07:00..2026-11-23T09:00 up >out 2>err &&
	test_one_line err &&
	grep "is over budget: .*; --force runs it anyway" err &&
	echo "backfill 2026-11-23T07:00:00Z" >expect && test_cmp expect seen &&
	task-log --task up --limit 0 | cut -f5-7 >actual &&
	printf "backfill\t2026-11-23T07:00:00Z\tsuccess\n" >expect && test_cmp expect actual
'

test_expect_success '--force runs the rest' '
	task-run --force --backfill 2026-11-23T07:00..2026-11-23T09:00 up >out 2>err &&
	cat >expect <<-\EOF &&
	backfill 2026-11-23T07:00:00Z
	backfill 2026-11-23T08:00:00Z
	backfill 2026-11-23T09:00:00Z
	EOF
	test_cmp expect seen
'

test_done
