#!/bin/sh
# task-run --backfill FROM..TO: each past occurrence in the range that never
# ran (no run, or only a record of a skip or a miss) runs, in order, with
# trigger backfill and TASK_SLOT set to it; --dry-run lists them; what ran
# is left alone, so a backfill, a pass and a second backfill at once run
# each occurrence once.  At most 100 occurrences; the future is refused.
. "$AC_TOP/tests/lib.sh"

cat >show <<\EOF
#!/bin/sh
echo "$TASK_TRIGGER $TASK_SLOT $TASK_ATTEMPT" >>"$HOME/seen"
sleep "${PAUSE:-0}"
echo "ran $TASK_SLOT"
EOF
chmod +x show

test_expect_success 'only the occurrences that never ran, in order, as backfill' '
	TASK_NOW=2026-11-22T23:30:00Z task-add --cron "0 * * * *" --missed skip --name hourly \
		--exec "$PWD/show" p >id &&
	TASK_NOW=2026-11-23T01:30:00Z task-tick >/dev/null &&
	TASK_NOW=2026-11-23T02:00:10Z task-tick >/dev/null &&
	task-log --limit 0 | cut -f5-7 | sort -k2 >actual &&
	printf "catchup\t2026-11-23T01:00:00Z\tskipped\nschedule\t2026-11-23T02:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T02:30:00Z task-run --backfill 2026-11-23T00:00Z..2026-11-23T02:00Z \
		--dry-run "$(cat id)" >actual &&
	printf "2026-11-23T00:00:00Z\n2026-11-23T01:00:00Z\n" >expect && test_cmp expect actual &&
	rm seen &&
	TASK_NOW=2026-11-23T02:30:00Z task-run --backfill "2026-11-23T00:00Z..2026-11-23T02:00Z" \
		"$(cat id)" >out &&
	printf "ran 2026-11-23T00:00:00Z\nran 2026-11-23T01:00:00Z\n" >expect && test_cmp expect out &&
	printf "backfill 2026-11-23T00:00:00Z 1\nbackfill 2026-11-23T01:00:00Z 1\n" >expect &&
	test_cmp expect seen &&
	task-ls | cut -f3,4 >actual &&
	printf "pending\t2026-11-23T03:00:00Z\n" >expect && test_cmp expect actual
'

test_expect_success 'a second backfill of the range runs nothing; --dry-run lists nothing' '
	rm seen &&
	TASK_NOW=2026-11-23T02:40:00Z task-run --backfill 2026-11-23T00:00Z..2026-11-23T02:00Z \
		--dry-run "$(cat id)" >out && test ! -s out &&
	TASK_NOW=2026-11-23T02:40:00Z task-run --backfill 2026-11-23T00:00Z..2026-11-23T02:00Z \
		"$(cat id)" >out && test ! -s out && test ! -e seen &&
	TASK_NOW=2026-11-23T02:40:00Z task-run --json --before-created --backfill "2026-11-22T23:00Z..2026-11-23T00:30Z" \
		"$(cat id)" | test_json_norm -t | sed "s/\"output\":\"[^\"]*\",//" >actual &&
	grep -c "\"trigger\":\"backfill\"" actual >n && echo 1 >expect && test_cmp expect n
'

test_expect_success 'refused: the future, more than 100 occurrences, a bad range, a one-shot' '
	id=$(cat id) && rm -f seen &&
	test_expect_code 2 env TASK_NOW=2026-11-23T02:40:00Z task-run --backfill \
		2026-11-23T00:00Z..2026-11-23T05:00Z "$id" 2>err &&
	echo "task-run: --backfill '\''2026-11-23T00:00Z..2026-11-23T05:00Z'\'' ends in the future: only past occurrences are backfilled" >expect &&
	test_cmp expect err &&
	test_expect_code 2 env TASK_NOW=2026-11-23T02:40:00Z task-run --before-created --backfill \
		2026-11-10T00:00Z..2026-11-23T00:00Z "$id" 2>err &&
	test_one_line err && grep -q "holds more than 100 occurrences" err &&
	for r in 2026-11-23T00:00Z 2026-11-23T00:00Z.. ..2026-11-23T00:00Z "soon..later" \
		2026-11-23T01:00Z..2026-11-23T00:00Z; do
		test_expect_code 2 env TASK_NOW=2026-11-23T02:40:00Z task-run --backfill "$r" "$id" 2>err &&
		test_one_line err || return 1
	done &&
	one=$(TASK_NOW=2026-11-23T02:40:00Z task-add --at 2026-11-24T00:00Z --exec true x) &&
	test_expect_code 2 env TASK_NOW=2026-11-23T02:40:00Z task-run --backfill \
		2026-11-23T00:00Z..2026-11-23T01:00Z "$one" 2>err && test_one_line err &&
	test_expect_code 2 task-run --dry-run "$id" 2>err && test_one_line err &&
	test ! -e seen
'

test_expect_success 'two backfills and passes at once: each occurrence runs once' '
	reset_store && rm -f seen &&
	TASK_NOW=2026-11-23T00:30:00Z task-add --cron "0 * * * *" --missed all --name all \
		--exec "$PWD/show" p >id &&
	export PAUSE=0.2 &&
	{ TASK_NOW=2026-11-23T05:30:00Z task-run --backfill 2026-11-23T01:00Z..2026-11-23T05:00Z \
		"$(cat id)" >b1.out 2>b1.err & } && b1=$! &&
	{ TASK_NOW=2026-11-23T05:30:00Z task-run --backfill 2026-11-23T01:00Z..2026-11-23T05:00Z \
		"$(cat id)" >b2.out 2>b2.err & } && b2=$! &&
	while kill -0 $b1 2>/dev/null || kill -0 $b2 2>/dev/null; do
		TASK_NOW=2026-11-23T05:30:00Z task-tick >>ticks 2>>tick.err || return 1
	done &&
	wait $b1 && wait $b2 && unset PAUSE &&
	for i in 1 2 3 4 5 6; do TASK_NOW=2026-11-23T05:30:00Z task-tick >>ticks || return 1; done &&
	cut -d" " -f2 seen | sort >slots &&
	printf "2026-11-23T0%d:00:00Z\n" 1 2 3 4 5 >expect && test_cmp expect slots &&
	store_sql "SELECT count(*) FROM runs WHERE status = '\''success'\''" >n &&
	echo 5 >expect && test_cmp expect n &&
	cat b1.err b2.err tick.err >errs && test ! -s errs &&
	echo "$(wc -l <seen) runs: $(cut -d" " -f1 seen | sort | uniq -c | tr "\n" " ")"
'

test_done
