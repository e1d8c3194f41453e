/* task-add: create a task from flags, or import tasks as JSON objects from
 * standard input (`--json -`, the format task-ls --json prints).  An import
 * is one transaction: a bad object adds nothing.  A pending twin (a task
 * that would run the same thing) is refused, so a script never edits the
 * wrong task, or with --if-missing returned; a task with the same --key is
 * returned; --force adds anyway. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "chain.h"
#include "config.h"
#include "forecast.h"
#include "opt.h"
#include "prog.h"
#include "spend.h"
#include "store_audit.h"
#include "store.h"
#include "task_import.h"
#include "task_json.h"
#include "task_recur.h"
#include "taskargs.h"
#include "tz.h"
#include "utf8.h"

static const char prog[] = "task-add";

/* What an add prints, kept until the commit: an id printed for a task that
 * then failed to be written (a full disk) would be a lie that
 * `id=$(task-add ...)` believes. */
struct sink {
	int json, import;
	struct buf text;
	long added, dups;
	/* A task added from flags: its forecast, read before the commit. */
	struct store *st;
	const struct config *cf;
	int64_t now;
	struct buf warn;       /* stderr, after the commit */
	int failed;            /* the forecast could not be read: said in warn */
};

/* The forecast of t, when it is shown (a terminal, --json) or may warn
 * (a budget applies); 0 when none is made. */
static int
forecast_of(const struct task *t, struct sink *out, struct zones *zs, struct forecast *f)
{
	struct err e;
	if (out->import || !out->st)
		return 0;
	if (!out->json && !isatty(1) && str_empty(t->budget) &&
	    !(out->cf && config_get(out->cf, "budget")))
		return 0;
	if (forecast_task(out->st, out->cf, t, NULL, 1, zs, out->now, f, &e)) {
		buf_printf(&out->warn, "%s: warning: no forecast: %s\n", prog, e.msg);
		return 0;
	}
	char who[128], *name = utf8_clean(t->name, strlen(t->name));
	snprintf(who, sizeof who, "task %.8s \"%.60s\"", t->id, name);
	free(name);
	FILE *mem = NULL;
	char *text = NULL;
	size_t len = 0;
	if ((mem = open_memstream(&text, &len)) != NULL) {
		forecast_warnings(f, prog, who, mem);
		if (fclose(mem) == 0 && text)
			buf_puts(&out->warn, text);
	}
	free(text);
	return 1;
}

static void
report_added(const struct task *t, int is_dup, struct sink *out, struct zones *zs)
{
	is_dup ? out->dups++ : out->added++;
	struct forecast f;
	int forecast = forecast_of(t, out, zs, &f);
	if (out->json && !out->import) {
		cJSON *j = task_to_json(t, zs);
		if (forecast)
			cJSON_AddItemToObject(j, "forecast", forecast_json(&f));
		char *s = json_print_line(j);
		buf_printf(&out->text, "%s\n", s);
		free(s);
		cJSON_Delete(j);
	} else if (!isatty(1)) {
		buf_printf(&out->text, "%s\n", t->id);
	} else if (!out->import) {
		char desc[256], next[64];
		task_describe(t, zs, desc, sizeof desc);
		task_fmt_time(t, zs, t->next_run_at, TIME_WALL_ZONE, next, sizeof next);
		char *name = utf8_clean(t->name, strlen(t->name));
		buf_printf(&out->text, "%s task %s \"%s\"\n", is_dup ? "Existing" : "Added", t->id, name);
		buf_printf(&out->text, "  schedule: %s (%s)\n  next run: %s\n", desc, t->tz, next);
		struct budget b;
		struct err e;
		/* What the budget was read as, said back: "5" is not "$5". */
		if (t->budget && budget_parse(t->budget, &b, &e) == ST_OK && b.set) {
			budget_describe(&b, desc, sizeof desc);
			buf_printf(&out->text, "  budget:   %s\n", desc);
		}
		if (forecast && t->kind != KIND_MANUAL && t->kind != KIND_HEARTBEAT) {
			char line[512];
			forecast_line(&f, line, sizeof line);
			buf_printf(&out->text, "  forecast: %s\n", line);
		}
		free(name);
	}
}

/* After the commit. */
static int
print_added(struct sink *out, struct err *e)
{
	if (out->import && isatty(1))
		printf("Added %ld task%s%s\n", out->added, out->added == 1 ? "" : "s",
		    out->dups ? " (the others were there already)" : "");
	else
		fputs(out->text.data ? out->text.data : "", stdout);
	if (fflush(stdout) != 0)
		return err_set(e, ST_ERR, "added, but cannot print the result: %s", strerror(errno));
	fputs(out->warn.data ? out->warn.data : "", stderr);
	return ST_OK;
}

static int
same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* A pending task with t's schedule and intent is a twin only when it
 * would run the same thing: another name, executor, model or MCP servers
 * make it another task, which a script must not be handed as this one. */
static int
runs_the_same(const struct task *old, const struct task *t)
{
	return same_text(old->name, t->name) && same_text(old->prompt, t->prompt) &&
	    same_text(old->system_prompt, t->system_prompt) && same_text(old->exec, t->exec) &&
	    same_text(old->model, t->model) && same_text(old->mcp, t->mcp) &&
	    same_text(old->mcp_allow, t->mcp_allow) && same_text(old->context, t->context);
}

/* Add one finished task.  A twin is returned instead with if_missing (and
 * always for the same --key or an imported task already here), else
 * refused (ST_REFUSED), nothing added.  Inside a transaction. */
static int
add_one(struct store *st, struct task *t, int force, int if_missing, struct sink *out,
    const char *where, struct zones *zs, struct err *e)
{
	int is_dup = 0, rc, by_id = 0;
	char dup[37];
	if (t->after && (rc = chain_resolve(st, t, e)))
		return rc;
	if (t->id[0]) {
		/* An imported task that is already here is a twin too.  A twin
		 * is looked at, not held: a pass may claim it meanwhile. */
		struct task old;
		if (store_task_look(st, t->id, &old, e) == ST_OK) {
			task_free(&old);
			is_dup = by_id = 1;
			memcpy(dup, t->id, sizeof dup);
		}
	}
	if (!is_dup && (rc = store_task_add(st, t, !force, &is_dup, dup, e)))
		return rc;
	if (is_dup) {
		struct task old;
		if ((rc = store_task_look(st, dup, &old, e)))
			return rc;
		int by_key = t->key && old.key && strcmp(t->key, old.key) == 0;
		if (!by_id && !by_key && !runs_the_same(&old, t)) {
			task_free(&old);
			if ((rc = store_task_add(st, t, 0, &is_dup, dup, e)))
				return rc;
			report_added(t, 0, out, zs);
			return ST_OK;
		}
		if (!by_id && !by_key && !if_missing) {
			rc = err_set(e, ST_REFUSED, "%s%stask %s \"%.*s\" is the same, pending; not added"
			    " (--if-missing prints its id instead, --force adds another)", where ? where : "",
			    where ? ": " : "", old.id, (int)strcspn(old.name, "\r\n"), old.name);
			task_free(&old);
			return rc;
		}
		fprintf(stderr, "%s: %s%stask %s \"%.*s\" is the same; not added (--force adds anyway)\n",
		    prog, where ? where : "", where ? ": " : "", old.id, (int)strcspn(old.name, "\r\n"),
		    old.name);
		report_added(&old, 1, out, zs);
		task_free(&old);
		return ST_OK;
	}
	report_added(t, 0, out, zs);
	return ST_OK;
}

struct import_to {
	struct store *st;
	int force;
	struct sink *out;
	struct zones *zs;
	struct task_import_links links;
};

static int
import_one(struct task *t, const char *where, void *arg, struct err *e)
{
	struct import_to *to = arg;
	/* Its links once every task is in: it may follow one further down. */
	char *after = t->after;
	t->after = NULL;
	long added = to->out->added;
	int rc = add_one(to->st, t, to->force, 1, to->out, where, to->zs, e);
	if (!rc && to->out->added > added)
		task_import_defer(&to->links, t->id, &after, where);
	t->after = after; /* freed with t */
	return rc;
}

/* JSON objects (or arrays of them) from stdin, all or nothing. */
static int
import(struct store *st, int force, int64_t now, unsigned when_flags, struct zones *zs,
    struct err *e)
{
	struct buf in = {0};
	if (buf_read_fd(&in, 0, (size_t)1 << 31) != 0) {
		buf_free(&in);
		return err_set(e, ST_ERR, "cannot read standard input");
	}
	int rc = task_import_check(&in, e);
	if (rc) {
		buf_free(&in);
		return rc;
	}
	struct sink out = {.import = 1};
	struct import_to to = {st, force, &out, zs, {NULL, 0}};
	long count = 0;
	rc = store_begin(st, e);
	if (!rc)
		rc = task_import(&in, now, zs, when_flags, import_one, &to, &count, e);
	buf_free(&in);
	if (!rc)
		rc = task_import_link(st, &to.links, e);
	task_import_links_free(&to.links);
	if (!rc && count == 0)
		rc = err_set(e, ST_INVALID, "stdin: no JSON objects to add");
	if (!rc)
		rc = store_commit(st, e);
	if (rc) {
		store_rollback(st);
	} else {
		store_wake(st);
		rc = print_added(&out, e);
	}
	buf_free(&out.text);
	return rc;
}

/* The prompt from the arguments, else standard input, into *prompt. */
static int
read_prompt(int argc, char **argv, char **prompt, struct err *e)
{
	struct buf b = {0};
	if (argc > 0) {
		for (int i = 0; i < argc; i++)
			buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	} else if (isatty(0)) {
		return err_set(e, ST_INVALID, "no prompt: give it as an argument or on standard input");
	} else {
		/* Past the limit buf_read_fd fails with errno untouched. */
		errno = 0;
		if (buf_read_fd(&b, 0, 1 << 24) != 0) {
			buf_free(&b);
			return errno ? err_set(e, ST_ERR, "cannot read the prompt from standard input: %s",
			    strerror(errno)) : err_set(e, ST_INVALID, "the prompt on standard input is longer"
			    " than 16 MiB");
		}
		/* The store keeps it as a C string: cut there, and silently. */
		if (memchr(b.data, 0, b.len)) {
			buf_free(&b);
			return err_set(e, ST_INVALID, "the prompt holds a NUL byte; it must be text");
		}
	}
	*prompt = b.data ? b.data : xstrdup("");
	return ST_OK;
}

/* The task the flags describe, added to the store it opens into *st. */
static int
add_flags(struct task_args *a, int argc, char **argv, int force, int if_missing, int json,
    int64_t now, struct zones *zs, struct store **st, struct err *e)
{
	int rc = ST_OK;
	struct task t;
	int changed;
	char *prompt = NULL;
	task_init(&t);
	if (!a->prompt)
		rc = read_prompt(argc, argv, &prompt, e);
	if (!rc && prompt) {
		a->prompt = prompt;
		str_trim(prompt);
	}
	/* Validate fully before touching the store. */
	if (!rc)
		rc = taskargs_apply(a, &t, now, zs, &changed, e);
	if (!rc)
		rc = task_finalize(&t, 1, 1, now, zs, e);
	if (!rc)
		rc = task_recur_check(a, &t, e);
	struct config *cf = NULL;
	if (!rc)
		rc = config_load(&cf, e);
	if (!rc && !(rc = store_open(NULL, 0, st, e)))
		store_audit_by_user(*st);
	struct sink out = {.json = json, .st = *st, .cf = cf, .now = now};
	if (!rc && !(rc = store_begin(*st, e))) {
		rc = add_one(*st, &t, force, if_missing, &out, NULL, zs, e);
		rc = rc ? rc : store_commit(*st, e);
		if (rc) {
			store_rollback(*st);
		} else {
			store_wake(*st);
			rc = print_added(&out, e);
		}
	}
	buf_free(&out.text);
	buf_free(&out.warn);
	config_free(cf);
	task_free(&t);
	free(prompt);
	return rc;
}

static void
usage(FILE *f)
{
	struct buf settings = {0};
	taskargs_help(&settings, 0);
	fprintf(f,
	    "usage: task-add [options] SCHEDULE [PROMPT...]\n"
	    "       task-add --json - < tasks.jsonl\n"
	    "schedule (exactly one; --cron, --daily and --weekly combine):\n"
	    "  -c, --cron EXPR        5-field cron expression or @daily, @hourly, ...; repeat it\n"
	    "                         (or 'EXPR; EXPR') to fire at each one's instants\n"
	    "      --every DURATION   a fixed interval in real time (90m, 2h30m, 1d)\n"
	    "      --from WHEN        with --every: its first instant (default: now, to the minute)\n"
	    "  -a, --at WHEN          once: RFC 3339, '2026-12-01 09:00', 'tomorrow at 10am', 'in 2 hours'\n"
	    "  -P, --plan WHEN        a list of instants (repeat the flag)\n"
	    "      --daily TIME       every day at TIME (09:00, 9am, 6:30pm, noon); repeatable\n"
	    "      --weekly 'DAY TIME'  every DAY (mon,wed,...) at TIME; repeatable\n"
	    "      --manual           only when asked (task-run)\n"
	    "      --heartbeat        a standing addition to every heartbeat\n"
	    "      --until WHEN       end a recurring schedule: no run after WHEN\n"
	    "      --count N          end a recurring schedule after N occurrences\n"
	    "      --not-before WHEN  start a recurring schedule: no run before WHEN\n"
	    "task:\n"
	    "  -n, --name NAME        short description (default: the prompt's first words)\n"
	    "  -p, --prompt TEXT      the prompt (else the arguments, else standard input);\n"
	    "                         {{now}} {{slot}} {{date}} {{task}} {{attempt}}\n"
	    "                         {{last_answer}} {{input}} {{gate}} are filled in at each\n"
	    "                         run, '{{{{' writes '{{'\n"
	    "  -s, --system TEXT      system prompt\n"
	    "  -z, --tz ZONE          IANA zone the schedule is read in (default: local)\n"
	    "  -C, --context NAME     share a conversation across runs\n"
	    "  -A, --attach PATH|URL  hand a file or URL to the model (repeatable)\n"
	    "  -m, --model MODEL      -e, --exec COMMAND\n"
	    "      --gate COMMAND     run first: exit 0 goes on, its output in {{gate}} (else\n"
	    "                         after the prompt); 1 skips the run (no model call, no\n"
	    "                         failure); anything else fails it\n"
	    "      --intent, --channel TEXT, --payload JSON   routing data\n"
	    "  -k, --key KEY          idempotency key: the same key never adds twice\n"
	    "      --jitter DURATION  fire up to this long after each instant\n"
	    "      --notify COMMAND   is told of runs (and budget skips) as JSON\n"
	    "      --deliver TARGET   send each answer to TARGET (repeatable): webhook:URL,\n"
	    "                         slack:URL, ntfy:URL, telegram:CHAT_ID, mailto:ADDRESS,\n"
	    "                         exec:COMMAND, or @NAME of the config's deliver.NAME\n"
	    "      --after TASK[:success|failure|any]   run once each time a run of TASK ends\n"
	    "                         so (default success; repeatable), its answer as input;\n"
	    "                         alone, the task runs only then (as --manual)\n"
	    "      --disabled         add it disabled\n"
	    "settings:\n"
	    "%s"
	    "output:\n"
	    "  -f, --force            add even if a pending twin exists\n"
	    "      --if-missing       a pending twin (the same schedule, prompt, name, executor,\n"
	    "                         model and MCP servers) is no error: print its id, exit 0\n"
	    "                         (without it a twin is refused, exit 4)\n"
	    "  -j, --json             print the created task as JSON; with '-', read tasks as JSON\n"
	    "  -h, --help, -V, --version\n", settings.data ? settings.data : "");
	buf_free(&settings);
}

static int
task_add(int argc, char **argv)
{
	static const struct option extra[] = {
		{"force", no_argument, NULL, 'f'},
		{"if-missing", no_argument, NULL, 'M'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{0, 0, 0, 0},
	};
	char shortopts[64];
	struct option *opts = taskargs_options(extra, "fjhV", shortopts, sizeof shortopts);
	struct task_args a;
	taskargs_init(&a);
	a.creating = 1;
	int force = 0, if_missing = 0, json = 0, fields = 0, c, rc = ST_OK;
	char msg[128];
	while ((c = opt_next(argc, argv, shortopts, opts, msg, sizeof msg)) != -1) {
		if (taskargs_take(&a, c, optarg, argv, argc, &optind)) {
			fields++;
			continue;
		}
		switch (c) {
		case 'f': force = 1; break;
		case 'M': if_missing = 1; break;
		case 'j': json = 1; break;
		case 'h': usage(stdout); rc = -1; goto done;
		case 'V': printf("%s (agentcron) %s\n", prog, AC_VERSION); rc = -1; goto done;
		default:
			rc = usage_error(prog, "%s", msg);
			goto done;
		}
	}
	argc -= optind;
	argv += optind;

	struct err e = {{0}};
	int64_t now;
	struct store *st = NULL;
	struct zones *zs = zones_new();
	int importing = json && argc == 1 && strcmp(argv[0], "-") == 0;
	/* A task that only follows others runs when they end: manual otherwise. */
	if (a.nafter && a.nkinds == 0) {
		a.manual = 1;
		a.kinds[a.nkinds++] = "--manual";
	}
	if (importing && fields) {
		rc = err_set(&e, ST_INVALID, "with --json -, the fields come from the JSON objects; drop the task flags");
	} else if (!importing && a.nkinds == 0) {
		rc = err_set(&e, ST_INVALID,
		    "no schedule: give --cron, --at, --plan, --daily, --weekly, --every, --manual or"
		    " --heartbeat");
	} else if (!importing && a.prompt && argc) {
		rc = err_set(&e, ST_INVALID, "give the prompt once: --prompt or arguments, not both");
	}
	if (!rc)
		rc = now_get(&now, &e);
	if (!rc)
		rc = config_when_flags(&a.when_flags, &e);
	int stagger;
	if (!rc && !(rc = config_stagger_load(&stagger, &e)))
		zones_set_stagger(zs, stagger);
	if (!rc && importing) {
		if (!(rc = store_open(NULL, 0, &st, &e))) {
			store_audit_by_user(st);
			rc = import(st, force, now, a.when_flags, zs, &e);
		}
	} else if (!rc) {
		rc = add_flags(&a, argc, argv, force, if_missing, json, now, zs, &st, &e);
	}
	if (rc)
		fprintf(stderr, "%s: %s\n", prog, e.msg);
	store_close(st);
	zones_free(zs);
done:
	taskargs_free(&a);
	free(opts);
	return rc < 0 ? 0 : rc;
}

int
main(int argc, char **argv)
{
	int rc = prog_start(prog);
	return prog_end(prog, rc ? rc : task_add(argc, argv));
}
