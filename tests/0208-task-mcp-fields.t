#!/bin/sh
# A task's MCP servers and tool patterns (--mcp, --mcp-allow) in task-add,
# task-edit, task-show and JSON import and export; names that could not
# travel in TASK_MCP are refused.  Their use in a run is tests/0720.
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T09:30:00Z

# fields KEY...: those fields of each JSON line on stdin, tab-separated, a
# null as nothing.
fields() {
	node -e 'let s = "";
	process.stdin.on("data", d => s += d).on("end", () => {
		for (const l of s.split("\n").filter(Boolean)) {
			const o = JSON.parse(l);
			console.log(process.argv.slice(1).map(k => o[k] === null ? "" :
			    typeof o[k] === "object" ? JSON.stringify(o[k]) : String(o[k])).join("\t"));
		}
	})' "$@"
}

test_expect_success 'task-add --mcp NAME,NAME (repeatable) and --mcp-allow: stored, shown' '
	id=$(task-add --daily 07:30 --tz Europe/London --name digest --mcp "notes, files" --mcp notes \
		--mcp github --mcp-allow "mcp__notes__read_*" --mcp-allow "mcp__github__list_*,mcp__files__*" \
		"Summarise my notes") &&
	task-show --json "$id" | fields mcp mcp_allow >actual &&
	printf "%s\t%s\n" "[\"notes\",\"files\",\"github\"]" \
		"[\"mcp__notes__read_*\",\"mcp__github__list_*\",\"mcp__files__*\"]" >expect &&
	test_cmp expect actual &&
	task-show "$id" | grep "^mcp" >actual &&
	cat >expect <<-\EOF &&
	mcp servers:  notes, files, github
	mcp allow:    mcp__notes__read_*, mcp__github__list_*, mcp__files__*
	EOF
	test_cmp expect actual
'

test_expect_success 'task-edit replaces the lists; an empty value clears them' '
	id=$(task-ls | cut -f1) &&
	task-edit "$id" --mcp files >actual &&
	cat >expect <<-\EOF &&
	mcp: ["notes","files","github"] -> ["files"]
	next run: 2026-11-24 07:30 GMT
	EOF
	test_cmp expect actual &&
	task-edit "$id" --mcp "" --mcp-allow "" >actual &&
	cat >expect <<-\EOF &&
	mcp: ["files"] -> none
	mcp_allow: ["mcp__notes__read_*","mcp__github__list_*","mcp__files__*"] -> none
	next run: 2026-11-24 07:30 GMT
	EOF
	test_cmp expect actual &&
	task-show --json "$id" | fields mcp mcp_allow >actual &&
	printf "\t\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 grep -q "^mcp" <<-EOF
	$(task-show "$id")
	EOF
'

test_expect_success 'names and patterns that could not travel comma-joined are refused' '
	task-ls --json >before &&
	while IFS="|" read -r json msg; do
		echo "{\"name\":\"bad\",\"prompt\":\"p\",\"kind\":\"manual\",$json}" |
			test_expect_code 2 task-add --json - >out 2>err &&
		test ! -s out && echo "task-add: stdin:1: $msg" >expect && test_cmp expect err || return 1
	done <<-\EOF &&
	"mcp":["a,b"]|mcp: server name '"'"'a,b'"'"' holds a comma, which separates them
	"mcp":[" notes"]|mcp: server name '"'"' notes'"'"' starts or ends with a blank
	"mcp":[""]|mcp: server name '"'"''"'"' is empty
	"mcp":["no\u0007tes"]|mcp: server name '"'"'no?tes'"'"' holds a control character
	"mcp_allow":["x,y"]|mcp_allow: pattern '"'"'x,y'"'"' holds a comma, which separates them
	"mcp":"notes"|field '"'"'mcp'"'"' must be a JSON array
	"mcp":[1]|mcp must be a JSON array of server names
	EOF
	printf "\377" >bad &&
	test_expect_code 2 task-add --manual --mcp "$(cat bad)" p 2>err &&
	echo "task-add: --mcp is not UTF-8 text" >expect && test_cmp expect err &&
	test_expect_code 2 task-add --manual --mcp "no$(printf "\t")tes" p 2>err &&
	echo "task-add: mcp: server name '"'"'no tes'"'"' holds a control character" >expect &&
	test_cmp expect err &&
	task-ls --json >after &&
	test_cmp before after
'

test_expect_success 'export and import keep them' '
	task-add --manual --name kept --mcp notes --mcp-allow "mcp__notes__*" "kept" >/dev/null &&
	task-ls --json | TASK_DB=$TEST_TMP/copy.db task-add --json - >/dev/null &&
	task-ls --json | fields name mcp mcp_allow | sort >expect &&
	TASK_DB=$TEST_TMP/copy.db task-ls --json | fields name mcp mcp_allow | sort >actual &&
	test_cmp expect actual &&
	grep -q "^kept	\[\"notes\"\]	\[\"mcp__notes__\*\"\]\$" actual
'

test_done
