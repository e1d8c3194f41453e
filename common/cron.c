/* cron.c: five-field cron expressions (Vixie/cronie semantics) and the
 * search for the next firing instant in a time zone.
 *
 * Grammar (crontab(5); names and nicknames in any case):
 *
 *	expr     = blank* ( field blank+ field blank+ field blank+ field blank+ field
 *	                  | "@" nickname ) blank*
 *	field    = item { "," item }
 *	item     = "*" [ "/" step ] | value [ "-" value [ "/" step ] ]
 *	value    = number | name          (names: jan-dec, sun-sat, or in full)
 *	nickname = yearly | annually | monthly | weekly | daily | midnight | hourly
 *
 * Fields: minute 0-59, hour 0-23, day-of-month 1-31, month 1-12,
 * day-of-week 0-7 (0 and 7 are Sunday).  A field "starts with '*'" when
 * its first character is '*'; when both day fields are restricted a day
 * matches if either matches, otherwise both must (cronie).  A step needs a
 * range or '*': "5/10" is refused rather than guessed at.
 *
 * The search never walks minute by minute: it follows the zone's offset
 * segments (tz_segment) in real-time order and inside each one finds the
 * first matching wall minute with next-set-bit operations on the month,
 * day, hour and minute bitsets.  DST (cronie): a fixed-time job (neither
 * minute nor hour starts with '*') fires once at the end of a spring-forward
 * gap that holds any of its wall times, and only in the first pass of a
 * fall-back; a wildcard job follows the wall clock in real time. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cron.h"
#include "utf8.h"

enum cron_error {
	CE_FIELDS, CE_EMPTY, CE_NUMBER, CE_NAME, CE_RANGE, CE_BACKWARDS, CE_STEP,
	CE_STEP_RANGE, CE_SYNTAX, CE_NICK, CE_REBOOT, CE_NEVER, CE_BLANK,
};

static const char *const ecodes[] = {
	[CE_FIELDS] = "expected 5 fields (minute hour day-of-month month day-of-week), got %d",
	[CE_EMPTY] = "empty list item",
	[CE_NUMBER] = "'%s' is not a number",
	[CE_NAME] = "unknown name '%s'",
	[CE_RANGE] = "%s is out of range %d-%d",
	[CE_BACKWARDS] = "range %s runs backwards",
	[CE_STEP] = "step '%s' is not a number from 1 to %d",
	[CE_STEP_RANGE] = "a step needs a range or '*' (e.g. '%s-%d/%s')",
	[CE_SYNTAX] = "unexpected '%s'",
	[CE_NICK] = "unknown nickname '%s' (expected @yearly, @annually, @monthly, @weekly, "
		    "@daily, @midnight or @hourly)",
	[CE_REBOOT] = "'@reboot' is not supported: agentcron has no boot event "
		      "(use a time expression, or a nickname such as @daily)",
	[CE_NEVER] = "'%s' can never fire (%s)",
	[CE_BLANK] = "empty cron expression",
};

enum { F_MIN, F_HOUR, F_DOM, F_MON, F_DOW };

static const struct field {
	const char *name;
	int lo, hi;
	int star_flag;
} fields[5] = {
	{"minute", 0, 59, CRON_MIN_STAR},
	{"hour", 0, 23, CRON_HOUR_STAR},
	{"day-of-month", 1, 31, CRON_DOM_STAR},
	{"month", 1, 12, 0},
	{"day-of-week", 0, 7, CRON_DOW_STAR},
};

static const char *const month_names[] = {"", "jan", "feb", "mar", "apr", "may", "jun",
	"jul", "aug", "sep", "oct", "nov", "dec"};
static const char *const month_full[] = {"", "january", "february", "march", "april", "may",
	"june", "july", "august", "september", "october", "november", "december"};
static const char *const day_names[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
static const char *const day_full[] = {"sunday", "monday", "tuesday", "wednesday",
	"thursday", "friday", "saturday"};
static const char *const month_title[] = {"", "January", "February", "March", "April", "May",
	"June", "July", "August", "September", "October", "November", "December"};
static const char *const month_abbr[] = {"", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
	"Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const day_abbr[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char *const day_title[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
	"Thursday", "Friday", "Saturday"};

static const struct nickname {
	const char *name, *expr;
} nicknames[] = {
	{"yearly", "0 0 1 1 *"},
	{"annually", "0 0 1 1 *"},
	{"monthly", "0 0 1 * *"},
	{"weekly", "0 0 * * 0"},
	{"daily", "0 0 * * *"},
	{"midnight", "0 0 * * *"},
	{"hourly", "0 * * * *"},
};

static int
is_blank(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int
word_eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

static int
field_error(struct err *e, int f, const char *text, size_t len, int code, ...)
{
	char detail[256];
	va_list ap;
	va_start(ap, code);
	vsnprintf(detail, sizeof detail, ecodes[code], ap);
	va_end(ap);
	char q[72];
	return err_set(e, ST_INVALID, "bad %s field '%s': %s", fields[f].name,
	    utf8_quote(q, sizeof q, text, len), detail);
}

/* The character at p (not a byte of it) as text for a message. */
static const char *
char_at(char *buf, size_t n, const char *p, const char *end)
{
	uint32_t cp;
	size_t k = utf8_decode(p, (size_t)(end - p), &cp);
	return utf8_quote(buf, n, p, k ? k : 1);
}

/* One value: a number or (month, day-of-week) a name.  Returns the end. */
static const char *
get_value(int f, const char *p, const char *end, int *v, const char *ftext, size_t flen,
    struct err *e, int *rc)
{
	const char *q = p;
	if (q < end && isdigit((unsigned char)*q)) {
		long n = 0;
		while (q < end && isdigit((unsigned char)*q)) {
			if (n < 100000)
				n = n * 10 + (*q - '0');
			q++;
		}
		if (n < fields[f].lo || n > fields[f].hi) {
			char num[32]; /* a long number whole, a longer one cut with "..." */
			if (q - p <= 24)
				snprintf(num, sizeof num, "%.*s", (int)(q - p), p);
			else
				snprintf(num, sizeof num, "%.21s...", p);
			*rc = field_error(e, f, ftext, flen, CE_RANGE, num, fields[f].lo, fields[f].hi);
			return NULL;
		}
		*v = (int)n;
		return q;
	}
	while (q < end && isalpha((unsigned char)*q))
		q++;
	char word[32];
	snprintf(word, sizeof word, "%.*s", (int)(q - p > 20 ? 20 : q - p), p); /* letters: ASCII */
	if (q == p) {
		*rc = field_error(e, f, ftext, flen, p < end ? CE_SYNTAX : CE_EMPTY,
		    char_at(word, sizeof word, p, end));
		return NULL;
	}
	size_t n = (size_t)(q - p);
	if (f == F_MON)
		for (int i = 1; i <= 12; i++)
			if (word_eq(p, n, month_names[i]) || word_eq(p, n, month_full[i])) {
				*v = i;
				return q;
			}
	if (f == F_DOW)
		for (int i = 0; i < 7; i++)
			if (word_eq(p, n, day_names[i]) || word_eq(p, n, day_full[i])) {
				*v = i;
				return q;
			}
	*rc = field_error(e, f, ftext, flen, f == F_MON || f == F_DOW ? CE_NAME : CE_NUMBER, word);
	return NULL;
}

static int
parse_field(int f, const char *text, size_t len, uint64_t *bits, int *star, struct err *e)
{
	const char *p = text, *end = text + len;
	int lo = fields[f].lo, hi = fields[f].hi, rc = ST_OK;
	*bits = 0;
	*star = len > 0 && text[0] == '*';
	for (;;) {
		int a, b, step = 1, range = 0;
		const char *item = p;
		if (p < end && *p == '*') {
			a = lo, b = hi, range = 1;
			p++;
		} else {
			if (p == end || *p == ',')
				return field_error(e, f, text, len, CE_EMPTY);
			if (!(p = get_value(f, p, end, &a, text, len, e, &rc)))
				return rc;
			b = a;
			if (p < end && *p == '-') {
				if (!(p = get_value(f, p + 1, end, &b, text, len, e, &rc)))
					return rc;
				range = 1;
				if (b < a) {
					char r[64];
					snprintf(r, sizeof r, "%.*s", (int)(p - item > 40 ? 40 : p - item), item);
					return field_error(e, f, text, len, CE_BACKWARDS, r);
				}
			}
		}
		if (p < end && *p == '/') {
			const char *s = ++p;
			long n = 0;
			while (p < end && isdigit((unsigned char)*p)) {
				if (n < 100000)
					n = n * 10 + (*p - '0');
				p++;
			}
			int maxstep = hi - lo + 1;
			if (p == s || n < 1 || n > maxstep) {
				char st[32];
				const char *q = s;
				while (q < end && *q != ',')
					q++;
				return field_error(e, f, text, len, CE_STEP,
				    utf8_quote(st, sizeof st, s, (size_t)(q - s)), maxstep);
			}
			if (!range) {
				char av[16], sv[16];
				snprintf(av, sizeof av, "%d", a);
				snprintf(sv, sizeof sv, "%ld", n);
				return field_error(e, f, text, len, CE_STEP_RANGE, av, hi, sv);
			}
			step = (int)n;
		}
		for (int v = a; v <= b; v += step)
			*bits |= (uint64_t)1 << (f == F_DOW && v == 7 ? 0 : v);
		if (p == end)
			return ST_OK;
		if (*p != ',') {
			char ch[16];
			return field_error(e, f, text, len, CE_SYNTAX, char_at(ch, sizeof ch, p, end));
		}
		p++;
	}
}

/* The largest day each month can have (February: 29). */
static const int month_max[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

static int
never_fires(const char *expr, const struct cron *c, struct err *e)
{
	if (!(c->flags & (CRON_DOM_STAR | CRON_DOW_STAR)) && c->dow)
		return ST_OK; /* either day field may match: every month has every weekday */
	if (!c->dow)
		return err_set(e, ST_INVALID, ecodes[CE_NEVER], expr, "no day of the week");
	for (int m = 1; m <= 12; m++)
		if ((c->mon >> m & 1) && (c->dom & ((2u << month_max[m]) - 2)))
			return ST_OK;
	char why[320], days[128] = "", months[160] = "";
	int nm = 0, nd = 0;
	for (int d = 1; d <= 31; d++)
		if (c->dom >> d & 1) {
			if (nd < 4)
				snprintf(days + strlen(days), sizeof days - strlen(days), "%s%d",
				    nd ? " or " : "", d);
			nd++;
		}
	for (int m = 1; m <= 12; m++)
		if (c->mon >> m & 1) {
			snprintf(months + strlen(months), sizeof months - strlen(months), "%s%s",
			    nm ? ", " : "", month_title[m]);
			nm++;
		}
	snprintf(why, sizeof why, "%s %s no day %s%s", months, nm > 1 ? "have" : "has", days,
	    nd > 4 ? " ..." : "");
	return err_set(e, ST_INVALID, ecodes[CE_NEVER], expr, why);
}

static int parse_expr(const char *expr, struct cron *c, struct err *e);

/* Messages quote the input: keep them one line whatever it holds. */
int
cron_parse(const char *expr, struct cron *c, struct err *e)
{
	int rc = parse_expr(expr, c, e);
	if (rc)
		for (char *s = e->msg; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				*s = is_blank(*s) ? ' ' : '?';
	return rc;
}

static int
parse_expr(const char *expr, struct cron *c, struct err *e)
{
	const char *p = expr ? expr : "";
	memset(c, 0, sizeof *c);
	while (is_blank(*p))
		p++;
	if (*p == '@') {
		const char *w = ++p;
		while (*p && !is_blank(*p))
			p++;
		size_t n = (size_t)(p - w);
		while (is_blank(*p))
			p++;
		char extra[32], nick[32];
		if (*p)
			return err_set(e, ST_INVALID, "unexpected '%s' after the nickname '@%s'",
			    utf8_quote(extra, sizeof extra, p, strlen(p)), utf8_quote(nick, sizeof nick, w, n));
		if (word_eq(w, n, "reboot"))
			return err_set(e, ST_INVALID, "%s", ecodes[CE_REBOOT]);
		for (size_t i = 0; i < sizeof nicknames / sizeof *nicknames; i++)
			if (word_eq(w, n, nicknames[i].name))
				return parse_expr(nicknames[i].expr, c, e);
		char name[32];
		snprintf(nick, sizeof nick, "@%s", utf8_quote(name, sizeof name - 1, w, n));
		return err_set(e, ST_INVALID, ecodes[CE_NICK], nick);
	}
	const char *start[6];
	size_t len[6];
	int nf = 0;
	while (*p) {
		const char *s = p;
		while (*p && !is_blank(*p))
			p++;
		if (nf < 6)
			start[nf] = s, len[nf] = (size_t)(p - s);
		nf++;
		while (is_blank(*p))
			p++;
	}
	if (nf == 0)
		return err_set(e, ST_INVALID, "%s", ecodes[CE_BLANK]);
	if (nf != 5)
		return err_set(e, ST_INVALID, ecodes[CE_FIELDS], nf);
	uint64_t bits[5];
	for (int f = 0; f < 5; f++) {
		int star, rc = parse_field(f, start[f], len[f], &bits[f], &star, e);
		if (rc)
			return rc;
		if (star)
			c->flags |= fields[f].star_flag;
	}
	c->min = bits[F_MIN];
	c->hour = (uint32_t)bits[F_HOUR];
	c->dom = (uint32_t)bits[F_DOM];
	c->mon = (uint16_t)bits[F_MON];
	c->dow = (uint8_t)bits[F_DOW];
	char shown[128];
	snprintf(shown, sizeof shown, "%.*s", (int)(start[4] + len[4] - start[0] > 100 ? 100 :
	    start[4] + len[4] - start[0]), start[0]);
	return never_fires(shown, c, e);
}

/* ---- the search ---- */

/* Days of month m of year y that match: bit d for day d. */
static uint32_t
day_mask(const struct cron *c, int64_t y, int m, int64_t first_day)
{
	int dim = days_in_month(y, (unsigned)m);
	uint32_t valid = (uint32_t)((2ull << dim) - 2);
	unsigned w = (unsigned)weekday_from_days(first_day);
	unsigned dow = c->dow & 0x7f;
	/* bit k: day k+1, whose weekday is (w + k) % 7 */
	uint64_t r = ((dow >> w) | (dow << (7 - w))) & 0x7f;
	uint64_t wk = r | r << 7 | r << 14 | r << 21 | r << 28;
	uint32_t dm = (uint32_t)(wk << 1);
	uint32_t m2 = (c->flags & (CRON_DOM_STAR | CRON_DOW_STAR)) ? (c->dom & dm) : (c->dom | dm);
	return m2 & valid;
}

#define SEARCH_YEARS 401 /* the Gregorian calendar repeats every 400 years */

/* The first wall minute >= lo (local seconds, a whole minute) that matches,
 * if it is < hi; else INT64_MAX. */
static int64_t
next_wall(const struct cron *c, int64_t lo, int64_t hi)
{
	int64_t days = floor_div(lo, 86400), secs = lo - days * 86400;
	int64_t y;
	unsigned um, ud;
	civil_from_days(days, &y, &um, &ud);
	int m = (int)um, d = (int)ud, h = (int)(secs / 3600), mi = (int)(secs / 60 % 60);
	int64_t ylimit = y + SEARCH_YEARS;
	for (;;) {
		/* month */
		uint32_t mb = c->mon & ~((1u << m) - 1) & 0x1ffe;
		if (!mb) {
			if (++y > ylimit)
				return INT64_MAX;
			m = __builtin_ctz(c->mon & 0x1ffe);
			if (!m)
				return INT64_MAX;
			d = 1, h = 0, mi = 0;
			if (days_from_civil(y, (unsigned)m, 1) * 86400 >= hi)
				return INT64_MAX;
			continue;
		}
		int m2 = __builtin_ctz(mb);
		if (m2 != m) {
			m = m2, d = 1, h = 0, mi = 0;
			if (days_from_civil(y, (unsigned)m, 1) * 86400 >= hi)
				return INT64_MAX;
		}
		/* day */
		int64_t first = days_from_civil(y, (unsigned)m, 1);
		uint32_t db = day_mask(c, y, m, first) & ~((2u << (d - 1)) - 1);
		if (!db) {
			if (++m > 12)
				m = 1, y++;
			d = 1, h = 0, mi = 0;
			if (y > ylimit || days_from_civil(y, (unsigned)m, 1) * 86400 >= hi)
				return INT64_MAX;
			continue;
		}
		int d2 = __builtin_ctz(db);
		if (d2 != d)
			d = d2, h = 0, mi = 0;
		/* hour and minute */
		uint32_t hb = c->hour & ~((1u << h) - 1) & 0xffffff;
		for (;;) {
			if (!hb)
				break;
			int h2 = __builtin_ctz(hb);
			if (h2 != h)
				h = h2, mi = 0;
			uint64_t nb = c->min & ~((1ull << mi) - 1) & 0x0fffffffffffffffull;
			if (nb) {
				int64_t L = (first + d - 1) * 86400 + (int64_t)h * 3600 +
				    (int64_t)__builtin_ctzll(nb) * 60;
				return L < hi ? L : INT64_MAX;
			}
			hb &= ~(1u << h);
			mi = 0;
		}
		/* next day */
		h = 0, mi = 0;
		if (++d > days_in_month(y, (unsigned)m)) {
			d = 1;
			if (++m > 12)
				m = 1, y++;
			if (y > ylimit || days_from_civil(y, (unsigned)m, 1) * 86400 >= hi)
				return INT64_MAX;
		}
	}
}

static int64_t
ceil_min(int64_t t)
{
	return floor_div(t + 59, 60) * 60;
}

#define T_LIMIT ((int64_t)1 << 42) /* about 139,000 years either side of 1970 */

int64_t
cron_next(const struct cron *c, const struct tz *z, int64_t after)
{
	if (after < -T_LIMIT || after > T_LIMIT || !c->min || !c->hour || !c->mon ||
	    !(c->mon & 0x1ffe) || !(c->dom | c->dow))
		return -1;
	int fixed = !(c->flags & (CRON_MIN_STAR | CRON_HOUR_STAR));
	int64_t t0 = after + 1, give_up = t0 + (int64_t)SEARCH_YEARS * 366 * 86400;
	struct tz_segment s;
	tz_segment(z, t0, &s);
	for (;;) {
		int64_t from = s.start > t0 ? s.start : t0;
		int entered = s.start != INT64_MIN && s.start >= t0;
		if (fixed && entered && s.prev_off < s.off) {
			/* A spring-forward gap: its wall times fire once, now. */
			int64_t g = next_wall(c, ceil_min(s.start + s.prev_off), s.start + s.off);
			if (g != INT64_MAX)
				return s.start;
		}
		int64_t lo = from + s.off;
		if (fixed && s.start != INT64_MIN && s.prev_off > s.off && s.start + s.prev_off > lo)
			lo = s.start + s.prev_off; /* the second pass of a fall-back */
		int64_t hi = s.end == INT64_MAX ? INT64_MAX : s.end + s.off, next = s.end;
		if (lo < hi) {
			int64_t L = next_wall(c, ceil_min(lo), INT64_MAX);
			if (L == INT64_MAX)
				return -1;
			if (L < hi)
				return L - s.off;
			/* No wall time in [lo, L) matches.  Past a span of 26 hours
			 * (the largest fold) no later instant shows a wall time below
			 * lo again, and no instant before L - 27h shows one as late
			 * as L: skip the segments in between. */
			if (hi - lo >= 26 * 3600 && L - 27 * 3600 > next)
				next = L - 27 * 3600;
		}
		if (s.end == INT64_MAX || s.end > give_up)
			return -1;
		tz_segment(z, next, &s);
	}
}

/* ---- descriptions ---- */

static int
popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

static int
single(uint64_t x)
{
	return x && !(x & (x - 1));
}

static int
lowbit(uint64_t x)
{
	return __builtin_ctzll(x);
}

/* The set bits of x from lo to hi as a phrase: "1", "1 and 15", "1, 10 and
 * 20", "1 to 7" for a run of three or more; at most six items otherwise.
 * names (NULL: numbers) names each value; order (NULL: ascending) lists
 * the values lo..hi in the order people read them.  0 when the set is not
 * that simple. */
static int
fmt_set(struct buf *b, uint64_t x, int lo, int hi, const char *const *names, const int *order)
{
	int vals[64], pos[64], nv = 0, run = 1;
	for (int k = lo; k <= hi; k++) {
		int v = order ? order[k - lo] : k;
		if (x >> v & 1) {
			vals[nv] = v;
			pos[nv] = k;
			run = run && (nv == 0 || pos[nv - 1] == k - 1);
			nv++;
		}
	}
	if (nv == 0 || (nv > 6 && !run))
		return 0;
	char num[16];
	for (int i = 0; i < nv; i++) {
		if (run && nv >= 3 && i > 0 && i < nv - 1)
			continue;
		buf_puts(b, i == 0 ? "" : run && nv >= 3 ? " to " : i == nv - 1 ? " and " : ", ");
		snprintf(num, sizeof num, "%d", vals[i]);
		buf_puts(b, names ? names[vals[i]] : num);
	}
	return 1;
}

/* The step of x if it is every step-th value from its lowest up to its
 * highest (and at least two of them), else 0. */
static int
step_of(uint64_t x)
{
	if (popcount(x) < 2)
		return 0;
	int lo = lowbit(x), hi = 63 - __builtin_clzll(x);
	int step = lowbit(x >> lo >> 1) + 1;
	for (int v = lo; v <= hi; v++)
		if ((int)(x >> v & 1) != ((v - lo) % step == 0))
			return 0;
	return step;
}

/* "07:00", "07:00 and 19:00", "09:15 and 09:45": every (hour, minute)
 * pair when there are at most six; 0 when there are more. */
static int
fmt_times(const struct cron *c, char *buf, size_t n)
{
	int total = popcount(c->min) * popcount(c->hour), k = 0;
	if (total > 6)
		return 0;
	size_t len = 0;
	buf[0] = 0;
	for (int h = 0; h < 24; h++) {
		for (int m = 0; m < 60 && c->hour >> h & 1; m++) {
			if (!(c->min >> m & 1))
				continue;
			const char *sep = k == 0 ? "" : k == total - 1 ? " and " : ", ";
			int w = snprintf(buf + len, n - len, "%s%02d:%02d", sep, h, m);
			if (w < 0 || (size_t)w >= n - len)
				return 0;
			len += (size_t)w;
			k++;
		}
	}
	return 1;
}

/* "*" with every value, as "*" means. */
static int
all_minutes(const struct cron *c)
{
	return c->min == 0x0fffffffffffffffull;
}

/* Each field with every value. */
static const uint32_t ALL_HOURS = 0xffffff, ALL_DOM = 0xfffffffe;
static const uint16_t ALL_MON = 0x1ffe;
static const uint8_t ALL_DOW = 0x7f;

/* Monday first, Sunday last, as people list a week. */
static const int week_order[] = {1, 2, 3, 4, 5, 6, 0};

/* The times of day a job repeats at, when they are not a short list:
 * "Every 30 minutes from 09:00 to 17:30", "Hourly at :15", "Every 2 hours
 * at :00".  0 when they have no such form. */
static int
fmt_repeat(const struct cron *c, struct buf *b)
{
	int mstep = all_minutes(c) ? 1 : step_of(c->min);
	int hlo = lowbit(c->hour), hhi = 31 - __builtin_clz(c->hour);
	int hrun = c->hour == (uint32_t)(((1ull << (hhi + 1)) - 1) & ~((1ull << hlo) - 1));
	int mlo = lowbit(c->min), mhi = 63 - __builtin_clzll(c->min);
	if (mstep && mlo == 0 && 60 % mstep == 0 && mlo + 60 - mstep == mhi) {
		/* every mstep minutes around the clock within the hours */
		if (mstep == 1)
			buf_puts(b, "Every minute");
		else
			buf_printf(b, "Every %d minutes", mstep);
		if (c->hour == ALL_HOURS)
			return 1;
		if (hrun) {
			buf_printf(b, " from %02d:00 to %02d:%02d", hlo, hhi, mhi);
			return 1;
		}
		return 0;
	}
	if (!single(c->min))
		return 0;
	if (c->hour == ALL_HOURS) {
		buf_printf(b, "Hourly at :%02d", mlo);
		return 1;
	}
	if (hrun) {
		buf_printf(b, "Hourly from %02d:%02d to %02d:%02d", hlo, mlo, hhi, mlo);
		return 1;
	}
	int hstep = step_of(c->hour);
	if (hstep && hlo == 0 && 24 % hstep == 0 && hhi == 24 - hstep) {
		buf_printf(b, "Every %d hours at :%02d", hstep, mlo);
		return 1;
	}
	if (hstep) {
		buf_printf(b, "Every %d hours from %02d:%02d to %02d:%02d", hstep, hlo, mlo, hhi, mlo);
		return 1;
	}
	return 0;
}

/* The weekdays of c: ", Monday to Friday" (sep first) for a run of three
 * or more, " on Mondays" or " on Mondays and Fridays", " on Mon, Wed and
 * Fri"; and_ joins them to days of the month. */
static int
fmt_weekdays(const struct cron *c, struct buf *b, const char *sep, int and_)
{
	struct buf days = {0};
	int ok = fmt_set(&days, c->dow, 0, 6, day_title, week_order);
	if (ok && strstr(days.data, " to ")) {
		buf_printf(b, "%s%s", and_ ? " and " : sep, days.data);
	} else if (ok && popcount(c->dow) <= 2) {
		buf_puts(b, and_ ? " and on " : " on ");
		for (int k = 0, i = 0; k < 7; k++)
			if (c->dow >> week_order[k] & 1)
				buf_printf(b, "%s%ss", i++ ? " and " : "", day_title[week_order[k]]);
	} else if (ok) {
		buf_puts(b, and_ ? " and on " : " on ");
		ok = fmt_set(b, c->dow, 0, 6, day_abbr, week_order);
	}
	buf_free(&days);
	return ok;
}

/* The days a job fires on, after its times: " on days 1 and 15", " on
 * Mondays", ", Monday to Friday" (sep before a run of weekdays), " on day
 * 13 and on Fridays" (either, as cron reads two restricted day fields),
 * then " in March" or " from January to June".  0 when the days have no
 * such form (a day-of-month step that must also fall on given weekdays). */
static int
fmt_days(const struct cron *c, struct buf *b, const char *sep)
{
	int dom = c->dom != ALL_DOM, dow = c->dow != ALL_DOW;
	if (dom && dow && ((c->flags & CRON_DOM_STAR) || (c->flags & CRON_DOW_STAR)))
		return 0;
	if (dom) {
		buf_puts(b, popcount(c->dom) == 1 ? " on day " : " on days ");
		if (!fmt_set(b, c->dom, 1, 31, NULL, NULL))
			return 0;
	}
	if (dow && !fmt_weekdays(c, b, sep, dom))
		return 0;
	if (c->mon != ALL_MON) {
		struct buf months = {0};
		int ok = fmt_set(&months, c->mon, 1, 12, month_title, NULL);
		if (ok && popcount(c->mon) > 3 && !strstr(months.data, " to ")) {
			buf_free(&months);
			ok = fmt_set(&months, c->mon, 1, 12, month_abbr, NULL);
		}
		if (ok)
			buf_printf(b, strstr(months.data, " to ") ? " from %s" : " in %s", months.data);
		buf_free(&months);
		if (!ok)
			return 0;
	}
	return 1;
}

/* The forms people know by name, for a short list of times. */
static int
fmt_named(const struct cron *c, const char *times, struct buf *b)
{
	int any_day = c->dom == ALL_DOM && c->mon == ALL_MON;
	if (any_day && c->dow == ALL_DOW) {
		buf_printf(b, "Daily at %s", times);
	} else if (any_day && !(c->flags & CRON_DOW_STAR) && (c->flags & CRON_DOM_STAR)) {
		if (c->dow == 0x3e) {
			buf_printf(b, "Weekdays at %s", times);
		} else if (c->dow == 0x41) {
			buf_printf(b, "Weekends at %s", times);
		} else if (single(c->dow)) {
			buf_printf(b, "Every %s at %s", day_title[lowbit(c->dow)], times);
		} else {
			buf_puts(b, "Every ");
			for (int k = 0, i = 0; k < 7; k++)
				if (c->dow >> week_order[k] & 1)
					buf_printf(b, "%s%s", i++ ? ", " : "", day_abbr[week_order[k]]);
			buf_printf(b, " at %s", times);
		}
	} else if (single(c->dom) && c->dow == ALL_DOW && (c->flags & CRON_DOW_STAR) &&
	    (c->mon == ALL_MON || single(c->mon))) {
		int day = lowbit(c->dom), mon = lowbit(c->mon);
		/* days 29-31 are missing from some months: cron skips those */
		if (c->mon == ALL_MON)
			buf_printf(b, "Monthly on day %d%s at %s", day,
			    day > 28 ? " (skipping shorter months)" : "", times);
		else
			buf_printf(b, "%s on %s %d at %s", mon == 2 && day == 29 ? "Every leap year" :
			    "Yearly", month_abbr[mon], day, times);
	} else {
		return 0;
	}
	return 1;
}

void
cron_describe(const char *expr, const struct cron *c, char *buf, size_t n)
{
	char times[96];
	struct buf b = {0};
	int hstep = step_of(c->hour), ok;
	if (!n)
		return;
	/* Round the clock, or every few hours of the whole day: a repetition
	 * reads better than a list of times. */
	int whole_day = c->hour == ALL_HOURS ||
	    (single(c->min) && hstep && hstep <= 6 && (c->hour & 1) && 24 % hstep == 0 &&
	    popcount(c->hour) == 24 / hstep);
	if (whole_day && fmt_repeat(c, &b)) {
		ok = fmt_days(c, &b, ", ");
	} else if (fmt_times(c, times, sizeof times)) {
		if (!(ok = fmt_named(c, times, &b))) {
			int months_only = c->dom == ALL_DOM && c->dow == ALL_DOW;
			buf_printf(&b, "%s %s", months_only ? "Daily at" : "At", times);
			ok = fmt_days(c, &b, ", ");
		}
	} else {
		buf_free(&b);
		b = (struct buf){0};
		ok = fmt_repeat(c, &b) && fmt_days(c, &b, ", ");
	}
	snprintf(buf, n, "%s", ok && b.data ? b.data : expr);
	buf_free(&b);
}

/* ---- several expressions: the union of their instants ---- */

/* The next piece of a list from *p: blanks around it dropped; 0 at the end. */
static int
list_piece(const char **p, const char **start, size_t *len)
{
	if (!**p)
		return 0;
	const char *s = *p, *end = strchr(s, ';');
	if (!end)
		end = s + strlen(s);
	*p = *end ? end + 1 : end;
	while (s < end && is_blank(*s))
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	*start = s;
	*len = (size_t)(end - s);
	return 1;
}

int
cron_list_count(const char *text)
{
	const char *p = text ? text : "", *s;
	size_t len;
	int n = 0;
	while (list_piece(&p, &s, &len))
		n++;
	return n;
}

int
cron_list_parse(const char *text, struct cron_list *l, struct err *e)
{
	const char *p = text ? text : "", *s;
	size_t len;
	int total = cron_list_count(text);
	l->n = 0;
	if (total == 0)
		return cron_parse("", &l->c[0], e);
	if (total > CRON_LIST_MAX)
		return err_set(e, ST_INVALID, "%d cron expressions: at most %d", total, CRON_LIST_MAX);
	while (list_piece(&p, &s, &len)) {
		char *one = xasprintf("%.*s", (int)len, s);
		struct err sub;
		int rc = cron_parse(one, &l->c[l->n], &sub);
		if (rc && total > 1) {
			char q[72];
			err_set(e, rc, "cron expression %d of %d ('%s'): %s", l->n + 1, total,
			    utf8_quote(q, 64, one, strlen(one)), sub.msg);
		} else if (rc) {
			*e = sub;
		}
		free(one);
		if (rc)
			return rc;
		l->n++;
	}
	return ST_OK;
}

int64_t
cron_list_next(const struct cron_list *l, const struct tz *z, int64_t after)
{
	int64_t best = -1;
	for (int i = 0; i < l->n; i++) {
		int64_t t = cron_next(&l->c[i], z, after);
		if (t >= 0 && (best < 0 || t < best))
			best = t;
	}
	return best;
}

char *
cron_list_text(const char *const *exprs, size_t n)
{
	struct buf b = {0};
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		const char *p = exprs[i], *s;
		size_t len;
		while (list_piece(&p, &s, &len)) {
			/* The same expression twice is one: each instant fires once anyway. */
			const char *q = b.data, *o;
			size_t ol;
			int seen = 0;
			while (!seen && list_piece(&q, &o, &ol))
				seen = ol == len && memcmp(o, s, len) == 0;
			if (!seen)
				buf_printf(&b, "%s%.*s", b.len ? "; " : "", (int)len, s);
		}
	}
	return b.data;
}

void
cron_list_describe(const char *text, const struct cron_list *l, char *buf, size_t n)
{
	const char *p = text, *s;
	size_t len;
	struct buf b = {0};
	for (int i = 0; i < l->n && list_piece(&p, &s, &len); i++) {
		char one[256], *expr = xasprintf("%.*s", (int)len, s);
		cron_describe(expr, &l->c[i], one, sizeof one);
		free(expr);
		/* "Daily at 07:00 and every Sat at 10:00": one sentence. */
		if (i && isupper((unsigned char)one[0]) && islower((unsigned char)one[1]))
			one[0] = (char)tolower((unsigned char)one[0]);
		buf_printf(&b, "%s%s", i == 0 ? "" : i == l->n - 1 ? " and " : ", ", one);
	}
	snprintf(buf, n, "%s", b.data ? b.data : text);
	buf_free(&b);
}

void
cron_describe_every(int64_t secs, char *buf, size_t n)
{
	static const struct {
		int64_t secs;
		const char *one, *many;
	} units[] = {{86400, "day", "days"}, {3600, "hour", "hours"}, {60, "minute", "minutes"},
		{1, "second", "seconds"}};
	/* The largest unit that divides it, "Every 90 minutes" as people say
	 * it; past 120 of it, its parts: "Every 2 hours 30 minutes". */
	size_t i = 0, nu = sizeof units / sizeof units[0];
	while (i < nu - 1 && (secs <= 0 || secs % units[i].secs))
		i++;
	int64_t k = secs / units[i].secs;
	if (k == 1) {
		snprintf(buf, n, "Every %s", units[i].one);
		return;
	}
	if (k <= 120 || i == 0) {
		snprintf(buf, n, "Every %lld %s", (long long)k, units[i].many);
		return;
	}
	struct buf b = {0};
	buf_puts(&b, "Every");
	for (size_t j = 0; j < nu; j++) {
		int64_t part = secs / units[j].secs;
		secs %= units[j].secs;
		if (part)
			buf_printf(&b, " %lld %s", (long long)part, part == 1 ? units[j].one : units[j].many);
	}
	snprintf(buf, n, "%s", b.data);
	buf_free(&b);
}
