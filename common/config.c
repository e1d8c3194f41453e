/* The configuration file: read once, kept as key/value pairs in file order
 * (a key given twice: the last one wins, as in a shell rc file). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "tz.h"
#include "when.h"

#define CONFIG_MAX (256 * 1024)

struct config {
	char *path;
	char **keys, **values;
	size_t n;
};

const char *
config_default_path(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg == '/') {
		snprintf(buf, n, "%s/agentcron/config", xdg);
		return buf;
	}
	const char *home = getenv("HOME");
	snprintf(buf, n, "%s/.config/agentcron/config", home && *home ? home : ".");
	return buf;
}

/* Every key some part of agentcron reads (agentcron-config(5) has them
 * all): another is most likely a misspelling, which programs warn about.
 * A new key goes here and in the page. */
static const char *const known_keys[] = {
	"agent_attach_dirs", "agent_edit", "agent_max_calls", "agent_max_create",
	"agent_max_tasks", "agent_mcp", "agent_url_allow", "anthropic_api_key", "anthropic_base_url",
	"anthropic_model", "budget", "connect_timeout", "context_messages", "date_order", "db",
	"deadline", "deliver", "deliver_on", "deliver_secret", "deliver_timeout", "exec", "hook_rate",
	"hook_keep", "keep", "keep_runs", "model", "notify", "notify_on",
	"openai_api_key", "openai_base_url", "openai_model", "owner_timeout", "pass_claim_time",
	"provider", "retries",
	"max_concurrent", "run_timeout", "stagger", "tick_log_max", "timeout", "tz", "agent_deliver",
	"telegram_token", "telegram_base_url", "smtp_url", "smtp_user", "smtp_password",
	"mail_from", "sendmail", NULL,
};
/* Keys of the form PREFIX.NAME (per model, per server). */
static const char *const known_prefixes[] = {"concurrency.", "price.", "deliver.", "fallback.",
	NULL};

static int
key_known(const char *k)
{
	for (const char *const *p = known_keys; *p; p++)
		if (strcmp(*p, k) == 0)
			return 1;
	for (const char *const *p = known_prefixes; *p; p++)
		if (strncmp(*p, k, strlen(*p)) == 0 && k[strlen(*p)])
			return 1;
	return 0;
}

const char *
config_unknown(const struct config *c, size_t *pos)
{
	for (; c && *pos < c->n; (*pos)++)
		if (!key_known(c->keys[*pos]))
			return c->keys[(*pos)++];
	return NULL;
}

static int
is_secret(const char *k)
{
	/* Delivery targets and their credentials are secrets too: a Slack
	 * webhook's URL is its token. */
	size_t n = strlen(k);
	return (n >= 4 && strcmp(k + n - 4, "_key") == 0) ||
	    (n >= 6 && strcmp(k + n - 6, "_token") == 0) ||
	    (n >= 7 && strcmp(k + n - 7, "_secret") == 0) ||
	    (n >= 9 && strcmp(k + n - 9, "_password") == 0) ||
	    strncmp(k, "deliver.", 8) == 0 || strcmp(k, "smtp_url") == 0;
}

/* What of a secret key's value to keep out of outputs: of a delivery
 * target, the URL that is its token (not a mail address, a chat id or a
 * command, which are no secret and too common to scrub). */
static const char *
secret_part(const char *k, const char *v)
{
	static const char *const kinds[] = {"webhook:", "slack:", "ntfy:"};
	if (strncmp(k, "deliver.", 8) != 0)
		return v;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strncmp(v, kinds[i], strlen(kinds[i])) == 0)
			return v + strlen(kinds[i]);
	return NULL;
}

const char *
config_secret_next(const struct config *c, size_t *pos)
{
	for (; c && *pos < c->n; (*pos)++) {
		const char *v;
		if (is_secret(c->keys[*pos]) && (v = secret_part(c->keys[*pos], c->values[*pos]))) {
			(*pos)++;
			return v;
		}
	}
	return NULL;
}

int
config_tz(const struct config *c, struct err *e)
{
	const char *tz = config_get(c, "tz");
	if (!tz || getenv("TZ"))
		return ST_OK;
	if (!tz_valid_name(tz))
		return err_set(e, ST_INVALID, "config '%s': tz '%s' is not a zone the system knows"
		    " (see /usr/share/zoneinfo)", c->path, tz);
	if (setenv("TZ", tz, 1) != 0)
		return err_set(e, ST_ERR, "cannot set TZ: %s", strerror(errno));
	return ST_OK;
}

/* After a '.', a model's name as providers spell it (llama3.2:3b,
 * openai/gpt-4o): price.MODEL and the like. */
static int
key_ok(const char *k)
{
	if (!*k)
		return 0;
	int model = 0;
	for (; *k; k++) {
		model |= *k == '.';
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') ||
		    *k == '_' || *k == '-' || *k == '.' || (model && strchr(":/@+", *k))))
			return 0;
	}
	return 1;
}


static void
add(struct config *c, const char *k, const char *v)
{
	for (size_t i = 0; i < c->n; i++) {
		if (strcmp(c->keys[i], k) == 0) {
			set_str(&c->values[i], v);
			return;
		}
	}
	c->keys = xrealloc(c->keys, (c->n + 1) * sizeof *c->keys);
	c->values = xrealloc(c->values, (c->n + 1) * sizeof *c->values);
	c->keys[c->n] = xstrdup(k);
	c->values[c->n] = xstrdup(v);
	c->n++;
}

/* One line, modified in place.  Values may be wrapped in matching quotes so
 * that leading or trailing blanks and '#' survive. */
static int
parse_line(struct config *c, char *line, int lineno, int *secret, struct err *e)
{
	char *p = str_trim(line);
	if (!*p || *p == '#')
		return ST_OK;
	char *eq = strchr(p, '=');
	if (!eq)
		return err_set(e, ST_INVALID, "%s:%d: expected 'key = value'", c->path, lineno);
	*eq = 0;
	char *k = str_trim(p), *v = str_trim(eq + 1);
	if (!key_ok(k))
		return err_set(e, ST_INVALID, "%s:%d: bad key '%.64s' (letters, digits, '_', '-', '.';"
		    " after a '.', a model's ':', '/', '@', '+' too)",
		    c->path, lineno, k);
	size_t n = strlen(v);
	if (n && (v[0] == '"' || v[0] == '\'')) {
		if (n < 2 || v[n - 1] != v[0])
			return err_set(e, ST_INVALID, "%s:%d: unterminated quote in the value of '%s'",
			    c->path, lineno, k);
		v[n - 1] = 0;
		v++;
	} else {
		/* A '#' after a blank starts a comment. */
		for (char *q = v; *q; q++) {
			if (*q == '#' && q > v && (q[-1] == ' ' || q[-1] == '\t')) {
				*q = 0;
				str_trim(v);
				break;
			}
		}
	}
	if (is_secret(k) && *v)
		*secret = 1;
	add(c, k, v);
	return ST_OK;
}

/* "config 'PATH'", or "'PATH'" for a file without a name. */
static void
subject(char *buf, size_t n, const char *what, const char *path)
{
	snprintf(buf, n, "%s%s'%s'", what, *what ? " " : "", path);
}

int
config_read_private(const char *what, const char *path, size_t max, struct buf *b,
    unsigned *mode, struct err *e)
{
	char it[PATH_MAX + 64];
	subject(it, sizeof it, what, path);
	/* O_NONBLOCK: a FIFO put there opens at once, to be refused below. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return err_set(e, errno == ENOENT || errno == ENOTDIR ? ST_NOTFOUND : ST_ERR,
		    "cannot read %s: %s", it, strerror(errno));
	struct stat sb;
	int rc = ST_OK;
	if (fstat(fd, &sb) != 0) {
		rc = err_set(e, ST_ERR, "cannot read %s: %s", it, strerror(errno));
	} else if (!S_ISREG(sb.st_mode)) {
		rc = err_set(e, ST_INVALID, "%s is not a regular file", it);
	} else if (sb.st_uid != geteuid() && sb.st_uid != 0) {
		rc = err_set(e, ST_INVALID, "%s belongs to another user; refusing to use it", it);
	} else if (sb.st_mode & 022) {
		rc = err_set(e, ST_INVALID, "%s can be changed by group or others; run: chmod 600 '%s'",
		    it, path);
	} else if (fcntl(fd, F_SETFL, 0) != 0 || (errno = 0, buf_read_fd(b, fd, max)) != 0) {
		rc = errno ? err_set(e, ST_ERR, "cannot read %s: %s", it, strerror(errno))
			   : err_set(e, ST_INVALID, "%s is larger than %zu bytes", it, max);
	}
	close(fd);
	if (rc) {
		buf_wipe(b);
		return rc;
	}
	if (!b->data)
		buf_puts(b, "");
	*mode = (unsigned)sb.st_mode & 07777;
	return ST_OK;
}

int
config_private_secret(const char *what, const char *path, unsigned mode, const char *holds,
    struct err *e)
{
	char it[PATH_MAX + 64];
	subject(it, sizeof it, what, path);
	if (!(mode & 044))
		return ST_OK;
	return err_set(e, ST_INVALID, "%s holds %s and group or others can read it; run: chmod 600"
	    " '%s'", it, holds, path);
}

int
config_load_file(const char *path, struct config **out, struct err *e)
{
	struct config *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	struct buf b = {0};
	unsigned mode = 0;
	int rc = config_read_private("config", path, CONFIG_MAX, &b, &mode, e), secret = 0;
	if (rc == ST_NOTFOUND) {
		*out = c;
		return ST_OK;
	}
	if (!rc && memchr(b.data, 0, b.len))
		rc = err_set(e, ST_INVALID, "config '%s' is not a text file", path);
	/* strtok_r would merge empty lines and break the numbering. */
	char *save = NULL;
	int lineno = 0;
	for (char *p = b.data; !rc && p && *p; p = save) {
		char *nl = strchr(p, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		lineno++;
		rc = parse_line(c, p, lineno, &secret, e);
	}
	buf_wipe(&b);
	if (!rc && secret)
		rc = config_private_secret("config", path, mode, "an API key", e);
	if (rc) {
		config_free(c);
		return rc;
	}
	*out = c;
	return ST_OK;
}

int
config_load(struct config **out, struct err *e)
{
	char path[PATH_MAX];
	return config_load_file(config_default_path(path, sizeof path), out, e);
}

const char *
config_get(const struct config *c, const char *key)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->keys[i], key) == 0)
			return c->values[i];
	return NULL;
}

const char *
config_path(const struct config *c)
{
	return c->path;
}

void
config_free(struct config *c)
{
	if (!c)
		return;
	/* Values may be keys. */
	for (size_t i = 0; i < c->n; i++) {
		explicit_bzero(c->values[i], strlen(c->values[i]));
		free(c->keys[i]);
		free(c->values[i]);
	}
	free(c->keys);
	free(c->values);
	free(c->path);
	free(c);
}

int
config_when_flags(unsigned *flags, struct err *e)
{
	struct config *c;
	struct err sub;
	int rc = config_load(&c, e);
	if (rc)
		return rc;
	if ((rc = when_date_order(config_get(c, "date_order"), flags, &sub)))
		err_set(e, rc, "%s: %s", config_path(c), sub.msg);
	config_free(c);
	return rc;
}

int
config_stagger(const struct config *c, int *secs, struct err *e)
{
	const char *v = c ? config_get(c, "stagger") : NULL;
	int64_t n = 0;
	struct err sub;
	*secs = 0;
	if (!v || !*v || strcmp(v, "0") == 0 || strcmp(v, "off") == 0 || strcmp(v, "none") == 0)
		return ST_OK;
	if (when_span(v, &n, &sub) || n > CONFIG_STAGGER_MAX)
		return err_set(e, ST_INVALID, "%s: bad stagger '%.40s': a duration up to a day, such as "
		    "5m or 90s, or off", config_path(c), v);
	*secs = (int)n;
	return ST_OK;
}

int
config_stagger_load(int *secs, struct err *e)
{
	struct config *c;
	int rc = config_load(&c, e);
	if (rc)
		return rc;
	rc = config_stagger(c, secs, e);
	config_free(c);
	return rc;
}

/* A limit's value: a whole number from 1 to 100000. */
static int
limit_of(const char *v)
{
	char *end;
	long n = v ? strtol(v, &end, 10) : 0;
	return v && *v && !*end && n >= 1 && n <= 100000 ? (int)n : -1;
}

int
config_limits(const struct config *c, int *max_all, struct err *e)
{
	*max_all = 0;
	for (size_t i = 0; c && i < c->n; i++) {
		int model = strncmp(c->keys[i], "concurrency.", 12) == 0;
		if (!model && strcmp(c->keys[i], "max_concurrent") != 0)
			continue;
		int n = limit_of(c->values[i]);
		if (n < 0 || (model && !c->keys[i][12]))
			return err_set(e, ST_INVALID, "%s: bad %s '%.40s': a number of runs from 1 to 100000",
			    c->path, c->keys[i], c->values[i]);
		if (!model)
			*max_all = n;
	}
	return ST_OK;
}

int
config_model_limit(const struct config *c, const char *model)
{
	if (!c || !model || !*model)
		return 0;
	char key[160];
	snprintf(key, sizeof key, "concurrency.%s", model);
	int n = limit_of(config_get(c, key));
	return n > 0 ? n : 0;
}
