/* task-web: the scheduler in a browser and for scripts over HTTP, on GNU
 * libmicrohttpd.  One process and one thread: the server runs from our own
 * loop (external select), so the store is only ever used here, between
 * stop signals.  Every request reads the store afresh, so several hosts
 * serving one PostgreSQL store show the same thing; actions go through the
 * store calls the command line uses.  Who may ask, the API and the pages
 * are in common/web*.c (the listening sockets in web_listen.c, tokens and
 * triggers made from the command line in web_admin.c); this file is the
 * HTTP edge: limits, headers, and the one-time login link it prints at
 * start. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netdb.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "install.h"
#include "opt.h"
#include "proc.h"
#include "prog.h"
#include "sdnotify.h"
#include "stopsig.h"
#include "store_audit.h"
#include "store.h"
#include "store_web.h"
#include "utf8.h"
#include "web.h"

static const char prog[] = "task-web";

#define DEFAULT_LISTEN "127.0.0.1:8642"
#define MAX_CONNECTIONS 64
#define MAX_PER_ADDRESS 16
#define REQUEST_SECONDS 30     /* a connection idle this long is closed */
#define HEADER_BYTES 32768     /* request line and headers, at most (else 431) */

static const char csp[] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
    " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

struct server {
	struct web *web;
	struct store *st;
};

/* A request's state across the server's calls: its body as it comes. */
struct pending {
	struct buf body;
	int too_big;
};

static enum MHD_Result
take_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind;
	struct web_req *rq = cls;
	if (rq->nquery >= 64)
		return MHD_NO;
	rq->query = xrealloc(rq->query, (rq->nquery + 1) * sizeof *rq->query);
	rq->query[rq->nquery].key = xstrdup(key ? key : "");
	rq->query[rq->nquery].value = xstrdup(value ? value : "");
	rq->nquery++;
	return MHD_YES;
}

static void
client_addr(struct MHD_Connection *c, char *out, size_t n)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
	    MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	snprintf(out, n, "local");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
		    (socklen_t)n);
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
		    (socklen_t)n);
}

/* One line for stderr whatever a client sent: valid UTF-8, no controls. */
static void
log_line(const char *s)
{
	char *clean = utf8_clean(s, strlen(s));
	for (char *p = clean; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	fprintf(stderr, "%s: %s\n", prog, clean);
	free(clean);
}

/* The HTTP server's own messages (a client gone mid-request, the
 * connection limit) as ours: one line, the program's name first. */
static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	char s[512];
	vsnprintf(s, sizeof s, fmt, ap);
	s[strcspn(s, "\n")] = 0;
	log_line(s);
}

static enum MHD_Result
send_resp(struct MHD_Connection *c, const struct web_resp *rs)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(rs->body.len,
	    rs->body.data ? rs->body.data : (char *)"", MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", rs->content_type ? rs->content_type
	    : "text/plain; charset=utf-8");
	MHD_add_response_header(r, "Content-Security-Policy", csp);
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Cache-Control", rs->cacheable ? "private, max-age=3600" : "no-store");
	if (rs->location[0])
		MHD_add_response_header(r, "Location", rs->location);
	if (rs->set_cookie[0])
		MHD_add_response_header(r, "Set-Cookie", rs->set_cookie);
	if (rs->link_next[0]) {
		char s[sizeof rs->link_next + 16];
		snprintf(s, sizeof s, "<%s>; rel=\"next\"", rs->link_next);
		MHD_add_response_header(r, "Link", s);
	}
	if (rs->retry_after) {
		char s[16];
		snprintf(s, sizeof s, "%d", rs->retry_after);
		MHD_add_response_header(r, "Retry-After", s);
	}
	enum MHD_Result ret = MHD_queue_response(c, (unsigned)rs->status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
too_big(struct MHD_Connection *c)
{
	struct web_resp rs = {.status = 413};
	buf_printf(&rs.body, "the request's body is over %d bytes\n", WEB_BODY_MAX);
	enum MHD_Result ret = send_resp(c, &rs);
	web_resp_free(&rs);
	return ret;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
    const char *version, const char *upload, size_t *upload_size, void **state)
{
	(void)version;
	struct server *sv = cls;
	struct pending *p = *state;
	if (!p) {
		p = xcalloc(1, sizeof *p);
		*state = p;
		const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		if (len && strtoull(len, NULL, 10) > WEB_BODY_MAX) {
			p->too_big = 1;
			return too_big(c);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (p->body.len + *upload_size > WEB_BODY_MAX)
			p->too_big = 1;
		else
			buf_add(&p->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (p->too_big)
		return too_big(c);
	char addr[INET6_ADDRSTRLEN + 8], what[256];
	struct err e = {{0}};
	client_addr(c, addr, sizeof addr);
	struct web_req rq = {
		.method = method, .path = url, .addr = addr,
		.authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"),
		.cookie = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Cookie"),
		.content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type"),
		.csrf_header = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-CSRF-Token"),
		.hub_signature = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Hub-Signature-256"),
		.event_key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key"),
		.body = p->body.data ? p->body.data : "", .nbody = p->body.len,
	};
	if (!rq.event_key)
		rq.event_key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-GitHub-Delivery");
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, take_arg, &rq);
	struct web_resp rs = {0};
	/* A store replaced or a lost server connection is found again. */
	if (store_refresh(sv->st, what, sizeof what, &e)) {
		rs.status = 503;
		buf_printf(&rs.body, "%s\n", e.msg);
	} else {
		web_handle(sv->web, &rq, &rs);
	}
	if (rs.log[0])
		log_line(rs.log);
	enum MHD_Result ret = send_resp(c, &rs);
	web_resp_free(&rs);
	for (size_t i = 0; i < rq.nquery; i++) {
		free(rq.query[i].key);
		free(rq.query[i].value);
	}
	free(rq.query);
	return ret;
}

static void
on_done(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode why)
{
	(void)cls, (void)c, (void)why;
	struct pending *p = *state;
	if (p) {
		buf_free(&p->body);
		free(p);
		*state = NULL;
	}
}

/* ---- serving ---- */

/* The configuration's hook_rate: a trigger's fires a minute, at most. */
static int
hook_rate(int *rate, struct err *e)
{
	struct config *cf;
	struct err sub;
	long v = 60;
	int rc = config_load(&cf, e);
	if (rc)
		return rc;
	const char *s = config_get(cf, "hook_rate");
	if (s && opt_number("hook_rate", s, NULL, 1, 100000, &v, &sub))
		rc = err_set(e, ST_INVALID, "%s: bad hook_rate '%.40s': a number of fires a minute, 1 to"
		    " 100000", config_path(cf), s);
	config_free(cf);
	*rate = (int)v;
	return rc;
}

static int
serve(const char *listen_spec, int explicit_listen, const char *sock, int read_only, struct err *e)
{
	struct web_listener w = {.fd = -1};
	struct store *st = NULL;
	struct web *web = NULL;
	struct MHD_Daemon *d = NULL;
	int sfd = -1, any = 0;
	int rc = store_open(NULL, read_only ? STORE_READ : 0, &st, e);
	if (!rc)
		rc = web_tokens_exist(st, &any, e);
	if (!rc)
		rc = sock ? web_listen_unix(sock, &w, e) : web_listen_tcp(listen_spec, &w, e);
	/* Beyond this machine only when asked for, and never without a token:
	 * the login link alone would be the only lock on the door. */
	if (!rc && !w.loopback && (!explicit_listen || !any))
		rc = err_set(e, ST_REFUSED, "%s reaches beyond this machine: make a token first"
		    " (task-web --new-token NAME), and put a TLS proxy in front", listen_spec);
	char self[PATH_MAX], dir[PATH_MAX];
	proc_self(prog, self, dir, sizeof self);
	struct web_opts o = {.read_only = read_only, .bin_dir = dir};
	if (!rc)
		rc = hook_rate(&o.hook_rate, e);
	if (!rc)
		rc = web_new(st, &o, &web, e);
	if (!rc)
		rc = stopsig_catch(&sfd, e);
	struct server sv = {web, st};
	if (!rc) {
		unsigned flags = MHD_USE_ERROR_LOG;
		d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &sv,
		    MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)w.fd,
		    MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
		    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)(sock ? 0 : MAX_PER_ADDRESS),
		    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)REQUEST_SECONDS,
		    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HEADER_BYTES,
		    MHD_OPTION_NOTIFY_COMPLETED, on_done, NULL,
		    MHD_OPTION_END);
		if (!d)
			rc = err_set(e, ST_ERR, "cannot start the HTTP server on %s", w.url);
	}
	char key[65];
	if (!rc)
		rc = web_login_key(web, key, e);
	if (!rc) {
		fprintf(stderr, "%s: listening on %s%s\n", prog, w.url, sock ? "" : "/");
		if (sock)
			fprintf(stderr, "%s: log in at /login?key=%s (once)\n", prog, key);
		else
			fprintf(stderr, "%s: log in at %s/login?key=%s (once)\n", prog, w.url, key);
		fflush(stderr);
		explicit_bzero(key, sizeof key);
		struct err ne;
		if (sdnotify("READY=1", &ne))
			fprintf(stderr, "%s: %s\n", prog, ne.msg);
		while (!stopsig_take(sfd))
			MHD_run_wait(d, 500);
		fprintf(stderr, "%s: stopping\n", prog);
	}
	if (d)
		MHD_stop_daemon(d);
	if (w.fd >= 0)
		close(w.fd);
	if (sock && w.fd >= 0)
		unlink(sock);
	if (sfd >= 0)
		close(sfd);
	web_free(web);
	store_close(st);
	return rc;
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: task-web [--listen ADDR:PORT | --socket PATH] [--read-only]\n"
	    "       task-web --new-token NAME [--read-only] | --revoke NAME | --tokens\n"
	    "       task-web --trigger-token TASK | --trigger-secret TASK\n"
	    "       task-web --print-systemd [--listen ADDR:PORT | --socket PATH] [--read-only]\n"
	    "  -l, --listen ADDR:PORT  where to listen (default " DEFAULT_LISTEN "; port 0 picks a\n"
	    "                          free one); beyond loopback only with a token made\n"
	    "  -s, --socket PATH       listen on a Unix socket instead (mode 0600)\n"
	    "  -r, --read-only         show everything, refuse every action (with --new-token:\n"
	    "                          a token that can only read)\n"
	    "      --new-token NAME    make a token, print it once; only its hash is stored\n"
	    "      --revoke NAME       remove a token\n"
	    "      --tokens            list the tokens: name, rights, made\n"
	    "      --trigger-token TASK   a new token that can fire TASK (POST /hooks/TASK), only\n"
	    "      --trigger-secret TASK  a new secret for GitHub-style signatures of TASK's trigger\n"
	    "      --print-systemd     a systemd user service running task-web\n"
	    "  -h, --help, -V, --version\n"
	    "At start task-web prints a one-time login link on stderr; scripts send\n"
	    "Authorization: Bearer TOKEN.\n");
}

/* What --print-systemd writes after ExecStart= is split at white space,
 * with quotes, backslashes, % and $ read: a value holding any of them, a
 * control or bytes that are not UTF-8 would start something else. */
static int
unit_word_ok(const char *s)
{
	return *s && utf8_line(s, strlen(s)) && !strpbrk(s, " \"'\\%$");
}

/* ADDRESS:PORT as web_listen_tcp reads it, without binding (a unit's
 * service would fail at every start on what serving refuses). */
static int
listen_spec_ok(const char *spec)
{
	const char *colon = strrchr(spec, ':');
	char host[256];
	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !colon[1] ||
	    strlen(colon + 1) > 5 || colon[1 + strspn(colon + 1, "0123456789")] ||
	    atol(colon + 1) > 65535)
		return 0;
	size_t n = (size_t)(colon - spec);
	if (n > 2 && spec[0] == '[' && spec[n - 1] == ']')
		memcpy(host, spec + 1, n -= 2);
	else
		memcpy(host, spec, n);
	host[n] = 0;
	if (strcmp(host, "localhost") == 0)
		return 1;
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICHOST}, *ai;
	if (getaddrinfo(host, NULL, &hints, &ai) != 0)
		return 0;
	freeaddrinfo(ai);
	return 1;
}

static int
task_web(int argc, char **argv)
{
	enum { O_NEW = 256, O_REVOKE, O_TOKENS, O_SYSTEMD, O_TRIGGER, O_SECRET };
	static const struct option opts[] = {
		{"listen", required_argument, NULL, 'l'}, {"socket", required_argument, NULL, 's'},
		{"read-only", no_argument, NULL, 'r'}, {"new-token", required_argument, NULL, O_NEW},
		{"revoke", required_argument, NULL, O_REVOKE}, {"tokens", no_argument, NULL, O_TOKENS},
		{"print-systemd", no_argument, NULL, O_SYSTEMD},
		{"trigger-token", required_argument, NULL, O_TRIGGER},
		{"trigger-secret", required_argument, NULL, O_SECRET},
		{"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'}, {0, 0, 0, 0},
	};
	const char *listen_spec = NULL, *sock = NULL, *make = NULL, *revoke = NULL, *trigger = NULL;
	int secret = 0;
	int read_only = 0, list = 0, systemd = 0, c;
	char msg[128];
	struct err e = {{0}};
	while ((c = opt_next(argc, argv, ":l:s:rhV", opts, msg, sizeof msg)) != -1) {
		switch (c) {
		case 'l': listen_spec = optarg; break;
		case 's': sock = optarg; break;
		case 'r': read_only = 1; break;
		case O_NEW: make = optarg; break;
		case O_REVOKE: revoke = optarg; break;
		case O_TOKENS: list = 1; break;
		case O_SYSTEMD: systemd = 1; break;
		case O_TRIGGER: trigger = optarg; secret = 0; break;
		case O_SECRET: trigger = optarg; secret = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); return 0;
		default: return usage_error(prog, "%s", msg);
		}
	}
	if (optind < argc)
		return usage_error(prog, "unexpected argument '%s'", argv[optind]);
	if ((make != NULL) + (revoke != NULL) + list + systemd + (trigger != NULL) > 1)
		return usage_error(prog, "give one of --new-token, --revoke, --tokens, --trigger-token,"
		    " --trigger-secret and --print-systemd");
	if (listen_spec && sock)
		return usage_error(prog, "give --listen or --socket, not both");
	if ((make || revoke || list || trigger) && (listen_spec || sock))
		return usage_error(prog, "--listen and --socket are for serving, not for tokens");
	if ((revoke || list || trigger) && read_only)
		return usage_error(prog, "--read-only goes with --new-token or serving");
	if (make && web_token_name_ok(make, &e))
		return usage_error(prog, "%s", e.msg);
	/* Before the store is opened, or made. */
	if (listen_spec && !listen_spec_ok(listen_spec))
		return usage_error(prog, "bad --listen '%s': give ADDRESS:PORT, a numeric address and a"
		    " port 0-65535, as %s", listen_spec, DEFAULT_LISTEN);
	int rc;
	if (systemd) {
		char self[PATH_MAX], dir[PATH_MAX], abs[PATH_MAX];
		struct buf args = {0};
		/* systemd starts the service in /: a relative path would name
		 * another socket there, so the unit holds it from here. */
		if (sock && *sock && sock[0] != '/') {
			if (!getcwd(dir, sizeof dir)) {
				fprintf(stderr, "%s: the current directory: %s\n", prog, strerror(errno));
				return ST_ERR;
			}
			const char *rel = sock;
			while (rel[0] == '.' && rel[1] == '/')
				rel += 2 + strspn(rel + 2, "/");
			if (!*rel)
				return usage_error(prog, "--print-systemd: --socket '%s' names no file", sock);
			int n = snprintf(abs, sizeof abs, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", rel);
			if (n < 0 || (size_t)n >= sizeof abs)
				return usage_error(prog, "--print-systemd: the socket's path is too long");
			sock = abs;
		}
		if ((listen_spec || sock) && !unit_word_ok(sock ? sock : listen_spec))
			return usage_error(prog, "--print-systemd: the address or path has characters a unit"
			    " would read otherwise (white space, quotes, \\, %%, $, controls)");
		proc_self(prog, self, dir, sizeof self);
		if (listen_spec || sock)
			buf_printf(&args, " %s %s", sock ? "--socket" : "--listen", sock ? sock : listen_spec);
		if (read_only)
			buf_puts(&args, " --read-only");
		char *text = install_web_text(self, args.data ? args.data : "");
		fputs(text, stdout);
		free(text);
		buf_free(&args);
		return ST_OK;
	}
	if (trigger)
		rc = web_trigger_admin(prog, trigger, secret, &e);
	else if (make || revoke || list)
		rc = web_tokens_admin(prog, make, revoke, list, read_only, &e);
	else
		rc = serve(listen_spec ? listen_spec : DEFAULT_LISTEN, listen_spec != NULL, sock, read_only,
		    &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_web(argc, argv));
}
