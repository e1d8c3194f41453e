/* taskargs.c: the task fields as command-line options (taskargs.h): the
 * flags task-add and task-edit share, read (taskargs_apply.c applies them
 * to a task). */
#include <stdlib.h>
#include <string.h>

#include "taskargs.h"
#include "when.h"

enum {
	OPT_DAILY = 256, OPT_WEEKLY, OPT_MANUAL, OPT_HEARTBEAT, OPT_ENABLED, OPT_DISABLED,
	OPT_INTENT, OPT_CHANNEL, OPT_PAYLOAD, OPT_JITTER, OPT_NOTIFY, OPT_UNTIL,
	OPT_COUNT, OPT_EVERY, OPT_FROM, OPT_NOT_BEFORE, OPT_DELIVER, OPT_GATE, OPT_AFTER,
	OPT_WORDS, /* and one each after it: the word lists (task_fields.h) */
	OPT_INPUTS = OPT_WORDS + WORD_LISTS, /* and one each after it: task_inputs */
};

/* The letters of task_inputs follow. */
static const char task_shortopts[] = "n:p:s:c:a:P:z:m:e:k:A:C:";

static const struct option task_options[] = {
	{"name", required_argument, NULL, 'n'},
	{"prompt", required_argument, NULL, 'p'},
	{"system", required_argument, NULL, 's'},
	{"cron", required_argument, NULL, 'c'},
	{"at", required_argument, NULL, 'a'},
	{"plan", required_argument, NULL, 'P'},
	{"daily", required_argument, NULL, OPT_DAILY},
	{"weekly", required_argument, NULL, OPT_WEEKLY},
	{"manual", no_argument, NULL, OPT_MANUAL},
	{"heartbeat", no_argument, NULL, OPT_HEARTBEAT},
	{"tz", required_argument, NULL, 'z'},
	{"enable", no_argument, NULL, OPT_ENABLED},
	{"disable", no_argument, NULL, OPT_DISABLED},
	{"disabled", no_argument, NULL, OPT_DISABLED},
	{"context", required_argument, NULL, 'C'},
	{"attach", required_argument, NULL, 'A'},
	{"model", required_argument, NULL, 'm'},
	{"exec", required_argument, NULL, 'e'},
	{"intent", required_argument, NULL, OPT_INTENT},
	{"channel", required_argument, NULL, OPT_CHANNEL},
	{"payload", required_argument, NULL, OPT_PAYLOAD},
	{"key", required_argument, NULL, 'k'},
	{"jitter", required_argument, NULL, OPT_JITTER},
	{"notify", required_argument, NULL, OPT_NOTIFY},
	{"until", required_argument, NULL, OPT_UNTIL},
	{"count", required_argument, NULL, OPT_COUNT},
	{"every", required_argument, NULL, OPT_EVERY},
	{"from", required_argument, NULL, OPT_FROM},
	{"not-before", required_argument, NULL, OPT_NOT_BEFORE},
	{"deliver", required_argument, NULL, OPT_DELIVER},
	{"gate", required_argument, NULL, OPT_GATE},
	{"after", required_argument, NULL, OPT_AFTER},
	{0, 0, 0, 0},
};

void
taskargs_init(struct task_args *a)
{
	memset(a, 0, sizeof *a);
	a->enabled = -1;
}

void
taskargs_free(struct task_args *a)
{
	free(a->plan);
	free(a->attach);
	for (int i = 0; i < WORD_LISTS; i++) {
		free(a->words[i]);
		a->words[i] = NULL;
	}
	free(a->deliver);
	a->deliver = NULL;
	free(a->after);
	a->after = NULL;
	for (size_t i = 0; i < a->nweeklies; i++)
		free(a->weeklies[i]);
	free(a->weeklies);
	free(a->dailies);
	free(a->crons);
	a->crons = a->dailies = NULL;
	a->weeklies = NULL;
	a->plan = a->attach = NULL;
}

/* The options that give a schedule when it fires, as task-when previews
 * them: a subset of task_options, with their short letters. */
static const char *const schedule_names[] = {"cron", "at", "plan", "daily", "weekly", "every",
	"not-before", "jitter", NULL};
static const char schedule_shortopts[] = "c:a:P:";

static int
is_schedule_option(const char *name)
{
	for (const char *const *p = schedule_names; *p; p++)
		if (strcmp(*p, name) == 0)
			return 1;
	return 0;
}

struct option *
taskargs_options_of(int which, const struct option *extra, const char *extra_short,
    char *shortopts, size_t n)
{
	char letters[2 * TASK_INPUTS_MAX + 1] = "";
	size_t nl = 0;
	for (size_t i = 0; i < ntask_inputs && which == TASKARGS_ALL; i++) {
		if (task_inputs[i].letter) {
			letters[nl++] = task_inputs[i].letter;
			letters[nl++] = ':';
		}
	}
	letters[nl] = 0;
	snprintf(shortopts, n, ":%s%s%s", which == TASKARGS_SCHEDULE ? schedule_shortopts :
	    task_shortopts, letters, extra_short);
	size_t own = sizeof task_options / sizeof task_options[0] - 1, m = 0, k = 0;
	while (extra[m].name)
		m++;
	struct option *all = xcalloc(own + WORD_LISTS + ntask_inputs + m + 1, sizeof *all);
	for (size_t i = 0; i < own; i++)
		if (which == TASKARGS_ALL || is_schedule_option(task_options[i].name))
			all[k++] = task_options[i];
	for (int i = 0; i < WORD_LISTS && which == TASKARGS_ALL; i++)
		all[k++] = (struct option){word_lists[i].flag, required_argument, NULL, OPT_WORDS + i};
	for (size_t i = 0; i < ntask_inputs && which == TASKARGS_ALL; i++)
		all[k++] = (struct option){task_inputs[i].flag, required_argument, NULL,
		    task_inputs[i].letter ? task_inputs[i].letter : OPT_INPUTS + (int)i};
	memcpy(all + k, extra, m * sizeof *all);
	return all;
}

struct option *
taskargs_options(const struct option *extra, const char *extra_short, char *shortopts, size_t n)
{
	return taskargs_options_of(TASKARGS_ALL, extra, extra_short, shortopts, n);
}

static void
push(const char ***list, size_t *n, const char *v)
{
	*list = xrealloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = v;
}

/* --cron, --daily and --weekly combine into one schedule: one kind. */
static void
cron_given(struct task_args *a, const char *flag)
{
	if (a->cron_given++)
		return;
	if (a->nkinds < (int)(sizeof a->kinds / sizeof a->kinds[0]))
		a->kinds[a->nkinds] = flag;
	a->nkinds++;
}

static void
kind_given(struct task_args *a, const char *flag)
{
	if (a->nkinds < (int)(sizeof a->kinds / sizeof a->kinds[0]))
		a->kinds[a->nkinds] = flag;
	a->nkinds++;
}

int
taskargs_take(struct task_args *a, int opt, const char *arg, char **argv, int argc, int *optind)
{
	switch (opt) {
	case 'n': a->name = arg; break;
	case 'p': a->prompt = arg; break;
	case 's': a->system_prompt = arg; break;
	case 'c': push(&a->crons, &a->ncrons, arg); cron_given(a, "--cron"); break;
	case 'a': a->at = arg; kind_given(a, "--at"); break;
	case 'P':
		/* Repeated --plan flags are one schedule. */
		if (!a->nplan)
			kind_given(a, "--plan");
		push(&a->plan, &a->nplan, arg);
		break;
	case OPT_DAILY: push(&a->dailies, &a->ndailies, arg); cron_given(a, "--daily"); break;
	case OPT_WEEKLY: {
		int h, m;
		struct err ignored;
		cron_given(a, "--weekly");
		a->weeklies = xrealloc(a->weeklies, (a->nweeklies + 1) * sizeof *a->weeklies);
		/* "--weekly mon 09:00": the time is the next word. */
		if (!strchr(arg, ' ') && *optind < argc && when_clock(argv[*optind], &h, &m, &ignored) ==
		    ST_OK)
			a->weeklies[a->nweeklies++] = xasprintf("%s %s", arg, argv[(*optind)++]);
		else
			a->weeklies[a->nweeklies++] = xstrdup(arg);
		break;
	}
	case OPT_MANUAL: a->manual = 1; kind_given(a, "--manual"); break;
	case OPT_HEARTBEAT: a->heartbeat = 1; kind_given(a, "--heartbeat"); break;
	case 'z': a->tz = arg; break;
	case OPT_ENABLED: a->enabled = 1; break;
	case OPT_DISABLED: a->enabled = 0; break;
	case 'C': a->context = arg; break;
	case 'A': push(&a->attach, &a->nattach, arg); break;
	case 'm': a->model = arg; break;
	case 'e': a->exec = arg; break;
	case OPT_INTENT: a->intent = arg; break;
	case OPT_CHANNEL: a->channel = arg; break;
	case OPT_PAYLOAD: a->payload = arg; break;
	case 'k': a->key = arg; break;
	case OPT_JITTER: a->jitter = arg; break;
	case OPT_NOTIFY: a->notify = arg; break;
	case OPT_GATE: a->gate = arg; break;
	case OPT_UNTIL: a->until = arg; break;
	case OPT_COUNT: a->count = arg; break;
	case OPT_EVERY: a->every = arg; kind_given(a, "--every"); break;
	case OPT_FROM: a->from = arg; break;
	case OPT_NOT_BEFORE: a->not_before = arg; break;
	case OPT_DELIVER: push(&a->deliver, &a->ndeliver, arg); break;
	case OPT_AFTER: push(&a->after, &a->nafter, arg); break;
	default:
		for (size_t i = 0; i < ntask_inputs; i++) {
			if (opt == (task_inputs[i].letter ? task_inputs[i].letter : OPT_INPUTS + (int)i)) {
				a->in[i] = arg;
				return 1;
			}
		}
		if (opt < OPT_WORDS || opt >= OPT_WORDS + WORD_LISTS)
			return 0;
		push(&a->words[opt - OPT_WORDS], &a->nwords[opt - OPT_WORDS], arg);
	}
	return 1;
}

/* --help's layout: an option from column 3, its text from HELP_COL (or
 * three spaces after a longer option), words wrapped before HELP_WIDTH. */
enum { HELP_COL = 25, HELP_WIDTH = 79 };
#define NBSP '\001' /* a space that does not break a line ("-t, --timeout") */

static void
help_words(struct buf *b, size_t col, size_t indent, const char *text)
{
	for (int first = 1; *text; first = 0) {
		size_t n = strcspn(text, " ");
		if (!first && col + 1 + n > HELP_WIDTH) {
			buf_printf(b, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			buf_puts(b, " ");
			col++;
		}
		for (size_t i = 0; i < n; i++)
			buf_printf(b, "%c", text[i] == NBSP ? ' ' : text[i]);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	buf_puts(b, "\n");
}

static void
help_option(struct buf *b, char letter, const char *flag, const char *arg, const char *help)
{
	char opt[96];
	if (letter)
		snprintf(opt, sizeof opt, "  -%c, --%s %s", letter, flag, arg);
	else
		snprintf(opt, sizeof opt, "      --%s %s", flag, arg);
	size_t len = strlen(opt);
	size_t col = len + 2 <= HELP_COL ? HELP_COL : len + 3;
	buf_printf(b, "%s%*s", opt, (int)(col - len), "");
	help_words(b, col, HELP_COL, help);
}

void
taskargs_help(struct buf *b, int flags_only)
{
	struct buf list = {0};
	for (size_t i = 0; i < ntask_inputs; i++) {
		const struct task_input *in = &task_inputs[i];
		if (flags_only && in->letter)
			buf_printf(&list, "%s-%c,%c--%s", list.len ? ", " : "", in->letter, NBSP, in->flag);
		else if (flags_only)
			buf_printf(&list, "%s--%s", list.len ? ", " : "", in->flag);
		else
			help_option(b, in->letter, in->flag, in->arg, in->help);
	}
	for (int i = 0; i < WORD_LISTS; i++) {
		const struct word_list *wl = &word_lists[i];
		if (flags_only)
			buf_printf(&list, "%s--%s", list.len ? ", " : "", wl->flag);
		else
			help_option(b, 0, wl->flag, wl->arg, wl->help);
	}
	if (flags_only) {
		buf_puts(b, "  ");
		help_words(b, 2, 2, list.data ? list.data : "");
	}
	buf_free(&list);
}
