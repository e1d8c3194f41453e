/* Conversations, model calls and the spend ledger (store.h), each the
 * backend's primitive with what both backends must do alike: a window of
 * a conversation in order and starting with the user, a call's record and
 * its spend in one unit, the ledger's quarter-hour grain. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"

void
history_free(struct history_msg *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	free(m);
}

int
store_history_load(struct store *st, const char *context, size_t max, struct history_msg **out,
    size_t *n, struct err *e)
{
	struct history_msg *m = NULL;
	size_t len = 0;
	*out = NULL;
	*n = 0;
	int rc = st->ops->history_load(st, context, max, &m, &len, e);
	if (rc)
		return rc;
	for (size_t i = 0; i < len / 2; i++) {
		struct history_msg t = m[i];
		m[i] = m[len - 1 - i];
		m[len - 1 - i] = t;
	}
	/* A window cut in mid-exchange starts at its first user message:
	 * providers want the user to speak first. */
	size_t skip = 0;
	while (skip < len && (!m[skip].role || strcmp(m[skip].role, "user") != 0))
		skip++;
	for (size_t i = 0; i < skip; i++) {
		free(m[i].role);
		free(m[i].content);
		free(m[i].run_id);
	}
	if (skip)
		memmove(m, m + skip, (len - skip) * sizeof *m);
	len -= skip;
	if (!len) {
		free(m);
		m = NULL;
	}
	*out = m;
	*n = len;
	return ST_OK;
}

int
store_history_append(struct store *st, const char *context, const char *prompt,
    const char *answer, const char *run_id, int64_t now, struct err *e)
{
	int own, rc = store_own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->history_add(st, context, "user", prompt, run_id, now, e);
	if (!rc)
		rc = st->ops->history_add(st, context, "assistant", answer, run_id, now, e);
	return store_own_end(st, own, rc, e);
}

int
store_history_clear(struct store *st, const char *context, long *n, struct err *e)
{
	long none;
	return st->ops->history_clear(st, context, n ? n : &none, e);
}

int
store_call_add(struct store *st, struct llm_call *c, struct err *e)
{
	/* The record and the ledger in one transaction: a prune of the one
	 * never takes from the other. */
	int own, rc = store_own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->call_add(st, c, e);
	long long tokens = (c->input_tokens > 0 ? c->input_tokens : 0) +
	    (c->output_tokens > 0 ? c->output_tokens : 0) - c->ledger_tokens;
	double dollars = (c->cost > 0 ? c->cost : 0) - c->ledger_dollars;
	/* What the ledger has already is not counted twice. */
	if (!rc && (tokens > 0 || dollars > 0))
		rc = store_spend_add(st, c->task_id, c->run_id, c->created_at,
		    dollars > 0 ? dollars : 0, tokens > 0 ? tokens : 0, e);
	return store_own_end(st, own, rc, e);
}

int
store_spend_add(struct store *st, const char *task_id, const char *run_id, int64_t at,
    double dollars, long long tokens, struct err *e)
{
	int64_t bucket = at - (at % STORE_SPEND_BUCKET + STORE_SPEND_BUCKET) % STORE_SPEND_BUCKET;
	int own, rc = store_own_begin(st, &own, e);
	if (!rc)
		rc = st->ops->spend_add(st, task_id, run_id, bucket, dollars, tokens, e);
	return store_own_end(st, own, rc, e);
}

int
store_spend_read(struct store *st, const char *task_id, int64_t since, const char *except_run,
    double *dollars, long long *tokens, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	/* The ledger's grain: the quarter-hour that holds since counts whole. */
	if (since > INT64_MIN + STORE_SPEND_BUCKET)
		since -= (since % STORE_SPEND_BUCKET + STORE_SPEND_BUCKET) % STORE_SPEND_BUCKET;
	return st->ops->spend_read(st, task_id, since, except_run, dollars, tokens, e);
}

int
store_reserve(struct store *st, const char *run_id, const char *task_id, int ran,
    double *dollars, long long *tokens, struct err *e)
{
	return st->ops->reserve(st, run_id, task_id, ran, dollars, tokens, e);
}

int
store_run_cost(struct store *st, double *dollars, long long *tokens, int *known, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	*known = 0;
	return st->ops->run_cost(st, dollars, tokens, known, e);
}

int
store_call_list(struct store *st, const char *run_id, const char *task_id, long limit,
    llm_call_fn fn, void *arg, struct err *e)
{
	return st->ops->call_list(st, run_id, task_id, limit, fn, arg, e);
}

int
store_call_spend(struct store *st, const char *task_id, int64_t since, double *dollars,
    long long *tokens, struct err *e)
{
	*dollars = 0;
	*tokens = 0;
	return st->ops->call_spend(st, task_id, since, dollars, tokens, e);
}

int
store_others_wrote(struct store *st, int64_t *version, struct err *e)
{
	*version = -1;
	return st->ops->others_wrote ? st->ops->others_wrote(st, version, e) : ST_OK;
}

int
store_call_usage(struct store *st, int64_t since, call_usage_fn fn, void *arg, struct err *e)
{
	return st->ops->call_usage(st, since, fn, arg, e);
}

void
llm_call_free(struct llm_call *c)
{
	free(c->run_id);
	free(c->task_id);
	free(c->context);
	free(c->provider);
	free(c->model);
	free(c->answered_model);
	free(c->fallback_from);
	free(c->system_prompt);
	free(c->prompt);
	free(c->answer);
	free(c->finish_reason);
	free(c->error);
	free(c->tool_calls);
	free(c->request);
	memset(c, 0, sizeof *c);
}
