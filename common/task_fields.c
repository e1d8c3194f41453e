/* task_fields.c: the tables of a task's and a run's fields (task_fields.h)
 * and the rows a store reads and writes through them. */
#include <stdlib.h>
#include <string.h>

#include "store_run.h"
#include "task.h"
#include "task_fields.h"

#define T(m) offsetof(struct task, m), sizeof(((struct task *)0)->m)
#define R(m) offsetof(struct run, m), sizeof(((struct run *)0)->m)
#define NONE 0, 0
#define STR(x) STR_(x)    /* a number's macro as a string, for --help texts */
#define STR_(x) #x

static const struct field_enum kinds = {task_kind_name, task_kind_parse, -1};
static const struct field_enum statuses = {task_status_name, task_status_parse, -1};
static const struct field_enum misseds = {task_missed_name, task_missed_parse, MISSED_ONCE};
static const struct field_enum overlaps = {task_overlap_name, task_overlap_parse, OVERLAP_QUEUE};
static const struct field_enum run_statuses = {run_status_name, run_status_parse, -1};
static const struct field_enum triggers = {run_trigger_name, run_trigger_parse, -1};

/* In the order of their JSON objects; the columns follow it too. */
static const struct field task_table[] = {
	/* JSON name           column                 type           member                    flags, names */
	{"id",                  "id",                  FT_ID,         T(id),                    F_IN, NULL},
	{"name",                "name",                FT_STR,        T(name),                  F_IN, NULL},
	{"prompt",              "prompt",              FT_STR,        T(prompt),                F_IN, NULL},
	{"system_prompt",       "system_prompt",       FT_STR,        T(system_prompt),         F_IN, NULL},
	{"kind",                "kind",                FT_ENUM,       T(kind),                  F_IN, &kinds},
	{"cron",                "cron",                FT_STR,        T(cron),                  F_IN | F_FIRST, NULL},
	{"crons",               NULL,                  FT_CRONS,      NONE,                     F_IN | F_OMIT, NULL},
	{"every",               "every",               FT_OPT_INT,    T(every),                 F_IN | F_OMIT, NULL},
	{"anchor",              "anchor",              FT_TIME,       T(anchor),                F_IN | F_WHEN | F_OMIT, NULL},
	{"at",                  NULL,                  FT_AT,         NONE,                     F_IN, NULL},
	{"plan",                "plan",                FT_PLAN,       NONE,                     F_IN, NULL},
	{"tz",                  "tz",                  FT_STR,        T(tz),                    F_IN, NULL},
	{"description",         NULL,                  FT_DESCRIPTION,NONE,                     0, NULL},
	{"enabled",             "enabled",             FT_BOOL,       T(enabled),               F_IN, NULL},
	{"status",              "status",              FT_ENUM,       T(status),                F_IN, &statuses},
	{"next_run_at",         "next_run_at",         FT_TIME,       T(next_run_at),           F_IN, NULL},
	{"due_at",              "due_at",              FT_TIME,       T(due_at),                0, NULL},
	{"last_run_at",         "last_run_at",         FT_TIME,       T(last_run_at),           F_IN, NULL},
	{"last_status",         "last_status",         FT_STR,        T(last_status),           F_IN, NULL},
	{"last_error",          "last_error",          FT_STR,        T(last_error),            F_IN, NULL},
	{"last_result",         "last_result",         FT_STR,        T(last_result),           F_IN, NULL},
	{"consecutive_failures","consecutive_failures",FT_INT,        T(consecutive_failures),  F_IN, NULL},
	{"context",             "context",             FT_STR,        T(context),               F_IN, NULL},
	{"attachments",         "attachments",         FT_ARRAY,      T(attachments),           F_IN, NULL},
	{"model",               "model",               FT_STR,        T(model),                 F_IN, NULL},
	{"fallback_models",     "fallback_models",     FT_ARRAY,      T(fallback_models),       F_IN | F_OMIT, NULL},
	{"exec",                "exec",                FT_STR,        T(exec),                  F_IN | F_COMMAND, NULL},
	{"gate",                "gate",                FT_STR,        T(gate),                  F_IN | F_COMMAND | F_OMIT, NULL},
	{"gate_timeout",        "gate_timeout",        FT_OPT_INT,    T(gate_timeout),          F_IN | F_OMIT, NULL},
	{"timeout",             "timeout",             FT_INT,        T(timeout),               F_IN, NULL},
	{"retries",             "retries",             FT_INT,        T(retries),               F_IN, NULL},
	{"intent",              "intent",              FT_STR,        T(intent),                F_IN, NULL},
	{"channel",             "channel",             FT_STR,        T(channel),               F_IN, NULL},
	{"payload",             "payload",             FT_OBJECT,     T(payload),               F_IN, NULL},
	{"key",                 "idem_key",            FT_STR,        T(key),                   F_IN, NULL},
	{"missed",              "missed",              FT_ENUM,       T(missed),                F_IN, &misseds},
	{"jitter",              "jitter",              FT_INT,        T(jitter),                F_IN, NULL},
	{"stagger",             "stagger",             FT_OPT_INT,    T(stagger),               F_IN | F_OMIT, NULL},
	{"overlap",             "overlap",             FT_ENUM,       T(overlap),               F_IN, &overlaps},
	{"deadline",            "deadline",            FT_INT,        T(deadline),              F_IN, NULL},
	{"pause_after",         "pause_after",         FT_INT,        T(pause_after),           F_IN, NULL},
	{"paused",              "paused",              FT_STR,        T(paused),                F_IN, NULL},
	{"notify",              "notify",              FT_STR,        T(notify),                F_IN | F_COMMAND, NULL},
	{"notify_on",           "notify_on",           FT_STR,        T(notify_on),             F_IN, NULL},
	{"deliver",             "deliver",             FT_ARRAY,      T(deliver),               F_IN | F_OMIT, NULL},
	{"deliver_on",          "deliver_on",          FT_STR,        T(deliver_on),            F_IN | F_OMIT, NULL},
	{"after",               "after_tasks",         FT_ARRAY,      T(after),                 F_IN | F_OMIT, NULL},
	{"budget",              "budget",              FT_STR,        T(budget),                F_IN, NULL},
	{"queued",              "queued",              FT_BOOL,       T(queued),                F_IN, NULL},
	{"not_before",          "not_before",          FT_TIME,       T(not_before),            F_IN | F_WHEN | F_OMIT, NULL},
	{"until",               "until_at",            FT_TIME,       T(until_at),              F_IN | F_WHEN, NULL},
	{"count",               "count",               FT_INT,        T(count),                 F_IN, NULL},
	{"ends_at",             "ends_at",             FT_TIME,       T(ends_at),               F_IN, NULL},
	{"mcp",                 "mcp",                 FT_ARRAY,      T(mcp),                   F_IN, NULL},
	{"mcp_allow",           "mcp_allow",           FT_ARRAY,      T(mcp_allow),             F_IN, NULL},
	{"scope",               "scope",               FT_STR,        T(scope),                 F_IN, NULL},
	{"origin",              "origin",              FT_STR,        T(origin),                F_IN, NULL},
	{"keep",                "keep",                FT_STR,        T(keep),                  F_IN | F_OMIT, NULL},
	{"comment",             "comment",             FT_STR,        T(comment),               F_IN | F_OMIT, NULL},
	{"created_at",          "created_at",          FT_TIME,       T(created_at),            F_IN, NULL},
	{"updated_at",          "updated_at",          FT_TIME,       T(updated_at),            F_IN, NULL},
	{"deleted_at",          "deleted_at",          FT_TIME,       T(deleted_at),            F_IN, NULL},
	{NULL,                  "arming",              FT_INT,        T(arming),                0, NULL},
	{NULL,                  "budget_noticed",      FT_TIME,       T(budget_noticed),        0, NULL},
	{NULL,                  "output_hash",         FT_STR,        T(output_hash),           0, NULL},
	{NULL,                  "dedup",               FT_DEDUP,      NONE,                     0, NULL},
	{NULL,                  "last_success_at",     FT_TIME,       T(last_success_at),       0, NULL},
	{NULL,                  "run_in_flight",       FT_CHARS,      T(run_in_flight),         F_GUARD, NULL},
};

static const struct field run_table[] = {
	{"id",                  "id",                  FT_ID,         R(id),                    F_IN, NULL},
	{"task_id",             "task_id",             FT_ID,         R(task_id),               F_IN, NULL},
	{"slot",                "slot",                FT_TIME,       R(slot),                  F_IN, NULL},
	{"trigger",             "trigger",             FT_ENUM,       R(trigger),               F_IN, &triggers},
	{"status",              "status",              FT_ENUM,       R(status),                F_IN | F_END, &run_statuses},
	{"started_at",          "started_at",          FT_TIME,       R(started_at),            F_IN, NULL},
	{"ended_at",            "ended_at",            FT_TIME,       R(ended_at),              F_IN | F_END, NULL},
	{"exit_code",           "exit_code",           FT_OPT_INT,    R(exit_code),             F_IN | F_END, NULL},
	{"duration_ms",         "duration_ms",         FT_OPT_I64,    R(duration_ms),           F_IN | F_END, NULL},
	{"attempt",             "attempt",             FT_INT,        R(attempt),               F_IN, NULL},
	{NULL,                  "arming",              FT_INT,        R(arming),                0, NULL},
	{NULL,                  "lease_until",         FT_TIME,       R(lease_until),           0, NULL},
	{NULL,                  "prev_status",         FT_CHARS,      R(prev_status),           0, NULL},
	{"note",                "note",                FT_STR,        R(note),                  F_IN | F_OMIT | F_LARGE, NULL},
	{"output",              "output",              FT_STR,        R(output),                F_IN | F_OMIT | F_LARGE | F_END, NULL},
	{"error",               "error",               FT_STR,        R(error),                 F_IN | F_OMIT | F_LARGE | F_END, NULL},
};

const struct word_list word_lists[WORD_LISTS] = {
	/* JSON name and MCP argument, flag, a word, the words, task-show's line, member */
	[WL_MCP] = {"mcp", "mcp", "server name", "server names", "mcp servers:",
		offsetof(struct task, mcp), "NAME[,NAME]",
		"MCP servers of mcp.json its runs may use (repeatable)"},
	[WL_MCP_ALLOW] = {"mcp_allow", "mcp-allow", "pattern", "tool patterns", "mcp allow:",
		offsetof(struct task, mcp_allow), "GLOB", "only the MCP tools matching (repeatable)"},
	[WL_FALLBACK] = {"fallback_models", "fallback-model", "model", "model names", "fallbacks:",
		offsetof(struct task, fallback_models), "MODEL", "asked instead when the provider says "
		"the model does not exist or is retired (repeatable, in order)"},
};

static const char *const overlap_names[] = {"queue", "skip", "replace", NULL};

/* A comment is a line of task-show and of a crontab-like listing. */
static int
comment_check(const char *v, struct err *e)
{
	if (strpbrk(v, "\r\n"))
		return err_set(e, ST_INVALID, "comment must be one line");
	if (strlen(v) > TASK_COMMENT_MAX)
		return err_set(e, ST_INVALID, "comment is longer than %d bytes", TASK_COMMENT_MAX);
	return ST_OK;
}

/* The flags' order is the MCP arguments' order: their schemas follow the
 * other arguments of task_create and task_update. */
const struct task_input task_inputs[] = {
	{"timeout", "timeout", 't', IN_SECONDS, 1, 0, NULL, NULL, NULL, NULL,
		SHOW_SECONDS, SHOW_AT_RUN, "timeout:", NULL, NULL, NULL, NULL,
		"DURATION", "how long a run may take before it is ended"},
	{"gate_timeout", "gate-timeout", 0, IN_SECONDS, 1, -1, NULL, NULL, NULL, NULL,
		SHOW_NONE, 0, NULL, NULL, NULL, NULL, NULL,
		"DURATION", "how long the gate may take (default " STR(TASK_GATE_TIMEOUT) "s)"},
	{"missed", "missed", 0, IN_ENUM, 0, -1, "use once, skip or all", NULL, NULL, NULL,
		SHOW_ENUM, SHOW_AT_RUN + 3, "missed:", NULL, NULL, NULL, NULL,
		"once|skip|all", "what to do with runs missed while down: run once "
		"(default), skip them, or run each"},
	{"scope", "scope", 0, IN_TEXT, 0, 0, NULL, "string",
		"Scope of the task (letters, digits, '.', '_', '-'): only agents of that scope see it, "
		"its runs see only that scope's tasks and share conversations only within it. A "
		"session that has a scope makes every task in it.", NULL,
		SHOW_TEXT, SHOW_AT_END + 2, "scope:", NULL, NULL, NULL, task_scope_check,
		"NAME", "agents of this scope alone see it; its runs see only the tasks of "
		"that scope"},
	{"overlap", "overlap", 0, IN_ENUM, 0, OVERLAP_QUEUE, "use queue, skip or replace", "string",
		"What an occurrence due while the task still runs does: queue (the default: the "
		"latest one runs as soon as the run ends), skip (recorded as skipped) or replace (the "
		"running run is ended and recorded cancelled).", overlap_names,
		SHOW_ENUM, SHOW_AT_RUN + 5, "overlap:", NULL, NULL, NULL, NULL,
		"queue|skip|replace", "an occurrence due while the last run goes on: waits for it "
		"(default), is skipped, or ends it"},
	{"budget", "budget", 0, IN_BUDGET, 0, 0, NULL, "string",
		"Most the task may spend per day, week or month: dollars ('$2/day', '2usd/week') or "
		"tokens ('200k/month', '1.5M/day'). Over it, its runs are skipped until the next "
		"period. 'none' removes it.", NULL,
		SHOW_BUDGET, SHOW_AT_END + 1, "budget:", NULL, NULL, NULL, NULL,
		"AMOUNT/PERIOD", "most its runs may spend a day, week or month: $2/day, 2usd/week, "
		"200k/month (tokens), none"},
	{"notify_on", "notify-on", 0, IN_RUNS_ON, 0, 0, NULL, "string",
		"Which runs the notify hook hears of, comma-separated: failure, recovery, change "
		"(output differs from the last success's), success, always, never. Default: "
		"'failure,recovery'; an empty string goes back to it.", NULL,
		SHOW_TEXT, SHOW_AT_NOTIFY, "notify on:", NULL, NULL, NULL, NULL,
		"LIST", "which runs --notify hears of: failure,recovery,change,success,always,never "
		"(default: the config's notify_on, else failure,recovery)"},
	{"deliver_on", "deliver-on", 0, IN_RUNS_ON, 0, 0, NULL, NULL, NULL, NULL,
		SHOW_TEXT, SHOW_AT_END, "deliver on:", NULL, NULL, NULL, NULL,
		"LIST", "which runs are delivered, as --notify-on (default: every run that ends)"},
	{"deadline", "deadline", 0, IN_DEADLINE, 1, 0, NULL, "string",
		"How late an occurrence may still start, e.g. '10m', '2h': past it it is recorded "
		"missed and not run, and missed runs are never caught up past it. 'none' removes it.",
		NULL, SHOW_DURATION, SHOW_AT_RUN + 4, "deadline:",
		"start within %s of each instant, else missed", NULL, NULL, NULL,
		"DURATION", "an occurrence not started this late is missed (none removes it)"},
	{"retries", "retries", 'r', IN_NUMBER, 0, -1, NULL, "integer",
		"Retries of a failed run, 0 to 3: a one-shot's (default 3, backing off from 60 s), or "
		"a recurring task's failed occurrence (default 2: after 30 s, 2 min, 10 min, 30 min, "
		"1 h, never past its next occurrence).", NULL,
		SHOW_NUMBER, SHOW_AT_RUN + 1, "retries:", "%d", NULL, "until it succeeds", NULL,
		"N", "retries of a failed run: a one-shot's (default " STR(TASK_DEFAULT_RETRIES) "), a "
		"recurring occurrence's (default " STR(TASK_DEFAULT_RECURRING_RETRIES) "; never past "
		"its next occurrence)"},
	{"pause_after", "pause-after", 0, IN_NUMBER, 0, -1, NULL, "integer",
		"Failed occurrences in a row after which a recurring task is paused (disabled, with "
		"the reason; enabling it again resumes it), 1 to 5. Default 5.", NULL,
		SHOW_NUMBER, SHOW_AT_RUN + 2, "pause after:", "%d failed occurrences in a row", "never",
		NULL, NULL,
		"N", "pause a recurring task after N failed occurrences in a row (default "
		STR(TASK_DEFAULT_PAUSE_AFTER) "; 0 never), until task-edit --enable resumes it"},
	{"keep", "keep", 0, IN_KEEP, 0, 0, NULL, "string",
		"How much run history to keep: a duration ('30d', '12h', '2w'), a number of runs (20 "
		"or more), or 'default' for the configured one (90 days).", NULL,
		SHOW_KEEP, SHOW_AT_END + 3, "keeps:", NULL, NULL, NULL, NULL,
		"DURATION|N|forever", "history kept: the runs younger than 30d, 12h..., the "
		"newest N (20 or more), or all; default: the config's keep"},
	{"comment", "comment", 0, IN_TEXT, 0, 0, NULL, "string",
		"A note for people: why the task exists, who asked for it (one line). An empty string "
		"removes it.", NULL,
		SHOW_TEXT, SHOW_AT_END + 4, "comment:", NULL, NULL, NULL, comment_check,
		"TEXT", "a note for people: why it exists, who asked for it (one line)"},
};
const size_t ntask_inputs = sizeof task_inputs / sizeof task_inputs[0];
_Static_assert(sizeof task_inputs / sizeof task_inputs[0] <= TASK_INPUTS_MAX,
    "TASK_INPUTS_MAX too small");

const struct field *
task_input_field(const struct task_input *in)
{
	for (size_t i = 0; i < task_fields.n; i++)
		if (task_fields.f[i].json && strcmp(task_fields.f[i].json, in->json) == 0)
			return &task_fields.f[i];
	abort(); /* every input is a field of task_table */
}

const struct fields task_fields = {task_table, sizeof task_table / sizeof task_table[0]};
const struct fields run_fields = {run_table, sizeof run_table / sizeof run_table[0]};
const struct field_table field_tables[FIELD_TABLES] = {
	{"tasks", &task_fields},
	{"runs", &run_fields},
};

/* The stored columns of the two tables that the numbered steps made. */
#define FIELD_COLUMNS_BASE 80

int
fields_generation(void)
{
	int n = 0;
	for (int t = 0; t < FIELD_TABLES; t++)
		for (size_t i = 0; i < field_tables[t].fs->n; i++)
			n += field_tables[t].fs->f[i].column != NULL;
	return n - FIELD_COLUMNS_BASE;
}

int
fields_schema_version(int steps)
{
	return steps + FIELDS_UNIT * fields_generation();
}

void
fields_schema_split(int version, int *steps, int *generation)
{
	*steps = version % FIELDS_UNIT;
	*generation = version / FIELDS_UNIT;
}

int
fields_schema_ahead(const char *store_name, int version, int steps, struct err *e)
{
	int theirs, gen;
	fields_schema_split(version, &theirs, &gen);
	if (theirs <= steps && gen <= fields_generation())
		return ST_OK;
	return err_set(e, ST_ERR, "store '%s' has schema version %d, newer than this agentcron's %d;"
	    " upgrade agentcron", store_name, version, fields_schema_version(steps));
}

/* Every column and, for an update, a keep flag each fit in a row. */
_Static_assert(2 * sizeof task_table / sizeof task_table[0] + 8 <= ROW_MAX, "ROW_MAX too small");

int
field_in(const struct field *f, int cols)
{
	if (!f->column)
		return 0;
	switch (cols) {
	case COLS_READ: return f->type != FT_DEDUP && !(f->flags & F_LARGE);
	case COLS_LARGE: return f->type != FT_DEDUP && (f->flags & F_LARGE);
	case COLS_END: return (f->flags & F_END) != 0;
	default: return 1;
	}
}

int
field_is_int(const struct field *f)
{
	switch (f->type) {
	case FT_INT: case FT_BOOL: case FT_OPT_INT: case FT_OPT_I64: case FT_TIME: return 1;
	default: return 0;
	}
}

int
field_is_text(const struct field *f)
{
	return f->type == FT_STR || f->type == FT_ARRAY || f->type == FT_OBJECT;
}

int
field_keeps(const struct field *f)
{
	return f->column && (f->type == FT_ENUM || f->type == FT_PLAN || (f->flags & F_GUARD));
}

void
fields_free_text(const struct fields *fs, void *obj)
{
	for (size_t i = 0; i < fs->n; i++) {
		if (field_is_text(&fs->f[i])) {
			char **s = FIELD_OF(obj, &fs->f[i], char *);
			free(*s);
			*s = NULL;
		}
	}
}

void
fields_copy_text(const struct fields *fs, void *obj)
{
	for (size_t i = 0; i < fs->n; i++) {
		if (field_is_text(&fs->f[i])) {
			char **s = FIELD_OF(obj, &fs->f[i], char *);
			*s = xstrdup(*s);
		}
	}
}

/* ---- tasks (task.h) and runs (store.h), freed and copied by their tables ---- */

/* The string members of t are those its table lists:
 * freeing and copying a task cannot miss one. */
void
task_free(struct task *t)
{
	fields_free_text(&task_fields, t);
	free(t->plan);
	t->plan = NULL;
	t->nplan = 0;
}

void
task_copy(struct task *dst, const struct task *src)
{
	*dst = *src;
	fields_copy_text(&task_fields, dst);
	if (src->nplan) {
		dst->plan = xcalloc(src->nplan, sizeof *dst->plan);
		memcpy(dst->plan, src->plan, src->nplan * sizeof *dst->plan);
	}
}

void
run_init(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->slot = r->started_at = r->ended_at = r->lease_until = TIME_NONE;
	r->trigger = -1;
	r->exit_code = -1;
	r->duration_ms = -1;
}

void
run_free(struct run *r)
{
	fields_free_text(&run_fields, r);
}

/* ---- rows ---- */

static struct cell *
row_next(struct row *r)
{
	if (r->n >= ROW_MAX)
		abort(); /* the tables are bounded by ROW_MAX at compile time */
	return &r->c[r->n++];
}

void
row_int(struct row *r, int64_t v)
{
	*row_next(r) = (struct cell){CELL_INT, v, NULL};
}

void
row_text(struct row *r, const char *s)
{
	*row_next(r) = s ? (struct cell){CELL_TEXT, 0, s} : (struct cell){CELL_NULL, 0, NULL};
}

void
row_time(struct row *r, int64_t t)
{
	if (t == TIME_NONE)
		row_text(r, NULL);
	else
		row_int(r, t);
}

void
row_free(struct row *r)
{
	for (int i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	r->nowned = 0;
	r->n = 0;
}

/* A value this agentcron cannot write as it is: kept as stored. */
static int
unknown_value(const struct field *f, const void *obj)
{
	const struct task *t = obj;
	if (f->flags & F_GUARD)
		return !t->run_in_flight_set;
	if (f->type == FT_ENUM)
		return *CFIELD_OF(obj, f, int) < 0;
	return f->type == FT_PLAN && !t->nplan && (t->kind == KIND_AT || t->kind == KIND_PLAN);
}

static void
row_cell(struct row *r, const struct field *f, const void *obj)
{
	switch (f->type) {
	case FT_ID:
	case FT_CHARS: {
		const char *s = CFIELD_OF(obj, f, char);
		row_text(r, f->type == FT_CHARS && !*s ? NULL : s);
		break;
	}
	case FT_STR:
	case FT_ARRAY:
	case FT_OBJECT: row_text(r, *CFIELD_OF(obj, f, char *)); break;
	case FT_INT:
	case FT_BOOL: row_int(r, *CFIELD_OF(obj, f, int)); break;
	case FT_OPT_INT: {
		int v = *CFIELD_OF(obj, f, int);
		row_time(r, v < 0 ? TIME_NONE : v);
		break;
	}
	case FT_OPT_I64: {
		int64_t v = *CFIELD_OF(obj, f, int64_t);
		row_time(r, v < 0 ? TIME_NONE : v);
		break;
	}
	case FT_TIME: row_time(r, *CFIELD_OF(obj, f, int64_t)); break;
	case FT_ENUM: {
		int v = *CFIELD_OF(obj, f, int);
		row_text(r, v < 0 ? NULL : f->names->name(v));
		break;
	}
	case FT_PLAN: {
		char *plan = task_plan_text(obj);
		row_text(r, plan);
		if (plan)
			r->owned[r->nowned++] = plan;
		break;
	}
	case FT_DEDUP:
		task_dedup_key(obj, r->dedup);
		row_text(r, r->dedup);
		break;
	case FT_AT:
	case FT_CRONS:
	case FT_DESCRIPTION:
		break;
	}
}

static void
row_fields(struct row *r, const struct fields *fs, const void *obj, int cols)
{
	for (size_t i = 0; i < fs->n; i++)
		if (field_in(&fs->f[i], cols))
			row_cell(r, &fs->f[i], obj);
}

void
row_task(struct row *r, const struct task *t, int update)
{
	r->n = r->nowned = 0;
	row_fields(r, &task_fields, t, COLS_WRITE);
	for (size_t i = 0; update && i < task_fields.n; i++)
		if (field_keeps(&task_fields.f[i]))
			row_int(r, unknown_value(&task_fields.f[i], t));
}

void
row_run(struct row *r, const struct run *run, int cols)
{
	r->n = r->nowned = 0;
	if (cols == COLS_END)
		row_text(r, run->id);
	row_fields(r, &run_fields, run, cols);
}

/* ---- reading ---- */

static void
read_cell(const struct field *f, void *obj, struct cell c)
{
	const char *s = c.kind == CELL_TEXT ? c.s : NULL;
	int null = c.kind == CELL_NULL;
	switch (f->type) {
	case FT_ID:
	case FT_CHARS: snprintf(FIELD_OF(obj, f, char), f->size, "%s", s ? s : ""); break;
	case FT_STR:
	case FT_ARRAY:
	case FT_OBJECT: *FIELD_OF(obj, f, char *) = s ? xstrdup(s) : NULL; break;
	case FT_INT:
	case FT_BOOL: *FIELD_OF(obj, f, int) = null ? 0 : (int)c.i; break;
	case FT_OPT_INT: *FIELD_OF(obj, f, int) = null ? -1 : (int)c.i; break;
	case FT_OPT_I64: *FIELD_OF(obj, f, int64_t) = null ? -1 : c.i; break;
	case FT_TIME: *FIELD_OF(obj, f, int64_t) = null ? TIME_NONE : c.i; break;
	case FT_ENUM: {
		int v = s ? f->names->parse(s) : -1;
		*FIELD_OF(obj, f, int) = v < 0 ? f->names->unknown : v;
		break;
	}
	case FT_PLAN: task_plan_parse(obj, s); break;
	case FT_AT:
	case FT_CRONS:
	case FT_DESCRIPTION:
	case FT_DEDUP:
		break;
	}
}

static int
read_fields(const struct fields *fs, void *obj, cell_fn get, void *src, int col, int cols)
{
	for (size_t i = 0; i < fs->n; i++)
		if (field_in(&fs->f[i], cols))
			read_cell(&fs->f[i], obj, get(src, col++, field_is_int(&fs->f[i])));
	return col;
}

void
task_read(struct task *t, cell_fn get, void *src)
{
	task_init(t);
	read_fields(&task_fields, t, get, src, 0, COLS_READ);
}

int
task_read_ncols(void)
{
	int n = 0;
	for (size_t i = 0; i < task_fields.n; i++)
		n += field_in(&task_fields.f[i], COLS_READ);
	return n;
}

void
run_read(struct run *r, cell_fn get, void *src, int large)
{
	memset(r, 0, sizeof *r);
	int col = read_fields(&run_fields, r, get, src, 0, COLS_READ);
	if (large)
		read_fields(&run_fields, r, get, src, col, COLS_LARGE);
}
