/* Prices, budgets and their windows (spend.h), without the store.
 *
 * budget = amount "/" period
 * amount = "$" number | number "usd" | number [ "k" | "M" | "tok" ]   (the last: tokens)
 * period = "day" | "week" | "month" */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "spend.h"
#include "task.h"
#include "tz.h"

#define BUDGET_MAX_DOLLARS 1e9
#define BUDGET_MAX_TOKENS 1e15
#define PRICE_MAX 1e9 /* dollars per million tokens */

static const char *const periods[] = {"day", "week", "month"};

static int
bad_budget(struct err *e, const char *s)
{
	return err_set(e, ST_INVALID, "bad budget '%.80s': expected AMOUNT/PERIOD, AMOUNT dollars ($2,"
	    " 2usd) or tokens (200000, 200k, 1.5M), PERIOD day, week or month; or none", s);
}

int
budget_parse(const char *s, struct budget *b, struct err *e)
{
	*b = (struct budget){0};
	if (!s || !*s || strcmp(s, "none") == 0)
		return ST_OK;
	const char *slash = strchr(s, '/');
	if (!slash)
		return bad_budget(e, s);
	const char *p = s;
	int dollars = *p == '$';
	if (dollars)
		p++;
	if (!(*p >= '0' && *p <= '9') && *p != '.')
		return bad_budget(e, s);
	errno = 0;
	char *end;
	double v = strtod(p, &end);
	if (errno || end == p || !isfinite(v) || v <= 0)
		return bad_budget(e, s);
	size_t unit = (size_t)(slash - end);
	if (!dollars && unit == 3 && strncasecmp(end, "usd", 3) == 0)
		dollars = 1;
	else if (!dollars && unit == 1 && (*end == 'k' || *end == 'K'))
		v *= 1e3;
	else if (!dollars && unit == 1 && (*end == 'M' || *end == 'm'))
		v *= 1e6;
	else if (!dollars && unit == 3 && strncasecmp(end, "tok", 3) == 0)
		;
	else if (unit != 0)
		return bad_budget(e, s);
	if (dollars ? v > BUDGET_MAX_DOLLARS : v > BUDGET_MAX_TOKENS || v < 1)
		return bad_budget(e, s);
	b->period = -1;
	for (int i = 0; i < 3; i++)
		if (strcasecmp(slash + 1, periods[i]) == 0)
			b->period = i;
	if (b->period < 0)
		return bad_budget(e, s);
	b->set = 1;
	b->dollars = dollars;
	b->amount = dollars ? v : floor(v);
	return ST_OK;
}

int
budget_check_input(const char *s, struct err *e)
{
	if (!s || !*s || strcmp(s, "none") == 0)
		return ST_OK;
	/* "$5/day" in double quotes: the shell put $5 (empty) in its place. */
	if (*s == '/')
		return err_set(e, ST_INVALID, "'%.80s' has no amount: in double quotes the shell"
		    " replaced $5 with nothing; write '$5%.60s' in single quotes, or 5usd%.60s", s, s, s);
	const char *slash = strchr(s, '/');
	char *end;
	double v = strtod(s, &end);
	if (*s >= '0' && *s <= '9' && slash && end == slash && v >= 1 && v < 1000)
		return err_set(e, ST_INVALID, "'%.80s' would be %.0f tokens: write $%.80s for dollars or"
		    " %.*stok%.60s for tokens", s, floor(v), s, (int)(slash - s), s, slash);
	return ST_OK;
}

void
budget_describe(const struct budget *b, char *buf, size_t n)
{
	static const char *const per[] = {"a day", "a week", "a month"};
	char a[64];
	if (!b->set) {
		snprintf(buf, n, "none");
		return;
	}
	if (b->dollars)
		money_fmt(b->amount, a, sizeof a);
	else
		snprintf(a, sizeof a, "%.0f tokens", b->amount);
	snprintf(buf, n, "%s %s", a, per[b->period]);
}

void
money_fmt(double d, char *buf, size_t n)
{
	/* Cents for people; small amounts keep two significant digits. */
	if (d == 0 || fabs(d) >= 0.01) {
		snprintf(buf, n, "$%.2f", d);
		return;
	}
	int decimals = 1 - (int)floor(log10(fabs(d)));
	snprintf(buf, n, "$%.*f", decimals > 12 ? 12 : decimals, d);
}

/* An amount as given back: "$2", "$1.5", "$0.25"; tokens whole. */
static void
amount_fmt(const struct budget *b, double v, char *buf, size_t n)
{
	if (b->dollars) {
		/* Plain decimals, never an exponent ("$1e-05"). */
		snprintf(buf, n, "$%.10f", v);
		char *dot = strchr(buf, '.');
		if (dot) {
			char *z = buf + strlen(buf);
			while (z > dot + 1 && z[-1] == '0')
				*--z = 0;
			if (z == dot + 1)
				*dot = 0;
		}
	} else
		snprintf(buf, n, "%.0f", v);
}

void
budget_fmt(const struct budget *b, char *buf, size_t n)
{
	if (!b->set) {
		snprintf(buf, n, "none");
		return;
	}
	char a[64];
	amount_fmt(b, b->amount, a, sizeof a);
	snprintf(buf, n, "%s/%s", a, periods[b->period]);
}

int
price_of(const struct config *cf, const char *model, double *in, double *out, struct err *e)
{
	if (!cf || !model)
		return 0;
	char key[320];
	snprintf(key, sizeof key, "price.%s", model);
	const char *v = config_get(cf, key);
	if (!v)
		return 0;
	char *end;
	errno = 0;
	*in = strtod(v, &end);
	const char *p = end;
	*out = strtod(p, &end);
	if (errno || end == p || !isfinite(*in) || !isfinite(*out) || *in < 0 || *out < 0 ||
	    *in > PRICE_MAX || *out > PRICE_MAX || *end)
		return err_set(e, ST_INVALID, "config: bad %s '%.80s': expected two prices in dollars"
		    " per million tokens, input then output (0.15 0.60)", key, v), -1;
	return 1;
}

double
price_cost(double in, double out, long in_tokens, long out_tokens)
{
	return ((in_tokens > 0 ? (double)in_tokens * in : 0) +
	    (out_tokens > 0 ? (double)out_tokens * out : 0)) / 1e6;
}

int64_t
budget_window(int period, const struct tz *z, int64_t now)
{
	struct civil c;
	tz_to_civil(z, now, &c);
	int64_t days = days_from_civil(c.year, (unsigned)c.month, (unsigned)c.day);
	if (period == PERIOD_WEEK)
		days -= (weekday_from_days(days) + 6) % 7; /* back to Monday */
	else if (period == PERIOD_MONTH)
		days -= c.day - 1;
	/* Midnight, or the first instant after it when a shift skips it. */
	int64_t out[2];
	for (int64_t local = days * 86400; local < days * 86400 + 86400; local += 900)
		if (tz_from_local(z, local, out) > 0)
			return out[0];
	return now;
}

int
budget_over(const struct budget *b, const struct spend *s)
{
	if (!b->set)
		return 0;
	/* Compared in whole micro-dollars: what was shown is what counts. */
	return b->dollars ? llround(s->dollars * 1e6) >= llround(b->amount * 1e6)
			  : (double)s->tokens >= b->amount;
}

void
budget_reason(const struct budget *b, const struct spend *s, int global, char *buf, size_t n)
{
	char spent[64], of[64];
	if (b->dollars) {
		money_fmt(s->dollars, spent, sizeof spent);
		money_fmt(b->amount, of, sizeof of);
		snprintf(buf, n, "budget: %s of %s this %s%s", spent, of, periods[b->period],
		    global ? " (all tasks)" : "");
	} else {
		snprintf(buf, n, "budget: %lld of %.0f tokens this %s%s", s->tokens, b->amount,
		    periods[b->period], global ? " (all tasks)" : "");
	}
}


int
spend_left_parse(const char *s, double *dollars, double *tokens)
{
	*dollars = *tokens = -1;
	size_t n;
	char **w = str_words(s, &n);
	int rc = n ? 0 : -1;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *p = w[i] + (w[i][0] == '$');
		char *end;
		errno = 0;
		double v = strtod(p, &end);
		double *kind = w[i][0] == '$' ? dollars : tokens;
		if (errno || end == p || *end || !isfinite(v) || v < 0 || *kind >= 0)
			rc = -1;
		else
			*kind = v;
	}
	str_words_free(w, n);
	return rc;
}
