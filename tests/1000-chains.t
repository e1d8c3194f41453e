#!/bin/sh
# Chains: --after TASK[:success|failure|any] fires a follower once per
# upstream run that ends so, its answer on the follower's stdin after the
# prompt and TASK_INPUT_RUN naming it; a retried upstream fires once, at
# the end; loops are refused, naming them; a deleted upstream leaves its
# followers disabled with the reason; exactly once across two tickers and
# a kill -9 between an upstream's end and its follower's claim.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T07:00:00Z

# ex: logs what it was given, one line a run ("|" for line ends); a task
# named fail* fails.
cat >ex <<\EOF
#!/bin/sh
in=$(cat | tr '\n' '|')
echo "$TASK_NAME $TASK_TRIGGER ${TASK_INPUT_RUN:+from:$(echo $TASK_INPUT_RUN | cut -c1-8)} <$in>" >>log
echo "answer of $TASK_NAME"
case $TASK_NAME in fail*) echo "it broke" >&2; exit 1 ;; esac
exit 0
EOF
chmod +x ex

test_expect_success 'a chain of three with a failure branch runs in one pass, each given its input' '
	fetch=$(task-add --manual --name "Fetch news" --exec "$PWD/ex" "fetch the news") &&
	sum=$(task-add --manual --name summarise --after "Fetch news" --exec "$PWD/ex" "summarise") &&
	post=$(task-add --manual --name failpost --after summarise:success --exec "$PWD/ex" "post it") &&
	alert=$(task-add --manual --name alert --after failpost:failure --exec "$PWD/ex" "tell me") &&
	never=$(task-add --manual --name never --after summarise:failure --exec "$PWD/ex" "no") &&
	task-run $fetch >out && echo "answer of Fetch news" >expect && test_cmp expect out &&
	task-tick >tick.out 2>tick.err &&
	r1=$(task-log --task $fetch | cut -c1-8) && r2=$(task-log --task $sum | cut -c1-8) &&
	r3=$(task-log --task $post | cut -c1-8) &&
	cat >expect <<-EOF &&
	Fetch news manual  <fetch the news>
	summarise after from:$r1 <summarise||answer of Fetch news|>
	failpost after from:$r2 <post it||answer of summarise|>
	alert after from:$r3 <tell me||answer of failpost|>
	EOF
	test_cmp expect log &&
	task-log | cut -f4-7 >actual &&
	printf "alert\tafter\t-\tsuccess\nfailpost\tafter\t-\tfailed\nsummarise\tafter\t-\tsuccess\nFetch news\tmanual\t-\tsuccess\n" >expect &&
	test_cmp expect actual &&
	task-tick >/dev/null 2>&1 && test "$(wc -l <log)" -eq 4
'

test_expect_success 'listings say what a task follows; JSON carries after with ids' '
	task-show summarise | grep "^schedule:" >actual &&
	echo "schedule:     after '\''Fetch news'\'' succeeds (UTC)" >expect && test_cmp expect actual &&
	task-ls | grep alert | cut -f5 >actual &&
	echo "after '\''failpost'\'' fails" >expect && test_cmp expect actual &&
	task-when --describe --id alert 2>/dev/null | head -1 >actual && test_cmp expect actual &&
	fetch=$(task-ls | grep "Fetch news" | cut -f1) &&
	task-ls --json | grep "\"name\":\"summarise\"" | grep -q "\"after\":\[\"$fetch:success\"\]" &&
	echo "{\"tool_name\":\"task_create\",\"tool_args\":{\"prompt\":\"p\",\"name\":\"byagent\",\"after\":[\"alert\"]}}" |
		task-mcp --call >out &&
	grep "^Schedule:" out >actual &&
	echo "Schedule: after '\''alert'\'' succeeds" >expect && test_cmp expect actual &&
	echo "{\"tool_name\":\"task_create\",\"tool_args\":{\"prompt\":\"q\",\"daily\":\"08:00\",\"after\":[\"alert:any\"]}}" |
		task-mcp --call >out &&
	grep "^Schedule:" out >actual &&
	echo "Schedule: Daily at 08:00 (UTC); after '\''alert'\'' ends" >expect && test_cmp expect actual &&
	task-rm byagent >/dev/null 2>&1 &&
	task-add --manual --name twice --after alert --after "alert:failure" --exec true x >/dev/null &&
	task-ls | grep twice | cut -f5 >actual &&
	echo "after '\''alert'\'' ends" >expect && test_cmp expect actual &&
	task-rm twice >/dev/null
'

test_expect_success 'a loop is refused, naming it, and nothing changes' '
	test_expect_code 2 task-edit --after alert "Fetch news" >out 2>err &&
	echo "task-edit: after: that would make a loop: '\''Fetch news'\'' -> '\''summarise'\'' -> '\''failpost'\'' -> '\''alert'\'' -> '\''Fetch news'\''" >expect &&
	test_cmp expect err && test ! -s out &&
	test_expect_code 2 task-edit --after summarise summarise 2>err && test_one_line err &&
	grep -q "cannot follow itself" err &&
	test_expect_code 2 task-add --manual --after nosuch x 2>err && test_one_line err &&
	test_expect_code 2 task-add --manual --after "summarise:sucess" x 2>err && test_one_line err &&
	task-show --json "Fetch news" >json && ! grep -q "\"after\"" json
'

test_expect_success 'deleting an upstream leaves its followers disabled with the reason' '
	task-rm "Fetch news" >/dev/null &&
	task-show summarise | grep "^paused:" >actual &&
	echo "paused:       disabled: the task it follows, '\''Fetch news'\'', was deleted" >expect &&
	test_cmp expect actual &&
	task-ls --json | grep "\"name\":\"summarise\"" | grep -q "\"enabled\":false"
'

# utf8_ok: standard input is valid UTF-8.
utf8_ok() {
	perl -MEncode -e 'local $/; my $s = <STDIN>; Encode::decode("UTF-8", $s, Encode::FB_CROAK); 1'
}

test_expect_success 'a description too long for its line is cut between characters, and says so' '
	n=$(perl -CO -e "print qq(\x{20ac}) x 66") &&
	for i in 1 2 3; do task-add --manual --name "$n$i" --exec true x >/dev/null || return 1; done &&
	task-add --manual --name wide --after "${n}1" --after "${n}2" --after "${n}3" --exec true x >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --name wide2 --after "${n}1" \
		--after "${n}2" --exec true x >/dev/null &&
	test_expect_code 2 task-when --describe --id wide 2>/dev/null >when &&
	utf8_ok <when && grep -q "\.\.\.$" when &&
	task-ls | grep wide >ls && utf8_ok <ls && test "$(grep -c "\.\.\.	" ls)" = 2 &&
	task-show wide >show && utf8_ok <show && task-show wide2 >show && utf8_ok <show &&
	grep -q "^schedule:     Daily at 07:00; after .*\.\.\. (cron" show
'

test_expect_success 'a retried upstream fires its followers once, when it finally succeeds' '
	reset_store && rm -f log &&
	cat >flaky <<-\EOF &&
	#!/bin/sh
	cat >/dev/null
	echo "$TASK_NAME $TASK_TRIGGER" >>log
	test -e once || { : >once; exit 1; }
	echo fresh data
	EOF
	chmod +x flaky &&
	up=$(TASK_NOW=2026-11-23T06:59:00Z task-add --cron "0 7 * * *" --retries 1 --name up \
		--exec "$PWD/flaky" "get") &&
	task-add --manual --name ok --after up --exec "$PWD/ex" "use it" >/dev/null &&
	task-add --manual --name onfail --after up:failure --exec "$PWD/ex" "alarm" >/dev/null &&
	task-add --manual --name any --after up:any --exec "$PWD/ex" "either" >/dev/null &&
	task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:01:00Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:02:00Z task-tick >/dev/null 2>&1 &&
	cat >expect <<-\EOF &&
	up schedule
	up retry
	EOF
	grep "^up " log >actual && test_cmp expect actual &&
	grep -v "^up " log | sed "s/ from:[0-9a-f]*//" | sort >actual &&
	cat >expect <<-\EOF &&
	any after <either||fresh data|>
	ok after <use it||fresh data|>
	EOF
	test_cmp expect actual
'

test_expect_success 'a retried upstream that fails every time fires its failure followers once, at its last attempt' '
	reset_store && rm -f log &&
	cat >broken <<-\EOF &&
	#!/bin/sh
	cat >/dev/null
	echo "$TASK_NAME $TASK_TRIGGER" >>log
	exit 1
	EOF
	chmod +x broken &&
	TASK_NOW=2026-11-23T06:59:00Z task-add --cron "0 7 * * *" --retries 2 --name down \
		--exec "$PWD/broken" "get" >/dev/null &&
	task-add --manual --name ok --after down --exec "$PWD/ex" "use it" >/dev/null &&
	task-add --manual --name onfail --after down:failure --exec "$PWD/ex" "alarm" >/dev/null &&
	for at in 07:00:05 07:01:05 07:02:05 07:03:05 07:04:05 07:05:05; do
		TASK_NOW=2026-11-23T${at}Z task-tick >/dev/null 2>&1 || return 1
	done &&
	cut -d" " -f1,2 log >actual &&
	printf "down schedule\ndown retry\ndown retry\nonfail after\n" >expect && test_cmp expect actual
'

# blocker: a manual run of it stays in flight until killed; a chained run
# is logged.
cat >blocker <<\EOF
#!/bin/sh
in=$(cat | tr '\n' '|')
if [ "$TASK_TRIGGER" = manual ]; then
	echo $$ >blocker.pid
	while :; do sleep 1; done
fi
echo "B $TASK_TRIGGER <$in>" >>blog
EOF
chmod +x blocker

test_expect_success 'exactly once across a kill -9 between the end and the claim, and two tickers' '
	reset_store && rm -f log blog &&
	a=$(task-add --manual --name A --exec "$PWD/ex" "first") &&
	b=$(task-add --manual --name B --after A --exec "$PWD/blocker" "second") &&
	{ task-run $b >/dev/null 2>&1 & echo $! >runner; } &&
	test_when_finished "test_end \$(cat runner) \$(cat blocker.pid 2>/dev/null)" &&
	test_until 30 test -s blocker.pid &&
	task-run --queue $a >/dev/null 2>&1 &&
	{ task-tick --watch >w.out 2>w.err & echo $! >watcher; } &&
	test_when_finished "test_end \$(cat watcher)" &&
	test_until 60 eval "task-log --task $a | cut -f7 | grep -q success" &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL")" = 1 &&
	kill -9 $(cat watcher) && { wait $(cat watcher) || :; } &&
	kill -9 $(cat runner) && { wait $(cat runner) || :; } &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL")" = 1 &&
	test ! -e blog &&
	{ task-tick >t1.out 2>t1.err & p1=$!; task-tick >t2.out 2>t2.err & p2=$!;
	  wait $p1 && wait $p2; } &&
	task-tick >/dev/null 2>&1 &&
	echo "B after <second||answer of A|>" >expect && test_cmp expect blog &&
	echo "A manual  <first>" >expect && test_cmp expect log &&
	task-log --task $b | cut -f5,7 >actual &&
	printf "after\tsuccess\nmanual\tinterrupted\n" >expect && test_cmp expect actual &&
	test "$(store_sql "SELECT count(*) FROM run_inputs WHERE run_id IS NULL")" = 0
'

# slow: notes its pid, then waits a long time (its ticker is killed).
cat >slow <<\EOF
#!/bin/sh
cat >/dev/null
echo $$ >"$TASK_NAME.pid"
exec sleep 300
EOF
chmod +x slow

test_expect_success 'an upstream whose ticker is killed mid-run: recovered as interrupted, its failure follower fired once' '
	reset_store && rm -f log &&
	task-add --manual --name up --retries 0 --exec "$PWD/slow" "work" >/dev/null &&
	task-add --manual --name onfail --after up:failure --exec "$PWD/ex" "why" >/dev/null &&
	task-add --manual --name onany --after up:any --exec "$PWD/ex" "either" >/dev/null &&
	task-add --manual --name onok --after up --exec "$PWD/ex" "fine" >/dev/null &&
	task-run --queue up >/dev/null 2>&1 &&
	{ task-tick >k.out 2>k.err & echo $! >ticker; } &&
	test_when_finished "test_end \$(cat ticker) \$(cat up.pid 2>/dev/null)" &&
	test_until 30 test -s up.pid &&
	kill -9 $(cat ticker) && { wait $(cat ticker) || :; } &&
	test "$(store_sql "SELECT count(*) FROM run_inputs")" = 0 &&
	{ TASK_NOW=2026-11-23T07:00:30Z task-tick >t1.out 2>t1.err & p1=$!;
	  TASK_NOW=2026-11-23T07:00:30Z task-tick >t2.out 2>t2.err & p2=$!;
	  wait $p1; wait $p2; } &&
	TASK_NOW=2026-11-23T07:00:40Z task-tick >/dev/null 2>&1 &&
	test_until 10 eval "! alive $(cat up.pid)" &&
	sed "s/ from:[0-9a-f]*//; s/(pid [0-9]*) ended before the run finished.*/(pid P) ended .../" log |
		sort >actual &&
	cat >expect <<-\EOF &&
	onany after <either||the process running it (pid P) ended ...
	onfail after <why||the process running it (pid P) ended ...
	EOF
	test_cmp expect actual &&
	task-log --task up | cut -f7 >actual && echo interrupted >expect && test_cmp expect actual
'

test_expect_success 'a follower of two tasks, one scheduled, on a schedule of its own too; the slot is the upstream run'\''s' '
	reset_store && rm -f log &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "0 7 * * *" --name sched --exec "$PWD/ex" "s" >/dev/null &&
	task-add --manual --name man --exec "$PWD/ex" "m" >/dev/null &&
	TASK_NOW=2026-11-23T06:00:00Z task-add --cron "30 7 * * *" --name both --after sched \
		--after man:any --exec "$PWD/ex" "b" >/dev/null &&
	task-show both | grep "^schedule:" >actual &&
	echo "schedule:     Daily at 07:30; after '\''sched'\'' succeeds or '\''man'\'' ends (cron '\''30 7 * * *'\'', UTC)" >expect &&
	test_cmp expect actual &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:10:00Z task-run man >/dev/null &&
	TASK_NOW=2026-11-23T07:10:10Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:30:10Z task-tick >/dev/null 2>&1 &&
	TASK_NOW=2026-11-23T07:40:00Z task-tick >/dev/null 2>&1 &&
	task-log --task both | cut -f5,6,7 >actual &&
	printf "schedule\t2026-11-23T07:30:00Z\tsuccess\nafter\t-\tsuccess\nafter\t2026-11-23T07:00:00Z\tsuccess\n" >expect &&
	test_cmp expect actual &&
	grep "^both" log | sed "s/ from:[0-9a-f]*//" >actual &&
	printf "both after <b||answer of sched|>\nboth after <b||answer of man|>\nboth schedule  <b>\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a store of the schema before chains is upgraded in place' '
	old=$(new_store old) &&
	TASK_DB=$old task-add --manual --name kept --exec "$PWD/ex" "a prompt" >/dev/null &&
	case $AC_STORE in
	sqlite) sqlite3 "$old" "DROP TABLE spend; DROP TABLE reserves; ALTER TABLE llm_calls DROP COLUMN answered_model; ALTER TABLE llm_calls DROP COLUMN fallback_from; ALTER TABLE tasks DROP COLUMN fallback_models; DROP TABLE run_inputs; DROP INDEX tasks_after;
		ALTER TABLE tasks DROP COLUMN after_tasks; ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 17" ;;
	postgres) TASK_DB=$old store_sql "DROP TABLE spend, reserves; DROP TABLE run_inputs; DROP INDEX tasks_after;
		ALTER TABLE tasks DROP COLUMN after_tasks; ALTER TABLE llm_calls DROP COLUMN request; UPDATE agentcron_schema SET version = 13" ;;
	esac &&
	TASK_DB=$old task-add --manual --name next --after kept --exec "$PWD/ex" "then" >/dev/null &&
	rm -f log && TASK_DB=$old task-run kept >/dev/null && TASK_DB=$old task-tick >/dev/null 2>&1 &&
	cut -d" " -f1,2 log >actual && printf "kept manual\nnext after\n" >expect && test_cmp expect actual
'

test_done
