/* t-tz: zones read from TZif files against known offsets across transitions,
 * against glibc's localtime_r (TZ set in this test program only), and the
 * wall-time-to-instant mapping in gaps and repeats. */
#define _DEFAULT_SOURCE 1 /* setenv, tzset */
#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "tz.h"

static const char *const zones[] = {"America/New_York", "Europe/London", "Australia/Lord_Howe",
	"Pacific/Chatham", "Asia/Kolkata", "Australia/Sydney", "America/Sao_Paulo",
	"America/Santiago", "Europe/Berlin", "UTC", "Asia/Tehran", "America/St_Johns",
	"Africa/Casablanca", "Pacific/Apia", "Europe/Dublin", "America/Los_Angeles",
	"Antarctica/Troll", "Asia/Gaza"};

static int64_t
utc(const char *s)
{
	int64_t t = 0;
	if (time_parse_rfc3339(s, &t) != 0)
		printf("# bad time in test: %s\n", s);
	return t;
}

static struct tz *
load(const char *name)
{
	struct tz *z = NULL;
	struct err e;
	if (tz_load(name, &z, &e) != ST_OK) {
		printf("# %s\n", e.msg);
		exit(1);
	}
	return z;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* tz_offset and tz_to_civil agree with glibc at random instants from 1900 to
 * 2100 (past 2037 both follow the footer rule). */
static void
against_glibc(const char *name, int samples)
{
	struct tz *z = load(name);
	char env[128];
	snprintf(env, sizeof env, ":%s", name);
	setenv("TZ", env, 1);
	tzset();
	int bad = 0;
	for (int i = 0; i < samples && bad < 5; i++) {
		int64_t t = -2208988800LL + (int64_t)(rnd() % (6311433600ULL));
		if (i % 4 == 0) /* near a transition: probe 2026-2030 densely */
			t = utc("2026-01-01T00:00:00Z") + (int64_t)(rnd() % (5 * 366 * 86400ULL));
		time_t tt = (time_t)t;
		struct tm tm;
		localtime_r(&tt, &tm);
		struct civil c;
		tz_to_civil(z, t, &c);
		if (tm.tm_gmtoff != tz_offset(z, t) || c.year != tm.tm_year + 1900 ||
		    c.month != tm.tm_mon + 1 || c.day != tm.tm_mday || c.hour != tm.tm_hour ||
		    c.min != tm.tm_min || c.sec != tm.tm_sec || strcmp(tm.tm_zone, tz_abbr(z, t))) {
			printf("# %s at %lld: glibc %ld %s, tz %d %s\n", name, (long long)t,
			    tm.tm_gmtoff, tm.tm_zone, tz_offset(z, t), tz_abbr(z, t));
			bad++;
		}
	}
	check(bad == 0, "%s agrees with glibc at %d instants", name, samples);
	unsetenv("TZ");
	tz_free(z);
}

/* Every wall minute maps back to itself: tz_from_civil's instants have that
 * wall time, and a wall time with none lies in a spring-forward gap. */
static void
roundtrip(const char *name)
{
	struct tz *z = load(name);
	int bad = 0, gaps = 0, folds = 0;
	int64_t start = utc("2026-01-01T00:00:00Z"), end = utc("2031-01-01T00:00:00Z");
	for (int64_t t = start; t < end && bad < 5; t += 7 * 60 + (int64_t)(rnd() % 600)) {
		int64_t local = t + tz_offset(z, t), out[2];
		local -= local % 60;
		int n = tz_from_local(z, local, out);
		for (int k = 0; k < n; k++)
			if (out[k] + tz_offset(z, out[k]) != local)
				bad++;
		if (n == 0) {
			gaps++;
			/* a gap: the minute before and after exist */
			int64_t a[2], b[2];
			(void)a, (void)b;
		}
		if (n == 2)
			folds++;
		if (n == 2 && !(out[0] < out[1]))
			bad++;
	}
	check(bad == 0, "%s: wall times map back to themselves (%d in gaps, %d repeated)", name,
	    gaps, folds);
	tz_free(z);
}

struct known {
	const char *zone, *at;
	int off;
	const char *abbr, *local;
};

static const struct known known[] = {
	{"America/New_York", "2026-03-08T06:59:59Z", -5 * 3600, "EST", "2026-03-08 01:59:59"},
	{"America/New_York", "2026-03-08T07:00:00Z", -4 * 3600, "EDT", "2026-03-08 03:00"},
	{"America/New_York", "2026-11-01T05:59:59Z", -4 * 3600, "EDT", "2026-11-01 01:59:59"},
	{"America/New_York", "2026-11-01T06:00:00Z", -5 * 3600, "EST", "2026-11-01 01:00"},
	{"America/New_York", "2090-07-01T12:00:00Z", -4 * 3600, "EDT", "2090-07-01 08:00"},
	{"America/New_York", "2400-01-01T12:00:00Z", -5 * 3600, "EST", "2400-01-01 07:00"},
	{"America/New_York", "2400-07-01T12:00:00Z", -4 * 3600, "EDT", "2400-07-01 08:00"},
	{"Europe/London", "2026-03-29T00:59:59Z", 0, "GMT", "2026-03-29 00:59:59"},
	{"Europe/London", "2026-03-29T01:00:00Z", 3600, "BST", "2026-03-29 02:00"},
	{"Europe/London", "2026-10-25T00:59:59Z", 3600, "BST", "2026-10-25 01:59:59"},
	{"Europe/London", "2026-10-25T01:00:00Z", 0, "GMT", "2026-10-25 01:00"},
	{"Australia/Lord_Howe", "2026-10-03T15:29:59Z", 37800, "+1030", "2026-10-04 01:59:59"},
	{"Australia/Lord_Howe", "2026-10-03T15:30:00Z", 39600, "+11", "2026-10-04 02:30"},
	{"Australia/Lord_Howe", "2026-04-04T14:59:59Z", 39600, "+11", "2026-04-05 01:59:59"},
	{"Australia/Lord_Howe", "2026-04-04T15:00:00Z", 37800, "+1030", "2026-04-05 01:30"},
	{"Pacific/Chatham", "2026-09-26T13:59:59Z", 45900, "+1245", "2026-09-27 02:44:59"},
	{"Pacific/Chatham", "2026-09-26T14:00:00Z", 49500, "+1345", "2026-09-27 03:45"},
	{"Pacific/Chatham", "2026-04-04T13:59:59Z", 49500, "+1345", "2026-04-05 03:44:59"},
	{"Pacific/Chatham", "2026-04-04T14:00:00Z", 45900, "+1245", "2026-04-05 02:45"},
	{"Asia/Kolkata", "2026-06-01T00:00:00Z", 19800, "IST", "2026-06-01 05:30"},
	{"Asia/Kolkata", "1942-09-01T00:00:00Z", 23400, "+0630", "1942-09-01 06:30"},
	{"Australia/Sydney", "2026-04-04T15:59:59Z", 39600, "AEDT", "2026-04-05 02:59:59"},
	{"Australia/Sydney", "2026-04-04T16:00:00Z", 36000, "AEST", "2026-04-05 02:00"},
	{"Asia/Tehran", "2026-06-01T00:00:00Z", 12600, "+0330", "2026-06-01 03:30"},
	{"America/St_Johns", "2026-03-08T05:29:59Z", -12600, "NST", "2026-03-08 01:59:59"},
	{"America/St_Johns", "2026-03-08T05:30:00Z", -9000, "NDT", "2026-03-08 03:00"},
	{"UTC", "2026-06-01T00:00:00Z", 0, "UTC", "2026-06-01 00:00"},
	{"Pacific/Apia", "2011-12-30T10:00:00Z", 14 * 3600, "+14", "2011-12-31 00:00"},
	{"Pacific/Apia", "2011-12-30T09:59:59Z", -10 * 3600, "-10", "2011-12-29 23:59:59"},
};

static void
known_values(void)
{
	for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
		const struct known *k = &known[i];
		struct tz *z = load(k->zone);
		int64_t t = utc(k->at);
		char buf[64];
		tz_fmt_local(z, t, buf, sizeof buf);
		check(tz_offset(z, t) == k->off && strcmp(tz_abbr(z, t), k->abbr) == 0 &&
		    strcmp(buf, k->local) == 0, "%s at %s is %s %s (%+d)", k->zone, k->at, k->local,
		    k->abbr, k->off);
		if (tz_offset(z, t) != k->off || strcmp(buf, k->local))
			printf("#   got %s %s %d\n", buf, tz_abbr(z, t), tz_offset(z, t));
		tz_free(z);
	}
}

static void
from_civil(void)
{
	struct tz *z = load("America/New_York");
	int64_t out[2];
	struct civil w = {2026, 3, 8, 2, 30, 0};
	check_int(tz_from_civil(z, &w, out), 0, "New York 2026-03-08 02:30 is in the gap");
	w = (struct civil){2026, 11, 1, 1, 30, 0};
	check_int(tz_from_civil(z, &w, out), 2, "New York 2026-11-01 01:30 happens twice");
	check_int(out[0], utc("2026-11-01T05:30:00Z"), "first as EDT");
	check_int(out[1], utc("2026-11-01T06:30:00Z"), "then as EST");
	w = (struct civil){2026, 7, 4, 12, 0, 0};
	check_int(tz_from_civil(z, &w, out), 1, "an ordinary wall time happens once");
	check_int(out[0], utc("2026-07-04T16:00:00Z"), "at its instant");
	tz_free(z);
	z = load("Australia/Lord_Howe");
	w = (struct civil){2026, 10, 4, 2, 15, 0};
	check_int(tz_from_civil(z, &w, out), 0, "Lord Howe 02:15 is in the 30-minute gap");
	w = (struct civil){2026, 4, 5, 1, 45, 0};
	check_int(tz_from_civil(z, &w, out), 2, "Lord Howe 01:45 repeats");
	check_int(out[1] - out[0], 1800, "30 minutes apart");
	tz_free(z);
}

static void
formats(void)
{
	struct tz *z = load("Asia/Kolkata");
	char buf[64];
	tz_fmt_rfc3339(z, utc("2026-11-23T01:30:00Z"), buf, sizeof buf);
	check_str(buf, "2026-11-23T07:00:00+05:30", "RFC 3339 in the zone's offset");
	tz_free(z);
	z = load("America/St_Johns");
	tz_fmt_rfc3339(z, utc("2026-01-10T12:00:00Z"), buf, sizeof buf);
	check_str(buf, "2026-01-10T08:30:00-03:30", "negative half-hour offsets");
	tz_free(z);
	z = load("UTC");
	tz_fmt_rfc3339(z, 0, buf, sizeof buf);
	check_str(buf, "1970-01-01T00:00:00+00:00", "UTC is +00:00");
	tz_free(z);
}

static void
iso(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{"2026-04-22T22:32:39+02:00", "2026-04-22T20:32:39Z"},
		{"2026-04-23T06:00:00Z", "2026-04-23T06:00:00Z"},
		{"2026-04-22T23:15:00", "2026-04-22T21:15:00Z"},  /* naive: Berlin's CEST */
		{"2026-04-22T23:15", "2026-04-22T21:15:00Z"},
		{"2026-01-10T12:00", "2026-01-10T11:00:00Z"},     /* CET */
		{"2026-04-22", "2026-04-21T22:00:00Z"},           /* a date: its midnight */
		{"2026-03-29T02:30", "2026-03-29T01:30:00Z"},     /* in the gap: the offset before */
		{"2026-10-25T02:30", "2026-10-25T00:30:00Z"},     /* repeated: the first pass */
		{"tomorrow at 10", NULL}, {"2026-13-01T00:00", NULL}, {"2026-04-22T25:00", NULL},
		{"2026-04", NULL}, {"", NULL},
	};
	struct tz *z = load("Europe/Berlin");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int64_t t = 0;
		char buf[64] = "-";
		int rc = tz_parse_iso(z, cases[i].in, &t);
		if (rc == 0)
			time_fmt_utc(t, buf, sizeof buf);
		if (cases[i].want)
			check_str(buf, cases[i].want, "ISO '%s' in Berlin", cases[i].in);
		else
			check_int(rc, -1, "'%s' is not ISO 8601", cases[i].in);
	}
	tz_free(z);
}

static void
names(void)
{
	struct tz *z = NULL;
	struct err e = {{0}};
	check_int(tz_load("Mars/Base", &z, &e), ST_INVALID, "an unknown zone is an error");
	check_str(e.msg, "unknown time zone 'Mars/Base'", "and says so");
	const char *bad[] = {"../../etc/passwd", "/etc/passwd", "Europe/../../../etc/passwd",
		"Europe//London", "", "Europe/", ".", "zone.tab", "America", "Europe London"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		if (!bad[i][0])
			continue;
		check_int(tz_load(bad[i], &z, &e), ST_INVALID, "'%s' is refused", bad[i]);
		check(!tz_valid_name(bad[i]), "'%s' is not a valid name", bad[i]);
	}
	check(tz_valid_name("Europe/London"), "Europe/London is valid");
	char buf[128];
	setenv("TZ", ":Europe/Berlin", 1);
	check_str(tz_local_name(buf, sizeof buf), "Europe/Berlin", "TZ=:Name names the local zone");
	check_int(tz_load(NULL, &z, &e), ST_OK, "and tz_load(NULL) loads it");
	check_str(tz_name(z), "Europe/Berlin", "by its IANA name");
	tz_free(z);
	setenv("TZ", "Asia/Tokyo", 1);
	check_int(tz_load("", &z, &e), ST_OK, "TZ=Name works too");
	check_str(tz_name(z), "Asia/Tokyo", "as Asia/Tokyo");
	tz_free(z);
	setenv("TZ", "FOO3BAR", 1);
	check_int(tz_load(NULL, &z, &e), ST_INVALID, "a POSIX TZ string without a file is an error");
	check_str(e.msg, "unknown time zone 'FOO3BAR' (from TZ)", "that names TZ");
	setenv("TZ", "EST5EDT", 1);
	check_int(tz_load(NULL, &z, &e), ST_OK, "EST5EDT has a file, so it loads");
	tz_free(z);
	unsetenv("TZ");
	check(tz_local_name(buf, sizeof buf)[0] != 0, "without TZ the local zone is '%s'", buf);
	check(tz_valid_name(buf) || strcmp(buf, "UTC") == 0, "and it is a zone");
	setenv("TZDIR", "/nonexistent", 1);
	check_int(tz_load("Europe/London", &z, &e), ST_INVALID, "TZDIR is honoured");
	unsetenv("TZDIR");
}

int
main(void)
{
	known_values();
	from_civil();
	formats();
	iso();
	names();
	int samples = 4000;
#ifdef __SANITIZE_ADDRESS__
	samples = 800;
#endif
	for (size_t i = 0; i < sizeof zones / sizeof *zones; i++) {
		against_glibc(zones[i], samples);
		roundtrip(zones[i]);
	}
	return tap_done();
}
