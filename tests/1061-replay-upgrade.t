#!/bin/sh
# A store from before model requests were kept is upgraded in place: its
# calls keep what they had, new calls keep their request, and a replay of
# a run from before says that it has none.
. "$AC_TOP/tests/lib.sh"
port=$(provider_start fp "") || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1
export OPENAI_BASE_URL

test_expect_success 'a store from before requests were kept is upgraded; old runs cannot be replayed' '
	task-add --manual --name old --exec llm-call "What changed?" >/dev/null &&
	task-run old >out &&
	run=$(task-log --json --task old | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/") &&
	case $AC_STORE in
	sqlite) store_sql "ALTER TABLE llm_calls DROP COLUMN request; PRAGMA user_version = 21" ;;
	postgres) store_sql "ALTER TABLE llm_calls DROP COLUMN request;
		UPDATE agentcron_schema SET version = 17" ;;
	esac &&
	task-ls | cut -f2 >actual && echo old >expect && test_cmp expect actual &&
	store_sql "SELECT count(*) FROM llm_calls WHERE request IS NULL" >actual &&
	echo 1 >expect && test_cmp expect actual &&
	test_expect_code 2 task-run --replay "$run" >out 2>err &&
	echo "task-run: run '\''$(echo "$run" | cut -c1-8)'\'' cannot be replayed: it was recorded before model requests were kept" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	task-log --json --task old >runs && test $(wc -l <runs) -eq 1 &&
	task-run old >/dev/null &&
	new=$(task-log --json --task old --limit 1 | sed "s/.*\"id\":\"\([^\"]*\)\".*/\1/") &&
	task-run --replay "$new" >id &&
	cmp fp/2.body fp/3.body
'

test_done
