/* llm_setup.c: settings, the user's message, the conversation and the
 * rounds of tool calls of llm-call's model call (llm_setup.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "history.h"
#include "http.h"
#include "llm_setup.h"
#include "tools.h"

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

int
llm_setup_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

int
llm_setup_count(const char *s, int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

int
llm_setup_option(cJSON *options, const char *kv, struct err *e)
{
	static const char *const reserved[] = {"model", "messages", "system", "stream",
		"stream_options", "tools"};
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return err_set(e, ST_INVALID, "-o wants KEY=VALUE, not '%s'", kv);
	char key[64];
	if ((size_t)(eq - kv) >= sizeof key)
		return err_set(e, ST_INVALID, "-o key too long in '%s'", kv);
	snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
	for (const char *p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '_' || *p == '-' || *p == '.'))
			return err_set(e, ST_INVALID, "-o key '%s' is not a plain name", key);
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(key, reserved[i]) == 0)
			return err_set(e, ST_INVALID, "-o %s is set by llm-call itself%s", key,
			    strcmp(key, "model") == 0 ? "; use -m" : strcmp(key, "system") == 0 ? "; use -s"
			    : strcmp(key, "tools") == 0 ? "; use --tools" : "");
	const char *end = NULL;
	cJSON *v = cJSON_ParseWithOpts(eq + 1, &end, 1);
	if (!v)
		v = cJSON_CreateString(eq + 1);
	cJSON_DeleteItemFromObjectCaseSensitive(options, key);
	cJSON_AddItemToObject(options, key, v);
	return ST_OK;
}

int
llm_setup_env(struct llm_setup *s, struct err *e)
{
	if (!s->system)
		s->system = env("TASK_SYSTEM_PROMPT");
	if (!s->context)
		s->context = env("TASK_CONTEXT");
	const char *v = env("TASK_ATTACHMENTS");
	if (s->nattach || !v)
		return ST_OK;
	cJSON *a = cJSON_Parse(v);
	const cJSON *it;
	int bad = !cJSON_IsArray(a);
	cJSON_ArrayForEach(it, a)
		bad |= !cJSON_IsString(it);
	if (bad) {
		cJSON_Delete(a);
		return err_set(e, ST_INVALID, "TASK_ATTACHMENTS is not a JSON array of strings");
	}
	free(s->attach);
	s->attach = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *s->attach);
	cJSON_ArrayForEach(it, a)
		s->attach[s->nattach++] = it->valuestring;
	cJSON_Delete(s->env_attach);
	s->env_attach = a;
	return ST_OK;
}

/* The key from a file of its own, refused when others can read it. */
static int
read_key_file(const char *path, char **key, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return err_set(e, ST_INVALID, "cannot read key file '%s': %s", path, strerror(errno));
	struct stat sb;
	struct buf b = {0};
	int rc = ST_OK;
	if (fstat(fd, &sb) != 0)
		rc = err_set(e, ST_INVALID, "cannot read key file '%s': %s", path, strerror(errno));
	else if (sb.st_mode & 077)
		rc = err_set(e, ST_INVALID,
		    "key file '%s' can be read by group or others; run: chmod 600 '%s'", path, path);
	else if (buf_read_fd(&b, fd, 16384) != 0)
		rc = err_set(e, ST_INVALID, "cannot read key file '%s'", path);
	close(fd);
	if (!rc) {
		char *nl = strchr(b.data, '\n');
		if (nl)
			*nl = 0;
		str_trim(b.data);
		if (!*b.data)
			rc = err_set(e, ST_INVALID, "key file '%s' is empty", path);
		*key = xstrdup(b.data);
	}
	if (b.data)
		memset(b.data, 0, b.cap);
	buf_free(&b);
	return rc;
}

static int
key_clean(const char *k)
{
	for (; *k; k++)
		if ((unsigned char)*k < 0x21 || *k == 0x7f)
			return 0;
	return 1;
}

/* Provider, model, URL and key: flags, then environment, then config. */
static int
resolve(struct llm_setup *s, const struct config *cf, struct err *e)
{
	struct llm_config *lc = &s->lc;
	char ck[64];
	const char *model = s->model ? s->model : env("TASK_MODEL");
	int p = -1;
	if (s->provider && (p = llm_provider_parse(s->provider)) < 0)
		return err_set(e, ST_INVALID, "unknown provider '%s' (openai or anthropic)", s->provider);
	if (p < 0 && model)
		p = llm_provider_for_model(model);
	const char *cprov = config_get(cf, "provider");
	if (p < 0 && cprov && *cprov && (p = llm_provider_parse(cprov)) < 0)
		return err_set(e, ST_INVALID, "%s: unknown provider '%s' (openai or anthropic)",
		    config_path(cf), cprov);
	if (p < 0 && !model) {
		const char *cm = config_get(cf, "model");
		p = cm ? llm_provider_for_model(cm) : -1;
	}
	if (p < 0)
		p = !env("OPENAI_API_KEY") && !config_get(cf, "openai_api_key") &&
		    (env("ANTHROPIC_API_KEY") || config_get(cf, "anthropic_api_key")) ? LLM_ANTHROPIC
		    : LLM_OPENAI;
	const char *name = llm_provider_name(p);
	if (!model) {
		snprintf(ck, sizeof ck, "%s_model", name);
		model = config_get(cf, ck);
	}
	if (!model) {
		/* The general model only where it fits this provider. */
		const char *cm = config_get(cf, "model");
		int mp = cm ? llm_provider_for_model(cm) : -1;
		if (cm && *cm && (mp < 0 || mp == p))
			model = cm;
	}
	lc->provider = p;
	lc->model = model && *model ? model : llm_default_model(p);

	const char *url = s->base_url;
	if (!url)
		url = env(p == LLM_ANTHROPIC ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL");
	snprintf(ck, sizeof ck, "%s_base_url", name);
	if (!url)
		url = config_get(cf, ck);
	lc->base_url = url && *url ? url : llm_default_url(p);
	if (str_casecmp_prefix(lc->base_url, "http://") && str_casecmp_prefix(lc->base_url, "https://"))
		return err_set(e, ST_INVALID, "base URL '%s' is not an http or https URL", lc->base_url);

	const char *kenv = llm_key_env(p), *k;
	char *hint = s->hint;
	size_t hintn = sizeof s->hint;
	snprintf(ck, sizeof ck, "%s_api_key", name);
	if (s->key_file) {
		int rc = read_key_file(s->key_file, &s->key, e);
		if (rc)
			return rc;
		snprintf(hint, hintn, "the key in %s", s->key_file);
	} else if ((k = env(kenv))) {
		s->key = xstrdup(k);
		snprintf(hint, hintn, "%s", kenv);
	} else if ((k = config_get(cf, ck)) && *k) {
		s->key = xstrdup(k);
		snprintf(hint, hintn, "%s in %s", ck, config_path(cf));
	} else if (strcmp(lc->base_url, llm_default_url(p)) == 0) {
		/* Only the provider's own service surely needs one; a local or
		 * self-hosted server may not. */
		return err_set(e, ST_INVALID, "no API key for %s: set %s, or %s in %s", name, kenv, ck,
		    config_path(cf));
	} else {
		snprintf(hint, hintn, "%s", kenv);
	}
	if (s->key && !key_clean(s->key))
		return err_set(e, ST_INVALID, "the %s key (%s) holds spaces or control characters", name,
		    hint);
	lc->api_key = s->key;
	lc->key_hint = hint;
	return ST_OK;
}

/* Settings of the call itself: timeouts and retries. */
static int
resolve_limits(struct llm_setup *s, const struct config *cf, struct err *e)
{
	struct llm_config *lc = &s->lc;
	double t = s->timeout, ct = s->connect_timeout;
	int retries = s->retries;
	const char *v;
	if (t <= 0 && (v = config_get(cf, "timeout")) && llm_setup_seconds(v, &t))
		return err_set(e, ST_INVALID, "%s: timeout '%s' is not a number of seconds",
		    config_path(cf), v);
	if (ct <= 0 && (v = config_get(cf, "connect_timeout")) && llm_setup_seconds(v, &ct))
		return err_set(e, ST_INVALID, "%s: connect_timeout '%s' is not a number of seconds",
		    config_path(cf), v);
	if (retries < 0 && (v = config_get(cf, "retries")) && llm_setup_count(v, 20, &retries))
		return err_set(e, ST_INVALID, "%s: retries '%s' is not a number from 0 to 20",
		    config_path(cf), v);
	lc->timeout_ms = t > 0 ? (long)(t * 1000) : 300000;
	lc->connect_timeout_ms = ct > 0 ? (long)(ct * 1000) : 10000;
	if (lc->connect_timeout_ms > lc->timeout_ms)
		lc->connect_timeout_ms = lc->timeout_ms;
	lc->retries = retries >= 0 ? retries : LLM_SETUP_RETRIES;
	return ST_OK;
}

int
llm_setup_resolve(struct llm_setup *s, const struct config *cf, struct err *e)
{
	int rc;
	if ((rc = resolve(s, cf, e)) || (rc = resolve_limits(s, cf, e)))
		return rc;
	s->lc.system = s->system;
	s->lc.options = s->options;
	if (!s->http && (rc = http_new(&s->http, e)))
		return rc;
	s->lc.http = s->http;
	return ST_OK;
}

/* Text attachments inlined with their names, then the prompt; images go
 * alongside as image parts. */
int
llm_setup_message(struct llm_setup *s, const char *prompt, struct err *e)
{
	s->natts = s->nattach;
	s->atts = xcalloc(s->nattach ? s->nattach : 1, sizeof *s->atts);
	s->imgs = xcalloc(s->nattach ? s->nattach : 1, sizeof *s->imgs);
	s->nimg = 0;
	for (size_t i = 0; i < s->nattach; i++) {
		struct llm_attachment *a = &s->atts[i];
		int rc = llm_attach_load(s->http, s->attach[i], s->lc.timeout_ms, a, e);
		if (rc)
			return rc;
		if (a->mime) {
			s->imgs[s->nimg++] = (struct llm_image){a->mime, a->data, a->len};
		} else {
			buf_printf(&s->text, "<attachment name=\"%s\">\n", a->name);
			buf_add(&s->text, (const char *)a->data, a->len);
			if (a->len && a->data[a->len - 1] != '\n')
				buf_puts(&s->text, "\n");
			buf_puts(&s->text, "</attachment>\n\n");
		}
	}
	buf_puts(&s->text, prompt);
	return ST_OK;
}

int
llm_setup_conversation(struct llm_setup *s, struct store *st, struct err *e)
{
	int p = s->lc.provider;
	if (!s->messages)
		s->messages = cJSON_CreateArray();
	if (s->context) {
		struct history_msg *h;
		size_t nh;
		int rc = history_load(st, s->context, LLM_SETUP_HISTORY, &h, &nh, e);
		if (rc)
			return rc;
		for (size_t i = 0; i < nh; i++) {
			if (strcmp(h[i].role, "user") == 0)
				llm_msg_user(p, s->messages, h[i].content, NULL, 0);
			else
				llm_msg_assistant_text(p, s->messages, h[i].content);
		}
		history_free(h, nh);
	}
	llm_msg_user(p, s->messages, s->text.data, s->imgs, s->nimg);
	return ST_OK;
}

int
llm_setup_tools(struct llm_setup *s, struct store *st, const char *profiles, struct err *e)
{
	unsigned set;
	int rc = tools_profiles_parse(profiles, &set, e);
	if (!rc)
		rc = tools_open(st, set, &s->tl, e);
	if (rc)
		return rc;
	cJSON *list = tools_list(s->tl);
	s->tools = llm_tools_convert(s->lc.provider, list, &s->names);
	cJSON_Delete(list);
	s->tool_calls = 0;
	return ST_OK;
}

/* The model's tool calls of one round, answered through the scheduler's
 * tools; ST_OK unless the store itself fails. */
static int
run_tools(struct llm_setup *s, const struct llm_result *r, struct err *e)
{
	char **texts = xcalloc(r->ncalls, sizeof *texts);
	int *errs = xcalloc(r->ncalls, sizeof *errs);
	int rc = ST_OK;
	for (size_t i = 0; i < r->ncalls && !rc; i++) {
		const char *tool = llm_tool_name(s->names, r->calls[i].name);
		cJSON *args = cJSON_Parse(r->calls[i].args);
		if (!tool) {
			texts[i] = xasprintf("Unknown tool '%s'.", r->calls[i].name);
			errs[i] = 1;
		} else if (!cJSON_IsObject(args)) {
			texts[i] = xasprintf("The arguments of '%s' are not a JSON object.", r->calls[i].name);
			errs[i] = 1;
		} else {
			rc = tools_call(s->tl, tool, args, &texts[i], &errs[i], e);
		}
		cJSON_Delete(args);
	}
	if (!rc)
		llm_msg_tool_results(s->lc.provider, s->messages, r, texts, errs);
	for (size_t i = 0; i < r->ncalls; i++)
		free(texts[i]);
	free(texts);
	free(errs);
	return rc;
}

int
llm_setup_run(struct llm_setup *s, struct llm *l, int max_rounds, struct llm_result *r,
    struct err *e)
{
	long in_total = -1, out_total = -1;
	int rc;
	for (int round = 0;; round++) {
		llm_result_free(r);
		if ((rc = llm_send(l, s->messages, s->tools, r, e)))
			break;
		if (r->input_tokens >= 0)
			in_total = (in_total > 0 ? in_total : 0) + r->input_tokens;
		if (r->output_tokens >= 0)
			out_total = (out_total > 0 ? out_total : 0) + r->output_tokens;
		if (!s->tl || !r->ncalls)
			break;
		if (round >= max_rounds) {
			rc = err_set(e, ST_ERR, "the model still calls tools after %d rounds (--max-rounds)",
			    max_rounds);
			break;
		}
		s->tool_calls += (int)r->ncalls;
		llm_msg_assistant(s->lc.provider, s->messages, r);
		if ((rc = run_tools(s, r, e)))
			break;
	}
	r->input_tokens = in_total;
	r->output_tokens = out_total;
	return rc;
}

void
llm_setup_free(struct llm_setup *s)
{
	for (size_t i = 0; s->atts && i < s->natts; i++)
		llm_attach_free(&s->atts[i]);
	free(s->atts);
	free(s->imgs);
	buf_free(&s->text);
	cJSON_Delete(s->messages);
	tools_close(s->tl);
	cJSON_Delete(s->tools);
	cJSON_Delete(s->names);
	cJSON_Delete(s->env_attach);
	cJSON_Delete(s->options);
	http_free(s->http);
	free(s->attach);
	if (s->key) {
		memset(s->key, 0, strlen(s->key));
		free(s->key);
	}
	memset(s, 0, sizeof *s);
}
