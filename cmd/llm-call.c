/* llm-call: send a prompt to a model and print the answer.
 *
 * The prompt comes from the arguments, else standard input (task-tick's
 * way).  Settings come from flags, then the environment (TASK_* from
 * task-tick, the providers' own *_API_KEY and *_BASE_URL), then the config
 * file, so a job started by cron with an almost empty environment still
 * finds its key.  Keys are only ever put in request headers.  Every call is
 * recorded in the store; with --context the conversation's earlier messages
 * are sent along and this exchange is added to them.  With --tools the
 * model may call the scheduler's own tools, in rounds, until it answers. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "history.h"
#include "llm.h"
#include "store.h"
#include "tools.h"
#include "util.h"

#define PROMPT_MAX (16L * 1024 * 1024)
#define HISTORY_MAX 100         /* messages of a context sent along */
#define DEFAULT_RETRIES 3
#define DEFAULT_ROUNDS 8

struct opts {
	const char *system, *model, *provider, *context, *base_url, *key_file, *tools;
	const char **attach;
	size_t nattach;
	cJSON *options;
	int json, stream, no_log, max_rounds, retries;
	double timeout, connect_timeout;
};

/* What streaming output needs to end on a newline. */
struct sink {
	char last;
	int any;
};

static const char *prog = "llm-call";

static int
fail(int status, const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	return status;
}

static const char *
env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static int
parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

static int
parse_count(const char *s, int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/* -o KEY=VALUE: VALUE is JSON when it reads as JSON (numbers, true, an
 * object ...), else a string. */
static int
add_option(cJSON *options, const char *kv, struct err *e)
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

static void
on_text(const char *text, size_t n, void *arg)
{
	struct sink *s = arg;
	fwrite(text, 1, n, stdout);
	fflush(stdout);
	s->last = text[n - 1];
	s->any = 1;
}

static long
elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)((t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000);
}

/* The user's message: text attachments inlined with their names, then the
 * prompt; images go alongside as image parts. */
static int
build_user_text(const char *prompt, const struct opts *o, long timeout_ms, struct buf *text,
    struct llm_attachment **atts, struct llm_image **imgs, size_t *nimg, struct err *e)
{
	*atts = xcalloc(o->nattach ? o->nattach : 1, sizeof **atts);
	*imgs = xcalloc(o->nattach ? o->nattach : 1, sizeof **imgs);
	*nimg = 0;
	for (size_t i = 0; i < o->nattach; i++) {
		struct llm_attachment *a = &(*atts)[i];
		int rc = llm_attach_load(o->attach[i], timeout_ms, a, e);
		if (rc)
			return rc;
		if (a->mime) {
			(*imgs)[(*nimg)++] = (struct llm_image){a->mime, a->data, a->len};
		} else {
			buf_printf(text, "<attachment name=\"%s\">\n", a->name);
			buf_add(text, (const char *)a->data, a->len);
			if (a->len && a->data[a->len - 1] != '\n')
				buf_puts(text, "\n");
			buf_puts(text, "</attachment>\n\n");
		}
	}
	buf_puts(text, prompt);
	return ST_OK;
}

/* TASK_ATTACHMENTS: a JSON array of strings. */
static int
env_attachments(struct opts *o, cJSON **keep, struct err *e)
{
	const char *v = env("TASK_ATTACHMENTS");
	*keep = NULL;
	if (!v)
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
	free(o->attach);
	o->attach = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *o->attach);
	cJSON_ArrayForEach(it, a)
		o->attach[o->nattach++] = it->valuestring;
	*keep = a;
	return ST_OK;
}

/* Provider, model, URL and key: flags, then environment, then config. */
static int
resolve(const struct opts *o, const struct config *cf, struct llm_config *lc, char **key,
    char *hint, size_t hintn, struct err *e)
{
	char ck[64];
	const char *model = o->model ? o->model : env("TASK_MODEL");
	int p = -1;
	if (o->provider && (p = llm_provider_parse(o->provider)) < 0)
		return err_set(e, ST_INVALID, "unknown provider '%s' (openai or anthropic)", o->provider);
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

	const char *url = o->base_url;
	if (!url)
		url = env(p == LLM_ANTHROPIC ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL");
	snprintf(ck, sizeof ck, "%s_base_url", name);
	if (!url)
		url = config_get(cf, ck);
	lc->base_url = url && *url ? url : llm_default_url(p);
	if (str_casecmp_prefix(lc->base_url, "http://") && str_casecmp_prefix(lc->base_url, "https://"))
		return err_set(e, ST_INVALID, "base URL '%s' is not an http or https URL", lc->base_url);

	const char *kenv = llm_key_env(p), *k;
	snprintf(ck, sizeof ck, "%s_api_key", name);
	*key = NULL;
	if (o->key_file) {
		int rc = read_key_file(o->key_file, key, e);
		if (rc)
			return rc;
		snprintf(hint, hintn, "the key in %s", o->key_file);
	} else if ((k = env(kenv))) {
		*key = xstrdup(k);
		snprintf(hint, hintn, "%s", kenv);
	} else if ((k = config_get(cf, ck)) && *k) {
		*key = xstrdup(k);
		snprintf(hint, hintn, "%s in %s", ck, config_path(cf));
	} else if (strcmp(lc->base_url, llm_default_url(p)) == 0) {
		/* Only the provider's own service surely needs one; a local or
		 * self-hosted server may not. */
		return err_set(e, ST_INVALID, "no API key for %s: set %s, or %s in %s", name, kenv, ck,
		    config_path(cf));
	} else {
		snprintf(hint, hintn, "%s", kenv);
	}
	if (*key && !key_clean(*key))
		return err_set(e, ST_INVALID, "the %s key (%s) holds spaces or control characters", name,
		    hint);
	lc->api_key = *key;
	lc->key_hint = hint;
	return ST_OK;
}

/* Settings of the call itself: timeouts and retries. */
static int
resolve_limits(const struct opts *o, const struct config *cf, struct llm_config *lc, struct err *e)
{
	double t = o->timeout, ct = o->connect_timeout;
	int retries = o->retries;
	const char *v;
	if (t <= 0 && (v = config_get(cf, "timeout")) && parse_seconds(v, &t))
		return err_set(e, ST_INVALID, "%s: timeout '%s' is not a number of seconds",
		    config_path(cf), v);
	if (ct <= 0 && (v = config_get(cf, "connect_timeout")) && parse_seconds(v, &ct))
		return err_set(e, ST_INVALID, "%s: connect_timeout '%s' is not a number of seconds",
		    config_path(cf), v);
	if (retries < 0 && (v = config_get(cf, "retries")) && parse_count(v, 20, &retries))
		return err_set(e, ST_INVALID, "%s: retries '%s' is not a number from 0 to 20",
		    config_path(cf), v);
	lc->timeout_ms = t > 0 ? (long)(t * 1000) : 300000;
	lc->connect_timeout_ms = ct > 0 ? (long)(ct * 1000) : 10000;
	if (lc->connect_timeout_ms > lc->timeout_ms)
		lc->connect_timeout_ms = lc->timeout_ms;
	lc->retries = retries >= 0 ? retries : DEFAULT_RETRIES;
	return ST_OK;
}

static int
read_prompt(int argc, char **argv, struct buf *prompt, struct err *e)
{
	if (argc > 0) {
		for (int i = 0; i < argc; i++) {
			if (i)
				buf_puts(prompt, " ");
			buf_puts(prompt, argv[i]);
		}
	} else {
		if (isatty(0))
			return err_set(e, ST_INVALID, "no prompt: give it as arguments or on standard input");
		errno = 0;
		if (buf_read_fd(prompt, 0, (size_t)PROMPT_MAX) != 0)
			return errno ? err_set(e, ST_ERR, "cannot read the prompt: %s", strerror(errno))
				     : err_set(e, ST_INVALID, "the prompt is larger than %ld MiB",
					 PROMPT_MAX >> 20);
	}
	if (str_empty(prompt->data))
		return err_set(e, ST_INVALID, "the prompt is empty");
	if (!llm_is_utf8((const unsigned char *)prompt->data, prompt->len))
		return err_set(e, ST_INVALID, "the prompt is not UTF-8 text");
	return ST_OK;
}

/* The model's tool calls of one round, answered through the scheduler's
 * tools; ST_OK unless the store itself fails. */
static int
run_tools(struct tools *tl, const cJSON *names, int provider, cJSON *messages,
    const struct llm_result *r, struct err *e)
{
	char **texts = xcalloc(r->ncalls, sizeof *texts);
	int *errs = xcalloc(r->ncalls, sizeof *errs);
	int rc = ST_OK;
	for (size_t i = 0; i < r->ncalls && !rc; i++) {
		const char *tool = llm_tool_name(names, r->calls[i].name);
		cJSON *args = cJSON_Parse(r->calls[i].args);
		if (!tool) {
			texts[i] = xasprintf("Unknown tool '%s'.", r->calls[i].name);
			errs[i] = 1;
		} else if (!cJSON_IsObject(args)) {
			texts[i] = xasprintf("The arguments of '%s' are not a JSON object.", r->calls[i].name);
			errs[i] = 1;
		} else {
			rc = tools_call(tl, tool, args, &texts[i], &errs[i], e);
		}
		cJSON_Delete(args);
	}
	if (!rc)
		llm_msg_tool_results(provider, messages, r, texts, errs);
	for (size_t i = 0; i < r->ncalls; i++)
		free(texts[i]);
	free(texts);
	free(errs);
	return rc;
}

static void
print_json(const struct llm_config *lc, const struct llm_result *r, const char *context,
    long latency, long long id, int tool_calls)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "answer", r->text ? r->text : "");
	cJSON_AddStringToObject(j, "provider", llm_provider_name(lc->provider));
	cJSON_AddStringToObject(j, "model", r->model ? r->model : lc->model);
	cJSON *u = cJSON_AddObjectToObject(j, "usage");
	if (r->input_tokens >= 0)
		cJSON_AddNumberToObject(u, "input_tokens", (double)r->input_tokens);
	else
		cJSON_AddNullToObject(u, "input_tokens");
	if (r->output_tokens >= 0)
		cJSON_AddNumberToObject(u, "output_tokens", (double)r->output_tokens);
	else
		cJSON_AddNullToObject(u, "output_tokens");
	if (r->finish_reason)
		cJSON_AddStringToObject(j, "finish_reason", r->finish_reason);
	else
		cJSON_AddNullToObject(j, "finish_reason");
	cJSON_AddNumberToObject(j, "latency_ms", (double)latency);
	cJSON_AddNumberToObject(j, "attempts", r->attempts);
	if (context)
		cJSON_AddStringToObject(j, "context", context);
	if (tool_calls >= 0)
		cJSON_AddNumberToObject(j, "tool_calls", tool_calls);
	if (id > 0)
		cJSON_AddNumberToObject(j, "id", (double)id);
	char *s = cJSON_PrintUnformatted(j);
	if (s)
		puts(s);
	free(s);
	cJSON_Delete(j);
}

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: llm-call [-s SYSTEM] [-m MODEL] [-a FILE|URL]... [-o KEY=VALUE]...\n"
	    "                [--provider openai|anthropic] [--base-url URL] [--key-file FILE]\n"
	    "                [--context NAME] [--tools[=PROFILES]] [--max-rounds N] [--json]\n"
	    "                [--stream | --no-stream] [--timeout SECONDS] [--connect-timeout SECONDS]\n"
	    "                [--retries N] [-n] [PROMPT ...]\n"
	    "Send PROMPT (else standard input) to a model and print the answer.\n"
	    "  -s, --system TEXT        system prompt (default $TASK_SYSTEM_PROMPT)\n"
	    "  -m, --model NAME         model (default $TASK_MODEL, config, %s or %s)\n"
	    "  -a, --attach FILE|URL    text file, image (PNG, JPEG, GIF, WebP) or URL; repeatable\n"
	    "  -o, --option KEY=VALUE   request field such as temperature=0.2 or max_tokens=500\n"
	    "  -p, --provider NAME      openai or anthropic (default: from the model name)\n"
	    "      --base-url URL       provider URL (default $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL)\n"
	    "      --key-file FILE      read the API key from FILE (mode 600)\n"
	    "  -c, --context NAME       continue the named conversation (default $TASK_CONTEXT)\n"
	    "      --tools[=PROFILES]   let the model use the scheduler tools (native,kai,...)\n"
	    "      --max-rounds N       tool-call rounds before giving up (default %d)\n"
	    "      --json               print one JSON object with answer, model, usage, latency\n"
	    "      --stream, --no-stream  print the answer as it arrives (default on a terminal)\n"
	    "      --timeout SECONDS    for each attempt (default 300)\n"
	    "      --connect-timeout SECONDS  (default 10)\n"
	    "      --retries N          further attempts on 429, 5xx and network errors (default %d)\n"
	    "  -n, --no-log             do not record the call in the store\n"
	    "Keys: OPENAI_API_KEY, ANTHROPIC_API_KEY or the config file %s.\n",
	    LLM_OPENAI_MODEL, LLM_ANTHROPIC_MODEL, DEFAULT_ROUNDS, DEFAULT_RETRIES,
	    "$XDG_CONFIG_HOME/agentcron/config");
}

int
main(int argc, char **argv)
{
	enum { O_PROVIDER = 256, O_BASE_URL, O_KEY_FILE, O_TOOLS, O_MAX_ROUNDS, O_JSON, O_STREAM,
		O_NO_STREAM, O_TIMEOUT, O_CONNECT_TIMEOUT, O_RETRIES, O_HELP, O_VERSION };
	static const struct option longopts[] = {
		{"system", required_argument, NULL, 's'},
		{"model", required_argument, NULL, 'm'},
		{"attach", required_argument, NULL, 'a'},
		{"option", required_argument, NULL, 'o'},
		{"provider", required_argument, NULL, 'p'},
		{"base-url", required_argument, NULL, O_BASE_URL},
		{"key-file", required_argument, NULL, O_KEY_FILE},
		{"context", required_argument, NULL, 'c'},
		{"tools", optional_argument, NULL, O_TOOLS},
		{"max-rounds", required_argument, NULL, O_MAX_ROUNDS},
		{"json", no_argument, NULL, O_JSON},
		{"stream", no_argument, NULL, O_STREAM},
		{"no-stream", no_argument, NULL, O_NO_STREAM},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"connect-timeout", required_argument, NULL, O_CONNECT_TIMEOUT},
		{"retries", required_argument, NULL, O_RETRIES},
		{"no-log", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, O_HELP},
		{"version", no_argument, NULL, O_VERSION},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {.stream = -1, .max_rounds = DEFAULT_ROUNDS, .retries = -1};
	struct err e = {""};
	struct timespec t0 = {0, 0};
	o.options = cJSON_CreateObject();
	o.attach = xcalloc((size_t)argc + 1, sizeof *o.attach);
	int c, rc = ST_OK;
	char ebuf[128];
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:m:a:o:p:c:n", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.system = optarg; break;
		case 'm': o.model = optarg; break;
		case 'a': o.attach[o.nattach++] = optarg; break;
		case 'o':
			if ((rc = add_option(o.options, optarg, &e))) {
				fail(rc, e.msg);
				goto early;
			}
			break;
		case 'p': o.provider = optarg; break;
		case O_BASE_URL: o.base_url = optarg; break;
		case O_KEY_FILE: o.key_file = optarg; break;
		case 'c': o.context = optarg; break;
		case O_TOOLS: o.tools = optarg ? optarg : "native"; break;
		case O_MAX_ROUNDS:
			if (parse_count(optarg, 100, &o.max_rounds) || o.max_rounds < 1) {
				rc = fail(ST_INVALID, "--max-rounds wants a number from 1 to 100");
				goto early;
			}
			break;
		case O_JSON: o.json = 1; break;
		case O_STREAM: o.stream = 1; break;
		case O_NO_STREAM: o.stream = 0; break;
		case O_TIMEOUT:
			if (parse_seconds(optarg, &o.timeout)) {
				rc = fail(ST_INVALID, "--timeout wants a number of seconds");
				goto early;
			}
			break;
		case O_CONNECT_TIMEOUT:
			if (parse_seconds(optarg, &o.connect_timeout)) {
				rc = fail(ST_INVALID, "--connect-timeout wants a number of seconds");
				goto early;
			}
			break;
		case O_RETRIES:
			if (parse_count(optarg, 20, &o.retries)) {
				rc = fail(ST_INVALID, "--retries wants a number from 0 to 20");
				goto early;
			}
			break;
		case 'n': o.no_log = 1; break;
		case O_HELP: usage(stdout); goto early;
		case O_VERSION: printf("llm-call (agentcron) %s\n", AC_VERSION); goto early;
		default:
			fprintf(stderr, "%s: %s (try 'llm-call --help')\n", prog,
			    opt_error(ebuf, sizeof ebuf, c, argv));
			rc = ST_INVALID;
			goto early;
		}
	}
	argc -= optind;
	argv += optind;
	if (0) {
		/* Done before any work: --help, --version, a bad option.  The
		 * cleanup at the end would see variables not yet set. */
early:
		cJSON_Delete(o.options);
		free(o.attach);
		return rc;
	}

	struct config *cf = NULL;
	struct store *st = NULL;
	struct tools *tl = NULL;
	struct llm *l = NULL;
	struct buf prompt = {0}, text = {0};
	struct llm_attachment *atts = NULL;
	struct llm_image *imgs = NULL;
	size_t nimg = 0;
	cJSON *env_atts = NULL, *messages = cJSON_CreateArray(), *tools = NULL, *names = NULL;
	struct llm_result r = {0};
	struct llm_config lc = {0};
	struct sink sink = {0};
	char *key = NULL, hint[PATH_MAX + 64] = "";
	int64_t now = 0;
	int tool_calls = -1, called = 0, answered = 0;
	long latency = 0, in_total = -1, out_total = -1;

	if (!o.system)
		o.system = env("TASK_SYSTEM_PROMPT");
	if (!o.context)
		o.context = env("TASK_CONTEXT");
	if (!o.nattach && (rc = env_attachments(&o, &env_atts, &e)))
		goto done;
	if ((rc = read_prompt(argc, argv, &prompt, &e)))
		goto done;
	if ((rc = now_get(&now, &e)) || (rc = config_load(&cf, &e)))
		goto done;
	if ((rc = resolve(&o, cf, &lc, &key, hint, sizeof hint, &e)) ||
	    (rc = resolve_limits(&o, cf, &lc, &e)))
		goto done;
	lc.system = o.system;
	lc.options = o.options;
	lc.stream = o.stream >= 0 ? o.stream : !o.json && isatty(1);
	if (lc.stream && !o.json) {
		lc.on_text = on_text;
		lc.arg = &sink;
	}
	if ((rc = build_user_text(prompt.data, &o, lc.timeout_ms, &text, &atts, &imgs, &nimg, &e)))
		goto done;
	if (o.context || o.tools || !o.no_log) {
		if ((rc = store_open(NULL, &st, &e)))
			goto done;
		history_lazy_sync(st);
	}
	if (o.context) {
		struct history_msg *h;
		size_t nh;
		if ((rc = history_load(st, o.context, HISTORY_MAX, &h, &nh, &e)))
			goto done;
		for (size_t i = 0; i < nh; i++) {
			if (strcmp(h[i].role, "user") == 0)
				llm_msg_user(lc.provider, messages, h[i].content, NULL, 0);
			else
				llm_msg_assistant_text(lc.provider, messages, h[i].content);
		}
		history_free(h, nh);
	}
	llm_msg_user(lc.provider, messages, text.data, imgs, nimg);
	if (o.tools) {
		unsigned profiles;
		if ((rc = tools_profiles_parse(o.tools, &profiles, &e)) ||
		    (rc = tools_open(st, profiles, &tl, &e)))
			goto done;
		cJSON *list = tools_list(tl);
		tools = llm_tools_convert(lc.provider, list, &names);
		cJSON_Delete(list);
		tool_calls = 0;
	}
	if ((rc = llm_new(&lc, &l, &e)))
		goto done;
	/* Latency is the model's part: from the first request to the answer. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	called = 1;
	for (int round = 0;; round++) {
		llm_result_free(&r);
		if ((rc = llm_send(l, messages, tools, &r, &e)))
			break;
		if (r.input_tokens >= 0)
			in_total = (in_total > 0 ? in_total : 0) + r.input_tokens;
		if (r.output_tokens >= 0)
			out_total = (out_total > 0 ? out_total : 0) + r.output_tokens;
		if (!tl || !r.ncalls)
			break;
		if (round >= o.max_rounds) {
			rc = err_set(&e, ST_ERR, "the model still calls tools after %d rounds (--max-rounds)",
			    o.max_rounds);
			break;
		}
		tool_calls += (int)r.ncalls;
		llm_msg_assistant(lc.provider, messages, &r);
		if ((rc = run_tools(tl, names, lc.provider, messages, &r, &e)))
			break;
	}
	answered = rc == ST_OK;
	r.input_tokens = in_total;
	r.output_tokens = out_total;
	latency = elapsed_ms(&t0);
	if (sink.any && sink.last != '\n')
		putchar('\n');

done:;
	long long id = 0;
	if (called && st) {
		/* One transaction: one sync of the store per call. */
		struct err re = {""};
		const char *model = r.model ? r.model : lc.model;
		struct llm_call rec = {
			.run_id = (char *)env("TASK_RUN_ID"), .task_id = (char *)env("TASK_ID"),
			.context = (char *)o.context, .provider = (char *)llm_provider_name(lc.provider),
			.model = (char *)model, .system_prompt = (char *)o.system, .prompt = prompt.data,
			.answer = rc ? NULL : r.text, .input_tokens = rc ? -1 : r.input_tokens,
			.output_tokens = rc ? -1 : r.output_tokens, .finish_reason = rc ? NULL : r.finish_reason,
			.duration_ms = answered ? latency : elapsed_ms(&t0), .error = rc ? e.msg : NULL,
			.created_at = now,
		};
		int wrc = store_begin(st, &re);
		if (!wrc && !rc && o.context)
			wrc = history_append(st, o.context, text.data, r.text, rec.run_id, now, &re);
		if (!wrc && !o.no_log)
			wrc = history_record(st, &rec, &re);
		if (!wrc)
			wrc = store_commit(st, &re);
		else
			store_rollback(st);
		if (wrc && !rc) {
			rc = ST_ERR;
			snprintf(e.msg, sizeof e.msg, "cannot record the call: %.400s", re.msg);
		}
		id = rec.id;
	}
	/* Printed even when recording failed: the answer is not lost. */
	if (answered && !lc.on_text) {
		if (o.json) {
			print_json(&lc, &r, o.context, latency, id, tool_calls);
		} else {
			size_t n = strlen(r.text);
			fwrite(r.text, 1, n, stdout);
			if (!n || r.text[n - 1] != '\n')
				putchar('\n');
		}
	}
	if (fflush(stdout) != 0 && !rc) {
		rc = ST_ERR;
		snprintf(e.msg, sizeof e.msg, "cannot write the answer: %s", strerror(errno));
	}
	if (rc)
		fail(rc, e.msg);
	llm_result_free(&r);
	llm_free(l);
	if (tl)
		tools_close(tl);
	store_close(st);
	config_free(cf);
	for (size_t i = 0; atts && i < o.nattach; i++)
		llm_attach_free(&atts[i]);
	free(atts);
	free(imgs);
	cJSON_Delete(messages);
	cJSON_Delete(tools);
	cJSON_Delete(names);
	cJSON_Delete(env_atts);
	cJSON_Delete(o.options);
	free(o.attach);
	buf_free(&prompt);
	buf_free(&text);
	if (key) {
		memset(key, 0, strlen(key));
		free(key);
	}
	return rc;
}
