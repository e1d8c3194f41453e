/* What task-web's pages share (web_layout.h): the head and end of a page,
 * the login page, forms with the session's CSRF token, times in the task's
 * zone, SVG bars, and the small stylesheet and script served from /static/
 * (the page's Content-Security-Policy allows no other, and no inline
 * script). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "web_http.h"
#include "web_layout.h"

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\n"
    "header{background:#234;color:#fff;padding:.5em 1em}header a{color:#fff;margin-right:1em}\n"
    "main{padding:1em}table{border-collapse:collapse;background:#fff}\n"
    "td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}\n"
    "pre{background:#fff;border:1px solid #ddd;padding:.5em;white-space:pre-wrap;max-width:100em}\n"
    ".failed,.timeout,.interrupted{color:#b00}.success{color:#070}.running{color:#05a}\n"
    "form.inline{display:inline-block;margin:.2em .5em .2em 0}.muted{color:#777}\n"
    "svg{background:#fff;border:1px solid #ddd}.bar{fill:#58a}.bad{fill:#c44}\n";

/* Polling: a page marked data-poll reloads its content every 10 s while
 * it is visible, and stops while the tab is hidden.  Boxes ticked for a
 * bulk action stay ticked, a reason typed for an action that is still
 * offered stays typed, and while the focus is inside the content it is
 * left alone (a keyboard user would be thrown back to the top).  A form's
 * confirmation is asked from the document, so forms a refresh brought
 * ask it too.  A
 * page that cannot refresh says so at its top: a session ended (task-web
 * restarted, 12 hours gone) stops it for good, and stale numbers must not
 * pass for live ones. */
static const char js[] =
    "'use strict';\n"
    "(function () {\n"
    "  var body = document.body, timer = null, ended = false;\n"
    "  document.addEventListener('submit', function (ev) {\n"
    "    var f = ev.target;\n"
    "    if (f.hasAttribute('data-confirm') && !window.confirm(f.getAttribute('data-confirm')))\n"
    "      ev.preventDefault();\n"
    "  });\n"
    "  function note(text) {\n"
    "    var p = document.getElementById('stale');\n"
    "    if (!text) { if (p) p.remove(); return; }\n"
    "    if (!p) {\n"
    "      p = document.createElement('p');\n"
    "      p.id = 'stale'; p.className = 'failed'; p.setAttribute('role', 'status');\n"
    "      document.querySelector('main').prepend(p);\n"
    "    }\n"
    "    p.textContent = text;\n"
    "  }\n"
    "  function refresh() {\n"
    "    fetch(location.href, {credentials: 'same-origin'}).then(function (r) {\n"
    "      if (r.status === 401) {\n"
    "        ended = true; arm();\n"
    "        note('This page no longer refreshes: the session has ended. Log in again.');\n"
    "        return null;\n"
    "      }\n"
    "      if (!r.ok) note('Not refreshed: task-web answered ' + r.status + '.');\n"
    "      return r.ok ? r.text() : null;\n"
    "    }).then(function (html) {\n"
    "      if (!html) return;\n"
    "      note(null);\n"
    "      var doc = new DOMParser().parseFromString(html, 'text/html');\n"
    "      var fresh = doc.getElementById('live'), old = document.getElementById('live');\n"
    "      if (!fresh || !old || old.contains(document.activeElement)) return;\n"
    "      old.querySelectorAll('input[type=checkbox]:checked').forEach(function (c) {\n"
    "        fresh.querySelectorAll('input[type=checkbox]').forEach(function (n) {\n"
    "          if (n.name === c.name && n.value === c.value) n.checked = true;\n"
    "        });\n"
    "      });\n"
    "      var typed = 'form[action] input:not([type])';\n"
    "      function where(i) { return i.form.getAttribute('action') + ' ' + i.name; }\n"
    "      old.querySelectorAll(typed).forEach(function (c) {\n"
    "        fresh.querySelectorAll(typed).forEach(function (n) {\n"
    "          if (c.value && where(n) === where(c)) n.value = c.value;\n"
    "        });\n"
    "      });\n"
    "      old.replaceWith(fresh);\n"
    "    }).catch(function () { note('Not refreshed: task-web cannot be reached.'); });\n"
    "  }\n"
    "  function arm() {\n"
    "    if (timer) { clearInterval(timer); timer = null; }\n"
    "    if (!ended && !document.hidden && body.hasAttribute('data-poll'))\n"
    "      timer = setInterval(refresh, 10000);\n"
    "  }\n"
    "  function zones(root) {\n"
    "    root.querySelectorAll('time[datetime]').forEach(function (t) {\n"
    "      if (t.dataset.local) return;\n"
    "      var d = new Date(t.getAttribute('datetime'));\n"
    "      var here = d.toLocaleString(undefined, {dateStyle: 'short', timeStyle: 'short'});\n"
    "      t.dataset.local = '1';\n"
    "      t.title = 'your time: ' + here;\n"
    "      if (d.getTimezoneOffset() !== 0 || !/UTC|GMT/.test(t.textContent))\n"
    "        t.insertAdjacentText('afterend', ' (' + here + ' here)');\n"
    "    });\n"
    "  }\n"
    "  zones(document);\n"
    "  new MutationObserver(function () { zones(document); }).observe(body, {childList: true, subtree: true});\n"
    "  document.addEventListener('visibilitychange', arm);\n"
    "  arm();\n"
    "})();\n";

void
web_head(struct buf *b, const char *title, int poll)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	/* A task's name between FSI and PDI: an override in it (U+202E)
	 * ends there, and does not turn " - agentcron" around. */
	buf_puts(b, "\xe2\x81\xa8");
	html_esc(b, title);
	buf_puts(b, "\xe2\x81\xa9 - agentcron</title><link rel=\"stylesheet\" href=\"/static/web.css\">"
	    "<link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">"
	    "<script src=\"/static/web.js\" defer></script></head>\n<body");
	if (poll)
		buf_puts(b, " data-poll");
	buf_puts(b, "><header><a href=\"/\">agentcron</a><a href=\"/tasks\">Tasks</a><a href=\"/timeline\">Timeline</a></header>\n<main>\n");
}

/* b, the page, ended and made rs's body (status 200 unless set). */
static void
page_end(struct web_resp *rs, struct buf *b)
{
	buf_puts(b, "</main></body></html>\n");
	rs->status = rs->status ? rs->status : 200;
	rs->content_type = "text/html; charset=utf-8";
	buf_free(&rs->body);
	rs->body = *b;
}

int
web_page_finish(struct web_resp *rs, struct buf *b, int rc, const struct err *e)
{
	if (rc) {
		buf_free(b);
		web_error(rs, 503, 0, "%s", e->msg);
		return 1;
	}
	page_end(rs, b);
	return 1;
}

void
web_login_page(struct web_resp *rs, int status, const char *why)
{
	struct buf b = {0};
	web_head(&b, "Log in", 0);
	buf_puts(&b, "<h1>Log in</h1>\n");
	if (why) {
		buf_puts(&b, "<p class=\"failed\">");
		html_esc(&b, why);
		buf_puts(&b, "</p>\n");
	}
	buf_puts(&b, "<p>Open the login link task-web printed when it started, or give a token"
	    " (<code>task-web --new-token NAME</code>).</p>\n"
	    "<form method=\"post\" action=\"/login\"><input type=\"password\" name=\"token\""
	    " autocomplete=\"off\" aria-label=\"token\"> <button>Log in</button></form>\n");
	rs->status = status;
	page_end(rs, &b);
}

void
web_csrf_field(struct buf *b, const struct web_who *who)
{
	if (!who->sess)
		return;
	buf_printf(b, "<input type=\"hidden\" name=\"csrf\" value=\"%s\">", who->sess->csrf);
}

/* A one-button form for an action, or nothing for a reader. */
void
web_button(struct buf *b, const struct web_who *who, const char *path, const char *label,
    const char *confirm, int with_reason)
{
	if (who->read_only)
		return;
	buf_puts(b, "<form class=\"inline\" method=\"post\" action=\"");
	html_esc(b, path);
	buf_puts(b, "\"");
	if (confirm) {
		buf_puts(b, " data-confirm=\"");
		html_esc(b, confirm);
		buf_puts(b, "\"");
	}
	buf_puts(b, ">");
	web_csrf_field(b, who);
	if (with_reason)
		buf_puts(b, "<input name=\"reason\" required maxlength=\"500\" placeholder=\"reason\" aria-label=\"reason\"> ");
	buf_puts(b, "<button>");
	html_esc(b, label);
	buf_puts(b, "</button></form>\n");
}

void
web_time_cell(struct buf *b, struct web *w, const struct task *t, int64_t when)
{
	char s[96];
	if (t)
		task_fmt_time(t, w->zs, when, TIME_WALL_ZONE, s, sizeof s);
	else
		zone_fmt_time(w->zs, "UTC", when, TIME_WALL_ZONE, s, sizeof s);
	if (when == TIME_NONE) {
		buf_puts(b, "<td>none</td>");
		return;
	}
	char utc[32];
	time_fmt_utc(when, utc, sizeof utc);
	/* The script adds the viewer's own zone when it differs. */
	buf_printf(b, "<td><time datetime=\"%s\">", utc);
	html_esc(b, s);
	buf_puts(b, "</time></td>");
}


/* Bars, oldest on the left: v[0..n) is newest first. */
void
web_bars(struct buf *b, const double *v, const int *bad, int n, const char *label, const char *top)
{
	double max = 0;
	int width = n * 12 + 10 > 240 ? n * 12 + 10 : 240;
	for (int i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	buf_printf(b, "<svg width=\"%d\" height=\"110\" role=\"img\" aria-label=\"%s\">", width, label);
	for (int i = 0; max > 0 && i < n; i++) {
		int k = n - 1 - i, h = (int)(v[k] * 100 / max);
		buf_printf(b, "<rect class=\"bar%s\" x=\"%d\" y=\"%d\" width=\"10\" height=\"%d\"></rect>",
		    bad && bad[k] ? " bad" : "", 5 + i * 12, 105 - h, h);
	}
	buf_printf(b, "<text x=\"%d\" y=\"12\" font-size=\"10\" text-anchor=\"end\">%s: %s</text></svg>\n",
	    width - 5, label, top);
}


/* The stylesheet, the script and the icon; 0: p is none of them. */
int
web_static(const char *p, struct web_resp *rs)
{
	if (strcmp(p, "/static/web.css") == 0 || strcmp(p, "/static/web.js") == 0) {
		int is_css = p[12] == 'c';
		rs->status = 200;
		rs->content_type = is_css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
		rs->cacheable = 1;
		buf_puts(&rs->body, is_css ? css : js);
		return 1;
	}
	if (strcmp(p, "/static/icon.svg") == 0) {
		rs->status = 200;
		rs->content_type = "image/svg+xml";
		rs->cacheable = 1;
		buf_puts(&rs->body, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">"
		    "<circle cx=\"8\" cy=\"8\" r=\"7\" fill=\"#234\"/><path d=\"M8 3v5l3 2\""
		    " stroke=\"#fff\" stroke-width=\"1.5\" fill=\"none\"/></svg>\n");
		return 1;
	}
	if (strcmp(p, "/favicon.ico") == 0) {
		rs->status = 204;
		return 1;
	}
	return 0;
}
