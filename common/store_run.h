/* store_run.h: a run as the store holds it, a value that needs nothing
 * of the store (task_fields.c reads and writes it; run_init and run_free
 * are there). */
#ifndef AC_STORE_RUN_H
#define AC_STORE_RUN_H

#include <stdint.h>

struct run {
	char id[37];
	char task_id[37];
	int64_t slot;          /* the scheduled instant, TIME_NONE for manual runs */
	int trigger;           /* TRIGGER_*, -1 when not known */
	int status;            /* RUN_* */
	int64_t started_at, ended_at;
	int exit_code;         /* -1 when none (signal, never started) */
	char *output, *error;
	int64_t duration_ms;
	int attempt;
	int arming;            /* the task's arming it fired in */
	int64_t lease_until;   /* while running: recovered as interrupted after this */
	char prev_status[16];  /* a manual run: the status its task gets back, else "" */
	char *note;            /* a late result, kept after recovery had ended the run */
};
void run_init(struct run *r);           /* empty: no instants, no exit code */
void run_free(struct run *r);

#endif
