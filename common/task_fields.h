/* task_fields.h: the one description of the fields of a task and of a run:
 * for each its member, type, JSON name and column.  The JSON codec
 * (task_json.c) and the stores (store_sql.c and the backends) read and write
 * through these tables, so a new field is a member of its struct and a line
 * in its table (task_fields.c); the stores add its column (fields_generation).
 *
 * A store's row is cells: NULL, an integer or text.  A field that this
 * agentcron cannot read as stored (a kind or status of a newer one,
 * instants it cannot parse) is written back as it is stored, never lost. */
#ifndef AC_TASK_FIELDS_H
#define AC_TASK_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct task;
struct run;
struct err;

enum field_type {
	FT_ID,          /* char[37]: text */
	FT_STR,         /* char *, NULL for none: text */
	FT_CHARS,       /* a short char array, "" for none: text, not in JSON */
	FT_INT,         /* int: integer */
	FT_BOOL,        /* int, 0 or 1: integer; JSON true or false */
	FT_OPT_INT,     /* int, -1 for none: integer or NULL; JSON number or null */
	FT_OPT_I64,     /* int64_t, -1 for none: likewise */
	FT_TIME,        /* int64_t seconds, TIME_NONE for none: integer; JSON RFC 3339 */
	FT_ENUM,        /* int, an index into the field's names: its name as text */
	FT_ARRAY,       /* char *, a JSON array's text */
	FT_OBJECT,      /* char *, a JSON object's text */
	/* A task's own: */
	FT_PLAN,        /* plan[nplan]: stored "i1,i2,..."; JSON "plan" of a planned task */
	FT_AT,          /* JSON only: the one instant of a one-shot (plan[0]) */
	FT_CRONS,       /* JSON only: every expression of a cron task with several, else none */
	FT_DESCRIPTION, /* JSON only, output: task_describe */
	FT_DEDUP,       /* stored only, written: task_dedup_key, which finds twins */
};

enum {
	F_IN = 1 << 0,    /* JSON: read by task_from_json/run_from_json (else ignored there) */
	F_WHEN = 1 << 1,  /* JSON input: any time expression, read in the task's zone */
	F_COMMAND = 1 << 2, /* JSON input: a command line, which must split into words */
	F_OMIT = 1 << 3,  /* JSON output: left out when none */
	F_LARGE = 1 << 4, /* store: read only when asked for (a run's output) */
	F_END = 1 << 5,   /* store: written when a run ends (else only when it is recorded) */
	F_FIRST = 1 << 6, /* JSON output: the first of several cron expressions (FT_CRONS has all) */
	F_GUARD = 1 << 7, /* store: written only by claims and ends (task.run_in_flight_set) */
};

/* The names of an FT_ENUM's values. */
struct field_enum {
	const char *(*name)(int);
	int (*parse)(const char *);   /* -1 for a name not known */
	int unknown;                  /* a stored name not known reads as this; -1 keeps it */
};

struct field {
	const char *json;             /* its name in JSON; NULL: not in JSON */
	const char *column;           /* its column in the store; NULL: not stored */
	enum field_type type;
	size_t off, size;             /* the member in struct task or struct run */
	unsigned flags;               /* F_* */
	const struct field_enum *names; /* FT_ENUM */
};

struct fields {
	const struct field *f;
	size_t n;
};
extern const struct fields task_fields, run_fields;

/* The store's table of each, in the order a store adds missing columns. */
struct field_table {
	const char *table;
	const struct fields *fs;
};
enum { FIELD_TABLES = 2 };
extern const struct field_table field_tables[FIELD_TABLES];

/* A store's columns of the fields come from their rows: a field added
 * after the numbered schema steps has no step of its own.  A store
 * records, beside its steps, how many such columns it has (its fields
 * generation: the stored columns of the tables beyond the 80 that the
 * steps made); a store whose generation is behind the program's adds each
 * column it lacks (of the type its field's type gives) when it is opened,
 * and a store ahead of it is newer.  A row of these tables is therefore
 * never removed while its column exists. */
#define FIELDS_UNIT 1000              /* schema version = steps + FIELDS_UNIT * generation */
int fields_generation(void);
/* The schema version of a store with steps numbered steps and this
 * program's columns; a stored version split into its parts. */
int fields_schema_version(int steps);
void fields_schema_split(int version, int *steps, int *generation);
/* A stored version ahead of this program's (its steps or its columns):
 * ST_ERR saying the store is newer; else ST_OK. */
int fields_schema_ahead(const char *store_name, int version, int steps, struct err *e);

/* The member of obj that f describes, as a type *. */
#define FIELD_OF(obj, f, type) ((type *)((char *)(obj) + (f)->off))
#define CFIELD_OF(obj, f, type) ((type const *)((const char *)(obj) + (f)->off))

/* The fields given as lists of words, described once for every surface:
 * a repeatable flag of task-add and task-edit (a value may hold several
 * words separated by commas; '' alone clears the list), the same JSON
 * name as an MCP tool's array argument, the check of each word
 * (task_validate), a line of task-show and one of --help.  A new such
 * field is a row of word_lists (task_fields.c) beside its row of
 * task_fields. */
struct word_list {
	const char *json;             /* the field's JSON name and MCP argument */
	const char *flag;             /* its long option, without "--" */
	const char *word, *words;     /* what one word is and what they are, for messages */
	const char *label;            /* its line in task-show */
	size_t off;                   /* its member of struct task: a char *, a JSON array */
	const char *arg, *help;       /* its --help line: the value's name and what it does */
};
enum { WL_MCP, WL_MCP_ALLOW, WL_FALLBACK, WORD_LISTS };
extern const struct word_list word_lists[WORD_LISTS];
#define WORD_LIST_OF(t, wl) (*(char **)((char *)(t) + (wl)->off))
#define CWORD_LIST_OF(t, wl) (*(char *const *)((const char *)(t) + (wl)->off))

/* The task's settings given as one value each, described once for every
 * surface: a flag of task-add and task-edit, an MCP argument of
 * task_create and task_update (when it has a schema type), how the value
 * is read and checked (taskargs_apply.c, by kind; task_validate, by its
 * check) and its line in task-show (by its show kind, at its place).  Each
 * is the row of task_fields with the same JSON name.  A new such setting of
 * a kind already here is a row of task_inputs (task_fields.c) beside its
 * row of task_fields, its --help line in the row (taskargs_help).
 *
 * Not rows here: the schedule (--cron, --daily, --weekly, --at, --plan,
 * --every, --manual, --heartbeat: exclusive flags making one value, its
 * ends and zone read with it); name and prompt (required, the prompt also
 * an argument or stdin); the lists (--attach, --deliver, --after: each
 * word resolved, and none or '' with its own meaning); the commands
 * (--exec, --notify, --gate: split and checked as command lines); and the
 * plain texts whose MCP argument and task-show line sit among those, where
 * a row would move them and change tools/list and task-show. */
enum task_input_kind {
	IN_TEXT,        /* text; '' clears it */
	IN_SECONDS,     /* seconds or a duration (90s, 5m); '' restores def */
	IN_NUMBER,      /* a whole number; '' restores def */
	IN_ENUM,        /* one of the field's names (hint lists them) */
	IN_DEADLINE,    /* a duration up to TASK_DEADLINE_MAX; none or 0 removes it */
	IN_BUDGET,      /* AMOUNT/PERIOD (spend.h), or none */
	IN_RUNS_ON,     /* which runs, notify_on_parse's list; '' goes back to the default */
	IN_KEEP,        /* history kept (history.h); default or '' removes it */
};
enum task_show_kind {
	SHOW_NONE,      /* task-show prints it its own way */
	SHOW_TEXT,      /* as stored, when set */
	SHOW_SECONDS,   /* "90s", when over 0 */
	SHOW_NUMBER,    /* fmt, zero for 0, most for INT_MAX; when not -1 */
	SHOW_ENUM,      /* its name, when not def */
	SHOW_DURATION,  /* fmt of its duration, when set */
	SHOW_BUDGET,    /* with what its window spent */
	SHOW_KEEP,      /* what it keeps */
};
struct task_input {
	const char *json;             /* its JSON name, row of task_fields and MCP argument */
	const char *flag;             /* its long option, without "--" */
	char letter;                  /* its short option, or 0 */
	enum task_input_kind kind;
	long min;                     /* IN_SECONDS, IN_NUMBER: the least value */
	int def;                      /* what '' restores (IN_ENUM, SHOW_ENUM: the default) */
	const char *hint;             /* IN_ENUM: "use a, b or c" */
	const char *type, *desc;      /* its MCP argument's schema; NULL: no MCP argument */
	const char *const *names;     /* the values the schema lists, or NULL */
	enum task_show_kind show;
	int place;                    /* task-show prints places in order (SHOW_AT_*) */
	const char *label, *fmt, *zero, *most; /* task-show's line */
	/* IN_TEXT: the check of a value set (task_validate), or NULL: any text */
	int (*check)(const char *v, struct err *e);
	const char *arg, *help;       /* its --help line: the value's name and what it does */
};
/* Where task-show prints a setting: a range of places. */
enum { SHOW_AT_RUN = 10, SHOW_AT_NOTIFY = 20, SHOW_AT_END = 30, SHOW_AT_MAX = 40 };
#define TASK_INPUTS_MAX 32
extern const struct task_input task_inputs[];
extern const size_t ntask_inputs;
/* The row of task_fields an input sets. */
const struct field *task_input_field(const struct task_input *in);

/* Which columns (COLS_*) a row holds, in table order. */
enum {
	COLS_READ,       /* read back: not derived, not large */
	COLS_LARGE,      /* read back when asked for: large */
	COLS_WRITE,      /* every column */
	COLS_END,        /* F_END columns: what ending a run writes */
};
int field_in(const struct field *f, int cols);
int field_is_int(const struct field *f);   /* stored as an integer (else text) */
int field_is_text(const struct field *f);  /* a malloc'd char * member (FT_STR, FT_ARRAY, FT_OBJECT) */
/* Written back as stored when its value is not known (an update's
 * keep flags, one for each such column). */
int field_keeps(const struct field *f);
/* The strings of obj that fs lists (field_is_text): freed (and NULL), or
 * each replaced by a copy of its own. */
void fields_free_text(const struct fields *fs, void *obj);
void fields_copy_text(const struct fields *fs, void *obj);

/* A value as a store holds it. */
enum cell_kind { CELL_NULL, CELL_INT, CELL_TEXT };
struct cell {
	enum cell_kind kind;
	int64_t i;
	const char *s;            /* valid as long as the row or result it came from */
};

/* The cells of one statement's parameters, in order. */
#define ROW_MAX 160
struct row {
	struct cell c[ROW_MAX];
	int n;
	char *owned[4];           /* texts the row made, freed with it */
	int nowned;
	char dedup[17];
};
void row_int(struct row *r, int64_t v);
void row_text(struct row *r, const char *s);    /* NULL: a NULL cell */
void row_time(struct row *r, int64_t t);        /* TIME_NONE: a NULL cell */
void row_free(struct row *r);
/* The cells of a task's columns (COLS_WRITE); an update's keep flags follow. */
void row_task(struct row *r, const struct task *t, int update);
/* A run's columns: COLS_WRITE, or its id and then COLS_END. */
void row_run(struct row *r, const struct run *run, int cols);

/* Read a stored row: get(src, col, is_int) is the cell of column col
 * (from 0) of the backend's result.  Columns in the order the SELECT lists
 * of store_sql.c name them. */
typedef struct cell (*cell_fn)(void *src, int col, int is_int);
void task_read(struct task *t, cell_fn get, void *src);      /* t uninitialised */
void run_read(struct run *r, cell_fn get, void *src, int large); /* r uninitialised */
int task_read_ncols(void);                  /* how many columns task_read reads */

#endif
