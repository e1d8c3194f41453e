#!/bin/sh
# The toolpack profile over MCP: scheduler.create with its two examples and
# its dedup on (intent, schedule, channel); ISO 8601 run_at only;
# scheduler.list (pending by default, limit 10, at most 50);
# scheduler.update's rules (pending only, not both cron and run_at, run_at
# turns a recurring job into a one-shot one); scheduler.cancel (pending only);
# and markFailed's rule: a one-shot job fails for good at its first failure,
# a recurring one moves on.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
export TASK_NOW
q() { store_sql "$1"; }

test_expect_success 'a whole conversation: create, dedup, list, update, cancel' '
	cat >script <<-\EOF &&
	init 2025-11-25
	@weekly call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 1","message":"Generate weekly summary","channel_name":"report-channel"}
	call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 1","message":"Generate weekly summary","channel_name":"report-channel"}
	@onboard call scheduler.create {"intent":"onboarding_followup","run_at":"2026-06-01T10:00:00Z","payload":{"userId":"usr_123"}}
	call scheduler.create {"intent":"onboarding_followup","run_at":"2026-06-01T10:00:00Z","payload":{"userId":"usr_123"}}
	@july call scheduler.create {"message":"Quarterly check-in","run_at":"2026-07-01T09:00:00Z"}
	call scheduler.create {"intent":"x","run_at":"next Tuesday"}
	call scheduler.create {"intent":"x","cron":"0 9 * * 1","run_at":"2026-07-01T09:00:00Z"}
	call scheduler.create {"intent":"x"}
	call scheduler.create {"cron":"0 9 * * 1"}
	call scheduler.create {"intent":"x","cron":"0 9 * * 8"}
	call scheduler.create {"intent":"x","run_at":"2026-01-01T09:00:00Z"}
	call scheduler.list
	call scheduler.list {"channel_name":"report-channel"}
	call scheduler.update {"job_id":"${weekly}","cron":"0 10 * * 1","message":"Generate the weekly summary"}
	call scheduler.update {"job_id":"${weekly}","run_at":"2026-03-05T08:00:00Z","payload":{"a":1}}
	call scheduler.update {"job_id":"${weekly}","cron":"0 10 * * 1","run_at":"2026-03-05T08:00:00Z"}
	call scheduler.update {"job_id":"${weekly}","cron":"bad"}
	call scheduler.update {"job_id":"nope","intent":"y"}
	call scheduler.cancel {"job_id":"${july}"}
	call scheduler.cancel {"job_id":"${july}"}
	call scheduler.update {"job_id":"${july}","intent":"y"}
	call scheduler.cancel {"job_id":"nope"}
	call scheduler.list {"status":"all"}
	call scheduler.list {"status":"cancelled"}
	EOF
	client script task-mcp --profile toolpack >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Created recurring job ${weekly} (cron: 0 9 * * 1). Next run: 2026-03-02T09:00:00+00:00.
	[3] ok
	A pending job with the same intent, schedule and channel already exists: ${weekly} (no duplicate was created). Next run: 2026-03-02T09:00:00+00:00.
	[4] ok
	Created one-shot job ${onboard}. Next run: 2026-06-01T10:00:00+00:00.
	[5] ok
	A pending job with the same intent, schedule and channel already exists: ${onboard} (no duplicate was created). Next run: 2026-06-01T10:00:00+00:00.
	[6] ok
	Created one-shot job ${july}. Next run: 2026-07-01T09:00:00+00:00.
	[7] error
	Invalid run_at '\''next Tuesday'\'': expected an ISO 8601 timestamp such as 2026-07-01T09:00:00Z (natural language is not accepted).
	[8] error
	Provide either cron or run_at, not both.
	[9] error
	Provide either cron (a recurring job) or run_at (a one-shot job).
	[10] error
	Provide a message (or at least an intent) for the job.
	[11] error
	Invalid cron expression '\''0 9 * * 8'\'': bad day-of-week field '\''8'\'': 8 is out of range 0-7.
	[12] error
	2026-01-01 09:00 UTC is in the past (read in UTC).
	[13] ok
	3 jobs:
	- ${weekly} | pending | recurring (0 9 * * 1) | next run: 2026-03-02T09:00:00+00:00 | intent: weekly_report | channel: report-channel
	- ${onboard} | pending | one-shot | next run: 2026-06-01T10:00:00+00:00 | intent: onboarding_followup
	- ${july} | pending | one-shot | next run: 2026-07-01T09:00:00+00:00
	[14] ok
	1 job:
	- ${weekly} | pending | recurring (0 9 * * 1) | next run: 2026-03-02T09:00:00+00:00 | intent: weekly_report | channel: report-channel
	[15] ok
	Job ${weekly} updated. Next run: 2026-03-02T10:00:00+00:00.
	[16] ok
	Job ${weekly} updated. Next run: 2026-03-05T08:00:00+00:00.
	[17] error
	Cannot provide both cron and run_at.
	[18] error
	Invalid cron expression '\''bad'\'': expected 5 fields (minute hour day-of-month month day-of-week), got 1.
	[19] error
	Job nope not found.
	[20] ok
	Job ${july} cancelled.
	[21] error
	Job ${july} cannot be cancelled: it is cancelled, and only pending jobs can be cancelled.
	[22] error
	Cannot update job ${july}: it is cancelled, and only pending jobs can be updated.
	[23] error
	Job nope not found.
	[24] ok
	3 jobs:
	- ${weekly} | pending | one-shot | next run: 2026-03-05T08:00:00+00:00 | intent: weekly_report | channel: report-channel
	- ${onboard} | pending | one-shot | next run: 2026-06-01T10:00:00+00:00 | intent: onboarding_followup
	- ${july} | cancelled | one-shot | next run: none
	[25] ok
	1 job:
	- ${july} | cancelled | one-shot | next run: none
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'the store: intent, message, channel and payload; run_at cleared the cron' '
	q "SELECT coalesce(intent, '\''-'\''), prompt, coalesce(channel, '\''-'\''), coalesce(payload, '\''-'\''), kind, coalesce(cron, '\''-'\''), status FROM tasks ORDER BY created_at, prompt" >actual &&
	cat >expect <<-\EOF &&
	weekly_report|Generate the weekly summary|report-channel|{"a":1}|at|-|pending
	-|Quarterly check-in|-|-|at|-|cancelled
	onboarding_followup|onboarding_followup|-|{"userId":"usr_123"}|at|-|pending
	EOF
	test_cmp expect actual
'

test_expect_success 'the same intent and schedule on another channel is another job' '
	TASK_DB=$(new_store channels) &&
	cat >script <<-\EOF &&
	@a call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 1","channel_name":"a"}
	@b call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 1","channel_name":"b"}
	call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 1","channel_name":"a"}
	@tue call scheduler.create {"intent":"weekly_report","cron":"0 9 * * 2","channel_name":"a"}
	EOF
	TASK_DB=$TASK_DB client script task-mcp -p toolpack >actual &&
	cat >expect <<-\EOF &&
	[1] ok
	Created recurring job ${a} (cron: 0 9 * * 1). Next run: 2026-03-02T09:00:00+00:00.
	[2] ok
	Created recurring job ${b} (cron: 0 9 * * 1). Next run: 2026-03-02T09:00:00+00:00.
	[3] ok
	A pending job with the same intent, schedule and channel already exists: ${a} (no duplicate was created). Next run: 2026-03-02T09:00:00+00:00.
	[4] ok
	Created recurring job ${tue} (cron: 0 9 * * 2). Next run: 2026-03-03T09:00:00+00:00.
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'running jobs cannot be cancelled or updated; last errors are listed' '
	weekly=$(q "SELECT id FROM tasks WHERE intent = '\''weekly_report'\''") &&
	onboard=$(q "SELECT id FROM tasks WHERE intent = '\''onboarding_followup'\''") &&
	q "UPDATE tasks SET status = '\''running'\'' WHERE id = '\''$weekly'\''" &&
	q "UPDATE tasks SET last_error = '\''agent threw: timeout'\'' WHERE id = '\''$onboard'\''" &&
	cat >script <<-EOF &&
	call scheduler.cancel {"job_id":"$weekly"}
	call scheduler.update {"job_id":"$weekly","intent":"other"}
	call scheduler.list {"status":"running"}
	call scheduler.list {}
	EOF
	client script task-mcp -p toolpack >actual &&
	cat >expect <<-\EOF &&
	[1] error
	Job <uuid> cannot be cancelled: it is running, and only pending jobs can be cancelled.
	[2] error
	Cannot update job <uuid>: it is running, and only pending jobs can be updated.
	[3] ok
	1 job:
	- <uuid> | running | one-shot | next run: none | intent: weekly_report | channel: report-channel
	[4] ok
	1 job:
	- <uuid> | pending | one-shot | next run: 2026-06-01T10:00:00+00:00 | intent: onboarding_followup | last error: agent threw: timeout
	exit 0
	EOF
	test_cmp expect actual
'

test_expect_success 'scheduler.list: 10 by default, at most 50' '
	TASK_DB=$(new_store many) &&
	i=0 && while [ $i -lt 60 ]; do
		printf "{\"name\":\"scheduler.create\",\"arguments\":{\"message\":\"Job %d\",\"run_at\":\"2026-03-02T09:%02d:00Z\"}}\n" $i $i &&
		i=$((i + 1)) || return 1
	done >calls &&
	TASK_DB=$TASK_DB task-mcp -p toolpack --call <calls >/dev/null &&
	printf "%s\n" "call scheduler.list" "call scheduler.list {\"limit\":100}" "call scheduler.list {\"limit\":3}" >script &&
	TASK_DB=$TASK_DB client script task-mcp -p toolpack >actual &&
	# The reply listing the first N jobs, one a minute from 09:00.
	jobs() {
		echo "$1 jobs:" && i=0 &&
		while [ $i -lt $1 ]; do
			printf -- "- <uuid> | pending | one-shot | next run: 2026-03-02T09:%02d:00+00:00\n" $i &&
			i=$((i + 1)) || return 1
		done
	} &&
	{ echo "[1] ok" && jobs 10 && echo "[2] ok" && jobs 50 && echo "[3] ok" && jobs 3 &&
	  echo "exit 0"; } >expect &&
	test_cmp expect actual
'

test_expect_success 'a failing one-shot job fails for good at once; a recurring one moves on' '
	TASK_DB=$(new_store fail) &&
	export TASK_DB &&
	printf "%s\n" "{\"name\":\"scheduler.create\",\"arguments\":{\"intent\":\"once\",\"run_at\":\"2026-03-01T13:00:00Z\"}}" \
		"{\"name\":\"scheduler.create\",\"arguments\":{\"intent\":\"weekly\",\"cron\":\"0 9 * * 1\"}}" |
		task-mcp -p toolpack --call >/dev/null &&
	for now in 2026-03-01T13:00:00Z 2026-03-01T13:01:00Z 2026-03-02T09:00:00Z 2026-03-02T09:01:00Z; do
		TASK_NOW=$now TASK_EXEC=false task-tick >/dev/null 2>&1 || return 1
	done &&
	echo "{\"name\":\"scheduler.list\",\"arguments\":{\"status\":\"all\"}}" |
		TASK_NOW=2026-03-02T10:00:00Z task-mcp -p toolpack --call >out &&
	uuids <out >actual &&
	cat >expect <<-\EOF &&
	2 jobs:
	- <uuid> | pending | recurring (0 9 * * 1) | next run: 2026-03-09T09:00:00+00:00 | intent: weekly | last error: exited with status 1
	- <uuid> | failed | one-shot | next run: none | intent: once | last error: exited with status 1
	EOF
	test_cmp expect actual &&
	task-log --limit 0 | cut -f5,6,7 | sort >actual &&
	cat >expect <<-\EOF &&
	schedule	2026-03-01T13:00:00Z	failed
	schedule	2026-03-02T09:00:00Z	failed
	EOF
	test_cmp expect actual
'

test_done
