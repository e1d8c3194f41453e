#!/bin/sh
# Clients that go away mid-request and mid-answer: task-web serves the
# next one, and everything it says on standard error, the HTTP server's
# own messages included, is a line that starts "task-web: " (the server's
# were bare English lines, no program named).
. "$AC_TOP/tests/lib.sh"
. "$AC_TOP/tests/lib-web.sh"

python3 -c '
import json
for i in range(400):
    print(json.dumps({"name": "task %03d" % i, "prompt": "p" * 2000, "kind": "manual"}))
' | task-add --json - >/dev/null
tok=$(task-web --new-token me 2>/dev/null)
web_start

test_expect_success 'five clients gone mid-request, five mid-answer; the next is served' '
	python3 - "$url" "$tok" <<-\EOF &&
	import socket, struct, sys
	host, port = sys.argv[1].rsplit("/", 1)[-1].split(":")
	for i in range(10):
	    s = socket.create_connection((host, int(port)))
	    if i % 2:
	        s.sendall(b"GET /api/tasks HTTP/1.1\r\nHost: x\r\nAuthoriz")
	    else:
	        s.sendall(("GET /api/tasks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n"
	            % sys.argv[2]).encode())
	        s.recv(100)
	        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
	    s.close()
	EOF
	test "$(req_as "$tok" out "$url/api/tasks?limit=2")" = 200 &&
	python3 -c "import json,sys; print(len(json.load(sys.stdin)))" <out >n &&
	echo 2 >expect &&
	test_cmp expect n
'

web_stop; stopped=$?
test_expect_success 'task-web stops, exit 0; every line it said names it' '
	test "$stopped" = 0 &&
	{ grep -v "^task-web: " werr >bare; test $? = 1; } &&
	grep -q "^task-web: .*closed" werr
'

test_done
