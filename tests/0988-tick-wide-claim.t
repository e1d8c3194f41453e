#!/bin/sh
# Wider than one claim: with -j 100, one look at what is due claims the
# queued manual runs and then the due tasks in batches of 64, and starts
# every run once the claims are done; each run starts with its own task
# (its id, its prompt), none twice, none left behind.
. "$AC_TOP/tests/lib.sh"

cat >job <<EOF
#!/bin/sh
read -r prompt
echo "\$TASK_ID \$TASK_RUN_ID \$TASK_TRIGGER \$prompt" >>$PWD/log
echo "\$prompt"
EOF
chmod +x job

test_expect_success 'setup: 92 one-shots due at 07:00, 8 queued manual runs' '
	export TASK_NOW=2026-11-23T06:55:00Z &&
	awk -v job="$PWD/job" "BEGIN { for (i = 1; i <= 92; i++)
		printf(\"{\\\"name\\\":\\\"at-%d\\\",\\\"prompt\\\":\\\"p at-%d\\\",\\\"at\\\":\\\"2026-11-23T07:00:00Z\\\",\\\"exec\\\":\\\"%s\\\"}\\n\", i, i, job) }" |
		task-add --json - >/dev/null &&
	for i in $(seq 8); do task-add --manual --name manual-$i --exec "$PWD/job" "p manual-$i" >/dev/null || return 1; done &&
	for i in $(seq 8); do task-run --queue manual-$i >/dev/null || return 1; done &&
	test "$(task-ls | wc -l)" -eq 100
'

test_expect_success 'one pass at -j 100: every run once, each with its own task and prompt' '
	export TASK_NOW=2026-11-23T07:00:05Z &&
	task-tick -j 100 >out 2>err &&
	test ! -s err &&
	test "$(grep -c "\"status\":\"success\"" out)" -eq 100 &&
	test "$(wc -l <out)" -eq 100 &&
	awk "{ print \$1, \$2 }" log | sort >pairs &&
	store_sql "SELECT task_id, id FROM runs" | tr "|" " " | sort >stored &&
	test_cmp stored pairs &&
	store_sql "SELECT id, prompt FROM tasks" | sed "s/|/ /" | sort >expect &&
	awk "{ print \$1, \$4, \$5 }" log | sort >actual &&
	test_cmp expect actual &&
	printf "schedule 92\nmanual 8\n" >expect &&
	awk "{ print \$3 }" log | sort | uniq -c | awk "{ print \$2, \$1 }" | sort -r >actual &&
	test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM runs WHERE status <> '"'success'"'")" = 0
'

test_done
