/* t-when: time expressions.  The table in when-table.txt (argv[1]) is read
 * at a fixed now in London, New York and Sydney, each line with the instant
 * or the refusal it must give in each zone; every instant understood must
 * read back from the RFC 3339 forms task-when prints, and every refusal be
 * one line of valid UTF-8.  Then the exact wording of messages, wall times
 * in DST gaps and repeats, date_order, and the keyword table itself: this
 * file includes when.c to see its static tables (the library's when.o is
 * then never linked in). */
#include <stdlib.h>

#include "tap.h"
#include "when.c"
#include "utf8.h"

#define NOW "2026-11-22T14:30:00Z"
#define TRY "; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z"

static const char *const zone_names[3] = {"Europe/London", "America/New_York",
	"Australia/Sydney"};

static struct tz *
load(const char *name)
{
	struct tz *z;
	struct err e;
	if (tz_load(name, &z, &e)) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	return z;
}

/* The reason in a "cannot understand" message, else the whole message. */
static const char *
reason(const char *msg, const char *zone, char *buf, size_t n)
{
	char mark[96];
	snprintf(mark, sizeof mark, " (read in %s): ", zone);
	const char *r = strncmp(msg, "cannot understand time '", 24) == 0 ? strstr(msg, mark) : NULL;
	snprintf(buf, n, "%s", r ? r + strlen(mark) : msg);
	size_t len = strlen(buf), tl = strlen(TRY);
	if (r && len >= tl && strcmp(buf + len - tl, TRY) == 0)
		buf[len - tl] = 0;
	return buf;
}

/* \xHH, \t, \n and \\ in the table. */
static void
unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (*r != '\\' || !r[1]) {
			*w++ = *r;
			continue;
		}
		r++;
		if (*r == 'x' && r[1] && r[2]) {
			char hex[3] = {r[1], r[2], 0};
			*w++ = (char)strtol(hex, NULL, 16);
			r += 2;
		} else {
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		}
	}
	*w = 0;
}

static int n_understood, n_refused, n_mixed;

/* The expression in zone k against want: a wall time, a UTC instant, or a
 * refusal ("!" or "!reason").  Understood instants must read back. */
static int
one_zone(const char *in, struct tz *z, int64_t now, unsigned flags, const char *want,
    int check_reason, char *got, size_t n)
{
	int64_t t = 0;
	struct err e = {{0}};
	int rc = when_read(in, now, z, flags, &t, &e);
	if (want[0] == '!') {
		char why[ERR_MAX];
		if (rc != ST_INVALID || !tap_clean_line(e.msg)) {
			snprintf(got, n, rc ? "not one clean line: %s" : "understood", e.msg);
			return 0;
		}
		reason(e.msg, tz_name(z), why, sizeof why);
		snprintf(got, n, "%s", why);
		return !want[1] || !check_reason || strcmp(why, want + 1) == 0;
	}
	if (rc) {
		snprintf(got, n, "refused: %s", e.msg);
		return 0;
	}
	if (want[strlen(want) - 1] == 'Z')
		time_fmt_utc(t, got, n);
	else
		tz_fmt_local(z, t, got, n);
	if (strcmp(got, want) != 0)
		return 0;
	/* what task-when prints reads back as the same instant */
	char printed[2][64];
	tz_fmt_rfc3339(z, t, printed[0], sizeof printed[0]);
	time_fmt_utc(t, printed[1], sizeof printed[1]);
	for (int k = 0; k < 2; k++) {
		int64_t back = 0;
		if (when_read(printed[k], now, z, flags, &back, &e) != ST_OK || back != t) {
			snprintf(got, n, "'%s' reads back as %s", printed[k], rc ? e.msg : "another instant");
			return 0;
		}
	}
	return 1;
}

static void
table(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("Bail out! cannot open %s\n", path);
		exit(1);
	}
	struct tz *zs[3];
	for (int k = 0; k < 3; k++)
		zs[k] = load(zone_names[k]);
	int64_t now;
	time_parse_rfc3339(NOW, &now);
	unsigned flags = 0;
	char line[1024];
	int lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (strcmp(line, "@dmy") == 0 || strcmp(line, "@mdy") == 0) {
			flags = line[1] == 'd' ? WHEN_DMY : 0;
			continue;
		}
		char *field[4] = {0}, *save = NULL;
		int everywhere = line[0] == '!', nf = 0;
		char *rest = line + everywhere;
		for (char *tok = rest; nf < 4; nf++) {
			field[nf] = tok;
			char *tab = strchr(tok, '\t');
			if (!tab) {
				nf++;
				break;
			}
			*tab = 0;
			tok = tab + 1;
		}
		(void)save;
		char in[512], want[3][256], got[3][ERR_MAX + 64];
		snprintf(in, sizeof in, "%s", field[0]);
		unescape(in);
		if (everywhere) {
			for (int k = 0; k < 3; k++)
				snprintf(want[k], sizeof want[k], "!%s", nf > 1 ? field[1] : "");
		} else if (nf != 4) {
			printf("Bail out! %s:%d: expected 4 fields\n", path, lineno);
			exit(1);
		} else {
			for (int k = 0; k < 3; k++)
				snprintf(want[k], sizeof want[k], "%s",
				    strcmp(field[k + 1], "=") == 0 && k ? want[k - 1] : field[k + 1]);
		}
		int ok = 1, refused = 0;
		for (int k = 0; k < 3; k++) {
			unescape(want[k]);
			/* a whole "in the past" message names London's zone */
			int check = !everywhere || k == 0 || want[k][1] != '\'';
			ok &= one_zone(in, zs[k], now, flags, want[k], check, got[k], sizeof got[k]);
			refused += want[k][0] == '!';
		}
		if (refused == 3)
			n_refused++;
		else if (refused)
			n_mixed++;
		else
			n_understood++;
		if (!check(ok, "line %d: '%s'%s", lineno, field[0], flags ? " (dmy)" : ""))
			for (int k = 0; k < 3; k++)
				printf("#   %s: want %s, got %s\n", zone_names[k], want[k], got[k]);
	}
	fclose(f);
	printf("# table: %d understood in all three zones, %d refused in all, %d in some\n",
	    n_understood, n_refused, n_mixed);
	check(n_understood >= 400 && n_refused >= 150, "the table has 400 understood and 150 "
	    "refused expressions");
	for (int k = 0; k < 3; k++)
		tz_free(zs[k]);
}

static void
messages(void)
{
	struct tz *zl = load("Europe/London"), *zn = load("America/New_York");
	int64_t now, t;
	struct err e = {{0}};
	time_parse_rfc3339(NOW, &now);
	when_parse("blorp", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'blorp' (read in Europe/London): unknown word "
	    "'blorp'" TRY, "not understood: what was read, the zone, and what to try");
	when_parse("tomorow at 9", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tomorow at 9' (read in Europe/London): unknown "
	    "word 'tomorow'; did you mean 'tomorrow'?", "a typo: the nearest known word");
	when_parse("2026-01-01 09:00", now, zl, &t, &e);
	check_str(e.msg, "'2026-01-01 09:00' is 2026-01-01 09:00 GMT in Europe/London, which is "
	    "in the past", "the past, in the zone's wall time");
	when_parse("yesterday at 9", now, zn, &t, &e);
	check_str(e.msg, "'yesterday at 9' is 2026-11-21 09:00 EST in America/New_York, which is "
	    "in the past", "yesterday is in the past");
	when_parse("yesterday 9am EST", now, zl, &t, &e);
	check_str(e.msg, "'yesterday 9am EST' is 2026-11-21 09:00 EST, which is in the past",
	    "the past in a written zone is told in that zone");
	when_parse("yesterday 9am UTC+5:30", now, zl, &t, &e);
	check_str(e.msg, "'yesterday 9am UTC+5:30' is 2026-11-21 09:00 UTC+05:30, which is in the "
	    "past", "  and an offset is shown as one");
	when_parse("yesterday 9am Asia/Tokyo", now, zl, &t, &e);
	check_str(e.msg, "'yesterday 9am Asia/Tokyo' is 2026-11-21 09:00 JST in Asia/Tokyo, which "
	    "is in the past", "  and a zone by its name");
	when_parse("feb 30", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'feb 30' (read in Europe/London): February has "
	    "no day 30" TRY, "an impossible date says why");
	when_parse("tonight at 1", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tonight at 1' (read in Europe/London): 1:00 "
	    "could be 01:00 or 13:00; add am or pm", "an hour that could be either half says so");
	when_parse("tomorrow\nblorp", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tomorrow blorp' (read in Europe/London): "
	    "unknown word 'blorp'" TRY, "a newline in the input does not break the one line");
	when_parse("2026-01-01\t09:00", now, zl, &t, &e);
	check(strchr(e.msg, '\t') == NULL, "nor does a tab in a past one");
	when_parse("Wed, Dec 1 at 9am", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'Wed, Dec 1 at 9am' (read in Europe/London): "
	    "December 1, 2026 is a Tuesday, not a Wednesday", "a weekday that does not match "
	    "the date names both");
	when_parse("tomorrow\xff", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tomorrow\xef\xbf\xbd' (read in Europe/London): "
	    "it is not valid UTF-8; write times in plain letters and digits", "an invalid byte is "
	    "quoted as U+FFFD");
	{
		char longer[400];
		snprintf(longer, sizeof longer, "2026-12-01T07:00:00Z%300sblorp", "");
		check_int(when_parse(longer, now, zl, &t, &e), ST_INVALID,
		    "words past the 255th character are not cut off and ignored");
		check(strstr(e.msg, "it is too long") && tap_clean_line(e.msg), "  it is too long");
	}
	{
		/* 2-byte characters across the quoting limit: never cut in two */
		char s[256] = "tomorrow ";
		for (int k = 0; k < 60; k++)
			strcat(s, "\xc3\xa9");
		for (int cut = 0; cut < 4; cut++) {
			char in[260];
			snprintf(in, sizeof in, "%.*s%s", cut, "xxx", s);
			when_parse(in, now, zl, &t, &e);
			check(tap_clean_line(e.msg) && strstr(e.msg, "...'"), "a long non-ASCII input is "
			    "quoted cut between characters (offset %d)", cut);
		}
	}
	when_parse("25:00", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time '25:00' (read in Europe/London): hour 25 is out "
	    "of range 0-23" TRY, "an impossible hour says why");
	check_int(when_parse_any("2026-01-01 09:00", now, zl, &t, &e), ST_OK,
	    "when_parse_any takes the past");
	check_int(t, 1767258000, "  as that instant");
	check_int(when_read("last friday at 9am", now, zl, WHEN_PAST_OK, &t, &e), ST_OK,
	    "'last friday' for --from");
	{
		int64_t want;
		time_parse_rfc3339("2026-11-20T09:00:00Z", &want);
		check_int(t, want, "  is Friday 2026-11-20 09:00");
	}
	check_int(when_parse("2026-11-22T14:29:01Z", now, zl, &t, &e), ST_OK,
	    "59 seconds ago is still accepted");
	check_int(when_parse("2026-11-22T14:28:59Z", now, zl, &t, &e), ST_INVALID,
	    "61 seconds ago is not");
	{
		int64_t late;
		time_parse_rfc3339("9999-12-31T20:00:00Z", &late);
		check_int(when_parse("in 5 hours", late, zl, &t, &e), ST_INVALID,
		    "an offset past the year 9999 is refused");
		check(strstr(e.msg, "past the year 9999") != NULL, "  saying so");
		check_int(when_parse_any("tomorrow", late, zl, &t, &e), ST_INVALID,
		    "nor is tomorrow on the last day");
		check_int(when_parse_any("9999-12-31T22:00:00Z", late, zl, &t, &e), ST_OK,
		    "the last hours of 9999 are still read");
	}
	tz_free(zl);
	tz_free(zn);
}

struct dst_case {
	const char *zone, *now, *in, *want; /* want in UTC */
};

static const struct dst_case dsts[] = {
	{"America/New_York", "2026-03-07T17:00:00Z", "tomorrow at 2:30am", "2026-03-08T07:30:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "2026-03-08 02:30", "2026-03-08T07:30:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "in 1 day", "2026-03-08T16:00:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "in 24 hours", "2026-03-08T17:00:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "2026-11-01 01:30", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "tomorrow at 1:30", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "tomorrow at 1:30am", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "11/1 at 01:30", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2027-11-06T12:00:00Z", "2027-11-07 01:30", "2027-11-07T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "tomorrow at 1:30 EST", "2026-11-01T06:30:00Z"},
	{"Europe/London", "2026-03-28T12:00:00Z", "2026-03-29 01:30", "2026-03-29T01:30:00Z"},
	{"Europe/London", "2026-10-24T12:00:00Z", "tomorrow at 01:30", "2026-10-25T00:30:00Z"},
	{"Europe/London", "2027-10-30T12:00:00Z", "2027-10-31 01:30", "2027-10-31T00:30:00Z"},
	{"Europe/London", "2026-11-22T14:30:00Z", "9am ET on 3/15/2027", "2027-03-15T13:00:00Z"},
	{"Europe/London", "2026-11-22T14:30:00Z", "3/15/2027 9am EST", "2027-03-15T14:00:00Z"},
	{"Australia/Sydney", "2027-04-02T12:00:00Z", "2027-04-04 02:30", "2027-04-03T15:30:00Z"},
	{"Australia/Sydney", "2027-10-02T00:00:00Z", "tomorrow at 2:30am", "2027-10-02T16:30:00Z"},
	{"Australia/Sydney", "2027-10-02T12:00:00Z", "in 1 day", "2027-10-03T11:00:00Z"},
	{"Australia/Sydney", "2027-10-02T12:00:00Z", "in 24 hours", "2027-10-03T12:00:00Z"},
	{"Australia/Lord_Howe", "2026-10-03T00:00:00Z", "tomorrow at 2:15", "2026-10-03T15:45:00Z"},
	{"Australia/Lord_Howe", "2026-04-04T00:00:00Z", "tomorrow at 1:45", "2026-04-04T14:45:00Z"},
	{"Pacific/Chatham", "2026-09-26T00:00:00Z", "tomorrow at 3am", "2026-09-26T14:15:00Z"},
	{"Pacific/Chatham", "2026-04-04T00:00:00Z", "tomorrow at 3:00", "2026-04-04T13:15:00Z"},
	{"Asia/Kolkata", "2026-11-22T00:00:00Z", "tomorrow at 9am", "2026-11-23T03:30:00Z"},
	{"Asia/Kolkata", "2026-11-22T00:00:00Z", "tomorrow at 9am UTC", "2026-11-23T09:00:00Z"},
	{"Pacific/Apia", "2011-12-29T12:00:00Z", "2011-12-30 12:00", "2011-12-30T22:00:00Z"},
	{"UTC", "2026-11-22T14:30:00Z", "9am Pacific/Kiritimati", "2026-11-22T19:00:00Z"},
	/* ET, CT, MT, PT: the US rule from 2007, the zone's file before */
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-03-14 02:30 ET", "2027-03-14T07:30:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-03-14 01:59 ET", "2027-03-14T06:59:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-03-14 03:00 ET", "2027-03-14T07:00:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-11-07 00:59 ET", "2027-11-07T04:59:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-11-07 01:30 ET", "2027-11-07T05:30:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-11-07 02:00 ET", "2027-11-07T07:00:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-11-07 01:30 America/New_York",
	    "2027-11-07T05:30:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-07-01 9am CT", "2027-07-01T14:00:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-12-01 9am MT", "2027-12-01T16:00:00Z"},
	{"Europe/London", "2027-03-01T00:00:00Z", "2027-03-14 3am PT", "2027-03-14T10:00:00Z"},
	{"Europe/London", "2006-03-01T00:00:00Z", "2006-04-02 02:30 PT", "2006-04-02T10:30:00Z"},
	{"Europe/London", "2006-03-01T00:00:00Z", "2006-03-12 02:30 PT", "2006-03-12T10:30:00Z"},
	{"Europe/London", "2006-10-01T00:00:00Z", "2006-10-29 01:30 ET", "2006-10-29T05:30:00Z"},
	{"Europe/London", "2006-10-01T00:00:00Z", "2006-11-05 01:30 ET", "2006-11-05T06:30:00Z"},
};

static void
dst(void)
{
	for (size_t i = 0; i < sizeof dsts / sizeof *dsts; i++) {
		const struct dst_case *k = &dsts[i];
		struct tz *z = load(k->zone);
		int64_t now, t = 0;
		struct err e = {{0}};
		char got[ERR_MAX];
		time_parse_rfc3339(k->now, &now);
		if (when_parse(k->in, now, z, &t, &e))
			snprintf(got, sizeof got, "%s", e.msg);
		else
			time_fmt_utc(t, got, sizeof got);
		check_str(got, k->want, "%s at %s: '%s'", k->zone, k->now, k->in);
		tz_free(z);
	}
}

static void
date_order(void)
{
	struct err e;
	unsigned f = WHEN_PAST_OK;
	check_int(when_date_order("dmy", &f, &e), ST_OK, "date_order = dmy");
	check_int(f, WHEN_PAST_OK | WHEN_DMY, "  sets WHEN_DMY and keeps the other flags");
	check_int(when_date_order("MDY", &f, &e), ST_OK, "date_order = MDY");
	check_int(f, WHEN_PAST_OK, "  clears it");
	check_int(when_date_order(NULL, &f, &e), ST_OK, "no date_order is mdy");
	check_int(when_date_order("ymd", &f, &e), ST_INVALID, "date_order = ymd is refused");
	check_str(e.msg, "date_order 'ymd' is neither mdy (3/4 is March 4) nor dmy (3/4 is 3 "
	    "April)", "  saying what it may be");
}

/* The table is in strcmp order (bsearch depends on it) and every word in it
 * is found; typos find their word. */
static void
keyword_table(void)
{
	int sorted = 1, found = 1;
	for (size_t k = 0; k < NKEYWORDS; k++) {
		if (k && strcmp(keywords[k - 1].word, keywords[k].word) >= 0) {
			printf("# '%s' is out of order\n", keywords[k].word);
			sorted = 0;
		}
		if (lookup(keywords[k].word, strlen(keywords[k].word)) != &keywords[k])
			found = 0;
	}
	check(sorted, "the keyword table is in strcmp order");
	check(found, "every keyword is found by lookup()");
	static const char *const typos[][2] = {
		{"tomorow", "tomorrow"}, {"Tommorrow", "tomorrow"}, {"yestrday", "yesterday"},
		{"mintues", "minutes"}, {"huors", "hours"}, {"thrusday", "thursday"},
		{"satruday", "saturday"}, {"Septmber", "september"}, {"noen", "noon"},
		{"blorp", NULL}, {"at", NULL}, {"zz", NULL}, {"qqqqqqqqqqqqqqqqqqqqqqqq", NULL},
	};
	for (size_t k = 0; k < sizeof typos / sizeof *typos; k++) {
		const char *n = nearest(typos[k][0], (int)strlen(typos[k][0]));
		check(typos[k][1] ? n && strcmp(n, typos[k][1]) == 0 : !n, "'%s' suggests %s",
		    typos[k][0], typos[k][1] ? typos[k][1] : "nothing");
	}
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		printf("Bail out! usage: t-when when-table.txt\n");
		return 1;
	}
	table(argv[1]);
	messages();
	dst();
	date_order();
	keyword_table();
	return tap_done();
}
