#!/bin/sh
# The Wooster profile: scheduleAgentTask with taskPayload, timeExpression and
# humanReadableDescription, as an object or as a JSON string, every time
# expression of its document, and its confirmation and error messages.
. "$AC_TOP/tests/lib.sh"
# A Monday, 13:00 in the zone of the document's example.
TASK_NOW=2024-07-22T20:00:00Z TZ=America/Los_Angeles
export TASK_NOW TZ
q() { store_sql "$1"; }

test_expect_success 'over MCP: the examples, the document'\''s time expressions, the errors' '
	cat >script <<-\EOF &&
	init 2025-11-25
	call scheduleAgentTask {"taskPayload":"Check the latest news headlines and summarize them for me.","timeExpression":"tomorrow morning at 9am","humanReadableDescription":"Summarize news headlines"}
	call scheduleAgentTask {"input":"{\"taskPayload\":\"Remind me to call Sarah\",\"timeExpression\":\"in 1 hour\",\"humanReadableDescription\":\"Call Sarah reminder\"}"}
	call scheduleAgentTask {"taskPayload":"What is the weather in London?","timeExpression":"tomorrow at 10am","humanReadableDescription":"Check London weather"}
	call scheduleAgentTask {"taskPayload":"Tell me the weather in New York","timeExpression":"in 2 hours","humanReadableDescription":"New York weather"}
	call scheduleAgentTask {"taskPayload":"Send an email to John about the project update","timeExpression":"in 30 minutes","humanReadableDescription":"Email John"}
	call scheduleAgentTask {"taskPayload":"Plan the weekend","timeExpression":"next Friday at noon","humanReadableDescription":"Weekend plans"}
	call scheduleAgentTask {"taskPayload":"Birthday","timeExpression":"August 15th at 3 PM","humanReadableDescription":"Birthday reminder"}
	call scheduleAgentTask {"taskPayload":"x","timeExpression":"whenever","humanReadableDescription":"x"}
	call scheduleAgentTask {"taskPayload":"x","timeExpression":"yesterday at 9am","humanReadableDescription":"x"}
	call scheduleAgentTask {"taskPayload":"x","timeExpression":"in 2 hours"}
	call scheduleAgentTask {"input":"{not json"}
	call scheduleAgentTask {"input":42}
	call scheduleAgentTask {"taskPayload":"","timeExpression":"in 2 hours","humanReadableDescription":"x"}
	EOF
	client script task-mcp --profile wooster >out 2>err &&
	sed 1d out >actual &&
	cat >expect <<-\EOF &&
	[2] ok
	Okay, I'\''ve scheduled "Summarize news headlines" for Tue Jul 23 2024 09:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[3] ok
	Okay, I'\''ve scheduled "Call Sarah reminder" for Mon Jul 22 2024 14:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[4] ok
	Okay, I'\''ve scheduled "Check London weather" for Tue Jul 23 2024 10:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[5] ok
	Okay, I'\''ve scheduled "New York weather" for Mon Jul 22 2024 15:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[6] ok
	Okay, I'\''ve scheduled "Email John" for Mon Jul 22 2024 13:30:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[7] ok
	Okay, I'\''ve scheduled "Weekend plans" for Fri Jul 26 2024 12:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[8] ok
	Okay, I'\''ve scheduled "Birthday reminder" for Thu Aug 15 2024 15:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[9] error
	Could not understand the time expression: "whenever". Please try a different phrasing.
	[10] error
	The specified time (Sun Jul 21 2024 09:00:00 GMT-0700 (Pacific Daylight Time)) is in the past. Please provide a future time.
	[11] error
	Missing required arguments. I need '\''taskPayload'\'', '\''timeExpression'\'', and '\''humanReadableDescription'\''.
	[12] error
	Invalid input for scheduleAgentTask: Input string is not valid JSON. Expected object with '\''taskPayload'\'', '\''timeExpression'\'', '\''humanReadableDescription'\''.
	[13] error
	Missing required arguments. I need '\''taskPayload'\'', '\''timeExpression'\'', and '\''humanReadableDescription'\''.
	[14] error
	Missing required arguments. I need '\''taskPayload'\'', '\''timeExpression'\'', and '\''humanReadableDescription'\''.
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'over MCP: the arguments given as one JSON string, as the document allows' '
	cat >script <<-\EOF &&
	send {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"scheduleAgentTask","arguments":"{\"taskPayload\":\"Remind me to call Sarah\",\"timeExpression\":\"in 1 hour\",\"humanReadableDescription\":\"Call Sarah again\"}"}}
	send {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"scheduleAgentTask","arguments":"{\"taskPayload\": oops"}}
	send {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"scheduleAgentTask","arguments":"{\"taskPayload\":\"x\"}"}}
	send {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"scheduleAgentTask","arguments":42}}
	EOF
	client script task-mcp --profile wooster >actual 2>err &&
	cat >expect <<-\EOF &&
	[1] ok
	Okay, I'\''ve scheduled "Call Sarah again" for Mon Jul 22 2024 14:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	[2] error
	Invalid input for scheduleAgentTask: Input string is not valid JSON. Expected object with '\''taskPayload'\'', '\''timeExpression'\'', '\''humanReadableDescription'\''.
	[3] error
	Missing required arguments. I need '\''taskPayload'\'', '\''timeExpression'\'', and '\''humanReadableDescription'\''.
	{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"tools/call params.arguments must be an object"}}
	exit 0
	EOF
	test_cmp expect actual &&
	test ! -s err &&
	test "$(q "SELECT prompt, plan FROM tasks WHERE name = '\''Call Sarah again'\''")" = "Remind me to call Sarah|$(date -u -d 2024-07-22T21:00:00Z +%s)" &&
	q "DELETE FROM tasks WHERE name = '\''Call Sarah again'\''"
'

test_expect_success 'the store: one-shot tasks in the local zone, named by the description' '
	q "SELECT name, prompt, kind, plan, tz FROM tasks WHERE name LIKE '\''%news%'\''" >actual &&
	echo "Summarize news headlines|Check the latest news headlines and summarize them for me.|at|$(date -u -d 2024-07-23T16:00:00Z +%s)|America/Los_Angeles" >expect &&
	test_cmp expect actual &&
	test $(q "SELECT count(*) FROM tasks") -eq 7
'

test_expect_success 'outside MCP: the JSON string example, as agents emit it' '
	cat >calls <<-\EOF &&
	{"tool_name": "scheduleAgentTask", "tool_args": "{\"taskPayload\":\"Remind me to call Sarah\",\"timeExpression\":\"in 1 hour\",\"humanReadableDescription\":\"Call Sarah reminder\"}"}
	{"action": "scheduleAgentTask", "action_input": "{\"taskPayload\":\"Water the plants\",\"timeExpression\":\"tonight at 8\",\"humanReadableDescription\":\"Plants\"}"}
	{"tool_name": "scheduleAgentTask", "tool_args": "{\"taskPayload\": oops"}
	{"tool_name": "scheduleAgentTask", "tool_args": 42}
	EOF
	test_expect_code 2 task-mcp -p wooster --call <calls >out 2>err &&
	sed "s/(ID: [0-9a-f-]*)/(ID: <uuid>)/" out >actual &&
	cat >expect <<-\EOF &&
	Okay, I'\''ve scheduled "Call Sarah reminder" for Mon Jul 22 2024 14:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	Okay, I'\''ve scheduled "Plants" for Mon Jul 22 2024 20:00:00 GMT-0700 (Pacific Daylight Time). (ID: <uuid>)
	Invalid input for scheduleAgentTask: Input string is not valid JSON. Expected object with '\''taskPayload'\'', '\''timeExpression'\'', '\''humanReadableDescription'\''.
	Invalid input type for scheduleAgentTask. Expected JSON string or object.
	EOF
	test_cmp expect actual &&
	test ! -s err
'

test_expect_success 'other zones print as JavaScript does, or by their abbreviation' '
	printf "%s\n" "{\"name\":\"scheduleAgentTask\",\"arguments\":{\"taskPayload\":\"p\",\"timeExpression\":\"tomorrow at 9am\",\"humanReadableDescription\":\"d\"}}" >call &&
	TZ=Europe/London task-mcp -p wooster --call <call | sed "s/ (ID.*//" >actual &&
	TZ=UTC task-mcp -p wooster --call <call | sed "s/ (ID.*//" >>actual &&
	TZ=Asia/Kolkata task-mcp -p wooster --call <call | sed "s/ (ID.*//" >>actual &&
	cat >expect <<-\EOF &&
	Okay, I'\''ve scheduled "d" for Tue Jul 23 2024 09:00:00 GMT+0100 (British Summer Time).
	Okay, I'\''ve scheduled "d" for Tue Jul 23 2024 09:00:00 GMT+0000 (Coordinated Universal Time).
	Okay, I'\''ve scheduled "d" for Wed Jul 24 2024 09:00:00 GMT+0530 (IST).
	EOF
	test_cmp expect actual
'

test_done
