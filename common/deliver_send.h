/* deliver_send.h: sending one delivery to its target, through libcurl
 * (HTTP kinds and SMTP), sendmail or a command: for programs that link
 * libcurl (task-deliver).  Nothing here prints; what the receiver said
 * and what went wrong come back in the outcome, secrets left out. */
#ifndef AC_DELIVER_SEND_H
#define AC_DELIVER_SEND_H

#include <stdint.h>

#include "util.h"

struct config;
struct http;

#define DELIVER_TIMEOUT 30        /* seconds an attempt may take (deliver_timeout) */

struct deliver_msg {
	const char *id;           /* the receipt's id: the idempotency key */
	const char *target;       /* resolved: KIND:REST */
	const char *task_id, *task_name, *run_id;
	const char *status;       /* the run's: success, failed, ... */
	const char *text;         /* the answer, or a failure's error */
	const char *json;         /* the run as JSON (webhook's data, exec's input) */
	int64_t now;              /* the attempt's time (webhook-timestamp, Date) */
	int parts_done;           /* parts the receiver already has */
	/* Told after each part but the last that the receiver took, with
	 * how many it has; non-zero (the lease is lost, or cannot be
	 * kept) stops the sending, with why in err. */
	int (*on_part)(void *arg, int parts_done, char *err, size_t nerr);
	void *arg;
};

struct deliver_outcome {
	int delivered;
	int permanent;            /* refused: retrying will not help */
	int64_t retry_after;      /* seconds the receiver asked for, -1: none */
	int parts_done;
	char answer[256];         /* the receiver's word: "HTTP 200", "250 ...", "message_id 7" */
	char error[ERR_MAX];
};

/* deliver_send.c */
/* h: one HTTP handle for every attempt of the process (http.h). */
void deliver_send(struct http *h, const struct config *c, const struct deliver_msg *m,
    struct deliver_outcome *o);
/* The Standard Webhooks signature of id, timestamp and body with secret
 * (whsec_BASE64, else its bytes as they are): "v1,BASE64", malloc'd;
 * NULL when libcrypto cannot be loaded. */
char *deliver_webhook_signature(const char *secret, const char *id, int64_t ts, const char *body);

#endif
