/* when.c: time expressions read in a zone at a given "now".
 *
 * Grammar (case-insensitive; "," and the words "on" and "the" may stand
 * between parts; a final "." is allowed; a word not understood is an error,
 * never skipped):
 *
 *	when     = rfc3339 | part { part }
 *	part     = date | time | period | offset | zone | "now"
 *	offset   = ( "in" | "within" | "after" ) duration [ "from now" ]
 *	         | ( "in" | "within" ) "the next" unit
 *	bound    = ( "after" | "before" ) time           (read as the time)
 *	         | [ "now" ] ( "+" | "plus" ) duration
 *	         | duration [ "from now" | "later" | "hence" | "ago" ]   (alone: from now)
 *	         | duration ( "from" | "after" | "before" ) date         (calendar units)
 *	         | ( "next" | "last" ) unit
 *	duration = amount unit [ "and a half" ] { [ "and" | "," ] amount unit } [ "time" ]
 *	amount   = number [ "." digits ] | "zero" ... "sixty" | "twenty-five" | "a" | "an"
 *	         | [ "a" ] ( "couple" [ "of" ] | "few" ) | "half" [ "a" | "an" ]
 *	         | number "and a half"
 *	unit     = s | sec(s) | second(s) | m | min(s) | minute(s) | h | hr(s) | hour(s)
 *	         | d | day(s) | w | wk(s) | week(s) | fortnight(s) | month(s) | yr(s)
 *	         | year(s) | quarter(s) [ "of" "an" "hour" | "hour" ]
 *	date     = numeric | "today" | "tomorrow" | "tmrw" | "tmr" | "yesterday" | "tonight"
 *	         | "day" ( "after tomorrow" | "before yesterday" )
 *	         | [ "this" | "next" | "last" ] weekday [ "after next" ]
 *	         | weekday [ "of" ] week | week weekday | [ "this" | "next" ] "weekend"
 *	         | "this" "week"
 *	         | month [ "the" ] day [ ordinal ] [ [ "," ] year ]
 *	         | day [ ordinal ] [ "of" ] month [ [ "," ] year ] | [ "the" ] day ordinal
 *	week     = ( "this" | "next" ) "week"
 *	numeric  = yyyy sep mm sep dd [ "T" clock ]      (sep: "-", "/" or ".")
 *	         | m "/" d [ "/" yy[yy] ]                (d/m with date_order = dmy,
 *	         | d "." m "." yy[yy]                     or when m cannot be a month)
 *	time     = clock [ "am" | "pm" ] | hour [ "o'clock" ] ( "am" | "pm" )
 *	         | hour "o'clock" | "noon" | "midday" | "midnight" | "12" ( "noon" | "midnight" )
 *	         | ( "half" | [ "a" ] "quarter" | minutes [ "minutes" ] )
 *	           ( "past" | "after" | "to" | "of" ) ( hour [ "am" | "pm" ] | "noon" | "midnight" )
 *	         | [ "at" | "@" ] hour    (after "at", a date or a part, before a period or a day)
 *	clock    = hh ( ":" | "." ) mm | hh ":" mm ":" ss [ "." fraction ]
 *	period   = [ "this" | "in the" | "at" ] ( "morning" | "afternoon" | "evening" | "night" )
 *	zone     = "Z" | "UTC" | "GMT" | abbreviation | Area/Location
 *	         | [ "UTC" | "GMT" ] ( "+" | "-" ) hh [ [ ":" ] mm ]
 *
 * Meanings (agentcron-schedule(5) has them all): seconds, minutes and hours
 * are elapsed time; days, weeks, months and years calendar steps that keep
 * the wall time.  A relative date (tomorrow, friday) keeps now's time of
 * day; a calendar date is 00:00.  A time alone is today if still ahead,
 * else tomorrow; a weekday is the next one, today when a time is given that
 * is still ahead.  "this week", and "this weekend" said during it, is the
 * first of its days whose noon (or the time given) is ahead.  A date without a year is the next one not in the past.  A
 * bare hour 1-7 is in the afternoon or evening, 8-12 in the morning or at
 * noon.  Midnight with a date is the start of that date; with today,
 * tonight, evening or night the end of the day.  A written zone is the zone
 * of the whole expression.  Wall times in a spring-forward gap move forward
 * by the gap (RFC 5545), repeated ones are their first occurrence.
 *
 * The work is in steps: normalize() and tokenize() turn the text into
 * numbers, known words and punctuation; parse() reads the parts into a
 * struct spec, one handler per kind of word (parts[]), and finish() checks
 * that the parts fit together; evaluate() turns the spec into an instant. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "when.h"
#include "utf8.h"

enum kw {
	K_NONE, K_A, K_AFTER, K_AGO, K_AMBIG, K_AMPM, K_AND, K_AT, K_BEFORE, K_COUPLE,
	K_DAYWORD, K_FEW, K_FROM, K_HALF, K_IN, K_LAST, K_LATER, K_MIDNIGHT, K_MONTH,
	K_NEXT, K_NOON, K_NOW, K_NUMWORD, K_OCLOCK, K_OF, K_ON, K_ORD, K_PAST, K_PERIOD,
	K_PLUS, K_QUARTER, K_RECUR, K_T, K_TENS, K_THE, K_THIS, K_TIME, K_TO, K_TONIGHT, K_UNIT,
	K_VAGUE, K_WEEKDAY, K_WEEKEND, K_WITHIN, K_ZONE, K_ZONENAME, K_COUNT
};

enum { U_SEC = 1, U_MIN, U_HOUR, U_DAY, U_WEEK, U_FORTNIGHT, U_MONTH, U_QUARTER, U_YEAR };

/* What one of each unit adds: elapsed seconds, or calendar days or months. */
static const struct unit {
	const char *name;
	int64_t sec;
	int days, months;
} units[] = {
	[U_SEC] = {"second", 1, 0, 0}, [U_MIN] = {"minute", 60, 0, 0},
	[U_HOUR] = {"hour", 3600, 0, 0}, [U_DAY] = {"day", 0, 1, 0}, [U_WEEK] = {"week", 0, 7, 0},
	[U_FORTNIGHT] = {"fortnight", 0, 14, 0}, [U_MONTH] = {"month", 0, 0, 1},
	[U_QUARTER] = {"quarter", 0, 0, 3}, [U_YEAR] = {"year", 0, 0, 12},
};

/* Every known word, in strcmp order for bsearch (the unit test checks the
 * order).  Values: K_ZONE minutes east of UTC, K_PERIOD and K_TONIGHT the
 * default time in minutes, K_ZONENAME an index in us_zones[], K_AMBIG one
 * in ambiguous[]. */
static const struct keyword {
	const char *word;
	enum kw kind;
	int val;
} keywords[] = {
	{"a", K_A, 1}, {"acdt", K_ZONE, 630}, {"acst", K_ZONE, 570}, {"aedt", K_ZONE, 660},
	{"aest", K_ZONE, 600}, {"after", K_AFTER, 0}, {"afternoon", K_PERIOD, 900},
	{"ago", K_AGO, 0}, {"akdt", K_ZONE, -480}, {"akst", K_ZONE, -540}, {"am", K_AMPM, 0},
	{"amt", K_AMBIG, 4}, {"an", K_A, 1}, {"and", K_AND, 0}, {"apr", K_MONTH, 4},
	{"april", K_MONTH, 4}, {"ast", K_AMBIG, 1}, {"at", K_AT, 0}, {"aug", K_MONTH, 8},
	{"august", K_MONTH, 8}, {"awst", K_ZONE, 480}, {"before", K_BEFORE, 0},
	{"bit", K_VAGUE, 0}, {"bst", K_ZONE, 60}, {"cdt", K_ZONE, -300}, {"cest", K_ZONE, 120},
	{"cet", K_ZONE, 60}, {"couple", K_COUPLE, 2}, {"cst", K_ZONE, -360},
	{"ct", K_ZONENAME, 1}, {"d", K_UNIT, U_DAY}, {"daily", K_RECUR, 0},
	{"day", K_UNIT, U_DAY}, {"days", K_UNIT, U_DAY}, {"dec", K_MONTH, 12},
	{"december", K_MONTH, 12}, {"each", K_RECUR, 0}, {"edt", K_ZONE, -240},
	{"eest", K_ZONE, 180}, {"eet", K_ZONE, 120}, {"eight", K_NUMWORD, 8},
	{"eighteen", K_NUMWORD, 18}, {"eleven", K_NUMWORD, 11}, {"est", K_ZONE, -300},
	{"et", K_ZONENAME, 0}, {"evening", K_PERIOD, 1080}, {"every", K_RECUR, 0},
	{"feb", K_MONTH, 2}, {"february", K_MONTH, 2}, {"few", K_FEW, 3},
	{"fifteen", K_NUMWORD, 15}, {"fifty", K_TENS, 50}, {"five", K_NUMWORD, 5},
	{"fortnight", K_UNIT, U_FORTNIGHT}, {"fortnights", K_UNIT, U_FORTNIGHT},
	{"forty", K_TENS, 40}, {"four", K_NUMWORD, 4}, {"fourteen", K_NUMWORD, 14},
	{"fri", K_WEEKDAY, 5}, {"friday", K_WEEKDAY, 5}, {"from", K_FROM, 0},
	{"gmt", K_ZONE, 0}, {"gst", K_AMBIG, 3}, {"h", K_UNIT, U_HOUR}, {"half", K_HALF, 0},
	{"hence", K_LATER, 0}, {"hkt", K_ZONE, 480}, {"hour", K_UNIT, U_HOUR},
	{"hourly", K_RECUR, 0}, {"hours", K_UNIT, U_HOUR}, {"hr", K_UNIT, U_HOUR},
	{"hrs", K_UNIT, U_HOUR}, {"hst", K_ZONE, -600}, {"in", K_IN, 0}, {"ist", K_AMBIG, 0},
	{"jan", K_MONTH, 1}, {"january", K_MONTH, 1}, {"jst", K_ZONE, 540},
	{"jul", K_MONTH, 7}, {"july", K_MONTH, 7}, {"jun", K_MONTH, 6}, {"june", K_MONTH, 6},
	{"kst", K_ZONE, 540}, {"last", K_LAST, 0}, {"later", K_LATER, 0}, {"m", K_UNIT, U_MIN},
	{"mar", K_MONTH, 3}, {"march", K_MONTH, 3}, {"may", K_MONTH, 5}, {"mdt", K_ZONE, -360},
	{"midday", K_NOON, 0}, {"midnight", K_MIDNIGHT, 0}, {"min", K_UNIT, U_MIN},
	{"mins", K_UNIT, U_MIN}, {"minute", K_UNIT, U_MIN}, {"minutes", K_UNIT, U_MIN},
	{"moment", K_VAGUE, 0}, {"mon", K_WEEKDAY, 1}, {"monday", K_WEEKDAY, 1},
	{"month", K_UNIT, U_MONTH}, {"monthly", K_RECUR, 0}, {"months", K_UNIT, U_MONTH},
	{"morning", K_PERIOD, 540}, {"msk", K_ZONE, 180}, {"mst", K_ZONE, -420},
	{"mt", K_ZONENAME, 2}, {"nd", K_ORD, 0}, {"next", K_NEXT, 0},
	{"night", K_PERIOD, 1200}, {"nightly", K_RECUR, 0}, {"nine", K_NUMWORD, 9},
	{"nineteen", K_NUMWORD, 19}, {"noon", K_NOON, 0}, {"nov", K_MONTH, 11},
	{"november", K_MONTH, 11}, {"now", K_NOW, 0}, {"nzdt", K_ZONE, 780},
	{"nzst", K_ZONE, 720}, {"o'clock", K_OCLOCK, 0}, {"oclock", K_OCLOCK, 0},
	{"oct", K_MONTH, 10}, {"october", K_MONTH, 10}, {"of", K_OF, 0}, {"on", K_ON, 0},
	{"one", K_NUMWORD, 1}, {"past", K_PAST, 0}, {"pdt", K_ZONE, -420}, {"plus", K_PLUS, 0},
	{"pm", K_AMPM, 12}, {"pst", K_ZONE, -480}, {"pt", K_ZONENAME, 3},
	{"quarter", K_QUARTER, 1}, {"quarters", K_QUARTER, 2}, {"rd", K_ORD, 0},
	{"s", K_UNIT, U_SEC}, {"sat", K_WEEKDAY, 6}, {"saturday", K_WEEKDAY, 6},
	{"sec", K_UNIT, U_SEC}, {"second", K_UNIT, U_SEC}, {"seconds", K_UNIT, U_SEC},
	{"secs", K_UNIT, U_SEC}, {"sep", K_MONTH, 9}, {"sept", K_MONTH, 9},
	{"september", K_MONTH, 9}, {"seven", K_NUMWORD, 7}, {"seventeen", K_NUMWORD, 17},
	{"several", K_VAGUE, 0}, {"sgt", K_ZONE, 480}, {"six", K_NUMWORD, 6},
	{"sixteen", K_NUMWORD, 16}, {"sixty", K_TENS, 60}, {"some", K_VAGUE, 0},
	{"sometime", K_VAGUE, 0}, {"soon", K_VAGUE, 0}, {"sst", K_AMBIG, 2}, {"st", K_ORD, 0},
	{"sun", K_WEEKDAY, 0}, {"sunday", K_WEEKDAY, 0}, {"t", K_T, 0}, {"ten", K_NUMWORD, 10},
	{"th", K_ORD, 0}, {"the", K_THE, 0}, {"thirteen", K_NUMWORD, 13},
	{"thirty", K_TENS, 30}, {"this", K_THIS, 0}, {"three", K_NUMWORD, 3},
	{"thu", K_WEEKDAY, 4}, {"thur", K_WEEKDAY, 4}, {"thurs", K_WEEKDAY, 4},
	{"thursday", K_WEEKDAY, 4}, {"time", K_TIME, 0}, {"tmr", K_DAYWORD, 1},
	{"tmrw", K_DAYWORD, 1}, {"to", K_TO, 0}, {"today", K_DAYWORD, 0},
	{"tomorrow", K_DAYWORD, 1}, {"tonight", K_TONIGHT, 1200}, {"tonite", K_TONIGHT, 1200},
	{"tue", K_WEEKDAY, 2}, {"tues", K_WEEKDAY, 2}, {"tuesday", K_WEEKDAY, 2},
	{"twelve", K_NUMWORD, 12}, {"twenty", K_TENS, 20}, {"two", K_NUMWORD, 2},
	{"utc", K_ZONE, 0}, {"w", K_UNIT, U_WEEK}, {"wed", K_WEEKDAY, 3},
	{"wednesday", K_WEEKDAY, 3}, {"week", K_UNIT, U_WEEK}, {"weekdays", K_RECUR, 0},
	{"weekend", K_WEEKEND, 0}, {"weekly", K_RECUR, 0}, {"weeks", K_UNIT, U_WEEK},
	{"west", K_ZONE, 60}, {"wet", K_ZONE, 0}, {"while", K_VAGUE, 0},
	{"within", K_WITHIN, 0}, {"wk", K_UNIT, U_WEEK}, {"wks", K_UNIT, U_WEEK},
	{"year", K_UNIT, U_YEAR}, {"yearly", K_RECUR, 0}, {"years", K_UNIT, U_YEAR},
	{"yesterday", K_DAYWORD, -1}, {"yr", K_UNIT, U_YEAR}, {"yrs", K_UNIT, U_YEAR},
	{"z", K_ZONE, 0}, {"zero", K_NUMWORD, 0},
};

#define NKEYWORDS (sizeof keywords / sizeof *keywords)

/* ET, CT, MT, PT: the zone's own offset on that date, standard or daylight,
 * from the US rule (us_span) or, before 2007, the zone's file. */
static const struct us_zone {
	const char *name, *letter;
	int32_t std;
} us_zones[] = {
	{"America/New_York", "E", -5 * 3600}, {"America/Chicago", "C", -6 * 3600},
	{"America/Denver", "M", -7 * 3600}, {"America/Los_Angeles", "P", -8 * 3600},
};

static const struct ambiguous {
	const char *abbr, *meanings, *offset, *zone;
} ambiguous[] = {
	{"IST", "India (+05:30), Israel (+02:00) or Ireland (+01:00)", "+05:30", "Asia/Kolkata"},
	{"AST", "Atlantic (-04:00) or Arabia (+03:00)", "-04:00", "America/Halifax"},
	{"SST", "Samoa (-11:00) or Singapore (+08:00)", "+08:00", "Asia/Singapore"},
	{"GST", "Gulf (+04:00) or South Georgia (-02:00)", "+04:00", "Asia/Dubai"},
	{"AMT", "Amazon (-04:00) or Armenia (+04:00)", "-04:00", "America/Manaus"},
};

static const char *const month_name[] = {"", "January", "February", "March", "April", "May",
	"June", "July", "August", "September", "October", "November", "December"};
static const char *const weekday_name[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
	"Thursday", "Friday", "Saturday"};

enum { T_END, T_NUM, T_WORD, T_PUNCT, T_ZONE };

struct tok {
	int type;      /* T_* */
	enum kw kw;    /* T_WORD; K_NUMWORD or K_TENS for a T_NUM written as a word */
	int val;       /* the keyword's value */
	int64_t num;   /* T_NUM (at most 12 digits kept) */
	int ndig;      /* digits of a T_NUM; 0 for a number word */
	int space;     /* a blank (or the start) before it */
	const char *s; /* in parser.norm */
	int len;
};

/* A token's text for a message: tokens are ASCII, so any cut is clean. */
#define TOKF(t) ((t)->len > 40 ? 40 : (t)->len), (t)->s

#define MAXTOK 64
#define BLANKS " \t\n\r\v\f"
#define TEXT_MAX 256

enum { D_NONE, D_REL, D_ABS, D_DOM, D_WEEKDAY, D_WEEKEND, D_WEEK };
enum { WD_PLAIN, WD_NEXT, WD_AFTER_NEXT, WD_WEEK, WD_LAST };
enum { OFF_NONE, OFF_NOW, OFF_DATE };
enum { Z_TASK, Z_FIXED, Z_NAMED, Z_US };

/* What the parts said. */
struct spec {
	int date;              /* D_* */
	int rel_days;          /* D_REL: days from today */
	int keep_time;         /* a relative date: the default time is now's */
	int today;             /* "today", "this morning": never rolled to tomorrow */
	int64_t year;          /* D_ABS: 0 when not given */
	int mon, day;          /* D_ABS; D_DOM's day */
	int week;              /* D_WEEKEND and WD_WEEK: 0 this week, 1 next week */
	int has_wd, wd, wd_mode, wd_check; /* a weekday: its own date, or a check on one */
	int week_ref;          /* "this week" 0, "next week" 1, none -1 */
	int has_time, h, mi, sec, to_min, ampm, bare; /* bare: an hour alone */
	int midnight;
	int period;            /* minutes of the period's default time, -1 none */
	int pm_bias, tonight;
	int off, exact;        /* OFF_*; the offset has seconds, minutes or hours */
	int anchor;            /* OFF_DATE: the token of "from", "after" or "before" */
	int64_t add_sec, add_days, add_months;
	int now;
	int zone;              /* Z_* */
	int32_t zone_off;      /* Z_FIXED: seconds east */
	const char *zone_name; /* Z_NAMED */
	int zone_len;
	int zone_us;           /* Z_US: index in us_zones[] */
};

struct parser {
	const char *text;        /* as given, for messages */
	unsigned flags;          /* WHEN_* */
	char norm[TEXT_MAX];     /* the text with Unicode blanks and quotes in ASCII */
	struct tok t[MAXTOK + 1];
	int n, i;
	int time_ok;             /* a bare number is an hour here */
	struct spec sp;
	const struct tz *rz;     /* the zone it is read in; NULL for a fixed offset or a US rule */
	int32_t rz_off;
	const struct us_zone *us; /* read by the US rule */
	struct tz *own;          /* a zone named in the text, loaded */
	char zlabel[24];         /* a fixed zone's name in messages: "EST", "UTC+01:00" */
	int advised;             /* why says what to write instead */
	char why[256];
};

static int
vfail(struct parser *p, int advised, const char *fmt, va_list ap)
{
	vsnprintf(p->why, sizeof p->why, fmt, ap);
	p->advised = advised;
	return -1;
}

static int
fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(p, 0, fmt, ap);
	va_end(ap);
	return -1;
}

/* A failure whose message already says what to write instead. */
static int
advise(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(p, 1, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- words ---- */

static const struct keyword *
lookup(const char *s, size_t n)
{
	char w[16];
	if (n >= sizeof w)
		return NULL;
	for (size_t k = 0; k < n; k++)
		w[k] = (char)tolower((unsigned char)s[k]);
	w[n] = 0;
	size_t lo = 0, hi = NKEYWORDS;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(w, keywords[mid].word);
		if (c == 0)
			return &keywords[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Edit distance with transpositions (optimal string alignment), at most
 * max + 1. */
static int
distance(const char *a, int n, const char *b, int m, int max)
{
	int d[17][17];
	for (int i = 0; i <= n; i++)
		d[i][0] = i;
	for (int j = 0; j <= m; j++)
		d[0][j] = j;
	for (int i = 1; i <= n; i++) {
		int row_min = max + 1;
		for (int j = 1; j <= m; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
			if (c < row_min)
				row_min = c;
		}
		if (row_min > max)
			return max + 1;
	}
	return d[n][m];
}

/* The known word nearest to an unknown one: one edit away for words of up
 * to four letters, two for longer ones; NULL when none is that close.  Zone
 * abbreviations are too short to guess at. */
static const char *
nearest(const char *s, int n)
{
	char w[16];
	if (n < 3 || n >= (int)sizeof w)
		return NULL;
	for (int k = 0; k < n; k++)
		w[k] = (char)tolower((unsigned char)s[k]);
	int best = (n <= 4 ? 1 : 2) + 1;
	const char *found = NULL;
	for (size_t k = 0; k < NKEYWORDS; k++) {
		const char *c = keywords[k].word;
		int m = (int)strlen(c);
		enum kw kind = keywords[k].kind;
		if (m < 3 || abs(m - n) >= best || kind == K_AMBIG || kind == K_AND ||
		    kind == K_ORD || kind == K_ZONE || kind == K_ZONENAME)
			continue;
		int d = distance(w, n, c, m, best - 1);
		if (d < best)
			best = d, found = c;
	}
	return found;
}

/* ---- tokens ---- */

static int
not_ascii(struct parser *p, const char *s, size_t n, uint32_t cp)
{
	if (n == 0)
		return advise(p, "it is not valid UTF-8; write times in plain letters and digits");
	if (cp >= 0xff01 && cp <= 0xff5e)
		return advise(p, "'%.*s' is a full-width character; write '%c' instead", (int)n, s,
		    (char)(cp - 0xff01 + 0x21));
	return advise(p, "'%.*s' is not part of any time expression; write times in plain "
	    "letters and digits, as in 'tomorrow at 10am'", (int)n, s);
}

/* The text in p->norm: no-break and thin spaces become blanks and curly
 * apostrophes straight ones (phones and ICU write "10:00\u202fAM" and
 * "o\u2019clock"); trailing blanks and one final "." go; any other character
 * outside ASCII is refused. */
static int
normalize(struct parser *p)
{
	const char *s = p->text;
	size_t len = strlen(s), j = 0;
	if (len >= TEXT_MAX)
		return fail(p, "it is too long (at most %d bytes)", TEXT_MAX - 1);
	for (size_t k = 0; k < len;) {
		unsigned char c = (unsigned char)s[k];
		if (c < 0x80) {
			p->norm[j++] = (char)c;
			k++;
			continue;
		}
		uint32_t cp = 0;
		size_t n = utf8_decode(s + k, len - k, &cp);
		if (n && (cp == 0xa0 || cp == 0x2009 || cp == 0x202f))
			p->norm[j++] = ' ';
		else if (n && (cp == 0x2018 || cp == 0x2019))
			p->norm[j++] = '\'';
		else
			return not_ascii(p, s + k, n, cp);
		k += n;
	}
	while (j && isspace((unsigned char)p->norm[j - 1]))
		j--;
	if (j && p->norm[j - 1] == '.')
		j--;
	p->norm[j] = 0;
	return 0;
}

static int
zone_char(int c)
{
	return isalnum(c) || c == '/' || c == '_' || c == '+' || c == '-';
}

/* A word at q: a known word, "a.m."/"p.m.", or an IANA name (Area/Location). */
static const char *
word(struct tok *t, const char *q)
{
	const char *s = q;
	while (isalpha((unsigned char)*q) || (*q == '\'' && isalpha((unsigned char)q[1])))
		q++;
	t->type = T_WORD;
	if (*q == '/' && isalpha((unsigned char)q[1])) {
		while (zone_char((unsigned char)*q))
			q++;
		t->type = T_ZONE;
		return q;
	}
	if (q - s == 1 && strchr("aApP", *s) && q[0] == '.' && (q[1] == 'm' || q[1] == 'M') &&
	    !isalpha((unsigned char)q[2])) {
		t->kw = K_AMPM;
		t->val = *s == 'p' || *s == 'P' ? 12 : 0;
		return q + 2 + (q[2] == '.');
	}
	const struct keyword *k = lookup(s, (size_t)(q - s));
	if (!k && q - s > 2 && q[-2] == '\'' && (q[-1] == 's' || q[-1] == 'S')) {
		k = lookup(s, (size_t)(q - s - 2)); /* "an hour's time" */
		if (k && k->kind != K_UNIT)
			k = NULL;
	}
	if (k) {
		t->kw = k->kind;
		t->val = k->val;
		if (k->kind == K_NUMWORD || k->kind == K_TENS) {
			t->type = T_NUM;
			t->num = k->val;
		}
	}
	return q;
}

/* "twenty-five", "twenty five": one number. */
static void
join_tens(struct parser *p)
{
	int w = 0;
	for (int r = 0; r < p->n; r++) {
		struct tok t = p->t[r];
		if (t.type == T_NUM && t.kw == K_TENS && t.num < 60) {
			int k = r + 1;
			if (p->t[k].type == T_PUNCT && p->t[k].s[0] == '-' && !p->t[k].space &&
			    !p->t[k + 1].space)
				k++;
			const struct tok *u = &p->t[k];
			if (u->type == T_NUM && u->kw == K_NUMWORD && u->num >= 1 && u->num <= 9 &&
			    (k > r + 1 || u->space)) {
				t.num += u->num;
				t.kw = K_NUMWORD;
				t.len = (int)(u->s + u->len - t.s);
				r = k;
			}
		}
		p->t[w++] = t;
	}
	p->t[w] = p->t[p->n];
	p->n = w;
}

static int
tokenize(struct parser *p)
{
	const char *q = p->norm;
	p->n = 0;
	for (;;) {
		int space = p->n == 0;
		while (isspace((unsigned char)*q))
			q++, space = 1;
		if (!*q)
			break;
		if (p->n == MAXTOK)
			return fail(p, "it has too many words");
		struct tok *t = &p->t[p->n++];
		memset(t, 0, sizeof *t);
		t->space = space;
		t->s = q;
		if (isdigit((unsigned char)*q)) {
			t->type = T_NUM;
			for (; isdigit((unsigned char)*q); q++)
				if (++t->ndig <= 12)
					t->num = t->num * 10 + (*q - '0');
		} else if (isalpha((unsigned char)*q)) {
			q = word(t, q);
		} else {
			t->type = T_PUNCT;
			q++;
		}
		t->len = (int)(q - t->s);
	}
	p->t[p->n] = (struct tok){.type = T_END, .s = q, .space = 1};
	join_tens(p);
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

/* Characters from a to the end of b, for quoting a run of tokens. */
static int
span(const struct tok *a, const struct tok *b)
{
	int n = (int)(b->s + b->len - a->s);
	return n > 40 ? 40 : n;
}

static int
unknown(struct parser *p, const struct tok *t)
{
	const char *near = nearest(t->s, t->len);
	if (near)
		return advise(p, "unknown word '%.*s'; did you mean '%s'?", TOKF(t), near);
	return fail(p, "unknown word '%.*s'", TOKF(t));
}

static int
unexpected(struct parser *p)
{
	const struct tok *t = cur(p);
	if (t->type == T_END)
		return fail(p, "it ends too early");
	if (t->type == T_WORD && t->kw == K_NONE)
		return unknown(p, t);
	if (is_kw(t, K_RECUR))
		return advise(p, "'%.*s' is a recurring schedule, and a time expression names one "
		    "instant; use --daily 09:00, --weekly 'mon 09:00' or --cron", TOKF(t));
	if (is_kw(t, K_VAGUE))
		return advise(p, "'%.*s' is vague; say how many or when, as in 'in 3 hours'", TOKF(t));
	return fail(p, "unexpected '%.*s'", TOKF(t));
}

/* ---- parts ---- */

static int part(struct parser *p);

static int
set_date(struct parser *p, int kind)
{
	if (p->sp.date != D_NONE)
		return fail(p, "it names two dates");
	p->sp.date = kind;
	p->sp.keep_time = kind == D_REL || kind == D_WEEKDAY || kind == D_WEEKEND;
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

static int
start_offset(struct parser *p, int kind)
{
	if (p->sp.off != OFF_NONE)
		return fail(p, "it names two offsets");
	p->sp.off = kind;
	return 0;
}

static int
negative(struct parser *p)
{
	return advise(p, "a duration cannot be negative; for a time in the past write '2 hours "
	    "ago'");
}

static int
unit_at(struct parser *p, int k)
{
	return is_kw(peek(p, k), K_UNIT) || is_kw(peek(p, k), K_QUARTER);
}

/* A decimal amount at the cursor: "1.5" followed by a unit. */
static int
decimal_at(struct parser *p)
{
	const struct tok *d = peek(p, 1), *f = peek(p, 2);
	return cur(p)->ndig && is_punct(d, '.') && !d->space && f->type == T_NUM && f->ndig &&
	    !f->space && unit_at(p, 3);
}

/* An amount: 2, 1.5, two, twenty-five, a, an, a couple (of), a few, half
 * (a|an).  1 when read, with *frac in millionths of the unit; 0 when there
 * is none here. */
static int
amount(struct parser *p, int64_t *n, int64_t *frac)
{
	struct tok *t = cur(p);
	*frac = 0;
	if (t->type == T_NUM) {
		if (t->ndig > 12)
			return advise(p, "%.*s is too large: that is past the year 9999", TOKF(t));
		*n = t->num;
		if (decimal_at(p)) {
			const struct tok *f = peek(p, 2);
			if (f->ndig > 6)
				return fail(p, "'%.*s' has too many decimals", span(t, f), t->s);
			*frac = f->num;
			for (int k = f->ndig; k < 6; k++)
				*frac *= 10;
			p->i += 2;
		}
		p->i++;
		/* "two and a half hours" */
		if (!*frac && is_kw(cur(p), K_AND) && is_kw(peek(p, 1), K_A) &&
		    is_kw(peek(p, 2), K_HALF) && unit_at(p, 3)) {
			*frac = 500000;
			p->i += 3;
		}
		return 1;
	}
	if (is_kw(t, K_A)) {
		p->i++;
		t = cur(p);
		if (!is_kw(t, K_COUPLE) && !is_kw(t, K_FEW) && !is_kw(t, K_HALF)) {
			*n = 1;
			return 1;
		}
	}
	if (is_kw(t, K_COUPLE) || is_kw(t, K_FEW)) {
		*n = t->val;
		p->i++;
		if (is_kw(cur(p), K_OF))
			p->i++;
		return 1;
	}
	if (is_kw(t, K_HALF)) {
		p->i++;
		if (is_kw(cur(p), K_A))
			p->i++;
		*n = 0, *frac = 500000;
		return 1;
	}
	return 0;
}

/* The unit after an amount; "a quarter hour" and "three quarters of an
 * hour" count 15 minutes a quarter (*mult). */
static int
unit(struct parser *p, int *u, int64_t *mult)
{
	const struct tok *t = cur(p);
	*mult = 1;
	if (is_kw(t, K_UNIT)) {
		*u = t->val;
		p->i++;
		return 1;
	}
	if (!is_kw(t, K_QUARTER))
		return 0;
	p->i++;
	int k = is_kw(cur(p), K_OF) && is_kw(peek(p, 1), K_A) ? 2 : 0;
	if (is_kw(peek(p, k), K_UNIT) && peek(p, k)->val == U_HOUR) {
		p->i += k + 1;
		*u = U_MIN, *mult = 15;
		return 1;
	}
	*u = U_QUARTER;
	return 1;
}

static int
add_term(struct parser *p, int64_t n, int64_t frac, int u)
{
	struct spec *sp = &p->sp;
	const struct unit *un = &units[u];
	if (frac) {
		if (un->sec)
			sp->add_sec += un->sec * frac / 1000000;
		else if (u == U_DAY && n == 0 && frac == 500000)
			sp->add_sec += 12 * 3600; /* half a day */
		else
			return advise(p, "a fraction of a %s is not a calendar step; say it in %s",
			    un->name, u == U_DAY ? "hours, as in '36 hours'" :
			    "days, as in '10 days'");
		sp->exact = 1;
	}
	sp->add_sec += n * un->sec;
	sp->add_days += n * un->days;
	sp->add_months += n * un->months;
	if (un->sec)
		sp->exact = 1;
	return 0;
}

/* amount unit [and a half] { [and|,] amount unit }, added to the offset. */
static int
duration(struct parser *p)
{
	int got = 0;
	for (;;) {
		int start = p->i;
		if (got && (is_kw(cur(p), K_AND) || is_punct(cur(p), ',')))
			p->i++;
		const struct tok *at = cur(p);
		int64_t n = 0, frac = 0, mult = 1;
		int u = 0, r = amount(p, &n, &frac);
		if (r < 0)
			return -1;
		if (r == 0 || !unit(p, &u, &mult)) {
			if (got) {
				p->i = start;
				return 0;
			}
			if (r == 0 || at->type != T_NUM || (cur(p)->type == T_WORD && !cur(p)->kw))
				return unexpected(p);
			return advise(p, "'%.*s' needs a unit such as minutes or hours", TOKF(at));
		}
		n = n * mult + frac * mult / 1000000;
		frac = frac * mult % 1000000;
		/* "in 2 days' time", "in an hour's time" */
		if (is_punct(cur(p), '\'') && !cur(p)->space && is_kw(peek(p, 1), K_TIME))
			p->i++;
		if (is_kw(cur(p), K_TIME))
			p->i++;
		/* "an hour and a half" */
		if (!frac && is_kw(cur(p), K_AND) && is_kw(peek(p, 1), K_A) &&
		    is_kw(peek(p, 2), K_HALF) && !unit_at(p, 3) && !is_kw(peek(p, 3), K_A)) {
			p->i += 3;
			frac = 500000;
		}
		if (add_term(p, n, frac, u))
			return -1;
		got = 1;
	}
}

static void
negate(struct spec *sp)
{
	sp->add_sec = -sp->add_sec;
	sp->add_days = -sp->add_days;
	sp->add_months = -sp->add_months;
}

/* A duration that starts a part: "2 hours from now", "3 days ago", "a week
 * from friday", "2 days after tomorrow", or alone ("2 hours"): from now. */
static int
part_duration(struct parser *p)
{
	struct spec *sp = &p->sp;
	if (start_offset(p, OFF_NOW) || duration(p))
		return -1;
	struct tok *t = cur(p);
	if (is_kw(t, K_FROM) && is_kw(peek(p, 1), K_NOW)) {
		p->i += 2;
	} else if (is_kw(t, K_LATER)) {
		p->i++;
	} else if (is_kw(t, K_AGO)) {
		negate(sp);
		p->i++;
	} else if (is_kw(t, K_FROM) || is_kw(t, K_AFTER) || is_kw(t, K_BEFORE)) {
		if (is_kw(t, K_BEFORE))
			negate(sp);
		sp->off = OFF_DATE;
		sp->anchor = p->i++;
	}
	return 0;
}

static int part_next(struct parser *p);

/* "after 4pm", "before noon": a bound people give, read as the time itself
 * (a person who says "tomorrow after 4pm" expects 16:00). */
static int
bound_time(struct parser *p)
{
	const struct tok *t = peek(p, 1), *u = peek(p, 2);
	return is_kw(t, K_NOON) || is_kw(t, K_MIDNIGHT) ||
	    (t->type == T_NUM && (is_kw(u, K_AMPM) || is_punct(u, ':') || is_kw(u, K_OCLOCK)));
}

/* "in", "within", "after" a duration; also "in the morning", "in Europe/Paris",
 * "in the next hour", "after 4pm" and "before 4pm". */
static int
part_in(struct parser *p)
{
	int in = is_kw(cur(p), K_IN);
	if ((is_kw(cur(p), K_AFTER) || is_kw(cur(p), K_BEFORE)) && bound_time(p)) {
		p->i++;
		p->time_ok = 1;
		return part(p);
	}
	if (is_kw(cur(p), K_BEFORE))
		return unexpected(p);
	p->i++;
	if (is_kw(cur(p), K_THE) && is_kw(peek(p, 1), K_NEXT)) {
		p->i++;
		return part_next(p);
	}
	if (in && is_kw(cur(p), K_THE) && is_kw(peek(p, 1), K_PERIOD)) {
		p->i++;
		return part(p);
	}
	if (in && cur(p)->type == T_ZONE)
		return part(p);
	if (is_punct(cur(p), '-'))
		return negative(p);
	if (start_offset(p, OFF_NOW) || duration(p))
		return -1;
	if (is_kw(cur(p), K_FROM) && is_kw(peek(p, 1), K_NOW))
		p->i += 2;
	return 0;
}

static int
part_now(struct parser *p)
{
	struct spec *sp = &p->sp;
	p->i++;
	if (sp->now)
		return fail(p, "it names 'now' twice");
	sp->now = 1;
	if (is_punct(cur(p), '-'))
		return negative(p);
	if (is_punct(cur(p), '+') || is_kw(cur(p), K_PLUS)) {
		p->i++;
		return start_offset(p, OFF_NOW) || duration(p) ? -1 : 0;
	}
	return 0;
}

/* ---- zones ---- */

static int
set_zone(struct parser *p, int kind)
{
	if (p->sp.zone != Z_TASK)
		return fail(p, "it names two time zones");
	p->sp.zone = kind;
	return 0;
}

/* "+02:00", "-0500", "+1", "-5:30" at the cursor (the sign). */
static int
zone_offset(struct parser *p)
{
	const struct tok *s = cur(p), *n = peek(p, 1);
	int64_t h, m = 0;
	int k = 2;
	if (n->ndig == 4) {
		h = n->num / 100, m = n->num % 100;
	} else if (n->ndig == 1 || n->ndig == 2) {
		h = n->num;
		const struct tok *c = peek(p, 2), *mm = peek(p, 3);
		if (is_punct(c, ':') && mm->type == T_NUM && mm->ndig == 2 && !c->space &&
		    !mm->space)
			m = mm->num, k = 4;
	} else {
		return advise(p, "'%.*s' is not a UTC offset; write it as +02:00", span(s, n),
		    s->s);
	}
	int sign = s->s[0] == '-' ? -1 : 1;
	int64_t off = sign * (h * 60 + m);
	if (m > 59 || off < -12 * 60 || off > 14 * 60)
		return fail(p, "UTC offset '%.*s' is out of range -12:00 to +14:00",
		    span(s, peek(p, k - 1)), s->s);
	if (set_zone(p, Z_FIXED))
		return -1;
	p->sp.zone_off = (int32_t)off * 60;
	snprintf(p->zlabel, sizeof p->zlabel, "UTC%c%02d:%02d", sign < 0 ? '-' : '+',
	    (int)(h % 100), (int)m);
	p->i += k;
	return 0;
}

/* "UTC", "EST", "UTC+1", "ET", "Europe/Paris". */
static int
part_zone(struct parser *p)
{
	struct tok *t = cur(p);
	struct spec *sp = &p->sp;
	if (t->type == T_ZONE) {
		if (set_zone(p, Z_NAMED))
			return -1;
		sp->zone_name = t->s;
		sp->zone_len = t->len;
		p->i++;
		return 0;
	}
	if (is_kw(t, K_ZONENAME)) {
		if (set_zone(p, Z_US))
			return -1;
		sp->zone_us = t->val;
		p->i++;
		return 0;
	}
	p->i++;
	const struct tok *s = cur(p), *n = peek(p, 1);
	if (t->len == 3 && (strncasecmp(t->s, "utc", 3) == 0 || strncasecmp(t->s, "gmt", 3) == 0) &&
	    (is_punct(s, '+') || is_punct(s, '-')) && n->type == T_NUM && n->ndig && !n->space &&
	    !unit_at(p, 2))
		return zone_offset(p);
	if (set_zone(p, Z_FIXED))
		return -1;
	sp->zone_off = t->val * 60;
	if (t->len == 1) {
		snprintf(p->zlabel, sizeof p->zlabel, "UTC");
	} else {
		for (int k = 0; k < t->len && k < (int)sizeof p->zlabel - 1; k++)
			p->zlabel[k] = (char)toupper((unsigned char)t->s[k]);
		p->zlabel[t->len < (int)sizeof p->zlabel ? t->len : (int)sizeof p->zlabel - 1] = 0;
	}
	return 0;
}

static int
part_ambiguous(struct parser *p)
{
	const struct ambiguous *a = &ambiguous[cur(p)->val];
	return advise(p, "'%s' could be %s; write an offset such as %s or a zone name such as %s",
	    a->abbr, a->meanings, a->offset, a->zone);
}

/* "+2h", "+15 minutes"; after a time, a UTC offset: "17:00 +02:00", "9am -5". */
static int
part_sign(struct parser *p)
{
	const struct tok *s = cur(p), *n = peek(p, 1);
	if (n->type == T_NUM && n->ndig && !n->space && !unit_at(p, 2) &&
	    !(is_punct(peek(p, 2), '.') && unit_at(p, 4))) {
		if (is_punct(peek(p, 2), ':') || n->ndig == 4 || p->sp.has_time || p->sp.midnight)
			return zone_offset(p);
	}
	if (is_punct(s, '-'))
		return negative(p);
	p->i++;
	return part_duration(p);
}

/* ---- times of day ---- */

/* A part of the day at k: "in the morning", "at night", "tonight", "this
 * evening", "evening". */
static int
period_at(struct parser *p, int k)
{
	const struct tok *t = peek(p, k);
	if (is_kw(t, K_IN) && is_kw(peek(p, k + 1), K_THE))
		t = peek(p, k + 2);
	else if (is_kw(t, K_AT) || is_kw(t, K_THIS))
		t = peek(p, k + 1);
	return is_kw(t, K_PERIOD) || is_kw(t, K_TONIGHT);
}

/* A day at k, after which a bare hour is one: "9 tomorrow", "5 friday". */
static int
day_at(struct parser *p, int k)
{
	const struct tok *t = peek(p, k);
	if (is_kw(t, K_ON))
		t = peek(p, k + 1);
	return is_kw(t, K_DAYWORD) || is_kw(t, K_WEEKDAY);
}

/* "past", "after", "to" or "of" at k, and an hour after it. */
static int
clock_rel_at(struct parser *p, int k)
{
	const struct tok *r = peek(p, k), *h = peek(p, k + 1);
	return (is_kw(r, K_PAST) || is_kw(r, K_AFTER) || is_kw(r, K_TO) || is_kw(r, K_OF)) &&
	    ((h->type == T_NUM && h->ndig <= 2) || is_kw(h, K_NOON) || is_kw(h, K_MIDNIGHT));
}

/* Minutes past or to an hour: "half past 3", "quarter to 5", "10 past 4",
 * "twenty to six"; the minutes took k tokens. */
static int
clock_words(struct parser *p, int64_t min, int k)
{
	const struct tok *r = peek(p, k), *ht = peek(p, k + 1);
	int to = is_kw(r, K_TO) || is_kw(r, K_OF);
	if (min < 1 || min > 59)
		return fail(p, "'%.*s' is not a time of day", span(cur(p), ht), cur(p)->s);
	if (ht->type == T_WORD) {
		/* "half past noon", "quarter to midnight": 23:45 that evening */
		int h = is_kw(ht, K_NOON) ? 12 : to ? 24 : 0;
		if (set_time(p, h, to ? 0 : (int)min, 0))
			return -1;
		p->sp.to_min = to ? (int)min : 0;
		p->sp.ampm = 1;
		p->i += k + 2;
		return 0;
	}
	int64_t h = ht->num;
	k += 2;
	if (is_kw(peek(p, k), K_OCLOCK))
		k++;
	const struct tok *ap = peek(p, k);
	int ampm = is_kw(ap, K_AMPM);
	if (ampm) {
		if (h < 1 || h > 12)
			return fail(p, "hour %lld is out of range 1-12 for am/pm", (long long)h);
		h = h % 12 + ap->val;
		k++;
	} else if (h > 23) {
		return fail(p, "hour %lld is out of range 0-23", (long long)h);
	}
	if (set_time(p, (int)h, to ? 0 : (int)min, 0))
		return -1;
	p->sp.to_min = to ? (int)min : 0;
	p->sp.ampm = ampm;
	p->sp.bare = !ampm && !(ht->ndig == 2 && ht->s[0] == '0');
	p->i += k;
	return 0;
}

static int part_noon(struct parser *p);
static int part_midnight(struct parser *p);

/* A number that is not a time of day, and what to write instead. */
static int
not_a_time(struct parser *p, const struct tok *t)
{
	if (t->ndig == 4 && t->num / 100 < 24 && t->num % 100 < 60)
		return advise(p, "'%.*s' is not a time; write %02lld:%02lld", TOKF(t),
		    (long long)(t->num / 100), (long long)(t->num % 100));
	if (t->ndig > 2)
		return fail(p, "'%.*s' is not a time", TOKF(t));
	if (t->num >= 1 && t->num <= 12)
		return advise(p, "a number alone is not a time; write '%.*s:00', '%.*spm' or 'in "
		    "%.*s hours'", TOKF(t), TOKF(t), TOKF(t));
	return advise(p, "a number alone is not a time; write a time such as 17:00 or 5pm");
}

/* hh:mm[:ss[.frac]], hh.mm, h am|pm, h o'clock, 12 noon, or (when bare_ok
 * or a part of the day follows) an hour alone.  1 when it read a time, 0
 * when the number is not one. */
static int
clock_time(struct parser *p, int bare_ok)
{
	struct tok *t = cur(p), *sep = peek(p, 1), *m = peek(p, 2);
	int64_t h = t->num, mi = 0, sec = 0;
	int k = 1, colon = 0;
	if ((is_punct(sep, ':') || is_punct(sep, '.')) && m->type == T_NUM && m->ndig &&
	    !sep->space && !m->space) {
		if (t->ndig == 0 || t->ndig > 2 || m->ndig != 2)
			return fail(p, "'%.*s' is not a time of day", span(t, m), t->s);
		mi = m->num;
		k = 3;
		colon = 1;
		const struct tok *c2 = peek(p, 3), *s = peek(p, 4);
		if (is_punct(sep, ':') && is_punct(c2, ':') && s->type == T_NUM && !c2->space &&
		    !s->space) {
			if (s->ndig != 2)
				return fail(p, "'%.*s' is not a time of day", span(t, s), t->s);
			sec = s->num;
			k = 5;
			const struct tok *d = peek(p, 5), *f = peek(p, 6);
			if (is_punct(d, '.') && f->type == T_NUM && f->ndig && !d->space &&
			    !f->space)
				k = 7; /* fractions of a second are dropped */
		}
	}
	int oclock = 0;
	if (!colon && is_kw(peek(p, k), K_OCLOCK))
		oclock = 1, k++;
	const struct tok *ap = peek(p, k);
	int ampm = is_kw(ap, K_AMPM);
	if (!colon && !ampm && !oclock && h == 12 && t->ndig <= 2 &&
	    (is_kw(ap, K_NOON) || is_kw(ap, K_MIDNIGHT))) {
		p->i += k;
		return (is_kw(ap, K_NOON) ? part_noon(p) : part_midnight(p)) ? -1 : 1;
	}
	if (!colon && !ampm && !oclock && !bare_ok && !period_at(p, k) && !day_at(p, k))
		return 0;
	if (t->ndig > 2)
		return not_a_time(p, t);
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
	p->sp.bare = !ampm && !colon && !(t->ndig == 2 && t->s[0] == '0'); /* "07" is 24-hour */
	p->i += k + ampm;
	return 1;
}

static int
part_noon(struct parser *p)
{
	if (set_time(p, 12, 0, 0))
		return -1;
	p->sp.ampm = 1; /* as unambiguous as 12pm */
	p->i++;
	return 0;
}

static int
part_midnight(struct parser *p)
{
	if (p->sp.has_time || p->sp.midnight)
		return fail(p, "it names two times of day");
	p->sp.midnight = 1;
	p->i++;
	return 0;
}

static int
part_half(struct parser *p)
{
	if (is_kw(peek(p, 1), K_PAST) || is_kw(peek(p, 1), K_AFTER))
		if (clock_rel_at(p, 1))
			return clock_words(p, 30, 1);
	return part_duration(p);
}

static int
part_quarter(struct parser *p)
{
	if (clock_rel_at(p, 1))
		return clock_words(p, 15, 1);
	return unexpected(p);
}

/* "a quarter past 5", or a duration: "a week from friday", "an hour from now". */
static int
part_a(struct parser *p)
{
	if (is_kw(peek(p, 1), K_QUARTER) && clock_rel_at(p, 2))
		return clock_words(p, 15, 2);
	return part_duration(p);
}

/* "at 5", "at noon", "at night", "at half past 3", "at the weekend". */
static int
part_at(struct parser *p)
{
	p->i++;
	const struct tok *t = cur(p);
	if (is_kw(t, K_THE) && is_kw(peek(p, 1), K_WEEKEND))
		p->i++, t = cur(p);
	if (t->type == T_NUM || is_kw(t, K_NOON) || is_kw(t, K_MIDNIGHT) || is_kw(t, K_TONIGHT) ||
	    is_kw(t, K_PERIOD) || is_kw(t, K_HALF) || is_kw(t, K_QUARTER) || is_kw(t, K_WEEKEND) ||
	    (is_kw(t, K_A) && is_kw(peek(p, 1), K_QUARTER))) {
		p->time_ok = 1;
		return part(p);
	}
	return unexpected(p);
}

static int
part_period(struct parser *p)
{
	struct spec *sp = &p->sp;
	const struct tok *t = cur(p);
	if (sp->period >= 0)
		return fail(p, "it names two parts of the day");
	sp->period = t->val;
	sp->pm_bias = t->val >= 12 * 60;
	p->i++;
	return 0;
}

static int
part_tonight(struct parser *p)
{
	struct spec *sp = &p->sp;
	if (sp->date != D_NONE && !(sp->date == D_REL && sp->rel_days == 0))
		return fail(p, "it names two dates");
	if (sp->date == D_NONE && set_date(p, D_REL))
		return -1;
	if (part_period(p))
		return -1;
	sp->rel_days = 0;
	sp->today = 1;
	sp->tonight = 1;
	return 0;
}

/* ---- dates ---- */

static int
check_day(struct parser *p, int d, int m)
{
	static const int month_max[13] = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (d < 1 || d > month_max[m])
		return fail(p, "%s has no day %d", month_name[m], d);
	return 0;
}

static int
set_abs(struct parser *p, int64_t y, int m, int d)
{
	if (y && (y < 1970 || y > 9999))
		return fail(p, "year %lld is out of range 1970-9999", (long long)y);
	if (m < 1 || m > 12)
		return fail(p, "month %d is out of range 1-12", m);
	if (y && d >= 1 && d > days_in_month(y, (unsigned)m))
		return fail(p, "%s %lld has no day %d", month_name[m], (long long)y, d);
	if (check_day(p, d, m) || set_date(p, D_ABS))
		return -1;
	p->sp.year = y, p->sp.mon = m, p->sp.day = d;
	return 0;
}

/* An optional year after a month and day: ", 2027" or "2027". */
static int
opt_year(struct parser *p)
{
	int save = p->i;
	if (is_punct(cur(p), ','))
		p->i++;
	const struct tok *t = cur(p);
	if (t->type == T_NUM && t->ndig >= 4 && !is_punct(peek(p, 1), ':') &&
	    !is_punct(peek(p, 1), '.') && !is_kw(peek(p, 1), K_AMPM) &&
	    !is_kw(peek(p, 1), K_OCLOCK)) {
		if (t->ndig > 4 || t->num < 1970)
			return fail(p, "year %.*s is out of range 1970-9999", TOKF(t));
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

/* A two-digit year as POSIX strptime's %y reads it: 69-99 are 1969-1999. */
static int64_t
full_year(const struct tok *t)
{
	if (t->ndig == 2)
		return t->num + (t->num >= 69 ? 1900 : 2000);
	return t->num;
}

/* yyyy-mm-dd, yyyy/mm/dd, yyyy.mm.dd [T clock]; m/d[/y] (d/m/y); d.m.y.
 * 1 when it read a date, 0 when the number does not start one. */
static int
numeric_date(struct parser *p)
{
	const struct tok *a = cur(p), *s1 = peek(p, 1), *b = peek(p, 2), *s2 = peek(p, 3),
	    *c = peek(p, 4);
	if (!a->ndig || s1->type != T_PUNCT || !strchr("-/.", s1->s[0]) || b->type != T_NUM ||
	    !b->ndig || s1->space || b->space)
		return 0;
	char sep = s1->s[0];
	int three = is_punct(s2, sep) && c->type == T_NUM && c->ndig && !s2->space && !c->space;
	const struct tok *last = three ? c : b;
	int64_t y = 0, m, d;
	if (a->ndig == 4) {
		if (!three || b->ndig > 2 || c->ndig > 2)
			return fail(p, "'%.*s' is not a date; write it as YYYY-MM-DD",
			    span(a, last), a->s);
		y = a->num, m = b->num, d = c->num;
	} else if (a->ndig > 2 || b->ndig > 2 || (three && c->ndig != 2 && c->ndig != 4)) {
		return fail(p, "'%.*s' is not a date", span(a, last), a->s);
	} else if (sep == '-') {
		if (!three)
			return 0;
		return advise(p, "'%.*s' could be read two ways; write %04lld-%02lld-%02lld (year "
		    "first) or %lld/%lld/%lld", span(a, c), a->s, (long long)full_year(c),
		    (long long)a->num, (long long)b->num, (long long)a->num, (long long)b->num,
		    (long long)full_year(c));
	} else if (sep == '.') {
		if (!three)
			return 0; /* a clock: 10.30 */
		d = a->num, m = b->num, y = full_year(c);
	} else {
		/* month first, as in the US, unless date_order = dmy; either way
		 * the other order when the first reading has no such month */
		int dmy = (p->flags & WHEN_DMY) != 0;
		if (dmy ? b->num > 12 && a->num <= 12 : a->num > 12)
			dmy = !dmy;
		m = dmy ? b->num : a->num;
		d = dmy ? a->num : b->num;
		if (m > 12)
			return fail(p, "'%.*s' has no month: neither %lld nor %lld is 1-12",
			    span(a, last), a->s, (long long)a->num, (long long)b->num);
		if (three)
			y = full_year(c);
	}
	/* Year 0 is set_abs's "no year": 0000 written out is a year out of range. */
	if (!y && (a->ndig == 4 || (three && c->ndig == 4)))
		return fail(p, "year 0000 is out of range 1970-9999");
	if (set_abs(p, y, (int)m, (int)d))
		return -1;
	p->i += three ? 5 : 3;
	if (a->ndig == 4 && is_kw(cur(p), K_T) && !cur(p)->space) {
		p->i++;
		if (cur(p)->type != T_NUM || cur(p)->space)
			return unexpected(p);
		int r = clock_time(p, 0);
		if (r <= 0)
			return r < 0 ? -1 : unexpected(p);
	}
	return 1;
}

/* day [ordinal] [of] month [year], or "the 15th". */
static int
day_month(struct parser *p)
{
	const struct tok *t = cur(p), *n1 = peek(p, 1);
	int d = (int)t->num, k = 1;
	if (is_kw(n1, K_ORD)) {
		if (n1->space)
			return p->i++, unexpected(p);
		k++;
	}
	if (is_kw(peek(p, k), K_OF))
		k++;
	if (is_kw(peek(p, k), K_MONTH)) {
		if (set_abs(p, 0, peek(p, k)->val, d))
			return -1;
		p->i += k + 1;
		return opt_year(p);
	}
	if (k == 1)
		return p->i++, unexpected(p);
	if (d < 1 || d > 31)
		return fail(p, "there is no day %d in any month", d);
	if (set_date(p, D_DOM))
		return -1;
	p->sp.day = d;
	p->i += k;
	return 0;
}

static int
part_number(struct parser *p)
{
	const struct tok *t = cur(p), *n1 = peek(p, 1);
	int r = numeric_date(p);
	if (r)
		return r < 0 ? -1 : 0;
	/* "10 past 4", "5 minutes to 6" */
	if (t->ndig <= 2 && clock_rel_at(p, 1))
		return clock_words(p, t->num, 1);
	if (t->ndig <= 2 && is_kw(n1, K_UNIT) && n1->val == U_MIN && clock_rel_at(p, 2))
		return clock_words(p, t->num, 2);
	if (unit_at(p, 1) || decimal_at(p))
		return part_duration(p);
	if (t->ndig && t->ndig <= 2 && (is_kw(n1, K_ORD) || is_kw(n1, K_MONTH) ||
	    (is_kw(n1, K_OF) && is_kw(peek(p, 2), K_MONTH))))
		return day_month(p);
	r = clock_time(p, p->time_ok);
	return r < 0 ? -1 : r == 0 ? not_a_time(p, t) : 0;
}

static int
part_month(struct parser *p)
{
	const struct tok *t = cur(p), *d = peek(p, 1);
	int k = 1;
	if (is_punct(d, '.') && !d->space) /* "Nov. 30" */
		d = peek(p, ++k);
	if (is_kw(d, K_THE))
		d = peek(p, ++k);
	if (d->type != T_NUM || d->ndig == 0 || d->ndig > 2 || is_punct(peek(p, k + 1), ':') ||
	    is_punct(peek(p, k + 1), '.') || is_kw(peek(p, k + 1), K_AMPM))
		return advise(p, "'%.*s' needs a day, as in '%.*s 15'", TOKF(t), TOKF(t));
	if (set_abs(p, 0, t->val, (int)d->num))
		return -1;
	p->i += k + 1;
	if (is_kw(cur(p), K_ORD)) {
		if (cur(p)->space)
			return unexpected(p);
		p->i++;
	}
	return opt_year(p);
}

static int
part_dayword(struct parser *p)
{
	if (set_date(p, D_REL))
		return -1;
	p->sp.rel_days = cur(p)->val;
	p->sp.today = cur(p)->val == 0;
	p->i++;
	return 0;
}

/* "day after tomorrow", "day before yesterday". */
static int
part_day(struct parser *p)
{
	const struct tok *t = cur(p), *r = peek(p, 1), *w = peek(p, 2);
	if (t->val != U_DAY || !is_kw(w, K_DAYWORD) ||
	    !((is_kw(r, K_AFTER) && w->val == 1) || (is_kw(r, K_BEFORE) && w->val == -1)))
		return unexpected(p);
	if (set_date(p, D_REL))
		return -1;
	p->sp.rel_days = 2 * w->val;
	p->i += 3;
	return 0;
}

static int
weekday(struct parser *p, int mode)
{
	struct spec *sp = &p->sp;
	if (sp->has_wd)
		return fail(p, "it names two days of the week");
	sp->has_wd = 1;
	sp->wd = cur(p)->val;
	sp->wd_mode = mode;
	p->i++;
	if (is_punct(cur(p), '.') && !cur(p)->space) /* "Tue. Dec 1" */
		p->i++;
	if (is_kw(cur(p), K_AFTER) && is_kw(peek(p, 1), K_NEXT)) {
		if (mode != WD_PLAIN)
			return unexpected(p);
		sp->wd_mode = WD_AFTER_NEXT;
		p->i += 2;
	}
	return 0;
}

static int
part_weekday(struct parser *p)
{
	return weekday(p, WD_PLAIN);
}

static int
week_ref(struct parser *p, int w)
{
	if (p->sp.week_ref >= 0)
		return fail(p, "it names two weeks");
	p->sp.week_ref = w;
	p->i++;
	return 0;
}

static int
weekend(struct parser *p, int w)
{
	if (set_date(p, D_WEEKEND))
		return -1;
	p->sp.week = w;
	p->i++;
	return 0;
}

static int
part_weekend(struct parser *p)
{
	return weekend(p, 0);
}

/* "this friday", "this morning", "this week", "this weekend". */
static int
part_this(struct parser *p)
{
	p->i++;
	const struct tok *t = cur(p);
	if (is_kw(t, K_WEEKDAY))
		return weekday(p, WD_PLAIN);
	if (is_kw(t, K_WEEKEND))
		return weekend(p, 0);
	if (is_kw(t, K_UNIT) && t->val == U_WEEK)
		return week_ref(p, 0);
	if (is_kw(t, K_PERIOD)) {
		struct spec *sp = &p->sp;
		if (sp->date != D_NONE && !(sp->date == D_REL && sp->rel_days == 0))
			return fail(p, "it names two dates");
		if (sp->date == D_NONE && set_date(p, D_REL))
			return -1;
		sp->today = 1;
		return part_period(p);
	}
	return unexpected(p);
}

/* "next friday", "next week", "next weekend", "next month", "next hour". */
static int
part_next(struct parser *p)
{
	p->i++;
	const struct tok *t = cur(p);
	if (is_kw(t, K_WEEKDAY))
		return weekday(p, WD_NEXT);
	if (is_kw(t, K_WEEKEND))
		return weekend(p, 1);
	if (is_kw(t, K_UNIT) && t->val == U_WEEK)
		return week_ref(p, 1);
	if (is_kw(t, K_UNIT) || is_kw(t, K_QUARTER)) {
		int u = is_kw(t, K_QUARTER) ? U_QUARTER : t->val;
		if (start_offset(p, OFF_NOW) || add_term(p, 1, 0, u))
			return -1;
		p->i++;
		return 0;
	}
	return unexpected(p);
}

/* "friday of next week": the "of" is noise there. */
static int
part_of(struct parser *p)
{
	const struct tok *w = peek(p, 1), *u = peek(p, 2);
	if ((is_kw(w, K_NEXT) || is_kw(w, K_THIS)) && is_kw(u, K_UNIT) && u->val == U_WEEK) {
		p->i++;
		return 0;
	}
	return unexpected(p);
}


/* "last friday", "last week": in the past, for --from and replays. */
static int
part_last(struct parser *p)
{
	p->i++;
	const struct tok *t = cur(p);
	if (is_kw(t, K_WEEKDAY))
		return weekday(p, WD_LAST);
	if (is_kw(t, K_UNIT) || is_kw(t, K_QUARTER)) {
		int u = is_kw(t, K_QUARTER) ? U_QUARTER : t->val;
		if (start_offset(p, OFF_NOW) || add_term(p, -1, 0, u))
			return -1;
		p->i++;
		return 0;
	}
	return unexpected(p);
}

/* The part each word starts; the others are unexpected where a part begins. */
static int (*const parts[K_COUNT])(struct parser *) = {
	[K_A] = part_a, [K_AFTER] = part_in, [K_AMBIG] = part_ambiguous, [K_AT] = part_at,
	[K_BEFORE] = part_in,
	[K_COUPLE] = part_duration, [K_DAYWORD] = part_dayword, [K_FEW] = part_duration,
	[K_HALF] = part_half, [K_IN] = part_in, [K_LAST] = part_last,
	[K_MIDNIGHT] = part_midnight, [K_MONTH] = part_month, [K_NEXT] = part_next,
	[K_NOON] = part_noon, [K_NOW] = part_now, [K_OF] = part_of, [K_PERIOD] = part_period,
	[K_QUARTER] = part_quarter, [K_THIS] = part_this, [K_TONIGHT] = part_tonight,
	[K_UNIT] = part_day, [K_WEEKDAY] = part_weekday, [K_WEEKEND] = part_weekend,
	[K_WITHIN] = part_in, [K_ZONE] = part_zone, [K_ZONENAME] = part_zone,
};

static int
part(struct parser *p)
{
	const struct tok *t = cur(p);
	switch (t->type) {
	case T_NUM:
		return part_number(p);
	case T_ZONE:
		return part_zone(p);
	case T_PUNCT:
		if (is_punct(t, '@'))
			return part_at(p); /* "tomorrow @ 3pm" */
		return is_punct(t, '+') || is_punct(t, '-') ? part_sign(p) : unexpected(p);
	case T_WORD:
		return parts[t->kw] ? parts[t->kw](p) : unexpected(p);
	}
	return unexpected(p);
}

/* Do the parts fit together? */
static int
finish(struct parser *p)
{
	struct spec *sp = &p->sp;
	if (p->n == 0)
		return fail(p, "it is empty");
	if (sp->week_ref >= 0) {
		if (sp->has_wd && sp->wd_mode == WD_PLAIN) {
			sp->wd_mode = WD_WEEK;
			sp->week = sp->week_ref;
		} else if (sp->has_wd) {
			return fail(p, "it names two dates");
		} else if (sp->week_ref == 0) {
			if (set_date(p, D_WEEK))
				return -1;
		} else {
			if (start_offset(p, OFF_NOW))
				return -1;
			sp->add_days += 7;
		}
	}
	if (sp->has_wd) {
		if (sp->date == D_NONE)
			sp->date = D_WEEKDAY, sp->keep_time = 1;
		else if (sp->wd_mode == WD_PLAIN && sp->date != D_WEEKEND)
			sp->wd_check = 1;
		else
			return fail(p, "it names two dates");
	}
	if (sp->off == OFF_NOW && sp->date != D_NONE)
		return fail(p, "it names both a date and an offset");
	if (sp->off == OFF_DATE) {
		const struct tok *a = &p->t[sp->anchor];
		if (sp->date == D_NONE)
			return advise(p, "'%.*s' needs a date after it, as in 'a week from friday'",
			    TOKF(a));
		if (sp->exact)
			return advise(p, "an offset in hours or minutes cannot be counted from a "
			    "date; name the time, as in 'tomorrow at 2am'");
	}
	if (sp->off != OFF_NONE && !sp->add_sec && !sp->add_days && !sp->add_months)
		return advise(p, "a duration of zero is no time ahead; write one such as 'in 5 "
		    "minutes'");
	if (sp->now && (sp->date != D_NONE || sp->has_time || sp->period >= 0 || sp->midnight))
		return fail(p, "'now' cannot have a date or time");
	if (sp->off == OFF_NOW && sp->exact && (sp->has_time || sp->midnight || sp->period >= 0))
		return fail(p, "a time of day cannot follow an offset in minutes or hours");
	if (!sp->now && sp->off == OFF_NONE && sp->date == D_NONE && !sp->has_time &&
	    !sp->midnight && sp->period < 0)
		return fail(p, "it names no date or time");
	return 0;
}

static int
parse(struct parser *p)
{
	while (cur(p)->type != T_END) {
		const struct tok *t = cur(p);
		if (is_punct(t, ',') || is_kw(t, K_ON) || is_kw(t, K_THE)) {
			p->i++;
			continue;
		}
		if (part(p))
			return -1;
		p->time_ok = 1;
	}
	return finish(p);
}

/* ---- the instant ---- */

struct clock {
	int h, mi, sec;
};

/* The instant of a wall time: the first of two in a fall-back; in a
 * spring-forward gap, the wall time moved forward by the gap (read with
 * the offset before it), as RFC 5545 and Temporal's "compatible" say:
 * 02:30 on a night that goes from 02:00 to 03:00 is 03:30. */
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
			return local - s.prev_off;
		if (s.end == INT64_MAX)
			break;
		t = s.end;
	}
	return local - tz_offset(z, local); /* not reached for real zones */
}

/* US daylight time since 2007, as instants [*a, *b): from 02:00 standard
 * time on the second Sunday of March to 02:00 daylight time on the first
 * Sunday of November. */
static void
us_span(int64_t y, int32_t std, int64_t *a, int64_t *b)
{
	int64_t mar = days_from_civil(y, 3, 1), nov = days_from_civil(y, 11, 1);
	mar += (7 - weekday_from_days(mar)) % 7 + 7;
	nov += (7 - weekday_from_days(nov)) % 7;
	*a = mar * 86400 + 7200 - std;
	*b = nov * 86400 + 7200 - (std + 3600);
}

/* The US zone's file, for years before the rule; NULL if it cannot be read. */
static const struct tz *
us_file(struct parser *p)
{
	struct err e;
	if (!p->own)
		tz_load(p->us->name, &p->own, &e);
	return p->own;
}

static int32_t
rz_offset(struct parser *p, int64_t t)
{
	if (p->rz)
		return tz_offset(p->rz, t);
	if (!p->us)
		return p->rz_off;
	int32_t std = p->us->std;
	int64_t y = year_of(t + std), a, b;
	if (y < 2007 && us_file(p))
		return tz_offset(p->own, t);
	us_span(y, std, &a, &b);
	return t >= a && t < b ? std + 3600 : std;
}

static int64_t
local_of(int64_t days, const struct clock *c)
{
	return days * 86400 + (int64_t)c->h * 3600 + c->mi * 60 + c->sec;
}

static int64_t
rz_instant(struct parser *p, int64_t days, const struct clock *c)
{
	int64_t local = local_of(days, c);
	if (p->rz)
		return resolve(p->rz, local);
	if (!p->us)
		return local - p->rz_off;
	int32_t std = p->us->std;
	int64_t y = year_of(local), a, b;
	if (y < 2007 && us_file(p))
		return resolve(p->own, local);
	us_span(y, std, &a, &b);
	if (local >= a + std && local < a + std + 3600)
		return local - std; /* in the spring-forward gap: moved forward by it */
	if (local >= a + std + 3600 && local < b + std + 3600)
		return local - std - 3600; /* daylight time, the repeated hour's first pass */
	return local - std;
}

/* 0001-01-01 and 9999-12-31 as days and instants. */
#define DAYS_MIN (-719162)
#define DAYS_MAX 2932896
#define TIME_MIN (-62135596800LL)
#define TIME_MAX 253402300799LL

static int
check_days(struct parser *p, int64_t days)
{
	if (days > DAYS_MAX)
		return fail(p, "it is past the year 9999");
	if (days < DAYS_MIN)
		return fail(p, "it is before the year 1");
	return 0;
}

/* days + the offset's months (the day kept, or the month's last) and days. */
static int
shift_days(struct parser *p, int64_t days, int64_t *out)
{
	const struct spec *sp = &p->sp;
	if (sp->add_months > 120000 || sp->add_months < -120000 || sp->add_days > 4000000 ||
	    sp->add_days < -4000000)
		return check_days(p, sp->add_months + sp->add_days > 0 ? DAYS_MAX + 1 :
		    DAYS_MIN - 1);
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	int64_t mm = y * 12 + (m - 1) + sp->add_months;
	y = floor_div(mm, 12);
	m = (unsigned)(mm - y * 12) + 1;
	if ((int)d > days_in_month(y, m))
		d = (unsigned)days_in_month(y, m);
	*out = days_from_civil(y, m, d) + sp->add_days;
	return check_days(p, *out);
}

/* The zone the expression is read in: the one it names, else the task's. */
static int
reading_zone(struct parser *p, const struct tz *z)
{
	const struct spec *sp = &p->sp;
	p->rz = z;
	if (sp->zone == Z_US) {
		p->rz = NULL;
		p->us = &us_zones[sp->zone_us];
		return 0;
	}
	if (sp->zone == Z_FIXED) {
		p->rz = NULL;
		p->rz_off = sp->zone_off;
		return 0;
	}
	if (sp->zone != Z_NAMED)
		return 0;
	char name[TEXT_MAX];
	snprintf(name, sizeof name, "%.*s", sp->zone_len, sp->zone_name);
	if (strcmp(name, tz_name(z)) == 0)
		return 0;
	struct err e;
	int lower = 1;
	for (const char *c = name; *c; c++)
		lower &= !isupper((unsigned char)*c);
	if (tz_load(name, &p->own, &e) != ST_OK && lower) {
		/* "europe/paris": the files are Area/Location in mixed case */
		for (char *c = name; *c; c++)
			if (c == name || strchr("/_-", c[-1]))
				*c = (char)toupper((unsigned char)*c);
		tz_load(name, &p->own, &e);
	}
	if (!p->own)
		return advise(p, "unknown time zone '%.*s'; write an IANA name such as "
		    "Europe/Paris or an offset such as +01:00",
		    sp->zone_len > 60 ? 60 : sp->zone_len, sp->zone_name);
	p->rz = p->own;
	return 0;
}

static const char *
period_name(const struct spec *sp)
{
	static const struct {
		int at;
		const char *name;
	} names[] = {{9 * 60, "in the morning"}, {15 * 60, "in the afternoon"},
		{18 * 60, "in the evening"}, {20 * 60, "at night"}};
	if (sp->tonight)
		return "tonight";
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (names[k].at == sp->period)
			return names[k].name;
	return "at night";
}

/* An hour said with a part of the day.  Evening, night and tonight: a bare
 * 5-11 is pm, 1-4 and 12 could be either half of the day and are refused,
 * 05:00-12:59 is never theirs; afternoon: 1-11 is pm. */
static int
period_hour(struct parser *p, int *hp)
{
	const struct spec *sp = &p->sp;
	int h = *hp, mi = sp->mi, late = sp->period >= 18 * 60;
	if (late && !sp->ampm && ((h >= 1 && h <= 4) || h == 12))
		return advise(p, "%d:%02d could be %02d:%02d or %02d:%02d; add am or pm", h, mi,
		    h % 12, mi, h % 12 + 12, mi);
	if (sp->pm_bias && !sp->ampm && h >= 1 && h <= 11)
		h += 12;
	else if (late && h >= 5 && h < 13)
		return fail(p, "%02d:%02d is not %s", h, mi, period_name(sp));
	else if (late && h < 5 && !sp->tonight)
		return sp->period > 18 * 60 ? advise(p, "%02d:%02d is after midnight; name the "
		    "day it falls on", h, mi) :
		    fail(p, "%02d:%02d is not %s", h, mi, period_name(sp));
	else if (sp->pm_bias && sp->ampm && h < 12 && !sp->tonight)
		return fail(p, "%02d:%02d is not %s", h, mi, period_name(sp));
	else if (!sp->pm_bias && sp->ampm && h >= 12)
		return fail(p, "%02d:%02d is not in the morning", h, mi);
	*hp = h;
	return 0;
}

/* The time of day it names into *c: 1, or 0 when it names none. */
static int
time_of_day(struct parser *p, struct clock *c)
{
	const struct spec *sp = &p->sp;
	if (sp->has_time) {
		int h = sp->h;
		if (sp->period >= 0) {
			if (period_hour(p, &h))
				return -1;
		} else if (sp->bare && h >= 1 && h <= 7) {
			h += 12; /* "at 4": the afternoon, as calendar apps read it */
		}
		int m = h * 60 + sp->mi - sp->to_min;
		if (m < 0)
			return advise(p, "that is before 00:00; write the time as 23:%02d the day "
			    "before", 60 - sp->to_min);
		c->h = m / 60, c->mi = m % 60, c->sec = sp->sec;
		return 1;
	}
	if (sp->midnight) {
		if (sp->period >= 0 && sp->period < 18 * 60)
			return fail(p, "midnight is not %s", period_name(sp));
		*c = (struct clock){0, 0, 0};
		return 1;
	}
	if (sp->period >= 0) {
		*c = (struct clock){sp->period / 60, sp->period % 60, 0};
		return 1;
	}
	return 0;
}

/* The next date with this month and day (and any day of month for D_DOM)
 * whose instant is not before now. */
static int64_t
next_date(struct parser *p, int64_t now, int64_t today, const struct clock *c, int eod)
{
	const struct spec *sp = &p->sp;
	int64_t y, days = today;
	unsigned um, ud;
	civil_from_days(today, &y, &um, &ud);
	int m = sp->date == D_ABS ? sp->mon : (int)um;
	for (int k = 0; k <= 12; k++) {
		if (sp->date == D_ABS)
			y += k > 0;
		else if (k > 0 && ++m > 12)
			m = 1, y++;
		if (sp->day > days_in_month(y, (unsigned)m))
			continue;
		days = days_from_civil(y, (unsigned)m, (unsigned)sp->day);
		if (rz_instant(p, days + eod, c) >= now)
			break;
	}
	return days;
}

/* The day a date names, in local days, and *roll: how many days on to go
 * when that day's instant has passed (0: it is refused as past instead). */
static int
date_day(struct parser *p, int64_t now, int64_t today, struct clock *c, int explicit_time,
    int eod, int64_t *days, int *roll)
{
	const struct spec *sp = &p->sp;
	int twd = weekday_from_days(today);
	int64_t monday = today - (twd + 6) % 7; /* weeks start on Monday (ISO 8601) */
	*roll = 0;
	switch (sp->date) {
	case D_NONE:
		*days = today, *roll = 1;
		break;
	case D_REL:
		*days = today + sp->rel_days;
		if (sp->tonight && !sp->midnight && c->h < 5)
			++*days; /* tonight at 1am: early tomorrow */
		break;
	case D_WEEKDAY:
		if (sp->wd_mode == WD_WEEK) {
			*days = monday + 7 * sp->week + (sp->wd + 6) % 7;
		} else if (sp->wd_mode == WD_LAST) {
			int back = (twd - sp->wd + 7) % 7;
			*days = today - (back ? back : 7);
		} else {
			int delta = (sp->wd - twd + 7) % 7;
			/* "sunday" said on a Sunday morning is today, at noon (the
			 * hour a day named alone is given) while that is ahead. */
			if (delta == 0 && sp->wd_mode == WD_PLAIN && !explicit_time &&
			    rz_instant(p, today, &(struct clock){12, 0, 0}) > now) {
				*c = (struct clock){12, 0, 0};
				break;
			}
			if (delta == 0 && (sp->wd_mode != WD_PLAIN || !explicit_time))
				delta = 7;
			if (sp->wd_mode == WD_AFTER_NEXT)
				delta += 7;
			*days = today + delta;
			if (delta == 0)
				*roll = 7;
		}
		break;
	case D_WEEKEND:
		if (sp->week || (twd != 6 && twd != 0)) {
			*days = monday + 7 * sp->week + 5;
			break;
		}
		/* fall through */
	case D_WEEK:
		/* Said within it: the first of its days (today, else tomorrow if
		 * it is still in it) whose instant is ahead, at noon (the hour a
		 * day named alone is given) unless a time is given, which is
		 * refused as past when it is not. */
		if (!explicit_time)
			*c = (struct clock){12, 0, 0};
		*days = today;
		if (rz_instant(p, today + eod, c) <= now && today < monday + 6)
			++*days;
		if (!explicit_time && rz_instant(p, *days, c) <= now)
			return advise(p, "%s has no noon left ahead; name a time, as in '%s at 6pm', "
			    "or say 'next %s'", sp->date == D_WEEK ? "this week" : "this weekend",
			    sp->date == D_WEEK ? "this week" : "this weekend",
			    sp->date == D_WEEK ? "week" : "weekend");
		break;
	case D_ABS:
		if (sp->year) {
			*days = days_from_civil(sp->year, (unsigned)sp->mon, (unsigned)sp->day);
			break;
		}
		/* fall through */
	case D_DOM:
		*days = next_date(p, now, today, c, eod);
		break;
	}
	return 0;
}

static int
wrong_weekday(struct parser *p, int64_t days)
{
	int64_t y;
	unsigned m, d;
	civil_from_days(days, &y, &m, &d);
	return advise(p, "%s %u, %lld is a %s, not a %s", month_name[m], d, (long long)y,
	    weekday_name[weekday_from_days(days)], weekday_name[p->sp.wd]);
}

static int
evaluate(struct parser *p, int64_t now, const struct tz *z, int64_t *out)
{
	const struct spec *sp = &p->sp;
	if (reading_zone(p, z))
		return -1;
	if (sp->now && sp->off == OFF_NONE) {
		*out = now;
		return 0;
	}
	int64_t nlocal = now + rz_offset(p, now), today = floor_div(nlocal, 86400);
	int nsec = (int)(nlocal - today * 86400);
	struct clock c = {nsec / 3600, nsec / 60 % 60, nsec % 60};
	int explicit_time = time_of_day(p, &c);
	if (explicit_time < 0)
		return -1;
	int64_t days = today;
	if (sp->off == OFF_NOW) {
		*out = now;
		if (sp->add_days || sp->add_months || explicit_time) {
			if (shift_days(p, today, &days))
				return -1;
			*out = rz_instant(p, days, &c);
		}
		*out += sp->add_sec;
		return 0;
	}
	if (!explicit_time && !sp->keep_time)
		c = (struct clock){0, 0, 0};
	/* midnight is the start of its date, but the end of today, tonight,
	 * evening and night */
	int eod = sp->midnight &&
	    ((sp->date == D_REL && sp->rel_days == 0) || sp->period >= 18 * 60);
	int roll;
	if (date_day(p, now, today, &c, explicit_time, eod, &days, &roll))
		return -1;
	int64_t t = rz_instant(p, days + eod, &c);
	if (roll && t < now && !sp->today) {
		days += roll;
		t = rz_instant(p, days + eod, &c);
	}
	if (sp->wd_check && weekday_from_days(days) != sp->wd)
		return wrong_weekday(p, days);
	if (sp->off == OFF_DATE) {
		if (shift_days(p, days + eod, &days))
			return -1;
		t = rz_instant(p, days, &c);
	}
	*out = t;
	return 0;
}

/* ---- the interface ---- */

/* Years 1-9999 in UTC, in the task's zone and in the zone it was read in. */
static int
in_range(struct parser *p, const struct tz *z, int64_t t)
{
	if (t > TIME_MAX || t + tz_offset(z, t) > TIME_MAX || t + rz_offset(p, t) > TIME_MAX)
		return advise(p, "it is past the year 9999");
	if (t < TIME_MIN || t + tz_offset(z, t) < TIME_MIN || t + rz_offset(p, t) < TIME_MIN)
		return advise(p, "it is before the year 1");
	return 0;
}

static int
in_the_past(struct parser *p, int64_t t, struct err *e)
{
	char q[112], loc[64];
	utf8_quote(q, 104, p->text, TEXT_MAX);
	if (p->us) {
		int32_t off = rz_offset(p, t);
		tz_fmt_wall(t + off, loc, sizeof loc);
		return err_set(e, ST_INVALID, "'%s' is %s %s%s in %s, which is in the past", q, loc,
		    p->us->letter, off == p->us->std ? "ST" : "DT", p->us->name);
	}
	if (!p->rz) {
		tz_fmt_wall(t + p->rz_off, loc, sizeof loc);
		return err_set(e, ST_INVALID, "'%s' is %s %s, which is in the past", q, loc,
		    p->zlabel);
	}
	tz_fmt_local(p->rz, t, loc, sizeof loc);
	return err_set(e, ST_INVALID, "'%s' is %s %s in %s, which is in the past", q, loc,
	    tz_abbr(p->rz, t), tz_name(p->rz));
}

static void
parser_init(struct parser *p, const char *text, const struct tz *z, unsigned flags)
{
	p->text = text ? text : "";
	p->flags = flags;
	p->n = p->i = p->time_ok = p->advised = 0;
	p->why[0] = 0;
	p->rz = z;
	p->rz_off = 0;
	p->us = NULL;
	p->own = NULL;
	memset(&p->sp, 0, sizeof p->sp);
	p->sp.period = -1;
	p->sp.week_ref = -1;
}

int
when_read(const char *text, int64_t now, const struct tz *z, unsigned flags, int64_t *out,
    struct err *e)
{
	struct parser p;
	parser_init(&p, text, z, flags);
	/* RFC 3339 first: what agents send most */
	const char *s = p.text;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strcspn(s, BLANKS);
	int rc = -1;
	if (n >= 16 && n < 48 && isdigit((unsigned char)*s) && !s[n + strspn(s + n, BLANKS)]) {
		char rfc[48];
		memcpy(rfc, s, n);
		rfc[n] = 0;
		if (time_parse_rfc3339(rfc, out) == 0)
			rc = in_range(&p, z, *out);
	}
	if (rc && !p.why[0])
		rc = normalize(&p) || tokenize(&p) || parse(&p) || evaluate(&p, now, z, out) ||
		    in_range(&p, z, *out);
	if (rc) {
		char q[112];
		utf8_quote(q, 104, p.text, TEXT_MAX);
		rc = err_set(e, ST_INVALID, "cannot understand time '%s' (read in %s): %s%s", q,
		    tz_name(z), p.why[0] ? p.why : "it is empty", p.advised ? "" :
		    "; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z");
	} else if (!(flags & WHEN_PAST_OK) && *out < now - 60) {
		rc = in_the_past(&p, *out, e);
	}
	tz_free(p.own);
	return rc;
}

int
when_parse(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e)
{
	return when_read(text, now, z, 0, out, e);
}

int
when_parse_any(const char *text, int64_t now, const struct tz *z, int64_t *out, struct err *e)
{
	return when_read(text, now, z, WHEN_PAST_OK, out, e);
}

int
when_date_order(const char *value, unsigned *flags, struct err *e)
{
	*flags &= ~(unsigned)WHEN_DMY;
	if (!value || !*value || strcasecmp(value, "mdy") == 0)
		return ST_OK;
	if (strcasecmp(value, "dmy") == 0) {
		*flags |= WHEN_DMY;
		return ST_OK;
	}
	char q[64];
	return err_set(e, ST_INVALID, "date_order '%s' is neither mdy (3/4 is March 4) nor dmy "
	    "(3/4 is 3 April)", utf8_quote(q, sizeof q, value, 40));
}

int
when_clock(const char *text, int *hour, int *minute, struct err *e)
{
	struct parser p;
	struct tz *utc;
	int64_t at;
	int rc = tz_load("UTC", &utc, e);
	if (rc)
		return rc;
	parser_init(&p, text, utc, WHEN_PAST_OK);
	/* Read as a time today: any date, offset or zone is not a time of day. */
	rc = normalize(&p) || tokenize(&p) || parse(&p);
	const struct spec *sp = &p.sp;
	if (!rc && (sp->date != D_NONE || sp->off != OFF_NONE || sp->now || sp->zone != Z_TASK ||
	    sp->sec || !(sp->has_time || sp->midnight || sp->period >= 0)))
		rc = fail(&p, "it is not a time of day alone");
	if (!rc)
		rc = evaluate(&p, 0, utc, &at);
	char q[112];
	utf8_quote(q, 104, p.text, TEXT_MAX);
	if (rc)
		rc = err_set(e, ST_INVALID, "bad time of day '%s': %s%s", q, p.why[0] ? p.why :
		    "it is empty", p.advised ? "" : "; write one such as 09:00, 9am, 9:30pm, noon or"
		    " 'half past 9'");
	else
		*hour = (int)(at % 86400 / 3600), *minute = (int)(at % 3600 / 60);
	tz_free(p.own);
	tz_free(utc);
	return rc;
}

/* ---- intervals: "every 90 minutes", "every 2 hours from 9am" ----
 *
 *	every    = "every" span [ "from" when ]
 *	span     = [ amount ] unit { [ "and" | "," ] amount unit } | compact
 *	amount   = number | "a" | "an" | "one"
 *	unit     = s | sec(s) | second(s) | m | min(s) | minute(s) | h | hr(s) | hour(s)
 *	         | d | day(s) | w | wk(s) | week(s)
 *	compact  = number unit { number unit }          ("90m", "2h30m", "1d")
 *
 * Real time only: a month or a year is no fixed length, and "every day at
 * 9am" or "every monday" is a calendar recurrence, which cron says. */

static const struct span_unit {
	const char *name;
	int64_t sec;
} span_units[] = {
	{"s", 1}, {"sec", 1}, {"secs", 1}, {"second", 1}, {"seconds", 1},
	{"m", 60}, {"min", 60}, {"mins", 60}, {"minute", 60}, {"minutes", 60},
	{"h", 3600}, {"hr", 3600}, {"hrs", 3600}, {"hour", 3600}, {"hours", 3600},
	{"d", 86400}, {"day", 86400}, {"days", 86400},
	{"w", 604800}, {"wk", 604800}, {"wks", 604800}, {"week", 604800}, {"weeks", 604800},
};

static int64_t
span_unit(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof span_units / sizeof span_units[0]; i++)
		if (strlen(span_units[i].name) == n && strncasecmp(span_units[i].name, s, n) == 0)
			return span_units[i].sec;
	return 0;
}

/* One word of a span into *total: "90m", "2h30m", "minutes" (after an
 * amount in *amount), "90", "an"; 0 when the word is none of these. */
static int
span_word(const char *w, size_t n, int64_t *amount, int64_t *total)
{
	if (n == 1 && tolower((unsigned char)*w) == 'a')
		return *amount = 1;
	if ((n == 2 && strncasecmp(w, "an", 2) == 0) || (n == 3 && strncasecmp(w, "one", 3) == 0))
		return *amount = 1;
	int64_t u = span_unit(w, n);
	if (u) {
		*total += (*amount >= 0 ? *amount : 1) * u;
		*amount = -1;
		return *total <= INT32_MAX;
	}
	size_t i = 0;
	int any = 0;
	while (i < n && isdigit((unsigned char)w[i])) {
		int64_t v = 0;
		while (i < n && isdigit((unsigned char)w[i]) && v <= INT32_MAX)
			v = v * 10 + (w[i++] - '0');
		size_t j = i;
		while (j < n && isalpha((unsigned char)w[j]))
			j++;
		if (j == i) {           /* a bare number: the unit follows as a word */
			if (i != n || any || *amount >= 0)
				return 0;
			*amount = v;
			return 1;
		}
		if (!(u = span_unit(w + i, j - i)) || *amount >= 0)
			return 0;
		*total += v * u;
		if (*total > INT32_MAX)
			return 0;
		i = j;
		any = 1;
	}
	return any && i == n;
}

int
when_span(const char *text, int64_t *secs, struct err *e)
{
	int64_t amount = -1, total = 0;
	const char *p = text;
	char q[112];
	int words = 0;
	while (*p) {
		p += strspn(p, " \t,");
		size_t n = strcspn(p, " \t,");
		if (!n)
			break;
		if (!(n == 3 && strncasecmp(p, "and", 3) == 0) && !span_word(p, n, &amount, &total))
			return err_set(e, ST_INVALID, "bad interval '%s': write one such as 90m, 2h30m, 1d "
			    "or '90 minutes'", utf8_quote(q, 104, text, strlen(text)));
		words++;
		p += n;
	}
	if (!words || amount >= 0 || total <= 0)
		return err_set(e, ST_INVALID, "bad interval '%s': write one such as 90m, 2h30m, 1d or "
		    "'90 minutes'", utf8_quote(q, 104, text, strlen(text)));
	*secs = total;
	return ST_OK;
}

int
when_every(const char *text, int64_t now, const struct tz *z, unsigned flags, int64_t *secs,
    int64_t *anchor, struct err *e)
{
	const char *p = text + strspn(text, " \t");
	char q[112];
	if (strncasecmp(p, "every", 5) != 0 || (p[5] && !isspace((unsigned char)p[5])))
		return ST_NOTFOUND;
	p += 5;
	/* The span ends at "from", which starts the anchor. */
	const char *from = NULL;
	for (const char *s = p; *s && !from; s++)
		if (isspace((unsigned char)s[-1]) && strncasecmp(s, "from", 4) == 0 &&
		    (!s[4] || isspace((unsigned char)s[4])))
			from = s;
	char *span = xasprintf("%.*s", (int)(from ? from - p : (ptrdiff_t)strlen(p)), p);
	struct err sub;
	int rc = when_span(span, secs, &sub);
	free(span);
	if (rc)
		return err_set(e, ST_INVALID, "'%s' is not an interval in real time (minutes, hours, "
		    "days, weeks); a calendar recurrence (every monday, every day at 9am, every month) "
		    "is --daily, --weekly or --cron", utf8_quote(q, 104, text, strlen(text)));
	*anchor = INT64_MIN; /* TIME_NONE */
	if (from && (rc = when_read(from + 4, now, z, flags | WHEN_PAST_OK, anchor, e)))
		return rc;
	return ST_OK;
}
