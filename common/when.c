/* when.c: time expressions read in a zone at a given "now".
 *
 * Grammar (case-insensitive; "," and the words "at", "on", "the" are noise
 * between parts; a final "." is allowed; anything else left over is an
 * error, never ignored):
 *
 *	when     = rfc3339 | "now" [ "+" quantity ] | quantity ( "from" "now" | "later" | "ago" )
 *	         | "in" quantity [ time ] | part { part }
 *	part     = date | time | period
 *	quantity = amount unit [ "and a half" ] { [ "and" ] amount unit }
 *	         | "half" [ "an" ] "hour" | "a half hour"
 *	amount   = number [ "." digits ] | "a" | "an" | "one" ... "twelve"
 *	           (halves and decimals only of seconds, minutes and hours)
 *	unit     = s | sec(ond)(s) | m | min(ute)(s) | h | hr(s) | hour(s) | d | day(s)
 *	         | w | wk(s) | week(s) | month(s) | yr(s) | year(s)
 *	date     = YYYY-MM-DD [ "T" clock ] | "today" | "tomorrow" | "yesterday"
 *	         | [ "the" ] "day" "after" "tomorrow" | [ "this" ] weekday | "next" weekday
 *	         | "next" ( "week" | "month" | "year" ) | "tonight"
 *	         | month day [ ordinal ] [ year ] | day [ ordinal ] [ "of" ] month [ year ]
 *	         | [ "the" ] day ordinal
 *	time     = clock | hour ( "am" | "pm" | "o'clock" ) | "noon" | "midday" | "midnight"
 *	         | hour                                   (after "at", a date or a period)
 *	clock    = hh ":" mm [ ":" ss [ "." fraction ] ] [ "am" | "pm" ]
 *	period   = [ "this" | "in the" ] ( "morning" | "afternoon" | "evening" | "night" )
 *
 * Meanings (see agentcron-schedule(5)): "in N minutes/hours" is real
 * elapsed time; days, weeks, months and years are calendar steps that keep
 * the wall-clock time.  A date without a time keeps the current time of day
 * when it is relative (tomorrow, friday, next week) and is 00:00 when it is
 * a calendar date (2026-12-25, Dec 25, the 15th).  A time without a date is
 * today if still ahead, else tomorrow; a weekday is the next such day,
 * today if the time is still ahead; "next friday" is the first Friday after
 * today.  A date without a year is the next one not in the past.  Wall times
 * in a spring-forward gap become the first instant after the gap; repeated
 * wall times their first occurrence. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "when.h"

enum kw {
	K_NONE, K_AT, K_ON, K_THE, K_OF, K_IN, K_NEXT, K_THIS, K_AND, K_FROM, K_NOW, K_LATER,
	K_AGO, K_AFTER, K_DAYWORD, K_TONIGHT, K_PERIOD, K_NOON, K_MIDNIGHT, K_AMPM, K_UNIT,
	K_NUMWORD, K_A, K_HALF, K_WEEKDAY, K_MONTH, K_ORD, K_OCLOCK, K_T,
};

enum { U_SEC = 1, U_MIN, U_HOUR, U_DAY, U_WEEK, U_MONTH, U_YEAR };

static const struct keyword {
	const char *word;
	enum kw kind;
	int val;
} keywords[] = {
	{"at", K_AT, 0}, {"on", K_ON, 0}, {"the", K_THE, 0}, {"of", K_OF, 0}, {"in", K_IN, 0},
	{"next", K_NEXT, 0}, {"this", K_THIS, 0}, {"and", K_AND, 0}, {"from", K_FROM, 0},
	{"now", K_NOW, 0}, {"later", K_LATER, 0}, {"ago", K_AGO, 0}, {"after", K_AFTER, 0},
	{"today", K_DAYWORD, 0}, {"tomorrow", K_DAYWORD, 1}, {"yesterday", K_DAYWORD, -1},
	{"tonight", K_TONIGHT, 20 * 60},
	{"morning", K_PERIOD, 9 * 60}, {"afternoon", K_PERIOD, 15 * 60},
	{"evening", K_PERIOD, 18 * 60}, {"night", K_PERIOD, 20 * 60},
	{"noon", K_NOON, 12 * 60}, {"midday", K_NOON, 12 * 60}, {"midnight", K_MIDNIGHT, 0},
	{"am", K_AMPM, 0}, {"pm", K_AMPM, 12},
	{"s", K_UNIT, U_SEC}, {"sec", K_UNIT, U_SEC}, {"secs", K_UNIT, U_SEC},
	{"second", K_UNIT, U_SEC}, {"seconds", K_UNIT, U_SEC},
	{"m", K_UNIT, U_MIN}, {"min", K_UNIT, U_MIN}, {"mins", K_UNIT, U_MIN},
	{"minute", K_UNIT, U_MIN}, {"minutes", K_UNIT, U_MIN},
	{"h", K_UNIT, U_HOUR}, {"hr", K_UNIT, U_HOUR}, {"hrs", K_UNIT, U_HOUR},
	{"hour", K_UNIT, U_HOUR}, {"hours", K_UNIT, U_HOUR},
	{"d", K_UNIT, U_DAY}, {"day", K_UNIT, U_DAY}, {"days", K_UNIT, U_DAY},
	{"w", K_UNIT, U_WEEK}, {"wk", K_UNIT, U_WEEK}, {"wks", K_UNIT, U_WEEK},
	{"week", K_UNIT, U_WEEK}, {"weeks", K_UNIT, U_WEEK},
	{"month", K_UNIT, U_MONTH}, {"months", K_UNIT, U_MONTH},
	{"yr", K_UNIT, U_YEAR}, {"yrs", K_UNIT, U_YEAR}, {"year", K_UNIT, U_YEAR},
	{"years", K_UNIT, U_YEAR},
	{"a", K_A, 1}, {"an", K_A, 1}, {"half", K_HALF, 0},
	{"one", K_NUMWORD, 1}, {"two", K_NUMWORD, 2}, {"three", K_NUMWORD, 3},
	{"four", K_NUMWORD, 4}, {"five", K_NUMWORD, 5}, {"six", K_NUMWORD, 6},
	{"seven", K_NUMWORD, 7}, {"eight", K_NUMWORD, 8}, {"nine", K_NUMWORD, 9},
	{"ten", K_NUMWORD, 10}, {"eleven", K_NUMWORD, 11}, {"twelve", K_NUMWORD, 12},
	{"sunday", K_WEEKDAY, 0}, {"sun", K_WEEKDAY, 0}, {"monday", K_WEEKDAY, 1},
	{"mon", K_WEEKDAY, 1}, {"tuesday", K_WEEKDAY, 2}, {"tue", K_WEEKDAY, 2},
	{"tues", K_WEEKDAY, 2}, {"wednesday", K_WEEKDAY, 3}, {"wed", K_WEEKDAY, 3},
	{"thursday", K_WEEKDAY, 4}, {"thu", K_WEEKDAY, 4}, {"thur", K_WEEKDAY, 4},
	{"thurs", K_WEEKDAY, 4}, {"friday", K_WEEKDAY, 5}, {"fri", K_WEEKDAY, 5},
	{"saturday", K_WEEKDAY, 6}, {"sat", K_WEEKDAY, 6},
	{"january", K_MONTH, 1}, {"jan", K_MONTH, 1}, {"february", K_MONTH, 2},
	{"feb", K_MONTH, 2}, {"march", K_MONTH, 3}, {"mar", K_MONTH, 3},
	{"april", K_MONTH, 4}, {"apr", K_MONTH, 4}, {"may", K_MONTH, 5},
	{"june", K_MONTH, 6}, {"jun", K_MONTH, 6}, {"july", K_MONTH, 7}, {"jul", K_MONTH, 7},
	{"august", K_MONTH, 8}, {"aug", K_MONTH, 8}, {"september", K_MONTH, 9},
	{"sep", K_MONTH, 9}, {"sept", K_MONTH, 9}, {"october", K_MONTH, 10},
	{"oct", K_MONTH, 10}, {"november", K_MONTH, 11}, {"nov", K_MONTH, 11},
	{"december", K_MONTH, 12}, {"dec", K_MONTH, 12},
	{"st", K_ORD, 0}, {"nd", K_ORD, 0}, {"rd", K_ORD, 0}, {"th", K_ORD, 0},
	{"o'clock", K_OCLOCK, 0}, {"oclock", K_OCLOCK, 0}, {"t", K_T, 0},
};

static const char *const month_name[] = {"", "January", "February", "March", "April", "May",
	"June", "July", "August", "September", "October", "November", "December"};

enum { T_END, T_NUM, T_WORD, T_PUNCT };

struct tok {
	int type;
	enum kw kw;
	int val;       /* keyword value */
	int64_t num;   /* T_NUM */
	int ndig;      /* digits of a T_NUM; 0 for a number word */
	int space;     /* blank before it */
	const char *s; /* in the normalised text */
	int len;
};

#define MAXTOK 64

/* What the parts said. */
enum { D_NONE, D_REL, D_ABS, D_DOM, D_WEEKDAY };

struct spec {
	int date, date_tok;
	int rel_days;          /* D_REL: days from today */
	int keep_time;         /* a relative date: default time is now's */
	int today;             /* "today"/"this morning": no rolling to tomorrow */
	int64_t year;          /* D_ABS: 0 when not given */
	int mon, day;          /* D_ABS, D_DOM */
	int wd, next;          /* D_WEEKDAY */
	int has_time, h, mi, sec, ampm, bare_hour;
	int midnight;
	int period;            /* minutes of the period's default time, -1 none */
	int pm_bias, tonight;
	int has_rel, rel_exact_tok;
	int64_t rel_sec;       /* exact seconds */
	int rel_cal_days, rel_months;
	int now;
};

struct parser {
	const char *text; /* as given, for messages */
	char norm[256];
	struct tok t[MAXTOK + 1];
	int n, i;
	struct spec sp;
	char why[160];
};

static int
fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof p->why, fmt, ap);
	va_end(ap);
	return -1;
}

static int
unexpected(struct parser *p)
{
	const struct tok *t = &p->t[p->i];
	if (t->type == T_END)
		return fail(p, "it ends too early");
	return fail(p, "unexpected '%.*s'", t->len > 30 ? 30 : t->len, t->s);
}

/* Lower-case into p->norm with "a.m."/"p.m." folded to "am"/"pm" and a final
 * "." dropped; then split into numbers, words and punctuation. */
static int
tokenize(struct parser *p)
{
	const char *s = p->text;
	size_t j = 0, len = strlen(s);
	while (len && (isspace((unsigned char)s[len - 1])))
		len--;
	if (len && s[len - 1] == '.' && !(len >= 4 && (s[len - 2] == 'm' || s[len - 2] == 'M') &&
	    s[len - 3] == '.'))
		len--;
	if (len >= sizeof p->norm)
		return fail(p, "it is too long");
	for (size_t k = 0; k < len; k++) {
		char c = (char)tolower((unsigned char)s[k]);
		if ((c == 'a' || c == 'p') && k + 3 < len + 1 && s[k + 1] == '.' &&
		    (s[k + 2] == 'm' || s[k + 2] == 'M') && (k + 3 == len || s[k + 3] == '.') &&
		    (k == 0 || !isalpha((unsigned char)s[k - 1]))) {
			p->norm[j++] = c;
			p->norm[j++] = 'm';
			k += 2 + (k + 3 < len);
			continue;
		}
		p->norm[j++] = c;
	}
	p->norm[j] = 0;
	const char *q = p->norm;
	p->n = 0;
	for (;;) {
		int space = 0;
		while (isspace((unsigned char)*q))
			q++, space = 1;
		if (!*q)
			break;
		if (p->n == MAXTOK)
			return fail(p, "it has too many words");
		struct tok *t = &p->t[p->n++];
		memset(t, 0, sizeof *t);
		t->space = space || p->n == 1;
		t->s = q;
		if (isdigit((unsigned char)*q)) {
			t->type = T_NUM;
			while (isdigit((unsigned char)*q)) {
				if (t->ndig < 12)
					t->num = t->num * 10 + (*q - '0');
				t->ndig++;
				q++;
			}
		} else if (isalpha((unsigned char)*q)) {
			t->type = T_WORD;
			while (isalpha((unsigned char)*q) || (*q == '\'' && isalpha((unsigned char)q[1])))
				q++;
			size_t wl = (size_t)(q - t->s);
			t->kw = K_NONE;
			for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
				if (strlen(keywords[k].word) == wl &&
				    memcmp(keywords[k].word, t->s, wl) == 0) {
					t->kw = keywords[k].kind;
					t->val = keywords[k].val;
					break;
				}
			if (t->kw == K_NUMWORD) {
				t->type = T_NUM;
				t->num = t->val;
			}
		} else {
			t->type = T_PUNCT;
			q++;
		}
		t->len = (int)(q - t->s);
	}
	p->t[p->n] = (struct tok){.type = T_END, .s = q, .space = 1};
	return 0;
}

static struct tok *
cur(struct parser *p)
{
	return &p->t[p->i];
}

static struct tok *
peek(struct parser *p, int k)
{
	return p->i + k <= p->n ? &p->t[p->i + k] : &p->t[p->n];
}

static int
is_kw(const struct tok *t, enum kw k)
{
	return t->type == T_WORD && t->kw == k;
}

static int
is_punct(const struct tok *t, char c)
{
	return t->type == T_PUNCT && t->s[0] == c;
}

static int
set_date(struct parser *p, int kind)
{
	if (p->sp.date != D_NONE || (p->sp.has_rel && (p->sp.rel_cal_days || p->sp.rel_months)))
		return fail(p, "it names two dates");
	p->sp.date = kind;
	p->sp.date_tok = p->i;
	return 0;
}

static int
set_time(struct parser *p, int h, int mi, int sec)
{
	if (p->sp.has_time || p->sp.midnight)
		return fail(p, "it names two times of day");
	p->sp.has_time = 1;
	p->sp.h = h, p->sp.mi = mi, p->sp.sec = sec;
	return 0;
}

/* amount unit { [and] amount unit }: adds to the relative offset. */
static int
quantity(struct parser *p, int sign)
{
	int got = 0;
	for (;;) {
		struct tok *t = cur(p);
		int64_t amount;
		if (is_kw(t, K_HALF)) {
			/* "half an hour", "half hour" */
			p->i++;
			if (is_kw(cur(p), K_A))
				p->i++;
			if (!(is_kw(cur(p), K_UNIT) && cur(p)->val == U_HOUR))
				return unexpected(p);
			p->i++;
			p->sp.rel_sec += sign * 1800;
			p->sp.rel_exact_tok = 1;
			got = 1;
		} else if (t->type == T_NUM || is_kw(t, K_A)) {
			amount = t->type == T_NUM ? t->num : 1;
			if (t->type == T_NUM && t->ndig > 6)
				return fail(p, "%.*s is too large", t->len, t->s);
			p->i++;
			/* a decimal amount, "1.5 hours": millionths */
			int64_t frac = 0;
			if (t->ndig && is_punct(cur(p), '.') && !cur(p)->space &&
			    peek(p, 1)->type == T_NUM && peek(p, 1)->ndig && !peek(p, 1)->space &&
			    is_kw(peek(p, 2), K_UNIT)) {
				const struct tok *f = peek(p, 1);
				if (f->ndig > 6)
					return fail(p, "'%.*s' has too many decimals", (int)(f->s + f->len -
					    t->s), t->s);
				frac = f->num;
				for (int k = f->ndig; k < 6; k++)
					frac *= 10;
				p->i += 2;
			}
			/* "a half hour" */
			if (is_kw(t, K_A) && is_kw(cur(p), K_HALF) && is_kw(peek(p, 1), K_UNIT) &&
			    peek(p, 1)->val == U_HOUR)
				p->i++, amount = 0, frac = 500000;
			struct tok *u = cur(p);
			if (!is_kw(u, K_UNIT))
				return got ? (p->i--, 0) : unexpected(p);
			p->i++;
			/* "an hour and a half", "2 minutes and a half" */
			if (!frac && is_kw(cur(p), K_AND) && is_kw(peek(p, 1), K_A) &&
			    is_kw(peek(p, 2), K_HALF) && !is_kw(peek(p, 3), K_UNIT) &&
			    !is_kw(peek(p, 3), K_A))
				p->i += 3, frac = 500000;
			if (frac) {
				static const int64_t usec[] = {[U_SEC] = 1, [U_MIN] = 60, [U_HOUR] = 3600};
				if (u->val > U_HOUR)
					return fail(p, "a fraction of a %s is not a calendar step; say it in "
					    "hours or minutes", u->val == U_DAY ? "day" : u->val == U_WEEK ?
					    "week" : u->val == U_MONTH ? "month" : "year");
				p->sp.rel_sec += sign * (usec[u->val] * frac / 1000000);
			}
			switch (u->val) {
			case U_SEC: p->sp.rel_sec += sign * amount; p->sp.rel_exact_tok = 1; break;
			case U_MIN: p->sp.rel_sec += sign * amount * 60; p->sp.rel_exact_tok = 1; break;
			case U_HOUR: p->sp.rel_sec += sign * amount * 3600; p->sp.rel_exact_tok = 1; break;
			case U_DAY: p->sp.rel_cal_days += (int)(sign * amount); break;
			case U_WEEK: p->sp.rel_cal_days += (int)(sign * amount * 7); break;
			case U_MONTH: p->sp.rel_months += (int)(sign * amount); break;
			case U_YEAR: p->sp.rel_months += (int)(sign * amount * 12); break;
			}
			got = 1;
		} else {
			return got ? 0 : unexpected(p);
		}
		int save = p->i;
		if (is_kw(cur(p), K_AND) || is_punct(cur(p), ','))
			p->i++;
		struct tok *n = cur(p);
		if (!(n->type == T_NUM && is_kw(peek(p, 1), K_UNIT)) && !is_kw(n, K_HALF) &&
		    !(is_kw(n, K_A) && (is_kw(peek(p, 1), K_UNIT) || is_kw(peek(p, 1), K_HALF)))) {
			p->i = save;
			return 0;
		}
	}
}

static int
start_rel(struct parser *p)
{
	if (p->sp.has_rel)
		return fail(p, "it names two offsets");
	if (p->sp.date != D_NONE)
		return fail(p, "it names a date and an offset");
	p->sp.has_rel = 1;
	return 0;
}

/* hh:mm[:ss[.frac]] [am|pm], h am|pm, h o'clock [am|pm]; p->i at the hour.
 * Returns 1 when it read a time, 0 when the number is not one. */
static int
clock_time(struct parser *p, int bare_ok)
{
	struct tok *t = cur(p);
	int64_t h = t->num, mi = 0, sec = 0;
	int k = 1, colon = 0;
	if (is_punct(peek(p, 1), ':') && peek(p, 2)->type == T_NUM && !peek(p, 1)->space &&
	    !peek(p, 2)->space) {
		if (t->ndig == 0 || t->ndig > 2 || peek(p, 2)->ndig != 2)
			return fail(p, "'%.*s' is not a time of day",
			    (int)(peek(p, 2)->s + peek(p, 2)->len - t->s), t->s);
		mi = peek(p, 2)->num;
		k = 3;
		colon = 1;
		if (is_punct(peek(p, 3), ':') && peek(p, 4)->type == T_NUM && !peek(p, 3)->space &&
		    !peek(p, 4)->space && peek(p, 4)->ndig == 2) {
			sec = peek(p, 4)->num;
			k = 5;
			if (is_punct(peek(p, 5), '.') && peek(p, 6)->type == T_NUM &&
			    !peek(p, 5)->space && !peek(p, 6)->space)
				k = 7;
		}
	}
	int oclock = 0;
	if (is_kw(peek(p, k), K_OCLOCK)) {
		if (colon)
			return unexpected((p->i += k, p));
		oclock = 1;
		k++;
	}
	struct tok *ap = peek(p, k);
	int ampm = is_kw(ap, K_AMPM) ? 1 : 0;
	if (!colon && !ampm && !oclock && !bare_ok)
		return 0;
	if (t->ndig > 2 || (t->ndig == 0 && colon))
		return fail(p, "'%.*s' is not an hour", t->len, t->s);
	if (ampm) {
		if (h < 1 || h > 12)
			return fail(p, "hour %lld is out of range 1-12 for am/pm", (long long)h);
		h = h % 12 + ap->val;
	} else if (h > 23) {
		return fail(p, "hour %lld is out of range 0-23", (long long)h);
	}
	if (mi > 59)
		return fail(p, "minute %lld is out of range 0-59", (long long)mi);
	if (sec > 59)
		return fail(p, "second %lld is out of range 0-59", (long long)sec);
	if (set_time(p, (int)h, (int)mi, (int)sec))
		return -1;
	p->sp.ampm = ampm;
	p->sp.bare_hour = !ampm && !colon;
	p->i += k + ampm;
	return 1;
}

/* An optional four-digit year after a month and day. */
static int
opt_year(struct parser *p)
{
	int save = p->i;
	if (is_punct(cur(p), ','))
		p->i++;
	struct tok *t = cur(p);
	if (t->type == T_NUM && t->ndig == 4 && !is_punct(peek(p, 1), ':') &&
	    !is_kw(peek(p, 1), K_AMPM) && !is_kw(peek(p, 1), K_OCLOCK)) {
		if (t->num < 1970 || t->num > 9999)
			return fail(p, "year %lld is out of range 1970-9999", (long long)t->num);
		if (p->sp.day > days_in_month(t->num, (unsigned)p->sp.mon))
			return fail(p, "%s %lld has no day %d", month_name[p->sp.mon],
			    (long long)t->num, p->sp.day);
		p->sp.year = t->num;
		p->i++;
		return 0;
	}
	p->i = save;
	return 0;
}

static int
check_day(struct parser *p, int d, int m)
{
	static const int month_max[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (d < 1 || d > month_max[m])
		return fail(p, "%s has no day %d", month_name[m], d);
	return 0;
}

static int
number(struct parser *p, int time_ok)
{
	struct tok *t = cur(p), *n1 = peek(p, 1);
	/* YYYY-MM-DD */
	if (t->ndig == 4 && is_punct(n1, '-') && peek(p, 2)->type == T_NUM &&
	    is_punct(peek(p, 3), '-') && peek(p, 4)->type == T_NUM && !n1->space &&
	    !peek(p, 2)->space && !peek(p, 3)->space && !peek(p, 4)->space) {
		int64_t y = t->num, m = peek(p, 2)->num, d = peek(p, 4)->num;
		if (peek(p, 2)->ndig != 2 || peek(p, 4)->ndig != 2 || y < 1970)
			return fail(p, "'%.*s' is not a date (YYYY-MM-DD)", (int)(peek(p, 4)->s +
			    peek(p, 4)->len - t->s), t->s);
		if (m < 1 || m > 12)
			return fail(p, "month %lld is out of range 1-12", (long long)m);
		if (set_date(p, D_ABS))
			return -1;
		if (d < 1 || d > days_in_month(y, (unsigned)m))
			return fail(p, "%s %lld has no day %lld", month_name[m], (long long)y,
			    (long long)d);
		p->sp.year = y, p->sp.mon = (int)m, p->sp.day = (int)d;
		p->i += 5;
		if (is_kw(cur(p), K_T) && !cur(p)->space) {
			p->i++;
			if (cur(p)->type != T_NUM || cur(p)->space)
				return unexpected(p);
			int r = clock_time(p, 0);
			return r < 0 ? -1 : r == 0 ? unexpected(p) : 0;
		}
		return 0;
	}
	/* N unit [and ...] from now | later | ago */
	if (is_kw(n1, K_UNIT) || (is_punct(n1, '.') && !n1->space && peek(p, 2)->type == T_NUM &&
	    !peek(p, 2)->space && is_kw(peek(p, 3), K_UNIT))) {
		if (start_rel(p) || quantity(p, 1))
			return -1;
		if (is_kw(cur(p), K_FROM) && is_kw(peek(p, 1), K_NOW)) {
			p->i += 2;
			return 0;
		}
		if (is_kw(cur(p), K_LATER)) {
			p->i++;
			return 0;
		}
		if (is_kw(cur(p), K_AGO)) {
			p->sp.rel_sec = -p->sp.rel_sec;
			p->sp.rel_cal_days = -p->sp.rel_cal_days;
			p->sp.rel_months = -p->sp.rel_months;
			p->i++;
			return 0;
		}
		return fail(p, "an offset needs 'in' before it or 'from now' after it");
	}
	/* day [ordinal] [of] month [year], or the 15th */
	if (t->ndig && t->ndig <= 2 && (is_kw(n1, K_ORD) || is_kw(n1, K_MONTH) ||
	    (is_kw(n1, K_OF) && is_kw(peek(p, 2), K_MONTH)))) {
		int d = (int)t->num, k = 1;
		if (is_kw(n1, K_ORD)) {
			if (n1->space)
				return unexpected((p->i++, p));
			k++;
		}
		if (is_kw(peek(p, k), K_OF))
			k++;
		if (is_kw(peek(p, k), K_MONTH)) {
			int m = peek(p, k)->val;
			if (set_date(p, D_ABS) || check_day(p, d, m))
				return -1;
			p->sp.mon = m, p->sp.day = d;
			p->i += k + 1;
			return opt_year(p);
		}
		if (k == 1)
			return unexpected((p->i++, p));
		if (d < 1 || d > 31)
			return fail(p, "there is no day %d in any month", d);
		if (set_date(p, D_DOM))
			return -1;
		p->sp.day = d;
		p->i += k;
		return 0;
	}
	int r = clock_time(p, time_ok);
	if (r < 0)
		return -1;
	if (r == 0)
		return unexpected(p);
	return 0;
}

static int
parse(struct parser *p)
{
	struct spec *sp = &p->sp;
	sp->period = -1;
	int time_ok = 0; /* a bare number is an hour here */
	while (cur(p)->type != T_END) {
		struct tok *t = cur(p);
		int was_at = 0;
		if (is_punct(t, ',') || is_kw(t, K_ON) || is_kw(t, K_THE)) {
			p->i++;
			continue;
		}
		if (is_kw(t, K_AT)) {
			p->i++;
			was_at = 1;
			t = cur(p);
			if (t->type == T_NUM) {
				int r = clock_time(p, 1);
				if (r < 0)
					return -1;
				time_ok = 1;
				continue;
			}
			if (!(is_kw(t, K_NOON) || is_kw(t, K_MIDNIGHT) || is_kw(t, K_TONIGHT) ||
			    is_kw(t, K_PERIOD)))
				return unexpected(p);
		}
		(void)was_at;
		if (t->type == T_NUM) {
			if (number(p, time_ok))
				return -1;
			time_ok = 1;
			continue;
		}
		if (t->type != T_WORD)
			return unexpected(p);
		switch (t->kw) {
		case K_IN:
			p->i++;
			if (is_kw(cur(p), K_THE) && is_kw(peek(p, 1), K_PERIOD)) {
				p->i++;
				continue;
			}
			if (start_rel(p) || quantity(p, 1))
				return -1;
			break;
		case K_NOW:
			p->i++;
			if (sp->now || sp->has_rel)
				return fail(p, "it names 'now' twice");
			sp->now = 1;
			if (is_punct(cur(p), '+')) {
				p->i++;
				if (start_rel(p) || quantity(p, 1))
					return -1;
			}
			break;
		case K_A:
		case K_HALF:
			if (start_rel(p) || quantity(p, 1))
				return -1;
			if (is_kw(cur(p), K_FROM) && is_kw(peek(p, 1), K_NOW))
				p->i += 2;
			else if (is_kw(cur(p), K_LATER))
				p->i++;
			else
				return fail(p, "an offset needs 'in' before it or 'from now' after it");
			break;
		case K_DAYWORD:
			if (set_date(p, D_REL))
				return -1;
			sp->rel_days = t->val;
			sp->keep_time = 1;
			sp->today = t->val == 0;
			p->i++;
			break;
		case K_UNIT:
			/* the day after tomorrow */
			if (t->val == U_DAY && is_kw(peek(p, 1), K_AFTER) &&
			    is_kw(peek(p, 2), K_DAYWORD) && peek(p, 2)->val == 1) {
				if (set_date(p, D_REL))
					return -1;
				sp->rel_days = 2;
				sp->keep_time = 1;
				p->i += 3;
				break;
			}
			return unexpected(p);
		case K_TONIGHT:
			if (sp->date != D_NONE && !(sp->date == D_REL && sp->rel_days == 0))
				return fail(p, "it names two dates");
			if (sp->date == D_NONE && set_date(p, D_REL))
				return -1;
			if (sp->period >= 0)
				return fail(p, "it names two parts of the day");
			sp->rel_days = 0;
			sp->today = 1;
			sp->period = t->val;
			sp->pm_bias = 1;
			sp->tonight = 1;
			p->i++;
			break;
		case K_PERIOD:
			if (sp->period >= 0)
				return fail(p, "it names two parts of the day");
			sp->period = t->val;
			sp->pm_bias = t->val >= 12 * 60;
			p->i++;
			break;
		case K_THIS:
			p->i++;
			if (is_kw(cur(p), K_WEEKDAY)) {
				if (set_date(p, D_WEEKDAY))
					return -1;
				sp->wd = cur(p)->val;
				sp->keep_time = 1;
				p->i++;
			} else if (is_kw(cur(p), K_PERIOD)) {
				if (set_date(p, D_REL))
					return -1;
				sp->rel_days = 0;
				sp->today = 1;
				continue;
			} else {
				return unexpected(p);
			}
			break;
		case K_NEXT:
			p->i++;
			if (is_kw(cur(p), K_WEEKDAY)) {
				if (set_date(p, D_WEEKDAY))
					return -1;
				sp->wd = cur(p)->val;
				sp->next = 1;
				sp->keep_time = 1;
				p->i++;
			} else if (is_kw(cur(p), K_UNIT) && cur(p)->val >= U_WEEK) {
				if (start_rel(p))
					return -1;
				if (cur(p)->val == U_WEEK)
					sp->rel_cal_days = 7;
				else
					sp->rel_months = cur(p)->val == U_MONTH ? 1 : 12;
				p->i++;
			} else {
				return unexpected(p);
			}
			break;
		case K_WEEKDAY:
			if (set_date(p, D_WEEKDAY))
				return -1;
			sp->wd = t->val;
			sp->keep_time = 1;
			p->i++;
			break;
		case K_MONTH: {
			struct tok *d = peek(p, 1);
			int k = 1;
			if (is_kw(d, K_THE))
				d = peek(p, ++k);
			if (d->type != T_NUM || d->ndig == 0 || d->ndig > 2 ||
			    is_punct(peek(p, k + 1), ':') || is_kw(peek(p, k + 1), K_AMPM))
				return fail(p, "'%.*s' needs a day", t->len, t->s);
			if (set_date(p, D_ABS) || check_day(p, (int)d->num, t->val))
				return -1;
			sp->mon = t->val, sp->day = (int)d->num;
			p->i += k + 1;
			if (is_kw(cur(p), K_ORD)) {
				if (cur(p)->space)
					return unexpected(p);
				p->i++;
			}
			if (opt_year(p))
				return -1;
			break;
		}
		case K_NOON:
			if (set_time(p, 12, 0, 0))
				return -1;
			sp->ampm = 1; /* as unambiguous as 12pm */
			p->i++;
			break;
		case K_MIDNIGHT:
			if (sp->has_time || sp->midnight)
				return fail(p, "it names two times of day");
			sp->midnight = 1;
			p->i++;
			break;
		default:
			return unexpected(p);
		}
		time_ok = 1;
	}
	if (p->n == 0)
		return fail(p, "it is empty");
	return 0;
}

/* ---- resolving ---- */

/* The instant of a wall time: the first of two in a fall-back, the end of
 * the gap in a spring-forward. */
static int64_t
resolve(const struct tz *z, int64_t local)
{
	int64_t out[2];
	if (tz_from_local(z, local, out) > 0)
		return out[0];
	int64_t t = local - 27 * 3600;
	for (int k = 0; k < 64; k++) {
		struct tz_segment s;
		tz_segment(z, t, &s);
		if (s.start != INT64_MIN && s.prev_off < s.off && local >= s.start + s.prev_off &&
		    local < s.start + s.off)
			return s.start;
		if (s.end == INT64_MAX)
			break;
		t = s.end;
	}
	return local - tz_offset(z, local); /* not reached for real zones */
}

static int64_t
local_of(int64_t days, int h, int mi, int sec)
{
	return days * 86400 + (int64_t)h * 3600 + mi * 60 + sec;
}

static int64_t
fdiv(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

static void
add_months(int64_t *y, int *m, int *d, int n)
{
	int64_t mm = *y * 12 + (*m - 1) + n;
	*y = fdiv(mm, 12);
	*m = (int)(mm - *y * 12) + 1;
	int dim = days_in_month(*y, (unsigned)*m);
	if (*d > dim)
		*d = dim;
}

static int
evaluate(struct parser *p, int64_t now, const struct tz *z, int64_t *out)
{
	struct spec *sp = &p->sp;
	int32_t noff = tz_offset(z, now);
	int64_t nlocal = now + noff, today = fdiv(nlocal, 86400);
	int nsec = (int)(nlocal - today * 86400);
	int nh = nsec / 3600, nmi = nsec / 60 % 60, ns = nsec % 60;
	int today_wd = weekday_from_days(today);

	if (sp->now && !sp->has_rel) {
		if (sp->date || sp->has_time || sp->period >= 0 || sp->midnight)
			return fail(p, "'now' cannot have a date or time");
		*out = now;
		return 0;
	}
	/* the time of day */
	int h = nh, mi = nmi, sec = ns, explicit_time = 0;
	/* evening, night and tonight: a bare 5-11 is pm; 1-4 and 12 could be
	 * either half of the day and are refused; 05:00-12:59 is never theirs */
	int late = sp->period >= 18 * 60;
	const char *pname = sp->tonight ? "tonight" : sp->period == 9 * 60 ? "in the morning" :
	    sp->period == 15 * 60 ? "in the afternoon" : sp->period == 18 * 60 ? "in the evening" :
	    "at night";
	if (sp->has_time) {
		h = sp->h, mi = sp->mi, sec = sp->sec;
		explicit_time = 1;
		if (sp->period >= 0) {
			if (late && !sp->ampm && ((h >= 1 && h <= 4) || h == 12))
				return fail(p, "%d:%02d could be %02d:%02d or %02d:%02d; add am or pm", h,
				    mi, h % 12, mi, h % 12 + 12, mi);
			if (sp->pm_bias && !sp->ampm && h >= 1 && h <= 11)
				h += 12;
			else if (late && h >= 5 && h < 13)
				return fail(p, "%02d:%02d is not %s", h, mi, pname);
			else if (late && h < 5 && !sp->tonight)
				return sp->period > 18 * 60 ? fail(p, "%02d:%02d is after midnight; name "
				    "the day it falls on", h, mi) : fail(p, "%02d:%02d is not %s", h, mi, pname);
			else if (sp->pm_bias && sp->ampm && h < 12 && !sp->tonight)
				return fail(p, "%02d:%02d is not %s", h, mi, pname);
			else if (!sp->pm_bias && sp->ampm && h >= 12)
				return fail(p, "%02d:%02d is not in the morning", h, mi);
		}
	} else if (sp->midnight) {
		if (sp->period >= 0 && !late)
			return fail(p, "midnight is not %s", pname);
		h = mi = sec = 0;
		explicit_time = 1;
	} else if (sp->period >= 0) {
		h = sp->period / 60, mi = sp->period % 60, sec = 0;
		explicit_time = 1;
	}
	if (sp->has_rel) {
		if (sp->date != D_NONE)
			return fail(p, "it names both a date and an offset");
		if (sp->rel_exact_tok && (explicit_time && !sp->rel_cal_days && !sp->rel_months))
			return fail(p, "a time of day cannot follow an offset in minutes or hours");
		if (sp->midnight && (sp->rel_cal_days || sp->rel_months))
			return fail(p, "'midnight' cannot follow an offset");
		int64_t base = now;
		if (sp->rel_cal_days || sp->rel_months || explicit_time) {
			int64_t y;
			unsigned um, ud;
			civil_from_days(today, &y, &um, &ud);
			int m = (int)um, d = (int)ud;
			add_months(&y, &m, &d, sp->rel_months);
			int64_t days = days_from_civil(y, (unsigned)m, (unsigned)d) + sp->rel_cal_days;
			base = resolve(z, local_of(days, h, mi, sec));
		}
		*out = base + sp->rel_sec;
		return 0;
	}
	int64_t days = today;
	int roll = 0; /* 1: move on by a day, 2: by a week, 3: by a year, 4: by a month */
	switch (sp->date) {
	case D_NONE:
		if (!explicit_time)
			return fail(p, "it names no date or time");
		roll = 1;
		break;
	case D_REL:
		days = today + sp->rel_days;
		if (sp->tonight && !sp->midnight && h < 5)
			days++; /* tonight at 1am, tonight at 00:30: early tomorrow */
		if (!sp->keep_time && !explicit_time)
			h = mi = sec = 0;
		break;
	case D_WEEKDAY: {
		int delta = (sp->wd - today_wd + 7) % 7;
		if (sp->next && delta == 0)
			delta = 7;
		if (!sp->next && delta == 0 && !explicit_time)
			delta = 7;
		days = today + delta;
		if (!sp->next && delta == 0)
			roll = 2;
		break;
	}
	case D_ABS: {
		if (!explicit_time)
			h = mi = sec = 0;
		if (sp->year) {
			days = days_from_civil(sp->year, (unsigned)sp->mon, (unsigned)sp->day);
			break;
		}
		int64_t y;
		unsigned um, ud;
		civil_from_days(today, &y, &um, &ud);
		for (int k = 0; k <= 8; k++) {
			if (sp->day > days_in_month(y + k, (unsigned)sp->mon))
				continue;
			days = days_from_civil(y + k, (unsigned)sp->mon, (unsigned)sp->day);
			int64_t t = resolve(z, local_of(days + sp->midnight, h, mi, sec));
			if (t >= now)
				break;
		}
		break;
	}
	case D_DOM: {
		if (!explicit_time)
			h = mi = sec = 0;
		int64_t y;
		unsigned um, ud;
		civil_from_days(today, &y, &um, &ud);
		int m = (int)um;
		for (int k = 0; k <= 12; k++, m++) {
			if (m > 12)
				m = 1, y++;
			if (sp->day > days_in_month(y, (unsigned)m))
				continue;
			days = days_from_civil(y, (unsigned)m, (unsigned)sp->day);
			int64_t t = resolve(z, local_of(days + sp->midnight, h, mi, sec));
			if (t >= now)
				break;
		}
		break;
	}
	}
	if (sp->midnight)
		days++;
	int64_t t = resolve(z, local_of(days, h, mi, sec));
	if (roll && t < now && !sp->today) {
		days += roll == 2 ? 7 : 1;
		t = resolve(z, local_of(days, h, mi, sec));
	}
	*out = t;
	return 0;
}

static int
parse_at(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e)
{
	if (!text)
		text = "";
	char trimmed[256];
	if (strlen(text) < sizeof trimmed) { /* a longer one is refused below, never cut */
		snprintf(trimmed, sizeof trimmed, "%s", text);
		str_trim(trimmed);
		if (time_parse_rfc3339(trimmed, out) == 0)
			return ST_OK;
	}
	struct parser *p = xcalloc(1, sizeof *p);
	p->text = text;
	int rc = ST_OK;
	if (strlen(text) >= sizeof p->norm || tokenize(p) || parse(p) || evaluate(p, now, z, out)) {
		if (strlen(text) >= sizeof p->norm)
			snprintf(p->why, sizeof p->why, "it is too long");
		if (!p->why[0])
			snprintf(p->why, sizeof p->why, "it is empty");
		rc = err_set(e, ST_INVALID,
		    "cannot understand time '%.100s' (read in %s): %s; try 'tomorrow at 10am', "
		    "'in 2 hours' or 2026-11-23T07:00:00Z", text, tz_name(z), p->why);
	}
	free(p);
	return rc;
}

/* Messages quote the input: keep them one line whatever it holds. */
static int
one_line(struct err *e, int rc)
{
	if (rc)
		for (char *s = e->msg; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				*s = isspace((unsigned char)*s) ? ' ' : '?';
	return rc;
}

int
when_parse_any(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e)
{
	return one_line(e, parse_at(text, now, z, out, e));
}

int
when_parse(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e)
{
	int rc = parse_at(text, now, z, out, e);
	if (rc)
		return one_line(e, rc);
	if (*out < now - 60) {
		char loc[64];
		tz_fmt_local(z, *out, loc, sizeof loc);
		return one_line(e, err_set(e, ST_INVALID, "'%.100s' is %s %s in %s, which is in the "
		    "past", text, loc, tz_abbr(z, *out), tz_name(z)));
	}
	return ST_OK;
}
