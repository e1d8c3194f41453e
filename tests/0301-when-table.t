#!/bin/sh
# store: none
# The time-expression table (tests/unit/when-table.txt) through task-when,
# as a user meets it: each understood expression prints its instant, and
# task-when on what it printed gives the same instant back; each refusal is
# exit 2, nothing on stdout, one line of valid UTF-8 on stderr.  t-when
# checks every row in every zone; this runs every WHEN_TABLE_STRIDE-th row
# (default 10; 1 for all) in one zone, rotating, to keep the suite quick
# (WHEN_TABLE_SHIFT=1 or 2 rotates the zones, so three runs cover all).
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-22T14:30:00Z
stride=${WHEN_TABLE_STRIDE:-10} shift=${WHEN_TABLE_SHIFT:-0}

# The table with \xHH made bytes; rows that need a tab or newline inside an
# expression, the two that task-when reads as cron first and those it reads
# as intervals ("every ..."), are left to t-when.
grep -v -e '\\[tn]' -e '^!0 7 \* \* \*' -e '^!@daily' -e '^!every ' "$AC_TOP/tests/unit/when-table.txt" |
	perl -pe 's/\\x([0-9a-fA-F]{2})/chr hex $1/ge; s/\\\\/\\/g' >table

# check ROW ZONE WANT: one row in one zone.
check() {
	expr=$1 zone=$2 want=$3
	case $want in
	!*)
		test_expect_code 2 task-when --tz "$zone" "$expr" >out 2>err &&
		test_cmp /dev/null out && test_one_line err &&
		iconv -f UTF-8 -t UTF-8 err >/dev/null
		;;
	*Z)
		task-when --utc --tz "$zone" "$expr" >out &&
		echo "$want" >expect && test_cmp expect out &&
		task-when --utc --tz "$zone" "$(cat out)" >back && test_cmp out back
		;;
	*)
		task-when --tz "$zone" "$expr" >out &&
		echo "$want" | sed 's/ /T/; s/^\(....-..-..T..:..\)$/\1:00/' >expect &&
		cut -c1-19 out >got && test_cmp expect got &&
		task-when --tz "$zone" "$(cat out)" >back && test_cmp out back
		;;
	esac
}

test_expect_success 'every chosen row, in its zone' '
	mkdir -p config/agentcron && n=0 rows=0 bad=0 &&
	tab=$(printf "\t") &&
	while IFS= read -r line; do
		case $line in
		"#"*|"") continue ;;
		@dmy) echo "date_order = dmy" >config/agentcron/config; continue ;;
		@mdy) rm -f config/agentcron/config; continue ;;
		esac
		n=$((n + 1))
		[ $((n % stride)) -eq 0 ] || continue
		k=$(((n / stride + shift) % 3))
		set -- Europe/London America/New_York Australia/Sydney
		shift $k && zone=$1
		case $line in
		!*) expr=${line#!} expr=${expr%%"$tab"*} want=! ;;
		*)
			expr=${line%%"$tab"*} rest=${line#*"$tab"} want=${rest%%"$tab"*} i=0 &&
			while [ $i -lt $k ]; do
				rest=${rest#*"$tab"} next=${rest%%"$tab"*}
				[ "$next" = "=" ] || want=$next
				i=$((i + 1))
			done
			;;
		esac
		rows=$((rows + 1))
		check "$expr" "$zone" "$want" >log 2>&1 ||
			{ bad=$((bad + 1)); echo "row $n in $zone: $expr"; cat log; }
	done <table &&
	echo "# $rows rows checked" &&
	test "$rows" -gt 0 && test "$bad" -eq 0
'

test_done
