#!/bin/sh
# task-status for monitoring under cron: --print-cron writes the dead-man's
# and the textfile lines with absolute paths, and they run in cron's bare
# environment; silence past --max-silence is CRITICAL with nothing due; a
# TASK_DB naming no store is UNKNOWN; --check --task judges one task as a
# Healthchecks.io check does; --prometheus names tasks.
. "$AC_TOP/tests/lib.sh"
export TASK_HOST_ID=alpha

# A crontab line's command, run as cron runs it: sh, PATH=/usr/bin:/bin,
# nothing else of this shell's environment but HOME (and the test's clock,
# TASK_NOW); '\%' is cron's '%'.
as_cron() {
	cmd=$(printf '%s\n' "$1" | cut -d" " -f6- | sed 's/\\%/%/g') &&
	(cd / && env -i HOME="$HOME" PATH=/usr/bin:/bin ${TASK_NOW:+TASK_NOW=$TASK_NOW} sh -c "$cmd")
}

# A daily task that ran once.
id=$(TASK_NOW=2026-11-23T06:00:00Z task-add --daily 07:00 --name "daily brief" --exec true x) &&
TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null || exit 1

test_expect_success '--print-cron --ping: the line pings only while --check says OK, under cron' '
	task-status --print-cron --ping "http://127.0.0.1:1/ping%1" >out &&
	grep -v "^#" out >line && test "$(wc -l <line)" -eq 1 &&
	self=$(readlink -f "$(command -v task-status)") &&
	echo "*/5 * * * * TASK_DB='\''$TASK_DB'\'' XDG_CONFIG_HOME='\''$XDG_CONFIG_HOME'\'' $self --check >/dev/null && curl -fsS -m 10 --retry 3 -o /dev/null '\''http://127.0.0.1:1/ping\\%1'\''" >expect &&
	test_cmp expect line &&
	TASK_NOW=2026-11-23T07:01:00Z && export TASK_NOW &&
	test_expect_code 7 as_cron "$(cat line)" 2>/dev/null &&
	TASK_NOW=2026-11-23T09:00:00Z &&
	test_expect_code 2 as_cron "$(cat line)" &&
	unset TASK_NOW
'

test_expect_success '--print-cron --textfile: the metrics file replaced whole, under cron' '
	task-status --print-cron --textfile node/agentcron.prom >out &&
	grep -v "^#" out >line && test "$(wc -l <line)" -eq 1 &&
	grep -q "^\* \* \* \* \* .*/task-status --prometheus >$PWD/node/agentcron.prom.tmp && mv -f " line &&
	mkdir node && as_cron "$(cat line)" &&
	test ! -e node/agentcron.prom.tmp &&
	grep -q "^agentcron_task_last_success_timestamp_seconds{task=\"$id\",name=\"daily brief\"} " node/agentcron.prom
'

test_expect_success '--print-cron: both lines at once; neither is a usage error' '
	task-status --print-cron --ping https://hc-ping.com/x --textfile /tmp/m.prom | grep -vc "^#" >n &&
	echo 2 >expect && test_cmp expect n &&
	test_expect_code 2 task-status --print-cron >out 2>err && test_one_line err && test ! -s out &&
	test_expect_code 2 task-status --print-cron --ping ftp://x 2>err && test_one_line err &&
	test_expect_code 2 task-status --ping https://x 2>err && test_one_line err
'

test_expect_success 'a scheduler silent past --max-silence is CRITICAL with nothing due' '
	test_expect_code 2 env TASK_NOW=2026-11-23T21:59:00Z task-status --check >out &&
	grep -q "^AGENTCRON CRITICAL - last pass 14 h 58 min ago on alpha (more than 3 min): is task-tick running? |" out &&
	test_expect_code 0 env TASK_NOW=2026-11-23T07:02:00Z task-status --check >out
'

test_expect_success 'a TASK_DB naming no store is UNKNOWN, for --check and --prometheus' '
	test_expect_code 3 env TASK_DB=$PWD/typo.db task-status --check >out &&
	grep -q "^AGENTCRON UNKNOWN - no store at .*typo.db" out &&
	test_expect_code 1 env TASK_DB=$PWD/typo.db task-status --prometheus >out 2>err &&
	test_one_line err && test ! -s out && test ! -e typo.db
'

test_expect_success '--check --task: OK within its period and the grace, by name or id' '
	test_expect_code 0 env TASK_NOW=2026-11-24T06:00:00Z task-status --check --task "daily brief" >out &&
	echo "AGENTCRON OK - task '\''daily brief'\'': last success 22 h 59 min ago; the next is due by 2026-11-25T07:00:00Z | last_success_age=82790s;;172790" >expect &&
	test_cmp expect out &&
	test_expect_code 0 env TASK_NOW=2026-11-24T06:00:00Z task-status --check --task "$id" >out
'

test_expect_success '--check --task: CRITICAL once a success is later than period plus grace' '
	test_expect_code 2 env TASK_NOW=2026-11-25T07:00:11Z task-status --check --task "$id" >out &&
	grep -q "^AGENTCRON CRITICAL - task .daily brief.: last success 48 h 0 min ago, one was due by 2026-11-25T07:00:00Z |" out &&
	test_expect_code 2 env TASK_NOW=2026-11-24T07:30:00Z task-status --check --task "$id" --grace 20m >out &&
	grep -q "one was due by 2026-11-24T07:20:00Z" out
'

test_expect_success '--check --task: WARNING while it fails, not yet late' '
	TASK_NOW=2026-11-23T07:30:00Z task-add --cron "0 * * * *" --name flaky --retries 0 --exec false x >/dev/null &&
	TASK_NOW=2026-11-23T08:00:05Z task-tick >/dev/null 2>&1 &&
	test_expect_code 1 env TASK_NOW=2026-11-23T08:10:00Z task-status --check --task flaky >out &&
	grep -q "^AGENTCRON WARNING - task .flaky. failing: 1 in a row" out &&
	test_expect_code 2 env TASK_NOW=2026-11-23T10:10:00Z task-status --check --task flaky >out &&
	grep -q "^AGENTCRON CRITICAL - task .flaky.: no success since it was made, one was due by 2026-11-23T09:00:00Z" out
'

test_expect_success '--check --task: an unknown task is UNKNOWN; --task without --check a usage error' '
	test_expect_code 3 task-status --check --task nosuch >out &&
	grep -q "^AGENTCRON UNKNOWN - no task .nosuch." out &&
	test_expect_code 2 task-status --task "$id" 2>err && test_one_line err &&
	test_expect_code 3 task-status --check --grace 5m 2>err && test_one_line err
'

test_done
