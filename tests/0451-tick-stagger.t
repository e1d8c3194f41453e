#!/bin/sh
# The config's stagger: a hundred tasks at 09:00 spread over the window,
# each at a fixed offset of its own that task-show, task-when --id and the
# runs agree on; nothing fires before its due instant and nothing is late
# for being put off; --jitter 0 opts out; wildcard and interval schedules
# are not staggered; a bad value is one line.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-25T08:00:00Z
mkdir -p config/agentcron && echo "stagger = 5m" >config/agentcron/config

# due: id and due instant of each pending task, soonest first.
due() {
	task-ls --limit 1000 --json | sed 's/^{"id":"\([^"]*\)".*"due_at":"\([^"]*\)".*/\1 \2/' | sort -k2
}

test_expect_success 'a hundred 09:00 tasks: due within the 5 minutes, spread, each its own offset' '
	i=0 && while [ $i -lt 100 ]; do
		task-add --daily 09:00 --exec true "briefing $i" >/dev/null || return 1
		i=$((i + 1))
	done &&
	due >all && test "$(wc -l <all)" -eq 100 &&
	cut -d" " -f2 all | sort -u >instants &&
	test "$(head -1 instants | cut -c1-15)" = 2026-11-25T09:0 &&
	test "$(sed -n "s/^2026-11-25T09:0\([0-4]\):..Z$/ok/p" instants | wc -l)" -eq "$(wc -l <instants)" &&
	test "$(wc -l <instants)" -ge 60
'

test_expect_success 'task-show and task-when --id say the instant each fires at' '
	for id in $(head -5 all | cut -d" " -f1) $(tail -3 all | cut -d" " -f1); do
		want=$(grep "^$id " all | cut -d" " -f2) &&
		got=$(task-when --utc --id "$id" --daily 09:00) &&
		test "$got" = "$want" &&
		off=$(( $(date -ud "$want" +%s) - $(date -ud 2026-11-25T09:00:00Z +%s) )) &&
		task-show "$id" | grep "^next run:" >actual &&
		if [ $off -eq 0 ]; then suffix=; else suffix=", staggered to +${off}s"; fi &&
		echo "next run:     2026-11-25 09:00 UTC (2026-11-25T09:00:00Z)$suffix" >expect &&
		test_cmp expect actual || return 1
	done &&
	task-when -d --daily 09:00 >actual &&
	printf "Daily at 09:00, staggered under 5m per task\n2026-11-25T09:00:00+00:00\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'passes every 30 s fire exactly those due by then, on schedule, none early' '
	prev=2026-11-25T08:59:59Z &&
	for t in 00:00 00:30 01:00 01:30 02:00 02:30 03:00 03:30 04:00 04:30 05:00; do
		now=2026-11-25T09:${t}Z &&
		TASK_NOW=$now task-tick >out &&
		awk -v a="$prev" -v b="$now" "\$2 > a && \$2 <= b { print \$1 }" all | sort >expect &&
		sed "s/.*\"task_id\":\"\([^\"]*\)\".*/\1/" out | sort >actual &&
		test_cmp expect actual &&
		test "$(grep -c "\"trigger\":\"schedule\"" out)" -eq "$(wc -l <out)" &&
		cat out >>fired && prev=$now || return 1
	done &&
	test "$(wc -l <fired)" -eq 100
'

test_expect_success 'the next occurrence keeps the offset of its task' '
	due >next &&
	sed "s/2026-11-25/2026-11-26/" all | sort >expect &&
	sort next >actual &&
	test_cmp expect actual
'

test_expect_success '--jitter 0 opts out; wildcard and interval schedules are not staggered' '
	reset_store &&
	a=$(task-add --daily 09:00 --jitter 0 --exec true a) &&
	b=$(task-add --cron "*/15 * * * *" --exec true b) &&
	c=$(task-add --every 1h --from "2026-11-25 09:00" --exec true c) &&
	d=$(task-add --cron "0 9 * * *" --cron "30 * * * *" --exec true d) &&
	task-ls --json | sed "s/.*\"name\":\"\([a-d]\)\".*\"next_run_at\":\"\([^\"]*\)\",\"due_at\":\"\([^\"]*\)\".*/\1 \2 \3/" |
		sort >actual &&
	cat >expect <<-\EOF &&
	a 2026-11-25T09:00:00Z 2026-11-25T09:00:00Z
	b 2026-11-25T08:15:00Z 2026-11-25T08:15:00Z
	c 2026-11-25T09:00:00Z 2026-11-25T09:00:00Z
	d 2026-11-25T08:30:00Z 2026-11-25T08:30:00Z
	EOF
	test_cmp expect actual &&
	task-show "$a" | grep "^jitter:" >actual &&
	echo "jitter:       none, not staggered (--jitter 0)" >expect &&
	test_cmp expect actual &&
	task-show --json "$a" | grep -o "\"jitter\":0,\"stagger\":0" &&
	task-edit "$a" --jitter "" >actual &&
	printf "stagger: 0 -> none\nnext run: 2026-11-25 09:00 UTC\n" >expect &&
	test_cmp expect actual &&
	task-show --json "$a" | grep -v "\"due_at\":\"2026-11-25T09:00:00Z\"" >/dev/null
'

test_expect_success 'a task made through a seed profile keeps its seed: not staggered' '
	reset_store &&
	echo "{\"name\":\"schedule_task\",\"arguments\":{\"description\":\"k\",\"prompt\":\"p\",\"cron\":\"0 9 * * *\"}}" |
		task-mcp -p kai --call >/dev/null &&
	task-ls --json | grep -o "\"due_at\":\"[^\"]*\"" >actual &&
	echo "\"due_at\":\"2026-11-25T09:00:00Z\"" >expect &&
	test_cmp expect actual
'

test_expect_success 'a stagger that is no duration: one line, exit 2, nothing changed' '
	echo "stagger = soon" >config/agentcron/config &&
	test_expect_code 2 task-add --daily 10:00 --exec true z 2>err &&
	echo "task-add: $PWD/config/agentcron/config: bad stagger '\''soon'\'': a duration up to a day, such as 5m or 90s, or off" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-tick 2>err &&
	test_one_line err &&
	echo "stagger = 2d" >config/agentcron/config &&
	test_expect_code 2 task-when --daily 10:00 2>err &&
	test_one_line err
'

test_done
