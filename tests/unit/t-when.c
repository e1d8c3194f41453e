/* t-when: time expressions at a fixed "now" (Sunday 2026-11-22 14:30 UTC:
 * 14:30 GMT in London, 09:30 EST in New York), each with the wall time it
 * must land on in both zones; then inputs that must be refused, the exact
 * wording of the messages, and wall times in DST gaps and repeats. */
#include <stdlib.h>

#include "tap.h"
#include "tz.h"
#include "when.h"

#define NOW "2026-11-22T14:30:00Z"

struct when_case {
	const char *in, *london, *ny; /* wall times in each zone */
};

static const struct when_case cases[] = {
	/* offsets in real time */
	{"in 2 hours", "2026-11-22 16:30", "2026-11-22 11:30"},
	{"in 30 minutes", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"in an hour", "2026-11-22 15:30", "2026-11-22 10:30"},
	{"in a minute", "2026-11-22 14:31", "2026-11-22 09:31"},
	{"in 1 minute", "2026-11-22 14:31", "2026-11-22 09:31"},
	{"in 90 minutes", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 45 mins", "2026-11-22 15:15", "2026-11-22 10:15"},
	{"in 2 hrs", "2026-11-22 16:30", "2026-11-22 11:30"},
	{"in 2h", "2026-11-22 16:30", "2026-11-22 11:30"},
	{"in 30m", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"in 1h30m", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 1 hour and 30 minutes", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 2 hours 15 minutes", "2026-11-22 16:45", "2026-11-22 11:45"},
	{"in half an hour", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"in half hour", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"in a half hour", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"in an hour and a half", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 2 minutes and a half", "2026-11-22 14:32:30", "2026-11-22 09:32:30"},
	{"in 1.5 hours", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 2.25 hours", "2026-11-22 16:45", "2026-11-22 11:45"},
	{"in 0.5 minutes", "2026-11-22 14:30:30", "2026-11-22 09:30:30"},
	{"1.5 hours from now", "2026-11-22 16:00", "2026-11-22 11:00"},
	{"in 10 seconds", "2026-11-22 14:30:10", "2026-11-22 09:30:10"},
	{"in 24 hours", "2026-11-23 14:30", "2026-11-23 09:30"},
	{"in twelve hours", "2026-11-23 02:30", "2026-11-22 21:30"},
	{"in five minutes", "2026-11-22 14:35", "2026-11-22 09:35"},
	{"in one hour", "2026-11-22 15:30", "2026-11-22 10:30"},
	{"2 hours from now", "2026-11-22 16:30", "2026-11-22 11:30"},
	{"an hour from now", "2026-11-22 15:30", "2026-11-22 10:30"},
	{"30 minutes later", "2026-11-22 15:00", "2026-11-22 10:00"},
	{"now", "2026-11-22 14:30", "2026-11-22 09:30"},
	{"NOW", "2026-11-22 14:30", "2026-11-22 09:30"},
	{"now + 5 minutes", "2026-11-22 14:35", "2026-11-22 09:35"},
	{"now + 1 hour", "2026-11-22 15:30", "2026-11-22 10:30"},
	{"IN 2 HOURS", "2026-11-22 16:30", "2026-11-22 11:30"},
	/* calendar offsets keep the wall time */
	{"in 3 days", "2026-11-25 14:30", "2026-11-25 09:30"},
	{"in 3 days at 14:00", "2026-11-25 14:00", "2026-11-25 14:00"},
	{"in 3 days at 2pm", "2026-11-25 14:00", "2026-11-25 14:00"},
	{"in a day", "2026-11-23 14:30", "2026-11-23 09:30"},
	{"in 1 week", "2026-11-29 14:30", "2026-11-29 09:30"},
	{"in 2 weeks", "2026-12-06 14:30", "2026-12-06 09:30"},
	{"in a month", "2026-12-22 14:30", "2026-12-22 09:30"},
	{"in 2 months", "2027-01-22 14:30", "2027-01-22 09:30"},
	{"in a year", "2027-11-22 14:30", "2027-11-22 09:30"},
	{"3 days from now", "2026-11-25 14:30", "2026-11-25 09:30"},
	{"in 1 day at noon", "2026-11-23 12:00", "2026-11-23 12:00"},
	{"in 2 days at 9am", "2026-11-24 09:00", "2026-11-24 09:00"},
	{"in 1 week at 10:30", "2026-11-29 10:30", "2026-11-29 10:30"},
	{"next week", "2026-11-29 14:30", "2026-11-29 09:30"},
	{"next week at 10am", "2026-11-29 10:00", "2026-11-29 10:00"},
	{"next month", "2026-12-22 14:30", "2026-12-22 09:30"},
	{"next year", "2027-11-22 14:30", "2027-11-22 09:30"},
	/* days by name */
	{"tomorrow", "2026-11-23 14:30", "2026-11-23 09:30"},
	{"tomorrow at 10am", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow at 10 am", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow at 10 a.m.", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow 10am", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"Tomorrow At 10AM", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow at 10", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow at 10:30", "2026-11-23 10:30", "2026-11-23 10:30"},
	{"tomorrow at 22:15", "2026-11-23 22:15", "2026-11-23 22:15"},
	{"tomorrow at 3pm", "2026-11-23 15:00", "2026-11-23 15:00"},
	{"tomorrow at 3:45 pm", "2026-11-23 15:45", "2026-11-23 15:45"},
	{"tomorrow at 3:45 P.M.", "2026-11-23 15:45", "2026-11-23 15:45"},
	{"tomorrow at noon", "2026-11-23 12:00", "2026-11-23 12:00"},
	{"tomorrow noon", "2026-11-23 12:00", "2026-11-23 12:00"},
	{"tomorrow at midnight", "2026-11-24 00:00", "2026-11-24 00:00"},
	{"tomorrow morning", "2026-11-23 09:00", "2026-11-23 09:00"},
	{"tomorrow afternoon", "2026-11-23 15:00", "2026-11-23 15:00"},
	{"tomorrow evening", "2026-11-23 18:00", "2026-11-23 18:00"},
	{"tomorrow night", "2026-11-23 20:00", "2026-11-23 20:00"},
	{"tomorrow morning at 8", "2026-11-23 08:00", "2026-11-23 08:00"},
	{"tomorrow afternoon at 3", "2026-11-23 15:00", "2026-11-23 15:00"},
	{"tomorrow evening at 7", "2026-11-23 19:00", "2026-11-23 19:00"},
	{"tomorrow at 7 in the evening", "2026-11-23 19:00", "2026-11-23 19:00"},
	{"tomorrow at 8 in the morning", "2026-11-23 08:00", "2026-11-23 08:00"},
	{"at 10am tomorrow", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"10am tomorrow", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"day after tomorrow", "2026-11-24 14:30", "2026-11-24 09:30"},
	{"the day after tomorrow", "2026-11-24 14:30", "2026-11-24 09:30"},
	{"day after tomorrow at 9am", "2026-11-24 09:00", "2026-11-24 09:00"},
	{"today at 18:00", "2026-11-22 18:00", "2026-11-22 18:00"},
	{"today at 5pm", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"today", "2026-11-22 14:30", "2026-11-22 09:30"},
	{"this evening", "2026-11-22 18:00", "2026-11-22 18:00"},
	{"this afternoon", "2026-11-22 15:00", "2026-11-22 15:00"},
	{"tonight", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"tonight at 8", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"tonight at 8pm", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"tonight at 11:30", "2026-11-22 23:30", "2026-11-22 23:30"},
	{"tonight at 9:15", "2026-11-22 21:15", "2026-11-22 21:15"},
	{"tonight at 1am", "2026-11-23 01:00", "2026-11-23 01:00"},
	{"at 8 tonight", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"this evening at 7", "2026-11-22 19:00", "2026-11-22 19:00"},
	{"tonight at midnight", "2026-11-23 00:00", "2026-11-23 00:00"},
	{"midnight tonight", "2026-11-23 00:00", "2026-11-23 00:00"},
	{"friday night at midnight", "2026-11-28 00:00", "2026-11-28 00:00"},
	{"tonight at 00:30", "2026-11-23 00:30", "2026-11-23 00:30"},
	{"tonight at 12:30am", "2026-11-23 00:30", "2026-11-23 00:30"},
	{"tonight at 5", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"tonight at 23:00", "2026-11-22 23:00", "2026-11-22 23:00"},
	/* a time alone: today if still ahead, else tomorrow */
	{"noon", "2026-11-23 12:00", "2026-11-22 12:00"},
	{"at noon", "2026-11-23 12:00", "2026-11-22 12:00"},
	{"midday", "2026-11-23 12:00", "2026-11-22 12:00"},
	{"midnight", "2026-11-23 00:00", "2026-11-23 00:00"},
	{"at midnight", "2026-11-23 00:00", "2026-11-23 00:00"},
	{"at 17:00", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"17:00", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"5pm", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"5 pm", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"at 5pm", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"at 5:30pm", "2026-11-22 17:30", "2026-11-22 17:30"},
	{"at 9am", "2026-11-23 09:00", "2026-11-23 09:00"},
	{"at 10am", "2026-11-23 10:00", "2026-11-22 10:00"},
	{"10:00", "2026-11-23 10:00", "2026-11-22 10:00"},
	{"at 10", "2026-11-23 10:00", "2026-11-22 10:00"},
	{"at 14:30", "2026-11-22 14:30", "2026-11-22 14:30"},
	{"at 14:29", "2026-11-23 14:29", "2026-11-22 14:29"},
	{"12am", "2026-11-23 00:00", "2026-11-23 00:00"},
	{"12pm", "2026-11-23 12:00", "2026-11-22 12:00"},
	{"12:30am", "2026-11-23 00:30", "2026-11-23 00:30"},
	{"at 0:15", "2026-11-23 00:15", "2026-11-23 00:15"},
	{"23:59", "2026-11-22 23:59", "2026-11-22 23:59"},
	{"at 9:30:15", "2026-11-23 09:30:15", "2026-11-22 09:30:15"},
	{"at 11 o'clock", "2026-11-23 11:00", "2026-11-22 11:00"},
	{"at 3 o'clock pm", "2026-11-22 15:00", "2026-11-22 15:00"},
	{"at five pm", "2026-11-22 17:00", "2026-11-22 17:00"},
	{"in the morning", "2026-11-23 09:00", "2026-11-23 09:00"},
	{"evening", "2026-11-22 18:00", "2026-11-22 18:00"},
	{"afternoon", "2026-11-22 15:00", "2026-11-22 15:00"},
	/* weekdays (today is a Sunday) */
	{"monday", "2026-11-23 14:30", "2026-11-23 09:30"},
	{"monday 9:30", "2026-11-23 09:30", "2026-11-23 09:30"},
	{"on monday at 9:30", "2026-11-23 09:30", "2026-11-23 09:30"},
	{"Monday at 9:30am", "2026-11-23 09:30", "2026-11-23 09:30"},
	{"mon 9:30", "2026-11-23 09:30", "2026-11-23 09:30"},
	{"tuesday", "2026-11-24 14:30", "2026-11-24 09:30"},
	{"friday", "2026-11-27 14:30", "2026-11-27 09:30"},
	{"this friday 5pm", "2026-11-27 17:00", "2026-11-27 17:00"},
	{"this friday at 5 pm", "2026-11-27 17:00", "2026-11-27 17:00"},
	{"next friday", "2026-11-27 14:30", "2026-11-27 09:30"},
	{"next Friday at noon", "2026-11-27 12:00", "2026-11-27 12:00"},
	{"next monday at 9", "2026-11-23 09:00", "2026-11-23 09:00"},
	{"sunday", "2026-11-29 14:30", "2026-11-29 09:30"},
	{"sunday at 18:00", "2026-11-22 18:00", "2026-11-22 18:00"},
	{"sunday at 9:00", "2026-11-29 09:00", "2026-11-29 09:00"},
	{"sunday at 10:00", "2026-11-29 10:00", "2026-11-22 10:00"},
	{"next sunday", "2026-11-29 14:30", "2026-11-29 09:30"},
	{"next sunday at 10am", "2026-11-29 10:00", "2026-11-29 10:00"},
	{"this sunday at 8pm", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"saturday morning", "2026-11-28 09:00", "2026-11-28 09:00"},
	{"wednesday evening", "2026-11-25 18:00", "2026-11-25 18:00"},
	{"thursday at noon", "2026-11-26 12:00", "2026-11-26 12:00"},
	{"Thu 3pm", "2026-11-26 15:00", "2026-11-26 15:00"},
	{"friday midnight", "2026-11-28 00:00", "2026-11-28 00:00"},
	/* dates without a year: the next one not in the past */
	{"August 15th at 3 PM", "2027-08-15 15:00", "2027-08-15 15:00"},
	{"august 15 at 3pm", "2027-08-15 15:00", "2027-08-15 15:00"},
	{"Aug 15th 3pm", "2027-08-15 15:00", "2027-08-15 15:00"},
	{"15 August", "2027-08-15 00:00", "2027-08-15 00:00"},
	{"15th of August", "2027-08-15 00:00", "2027-08-15 00:00"},
	{"the 15th of august at 10:00", "2027-08-15 10:00", "2027-08-15 10:00"},
	{"Dec 25 at 7am", "2026-12-25 07:00", "2026-12-25 07:00"},
	{"December 25th at 7:00", "2026-12-25 07:00", "2026-12-25 07:00"},
	{"25 Dec at 07:00", "2026-12-25 07:00", "2026-12-25 07:00"},
	{"Dec 25", "2026-12-25 00:00", "2026-12-25 00:00"},
	{"dec 25, 2027", "2027-12-25 00:00", "2027-12-25 00:00"},
	{"Dec 25 2027 at 7am", "2027-12-25 07:00", "2027-12-25 07:00"},
	{"25 December 2027 19:00", "2027-12-25 19:00", "2027-12-25 19:00"},
	{"Nov 22", "2027-11-22 00:00", "2027-11-22 00:00"},
	{"Nov 22 at 8pm", "2026-11-22 20:00", "2026-11-22 20:00"},
	{"Nov 22 at 10am", "2027-11-22 10:00", "2026-11-22 10:00"},
	{"Feb 29", "2028-02-29 00:00", "2028-02-29 00:00"},
	{"feb 29 at noon", "2028-02-29 12:00", "2028-02-29 12:00"},
	{"January 1st", "2027-01-01 00:00", "2027-01-01 00:00"},
	{"jan 1 at 00:00", "2027-01-01 00:00", "2027-01-01 00:00"},
	{"March 8", "2027-03-08 00:00", "2027-03-08 00:00"},
	{"on the 15th", "2026-12-15 00:00", "2026-12-15 00:00"},
	{"the 30th at 9am", "2026-11-30 09:00", "2026-11-30 09:00"},
	{"the 31st", "2026-12-31 00:00", "2026-12-31 00:00"},
	{"on the 1st at 8:00", "2026-12-01 08:00", "2026-12-01 08:00"},
	{"15th", "2026-12-15 00:00", "2026-12-15 00:00"},
	{"2026-12-01 07", "2026-12-01 07:00", "2026-12-01 07:00"},
	/* ISO 8601 / RFC 3339 */
	{"2026-12-01", "2026-12-01 00:00", "2026-12-01 00:00"},
	{"2026-12-01T07:00", "2026-12-01 07:00", "2026-12-01 07:00"},
	{"2026-12-01T07:00:00", "2026-12-01 07:00", "2026-12-01 07:00"},
	{"2026-12-01 07:00", "2026-12-01 07:00", "2026-12-01 07:00"},
	{"2026-12-01 07:00:30", "2026-12-01 07:00:30", "2026-12-01 07:00:30"},
	{"2026-12-01T07:00:00.250", "2026-12-01 07:00", "2026-12-01 07:00"},
	{"2026-12-01 at 7pm", "2026-12-01 19:00", "2026-12-01 19:00"},
	{"2026-11-23T07:00:00Z", "2026-11-23 07:00", "2026-11-23 02:00"},
	{"2026-11-23T07:00:00+01:00", "2026-11-23 06:00", "2026-11-23 01:00"},
	{"2026-11-23T07:00Z", "2026-11-23 07:00", "2026-11-23 02:00"},
	{"2026-11-23 07:00:00Z", "2026-11-23 07:00", "2026-11-23 02:00"},
	{"2026-11-23t07:00:00z", "2026-11-23 07:00", "2026-11-23 02:00"},
	{"2026-11-22T14:29:30Z", "2026-11-22 14:29:30", "2026-11-22 09:29:30"},
	{"2027-06-01T12:00", "2027-06-01 12:00", "2027-06-01 12:00"},
	/* blanks and punctuation */
	{"  tomorrow at 10am  ", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow at 10am.", "2026-11-23 10:00", "2026-11-23 10:00"},
	{"tomorrow, 10am", "2026-11-23 10:00", "2026-11-23 10:00"},
};

/* Refused in both zones. */
static const char *const bad[] = {
	"blorp", "", "   ", "tomorrow blorp", "at", "in", "in 2", "in two", "in 2 parsecs",
	"next", "next blorp", "feb 30", "february 30th", "april 31", "2026-02-30", "2026-13-01",
	"25:00", "24:00", "13pm", "0am", "12:60", "tomorrow at 25", "at 99", "yesterday",
	"yesterday at 9", "2 hours ago", "today at 9am", "2026-01-01 09:00", "2020-01-01",
	"2026-11-22T14:28:00Z", "tomorrow tomorrow", "monday tuesday", "5pm 6pm", "noon midnight",
	"in 2 hours at 5pm", "in 2 hours tomorrow", "tomorrow in 2 hours", "10", "1700", "2026",
	"2026-11", "tomorrow morning at 5pm", "tomorrow afternoon at 9am", "dec", "dec 32",
	"the 32nd", "the 0th", "now now", "now tomorrow", "at at 5", "5 pm pm",
	"in 2 days at midnight", "2026-12-01T25:00", "12/25", "tomorrow 10am blah", "half",
	"in half", "0 7 * * *", "@daily", "in -2 hours", "next hour", "in 10000000 hours",
	"tomorrow at 10:5", "tomorrow at 1000", "friday the 13th", "in 2 hours and", "the",
	"on", "2026-12-01T07", "tomorrow at 7:00:00:00", "9 o'clock am pm",
	"tonight at 9am", "tonight at noon", "tonight at 12pm", "tonight at 12", "tonight at 1",
	"tonight at 2:30", "this evening at 12", "tomorrow night at 4", "evening at 10am", "evening at 00:30",
	"tomorrow night at 1am",
	"tonight at 11:00am", "tomorrow morning at midnight", "this afternoon at midnight",
	"in 1.5 days", "in a day and a half", "1.5 weeks from now", "in 1.1234567 hours",
	"in 1.5", "in 1. 5 hours", "in .5 hours",
	"feb 29 2027", "29 feb 2027", "February 29th, 2027 at 9am", "the 29th of february 2027",
};

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

static void
table(void)
{
	struct tz *zl = load("Europe/London"), *zn = load("America/New_York");
	int64_t now;
	time_parse_rfc3339(NOW, &now);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct when_case *k = &cases[i];
		struct tz *zs[2] = {zl, zn};
		const char *want[2] = {k->london, k->ny};
		char got[2][ERR_MAX + 16];
		int ok = 1;
		for (int j = 0; j < 2; j++) {
			int64_t t;
			struct err e;
			if (when_parse(k->in, now, zs[j], &t, &e) != ST_OK)
				snprintf(got[j], sizeof got[j], "error: %s", e.msg);
			else
				tz_fmt_local(zs[j], t, got[j], sizeof got[j]);
			ok &= strcmp(got[j], want[j]) == 0;
		}
		if (!check(ok, "'%s' is %s in London, %s in New York", k->in, k->london, k->ny))
			printf("#   got %s / %s\n", got[0], got[1]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int64_t t = 0;
		struct err e = {{0}};
		int a = when_parse(bad[i], now, zl, &t, &e), b = when_parse(bad[i], now, zn, &t, &e);
		if (!check(a == ST_INVALID && b == ST_INVALID, "'%s' is refused", bad[i])) {
			char buf[64];
			tz_fmt_local(zn, t, buf, sizeof buf);
			printf("#   got %s\n", buf);
		}
	}
	tz_free(zl);
	tz_free(zn);
}

static void
messages(void)
{
	struct tz *zl = load("Europe/London"), *zn = load("America/New_York");
	int64_t now, t;
	struct err e = {{0}};
	time_parse_rfc3339(NOW, &now);
	when_parse("blorp", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'blorp' (read in Europe/London): unexpected "
	    "'blorp'; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "not understood: what was read, the zone, and what to try");
	when_parse("2026-01-01 09:00", now, zl, &t, &e);
	check_str(e.msg, "'2026-01-01 09:00' is 2026-01-01 09:00 GMT in Europe/London, which is "
	    "in the past", "the past, in the zone's wall time");
	when_parse("yesterday at 9", now, zn, &t, &e);
	check_str(e.msg, "'yesterday at 9' is 2026-11-21 09:00 EST in America/New_York, which is "
	    "in the past", "yesterday is in the past");
	when_parse("feb 30", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'feb 30' (read in Europe/London): February has "
	    "no day 30; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "an impossible date says why");
	when_parse("feb 29 2027", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'feb 29 2027' (read in Europe/London): February "
	    "2027 has no day 29; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "a leap day in a common year is refused, not read as March 1");
	when_parse("tonight at 1", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tonight at 1' (read in Europe/London): 1:00 "
	    "could be 01:00 or 13:00; add am or pm; try 'tomorrow at 10am', 'in 2 hours' or "
	    "2026-11-23T07:00:00Z", "an hour that could be either half of the night says so");
	when_parse("tonight at 9am", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tonight at 9am' (read in Europe/London): 09:00 "
	    "is not tonight; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "a morning hour is not tonight");
	when_parse("tomorrow\nblorp", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time 'tomorrow blorp' (read in Europe/London): "
	    "unexpected 'blorp'; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "a newline in the input does not break the message's one line");
	when_parse("2026-01-01\t09:00", now, zl, &t, &e);
	check(strchr(e.msg, '\t') == NULL, "nor does a tab in a past one");
	{
		char longer[400];
		snprintf(longer, sizeof longer, "2026-12-01T07:00:00Z%300sblorp", "");
		check_int(when_parse(longer, now, zl, &t, &e), ST_INVALID,
		    "words past the 255th character are not cut off and ignored");
	}
	when_parse("25:00", now, zl, &t, &e);
	check_str(e.msg, "cannot understand time '25:00' (read in Europe/London): hour 25 is out "
	    "of range 0-23; try 'tomorrow at 10am', 'in 2 hours' or 2026-11-23T07:00:00Z",
	    "an impossible hour says why");
	check_int(when_parse_any("2026-01-01 09:00", now, zl, &t, &e), ST_OK,
	    "when_parse_any takes the past");
	check_int(t, 1767258000, "  as that instant");
	check_int(when_parse("2026-11-22T14:29:01Z", now, zl, &t, &e), ST_OK,
	    "59 seconds ago is still accepted");
	check_int(when_parse("2026-11-22T14:28:59Z", now, zl, &t, &e), ST_INVALID,
	    "61 seconds ago is not");
	tz_free(zl);
	tz_free(zn);
}

struct dst_case {
	const char *zone, *now, *in, *want; /* want in UTC */
};

static const struct dst_case dsts[] = {
	{"America/New_York", "2026-03-07T17:00:00Z", "tomorrow at 2:30am", "2026-03-08T07:00:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "2026-03-08 02:30", "2026-03-08T07:00:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "in 1 day", "2026-03-08T16:00:00Z"},
	{"America/New_York", "2026-03-07T17:00:00Z", "in 24 hours", "2026-03-08T17:00:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "2026-11-01 01:30", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "tomorrow at 1:30", "2026-11-01T05:30:00Z"},
	{"America/New_York", "2026-10-31T12:00:00Z", "tomorrow at 1:30am", "2026-11-01T05:30:00Z"},
	{"Europe/London", "2026-03-28T12:00:00Z", "2026-03-29 01:30", "2026-03-29T01:00:00Z"},
	{"Europe/London", "2026-10-24T12:00:00Z", "tomorrow at 01:30", "2026-10-25T00:30:00Z"},
	{"Australia/Lord_Howe", "2026-10-03T00:00:00Z", "tomorrow at 2:15", "2026-10-03T15:30:00Z"},
	{"Australia/Lord_Howe", "2026-04-04T00:00:00Z", "tomorrow at 1:45", "2026-04-04T14:45:00Z"},
	{"Pacific/Chatham", "2026-09-26T00:00:00Z", "tomorrow at 3am", "2026-09-26T14:00:00Z"},
	{"Pacific/Chatham", "2026-04-04T00:00:00Z", "tomorrow at 3:00", "2026-04-04T13:15:00Z"},
	{"Asia/Kolkata", "2026-11-22T00:00:00Z", "tomorrow at 9am", "2026-11-23T03:30:00Z"},
	{"Pacific/Apia", "2011-12-29T12:00:00Z", "2011-12-30 12:00", "2011-12-30T10:00:00Z"},
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

int
main(void)
{
	table();
	messages();
	dst();
	return tap_done();
}
