#!/bin/sh
# An exec: target gets the line a notify hook reads (the same fields, the
# same TASK_EVENT and TASK_STATUS), with the whole answer: a notify hook's
# script is a delivery target as it is, with a receipt and retries.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
cat >hook <<'EOT' && chmod +x hook || exit 1
#!/bin/sh
cat >"$0.$1.in"
echo "$TASK_EVENT $TASK_STATUS" >>"$0.$1.env"
EOT
# Fields of a JSON line: its keys, sorted, on one line.
keys() { $PY -c "import json,sys; print(*sorted(json.load(open(sys.argv[1]))))" "$1"; }
field() { $PY -c "import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; sys.stdout.write(v if isinstance(v, str) else json.dumps(v))" "$1" "$2"; }

test_expect_success 'the hook'"'"'s fields, the whole answer, its events' '
	$PY "$AC_TOP/tests/tools/deliver-check" long 10000 >answer &&
	printf "#!/bin/sh\ncat \"\$(dirname \"\$0\")/answer\"\n" >job && chmod +x job &&
	fresh --deliver "exec:$PWD/hook deliver" --notify "$PWD/hook notify" --notify-on always &&
	tick 2026-11-23T07:00:00Z &&
	store_sql "SELECT kind, status, answer FROM receipts" >actual && echo "exec|delivered|exit 0" >expect &&
	test_cmp expect actual &&
	# The notify hook runs on its own: its .env is written once its .in
	# is whole.
	test_until 60 test -s hook.notify.env &&
	test "$(wc -l <hook.deliver.in)" = 1 && test "$(wc -l <hook.notify.in)" = 1 &&
	keys hook.notify.in >hk && keys hook.deliver.in >dk &&
	tr " " "\n" <hk >hk.l && tr " " "\n" <dk >dk.l &&
	comm -23 hk.l dk.l >missing && test_cmp /dev/null missing &&
	field hook.deliver.in output >got && test_cmp answer got &&
	test "$(field hook.deliver.in output_truncated)" = false &&
	test "$(field hook.notify.in output_truncated)" = true &&
	for f in event task_id name run_id trigger status slot exit_code; do
		field hook.notify.in $f >n.$f && field hook.deliver.in $f >d.$f && test_cmp n.$f d.$f || return 1
	done &&
	test "$(field hook.deliver.in delivery_id)" = "$(store_sql "SELECT id FROM receipts")" &&
	echo "change success" >expect && test_cmp expect hook.deliver.env
'

test_expect_success 'failure, then recovery, then change, as the hook hears of them' '
	printf "#!/bin/sh\necho broke >&2; exit 1\n" >job &&
	tick 2026-11-24T07:00:00Z &&
	test "$(field hook.deliver.in event)" = failure &&
	test "$(field hook.deliver.in error)" = "$(printf "exited with status 1\nbroke")" &&
	printf "#!/bin/sh\necho fine\n" >job &&
	tick 2026-11-25T07:00:00Z &&
	test "$(field hook.deliver.in event)" = recovery &&
	printf "#!/bin/sh\necho finer\n" >job &&
	tick 2026-11-26T07:00:00Z &&
	test "$(field hook.deliver.in event)" = change &&
	printf "change success\nfailure failed\nrecovery success\nchange success\n" >expect &&
	test_cmp expect hook.deliver.env
'

test_done
