#!/bin/sh
# An agent-made task's attachments are held to the config when llm-call
# opens them, not only when the task was saved: files are opened under
# agent_attach_dirs one component at a time without following links (a
# directory swapped for a link leads nowhere), narrowing the config applies
# to tasks already stored, and URLs reach only public addresses, checked on
# the address connected to and after every redirect, with agent_url_allow
# for the inside ones the user names.  The user's own tasks are as before.
. "$AC_TOP/tests/lib.sh"
TASK_NOW=2026-03-01T12:00:00Z
KEY=sk-fake-0123456789abcdef
port=$(provider_start fp "$KEY" 120 300) || exit 1
port2=$(provider_start fp2 "$KEY" 120 300) || exit 1
OPENAI_BASE_URL=http://127.0.0.1:$port/v1 OPENAI_API_KEY=$KEY
export TASK_NOW OPENAI_BASE_URL OPENAI_API_KEY
cfg=$XDG_CONFIG_HOME/agentcron/config
mkdir -p "$XDG_CONFIG_HOME/agentcron" fp/files fp2/files notes/sub .ssh other &&
echo "meeting notes" >notes/sub/file &&
echo "a key not yet" >notes/sub/id_rsa &&
echo "PRIVATE KEY" >.ssh/id_rsa &&
echo "remote notes" >fp/files/remote.txt &&
echo "inner page" >fp2/files/remote.txt || exit 1
printf 'agent_attach_dirs = ~/notes\n' >"$cfg"
# agent_task NAME ATTACHMENT: an agent-made manual task attaching it.
agent_task() {
	printf '{"name":"task_create","arguments":{"name":"%s","prompt":"Read %s.","manual":true,"attachments":["%s"]}}\n' \
		"$1" "$1" "$2" | task-mcp --call >/dev/null
}

test_expect_success 'a directory swapped for a link after saving leads nowhere' '
	agent_task Notes "$HOME/notes/sub/file" &&
	agent_task Key "$HOME/notes/sub/id_rsa" &&
	task-run Notes >out &&
	grep -q "meeting notes" out &&
	mv notes/sub notes/sub.old &&
	ln -s ../.ssh notes/sub &&
	test_expect_code 1 task-run Key >out 2>err &&
	head -1 err >actual &&
	echo "llm-call: cannot read attachment '\''$HOME/notes/sub/id_rsa'\'': a link on its way, which an agent'\''s task never follows" >expect &&
	test_cmp expect actual &&
	! grep -r "PRIVATE KEY" fp/*.req fp/*.log &&
	! store_dump | grep -q "PRIVATE KEY"
'

test_expect_success 'the user'\''s own task still follows links as before' '
	task-add --manual --attach "$HOME/notes/sub/id_rsa" --name Mine "Read mine." >/dev/null &&
	task-run Mine >out &&
	grep -q "PRIVATE KEY" out &&
	rm notes/sub && mv notes/sub.old notes/sub
'

test_expect_success 'narrowing agent_attach_dirs applies to attachments already stored' '
	printf "agent_attach_dirs = ~/other\n" >"$cfg" &&
	test_expect_code 1 task-run Notes >out 2>err &&
	head -1 err >actual &&
	echo "llm-call: attachment '\''$HOME/notes/sub/file'\'' of an agent'\''s task is not under a directory of agent_attach_dirs" >expect &&
	test_cmp expect actual &&
	printf "agent_attach_dirs = ~/notes\n" >"$cfg" &&
	task-run Notes >out &&
	grep -q "meeting notes" out
'

test_expect_success 'an agent'\''s URL on a loopback address is refused; the user'\''s is fetched' '
	agent_task Local "http://127.0.0.1:$port/files/remote.txt" &&
	test_expect_code 1 task-run Local >out 2>err &&
	head -1 err >actual &&
	echo "llm-call: cannot fetch attachment '\''http://127.0.0.1:$port/files/remote.txt'\'': refused to connect to 127.0.0.1, a loopback, link-local or private address (an agent'\''s task reaches only public ones, or those of agent_url_allow)" >expect &&
	test_cmp expect actual &&
	agent_task Six "http://[::1]:$port/files/remote.txt" &&
	test_expect_code 1 task-run Six 2>err &&
	grep -q "refused to connect to ::1, a loopback" err &&
	agent_task Mapped "http://[::ffff:127.0.0.1]:$port/files/remote.txt" &&
	test_expect_code 1 task-run Mapped 2>err &&
	grep -q "refused to connect to ::ffff:127.0.0.1, a loopback" err &&
	task-add --manual --attach "http://127.0.0.1:$port/files/remote.txt" --name MyURL "Read my URL." >/dev/null &&
	task-run MyURL >out &&
	grep -q "remote notes" out
'

test_expect_success 'agent_url_allow lets one in, and a redirect elsewhere is checked again' '
	printf "agent_attach_dirs = ~/notes\nagent_url_allow = 127.0.0.1:$port\n" >"$cfg" &&
	task-run Local >out &&
	grep -q "remote notes" out &&
	agent_task Hop "http://127.0.0.1:$port/redirect-to/$port2/remote.txt" &&
	test_expect_code 1 task-run Hop >out 2>err &&
	grep -q "refused to connect to 127.0.0.1, a loopback" err &&
	! grep -rq "inner page" fp/*.req &&
	printf "agent_url_allow = 127.0.0.0/8\n" >"$cfg" &&
	task-run Hop >out &&
	grep -q "inner page" out &&
	printf "agent_url_allow = 127.0.0.1:99999\n" >"$cfg" &&
	test_expect_code 1 task-run Hop 2>err &&
	grep -q "agent_url_allow: '\''127.0.0.1:99999'\'' is not an address" err
'

test_done
