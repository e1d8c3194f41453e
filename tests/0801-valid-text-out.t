#!/bin/sh
# Every byte printed is valid UTF-8, and nothing is cut without a word:
# an executor's NUL bytes and bytes that are not UTF-8 are kept as U+FFFD
# with a note of how many, and messages quote input in whole characters.
# (Text a file store holds from another writer: 0806-sqlite-stored-bytes.t.)
. "$AC_TOP/tests/lib.sh"
export TASK_NOW=2026-11-23T06:00:00Z
R=$(printf '\357\277\275') # U+FFFD as UTF-8

test_expect_success 'an executor writing NUL and a stray byte: kept, each shown as U+FFFD, counted' '
	printf "#!/bin/sh\nprintf \"ok\\\\000then\\\\377end\\\\n\"\n" >emit && chmod +x emit &&
	id=$(task-add --at 07:00 --name nul --exec "$PWD/emit" p) &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null &&
	store_sql "SELECT output FROM runs WHERE task_id = '\''$id'\''" | sed "\$d" >actual &&
	cat >expect <<-EOF &&
	ok${R}then${R}end
	[... 1 NUL byte and 1 byte that is not UTF-8 shown as U+FFFD]
	EOF
	test_cmp expect actual &&
	run=$(task-log --task "$id" | cut -f1) &&
	task-log "$run" | sed -n "/^output:/,/^error:/p" >actual &&
	cat >expect <<-EOF &&
	output:
	  ok${R}then${R}end
	  [... 1 NUL byte and 1 byte that is not UTF-8 shown as U+FFFD]
	error:
	EOF
	test_cmp expect actual
'

test_expect_success 'standard error the same way; a NUL alone says so alone' '
	printf "#!/bin/sh\nprintf \"a\\\\000b\" >&2\nexit 3\n" >emit-err && chmod +x emit-err &&
	id=$(task-add --at 07:00 --name err --exec "$PWD/emit-err" --retries 0 p) &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null &&
	store_sql "SELECT error FROM runs WHERE task_id = '\''$id'\''" | sed "\$d" >actual &&
	cat >expect <<-EOF &&
	exited with status 3
	a${R}b
	[... 1 NUL byte shown as U+FFFD]
	EOF
	test_cmp expect actual
'

test_expect_success 'output past the cap is cut at a character, never inside one' '
	printf "#!/bin/sh\nhead -c 1048575 /dev/zero | tr \"\\\\000\" x\nprintf \"\\\\342\\\\202\\\\254more\\\\n\"\n" >emit-big &&
	chmod +x emit-big &&
	id=$(task-add --at 07:00 --name cap --exec "$PWD/emit-big" p) &&
	TASK_NOW=2026-11-23T07:00:10Z task-tick >/dev/null &&
	store_sql "SELECT substr(output, 1048570) FROM runs WHERE task_id = '\''$id'\''" | sed "\$d" >actual &&
	printf "xxxxxx\n[... output truncated: 8 bytes dropped]\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'messages quoting such text: U+FFFD' '
	test_expect_code 3 task-show "$(printf "ab\377d")" 2>err &&
	echo "task-show: no task '\''ab${R}d'\'' (an id, a prefix of 4+ of its characters, or its name)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 task-when --tz "$(printf "Eu\377")" daily 2>err &&
	echo "task-when: unknown time zone '\''Eu$R'\''" >expect &&
	test_cmp expect err &&
	test_expect_code 2 llm-call -o "$(printf "k\377=1")" hi 2>err &&
	echo "llm-call: -o is not UTF-8 text" >expect &&
	test_cmp expect err
'

test_done
