/* t-cron: the cron parser's errors, the descriptions, and named cases for
 * each DST rule in New York, London, Lord Howe and Chatham, leap days, the
 * 31st, Friday the 13th under the OR rule and every nickname. */
#include "cron.h"
#include "tap.h"
#include "tz.h"
#include "utf8.h"

static int64_t
utc(const char *s)
{
	int64_t t = 0;
	if (time_parse_rfc3339(s, &t) != 0)
		printf("# bad time in test: %s\n", s);
	return t;
}

struct parse_case {
	const char *expr, *error; /* NULL: valid */
};

static const struct parse_case parses[] = {
	{"* * * * *", NULL},
	{"0 7 * * 1-5", NULL},
	{"*/5 * * * *", NULL},
	{"0 0 1,15 * *", NULL},
	{"0 9-17/2 * JAN-mar Mon,wed,FRI", NULL},
	{"0 0 * * 7", NULL},
	{"0 0 * * 5-7", NULL},
	{"  0   7\t* *  *  ", NULL},
	{"0 0 29 2 *", NULL},
	{"0 0 31 1,2 *", NULL},
	{"0 0 30 2 1", NULL},
	{"0 0 * * sunday", NULL},
	{"@daily", NULL},
	{"@HOURLY", NULL},
	{"  @weekly  ", NULL},
	{"", "empty cron expression"},
	{"   ", "empty cron expression"},
	{"* * * *", "expected 5 fields (minute hour day-of-month month day-of-week), got 4"},
	{"0 0 * * * *", "expected 5 fields (minute hour day-of-month month day-of-week), got 6"},
	{"0 7 * * * /usr/bin/true", "expected 5 fields (minute hour day-of-month month day-of-week), got 6"},
	{"60 * * * *", "bad minute field '60': 60 is out of range 0-59"},
	{"0 25 * * *", "bad hour field '25': 25 is out of range 0-23"},
	{"0 0 0 * *", "bad day-of-month field '0': 0 is out of range 1-31"},
	{"0 0 32 * *", "bad day-of-month field '32': 32 is out of range 1-31"},
	{"0 0 * 13 *", "bad month field '13': 13 is out of range 1-12"},
	{"0 0 * 0 *", "bad month field '0': 0 is out of range 1-12"},
	{"0 0 * * 8", "bad day-of-week field '8': 8 is out of range 0-7"},
	{"0 0 * foo *", "bad month field 'foo': unknown name 'foo'"},
	{"0 0 * * funday", "bad day-of-week field 'funday': unknown name 'funday'"},
	{"x * * * *", "bad minute field 'x': 'x' is not a number"},
	{"0 mon * * *", "bad hour field 'mon': 'mon' is not a number"},
	{"1,,2 * * * *", "bad minute field '1,,2': empty list item"},
	{"1, * * * *", "bad minute field '1,': empty list item"},
	{"5-1 * * * *", "bad minute field '5-1': range 5-1 runs backwards"},
	{"*/0 * * * *", "bad minute field '*/0': step '0' is not a number from 1 to 60"},
	{"*/x * * * *", "bad minute field '*/x': step 'x' is not a number from 1 to 60"},
	{"*/61 * * * *", "bad minute field '*/61': step '61' is not a number from 1 to 60"},
	{"5/10 * * * *", "bad minute field '5/10': a step needs a range or '*' (e.g. '5-59/10')"},
	{"1-2-3 * * * *", "bad minute field '1-2-3': unexpected '-'"},
	{"0 0 * * 1#2", "bad day-of-week field '1#2': unexpected '#'"},
	{"0 0 L * *", "bad day-of-month field 'L': 'L' is not a number"},
	{"0 0 30 2 *", "'0 0 30 2 *' can never fire (February has no day 30)"},
	{"0 0 31 4,6,9,11 *", "'0 0 31 4,6,9,11 *' can never fire (April, June, September, November have no day 31)"},
	{"0 0 30,31 feb *", "'0 0 30,31 feb *' can never fire (February has no day 30 or 31)"},
	{"0 0 30 2 */2", "'0 0 30 2 */2' can never fire (February has no day 30)"},
	{"@reboot", "'@reboot' is not supported: agentcron has no boot event (use a time expression, or a nickname such as @daily)"},
	{"@fortnightly", "unknown nickname '@fortnightly' (expected @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly)"},
	{"@daily 5", "unexpected '5' after the nickname '@daily'"},
	/* the message stays one line whatever blanks and controls the input holds */
	{"0 0 30\n2 *", "'0 0 30 2 *' can never fire (February has no day 30)"},
	{"@daily x\ny", "unexpected 'x y' after the nickname '@daily'"},
	{"0 0 \001 * *", "bad day-of-month field '?': unexpected '?'"},
	/* ... and quotes whole characters of valid UTF-8, U+FFFD for bad bytes */
	{"0 0 * * 5\xc3\xa9", "bad day-of-week field '5\xc3\xa9': unexpected '\xc3\xa9'"},
	{"0 0 * * \xff", "bad day-of-week field '\xef\xbf\xbd': unexpected '\xef\xbf\xbd'"},
	{"0 0 \xe2\x82\xac * *", "bad day-of-month field '\xe2\x82\xac': unexpected '\xe2\x82\xac'"},
	{"*/5\xc3\xa9 * * * *", "bad minute field '*/5\xc3\xa9': unexpected '\xc3\xa9'"},
	{"*/\xc3\xa9 * * * *", "bad minute field '*/\xc3\xa9': step '\xc3\xa9' is not a number from 1 to 60"},
	{"@daily \xc3\xa9", "unexpected '\xc3\xa9' after the nickname '@daily'"},
	{"@daily\xc3", "unknown nickname '@daily\xef\xbf\xbd' (expected @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly)"},
};

/* Long fields and nicknames of multi-byte characters are cut between
 * characters, whatever the offset. */
static void
long_quotes(void)
{
	for (int pad = 0; pad < 4; pad++)
		for (int kind = 0; kind < 3; kind++) {
			char in[512];
			int n = snprintf(in, sizeof in, "%s%.*s", kind == 0 ? "0 0 * * " : kind == 1 ?
			    "@" : "@daily ", pad, "xxx");
			for (int k = 0; k < 60; k++)
				n += snprintf(in + n, sizeof in - (size_t)n, "%s", k % 2 ? "\xc3\xa9" :
				    "\xe2\x82\xac");
			struct cron c;
			struct err e = {{0}};
			check(cron_parse(in, &c, &e) == ST_INVALID && tap_clean_line(e.msg) &&
			    strstr(e.msg, "..."), "a long non-ASCII %s is quoted in whole characters "
			    "(offset %d)", kind == 0 ? "field" : kind == 1 ? "nickname" : "tail", pad);
		}
}

static void
parse_errors(void)
{
	for (size_t i = 0; i < sizeof parses / sizeof *parses; i++) {
		struct cron c;
		struct err e = {{0}};
		int rc = cron_parse(parses[i].expr, &c, &e);
		if (!parses[i].error)
			check_int(rc, ST_OK, "'%s' parses", parses[i].expr);
		else if (check(rc == ST_INVALID, "'%s' is refused", parses[i].expr))
			check_str(e.msg, parses[i].error, "  with the message for '%s'", parses[i].expr);
	}
	struct cron a, b;
	struct err e;
	cron_parse("0 0 * * 7", &a, &e);
	cron_parse("0 0 * * 0", &b, &e);
	check(a.dow == b.dow && a.dow == 1, "7 and 0 are both Sunday");
	cron_parse("0 9-17/2 * JAN-mar Mon,wed,FRI", &a, &e);
	check(a.hour == (1u << 9 | 1u << 11 | 1u << 13 | 1u << 15 | 1u << 17) && a.mon == 0xe &&
	    a.dow == 0x2a && !(a.flags & (CRON_DOW_STAR | CRON_DOM_STAR)) == 0,
	    "ranges with steps, names in any case");
	cron_parse("*/15 * */2 * *", &a, &e);
	check(a.min == (1ull | 1ull << 15 | 1ull << 30 | 1ull << 45) &&
	    (a.flags & CRON_DOM_STAR) && (a.flags & CRON_MIN_STAR), "'*/n' sets the star flags");
}

struct desc_case {
	const char *expr, *want;
};

static const struct desc_case descs[] = {
	{"* * * * *", "Every minute"},
	{"*/5 * * * *", "Every 5 minutes"},
	{"0,15,30,45 * * * *", "Every 15 minutes"},
	{"*/7 * * * *", "*/7 * * * *"},
	{"15 * * * *", "Hourly at :15"},
	{"@hourly", "Hourly at :00"},
	{"0 */2 * * *", "Every 2 hours at :00"},
	{"0 7 * * *", "Daily at 07:00"},
	{"@daily", "Daily at 00:00"},
	{"30 9,17 * * *", "Daily at 09:30 and 17:30"},
	{"0 8,12,18 * * *", "Daily at 08:00, 12:00 and 18:00"},
	{"0 9 * * 1", "Every Monday at 09:00"},
	{"0 9 * * MON", "Every Monday at 09:00"},
	{"@weekly", "Every Sunday at 00:00"},
	{"0 14 * * 1-3", "Every Mon, Tue, Wed at 14:00"},
	{"0 14 * * 0,6,3", "Every Wed, Sat, Sun at 14:00"},
	{"0 9 * * 1-5", "Weekdays at 09:00"},
	{"0 10 * * sat,sun", "Weekends at 10:00"},
	{"0 8 15 * *", "Monthly on day 15 at 08:00"},
	{"@monthly", "Monthly on day 1 at 00:00"},
	{"0 7 25 12 *", "Yearly on Dec 25 at 07:00"},
	{"@yearly", "Yearly on Jan 1 at 00:00"},
	{"0 0 29 2 *", "Every leap year on Feb 29 at 00:00"},
	{"0 0 28 2 *", "Yearly on Feb 28 at 00:00"},
	{"0 0 31 1 *", "Yearly on Jan 31 at 00:00"},
	{"0 8 28 * *", "Monthly on day 28 at 08:00"},
	{"0 8 29 * *", "Monthly on day 29 (skipping shorter months) at 08:00"},
	{"0 8 31 * *", "Monthly on day 31 (skipping shorter months) at 08:00"},
	{"*/10 9-17 * * 1-5", "Every 10 minutes from 09:00 to 17:50, Monday to Friday"},
	{"*/30 9-17 * * 1-5", "Every 30 minutes from 09:00 to 17:30, Monday to Friday"},
	{"0 9 1,15 * *", "At 09:00 on days 1 and 15"},
	{"0 9 1-7 * *", "At 09:00 on days 1 to 7"},
	{"0 9 1,10,20 * *", "At 09:00 on days 1, 10 and 20"},
	{"0 0 13 * 5", "At 00:00 on day 13 and on Fridays"},
	{"0 9 1 * 1-5", "At 09:00 on day 1 and Monday to Friday"},
	{"0 9 * 1-6 *", "Daily at 09:00 from January to June"},
	{"0 9 * 1,7 *", "Daily at 09:00 in January and July"},
	{"0 9 * 1,3,5,7 *", "Daily at 09:00 in Jan, Mar, May and Jul"},
	{"0 9 1 1,4,7,10 *", "At 09:00 on day 1 in Jan, Apr, Jul and Oct"},
	{"0 9 * 3 1", "At 09:00 on Mondays in March"},
	{"0,30 * * * *", "Every 30 minutes"},
	{"* 9 * * *", "Every minute from 09:00 to 09:59"},
	{"0 9-17 * * *", "Hourly from 09:00 to 17:00"},
	{"15 * * * 1", "Hourly at :15 on Mondays"},
	{"0 1-23/2 * * *", "Every 2 hours from 01:00 to 23:00"},
	{"0 */6 * * *", "Every 6 hours at :00"},
	{"0 0,12 * * *", "Daily at 00:00 and 12:00"},
	{"15,45 9 * * *", "Daily at 09:15 and 09:45"},
	{"*/5 * * * 2,4", "Every 5 minutes on Tuesdays and Thursdays"},
	{"*/5 * * * 1,3,5", "Every 5 minutes on Mon, Wed and Fri"},
	{"*/5 * * 1-6 *", "Every 5 minutes from January to June"},
	/* Forms with no plain reading stay as written. */
	{"0 0 */2 * 1", "0 0 */2 * 1"},
	{"*/7 9 * * *", "*/7 9 * * *"},
	{"0 9 1,3,5,7,9,11,13 * *", "0 9 1,3,5,7,9,11,13 * *"},
	{"0,7,13 * * * *", "0,7,13 * * * *"},
};

static void
descriptions(void)
{
	for (size_t i = 0; i < sizeof descs / sizeof *descs; i++) {
		struct cron c;
		struct err e;
		char buf[128];
		if (cron_parse(descs[i].expr, &c, &e) != ST_OK) {
			check(0, "'%s': %s", descs[i].expr, e.msg);
			continue;
		}
		cron_describe(descs[i].expr, &c, buf, sizeof buf);
		const char *want = descs[i].want ? descs[i].want : "";
		check_str(buf, want, "'%s' is described as '%s'", descs[i].expr, want);
	}
	struct cron c;
	struct err e;
	char small[8];
	cron_parse("0 7 * * *", &c, &e);
	cron_describe("0 7 * * *", &c, small, sizeof small);
	check_str(small, "Daily a", "a description is cut to the buffer");
}

/* expr, zone, after: the next instants in UTC. */
struct next_case {
	const char *name, *expr, *zone, *after, *want[5];
};

static const struct next_case nexts[] = {
	/* New York: 2026-03-08 02:00 EST -> 03:00 EDT; 2026-11-01 02:00 EDT -> 01:00 EST */
	{"NY: a fixed time in the gap fires once at its end", "30 2 * * *", "America/New_York",
	    "2026-03-07T12:00:00Z", {"2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"}},
	{"NY: several fixed times in one gap fire once", "0,15,30,45 2 * * *", "America/New_York",
	    "2026-03-08T06:00:00Z", {"2026-03-08T07:00:00Z", "2026-03-09T06:00:00Z"}},
	{"NY: a wildcard job skips the gap", "*/20 2 * * *", "America/New_York",
	    "2026-03-08T00:00:00Z", {"2026-03-09T06:00:00Z", "2026-03-09T06:20:00Z"}},
	{"NY: wildcard hours go on after the gap", "0 * * * *", "America/New_York",
	    "2026-03-08T05:30:00Z", {"2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z", "2026-03-08T08:00:00Z"}},
	{"NY: 03:00 on the gap day is an ordinary time", "0 3 * * *", "America/New_York",
	    "2026-03-07T12:00:00Z", {"2026-03-08T07:00:00Z", "2026-03-09T07:00:00Z"}},
	{"NY: a fixed time repeated by the fall-back fires in the first pass only", "30 1 * * *",
	    "America/New_York", "2026-10-31T12:00:00Z", {"2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"}},
	{"NY: ... even from inside the repeat", "30 1 * * *", "America/New_York",
	    "2026-11-01T06:10:00Z", {"2026-11-02T06:30:00Z"}},
	{"NY: a wildcard job fires in both passes", "30 * * * *", "America/New_York",
	    "2026-11-01T05:00:00Z", {"2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-01T07:30:00Z"}},
	{"NY: a minute wildcard in the repeated hour fires in both passes", "*/30 1 * * *",
	    "America/New_York", "2026-11-01T04:59:00Z",
	    {"2026-11-01T05:00:00Z", "2026-11-01T05:30:00Z", "2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:00:00Z"}},
	/* London: 2026-03-29 01:00 GMT -> 02:00 BST; 2026-10-25 02:00 BST -> 01:00 GMT */
	{"London: a fixed time in the gap", "30 1 * * *", "Europe/London", "2026-03-28T12:00:00Z",
	    {"2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"}},
	{"London: fixed time in the repeat, first pass", "30 1 * * *", "Europe/London",
	    "2026-10-24T12:00:00Z", {"2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"}},
	{"London: a list of fixed times in the repeat, first pass", "15,45 1 * * *", "Europe/London",
	    "2026-10-24T12:00:00Z", {"2026-10-25T00:15:00Z", "2026-10-25T00:45:00Z", "2026-10-26T01:15:00Z"}},
	{"London: hour wildcard in the repeat", "45 * * * *", "Europe/London", "2026-10-25T00:00:00Z",
	    {"2026-10-25T00:45:00Z", "2026-10-25T01:45:00Z", "2026-10-25T02:45:00Z"}},
	/* Lord Howe: +10:30 <-> +11; 2026-10-04 02:00 -> 02:30; 2026-04-05 02:00 -> 01:30 */
	{"Lord Howe: a fixed time in the 30-minute gap", "15 2 * * *", "Australia/Lord_Howe",
	    "2026-10-03T00:00:00Z", {"2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"}},
	{"Lord Howe: 02:30 right after the gap is ordinary", "30 2 * * *", "Australia/Lord_Howe",
	    "2026-10-03T00:00:00Z", {"2026-10-03T15:30:00Z", "2026-10-04T15:30:00Z"}},
	{"Lord Howe: a wildcard job skips the gap", "*/10 2 * * *", "Australia/Lord_Howe",
	    "2026-10-03T15:00:00Z", {"2026-10-03T15:30:00Z", "2026-10-03T15:40:00Z", "2026-10-03T15:50:00Z", "2026-10-04T15:00:00Z"}},
	{"Lord Howe: a fixed time in the 30-minute repeat", "45 1 * * *", "Australia/Lord_Howe",
	    "2026-04-04T12:00:00Z", {"2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"}},
	{"Lord Howe: a wildcard job in the repeat", "*/30 1 * * *", "Australia/Lord_Howe",
	    "2026-04-04T13:59:00Z", {"2026-04-04T14:00:00Z", "2026-04-04T14:30:00Z", "2026-04-04T15:00:00Z", "2026-04-05T14:30:00Z"}},
	/* Chatham: +12:45 <-> +13:45; 2026-09-27 02:45 -> 03:45; 2026-04-05 03:45 -> 02:45 */
	{"Chatham: a fixed time in the gap", "0 3 * * *", "Pacific/Chatham", "2026-09-26T00:00:00Z",
	    {"2026-09-26T14:00:00Z", "2026-09-27T13:15:00Z"}},
	{"Chatham: 02:44 before the gap", "44 2 * * *", "Pacific/Chatham", "2026-09-26T00:00:00Z",
	    {"2026-09-26T13:59:00Z", "2026-09-27T12:59:00Z"}},
	{"Chatham: a fixed time in the repeat", "0 3 * * *", "Pacific/Chatham", "2026-04-04T00:00:00Z",
	    {"2026-04-04T13:15:00Z", "2026-04-05T14:15:00Z"}},
	{"Chatham: a wildcard job in the repeat", "0 * * * *", "Pacific/Chatham", "2026-04-04T13:00:00Z",
	    {"2026-04-04T13:15:00Z", "2026-04-04T14:15:00Z", "2026-04-04T15:15:00Z"}},
	{"NY: a wildcard job whose every wall time falls in gaps never fires", "* 2 8 3 */7",
	    "America/New_York", "2026-01-01T00:00:00Z", {"never"}},
	{"... while a fixed one fires at the end of each such gap", "30 2 8 3 */7",
	    "America/New_York", "2026-01-01T00:00:00Z", {"2026-03-08T07:00:00Z", "2037-03-08T07:00:00Z"}},
	/* the calendar */
	{"leap days", "0 0 29 2 *", "UTC", "2026-11-22T00:00:00Z",
	    {"2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z", "2036-02-29T00:00:00Z"}},
	{"no leap day in 2100", "0 0 29 2 *", "UTC", "2096-03-01T00:00:00Z",
	    {"2104-02-29T00:00:00Z", "2108-02-29T00:00:00Z"}},
	{"a leap day that is a Sunday (AND rule)", "0 0 29 2 */7", "UTC", "2026-01-01T00:00:00Z",
	    {"2032-02-29T00:00:00Z", "2060-02-29T00:00:00Z"}},
	{"a leap day or a Monday in February (OR rule)", "0 0 29 2 1", "UTC", "2027-02-20T00:00:00Z",
	    {"2027-02-22T00:00:00Z", "2028-02-07T00:00:00Z"}},
	{"the 31st skips short months", "0 0 31 * *", "UTC", "2026-11-22T00:00:00Z",
	    {"2026-12-31T00:00:00Z", "2027-01-31T00:00:00Z", "2027-03-31T00:00:00Z", "2027-05-31T00:00:00Z", "2027-07-31T00:00:00Z"}},
	{"Friday the 13th: the 13th or any Friday (OR rule)", "0 0 13 * 5", "UTC",
	    "2026-11-22T00:00:00Z", {"2026-11-27T00:00:00Z", "2026-12-04T00:00:00Z", "2026-12-11T00:00:00Z", "2026-12-13T00:00:00Z", "2026-12-18T00:00:00Z"}},
	{"a 13th that is a Sunday or Friday: '*/5' is 0,5 and starts with '*' (AND rule)",
	    "0 0 13 * */5", "UTC", "2026-01-01T00:00:00Z", {"2026-02-13T00:00:00Z",
	    "2026-03-13T00:00:00Z", "2026-09-13T00:00:00Z", "2026-11-13T00:00:00Z", "2026-12-13T00:00:00Z"}},
	{"odd days that are Mondays (cronie's */2 rule)", "0 0 */2 * 1", "UTC", "2026-11-01T00:00:00Z",
	    {"2026-11-09T00:00:00Z", "2026-11-23T00:00:00Z", "2026-12-07T00:00:00Z"}},
	{"strictly after, whole minutes", "* * * * *", "UTC", "2026-11-22T10:00:30Z",
	    {"2026-11-22T10:01:00Z", "2026-11-22T10:02:00Z"}},
	{"strictly after an exact firing", "0 7 * * *", "Europe/Berlin", "2026-11-23T06:00:00Z",
	    {"2026-11-24T06:00:00Z"}},
	{"the footer rule past 2037", "30 2 * * *", "America/New_York", "2090-03-11T12:00:00Z",
	    {"2090-03-12T07:00:00Z", "2090-03-13T06:30:00Z"}},
	/* nicknames */
	{"@yearly", "@yearly", "Europe/London", "2026-11-22T00:00:00Z", {"2027-01-01T00:00:00Z", "2028-01-01T00:00:00Z"}},
	{"@annually", "@annually", "UTC", "2026-11-22T00:00:00Z", {"2027-01-01T00:00:00Z"}},
	{"@monthly", "@monthly", "Asia/Kolkata", "2026-11-22T00:00:00Z", {"2026-11-30T18:30:00Z", "2026-12-31T18:30:00Z"}},
	{"@weekly", "@weekly", "UTC", "2026-11-22T00:00:00Z", {"2026-11-29T00:00:00Z", "2026-12-06T00:00:00Z"}},
	{"@daily", "@daily", "America/New_York", "2026-11-22T00:00:00Z", {"2026-11-22T05:00:00Z", "2026-11-23T05:00:00Z"}},
	{"@midnight", "@midnight", "UTC", "2026-11-22T00:00:00Z", {"2026-11-23T00:00:00Z"}},
	{"@hourly", "@hourly", "Asia/Kolkata", "2026-11-22T00:00:00Z", {"2026-11-22T00:30:00Z", "2026-11-22T01:30:00Z"}},
};

static void
next_cases(void)
{
	for (size_t i = 0; i < sizeof nexts / sizeof *nexts; i++) {
		const struct next_case *k = &nexts[i];
		struct tz *z;
		struct cron c;
		struct err e;
		if (tz_load(k->zone, &z, &e) || cron_parse(k->expr, &c, &e)) {
			check(0, "%s: %s", k->name, e.msg);
			continue;
		}
		int64_t t = utc(k->after);
		int ok = 1;
		for (int j = 0; j < 5 && k->want[j]; j++) {
			t = cron_next(&c, z, t);
			char got[64];
			if (t == -1)
				snprintf(got, sizeof got, "never");
			else
				time_fmt_utc(t, got, sizeof got);
			if (strcmp(got, k->want[j])) {
				printf("#   '%s' #%d: got %s, want %s\n", k->expr, j + 1, got, k->want[j]);
				ok = 0;
				break;
			}
		}
		check(ok, "%s ('%s' in %s)", k->name, k->expr, k->zone);
		tz_free(z);
	}
}

int
main(void)
{
	parse_errors();
	long_quotes();
	descriptions();
	next_cases();
	return tap_done();
}
