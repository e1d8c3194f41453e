#!/bin/sh
# task-tick --watch supervises task-deliver beside its runs: a receiver
# that holds its answer (until the test releases it) does not hold up the
# firing; one task-deliver at a time, and the runs that ended while it ran
# are delivered as soon as it is done.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\necho "answer of $TASK_NAME"\n' >job && chmod +x job || exit 1
sed -i "s/^deliver_timeout = .*/deliver_timeout = 200/" config/agentcron/config || exit 1
receipt() { store_sql "SELECT t.name, r.status, r.attempts FROM receipts r JOIN tasks t ON t.id = r.task_id ORDER BY t.name"; }
delivering() { ps -o comm= --ppid "$(ps -o pid= --ppid "$(cat watcher)" | tr -d " ")" | grep -c "^task-deliver$"; }

test_expect_success 'a held delivery: the watcher goes on firing, then delivers what ended meanwhile' '
	echo "hold 150" >rcv/plan &&
	task-add --manual --exec "$PWD/job" --deliver @hook --name a x >/dev/null &&
	task-add --manual --exec "$PWD/job" --name b x >/dev/null &&
	task-add --manual --exec "$PWD/job" --deliver @chat --name c x >/dev/null &&
	tick_watch &&
	task-run --queue a >/dev/null &&
	test_until 60 lines rcv/requests 1 &&
	task-run --queue b >/dev/null && task-run --queue c >/dev/null &&
	test_until 60 lines wout 3 &&
	receipt >actual && echo "a|pending|1" >expect && test_cmp expect actual &&
	test "$(delivering)" = 1 && test "$(wc -l <rcv/requests)" = 1 &&
	touch rcv/release &&
	test_until 60 eval "receipt | grep -c \"|delivered|1$\" | grep -qx 2" &&
	receipt >actual && printf "a|delivered|1\nc|delivered|1\n" >expect && test_cmp expect actual &&
	tick_stop &&
	check keys / >keys && test "$(wc -l <keys)" = 2 && test "$(sort -u keys | wc -l)" = 2 &&
	watcher_said werr >said && test_cmp /dev/null said
'

test_expect_success 'a watcher told to stop lets a delivery under way finish within its grace' '
	reset_store && rm -f rcv/requests rcv/release && echo "hold 150" >rcv/plan &&
	task-add --manual --exec "$PWD/job" --deliver @hook --name a x >/dev/null &&
	tick_watch --grace 120 &&
	task-run --queue a >/dev/null &&
	test_until 60 lines rcv/requests 1 &&
	kill -TERM "$(cat watcher)" &&
	touch rcv/release && wait "$(cat watcher)" &&
	receipt >actual && echo "a|delivered|1" >expect && test_cmp expect actual
'

test_expect_success 'past its grace, the delivery is stopped and said; its lease waits for the next pass' '
	reset_store && rm -f rcv/requests rcv/release && echo "hold 150" >rcv/plan &&
	task-add --manual --exec "$PWD/job" --deliver @hook --name a x >/dev/null &&
	tick_watch --grace 1 &&
	task-run --queue a >/dev/null &&
	test_until 60 lines rcv/requests 1 &&
	tick_stop && touch rcv/release &&
	grep "^task-deliver: stopped before its pass ended" werr &&
	receipt >actual && echo "a|pending|1" >expect && test_cmp expect actual
'

test_done
