#!/bin/sh
# Slack's limit holds for the text as sent: with & < > as entities, an
# answer full of them is cut into parts that fit once escaped.
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-deliver.sh"
printf '#!/bin/sh\ncat "%s/answer"\n' "$PWD" >job && chmod +x job || exit 1
# An HTML report: 2,000 lines, 38,000 characters (one part as they are),
# 64,000 once & < > are entities.
$PY -c '
import sys
sys.stdout.write("".join("<li>%04d &amp; x</li>\n"[:18] % i + "\n" for i in range(2000)))
' >answer || exit 1

test_expect_success 'an answer of & < >: each part within 39,000 characters once escaped, all of it delivered' '
	test "$(wc -c <answer)" = 38000 &&
	fresh --deliver @chat &&
	tick 2026-11-23T07:00:00Z &&
	$PY -c "
import json
for l in open(\"rcv/requests\"):
    r = json.loads(l)
    print(r[\"path\"].startswith(\"/services\"), r[\"plan\"], len(json.loads(r[\"body\"])[\"text\"]) <= 39000)
" >actual &&
	printf "True ok True\nTrue ok True\n" >expect &&
	test_cmp expect actual &&
	check text slack >got &&
	test_cmp answer got &&
	store_sql "SELECT status, answer FROM receipts" >actual &&
	echo "delivered|2 parts; HTTP 200" >expect &&
	test_cmp expect actual
'

test_done
