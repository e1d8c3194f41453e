#!/bin/sh
# What a receiver says back is kept and printed as text: its bytes that
# are not UTF-8 as U+FFFD, its control characters (a terminal's escape
# sequences) as '?' or a blank, a cut between characters.  A redirect is
# the receiver's word too: not followed (the answer would go where the
# target does not say), failed for good.  So is one whose Retry-After
# asks for a wait past the 24 hours a delivery is tried for, saying so.
. "$AC_TOP/tests/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
# A receiver that refuses every message with a 500 whose body the path
# names: /latin (Latin-1, an escape sequence and a bell), /cut (a line
# whose 200th byte falls inside a character).
cat >rcv.py <<'EOT' || exit 1
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
BODY = {"/latin": b"erreur: caf\xe9 \x1b[31mferm\xe9\x1b[0m\x07\tpour l'instant\nsecond line",
        "/cut": ("x" * 196 + "\u00e9" * 5).encode()}
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        open("requests", "a").write(self.path + "\n")
        b = BODY.get(self.path, b"")
        self.send_response(301 if self.path == "/moved" else 503 if self.path == "/later" else 500)
        if self.path == "/moved":
            self.send_header("Location", "/elsewhere")
        if self.path == "/later":
            self.send_header("Retry-After", "200000")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
open("port.tmp", "w").write(str(s.server_address[1]))
__import__("os").rename("port.tmp", "port")
s.serve_forever()
EOT
$PY rcv.py 2>rcv.err &
echo $! >>"$TEST_TMP/.pids"
test_until 30 test -s port || { cat rcv.err; exit 1; }
P=$(cat port)
printf '#!/bin/sh\necho fine\n' >job &&
printf '#!/bin/sh\nprintf "no \\351t\\351 \\033]0;pwned\\007here\\n" >&2; exit 1\n' >hook &&
chmod +x job hook || exit 1
test_config "deliver_timeout = 5"

test_expect_success 'a receiver whose answer is not UTF-8 or holds control characters' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --daily 07:00 --exec "$PWD/job" --name brief \
		--deliver webhook:http://127.0.0.1:$P/latin --deliver slack:http://127.0.0.1:$P/cut \
		--deliver "exec:$PWD/hook" x >/dev/null &&
	TASK_NOW=2026-11-23T07:00:00Z task-tick >/dev/null 2>err && test ! -s err &&
	TASK_NOW=2026-11-23T07:05:00Z task-deliver >out 2>err && test ! -s err &&
	$PY -c "
import json, sys
for l in open(sys.argv[1], \"rb\"):
    r = json.loads(l.decode(\"utf-8\"))
    print(r[\"kind\"], r[\"status\"], r[\"attempts\"], r[\"error\"])
" out | sort >actual &&
	x=$($PY -c "print(\"x\" * 196)") &&
	{
		printf "exec pending 2 exited with status 1: no \357\277\275t\357\277\275 ?]0;pwned?here\n" &&
		printf "slack pending 2 HTTP 500: $x...\n" &&
		printf "webhook pending 2 HTTP 500: erreur: caf\357\277\275 ?[31mferm\357\277\275?[0m? pour l\047instant\n"
	} >expect &&
	test_cmp expect actual
'

test_expect_success 'a redirect (301): not followed, failed at once, not tried again' '
	rm -f requests &&
	TASK_NOW=2026-11-23T06:30:00Z task-add --manual --exec "$PWD/job" --name moved \
		--deliver webhook:http://127.0.0.1:$P/moved x >id &&
	TASK_NOW=2026-11-23T08:00:00Z task-run "$(cat id)" >/dev/null &&
	TASK_NOW=2026-11-23T08:01:00Z task-deliver >/dev/null &&
	TASK_NOW=2026-11-23T09:01:00Z task-deliver >/dev/null &&
	store_sql "SELECT status, attempts, error FROM receipts WHERE task_id = '"'"'$(cat id)'"'"'" >actual &&
	echo "failed|1|HTTP 301" >expect && test_cmp expect actual &&
	grep -v -e "^/cut$" -e "^/latin$" requests >actual &&
	echo /moved >expect && test_cmp expect actual
'

test_expect_success 'a Retry-After past the 24 hours of tries: failed at once, and why' '
	TASK_NOW=2026-11-23T06:30:00Z task-add --manual --exec "$PWD/job" --name later \
		--deliver webhook:http://127.0.0.1:$P/later x >id &&
	TASK_NOW=2026-11-23T08:00:00Z task-run "$(cat id)" >/dev/null &&
	TASK_NOW=2026-11-23T08:01:00Z task-deliver >/dev/null &&
	store_sql "SELECT status, attempts, error FROM receipts WHERE task_id = '"'"'$(cat id)'"'"'" >actual &&
	echo "failed|1|gave up after 1 attempt: the receiver asked to wait 200000 s (Retry-After), past the 24 hours a delivery is tried for: HTTP 503" >expect &&
	test_cmp expect actual
'

test_done
