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

test_done
