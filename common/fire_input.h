/* fire_input.h: what a chained or event run is given besides its prompt
 * (store_chain.h keeps it): its input on standard input after the
 * prompt's own text, TASK_INPUT_RUN (a chain: the upstream run's id),
 * TASK_PAYLOAD (an event's payload, when short) and TASK_PAYLOAD_FILE (a
 * file holding it, always); a replay its request, in the file named by
 * TASK_REPLAY_FILE; and the payloads task-run reads. */
#ifndef AC_FIRE_INPUT_H
#define AC_FIRE_INPUT_H

#include <stdint.h>

#include "store.h"
#include "store_chain.h"
#include "util.h"

#define FIRE_PAYLOAD_MAX (1024 * 1024)  /* bytes of a payload, at most */
#define FIRE_PAYLOAD_ENV_MAX (64 * 1024) /* TASK_PAYLOAD holds payloads up to this */
#define FIRE_EVENT_KEY_MAX 200           /* bytes of an event's key */

/* fire_input.c */
/* Run r's input, if it has one (trigger after or event): *found set and
 * *in filled (run_input_free it), else *found 0. */
int fire_input_load(struct store *st, const struct run *r, struct run_input *in, int *found,
    struct err *e);
/* Input in given to a run: appended to *text after a blank line unless a
 * prompt named {{input}} (named), and its variables set in *envp; *file is
 * the payload file made for run_id (0600, in TMPDIR: run_file.h), to
 * unlink once the run is over, else NULL. */
int fire_input_apply(const struct run_input *in, const char *run_id, int named, char **text,
    char ***envp, char **file, struct err *e);
/* A payload as task-run --payload takes it: JSON text, @FILE, or - (the
 * standard input): valid UTF-8, no NUL, at most FIRE_PAYLOAD_MAX bytes. */
int fire_payload_read(const char *arg, char **out, struct err *e);
int fire_payload_check(const char *s, size_t n, struct err *e);
/* The stored key of an event: "key:KEY" when given, else "id:" and a new
 * id.  task-web's bodiless events are "bare:KEY" (web_hook.c): every form
 * names its kind, so no key of one kind is taken for another's. */
int fire_event_key(const char *key, char **out, struct err *e);
/* In the caller's unit of work: whether task id's event of stored key was
 * had: *had FIRE_HAD_INPUT while its input is kept (run_id the run it
 * became, "" while it waits), FIRE_HAD_KEY when only its key is (recorded
 * for hook_keep by store_hook_event, with body_sha256, NULL: none; a key
 * not had is recorded now), else 0. */
enum { FIRE_HAD_INPUT = 1, FIRE_HAD_KEY };
int fire_event_had(struct store *st, const char *id, const char *key, const char *body_sha256,
    int64_t now, int *had, char run_id[37], struct err *e);
/* An event for task id queued for the next pass: its input pending, its
 * key recorded and the task asked to run, in one unit of work; *dup set
 * as fire_event_had's *had when an event of the same key was had. */
int fire_event_queue(struct store *st, const char *id, const char *payload, const char *key,
    int64_t now, int *dup, char run_id[37], struct err *e);

#endif
