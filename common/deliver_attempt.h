/* deliver_attempt.h: one attempt of a delivery receipt (task-deliver(1)):
 * the lease a pass holds while it sends, the text a run's message
 * carries, and the receipt's state once the attempt has an outcome. */
#ifndef AC_DELIVER_ATTEMPT_H
#define AC_DELIVER_ATTEMPT_H

#include <stddef.h>
#include <stdint.h>

struct config;
struct store;
struct deliver_outcome;
struct receipt;
struct run;

#define DELIVER_GIVE_UP 86400   /* retries stop this long after the receipt was made */

/* Seconds a claimed receipt stays the claimer's: room for a message in
 * several parts, each within deliver_timeout. */
int64_t deliver_lease_secs(const struct config *cf);
/* A receipt's lease, as a pass holds it while it sends. */
struct deliver_lease {
	struct store *st;
	const struct config *cf;
	const char *owner, *id;
};
/* deliver_msg's on_part (deliver_send.h), arg a struct deliver_lease: a
 * part the receiver took goes on record at once and the lease is renewed
 * from the clock of now, so a sender killed between parts leaves only
 * the rest to send, and a long message keeps its lease.  Non-zero, with
 * why, when the lease is lost or the store cannot be used. */
int deliver_part_taken(void *arg, int parts_done, char *why, size_t n);
/* What a message says of run: its answer (with diff, what changed since
 * the answer before, when given), or a failure's error and output;
 * malloc'd. */
char *deliver_text_of(const struct run *run, const char *diff);
/* r after an attempt at now with outcome o: delivered; failed when
 * refused or past DELIVER_GIVE_UP; else pending again after a backoff
 * (30 s, 2 min, 10 min, 30 min, 1 h) or the receiver's Retry-After. */
void deliver_settle(struct receipt *r, const struct deliver_outcome *o, int64_t now);

#endif
