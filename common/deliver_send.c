/* deliver_send.c: one attempt of one delivery (deliver_send.h).  A
 * message in parts goes from the first part the receiver does not have,
 * each part with its own idempotency key (ID.N), so a retry after a
 * failure in the middle neither repeats nor skips a part. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "config.h"
#include "deliver.h"
#include "deliver_send.h"
#include "exec.h"
#include "hmac.h"
#include "http.h"
#include "utf8.h"

#define TELEGRAM_LIMIT 4096
#define SLACK_LIMIT 39000
#define NTFY_LIMIT 4000        /* bytes: ntfy makes a longer message an attachment */
#define ANSWER_MAX 65536       /* bytes of a receiver's answer read */

struct reply {
	struct buf body;
	int64_t retry_after;
	int64_t now;              /* the attempt's clock, for a Retry-After date */
};

/* The first line of what a receiver said, as text to keep and print:
 * whole UTF-8 characters, U+FFFD for other bytes, no control character
 * (a terminal's escape sequence from afar), "..." when cut. */
static void
said_of(char *buf, size_t n, const char *s)
{
	utf8_quote(buf, n, s ? s : "", strcspn(s ? s : "", "\r\n"));
}

static void
on_header(const char *line, size_t n, void *arg)
{
	struct reply *r = arg;
	struct http_line l;
	if (http_line_read(line, n, &l) == HTTP_LINE_STATUS)
		r->retry_after = -1;
	if (http_line_read(line, n, &l) != HTTP_LINE_FIELD || !http_line_is(&l, "Retry-After"))
		return;
	char *v = http_line_value(&l);
	r->retry_after = http_retry_after(v, r->now);
	free(v);
}

static size_t
on_data(const char *p, size_t n, void *arg)
{
	struct reply *r = arg;
	if (r->body.len + n <= ANSWER_MAX)
		buf_add(&r->body, p, n);
	return n;
}

static long
timeout_ms(const struct config *c)
{
	const char *v = c ? config_get(c, "deliver_timeout") : NULL;
	long s = v ? strtol(v, NULL, 10) : 0;
	return (s > 0 && s <= 3600 ? s : DELIVER_TIMEOUT) * 1000L;
}

/* One POST; o says how it went.  telegram: the answer must be Telegram's
 * {"ok": true}. */
static int
post(struct http *h, const struct config *c, int64_t now, const char *url,
    const char *const *headers, const char *body, size_t len, int telegram,
    struct deliver_outcome *o)
{
	struct reply r = {.retry_after = -1, .now = now};
	buf_add(&r.body, "", 0);
	long t = timeout_ms(c);
	struct http_request rq = {.url = url, .headers = headers, .body = body, .len = len,
		.connect_timeout_ms = t < 10000 ? t : 10000, .timeout_ms = t, .on_header = on_header,
		.on_data = on_data, .arg = &r};
	struct http_result res;
	int how = http_perform(h, &rq, &res);
	o->retry_after = r.retry_after;
	if (how != HTTP_OK) {
		snprintf(o->error, sizeof o->error, "%s", how == HTTP_TIMEOUT ?
		    "no answer in time" : res.error[0] ? res.error : "the connection failed");
		buf_free(&r.body);
		return -1;
	}
	long st = res.status;
	cJSON *j = telegram ? cJSON_Parse(r.body.data) : NULL;
	if (telegram && st == 429 && o->retry_after < 0) {
		const cJSON *ra = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "parameters"), "retry_after");
		/* The server's number, bounded before it is converted. */
		if (cJSON_IsNumber(ra) && ra->valuedouble >= 0)
			o->retry_after = ra->valuedouble < INT32_MAX ? (int64_t)ra->valuedouble : INT32_MAX;
	}
	int ok = st >= 200 && st < 300;
	if (ok && telegram && !cJSON_IsTrue(cJSON_GetObjectItem(j, "ok"))) {
		ok = 0;
		o->permanent = 1;
	}
	if (ok) {
		const cJSON *id = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "result"), "message_id");
		if (telegram && cJSON_IsNumber(id))
			snprintf(o->answer, sizeof o->answer, "message_id %.0f", id->valuedouble);
		else
			snprintf(o->answer, sizeof o->answer, "HTTP %ld", st);
	} else {
		/* A refusal is the receiver's last word unless it may pass:
		 * 408, 429 and the server's own errors. */
		if (!(st == 408 || st == 429 || st >= 500))
			o->permanent = 1;
		const cJSON *d = cJSON_GetObjectItem(j, "description");
		char said[200];
		said_of(said, sizeof said, cJSON_IsString(d) ? d->valuestring : r.body.data);
		snprintf(o->error, sizeof o->error, "HTTP %ld%s%s", st, said[0] ? ": " : "", said);
	}
	cJSON_Delete(j);
	buf_free(&r.body);
	return ok ? 0 : -1;
}

char *
deliver_webhook_signature(const char *secret, const char *id, int64_t ts, const char *body)
{
	unsigned char *key = NULL, mac[SHA256_LEN];
	size_t nkey = 0;
	if (strncmp(secret, "whsec_", 6) == 0)
		key = base64_decode(secret + 6, &nkey);
	if (!key) {
		nkey = strlen(secret);
		key = (unsigned char *)xstrndup(secret, nkey);
	}
	char *msg = xasprintf("%s.%lld.%s", id, (long long)ts, body);
	int rc = hmac_sha256(key, nkey, msg, strlen(msg), mac);
	memset(key, 0, nkey);
	free(key);
	free(msg);
	if (rc)
		return NULL;
	char *b = base64_encode(mac, sizeof mac), *sig = xasprintf("v1,%s", b);
	free(b);
	return sig;
}

static void
send_webhook(struct http *h, const struct config *c, const struct deliver_msg *m, const char *url,
    struct deliver_outcome *o)
{
	const char *secret = c ? config_get(c, "deliver_secret") : NULL;
	char *hid = xasprintf("webhook-id: %s", m->id);
	char *hts = xasprintf("webhook-timestamp: %lld", (long long)m->now);
	char *hsig = NULL;
	if (secret && *secret) {
		char *sig = deliver_webhook_signature(secret, m->id, m->now, m->json);
		if (!sig) {
			snprintf(o->error, sizeof o->error, "cannot sign the delivery: %s cannot be loaded",
			    CRYPTO_LIB_SONAME);
			free(hid);
			free(hts);
			return;
		}
		hsig = xasprintf("webhook-signature: %s", sig);
		free(sig);
	}
	const char *headers[] = {"Content-Type: application/json", hid, hts, hsig, NULL};
	if (!post(h, c, m->now, url, headers, m->json, strlen(m->json), 0, o))
		o->delivered = 1;
	free(hid);
	free(hts);
	free(hsig);
}

/* The text a person reads: the task, how the run went, the answer. */
static char *
message_text(const struct deliver_msg *m)
{
	if (strcmp(m->status, "success") == 0)
		return xstrdup(m->text);
	return xasprintf("%s: %s\n\n%s", m->task_name, m->status, m->text);
}

/* ntfy reads a header's UTF-8 as an RFC 2047 encoded word. */
static char *
ntfy_title(const char *name)
{
	int ascii = 1;
	for (const char *p = name; *p; p++)
		ascii &= (unsigned char)*p < 0x80 && *p != '\r' && *p != '\n';
	if (ascii)
		return xasprintf("Title: %s", name);
	char *b = base64_encode((const unsigned char *)name, strlen(name));
	char *t = xasprintf("Title: =?UTF-8?B?%s?=", b);
	free(b);
	return t;
}

static void
send_parts(struct http *h, const struct config *c, const struct deliver_msg *m, int kind,
    const char *url, struct deliver_outcome *o)
{
	char *text = message_text(m), **parts;
	size_t n;
	/* Slack's limit holds for the text as escaped. */
	deliver_split(text, kind == DK_TELEGRAM ? TELEGRAM_LIMIT : kind == DK_SLACK ? SLACK_LIMIT :
	    NTFY_LIMIT, kind == DK_NTFY ? DELIVER_UNITS_BYTES : kind == DK_SLACK ?
	    DELIVER_UNITS_SLACK : DELIVER_UNITS_CHARS, &parts, &n);
	free(text);
	int failed = strcmp(m->status, "success") != 0;
	o->parts_done = m->parts_done;
	for (size_t i = (size_t)m->parts_done; i < n; i++) {
		char *key = n > 1 ? xasprintf("Idempotency-Key: %s.%zu", m->id, i + 1) :
		    xasprintf("Idempotency-Key: %s", m->id);
		char *body = NULL, *title = NULL;
		const char *extra[3] = {NULL, NULL, NULL};
		if (kind == DK_SLACK) {
			char *esc = deliver_slack_escape(parts[i]);
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "text", esc);
			body = cJSON_PrintUnformatted(j);
			cJSON_Delete(j);
			free(esc);
			extra[0] = "Content-Type: application/json";
		} else if (kind == DK_TELEGRAM) {
			cJSON *j = cJSON_CreateObject();
			const char *chat = m->target + strlen("telegram:");
			if (chat[0] == '@' || !isdigit((unsigned char)chat[chat[0] == '-']))
				cJSON_AddStringToObject(j, "chat_id", chat);
			else
				cJSON_AddRawToObject(j, "chat_id", chat);
			cJSON_AddStringToObject(j, "text", parts[i]);
			body = cJSON_PrintUnformatted(j);
			cJSON_Delete(j);
			extra[0] = "Content-Type: application/json";
		} else {
			body = xstrdup(parts[i]);
			title = ntfy_title(m->task_name);
			extra[0] = title;
			if (failed)
				extra[1] = "Priority: 4", extra[2] = "Tags: warning";
		}
		const char *headers[] = {key, extra[0], extra[1], extra[2], NULL};
		int rc = post(h, c, m->now, url, headers, body, strlen(body), kind == DK_TELEGRAM, o);
		free(key);
		free(body);
		free(title);
		if (rc) {
			if (n > 1) {
				char part[ERR_MAX];
				snprintf(part, sizeof part, "part %zu of %zu: %.400s", i + 1, n, o->error);
				snprintf(o->error, sizeof o->error, "%s", part);
			}
			deliver_parts_free(parts, n);
			return;
		}
		o->parts_done = (int)i + 1;
		if (i + 1 < n && m->on_part && m->on_part(m->arg, o->parts_done, o->error,
		    sizeof o->error)) {
			deliver_parts_free(parts, n);
			return;
		}
	}
	if (n > 1) {
		char last[sizeof o->answer];
		snprintf(last, sizeof last, "%s", o->answer);
		snprintf(o->answer, sizeof o->answer, "%zu parts; %.200s", n, last);
	}
	o->delivered = 1;
	deliver_parts_free(parts, n);
}

static void
send_telegram(struct http *h, const struct config *c, const struct deliver_msg *m,
    struct deliver_outcome *o)
{
	const char *token = c ? config_get(c, "telegram_token") : NULL;
	const char *base = c ? config_get(c, "telegram_base_url") : NULL;
	if (!token || !*token) {
		snprintf(o->error, sizeof o->error, "no telegram_token in the config");
		o->permanent = 1;
		return;
	}
	if (!base || !*base)
		base = "https://api.telegram.org";
	size_t bl = strlen(base);
	char *url = xasprintf("%.*s/bot%s/sendMessage", (int)(bl && base[bl - 1] == '/' ? bl - 1 : bl),
	    base, token);
	send_parts(h, c, m, DK_TELEGRAM, url, o);
	memset(url, 0, strlen(url));
	free(url);
}

/* The message of a mailto: delivery, RFC 5322 in UTF-8. */
static char *
mail_message(const struct config *c, const struct deliver_msg *m, const char *to, const char *from)
{
	struct buf b = {0};
	char date[64];
	time_t t = (time_t)m->now;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
	(void)c;
	buf_printf(&b, "From: %s\r\nTo: %s\r\nDate: %s\r\nMessage-ID: <%s@agentcron>\r\nSubject: ",
	    from, to, date, m->id);
	char *subject = strcmp(m->status, "success") == 0 ? xstrdup(m->task_name) :
	    xasprintf("%s (%s)", m->task_name, m->status);
	deliver_mail_header(&b, subject);
	free(subject);
	buf_printf(&b, "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\nAuto-Submitted: auto-generated\r\n"
	    "X-Agentcron-Task: %s\r\nX-Agentcron-Run: %s\r\n\r\n", m->task_id, m->run_id);
	char *text = message_text(m);
	deliver_quoted_printable(&b, text);
	free(text);
	return b.data;
}

struct upload {
	const char *p;
	size_t left;
};

static size_t
read_upload(char *dst, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nmemb < u->left ? size * nmemb : u->left;
	memcpy(dst, u->p, n);
	u->p += n;
	u->left -= n;
	return n;
}

static void
send_smtp(const struct config *c, const char *smtp_url, const char *to, const char *from,
    const char *msg, struct deliver_outcome *o)
{
	CURL *h = curl_easy_init();
	if (!h) {
		snprintf(o->error, sizeof o->error, "cannot start libcurl");
		return;
	}
	char errbuf[CURL_ERROR_SIZE] = "", *rcpt_addr = xasprintf("<%s>", to);
	char *from_addr = NULL;
	const char *lt = strrchr(from, '<');
	from_addr = lt ? xstrdup(lt) : xasprintf("<%s>", from);
	struct curl_slist *rcpt = curl_slist_append(NULL, rcpt_addr);
	struct upload u = {msg, strlen(msg)};
	const char *user = config_get(c, "smtp_user"), *pass = config_get(c, "smtp_password");
	long t = timeout_ms(c);
	int bad = !rcpt;
	bad |= curl_easy_setopt(h, CURLOPT_URL, smtp_url) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps") != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_MAIL_FROM, from_addr) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_READFUNCTION, read_upload) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_READDATA, &u) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_UPLOAD, 1L) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, t < 10000 ? t : 10000) != CURLE_OK;
	bad |= curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, t) != CURLE_OK;
	/* The CA the HTTP kinds trust (http.c), read as curl(1) reads it. */
	const char *ca = getenv("CURL_CA_BUNDLE"), *cadir = NULL;
	if (!ca || !*ca) {
		ca = getenv("SSL_CERT_FILE");
		cadir = getenv("SSL_CERT_DIR");
	}
	if (ca && *ca)
		bad |= curl_easy_setopt(h, CURLOPT_CAINFO, ca) != CURLE_OK;
	if (cadir && *cadir)
		bad |= curl_easy_setopt(h, CURLOPT_CAPATH, cadir) != CURLE_OK;
	if (user && *user)
		bad |= curl_easy_setopt(h, CURLOPT_USERNAME, user) != CURLE_OK;
	if (pass && *pass)
		bad |= curl_easy_setopt(h, CURLOPT_PASSWORD, pass) != CURLE_OK;
	CURLcode rc = bad ? CURLE_FAILED_INIT : curl_easy_perform(h);
	long code = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (rc == CURLE_OK) {
		o->delivered = 1;
		snprintf(o->answer, sizeof o->answer, "SMTP %ld", code ? code : 250);
	} else {
		if (code >= 500)
			o->permanent = 1;
		snprintf(o->error, sizeof o->error, "SMTP%s%.0ld: %s", code ? " " : "", code,
		    errbuf[0] ? errbuf : curl_easy_strerror(rc));
	}
	curl_slist_free_all(rcpt);
	free(rcpt_addr);
	free(from_addr);
	curl_easy_cleanup(h);
}

static void
send_sendmail(const struct config *c, const char *to, const char *msg, struct deliver_outcome *o)
{
	const char *cmd = c ? config_get(c, "sendmail") : NULL;
	char **argv = NULL;
	struct err e;
	if (exec_split(cmd && *cmd ? cmd : "sendmail", &argv, &e)) {
		snprintf(o->error, sizeof o->error, "sendmail: %.400s", e.msg);
		o->permanent = 1;
		return;
	}
	size_t n = 0;
	while (argv[n])
		n++;
	argv = xrealloc(argv, (n + 4) * sizeof *argv);
	argv[n] = xstrdup("-i");
	argv[n + 1] = xstrdup("--");
	argv[n + 2] = xstrdup(to);
	argv[n + 3] = NULL;
	const char *search[] = {"/usr/sbin", "/usr/lib"};
	struct exec_cmd ec = {.argv = argv, .input = msg, .ninput = strlen(msg),
		.timeout_ms = timeout_ms(c), .search_dir = access("/usr/sbin/sendmail", X_OK) == 0 ?
		search[0] : search[1]};
	struct exec_result r;
	exec_run(&ec, &r);
	if (r.how == EXEC_EXITED && r.code == 0) {
		o->delivered = 1;
		snprintf(o->answer, sizeof o->answer, "sendmail exited 0");
	} else {
		char said[200];
		said_of(said, sizeof said, r.err);
		snprintf(o->error, sizeof o->error, "sendmail %.300s%s%.150s", r.why, said[0] ? ": " : "", said);
		o->permanent = r.how == EXEC_NOTFOUND;
	}
	exec_result_free(&r);
	exec_argv_free(argv);
}

static void
send_mail(const struct config *c, const struct deliver_msg *m, const char *to,
    struct deliver_outcome *o)
{
	const char *from = c ? config_get(c, "mail_from") : NULL;
	char host[256] = "localhost", *dflt = NULL;
	if (!from || !*from) {
		if (gethostname(host, sizeof host) != 0)
			snprintf(host, sizeof host, "localhost");
		host[sizeof host - 1] = 0;
		from = dflt = xasprintf("agentcron@%s", host);
	}
	if (strpbrk(from, "\r\n")) {
		snprintf(o->error, sizeof o->error, "mail_from holds a line break");
		o->permanent = 1;
		free(dflt);
		return;
	}
	char *msg = mail_message(c, m, to, from);
	const char *smtp = c ? config_get(c, "smtp_url") : NULL;
	if (smtp && *smtp)
		send_smtp(c, smtp, to, from, msg, o);
	else
		send_sendmail(c, to, msg, o);
	free(msg);
	free(dflt);
}

static void
send_exec(const struct config *c, const struct deliver_msg *m, const char *cmd,
    struct deliver_outcome *o)
{
	char **argv = NULL;
	struct err e;
	if (exec_split(cmd, &argv, &e)) {
		snprintf(o->error, sizeof o->error, "%s", e.msg);
		o->permanent = 1;
		return;
	}
	/* Only what the command needs: no secrets of the config, no store. */
	char *env[16];
	size_t n = 0;
	const char *keep[] = {"PATH", "HOME", "LANG", "LC_ALL", "TZ"};
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
		if (getenv(keep[i]))
			env[n++] = xasprintf("%s=%s", keep[i], getenv(keep[i]));
	env[n++] = xasprintf("TASK_ID=%s", m->task_id);
	env[n++] = xasprintf("TASK_NAME=%s", m->task_name);
	env[n++] = xasprintf("TASK_RUN_ID=%s", m->run_id);
	env[n++] = xasprintf("TASK_DELIVERY_ID=%s", m->id);
	/* As a notify hook's: the event and the run's status. */
	cJSON *j = cJSON_Parse(m->json);
	const cJSON *ev = cJSON_GetObjectItem(j, "event");
	env[n++] = xasprintf("TASK_EVENT=%s", cJSON_IsString(ev) ? ev->valuestring : "");
	env[n++] = xasprintf("TASK_STATUS=%s", m->status);
	cJSON_Delete(j);
	env[n] = NULL;
	struct exec_cmd ec = {.argv = argv, .envp = env, .input = m->json, .ninput = strlen(m->json),
		.timeout_ms = timeout_ms(c)};
	struct exec_result r;
	exec_run(&ec, &r);
	if (r.how == EXEC_EXITED && r.code == 0) {
		o->delivered = 1;
		snprintf(o->answer, sizeof o->answer, "exit 0");
	} else {
		char said[200];
		said_of(said, sizeof said, r.err);
		snprintf(o->error, sizeof o->error, "%.300s%s%.150s", r.why, said[0] ? ": " : "", said);
		o->permanent = r.how == EXEC_NOTFOUND ||
		    (r.how == EXEC_EXITED && r.code == EXEC_EXIT_PERMANENT);
	}
	exec_result_free(&r);
	for (size_t i = 0; i < n; i++)
		free(env[i]);
	exec_argv_free(argv);
}

void
deliver_send(struct http *h, const struct config *c, const struct deliver_msg *m,
    struct deliver_outcome *o)
{
	memset(o, 0, sizeof *o);
	o->retry_after = -1;
	o->parts_done = m->parts_done;
	int kind;
	const char *rest;
	struct err e;
	if (deliver_target_parse(m->target, &kind, &rest, &e)) {
		snprintf(o->error, sizeof o->error, "%s", e.msg);
		o->permanent = 1;
		return;
	}
	switch (kind) {
	case DK_WEBHOOK: send_webhook(h, c, m, rest, o); break;
	case DK_SLACK: case DK_NTFY: send_parts(h, c, m, kind, rest, o); break;
	case DK_TELEGRAM: send_telegram(h, c, m, o); break;
	case DK_MAILTO: send_mail(c, m, rest, o); break;
	case DK_EXEC: send_exec(c, m, rest, o); break;
	}
}
