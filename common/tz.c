/* tz.c: IANA time zones from the system's TZif files (tzfile(5), RFC 8536).
 *
 * A zone is read once into a table of transitions (the 64-bit section of a
 * v2+ file) and the POSIX TZ rule of the file's footer.  At load time the
 * table is extended with the footer's transitions up to EXT_YEAR so that the
 * common case is one binary search; instants past that follow the footer rule
 * computed on the fly.  No TZ/tzset()/localtime(): nothing global, nothing
 * shared between zones. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tz.h"

#define ZONEINFO "/usr/share/zoneinfo"
#define EXT_YEAR 2200     /* footer transitions are tabulated up to here */
#define TZ_FILE_MAX (1 << 20)

struct ttinfo {
	int32_t off;   /* UTC offset, seconds east */
	uint8_t isdst;
	uint16_t abbr; /* index into chars */
};

/* One date of a POSIX TZ rule: Jn (1-365, Feb 29 never counted), n (0-365)
 * or Mm.w.d; `time` is seconds after local midnight, -167h..167h (v3). */
struct rule {
	char kind; /* 'J', 'D' or 'M' */
	int mon, week, day, n;
	int32_t time;
};

struct tz {
	char *name;
	int64_t *at;           /* transition instants, ascending */
	uint8_t *ti;           /* type index after each transition */
	size_t n;
	struct ttinfo *types;
	size_t ntypes;
	char *chars;
	size_t nchars;
	int initial;           /* type before the first transition */
	int has_footer, has_dst;
	int std_type, dst_type; /* footer types */
	struct rule start, end;
};

static int
leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* ---- names ---- */

static const char *
zoneinfo_dir(void)
{
	const char *d = getenv("TZDIR");
	return d && *d ? d : ZONEINFO;
}

/* A zone name stays below the zoneinfo directory: relative, no "..", no
 * empty components, only the characters tz names use. */
static int
name_safe(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > 255 || name[0] == '/' || name[len - 1] == '/')
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/_+-.", *p))
			return 0;
	for (const char *p = name; *p;) {
		const char *q = strchr(p, '/');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l == 0 || (p[0] == '.' && (l == 1 || (l == 2 && p[1] == '.'))))
			return 0;
		p += l + (q != NULL);
	}
	return 1;
}

static int
read_zone_file(const char *name, struct buf *b)
{
	if (!name_safe(name))
		return -1;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", zoneinfo_dir(), name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int rc = -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && buf_read_fd(b, fd, TZ_FILE_MAX) == 0 &&
	    b->len >= 44 && memcmp(b->data, "TZif", 4) == 0)
		rc = 0;
	close(fd);
	return rc;
}

int
tz_valid_name(const char *name)
{
	struct buf b = {0};
	int ok = name && read_zone_file(name, &b) == 0;
	buf_free(&b);
	return ok;
}

const char *
tz_local_name(char *buf, size_t n)
{
	const char *env = getenv("TZ");
	if (env) {
		if (*env == ':')
			env++;
		if (!*env)
			env = "UTC";
		const char *dir = zoneinfo_dir();
		size_t dl = strlen(dir);
		if (strncmp(env, dir, dl) == 0 && env[dl] == '/')
			env += dl + 1;
		snprintf(buf, n, "%s", env);
		return buf;
	}
	char link[4096];
	ssize_t l = readlink("/etc/localtime", link, sizeof link - 1);
	if (l > 0) {
		link[l] = 0;
		char *p = NULL;
		for (char *q = link; (q = strstr(q, "zoneinfo/")); q++)
			p = q + strlen("zoneinfo/");
		if (p && *p && tz_valid_name(p)) {
			snprintf(buf, n, "%s", p);
			return buf;
		}
	}
	FILE *f = fopen("/etc/timezone", "r");
	if (f) {
		char line[256];
		if (fgets(line, sizeof line, f)) {
			str_trim(line);
			if (tz_valid_name(line)) {
				fclose(f);
				snprintf(buf, n, "%s", line);
				return buf;
			}
		}
		fclose(f);
	}
	snprintf(buf, n, "UTC");
	return buf;
}

/* ---- the POSIX TZ rule of the footer ---- */

static const char *
parse_abbr(const char *p, const char **s, size_t *len)
{
	if (*p == '<') {
		const char *q = ++p;
		while (*q && *q != '>')
			q++;
		if (*q != '>' || q - p < 1)
			return NULL;
		*s = p, *len = (size_t)(q - p);
		return q + 1;
	}
	const char *q = p;
	while (isalpha((unsigned char)*q))
		q++;
	if (q - p < 3)
		return NULL;
	*s = p, *len = (size_t)(q - p);
	return q;
}

/* [+-]hh[:mm[:ss]] with hh up to maxh. */
static const char *
parse_hms(const char *p, int maxh, int32_t *out)
{
	int sign = 1;
	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*p))
		return NULL;
	long h = 0, m = 0, s = 0;
	while (isdigit((unsigned char)*p) && h <= maxh)
		h = h * 10 + (*p++ - '0');
	if (h > maxh)
		return NULL;
	if (*p == ':') {
		p++;
		if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
			return NULL;
		m = (p[0] - '0') * 10 + (p[1] - '0');
		p += 2;
		if (*p == ':') {
			p++;
			if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
				return NULL;
			s = (p[0] - '0') * 10 + (p[1] - '0');
			p += 2;
		}
	}
	if (m > 59 || s > 59)
		return NULL;
	*out = (int32_t)(sign * (h * 3600 + m * 60 + s));
	return p;
}

static const char *
parse_num(const char *p, int lo, int hi, int *out)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	long v = 0;
	while (isdigit((unsigned char)*p) && v <= hi)
		v = v * 10 + (*p++ - '0');
	if (v < lo || v > hi)
		return NULL;
	*out = (int)v;
	return p;
}

static const char *
parse_rule(const char *p, struct rule *r)
{
	if (*p == 'M') {
		r->kind = 'M';
		if (!(p = parse_num(p + 1, 1, 12, &r->mon)) || *p++ != '.' ||
		    !(p = parse_num(p, 1, 5, &r->week)) || *p++ != '.' ||
		    !(p = parse_num(p, 0, 6, &r->day)))
			return NULL;
	} else if (*p == 'J') {
		r->kind = 'J';
		if (!(p = parse_num(p + 1, 1, 365, &r->n)))
			return NULL;
	} else {
		r->kind = 'D';
		if (!(p = parse_num(p, 0, 365, &r->n)))
			return NULL;
	}
	r->time = 7200;
	if (*p == '/' && !(p = parse_hms(p + 1, 167, &r->time)))
		return NULL;
	return p;
}

/* Seconds from the epoch to local midnight of the rule's day in year y. */
static int64_t
rule_day(const struct rule *r, int64_t y)
{
	int64_t d;
	switch (r->kind) {
	case 'J':
		d = days_from_civil(y, 1, 1) + r->n - 1;
		if (leap(y) && r->n >= 60)
			d++;
		break;
	case 'D':
		d = days_from_civil(y, 1, 1) + r->n;
		break;
	default: {
		int64_t first = days_from_civil(y, (unsigned)r->mon, 1);
		int wd = weekday_from_days(first);
		d = first + (r->day - wd + 7) % 7 + (r->week - 1) * 7;
		int dim = days_in_month(y, (unsigned)r->mon);
		while (d >= first + dim)
			d -= 7;
	}
	}
	return d * 86400;
}

static int
find_type(struct tz *z, int32_t off, int isdst, const char *abbr, size_t alen)
{
	for (size_t i = 0; i < z->ntypes; i++) {
		const char *a = z->chars + z->types[i].abbr;
		if (z->types[i].off == off && z->types[i].isdst == isdst && strlen(a) == alen &&
		    memcmp(a, abbr, alen) == 0)
			return (int)i;
	}
	if (z->ntypes >= 255)
		return -1;
	z->chars = xrealloc(z->chars, z->nchars + alen + 1);
	memcpy(z->chars + z->nchars, abbr, alen);
	z->chars[z->nchars + alen] = 0;
	z->types = xrealloc(z->types, (z->ntypes + 1) * sizeof *z->types);
	z->types[z->ntypes] = (struct ttinfo){off, (uint8_t)isdst, (uint16_t)z->nchars};
	z->nchars += alen + 1;
	return (int)z->ntypes++;
}

static int
parse_footer(struct tz *z, const char *p)
{
	const char *sa, *da;
	size_t sl, dl;
	int32_t stdo, dsto;
	if (!(p = parse_abbr(p, &sa, &sl)) || !(p = parse_hms(p, 24, &stdo)))
		return -1;
	stdo = -stdo;
	int st = find_type(z, stdo, 0, sa, sl);
	if (st < 0)
		return -1;
	z->std_type = z->dst_type = st;
	z->has_footer = 1;
	if (!*p)
		return 0;
	if (!(p = parse_abbr(p, &da, &dl)))
		return -1;
	dsto = stdo + 3600;
	if (*p && *p != ',') {
		if (!(p = parse_hms(p, 24, &dsto)))
			return -1;
		dsto = -dsto;
	}
	if (!*p) {
		p = ",M3.2.0,M11.1.0";
	}
	if (*p++ != ',' || !(p = parse_rule(p, &z->start)) || *p++ != ',' ||
	    !(p = parse_rule(p, &z->end)) || *p)
		return -1;
	int dt = find_type(z, dsto, 1, da, dl);
	if (dt < 0)
		return -1;
	z->dst_type = dt;
	z->has_dst = 1;
	return 0;
}

struct event {
	int64_t at;
	int type;
};

/* The footer's transitions of year y in order (0 or 2 events).  DST starts
 * at a local standard time and ends at a local daylight time. */
static int
year_events(const struct tz *z, int64_t y, struct event ev[2])
{
	if (!z->has_dst)
		return 0;
	int64_t s = rule_day(&z->start, y) + z->start.time - z->types[z->std_type].off;
	int64_t e = rule_day(&z->end, y) + z->end.time - z->types[z->dst_type].off;
	/* Ends sort before starts at one instant, so "DST all year" stays DST. */
	if (s < e) {
		ev[0] = (struct event){s, z->dst_type};
		ev[1] = (struct event){e, z->std_type};
	} else {
		ev[0] = (struct event){e, z->std_type};
		ev[1] = (struct event){s, z->dst_type};
	}
	return 2;
}

/* The footer around t: the type in force, the last event <= t and the first
 * event > t (INT64_MIN/INT64_MAX when there is none). */
static int
footer_at(const struct tz *z, int64_t t, int64_t *start, int64_t *end)
{
	*start = INT64_MIN, *end = INT64_MAX;
	if (!z->has_dst)
		return z->std_type;
	int64_t y = year_of(t);
	struct event ev[6];
	int n = 0;
	for (int64_t k = y - 1; k <= y + 1; k++)
		n += year_events(z, k, ev + n);
	int type = z->std_type, found = 0;
	for (int i = 0; i < n; i++) {
		if (ev[i].at <= t) {
			type = ev[i].type, *start = ev[i].at, found = 1;
		} else {
			*end = ev[i].at;
			break;
		}
	}
	if (!found) /* not reached for real rules: each year has two events */
		type = ev[n - 1].type == z->dst_type ? z->std_type : z->dst_type;
	return type;
}

/* ---- reading a TZif file ---- */

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t
be64(const unsigned char *p)
{
	return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

static int
parse_tzif(struct tz *z, const unsigned char *d, size_t len)
{
	const unsigned char *p = d, *end = d + len;
	int version = d[4];
	uint32_t cnt[6];
	for (int i = 0; i < 6; i++)
		cnt[i] = be32(p + 20 + 4 * i);
	int tsize = 4;
	/* isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt */
	size_t v1 = (size_t)cnt[3] * 5 + (size_t)cnt[4] * 6 + cnt[5] + (size_t)cnt[2] * 8 + cnt[1] + cnt[0];
	p += 44;
	if (version >= '2') {
		if ((size_t)(end - p) < v1 + 44)
			return -1;
		p += v1;
		if (memcmp(p, "TZif", 4) != 0)
			return -1;
		for (int i = 0; i < 6; i++)
			cnt[i] = be32(p + 20 + 4 * i);
		p += 44;
		tsize = 8;
	}
	uint32_t timecnt = cnt[3], typecnt = cnt[4], charcnt = cnt[5];
	size_t need = (size_t)timecnt * (tsize + 1) + (size_t)typecnt * 6 + charcnt +
	    (size_t)cnt[2] * (tsize + 4) + cnt[1] + cnt[0];
	if (typecnt == 0 || typecnt > 255 || charcnt == 0 || (size_t)(end - p) < need)
		return -1;
	z->at = xmalloc((timecnt + 1) * sizeof *z->at);
	z->ti = xmalloc(timecnt + 1);
	for (uint32_t i = 0; i < timecnt; i++) {
		z->at[i] = tsize == 8 ? be64(p) : (int32_t)be32(p);
		p += tsize;
		if (i && z->at[i] <= z->at[i - 1])
			return -1;
	}
	for (uint32_t i = 0; i < timecnt; i++) {
		if (*p >= typecnt)
			return -1;
		z->ti[i] = *p++;
	}
	z->n = timecnt;
	z->types = xmalloc(typecnt * sizeof *z->types);
	for (uint32_t i = 0; i < typecnt; i++, p += 6) {
		int32_t off = (int32_t)be32(p);
		if (off < -25 * 3600 || off > 26 * 3600 || p[5] >= charcnt)
			return -1;
		z->types[i] = (struct ttinfo){off, p[4] != 0, p[5]};
	}
	z->ntypes = typecnt;
	z->chars = xmalloc(charcnt + 1);
	memcpy(z->chars, p, charcnt);
	z->chars[charcnt] = 0;
	z->nchars = charcnt + 1;
	p += charcnt + (size_t)cnt[2] * (tsize + 4) + cnt[1] + cnt[0];
	z->initial = 0;
	if (tsize == 8 && p < end && *p == '\n') {
		const unsigned char *q = memchr(p + 1, '\n', (size_t)(end - p - 1));
		if (q && q > p + 1) {
			char foot[256];
			size_t fl = (size_t)(q - p - 1);
			if (fl >= sizeof foot)
				return -1;
			memcpy(foot, p + 1, fl);
			foot[fl] = 0;
			if (parse_footer(z, foot) != 0)
				return -1;
		}
	}
	return 0;
}

/* Tabulate the footer's transitions after the table up to EXT_YEAR. */
static void
extend(struct tz *z)
{
	if (!z->has_dst)
		return;
	int64_t last = z->n ? z->at[z->n - 1] : INT64_MIN;
	int64_t y0 = z->n ? year_of(last) : 1970;
	if (y0 > EXT_YEAR)
		return;
	size_t cap = z->n + (size_t)(EXT_YEAR - y0 + 1) * 2 + 1;
	z->at = xrealloc(z->at, cap * sizeof *z->at);
	z->ti = xrealloc(z->ti, cap);
	int cur = z->n ? z->ti[z->n - 1] : z->initial;
	for (int64_t y = y0; y <= EXT_YEAR; y++) {
		struct event ev[2];
		int k = year_events(z, y, ev);
		for (int i = 0; i < k; i++) {
			if (ev[i].at <= last || z->types[ev[i].type].off == z->types[cur].off)
				continue;
			z->at[z->n] = ev[i].at;
			z->ti[z->n++] = (uint8_t)ev[i].type;
			cur = ev[i].type, last = ev[i].at;
		}
	}
}

static struct tz *
tz_utc(const char *name)
{
	struct tz *z = xcalloc(1, sizeof *z);
	z->name = xstrdup(name);
	z->types = xcalloc(1, sizeof *z->types);
	z->ntypes = 1;
	z->chars = xstrdup("UTC");
	z->nchars = 4;
	return z;
}

int
tz_load(const char *name, struct tz **out, struct err *e)
{
	char local[256];
	const char *from = "";
	*out = NULL;
	if (!name || !*name) {
		name = tz_local_name(local, sizeof local);
		if (getenv("TZ"))
			from = " (from TZ)";
	}
	struct buf b = {0};
	if (read_zone_file(name, &b) != 0) {
		buf_free(&b);
		if (strcmp(name, "UTC") == 0 || strcmp(name, "Etc/UTC") == 0) {
			*out = tz_utc(name);
			return ST_OK;
		}
		return err_set(e, ST_INVALID, "unknown time zone '%s'%s", name, from);
	}
	struct tz *z = xcalloc(1, sizeof *z);
	z->name = xstrdup(name);
	if (parse_tzif(z, (const unsigned char *)b.data, b.len) != 0) {
		buf_free(&b);
		tz_free(z);
		return err_set(e, ST_INVALID, "time zone '%s': not a valid TZif file", name);
	}
	buf_free(&b);
	extend(z);
	*out = z;
	return ST_OK;
}

void
tz_free(struct tz *z)
{
	if (!z)
		return;
	free(z->name);
	free(z->at);
	free(z->ti);
	free(z->types);
	free(z->chars);
	free(z);
}

const char *
tz_name(const struct tz *z)
{
	return z->name;
}

/* ---- lookups ---- */

/* Index of the last transition <= t, or -1. */
static ptrdiff_t
search(const struct tz *z, int64_t t)
{
	size_t lo = 0, hi = z->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (z->at[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

static int
type_at(const struct tz *z, int64_t t)
{
	if (z->has_footer && (z->n == 0 || t >= z->at[z->n - 1])) {
		int64_t s, e;
		if (z->n && !z->has_dst)
			return z->std_type;
		return footer_at(z, t, &s, &e);
	}
	ptrdiff_t i = search(z, t);
	return i < 0 ? z->initial : z->ti[i];
}

int32_t
tz_offset(const struct tz *z, int64_t t)
{
	return z->types[type_at(z, t)].off;
}

const char *
tz_abbr(const struct tz *z, int64_t t)
{
	return z->chars + z->types[type_at(z, t)].abbr;
}

void
tz_segment(const struct tz *z, int64_t t, struct tz_segment *s)
{
	int type;
	if (z->has_footer && (z->n == 0 || t >= z->at[z->n - 1])) {
		type = footer_at(z, t, &s->start, &s->end);
		if (z->n && s->start < z->at[z->n - 1])
			s->start = z->at[z->n - 1];
	} else {
		ptrdiff_t i = search(z, t);
		type = i < 0 ? z->initial : z->ti[i];
		s->start = i < 0 ? INT64_MIN : z->at[i];
		s->end = (size_t)(i + 1) < z->n ? z->at[i + 1] : INT64_MAX;
		s->off = z->types[type].off;
		s->prev_off = i < 0 ? s->off : z->types[i == 0 ? z->initial : z->ti[i - 1]].off;
		return;
	}
	s->off = z->types[type].off;
	s->prev_off = s->start == INT64_MIN ? s->off : tz_offset(z, s->start - 1);
}

static void
local_civil(int64_t local, struct civil *out)
{
	int64_t days = floor_div(local, 86400), secs = local - days * 86400;
	unsigned m, d;
	civil_from_days(days, &out->year, &m, &d);
	out->month = (int)m, out->day = (int)d;
	out->hour = (int)(secs / 3600), out->min = (int)(secs / 60 % 60), out->sec = (int)(secs % 60);
}

void
tz_to_civil(const struct tz *z, int64_t t, struct civil *out)
{
	local_civil(t + tz_offset(z, t), out);
}

int64_t
tz_civil_seconds(const struct civil *w)
{
	return days_from_civil(w->year, (unsigned)w->month, (unsigned)w->day) * 86400 +
	    (int64_t)w->hour * 3600 + (int64_t)w->min * 60 + w->sec;
}

int
tz_from_local(const struct tz *z, int64_t local, int64_t out[2])
{
	/* Every instant with this wall time lies within a day of local; walk the
	 * segments of that window and keep each one whose offset maps into it. */
	int n = 0;
	int64_t t = local - 27 * 3600;
	while (t <= local + 27 * 3600 && n < 2) {
		struct tz_segment s;
		tz_segment(z, t, &s);
		int64_t c = local - s.off;
		if (c >= t && c < s.end && (n == 0 || c > out[n - 1]))
			out[n++] = c;
		if (s.end == INT64_MAX)
			break;
		t = s.end;
	}
	return n;
}

int
tz_from_civil(const struct tz *z, const struct civil *wall, int64_t out[2])
{
	return tz_from_local(z, tz_civil_seconds(wall), out);
}

void
tz_fmt_local(const struct tz *z, int64_t t, char *buf, size_t n)
{
	tz_fmt_wall(t + tz_offset(z, t), buf, n);
}

void
tz_fmt_wall(int64_t local, char *buf, size_t n)
{
	struct civil c;
	local_civil(local, &c);
	if (c.sec)
		snprintf(buf, n, "%04lld-%02d-%02d %02d:%02d:%02d", (long long)c.year, c.month, c.day,
		    c.hour, c.min, c.sec);
	else
		snprintf(buf, n, "%04lld-%02d-%02d %02d:%02d", (long long)c.year, c.month, c.day,
		    c.hour, c.min);
}

void
tz_fmt_rfc3339(const struct tz *z, int64_t t, char *buf, size_t n)
{
	/* RFC 3339 offsets have no seconds: round a local-mean-time offset to
	 * the minute and show the wall time of that offset, so the string still
	 * names the instant t. */
	int32_t off = tz_offset(z, t);
	off -= off % 60;
	struct civil c;
	local_civil(t + off, &c);
	int32_t a = off < 0 ? -off : off;
	snprintf(buf, n, "%04lld-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", (long long)c.year, c.month,
	    c.day, c.hour, c.min, c.sec, off < 0 ? '-' : '+', (int)(a / 3600), (int)(a / 60 % 60));
}

int
tz_parse_iso(const struct tz *z, const char *s, int64_t *out)
{
	char tmp[64];
	size_t n = strlen(s);
	if (time_parse_rfc3339(s, out) == 0)
		return 0;
	if (n < 10 || n > 40)
		return -1;
	/* Naive: the same grammar read as UTC gives the wall time's local seconds. */
	snprintf(tmp, sizeof tmp, n == 10 ? "%sT00:00Z" : "%sZ", s);
	int64_t local, at[2];
	if (time_parse_rfc3339(tmp, &local) != 0)
		return -1;
	int k = tz_from_local(z, local, at);
	/* In a spring-forward gap: the wall time read with the offset before it. */
	*out = k ? at[0] : local - tz_offset(z, local - 86400);
	return 0;
}
