#!/bin/sh
# Time expressions through the commands: date_order = dmy in the config for
# task-when, task-add (flags and JSON import) and task-edit; a zone written
# in the expression; nothing past the year 9999; error messages that quote
# input as one line of valid UTF-8, for cron expressions too.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T14:30:00Z
mkdir -p config/agentcron

test_expect_success 'numeric dates are month first by default' '
	task-when --tz UTC "3/4 at 9am" >actual &&
	echo 2027-03-04T09:00:00+00:00 >expect &&
	test_cmp expect actual
'

test_expect_success 'date_order = dmy makes them day first in task-when' '
	echo "date_order = dmy" >config/agentcron/config &&
	task-when --tz UTC "3/4 at 9am" >actual &&
	echo 2027-04-03T09:00:00+00:00 >expect &&
	test_cmp expect actual &&
	task-when --tz UTC --from "1/12/2026" --utc "in 1 hour" >actual &&
	echo 2026-12-01T01:00:00Z >expect &&
	test_cmp expect actual
'

test_expect_success '... in task-add --at and --plan' '
	task-add --at "3/4 at 9am" --name at "p" >/dev/null &&
	task-add --plan "5/1" --plan "6/1 at 10:00" --name plan "p" >/dev/null &&
	task-ls | cut -f2,4,5 >actual &&
	cat >expect <<-\EOF &&
	plan	2027-01-05T00:00:00Z	Planned: 2 runs at 2027-01-05 00:00, 2027-01-06 10:00
	at	2027-04-03T09:00:00Z	Once on 2027-04-03 at 09:00
	EOF
	test_cmp expect actual
'

test_expect_success '... in task-edit --at' '
	id=$(task-ls | awk -F "\t" "\$2 == \"at\" { print \$1 }") &&
	task-edit "$id" --at "4/3 at 9am" >/dev/null &&
	task-ls | awk -F "\t" "\$2 == \"at\" { print \$4 }" >actual &&
	echo 2027-03-04T09:00:00Z >expect &&
	test_cmp expect actual
'

test_expect_success '... and in JSON import' '
	reset_store &&
	echo "{\"name\":\"j\",\"prompt\":\"p\",\"at\":\"3/4 at 9am\"}" | task-add --json - >/dev/null &&
	task-ls | cut -f2,4 >actual &&
	printf "j\t2027-04-03T09:00:00Z\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bad date_order is refused, naming the file' '
	echo "date_order = ymd" >config/agentcron/config &&
	test_expect_code 2 task-when "3/4" >out 2>err &&
	test_cmp /dev/null out &&
	echo "task-when: $PWD/config/agentcron/config: date_order '\''ymd'\'' is neither mdy (3/4 is March 4) nor dmy (3/4 is 3 April)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-add --at "3/4" p 2>err && test_one_line err &&
	rm config/agentcron/config
'

test_expect_success 'a zone written after the time wins; the instant shows in --tz' '
	task-when --tz America/New_York "tomorrow at 14:00 UTC" >actual &&
	echo 2026-11-23T09:00:00-05:00 >expect &&
	test_cmp expect actual &&
	task-add --tz Asia/Tokyo --at "friday at 5pm ET" --name et p >/dev/null &&
	task-ls | awk -F "\t" "\$2 == \"et\" { print \$4 }" >actual &&
	echo 2026-11-27T22:00:00Z >expect &&
	test_cmp expect actual
'

test_expect_success 'an ambiguous abbreviation asks for an offset or a zone' '
	test_expect_code 2 task-when --tz Europe/London "9am IST" 2>err &&
	echo "task-when: cannot understand time '\''9am IST'\'' (read in Europe/London): '\''IST'\'' could be India (+05:30), Israel (+02:00) or Ireland (+01:00); write an offset such as +05:30 or a zone name such as Asia/Kolkata" >expect &&
	test_cmp expect err
'

test_expect_success 'nothing past the year 9999 is read or printed' '
	test_expect_code 2 task-when "in 100000 years" >out 2>err &&
	test_cmp /dev/null out && test_one_line err &&
	grep -q "past the year 9999" err &&
	test_expect_code 2 task-add --at "in 8000 years" p 2>err && test_one_line err &&
	task-when --utc --from 9999-12-29T12:00:00Z -n 5 @daily >actual &&
	printf "9999-12-30T00:00:00Z\n9999-12-31T00:00:00Z\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 task-when --utc --from 9999-12-31T12:00:00Z @daily >out 2>err &&
	echo "task-when: '\''@daily'\'' never fires after 9999-12-31T12:00:00+00:00 before the year 10000" >expect &&
	test_cmp expect err &&
	task-when --tz Pacific/Kiritimati --from 9999-12-30T00:00:00Z -n 5 "0 0 * * *" >actual &&
	echo 9999-12-31T00:00:00+14:00 >expect &&
	test_cmp expect actual
'

test_expect_success 'messages quote input as valid UTF-8, cut between characters' '
	test_expect_code 2 task-when "0 0 * * 5é" 2>err &&
	echo "task-when: bad day-of-week field '\''5é'\'': unexpected '\''é'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-when "$(printf "tomorrow \\377")" 2>err &&
	echo "task-when: cannot understand time '\''tomorrow �'\'' (read in UTC): it is not valid UTF-8; write times in plain letters and digits" >expect &&
	test_cmp expect err &&
	long=$(printf "%060d" 0 | sed "s/0/é/g") &&
	test_expect_code 2 task-when "at 9 $long" 2>err && test_one_line err &&
	iconv -f UTF-8 -t UTF-8 err >/dev/null &&
	test_expect_code 2 task-add --at "at 9 $long" p 2>err && test_one_line err &&
	iconv -f UTF-8 -t UTF-8 err >/dev/null &&
	test_expect_code 2 task-when "0 0 * * $long" 2>err && test_one_line err &&
	iconv -f UTF-8 -t UTF-8 err >/dev/null &&
	grep -q "\\.\\.\\." err
'

test_expect_success 'a typo gets the nearest word' '
	test_expect_code 2 task-when --tz UTC "tomorow at 9" 2>err &&
	echo "task-when: cannot understand time '\''tomorow at 9'\'' (read in UTC): unknown word '\''tomorow'\''; did you mean '\''tomorrow'\''?" >expect &&
	test_cmp expect err
'

test_done
