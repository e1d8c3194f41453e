/* deliver.h: where answers go.  A delivery target is KIND:REST (webhook:URL,
 * slack:URL, ntfy:URL, telegram:CHAT_ID, mailto:ADDRESS, exec:COMMAND) or
 * @NAME, the config's deliver.NAME.  A task's targets are a JSON array
 * (task.deliver); a task that names none gets the config's `deliver`
 * list.  Targets hold secrets (a Slack webhook's URL is its token), so
 * whatever prints one prints deliver_target_mask's form.  No HTTP here:
 * sending is deliver_send.h's, in a program that links libcurl. */
#ifndef AC_DELIVER_H
#define AC_DELIVER_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct config;
struct task;
struct run;

enum deliver_kind { DK_WEBHOOK, DK_SLACK, DK_NTFY, DK_TELEGRAM, DK_MAILTO, DK_EXEC, DK_COUNT };
#define DELIVER_TARGET_MAX 4096  /* bytes of one target */
#define DELIVER_TARGETS_MAX 16   /* targets of one task */

/* deliver_target.c */
const char *deliver_kind_name(int kind);        /* "webhook", ... */
/* A target's kind and what follows "KIND:"; ST_INVALID (naming it, masked)
 * for an unknown kind or a bad rest.  @NAME is not a kind: resolve first. */
int deliver_target_parse(const char *target, int *kind, const char **rest, struct err *e);
/* A target as a task may name it: KIND:REST or @NAME. */
int deliver_target_check(const char *target, struct err *e);
/* task.deliver: NULL or a JSON array of 1..DELIVER_TARGETS_MAX checked targets. */
int deliver_targets_check(const char *json, struct err *e);
/* For printing: URLs keep their scheme and host, the rest is "***"; user
 * names and passwords never show; @NAME, chat ids, addresses and commands
 * as they are. */
void deliver_target_mask(const char *target, char *buf, size_t n);
/* The same over a JSON array of targets: a new array's text. */
char *deliver_targets_mask(const char *json);
/* @NAME's deliver.NAME from c (a malloc'd copy); any other target copied.
 * ST_INVALID when the config has no such name or it names another. */
int deliver_resolve(const struct config *c, const char *target, char **out, struct err *e);
/* The targets of t: its own, else the config's `deliver` (a comma list),
 * as a NULL-terminated malloc'd vector (free with str_words_free), *n of
 * them (0: none). */
char **deliver_targets_of(const struct task *t, const struct config *c, size_t *n);
/* --deliver-on: the mask of notify.h's events; NULL: every end
 * (failure and success).  ST_INVALID naming the bad word. */
int deliver_on_parse(const char *list, unsigned *mask, struct err *e);
/* Whether run r (ended) is delivered under mask, given the task's
 * previous ended run before it (NULL: none): failure, success, recovery
 * (a success after a failure), change (a success whose output differs
 * from the previous success's, prev_success its output or NULL). */
int deliver_wants(unsigned mask, const struct run *r, const struct run *prev,
    const char *prev_success);
/* deliver_text.c */
/* What deliver_split's limit counts: characters (one past U+FFFF counts
 * two, as UTF-16 counts it), bytes, or characters as Slack's escaping
 * sends them (& five, < and > four). */
enum { DELIVER_UNITS_CHARS, DELIVER_UNITS_BYTES, DELIVER_UNITS_SLACK };
/* text in parts of at most limit units, cut after a blank line where one
 * falls in the part's last half, else after a newline, else after a
 * blank, else between characters; the parts joined are text again.  With
 * more than one part each begins "[i/n]\n", counted in the limit.
 * *parts: *n malloc'd strings in a malloc'd vector. */
void deliver_split(const char *text, size_t limit, int units, char ***parts, size_t *n);
void deliver_parts_free(char **parts, size_t n);
/* Slack's escaping of text: & < > as entities. */
char *deliver_slack_escape(const char *text);
/* A mail header's text as RFC 2047 encoded words when it is not ASCII. */
void deliver_mail_header(struct buf *b, const char *text);
/* A body in quoted-printable (RFC 2045), CRLF line ends. */
void deliver_quoted_printable(struct buf *b, const char *text);

#endif
