#!/bin/sh
# A task setting that takes one of some names (overlap) is read the same
# way by the flag and by the MCP argument: as written.  task-add refuses
# --overlap REPLACE; an agent's "overlap":"REPLACE" is refused at the
# argument check with the message every bad name gets, not let through to
# fail later with another.  Through the MCP server, as an agent calls it.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

snapshot() {
	store_sql "SELECT id, name, overlap, updated_at FROM tasks ORDER BY id"
}

test_expect_success 'the flag refuses a name in another case' '
	test_expect_code 2 task-add --manual --name a --overlap REPLACE "Check the disks" 2>err &&
	echo "task-add: bad --overlap '"'"'REPLACE'"'"': use queue, skip or replace" >expect &&
	test_cmp expect err
'

test_expect_success 'task_create and task_update refuse it at the argument check, nothing changed' '
	id=$(task-add --manual --name Keep --overlap skip "Keep me") &&
	snapshot >before &&
	printf "%s\n" "init 2025-11-25" \
		"call task_create {\"name\":\"New\",\"prompt\":\"New one\",\"manual\":true,\"overlap\":\"REPLACE\"}" \
		"call task_update {\"id\":\"$id\",\"overlap\":\"Replace\"}" \
		"call task_update {\"id\":\"$id\",\"overlap\":\"maybe\"}" >script &&
	client script task-mcp >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] error
	Argument '\''overlap'\'' must be queue, skip or replace, not '\''REPLACE'\''.
	[3] error
	Argument '\''overlap'\'' must be queue, skip or replace, not '\''Replace'\''.
	[4] error
	Argument '\''overlap'\'' must be queue, skip or replace, not '\''maybe'\''.
	exit 0
	EOF
	test_cmp expect actual &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'the name as written is taken, by flag and by argument alike' '
	id=$(task-add --manual --name b --overlap replace "Check the pumps") &&
	printf "%s\n" "init 2025-11-25" \
		"call task_create {\"name\":\"c\",\"prompt\":\"Check the fans\",\"manual\":true,\"overlap\":\"replace\"}" >script &&
	client script task-mcp >out &&
	store_sql "SELECT name, overlap FROM tasks WHERE name IN ('"'"'b'"'"', '"'"'c'"'"') ORDER BY name" >actual &&
	printf "%s\n" "b|replace" "c|replace" >expect &&
	test_cmp expect actual
'

test_expect_success 'the seed tools and task_list still read their names in any case' '
	printf "%s\n" "init 2025-11-25" "call task_list {\"status\":\"PENDING\",\"kind\":\"Manual\"}" >script &&
	client script task-mcp >out &&
	sed -n 2p out >actual &&
	echo "[2] ok" >expect &&
	test_cmp expect actual &&
	grep -q "^Found 3 tasks:" out
'

test_done
