# tests/lib-web.sh: task-web for the tests that drive it over HTTP, started
# on a free port and stopped, and curl's requests to it.  Sourced after
# lib.sh.

# web_start [ARG...]: task-web --listen on a free port of 127.0.0.1 with
# ARGs, returned once it is ready (test_start_ready: started inside a check,
# it ends with the check at the latest, else with the file); its output in
# wout and werr.  $web_pid is the pid to signal, $url where it listens,
# $login its login link (once).
web_start() {
	url= login=
	test_start_ready wout werr task-web --listen 127.0.0.1:0 "$@" || return 1
	web_pid=$test_ready_pid
	url=$(sed -n 's|^task-web: listening on \(http://127.0.0.1:[0-9]*\)/$|\1|p' werr)
	login=$(sed -n 's|^task-web: log in at \(http://[^ ]*\) (once)$|\1|p' werr)
}

# web_stop: SIGTERM; task-web (through notify-wait) must exit 0.
web_stop() {
	kill -TERM "$web_pid" && wait "$web_pid"
}

# req OUT [CURL ARG...] URL: the status code on stdout, the body in OUT,
# the headers in OUT.h.
req() {
	req_out_=$1
	shift
	curl -s --max-time 20 -o "$req_out_" -D "$req_out_.h" -w '%{http_code}' "$@"
}

# req_as TOKEN OUT [CURL ARG...] URL: req as the bearer of TOKEN (task-web
# --new-token).
req_as() {
	req_as_=$1 req_out_=$2
	shift 2
	curl -s --max-time 20 -o "$req_out_" -D "$req_out_.h" -H "Authorization: Bearer $req_as_" \
		-w '%{http_code}' "$@"
}

# hooked_task: the manual task "deploy" (its run: cat "deploy {{input}}")
# with an HTTP trigger: its id in $id, the trigger's token in $ttok.
# hook [CURL ARG...]: a POST to its trigger with that token (req body).
hooked_task() {
	id=$(task-add --manual --name deploy --exec cat "deploy {{input}}") &&
	ttok=$(task-web --trigger-token "$id" 2>/dev/null)
}
hook() {
	req body -X POST -H "Authorization: Bearer $ttok" "$@" "$url/hooks/$id"
}
# queued: the hooked task's flag that asks for a run (0 or 1).
queued() {
	store_sql "SELECT queued FROM tasks WHERE id = '$id'"
}

# browser_ready SCRIPT: puppeteer-core installed in build/web-browser (once
# for both passes of the suite), SCRIPT of tests/web-browser and the
# session.mjs it imports copied there (each put whole: the other pass may
# be running them), and Debian's chromium there to drive.
browser_ready() {
	npm_once web-browser node_modules/puppeteer-core/package.json || return 1
	for browser_f_ in session.mjs "$1"; do
		cp "$AC_TOP/tests/web-browser/$browser_f_" "$AC_TOP/build/web-browser/.$browser_f_.$$" &&
		mv "$AC_TOP/build/web-browser/.$browser_f_.$$" "$AC_TOP/build/web-browser/$browser_f_" ||
			return 1
	done
	test -x /usr/bin/chromium
}
